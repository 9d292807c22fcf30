"""What keeps one client from overloading the table server (issue 17, item 4).

* :class:`Limits`: every limit, configurable (``pendragon serve`` flags; 0 switches one
  off). :meth:`Limits.off` switches them all off (tests that hammer the server).
* :class:`TokenBucket` and :class:`RateLimiter`: per-client token buckets. A client is
  the peer's address, or, for a request that comes from one of the reverse proxies named
  in ``trusted_proxies``, the address that proxy put in ``trusted_header``
  (:func:`client_address`; no proxy is trusted by default, since anyone can send that
  header).
* :class:`BotScheduler`: runs bot moves on a few worker threads, fairly between tables:
  a table whose bots have used their share of thinking time in the last window waits,
  tables where a person is connected go first, and among the others the table that
  thought least lately goes first.
* :func:`dumps_sharing` and :func:`loads_sharing`: what goes between the server and its own
  worker processes (bots, hints, a table's loader), states by their fields unchecked (the
  trusted fast path, issue 41 item 3b; anything from outside is read by the checked path).

>>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> bucket.take(0.0), bucket.take(0.0), bucket.take(0.0)
(0.0, 0.0, 1.0)
>>> bucket.take(1.0)
0.0
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import io
import ipaddress
import itertools
import math
import multiprocessing
import os
import pickle
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

from pendragon.core.api import Game, State

Result = TypeVar("Result")

#: The client of the request being served (set by the rate-limiting middleware for every
#: HTTP request and WebSocket; ``None`` outside one), for limits deep in the table code
#: such as the cold loads a client may have under way.
current_client: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "pendragon_client", default=None)

#: Priorities of the bot pool's work (lower goes first): a bot move at a table where a
#: person has a page open; a coach's hint (a person asked, but the table plays on without
#: it: below every bot turn, issue 36 item 1); a bot move at any other table.
PRIORITY_PEOPLE = 0
PRIORITY_HINT = 1
PRIORITY_BOTS_ONLY = 2
#: Niceness of bot worker processes: the OS runs the server's event loop first.
BOT_NICE = 10
#: Niceness of the coach's hint process: the OS runs the bots' moves first (issue 36).
HINT_NICE = 19


@dataclass(frozen=True)
class Limits:
    """Every limit of the table server. A rate or a count of 0 switches that limit off.

    Rates are per client (see :func:`client_address`) and per second, with a burst: a
    client may spend ``burst`` at once, then ``rate`` a second.
    """

    #: Tables a client may create (one every 5 s after a burst of 5).
    create_rate: float = 0.2
    create_burst: int = 5
    #: Other writes over HTTP (moves, chat, names, seats) a client may send.
    write_rate: float = 10.0
    write_burst: int = 50
    #: Reads over HTTP (``GET /api/...``: the lobby, a table, a replay and its steps; not
    #: ``/api/health`` nor ``/api/metrics``), each of which may read the database.
    read_rate: float = 20.0
    read_burst: int = 100
    #: WebSocket connections a client may open.
    connect_rate: float = 1.0
    connect_burst: int = 20
    #: WebSocket messages a client may send, over all its connections.
    message_rate: float = 20.0
    message_burst: int = 60
    #: Addresses or networks (``10.0.0.2``, ``10.1.0.0/16``, ``::1``) of the reverse
    #: proxies in front of the server. Only a request whose peer is one of them has its
    #: client read from ``trusted_header``; none by default (any client may send the
    #: header, so believing it from anyone lets one client pose as many).
    trusted_proxies: tuple[str, ...] = ()
    #: The header those proxies append the client's address to.
    trusted_header: str = "X-Forwarded-For"
    #: Live tables where bots hold every seat (unfinished, their bots playing: not paused
    #: for want of watchers): on the server, and created by one client.
    bot_tables: int = 40
    bot_tables_per_client: int = 2
    #: A table's bots may think this fraction of wall-clock time (over ``bot_cpu_window``
    #: seconds); a table over its share waits.
    bot_cpu_share: float = 0.25
    bot_cpu_window: float = 10.0
    #: Simulated actions an ISMCTS bot may spend on one move on this server.
    ismcts_budget: int = 4000
    #: A table nobody watches, with no move and no visit for this many seconds, is
    #: unloaded from memory (reloaded when opened).
    idle_unload: float = 300.0
    #: Bots of a table where bots hold every seat stop this many seconds after its last
    #: watcher left or its last visit (they play on when someone opens it).
    unwatched_grace: float = 30.0
    #: Clients whose buckets are remembered (the least recently seen are forgotten).
    max_clients: int = 100_000
    #: Hint searches one client may have queued or running at once (a table has at most
    #: one: its decision's; issue 36, item 1).
    hints_per_client: int = 2
    #: Connections (HTTP and WebSocket) one client may hold open at once, and the seconds
    #: a request has to send its headers and body (issue 36, item 2).
    connections_per_client: int = 64
    request_timeout: float = 10.0
    #: Tables one client may be loading from the database at once (a cold load replays
    #: the whole game; issue 36, item 5).
    loads_per_client: int = 2

    @classmethod
    def off(cls) -> Limits:
        """No limit at all (tests that create tables by the hundred)."""
        zero: dict[str, Any] = {
            f.name: 0 for f in fields(cls) if f.name not in _NOT_LIMITS
        }
        return cls(**zero)

    def check(self) -> Limits:
        """``self``, or ``ValueError`` naming the first negative setting."""
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, int | float) and value < 0:
                raise ValueError(f"{item.name.replace('_', '-')} must not be negative")
        if self.bot_cpu_share > 1:
            raise ValueError("bot-cpu-share is a fraction of wall-clock time (at most 1)")
        _networks(self.trusted_proxies)
        if not self.trusted_header.strip() or not self.trusted_header.isascii():
            raise ValueError("trusted-header must name a header")
        return self

    def with_changes(self, **changes: Any) -> Limits:
        """A copy with ``changes``."""
        return replace(self, **changes)


#: Fields of :class:`Limits` that are not limits (:meth:`Limits.off` keeps them).
_NOT_LIMITS = ("trusted_proxies", "trusted_header", "max_clients")


@functools.cache
def _networks(proxies: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network,
                                                 ...]:
    """The networks of ``trusted_proxies``, or ``ValueError`` naming one that is none."""
    networks = []
    for text in proxies:
        try:
            networks.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(
                f"trusted-proxy {text!r} is not an IP address or network (10.0.0.2, 10.1.0.0/16)"
            ) from None
    return tuple(networks)


def _unmapped(ip: ipaddress.IPv4Address | ipaddress.IPv6Address
              ) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """``ip``, or the IPv4 address an IPv4-mapped IPv6 address (``::ffff:1.2.3.4``) stands
    for: one host, whichever form the socket reports."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _is_trusted(address: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network,
                                              ...]) -> bool:
    try:
        ip = _unmapped(ipaddress.ip_address(address))
    except ValueError:
        return False
    return any(ip in network for network in networks)


def trusted_peer(address: str, limits: Limits) -> bool:
    """Whether ``address`` (a socket's peer) is one of ``limits.trusted_proxies``."""
    return _is_trusted(address, _networks(limits.trusted_proxies))


def client_key(address: str) -> str:
    """The client an address is counted as (issue 36, item 7): an IPv4 address itself (also
    when written as IPv4-mapped IPv6), an IPv6 address's /64 (one subscriber's, who may
    use any of its 2^64 addresses); anything else as it is.

    >>> client_key("1.2.3.4"), client_key("::ffff:1.2.3.4")
    ('1.2.3.4', '1.2.3.4')
    >>> client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9")
    True
    >>> client_key("2001:db8:1:2::1"), client_key("2001:db8:1:3::1")
    ('2001:db8:1:2::/64', '2001:db8:1:3::/64')
    """
    try:
        ip = _unmapped(ipaddress.ip_address(address))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class RateLimited(Exception):
    """A client went over a rate; ``retry_after`` seconds until it may try again."""

    def __init__(self, what: str, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(f"too many {what}; try again in {seconds} s")
        self.retry_after = seconds


class TokenBucket:
    """``burst`` tokens refilled at ``rate`` a second; each request takes one."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.tokens = float(self.burst)
        self.stamp = now

    def take(self, now: float) -> float:
        """Take a token: 0.0 if one was there, else the seconds until one will be."""
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class RateLimiter:
    """Token buckets per (kind, client); remembers at most ``max_clients`` of them.

    >>> limiter = RateLimiter(Limits(create_rate=1, create_burst=1), clock=lambda: 0.0)
    >>> limiter.check("create", "10.0.0.1")
    >>> limiter.check("create", "10.0.0.1")
    Traceback (most recent call last):
    ...
    pendragon.web.limits.RateLimited: too many table creations; try again in 1 s
    >>> limiter.check("create", "10.0.0.2")
    """

    #: kind -> (rate attribute, burst attribute, words for the error message)
    KINDS = {
        "create": ("create_rate", "create_burst", "table creations"),
        "write": ("write_rate", "write_burst", "requests"),
        "read": ("read_rate", "read_burst", "reads"),
        "connect": ("connect_rate", "connect_burst", "connections"),
        "message": ("message_rate", "message_burst", "messages"),
    }

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()

    def check(self, kind: str, client: str) -> None:
        """Count one ``kind`` request of ``client``; :class:`RateLimited` if over."""
        rate_name, burst_name, words = self.KINDS[kind]
        rate = float(getattr(self.limits, rate_name))
        if rate <= 0:
            return
        now = self.clock()
        key = (kind, client)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = TokenBucket(rate, int(getattr(self.limits, burst_name)), now)
            self.buckets[key] = bucket
            while len(self.buckets) > max(1, self.limits.max_clients):
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        wait = bucket.take(now)
        if wait > 0:
            raise RateLimited(words, wait)


def client_address(scope: Any, limits: Limits) -> str:
    """The client of an ASGI ``scope``.

    The peer's address, unless the peer is one of ``limits.trusted_proxies``: then the
    address that proxy appended to ``limits.trusted_header``, reading the header's
    addresses from the right and passing over those of trusted proxies too (a chain of
    proxies). A header from any other peer is ignored, as is an entry that is not an IP
    address (the proxy's peer is then the client).

    >>> scope = {"client": ("10.0.0.9", 5000),
    ...          "headers": [(b"x-forwarded-for", b"1.2.3.4, 5.6.7.8")]}
    >>> client_address(scope, Limits())
    '10.0.0.9'
    >>> client_address(scope, Limits(trusted_proxies=("10.0.0.0/24",)))
    '5.6.7.8'
    >>> client_address(scope, Limits(trusted_proxies=("10.0.0.0/24", "5.6.7.8")))
    '1.2.3.4'
    >>> client_address(scope, Limits(trusted_proxies=("192.168.1.1",)))
    '10.0.0.9'

    The address found is then counted as :func:`client_key` says (an IPv6 /64 is one
    client; an IPv4-mapped address is its IPv4 address), here and in the proxy's header.
    """
    peer_pair = scope.get("client")
    peer = client_key(str(peer_pair[0])) if peer_pair else "unknown"
    networks = _networks(limits.trusted_proxies)
    if not networks or not _is_trusted(str(peer_pair[0]) if peer_pair else "", networks):
        return peer
    wanted = limits.trusted_header.lower().encode("latin-1")
    chain: list[str] = []
    for name, value in scope.get("headers") or ():
        if name == wanted:
            chain += [part.strip() for part in value.decode("latin-1").split(",")]
    for address in reversed(chain):
        try:
            ip = _unmapped(ipaddress.ip_address(address))
        except ValueError:
            return peer
        if not any(ip in network for network in networks):
            return client_key(str(ip))
    return peer


@dataclass(eq=False)
class _Job:
    """A queued piece of work: (priority, unused, arrival), its table, what to run."""

    rank: tuple[int, float, int]
    key: str
    work: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


class BotScheduler:
    """Bot moves on ``threads`` worker threads, shared fairly between tables.

    A move of a table of bots alone (:data:`PRIORITY_BOTS_ONLY`) waits while that table's
    bots have thought more than ``cpu_share`` of the last ``window`` seconds (a person
    waiting for a bot is never made to wait for a clock: tables with people are only
    ordered by their use); then it queues, and a free worker takes the queued move of the
    best rank: priority first (:data:`PRIORITY_PEOPLE` before :data:`PRIORITY_BOTS_ONLY`),
    then the table's recent thinking time (least first), then arrival. With two threads or
    more, one is kept for tables with people: moves of tables of bots alone never occupy
    every worker (so they never make a person's table wait for a worker).
    ``threads=0`` runs each move at once on the event loop. A coach's hint
    (:data:`PRIORITY_HINT`) goes after every bot move of a people's table, waits for its
    table's share like a background table's move (it is counted in it), and never takes
    the worker kept for people's tables.

    ``processes``: the workers are processes (at :data:`BOT_NICE`), not threads, so a
    thinking bot never holds the interpreter lock the event loop needs; the work and its
    arguments must then be picklable (see :func:`step_in_worker`).
    """

    def __init__(self, threads: int, cpu_share: float = 0.0, window: float = 10.0,
                 clock: Callable[[], float] = time.monotonic, processes: bool = False,
                 nice: int = BOT_NICE,
                 usage: dict[str, deque[tuple[float, float]]] | None = None) -> None:
        self.threads = threads
        self.cpu_share = cpu_share
        self.window = window
        self.clock = clock
        self.processes = processes and threads > 0
        self.pool: Executor | None = None
        if self.processes:
            self.pool = ProcessPoolExecutor(threads, multiprocessing.get_context("spawn"),
                                            initializer=lower_priority, initargs=(nice,))
        elif threads > 0:
            self.pool = ThreadPoolExecutor(threads, thread_name_prefix="pendragon-bot")
        #: Per table: (when a move ended, CPU seconds it took) within the window; shared
        #: with another scheduler (``usage``: the coach's hints count in the bots' share).
        self.usage: dict[str, deque[tuple[float, float]]] = {} if usage is None else usage
        #: Jobs waiting for a worker (few: a table has one bot move and one hint at most).
        self._queue: list[_Job] = []
        self._busy = 0
        #: Workers running moves of tables of bots alone, and how many may.
        self._busy_background = 0
        self.background_slots = threads - 1 if threads > 1 else threads
        self._order = itertools.count()
        #: Tables in the order their moves started (tests read it).
        self.started: deque[str] = deque(maxlen=10_000)

    # ------------------------------------------------------------------ accounting
    def used(self, key: str, now: float | None = None) -> float:
        """CPU seconds the bots of ``key`` spent in the last window."""
        records = self.usage.get(key)
        if not records:
            return 0.0
        now = self.clock() if now is None else now
        while records and now - records[0][0] > self.window:
            records.popleft()
        if not records:
            del self.usage[key]
            return 0.0
        return sum(cpu for _, cpu in records)

    def record(self, key: str, cpu: float) -> None:
        """Count ``cpu`` seconds of thinking for table ``key``."""
        now = self.clock()
        records = self.usage.setdefault(key, deque())
        while records and now - records[0][0] > self.window:
            records.popleft()  # a table whose bots always answer inline is never asked
        records.append((now, cpu))

    def wait_needed(self, key: str) -> float:
        """Seconds table ``key`` must wait before its bots may think again (0: now)."""
        if self.cpu_share <= 0:
            return 0.0
        now = self.clock()
        budget = self.cpu_share * self.window
        used = self.used(key, now)
        if used < budget:
            return 0.0
        # Wait until enough old records leave the window to bring the use under budget.
        records = self.usage[key]
        for ended, cpu in records:
            used -= cpu
            if used < budget:
                return max(0.01, ended + self.window - now)
        return self.window  # pragma: no cover - the loop always returns

    def forget(self, key: str) -> None:
        """Drop what is known of table ``key`` (unloaded)."""
        self.usage.pop(key, None)

    # ------------------------------------------------------------------ running
    async def run(self, key: str, priority: int,
                  work: Callable[..., tuple[Result, float]], *args: Any) -> Result:
        """Run ``work(*args)`` (which returns its result and the CPU seconds it took) for
        table ``key`` when its share allows and a worker is free; returns its result.

        Cancelling the caller while the work waits (for its share or for a worker) drops
        it: it never starts (a hint whose decision passed, issue 36 item 1)."""
        while priority != PRIORITY_PEOPLE and (pause := self.wait_needed(key)) > 0:
            await asyncio.sleep(pause)
        if self.pool is None:
            self.started.append(key)
            result, cpu = work(*args)
            self.record(key, cpu)
            return result
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[Result, float]] = loop.create_future()
        job = _Job((priority, 0.0, next(self._order)), key, work, args, future)
        self._queue.append(job)
        self._dispatch()
        try:
            result, cpu = await future
        except asyncio.CancelledError:
            if job in self._queue:  # never started: gone from the queue at once
                self._queue.remove(job)
            raise
        return result

    def _rank(self, job: _Job, now: float) -> tuple[int, float, int]:
        """A queued job's rank now: its priority, its table's thinking in the window as it
        is now (not as it was when it queued), its arrival."""
        return (job.rank[0], self.used(job.key, now), job.rank[2])

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.threads:
            # Jobs cancelled while queued are dropped here, never started.
            self._queue = [job for job in self._queue if not job.future.done()]
            if not self._queue:
                return
            now = self.clock()
            background_full = self._busy_background >= self.background_slots
            waiting = [job for job in self._queue
                       if not (background_full and job.rank[0] != PRIORITY_PEOPLE)]
            if not waiting:
                return  # only background work waits, and its workers are busy
            job = min(waiting, key=lambda queued: self._rank(queued, now))
            self._queue.remove(job)
            background = job.rank[0] != PRIORITY_PEOPLE
            self._busy += 1
            self._busy_background += background
            self.started.append(job.key)
            assert self.pool is not None
            running = loop.run_in_executor(self.pool, job.work, *job.args)
            running.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, running: asyncio.Future[Any]) -> None:
        self._busy -= 1
        self._busy_background -= job.rank[0] != PRIORITY_PEOPLE
        if running.cancelled():
            if not job.future.done():
                job.future.cancel()
        elif (error := running.exception()) is not None:
            if not job.future.done():
                job.future.set_exception(error)
        else:
            outcome = running.result()
            self.record(job.key, float(outcome[1]))
            if not job.future.done():
                job.future.set_result(outcome)
        self._dispatch()

    def queued(self) -> int:
        """Moves waiting for a worker."""
        return sum(1 for job in self._queue if not job.future.done())

    def shutdown(self) -> None:
        """Stop the workers (moves under way finish; queued ones are cancelled)."""
        for job in self._queue:
            job.future.cancel()
        self._queue.clear()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)



# ---------------------------------------------------------------------- bot worker processes
def lower_priority(nice: int = BOT_NICE) -> None:
    """A bot worker process starts: let the OS run the server first."""
    with contextlib.suppress(OSError):  # not permitted: run at the same priority
        os.nice(nice)


def attributes(obj: object) -> dict[str, Any]:
    """``obj``'s attributes by name: those a class declares (a compiled class's
    ``__mypyc_attrs__``, a Python class's ``__slots__``; set ones only) and its instance
    dictionary."""
    found: dict[str, Any] = {}
    for name in _attribute_names(type(obj)):
        value = getattr(obj, name, _MISSING)
        if value is not _MISSING:
            found[name] = value
    if hasattr(obj, "__dict__"):
        found.update((k, v) for k, v in vars(obj).items() if k not in _NOT_ATTRIBUTES)
    return found


_NOT_ATTRIBUTES = frozenset({"__dict__", "__weakref__"})
_MISSING = object()
_ATTRIBUTE_NAMES: dict[type, tuple[str, ...]] = {}


def _attribute_names(cls: type) -> tuple[str, ...]:
    """The attributes a class and its bases declare (compiled: ``__mypyc_attrs__``; Python:
    ``__slots__``, as a plugin game's state may have), once per class."""
    names = _ATTRIBUTE_NAMES.get(cls)
    if names is None:
        found: dict[str, None] = {}
        for klass in cls.__mro__:
            slots = vars(klass).get("__slots__", ())
            for name in (*((slots,) if isinstance(slots, str) else tuple(slots)),
                         *vars(klass).get("__mypyc_attrs__", ())):
                if name not in _NOT_ATTRIBUTES:
                    found[name] = None
        names = _ATTRIBUTE_NAMES[cls] = tuple(found)
    return names


def state_fields(state: State) -> dict[str, Any]:
    """The fields of a copy of ``state`` (its game's ``clone``, so a field that only the live
    state needs, such as a narrator's log, is left as a clone leaves it), its game aside."""
    found = attributes(state.clone())
    found.pop("game", None)
    return found


def restore_state(cls: type[State], game: Game, shared: dict[str, str], data: bytes) -> State:
    """The trusted fast path's other end (issue 41 item 3b): a ``cls`` state of ``game``
    with the fields pickled in ``data`` (:func:`state_fields`) and, for each ``field: name``
    of ``shared``, the game's own attribute ``name`` (a Grail Cup track), set unchecked.

    Only :class:`_SharedPickler` names this function, for states going between the server
    and its own worker processes (bot moves, hints, a table's loader): no request reaches
    it. Anything from outside (a record, a client's move, a stored state) goes through the
    checked readers (``Game.deserialize_state``, ``records.loads``, ``State.apply_action``).
    """
    state = cls(game)
    for name, value in pickle.loads(data).items():
        setattr(state, name, value)
    for name, held in shared.items():
        setattr(state, name, getattr(game, held))
    return state


#: Values of the shared object's attributes that are pickled as they are, not by name.
_PLAIN = (int, float, str, bytes, bool, type(None))


class _SharedPickler(pickle.Pickler):
    """Pickles references to ``shared`` and to what it holds (a game's track) as names, so
    both sides use their own copy, and states by their fields (:func:`state_fields`, the
    trusted fast path) instead of their checked text (``State.__reduce__``): both ends are
    the server's own processes."""

    def __init__(self, file: io.BytesIO, shared: object) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = shared
        # Held for as long as the pickler lives: a compiled class boxes some attributes
        # anew at each read (a fixed-length tuple is stored unboxed), and a box freed here
        # would leave its id to whatever object is made next, which would then be pickled
        # as that attribute's name.
        self.values = attributes(shared)
        self.held = {id(value): name for name, value in self.values.items()
                     if not isinstance(value, _PLAIN)}

    def persistent_id(self, obj: object) -> str | None:
        """``"shared"`` for the shared object, ``"shared.NAME"`` for its attribute ``NAME``,
        else pickle it."""
        if obj is self.shared:
            return "shared"
        name = self.held.get(id(obj))
        return None if name is None else f"shared.{name}"

    def reducer_override(self, obj: object) -> Any:
        """A state as its class, its game, the fields its game holds by name and the others
        pickled plain (one pass of the C pickler); anything else as pickle does it."""
        if isinstance(obj, State):
            fields_ = state_fields(obj)
            held = obj.game is self.shared and {
                name: self.held[id(value)] for name, value in fields_.items()
                if id(value) in self.held} or {}
            for name in held:
                del fields_[name]
            data = pickle.dumps(fields_, protocol=pickle.HIGHEST_PROTOCOL)
            return restore_state, (type(obj), obj.game, held, data)
        return NotImplemented


class _SharedUnpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, shared: object) -> None:
        super().__init__(file)
        self.shared = shared

    def persistent_load(self, pid: Any) -> object:
        """The local shared object, or one of its attributes, for its name."""
        if pid == "shared":
            return self.shared
        if isinstance(pid, str) and pid.startswith("shared."):
            value = attributes(self.shared).get(pid.removeprefix("shared."), _MISSING)
            if value is not _MISSING:
                return value
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


def dumps_sharing(value: object, shared: object) -> bytes:
    """Pickle ``value`` with every reference to ``shared`` left as a name.

    Bots and states refer to their game; sending the game once and sharing it keeps the
    references one object on each side (a bot may recognise its game by identity).
    """
    buffer = io.BytesIO()
    _SharedPickler(buffer, shared).dump(value)
    return buffer.getvalue()


def loads_sharing(data: bytes, shared: object) -> Any:
    """Unpickle what :func:`dumps_sharing` made, with ``shared`` for the shared object."""
    return _SharedUnpickler(io.BytesIO(data), shared).load()


def step_in_worker(game: bytes, bot_and_state: bytes) -> tuple[tuple[bytes, float], float]:
    """In a bot worker process: ``bot.step(state)``; returns ``(action, bot)`` as it is
    after the move (pickled, sharing the game) and the CPU seconds the move took, and those
    seconds again (for :meth:`BotScheduler.run`)."""
    shared = pickle.loads(game)
    bot, state = loads_sharing(bot_and_state, shared)
    started = time.thread_time()
    action = bot.step(state)
    took = time.thread_time() - started
    return (dumps_sharing((action, bot), shared), took), took


def adopt(target: object, source: object) -> None:
    """Make ``target`` what ``source`` became (a bot back from a worker process): copy every
    attribute, slots included, so that whoever holds ``target`` sees the new state (a class
    compiled with mypyc has no slots: it lists its attributes in ``__mypyc_attrs__``)."""
    for name, value in attributes(source).items():
        setattr(target, name, value)
