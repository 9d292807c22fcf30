"""Live tables: the game positions in memory, their seats, bots, watchers and chat.

A :class:`LiveTable` holds one game's state and is changed only under its own asyncio
lock. A move is checked against the rules on a copy of the state, the chance events that
follow are resolved with the state's own seeded stream, the whole sequence is written to
the action log, and only then does the copy become the table's state and every watcher
receive its new view: a move is acknowledged only once it is stored.

What leaves a table for a watcher is only ``observation(seat)`` (``observation(None)``
for spectators), the seat's legal actions with their text forms and label events when it
is to act, the decision under way (``decision_event()``, public), and the log: for each
action, the events of ``narrate(action, seat)`` as JSON. The raw state, the seed and other
seats' views never leave; no text is parsed on the way.

Bots play on the server: each table runs at most one bot task, which asks the bot for a
move on a copy of the state in a thread pool (so a slow bot never blocks the event loop)
and submits it like any player, with the version it saw. The pool is shared fairly
(:class:`pendragon.web.limits.BotScheduler`: a share of thinking time per table, tables
where a person is connected first); bots of a table where bots hold every seat stop when
nobody has watched or opened it for a while, and a table idle long enough is unloaded
from memory (:class:`pendragon.web.limits.Limits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import pickle
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

import pendragon
from pendragon.bots import check_bot, make_bot, table_bot, table_bots
from pendragon.bots.base import Bot
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.bots.random_bot import RandomBot
from pendragon.core.api import CHANCE, Game, State
from pendragon.core.errors import MalformedActionError, PendragonError
from pendragon.core.events import Event, Seat, Term
from pendragon.core.options import remote_specs
from pendragon.runner import bot_seed
from pendragon.web.adapters import GameAdapter, adapter_for
from pendragon.web.limits import (
    PRIORITY_BOTS_ONLY,
    PRIORITY_PEOPLE,
    BotScheduler,
    Limits,
    adopt,
    dumps_sharing,
    loads_sharing,
    step_in_worker,
)
from pendragon.web.security import (
    MAX_CHAT,
    MAX_NAME,
    InputError,
    clean_text,
    hash_secret,
    new_table_id,
    new_token,
    parse_token,
    secret_matches,
)
from pendragon.web.storage import (
    AddChat,
    AddSeat,
    AppendActions,
    ChangeHands,
    ChatRecord,
    ClaimSeat,
    NoticeRecord,
    PassRecord,
    SeatClaimedError,
    SeatRecord,
    SetRematch,
    StaleLogError,
    StartTable,
    StorageError,
    TableRecord,
    TimedOutMove,
)
from pendragon.web.store import AsyncStore

log = logging.getLogger("pendragon.web")

HUMAN = "human"
BOT = "bot"
#: Who a token is at its table (:class:`Access`).
SEAT_ROLE = "seat"
SPECTATOR_ROLE = "spectator"
HOST_ROLE = "host"
INVITED_ROLE = "invited"
#: Kinds of pass (``pendragon_passes``): an invitation to a seat, an invitation to join
#: mid-game, the token of a player who gave his seat up.
SEAT_INVITE = "seat_invite"
JOIN_INVITE = "join_invite"
RETIRED = "retired"
#: Chat lines a page receives when it connects, and kept in memory per table.
CHAT_KEPT = 200
#: A seat may send this many chat lines per :data:`CHAT_WINDOW` seconds.
CHAT_BURST = 5
CHAT_WINDOW = 10.0
#: A bot whose last FAST_BOT_RUN moves each took under FAST_BOT seconds plays on the event
#: loop (a thread hop would cost more than its move); one slow move sends it back to the
#: thread pool.
FAST_BOT = 0.001
FAST_BOT_RUN = 5
#: A watcher whose unsent messages pile up beyond this is disconnected.
MAX_QUEUE = 500

#: The lobby lists at most this many open tables (the newest).
LOBBY_LIMIT = 50
#: The log's note on a move a bot played because a person's time ran out.
TIMED_OUT = "table.timed_out"
#: The paces (seconds before each bot move) a seated person or the host may choose for a
#: table during play (issue 27, item 9); until someone does, ``Settings.bot_delay``.
BOT_PACES: tuple[float, ...] = (0.4, 1.0, 2.0, 4.0)
#: The announcements of a new pace (by a seat, by the host): the last one is the pace.
PACE_EVENTS = ("table.event.pace", "table.event.pace-host")

#: The events one viewer learns of one action, as JSON (``Event.to_json()`` each).
LogEvents = list[dict[str, Any]]


class TableError(Exception):
    """A request the table refuses; ``code`` is machine-readable, ``status`` its HTTP code."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass
class Settings:
    """How the table server behaves."""

    #: Pause before each bot move, so people can follow (0 for tests and benchmarks).
    bot_delay: float = 0.4
    #: Seconds a seat's player must have been gone before others may give it to a bot.
    away_after: float = 60.0
    #: Workers that run bot moves (0: run them on the event loop, for very fast bots).
    bot_threads: int = 2
    #: The workers are processes (a thinking bot never holds the event loop's interpreter
    #: lock), or threads (False: quicker to start; tests).
    bot_processes: bool = True
    #: Record the time from each move's submission to each push (``/api/metrics``).
    metrics: bool = False
    #: Where new tables' seeds come from (tests may fix it; pages never see it).
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(63))
    #: Turn timers a host may choose, in seconds per decision (0, no timer, always may).
    turn_timers: tuple[int, ...] = (30, 60, 120, 300)
    #: The bot that plays a person's decision when his time runs out (``None``: the game's
    #: table bot, ``GamePlugin.table_bot``, so that in soc a traitor who runs out of time
    #: does not show himself).
    timeout_bot: str | None = None
    #: Rate limits, caps on bot tables and bot thinking, idle unloading.
    limits: Limits = field(default_factory=Limits)


@dataclass
class SeatState:
    """A seat in memory: its stored record plus who is connected to it."""

    seat: int
    name: str
    controller: str
    bot: str | None
    token_hash: str | None
    connections: int = 0
    left_at: float = field(default_factory=time.monotonic)
    bot_player: Bot | None = None
    #: Consecutive moves of this seat's bot that took under FAST_BOT seconds.
    bot_fast_steps: int = 0
    chat_times: deque[float] = field(default_factory=deque)

    def record(self) -> SeatRecord:
        """The stored form."""
        return SeatRecord(self.seat, self.name, self.controller, self.bot, self.token_hash)


@dataclass(frozen=True, slots=True)
class Access:
    """Who a token is at its table, and so what it may see and do.

    ``role``: ``seat`` (the owner of ``seat``: that seat's view and moves), ``spectator``
    (the spectators' view), ``host`` (the spectators' view, and the host's consent: seat
    people at seats no person owns, invite them, let newcomers join), ``invited`` (an
    invitation: the spectators' view until it takes ``seat``, or joins if ``seat`` is
    ``None``). ``token_hash``: the stored form of the token (seats, host, invitations).

    >>> Access(SEAT_ROLE, 2).viewer, Access(INVITED_ROLE, 2).viewer
    (2, None)
    """

    role: str
    seat: int | None = None
    token_hash: str = ""

    @property
    def viewer(self) -> int | None:
        """The seat whose view this token gets (``None``: the spectators')."""
        return self.seat if self.role == SEAT_ROLE else None


class Watcher:
    """One open page (WebSocket) watching a table as a seat or a spectator.

    Messages are queued as text and sent by the connection's own task, so a slow page
    never holds up the table. Each queued message may carry the time its move was
    submitted, for the latency figures.
    """

    def __init__(self, viewer: int | None, access: Access | None = None) -> None:
        self.viewer = viewer
        #: Who the page's token is (``None``: a seat or spectator, as ``viewer`` says).
        self.access = access
        self.queue: asyncio.Queue[tuple[str, float | None]] = asyncio.Queue()
        self.log_sent = 0
        #: Announcements (``LiveTable.notices``) already sent.
        self.notices_sent = 0
        self.closed = False

    def put(self, text: str, submitted: float | None = None) -> None:
        """Queue ``text`` for sending (dropped once the watcher is closed)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.queue.put_nowait((text, submitted))

    def close(self) -> None:
        """Stop sending; the connection task ends when it sees the sentinel."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(("", None))


@dataclass
class Metrics:
    """Counters and latency samples for the benchmark."""

    moves: int = 0
    actions: int = 0
    pushes: int = 0
    latencies: deque[float] = field(default_factory=lambda: deque(maxlen=500_000))
    started: float = field(default_factory=time.monotonic)

    def snapshot(self) -> dict[str, Any]:
        """The figures so far (latencies in milliseconds)."""
        samples = sorted(self.latencies)

        def pct(q: float) -> float | None:
            """The ``q`` quantile in milliseconds."""
            if not samples:
                return None
            return round(samples[min(len(samples) - 1, int(q * len(samples)))] * 1000, 3)

        return {
            "moves": self.moves,
            "actions": self.actions,
            "pushes": self.pushes,
            "seconds": round(time.monotonic() - self.started, 3),
            "latency_samples": len(samples),
            "latency_ms": {"p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99),
                           "max": pct(1.0)},
        }


def _dumps(message: Mapping[str, Any]) -> str:
    # orjson: a busy table server spends a fifth of each move encoding views otherwise.
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class LiveTable:
    """One table in memory. Create through :class:`TableManager`."""

    def __init__(
        self,
        manager: TableManager,
        record: TableRecord,
        state: State,
    ) -> None:
        self.manager = manager
        self.table_id = record.table_id
        self.game_name = record.game
        self.options = dict(record.options)
        self.seed = record.seed
        self.created_at = record.created_at
        self.spectator_hash = record.spectator_hash
        self.game: Game = state.game
        self.state = state
        self.adapter: GameAdapter = adapter_for(record.game)
        self.seats = [
            SeatState(s.seat, s.name, s.controller, s.bot, s.token_hash) for s in record.seats
        ]
        #: The host's token (stored form; ``None``: a table from before hosts) and whether
        #: newcomers may join mid-game with his consent.
        self.host_hash = record.host_hash
        self.join_mid_game = record.join_mid_game
        #: Invitations pending and retired tokens, by token hash.
        self.passes: dict[str, PassRecord] = {p.token_hash: p for p in record.passes}
        #: The table's announcements of seats changing hands, oldest first.
        self.notices: list[NoticeRecord] = list(record.notices)
        #: The host's link, kept only from creation until the server hands it out.
        self.host_token: str | None = None
        self.lock = asyncio.Lock()
        #: Per applied action: its actor (-1: chance or a table operation) and the events
        #: of each viewer (seats 0..n-1, then the spectators'); equal lists share one object.
        self.actors: list[int] = []
        self.lines: list[tuple[LogEvents, ...]] = []
        self.chat: deque[ChatRecord] = deque(maxlen=CHAT_KEPT)
        self.watchers: set[Watcher] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self._away_timer: asyncio.TimerHandle | None = None
        # Lobby, rematch and turn timer (issue 17, item 10).
        self.listed = record.listed
        self.turn_timer = record.turn_timer
        self.rematch_of = record.rematch_of
        self.rematch = record.rematch
        #: Seats whose link has been opened: never offered to a stranger in the lobby.
        self.opened: set[int] = set(record.opened)
        #: Seats the host left open to anyone: the only ones the lobby offers (issue 27).
        self.open_seats: frozenset[int] = record.open_seats
        #: Whether the game has begun: until everyone seated has arrived (opened his
        #: link) or the host starts it, no bot moves, no person may move and no turn
        #: timer runs (issue 27, item 5).
        self.started = record.started
        #: The decision (version, seat) the turn timer runs for, and when it runs out.
        self._timer_for: tuple[int, int] | None = None
        self.deadline: float | None = None
        self._timer_handle: asyncio.TimerHandle | None = None
        self._timeout_task: asyncio.Task[None] | None = None
        self._timeout_bots: dict[int, Bot] = {}
        #: The client that created the table (this process only; for the bot-table cap).
        self.client: str | None = None
        #: When someone last opened or left the table, and when it last moved (monotonic).
        self.last_visit = time.monotonic()
        self.last_move = self.last_visit

    # ------------------------------------------------------------------ facts
    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.seats)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    @property
    def bots_only(self) -> bool:
        """Whether bots hold every seat (nobody plays here now)."""
        return all(s.controller == BOT for s in self.seats)

    def people_connected(self) -> bool:
        """Whether a person has a page open at one of the seats."""
        return any(s.connections > 0 for s in self.seats)

    def bots_may_play(self, now: float | None = None) -> bool:
        """Whether the bots play on: always where people sit; where bots hold every seat,
        only while someone watches or opened the table in the last ``unwatched_grace``
        seconds."""
        grace = self.manager.settings.limits.unwatched_grace
        if grace <= 0 or self.watchers or not self.bots_only:
            return True
        now = time.monotonic() if now is None else now
        return now - self.last_visit < grace

    def is_idle(self, now: float, idle_after: float) -> bool:
        """Whether nobody watches, nothing runs, and nobody opened it nor moved for
        ``idle_after`` seconds (it may be unloaded)."""
        return (
            not self.watchers
            and not self.lock.locked()
            and (self.bot_task is None or self.bot_task.done())
            and self.deadline is None  # a turn timer runs: a move is still to come
            and now - max(self.last_visit, self.last_move) >= idle_after
        )

    def stop(self) -> None:
        """Stop the bot task and timers (the table is being unloaded)."""
        task = self.bot_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        if self._away_timer is not None:
            self._away_timer.cancel()
        self.stop_timer()

    def touch(self) -> None:
        """Someone opened the table: it is not idle, and paused bots play on."""
        self.last_visit = time.monotonic()
        self.schedule_bot()

    @property
    def pace(self) -> float:
        """Seconds before each bot move: the last pace announced at this table (stored as
        its announcement, so it survives a restart and reaches every process), else the
        server's ``bot_delay``."""
        for notice in reversed(self.notices):
            if notice.event.get("k") in PACE_EVENTS:
                # The pace's term, "table.pace.<milliseconds>" (worded "1 s", "0,4 s").
                return int(notice.event["p"]["pace"]["term"].rsplit(".", 1)[1]) / 1000
        return self.manager.settings.bot_delay

    async def set_pace(self, access: Access, seconds: object) -> None:
        """A seated person or the host sets the bots' pace (one of :data:`BOT_PACES`);
        the change is announced in the log and pushed to every page."""
        if access.role not in (SEAT_ROLE, HOST_ROLE):
            raise TableError("forbidden", "only a seated player or the host sets the bots' pace",
                             403)
        if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                or float(seconds) not in BOT_PACES):
            allowed = ", ".join(f"{p:g}" for p in BOT_PACES)
            raise TableError("bad_pace", f"the bots' pace is one of {allowed} seconds", 400)
        pace = float(seconds)
        async with self.lock:
            if self.finished:
                raise TableError("game_over", "the game is over")
            if pace == self.pace:
                return
            shown = Term(f"table.pace.{round(pace * 1000)}")
            if access.role == SEAT_ROLE and access.seat is not None:
                event = Event(PACE_EVENTS[0], {"pace": shown, "seat": Seat(access.seat)})
            else:
                event = Event(PACE_EVENTS[1], {"pace": shown})
            await self._change_hands([], event)
            self.push_state()

    def public_options(self) -> dict[str, Any]:
        """The options pages may see (never the seed)."""
        return {k: v for k, v in self.options.items() if k != "seed"}

    def seat_is_away(self, seat: SeatState, now: float | None = None) -> bool:
        """Whether a human seat's player has been gone for ``away_after`` seconds."""
        now = time.monotonic() if now is None else now
        return (
            seat.controller == HUMAN
            and seat.connections == 0
            and now - seat.left_at >= self.manager.settings.away_after
        )

    def seats_view(self) -> list[dict[str, Any]]:
        """Public facts about every seat."""
        now = time.monotonic()
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "controller": s.controller,
                "bot": s.bot if s.controller == BOT else None,
                "connected": s.connections > 0,
                "away": self.seat_is_away(s, now),
                # A person owns it (a bot may keep it warm for him); "free": a bot plays
                # it for nobody, and the host may seat someone there.
                "owned": s.token_hash is not None,
                "free": s.controller == BOT and s.token_hash is None,
            }
            for s in self.seats
        ]

    def info(self, viewer: int | None, access: Access | None = None) -> dict[str, Any]:
        """The welcome message's table description for ``viewer`` (``access``: who the
        token is, when not simply a seat or a spectator: the host, an invitation)."""
        info = self._info(viewer)
        if access is not None:
            info["role"] = access.role
            if access.role == INVITED_ROLE:
                info["invitation"] = {"seat": access.seat}
        return info

    def pop_host_token(self) -> str | None:
        """The host's token of a table just created (``None`` afterwards: only its hash
        is kept)."""
        token, self.host_token = self.host_token, None
        return token

    def _info(self, viewer: int | None) -> dict[str, Any]:
        """The table description for a seat's or a spectator's token."""
        return {
            "id": self.table_id,
            "game": self.game_name,
            "options": self.public_options(),
            "players": self.players,
            "seats": self.seats_view(),
            "role": "spectator" if viewer is None else "seat",
            "seat": viewer,
            "bots": table_bots(self.game_name),
            "away_after": self.manager.settings.away_after,
            "join_mid_game": self.join_mid_game,
            "can_join_new_seat": self.join_mid_game and self.adapter.can_add_seat(self.state),
            "listed": self.listed,
            "turn_timer": self.turn_timer,
            "rematch_of": self.rematch_of,
            "open_seats": sorted(self.open_seats),
            "started": self.started,
            # Whom the game waits for before it begins (seats whose person has not yet
            # opened his link); empty once it has begun.
            "waiting_for": [] if self.started else self.seats_not_arrived(),
            "bot_paces": list(BOT_PACES),
        }

    # ------------------------------------------------------------------ narration
    def _narrate(self, state: State, action: int) -> tuple[int, tuple[LogEvents, ...]]:
        """Actor and per-viewer events of ``action`` about to be applied to ``state``.

        One list per seat of ``state`` (seats 0..n-1), then the spectators'. A seat that
        learns no more than the spectators shares their list (the same object).
        """
        player = state.current_player()
        actor = -1 if player < 0 or state.is_table_operation(action) else player
        public = state.narrate(action, None)
        public_json = [e.to_json() for e in public]
        lines: list[LogEvents] = []
        for viewer in range(_seat_count(state)):
            events = state.narrate(action, viewer)
            lines.append(public_json if events == public else [e.to_json() for e in events])
        lines.append(public_json)
        return actor, tuple(lines)

    def replay_into(self, state: State, actions: Iterable[int]) -> None:
        """Apply stored ``actions`` to ``state`` (this table's), recording narration."""
        for action in actions:
            actor, lines = self._narrate(state, action)
            _apply_any(state, action)
            self.actors.append(actor)
            self.lines.append(lines)

    def log_for(self, viewer: int | None, start: int = 0) -> list[dict[str, Any]]:
        """``viewer``'s log lines from action index ``start`` on:
        ``{"i": index, "s": actor or None, "events": [event JSON, ...]}``."""
        out = []
        for i in range(start, len(self.lines)):
            row = self.lines[i]
            # A seat that joined later saw the earlier actions as a spectator did.
            events = row[viewer] if viewer is not None and viewer < len(row) - 1 else row[-1]
            actor = self.actors[i]
            out.append({"i": i, "s": actor if actor >= 0 else None, "events": events})
        return out

    # ------------------------------------------------------------------ messages
    def legal_for(self, viewer: int | None) -> list[dict[str, Any]]:
        """The legal actions of ``viewer`` if it is to act and a human plays it."""
        if viewer is None or self.finished:
            return []
        if self.state.current_player() != viewer or self.seats[viewer].controller != HUMAN:
            return []
        state = self.state
        return [
            {"id": a, "text": state.action_to_string(a), "label": state.action_event(a).to_json()}
            for a in state.legal_actions()
        ]

    def notice_lines(self, start: int) -> list[dict[str, Any]]:
        """The table's announcements from ``start`` on, as log lines:
        ``{"i": actions before it, "s": None, "events": [event], "notice": True}``."""
        return [{"i": n.version, "s": None, "events": [n.event], "notice": True}
                for n in self.notices[start:]]

    def _log_with_notices(self, viewer: int | None, log_start: int,
                          notice_start: int | None) -> list[dict[str, Any]]:
        lines = self.log_for(viewer, log_start)
        if notice_start is None:
            notice_start = 0 if log_start == 0 else len(self.notices)
        notices = self.notice_lines(notice_start)
        if not notices:
            return lines
        # An announcement after v actions comes before the line of action v.
        keyed = [(line["i"], 1, k, line) for k, line in enumerate(lines)]
        keyed += [(line["i"], 0, k, line) for k, line in enumerate(notices)]
        return [line for *_, line in sorted(keyed, key=lambda x: x[:3])]

    def state_message(
        self, viewer: int | None, log_start: int, observation: Mapping[str, Any] | None = None,
        notice_start: int | None = None,
    ) -> dict[str, Any]:
        """The ``state`` message for ``viewer``: its view, its moves, what the table awaits,
        its new log lines (with the table's announcements from ``notice_start`` on; by
        default all of them from log line 0, none otherwise). ``observation``:
        ``viewer``'s, if already computed."""
        player = self.state.current_player()
        message: dict[str, Any] = {
            "type": "state",
            "version": self.state.version,
            "observation": (
                self.state.observation(viewer) if observation is None else observation
            ),
            # No move before the game has begun (issue 27, item 5).
            "legal": self.legal_for(viewer) if self.started else [],
            "decision": self.state.decision_event().to_json(),
            "log": self._log_with_notices(viewer, log_start, notice_start),
            "finished": self.finished,
            "to_act": player if player >= 0 else None,
            "to_act_controller": self.seats[player].controller if player >= 0 else None,
            "chat_open": self.adapter.chat_open(self.state),
            "can_join": viewer is None and self.join_mid_game
            and self.adapter.can_add_seat(self.state),
            "timer": self.timer_view(),
            "rematch": self.rematch,
            "bot_pace": self.pace,
            "started": self.started,
            "waiting_for": [] if self.started else self.seats_not_arrived(),
        }
        if not message["chat_open"]:
            reason = self.adapter.chat_closed_reason(self.state)
            if reason is not None:
                message["chat_closed_reason"] = reason.to_json()
        if self.finished:
            message["returns"] = self.state.returns()
        return message

    def chat_message(self, lines: Sequence[ChatRecord]) -> dict[str, Any]:
        """A ``chat`` message carrying ``lines``."""
        return {
            "type": "chat",
            "lines": [
                {"id": c.id, "seat": c.seat, "name": c.name, "text": c.text, "at": c.at}
                for c in lines
            ],
        }

    def broadcast(self, message: Mapping[str, Any]) -> None:
        """Send the same message to every watcher."""
        text = _dumps(message)
        for watcher in list(self.watchers):
            watcher.put(text)

    def push_seats(self) -> None:
        """Tell every watcher who sits where."""
        self.broadcast({"type": "seats", "seats": self.seats_view()})

    def push_state(self, submitted: float | None = None) -> None:
        """Send every watcher its new view (one encoding per viewer and log position)."""
        watchers = list(self.watchers)
        # One batched observation call for every distinct viewer watching.
        viewers = list(dict.fromkeys(w.viewer for w in watchers))
        observations = dict(zip(viewers, self.state.observations(viewers), strict=True))
        cache: dict[tuple[int | None, int, int], str] = {}
        end = len(self.lines)
        told = len(self.notices)
        for watcher in watchers:
            key = (watcher.viewer, watcher.log_sent, watcher.notices_sent)
            text = cache.get(key)
            if text is None:
                text = _dumps(self.state_message(watcher.viewer, watcher.log_sent,
                                                 observations[watcher.viewer],
                                                 watcher.notices_sent))
                cache[key] = text
            watcher.log_sent = end
            watcher.notices_sent = told
            watcher.put(text, submitted)
        if self.manager.metrics is not None:
            self.manager.metrics.pushes += len(self.watchers)

    # ------------------------------------------------------------------ watchers
    def attach(self, watcher: Watcher) -> None:
        """Start sending to ``watcher``: welcome, seats, full state and recent chat."""
        self.watchers.add(watcher)
        if watcher.viewer is not None:
            seat = self.seats[watcher.viewer]
            seat.connections += 1
        watcher.put(_dumps({"type": "welcome",
                            "table": self.info(watcher.viewer, watcher.access)}))
        watcher.put(_dumps(self.state_message(watcher.viewer, 0, None, 0)))
        watcher.log_sent = len(self.lines)
        watcher.notices_sent = len(self.notices)
        watcher.put(_dumps(self.chat_message(list(self.chat))))
        self.push_seats()
        self.touch()

    def detach(self, watcher: Watcher) -> None:
        """Stop sending to ``watcher``."""
        if watcher not in self.watchers:
            return
        self.watchers.discard(watcher)
        watcher.close()
        self.last_visit = time.monotonic()
        if watcher.viewer is not None:
            seat = self.seats[watcher.viewer]
            seat.connections -= 1
            if seat.connections == 0:
                seat.left_at = time.monotonic()
                self._schedule_away_notice()
        self.push_seats()
        self.manager.maybe_unload(self)

    def _schedule_away_notice(self) -> None:
        # Tell the others when a gone player becomes "away" (they may then hand his
        # seat to a bot).
        loop = asyncio.get_running_loop()
        if self._away_timer is not None:
            self._away_timer.cancel()
        self._away_timer = loop.call_later(
            self.manager.settings.away_after + 0.05, self.push_seats
        )

    # ------------------------------------------------------------------ moves
    def parse_action(self, action: object) -> int:
        """An action id from a page's ``action`` (an id or a text form)."""
        if isinstance(action, bool):
            raise TableError("malformed_action", "an action is an id or a text form", 400)
        if isinstance(action, int):
            return action
        if isinstance(action, str) and len(action) <= 64:
            try:
                return self.state.string_to_action(action)
            except MalformedActionError as error:
                raise TableError("malformed_action", error.message, 400) from None
        raise TableError("malformed_action", "an action is an id or a text form", 400)

    async def submit(
        self,
        seat: int,
        version: object,
        action: object,
        *,
        by_bot: bool = False,
        submitted: float | None = None,
        timed_out: bool = False,
    ) -> int:
        """Apply ``seat``'s ``action`` if ``version`` is current; returns the new version.

        Raises :class:`TableError` (``stale_version``, ``not_your_turn``, ``game_over``,
        ``malformed_action``, ``illegal_action``, ``bot_seat``) and changes nothing then.
        ``timed_out``: the turn timer's bot plays for the person (the log says so).
        """
        submitted = time.perf_counter() if submitted is None else submitted
        if isinstance(version, bool) or not isinstance(version, int):
            raise TableError("bad_request", "version must be the state version you acted on",
                             400)
        action_id = self.parse_action(action)
        async with self.lock:
            state = self.state
            if state.is_terminal():
                raise TableError("game_over", "the game is over")
            if not self.started:
                raise TableError(
                    "not_started",
                    "the game begins when everyone seated has opened his link, or when the"
                    " host starts it",
                )
            if version != state.version:
                raise TableError(
                    "stale_version",
                    f"the table has moved on: you acted on version {version}, it is now at"
                    f" version {state.version}; your view has been refreshed",
                )
            seat_state = self.seats[seat]
            if (seat_state.controller == BOT) != by_bot:
                raise TableError(
                    "bot_seat", "a bot is playing this seat; take it back first", 409
                )
            if state.current_player() != seat:
                raise TableError("not_your_turn", "it is not your turn to act")
            new_state = state.clone()
            actions: list[int] = []
            actors: list[int] = []
            lines: list[tuple[LogEvents, ...]] = []
            try:
                self._apply(new_state, action_id, actions, actors, lines)
            except PendragonError as error:
                code = error.code.value
                status = 400 if code == "malformed_action" else 409
                raise TableError(code, error.message, status) from None
            while new_state.current_player() == CHANCE:
                self._apply(new_state, new_state.sample_chance(), actions, actors, lines)
            append = AppendActions(self.table_id, state.version, actions, actors,
                                   new_state.is_terminal())
            try:
                if timed_out:
                    lines[0] = _with_timeout_note(lines[0], seat)
                    await self.manager.store.write(TimedOutMove(append, seat))
                else:
                    await self.manager.store.append(append)
            except StaleLogError:
                # Another server process moved this table on: catch up, refuse the move.
                await self._catch_up_locked()
                raise TableError(
                    "stale_version", "the table has moved on; your view has been refreshed"
                ) from None
            self.state = new_state
            self.actors.extend(actors)
            self.lines.extend(lines)
            self.last_move = time.monotonic()
            metrics = self.manager.metrics
            if metrics is not None:
                metrics.moves += 1
                metrics.actions += len(actions)
            self.push_state(submitted if metrics is not None else None)
        if self.finished:
            self.manager.maybe_unload(self)
        else:
            self.schedule_bot()
        return new_state.version

    def _apply(
        self,
        state: State,
        action: int,
        actions: list[int],
        actors: list[int],
        lines: list[tuple[LogEvents, ...]],
    ) -> None:
        actor, narration = self._narrate(state, action)
        _apply_any(state, action)
        actions.append(action)
        actors.append(actor)
        lines.append(narration)

    # ------------------------------------------------------------------ bots
    def schedule_bot(self) -> None:
        """Start the bot task if a bot is to act and none is running (and the turn timer
        if a person is to act) — once the game has begun."""
        self.arm_timer()
        if not self.started:
            return
        if self.finished or (self.bot_task is not None and not self.bot_task.done()):
            return
        if self.manager.closing or not self.bots_may_play():
            return
        player = self.state.current_player()
        if player < 0 or self.seats[player].controller != BOT:
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    def _bot_for(self, seat: SeatState) -> Bot:
        if seat.bot_player is None:
            # A record from before bots were named plays the game's table bot.
            name = seat.bot or table_bot(self.game_name)
            bot = make_bot(name, bot_seed(self.seed, seat.seat), self.game_name)
            budget = self.manager.settings.limits.ismcts_budget
            if budget > 0 and isinstance(bot, ISMCTSBot):
                # This server's bound on one move's thinking (simulated actions).
                bot.budget = min(bot.budget, budget)
            if isinstance(bot, RandomBot):
                # Known to answer at once: a trip to a worker would cost more than its move.
                seat.bot_fast_steps = max(seat.bot_fast_steps, FAST_BOT_RUN)
            seat.bot_player = bot
        return seat.bot_player

    async def _bot_loop(self) -> None:
        while not self.finished and not self.manager.closing:
            player = self.state.current_player()
            if player < 0 or self.seats[player].controller != BOT or not self.bots_may_play():
                return
            # The table's own pace, chosen by its people (issue 27, item 9); slept a second
            # at most at a time, so a quicker pace chosen meanwhile counts at once.
            waited = 0.0
            while waited < self.pace:
                step = min(1.0, self.pace - waited)
                await asyncio.sleep(step)
                waited += step
            if waited > 0 and (self.state.current_player() != player
                               or self.seats[player].controller != BOT):
                continue
            # A table never changes a state object in place (a move is applied to a copy
            # that then replaces it), so the bot may read this one while the table moves on.
            snapshot = self.state
            bot = self._bot_for(self.seats[player])
            try:
                seat = self.seats[player]
                action, took = await self.manager.run_bot(
                    bot, snapshot, inline=seat.bot_fast_steps >= FAST_BOT_RUN,
                    table=self.table_id,
                    priority=PRIORITY_PEOPLE if self.people_connected() else PRIORITY_BOTS_ONLY,
                )
                seat.bot_fast_steps = seat.bot_fast_steps + 1 if took < FAST_BOT else 0
            except Exception:
                log.exception("bot %r failed at table %s", bot, self.table_id)
                action = snapshot.legal_actions()[0]
            if not snapshot.is_legal(action):
                log.error("bot %r chose an illegal action at table %s", bot, self.table_id)
                action = snapshot.legal_actions()[0]
            try:
                await self.submit(player, snapshot.version, action, by_bot=True)
            except TableError as error:
                if error.code not in ("stale_version", "bot_seat", "not_your_turn"):
                    log.error("bot move refused at table %s: %s", self.table_id, error.message)
                    return

    # ------------------------------------------------------------------ seats
    # Who may sit where (docs/web.md, "Seats that change hands"; issue 17, items 1-3): a
    # seat belongs to the token that took it until that token gives it up; a bot keeps an
    # owned seat warm for its owner only; a seat no person owns is taken only with the
    # host's consent (his link, or an invitation he issued for it); a token never changes
    # seats, and a caller that holds (or held) a seat here takes no other one.
    async def _change_hands(
        self,
        records: Sequence[SeatRecord],
        event: Event | None,
        add: Sequence[PassRecord] = (),
        drop: Sequence[str] = (),
    ) -> None:
        """Store seats' new records, passes and the table's announcement in one write, and
        only then apply them in memory (a failed write changes nothing)."""
        at = time.time()
        notice = event.to_json() if event is not None else None
        notice_id = await self.manager.store.write(ChangeHands(
            self.table_id, tuple(records), tuple(add), tuple(drop), notice,
            self.state.version, at,
        ))
        for record in records:
            self._apply_record(record)
        self._apply_passes(add, drop)
        if notice is not None:
            self.notices.append(NoticeRecord(int(notice_id), self.state.version, notice, at))

    def _apply_record(self, record: SeatRecord) -> None:
        seat = self.seats[record.seat]
        if (seat.controller, seat.bot) != (record.controller, record.bot):
            seat.bot_player = None
        seat.name, seat.controller, seat.bot = record.name, record.controller, record.bot
        seat.token_hash = record.token_hash

    def _apply_passes(self, add: Iterable[PassRecord], drop: Iterable[str]) -> None:
        for token_hash in drop:
            self.passes.pop(token_hash, None)
        for record in add:
            self.passes[record.token_hash] = record

    def _check_one_seat(self, held: Sequence[object]) -> None:
        """Refuse a caller whose client holds or held a seat here (``held``: the tokens
        its page keeps for this table): one person, one seat's secrets per game."""
        for token in held:
            if not isinstance(token, str):
                continue
            try:
                table_id, secret = parse_token(token)
            except InputError:
                continue
            if table_id != self.table_id:
                continue
            token_hash = hash_secret(secret)
            owned = [s.seat for s in self.seats if s.token_hash == token_hash]
            past = self.passes.get(token_hash)
            if owned or (past is not None and past.kind == RETIRED):
                seat = owned[0] if owned else past.seat if past is not None else None
                raise TableError(
                    "holds_seat",
                    f"you hold (or held) seat {seat} at this table: one person may see only"
                    " one seat's secrets in a game",
                    403,
                )

    def _invites_for(self, seat: int) -> list[str]:
        return [h for h, p in self.passes.items() if p.kind == SEAT_INVITE and p.seat == seat]

    async def seat_to_bot(self, requester: int | None, seat: object, bot_choice: object) -> None:
        """Let a bot keep ``seat`` warm for its owner (its own player, or another player
        once the owner is away). The seat stays its owner's: only his link takes it back."""
        if requester is None:
            raise TableError("forbidden", "only players at the table may do this", 403)
        bot = _bot_name(bot_choice, self.game_name)
        async with self.lock:
            if self.finished:
                raise TableError("game_over", "the game is over")
            target = self._seat(seat)
            if target.controller != HUMAN:
                raise TableError("seat_taken", "a bot already plays this seat")
            if requester != seat and not self.seat_is_away(target):
                raise TableError(
                    "player_present",
                    "this seat's player is still here (or left less than"
                    f" {self.manager.settings.away_after:g} seconds ago)",
                )
            record = SeatRecord(target.seat, target.name, BOT, bot, target.token_hash)
            if requester == target.seat:
                event = Event("table.event.to-bot",
                              {"seat": Seat(target.seat), "bot": Term(f"bot.{bot}")})
            else:
                event = Event("table.event.to-bot-away", {
                    "seat": Seat(target.seat), "by": Seat(requester), "bot": Term(f"bot.{bot}")})
            await self._change_hands([record], event)
            self.push_seats()
            self.push_state()
        self.schedule_bot()

    async def reclaim(self, seat: int) -> None:
        """The seat's own player takes it back from the bot keeping it warm."""
        async with self.lock:
            target = self._seat(seat)
            if target.controller != BOT:
                raise TableError("not_a_bot_seat", "you already play this seat")
            if self.finished:
                raise TableError("game_over", "the game is over")
            record = SeatRecord(target.seat, target.name, HUMAN, None, target.token_hash)
            await self._change_hands([record], Event("table.event.reclaim",
                                                     {"seat": Seat(target.seat)}))
            self.push_seats()
            self.push_state()

    async def leave(self, seat: int, bot_choice: object) -> None:
        """The seat's owner gives it up: a bot plays it for nobody from now on, the host may
        seat someone else there, and the owner's link opens nothing at this table again
        (it is kept as retired, so it can never take another seat)."""
        bot = _bot_name(bot_choice, self.game_name)
        async with self.lock:
            if self.finished:
                raise TableError("game_over", "the game is over")
            target = self._seat(seat)
            if target.token_hash is None:  # pragma: no cover - a seat token found this seat
                raise TableError("forbidden", "nobody owns this seat", 403)
            retired = PassRecord(target.token_hash, RETIRED, target.seat)
            record = SeatRecord(target.seat, "", BOT, bot, None)
            await self._change_hands(
                [record], Event("table.event.leave",
                                {"seat": Seat(target.seat), "bot": Term(f"bot.{bot}")}),
                add=[retired],
            )
            for watcher in list(self.watchers):
                if watcher.viewer == target.seat:
                    watcher.put(_dumps({"type": "error", "code": "seat_left",
                                        "message": "you gave up this seat"}))
                    self.detach(watcher)
            self.push_seats()
            self.push_state()
        self.schedule_bot()

    async def invite_to_seat(self, access: Access, seat: object) -> str:
        """The host's invitation to take ``seat`` (a seat no person owns); returns its
        token. It works once, and replaces an earlier invitation to the same seat."""
        if access.role != HOST_ROLE:
            raise TableError("forbidden", "only the table's host may invite players", 403)
        async with self.lock:
            if self.finished:
                raise TableError("game_over", "the game is over")
            target = self._seat(seat)
            if target.token_hash is not None:
                raise TableError("seat_owned", "this seat belongs to its player")
            token = new_token(self.table_id)
            invite = PassRecord(hash_secret(parse_token(token)[1]), SEAT_INVITE, target.seat)
            await self._change_hands(
                [], Event("table.event.invited", {"seat": Seat(target.seat)}),
                add=[invite], drop=self._invites_for(target.seat),
            )
            self.push_state()
        return token

    async def invite_to_join(self, access: Access) -> str:
        """The host's invitation to join mid-game with a new seat (where the table allows
        it); returns its token, which works once."""
        if access.role != HOST_ROLE:
            raise TableError("forbidden", "only the table's host may invite players", 403)
        async with self.lock:
            if self.finished:
                raise TableError("game_over", "the game is over")
            if not self.join_mid_game:
                raise TableError("join_off", "joining mid-game is off at this table")
            token = new_token(self.table_id)
            invite = PassRecord(hash_secret(parse_token(token)[1]), JOIN_INVITE, None)
            await self._change_hands([], Event("table.event.invited-join", {}), add=[invite])
            self.push_state()
        return token

    def _may_take(self, access: Access, seat: int | None) -> None:
        """Refuse a caller who may not take ``seat`` (``None``: a new seat)."""
        if access.role == SEAT_ROLE:
            raise TableError("holds_seat", "you already hold a seat at this table: one person,"
                             " one seat", 403)
        if access.role == SPECTATOR_ROLE:
            raise TableError(
                "forbidden",
                "a seat is taken only with the host's consent: his link, or his invitation",
                403,
            )
        if access.role == INVITED_ROLE and access.seat != seat:
            raise TableError(
                "forbidden",
                "this invitation is to join the game" if access.seat is None
                else f"this invitation is for seat {access.seat}",
                403,
            )
        if access.role == INVITED_ROLE and access.token_hash not in self.passes:
            raise TableError("unauthorized", "this invitation was used or withdrawn", 401)

    async def take_seat(self, access: Access, token: str, seat: object, name: object,
                        held: Sequence[object] = ()) -> str:
        """Seat a person at ``seat``, a seat no person owns (a bot plays it), with the
        host's consent; returns the seat's token.

        ``access``/``token``: the caller. A seat invitation for this seat becomes the seat's
        token; the host's link gets a new token for it (and stays the host's, never seeing
        a seat). ``held``: the tokens the caller's page holds at this table.
        """
        clean = clean_text(name, MAX_NAME) if name is not None else ""
        async with self.lock:
            if self.finished:
                raise TableError("game_over", "the game is over")
            target = self._seat(seat)
            self._may_take(access, target.seat)
            self._check_one_seat(held)
            if target.token_hash is not None:
                raise TableError(
                    "seat_owned",
                    "this seat belongs to its player (a bot only keeps it warm for him)"
                    if target.controller == BOT else "a player sits there",
                )
            if access.role == INVITED_ROLE:
                token_hash = access.token_hash
            else:
                token = new_token(self.table_id)
                token_hash = hash_secret(parse_token(token)[1])
            record = SeatRecord(target.seat, clean, HUMAN, None, token_hash)
            await self._change_hands(
                [record], Event("table.event.seated", {"seat": Seat(target.seat)}),
                drop=self._invites_for(target.seat),
            )
            target.left_at = time.monotonic()
            self.push_seats()
            self.push_state()
        return token

    async def join_new_seat(self, access: Access, token: str, name: object,
                            held: Sequence[object] = ()) -> tuple[int, str]:
        """A newcomer joins with a seat of his own, by the rules' join operation, at a
        table whose host allowed joining mid-game, with his consent (his link, or a join
        invitation, which becomes the new seat's token).

        Only where the game allows it now (``adapter.can_add_seat``: Shadows over Camelot's
        VAR-JOIN). The join is an action of the log like any other, so a replay or a
        restart seats the newcomer again. Returns the new seat and its token.
        """
        self._may_take(access, None)
        if not self.join_mid_game:
            raise TableError("join_off", "joining mid-game is off at this table (the host"
                             " chooses it when creating the table)")
        clean = clean_text(name, MAX_NAME) if name is not None else ""
        async with self.lock:
            self._may_take(access, None)
            self._check_one_seat(held)
            state = self.state
            action = self.adapter.add_seat_action(state)
            if action is None or not self.adapter.can_add_seat(state):
                raise TableError("cannot_join", "the rules let nobody join this game now")
            seat = _seat_count(state)
            new_state = state.clone()
            actions: list[int] = []
            actors: list[int] = []
            lines: list[tuple[LogEvents, ...]] = []
            try:
                self._apply(new_state, action, actions, actors, lines)
            except PendragonError as error:
                raise TableError("cannot_join", error.message) from None
            while new_state.current_player() == CHANCE:
                self._apply(new_state, new_state.sample_chance(), actions, actors, lines)
            if access.role == INVITED_ROLE:
                token_hash = access.token_hash
                drop: tuple[str, ...] = (token_hash,)
            else:
                token = new_token(self.table_id)
                token_hash = hash_secret(parse_token(token)[1])
                drop = ()
            record = SeatRecord(seat, clean, HUMAN, None, token_hash)
            at = time.time()
            notice = Event("table.event.joined", {"seat": Seat(seat)}).to_json()
            change = ChangeHands(self.table_id, (), (), drop, notice, new_state.version, at)
            try:
                notice_id = await self.manager.store.write(AddSeat(
                    AppendActions(self.table_id, state.version, actions, actors,
                                  new_state.is_terminal()),
                    record, change,
                ))
            except StaleLogError:
                await self._catch_up_locked()
                raise TableError("stale_version", "the table has moved on; try again") from None
            self.state = new_state
            self.actors.extend(actors)
            self.lines.extend(lines)
            self.seats.append(SeatState(seat, clean, HUMAN, None, record.token_hash))
            self._apply_passes((), drop)
            self.notices.append(NoticeRecord(int(notice_id), new_state.version, notice, at))
            self.push_seats()
            self.push_state()
        self.schedule_bot()
        return seat, token

    async def rename(self, seat: int, name: object) -> None:
        """A player changes the name shown for his seat."""
        clean = clean_text(name, MAX_NAME)
        async with self.lock:
            target = self._seat(seat)
            target.name = clean
            await self.manager.store.put_seat(self.table_id, target.record())
            self.push_seats()

    def _seat(self, seat: object) -> SeatState:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise TableError("unknown_seat", f"there is no seat {seat!r} at this table", 404)
        return self.seats[seat]

    # ------------------------------------------------------------------ chat
    async def say(self, seat: int | None, text: object) -> None:
        """Add a chat line from ``seat`` (spectators only read the chat)."""
        if seat is None:
            raise TableError("forbidden", "spectators may read the chat but not write", 403)
        try:
            clean = clean_text(text, MAX_CHAT, multiline=True)
        except InputError as error:
            raise TableError("bad_request", str(error), 400) from None
        if not clean:
            raise TableError("bad_request", "empty chat line", 400)
        if not self.adapter.chat_open(self.state):
            raise TableError("chat_closed", "the chat is closed at this moment of the game")
        speaker = self.seats[seat]
        now = time.monotonic()
        while speaker.chat_times and now - speaker.chat_times[0] > CHAT_WINDOW:
            speaker.chat_times.popleft()
        if len(speaker.chat_times) >= CHAT_BURST:
            raise TableError("rate_limited", "too many chat lines; wait a few seconds", 429)
        speaker.chat_times.append(now)
        at = time.time()
        line_id = await self.manager.store.add_chat(
            AddChat(self.table_id, seat, speaker.name, clean, at)
        )
        record = ChatRecord(line_id, seat, speaker.name, clean, at)
        self.chat.append(record)
        self.broadcast(self.chat_message([record]))

    # ------------------------------------------------------------------ lobby, rematch, timer
    # Issue 17, item 10: a listed table's free seats are offered in the lobby; a finished
    # game may be played again with the same seats; a host may give each decision a timer.

    async def note_opened(self, seat: int) -> None:
        """``seat``'s link was used: from now on the lobby never offers it, and its person
        has arrived (the game begins once everyone seated has)."""
        if seat in self.opened:
            return
        self.opened.add(seat)
        with contextlib.suppress(SeatClaimedError):  # stored already, by another process
            await self.manager.store.write(ClaimSeat(self.table_id, seat))
        await self.begin_if_everyone_arrived()

    def seats_not_arrived(self) -> list[int]:
        """Seats kept for a person who has not yet opened his link (a bot's seat, free or
        keeping one warm, needs nobody)."""
        return [s.seat for s in self.seats if s.controller == HUMAN and s.seat not in self.opened]

    async def begin_if_everyone_arrived(self) -> None:
        """Begin the game if it waits for nobody (issue 27, item 5)."""
        if not self.started and not self.seats_not_arrived():
            async with self.lock:
                await self._begin()

    async def start(self, access: Access) -> None:
        """The host begins the game without waiting for everyone (the seats not yet
        arrived are then timed and played like any other: a bot may be given them)."""
        if access.role != HOST_ROLE:
            raise TableError("forbidden", "only the host may start the game", 403)
        async with self.lock:
            if self.started:
                raise TableError("already_started", "the game has already begun")
            await self._begin()

    async def _begin(self) -> None:
        """Store that the game begins and tell the pages (their waiting notice goes, the
        moves come); then bots and timers run. Call with the lock held."""
        if self.started:
            return
        await self.manager.store.write(StartTable(self.table_id))
        self.started = True
        self.push_state()
        self.schedule_bot()

    async def sit_from_lobby(self, seat: object, name: object,
                             held: Sequence[object] = ()) -> str:
        """A stranger takes a free seat of a listed table; returns the seat's new token.

        Listing the table is the host's consent for the seats he kept for a person and
        whose link nobody has ever opened (any earlier link to such a seat stops working).
        Refused, with nothing changed, for a private table (``not_found``, as if there were
        none), a game over (``game_over``), a seat a bot plays (``bot_seat``), one that was
        opened (``seat_taken``), or a caller whose page holds or held another seat here
        (``held``, ``holds_seat``: one person, one seat's secrets). Announced in the log.
        """
        clean = clean_text(name, MAX_NAME) if name is not None else ""
        async with self.lock:
            if not self.listed:
                raise TableError("not_found", "there is no open table with this id", 404)
            if self.finished:
                raise TableError("game_over", "the game is over")
            target = self._seat(seat)
            if target.controller != HUMAN:
                raise TableError("bot_seat", "a bot plays this seat: the lobby offers only"
                                 " the seats kept for a person")
            if target.seat not in self.open_seats:
                raise TableError("seat_reserved", "this seat is kept for someone: the lobby"
                                 " offers only the seats the host left open to anyone")
            if target.seat in self.opened:
                raise TableError("seat_taken", "someone already sits there")
            self._check_one_seat(held)
            token = new_token(self.table_id)
            record = dataclasses.replace(
                target.record(), name=clean or target.name,
                token_hash=hash_secret(parse_token(token)[1]))
            try:
                await self.manager.store.write(ClaimSeat(self.table_id, target.seat, record))
            except SeatClaimedError:
                self.opened.add(target.seat)
                raise TableError("seat_taken", "someone already sits there") from None
            self.opened.add(target.seat)
            target.token_hash, target.name = record.token_hash, record.name
            target.left_at = time.monotonic()
            # A page that opened an earlier link at this very moment loses the seat.
            for watcher in list(self.watchers):
                if watcher.viewer == target.seat:
                    self.detach(watcher)
            try:  # the seat is taken (stored above); now tell the table
                await self._change_hands(
                    [], Event("table.event.seated-lobby", {"seat": Seat(target.seat)}))
            except StorageError:
                log.exception("table %s: seat %d taken from the lobby, not announced",
                              self.table_id, target.seat)
            self.push_seats()
            self.push_state()
        await self.begin_if_everyone_arrived()
        return token

    async def propose_rematch(self, viewer: int | None) -> str:
        """A seated player asks for a rematch of the finished game; returns its table id.

        The new table has the same game, options (a new seed), turn timer, listing,
        joining rule and seats: the same bots, and each person's seat keeps the hash of
        his link's secret, so his own link's secret opens his new seat
        (:meth:`rematch_token`) and nobody else's; so do the spectators' and the host's.
        Asking again returns the same rematch.
        """
        if viewer is None:
            raise TableError("forbidden", "only players at the table may ask for a rematch",
                             403)
        async with self.lock:
            if not self.finished:
                raise TableError("not_finished", "a rematch is for a game that is over")
            if self.rematch is not None:
                return self.rematch
            seats: list[dict[str, Any]] = []
            for s in self.seats:
                if s.token_hash is not None or s.controller == HUMAN:
                    seats.append({"kind": HUMAN, "name": s.name, "token_hash": s.token_hash,
                                  "open": s.seat in self.open_seats})
                else:
                    seats.append({"kind": BOT, "name": s.name, "bot": s.bot})
            remote = remote_option_names(pendragon.game_class(self.game_name))
            options = {k: v for k, v in self.options.items() if k in remote}
            table, _tokens, _spectator = await self.manager.create(
                self.game_name, options, seats, listed=self.listed,
                turn_timer=self.turn_timer, spectator_hash=self.spectator_hash,
                rematch_of=self.table_id,
                opened=frozenset(s for s in self.opened if self.seats[s].token_hash),
                join_mid_game=self.join_mid_game, host_hash=self.host_hash,
            )
            await self.manager.store.write(SetRematch(self.table_id, table.table_id))
            self.rematch = table.table_id
            self.push_state()
        return table.table_id

    async def rematch_token(self, viewer: int | None, secret: str) -> str | None:
        """The rematch's token for the holder of ``secret`` (``viewer``'s own link), or
        ``None`` if there is no rematch or his seat there is no longer held by it."""
        if self.rematch is None:
            return None
        rematch = await self.manager.get(self.rematch)
        if rematch is None:
            return None
        if viewer is None:  # the spectators' link, or the host's
            held: tuple[str | None, ...] = (rematch.spectator_hash, rematch.host_hash)
        elif viewer < len(rematch.seats):
            held = (rematch.seats[viewer].token_hash,)
        else:
            return None
        if any(secret_matches(secret, stored) for stored in held):
            return f"{rematch.table_id}.{secret}"
        return None

    def _timer_decision(self) -> tuple[int, int] | None:
        """The (version, seat) of the person's decision the timer runs for, if any: none
        before the game has begun (a person's clock runs only once it has, for him)."""
        if not self.turn_timer or self.finished or not self.started:
            return None
        player = self.state.current_player()
        if player < 0 or player >= len(self.seats) or self.seats[player].controller != HUMAN:
            return None
        return (self.state.version, player)

    def arm_timer(self) -> None:
        """Start the turn timer of a person's new decision; stop it when none is due.

        Idempotent: called after every change (and by ``state_message``, so a push always
        carries the current deadline). A table loaded again (a restart) starts afresh.
        """
        decision = self._timer_decision()
        if decision == self._timer_for:
            return
        if self._timer_handle is not None:
            self._timer_handle.cancel()
            self._timer_handle = None
        self._timer_for, self.deadline = decision, None
        if decision is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a synchronous caller: armed by the next call on the loop
            self._timer_for = None
            return
        self.deadline = time.monotonic() + self.turn_timer
        self._timer_handle = loop.call_later(self.turn_timer, self._time_out, decision)

    def timer_view(self) -> dict[str, Any] | None:
        """The state message's ``timer``: ``{"seconds", "remaining", "seat"}`` or None."""
        self.arm_timer()
        if self.deadline is None or self._timer_for is None:
            return None
        remaining = max(0.0, self.deadline - time.monotonic())
        return {"seconds": self.turn_timer, "remaining": round(remaining, 1),
                "seat": self._timer_for[1]}

    def _time_out(self, decision: tuple[int, int]) -> None:
        # An unloaded table (idle) must not move: it resumes its timer when loaded again.
        if (decision != self._timer_for or self.manager.closing
                or self.manager.tables.get(self.table_id) is not self):
            return
        self._timeout_task = asyncio.get_running_loop().create_task(
            self._play_timed_out(decision))

    async def _play_timed_out(self, decision: tuple[int, int]) -> None:
        """The game's heuristic bot plays the decision whose time ran out."""
        version, seat = decision
        snapshot = self.state
        if snapshot.version != version or self._timer_decision() != decision:
            return
        bot = self._timeout_bots.get(seat)
        if bot is None:
            name = self.manager.settings.timeout_bot or table_bot(self.game_name)
            bot = make_bot(name, bot_seed(self.seed, seat), self.game_name)
            self._timeout_bots[seat] = bot
        try:
            action, _took = await self.manager.run_bot(bot, snapshot, table=self.table_id)
        except Exception:
            log.exception("the timeout bot failed at table %s", self.table_id)
            action = snapshot.legal_actions()[0]
        if not snapshot.is_legal(action):
            action = snapshot.legal_actions()[0]
        try:
            await self.submit(seat, version, action, timed_out=True)
        except TableError as error:
            # The person moved (or left the seat to a bot) while the bot thought.
            if error.code not in ("stale_version", "not_your_turn", "bot_seat", "game_over"):
                log.error("timed-out move refused at table %s: %s", self.table_id,
                          error.message)

    def note_timeouts(self, timeouts: Iterable[tuple[int, int]]) -> None:
        """Add the log's note to stored moves a bot played when a person's time ran out."""
        for index, seat in timeouts:
            if 0 <= index < len(self.lines):
                self.lines[index] = _with_timeout_note(self.lines[index], seat)

    def stop_timer(self) -> None:
        """Cancel the turn timer (the server is closing)."""
        if self._timer_handle is not None:
            self._timer_handle.cancel()
        if self._timeout_task is not None:
            self._timeout_task.cancel()

    async def _catch_up_lobby(self) -> bool:
        """Read the rematch and opened seats another process stored; whether they changed."""
        facts = await self.manager.store.load_lobby(self.table_id)
        opened = set(facts["opened"])
        changed = (facts["rematch"] != self.rematch or not opened <= self.opened
                   or facts["started"] != self.started)
        self.rematch = facts["rematch"]
        self.opened |= opened
        self.started = self.started or bool(facts["started"])
        return bool(changed)

    # ------------------------------------------------------------------ other processes
    async def catch_up(self) -> None:
        """Read what other server processes wrote to this table, and push it."""
        async with self.lock:
            await self._catch_up_locked()

    async def _catch_up_locked(self) -> None:
        store = self.manager.store
        actions = await store.actions_since(self.table_id, self.state.version)
        changed = False
        if actions:
            state = self.state.clone()
            self.replay_into(state, actions)
            self.state = state
            changed = True
        last_notice = self.notices[-1].id if self.notices else 0
        hands = await store.load_hands(self.table_id, last_notice)
        self.passes = {p.token_hash: p for p in hands.passes}
        seats_changed = bool(hands.notices)
        self.notices.extend(hands.notices)
        for record in hands.seats:
            if record.seat >= len(self.seats):
                self.seats.append(SeatState(record.seat, record.name, record.controller,
                                            record.bot, record.token_hash))
                seats_changed = True
                continue
            seat = self.seats[record.seat]
            if (seat.controller, seat.bot, seat.token_hash, seat.name) != (
                record.controller, record.bot, record.token_hash, record.name
            ):
                seat.controller, seat.bot, seat.name = record.controller, record.bot, record.name
                seat.token_hash, seat.bot_player = record.token_hash, None
                seats_changed = True
        last_chat = self.chat[-1].id if self.chat else 0
        new_chat = await store.chat_since(self.table_id, last_chat, CHAT_KEPT)
        if new_chat:
            self.chat.extend(new_chat)
            self.broadcast(self.chat_message(new_chat))
        lobby_changed = await self._catch_up_lobby()
        if seats_changed:
            # A page whose link gave its seat up in another process loses the seat here.
            for watcher in list(self.watchers):
                access = watcher.access
                if (access is not None and access.role == SEAT_ROLE and access.seat is not None
                        and self.seats[access.seat].token_hash != access.token_hash):
                    watcher.put(_dumps({"type": "error", "code": "seat_left",
                                        "message": "this link no longer holds its seat"}))
                    self.detach(watcher)
            self.push_seats()
        if changed or seats_changed or lobby_changed:
            self.push_state()
        loop = asyncio.get_running_loop()
        loop.call_soon(self.schedule_bot)

    # ------------------------------------------------------------------ replay
    def replay_steps(self) -> list[dict[str, Any]]:
        """Every action of a finished game, narrated with every secret revealed.

        A decision is told as its actor knew it; a chance event (or a table operation) as
        the first seat told more than the spectators knew it (the one who drew the card).
        Nothing here knows the game: it compares the narrations.
        """
        steps = []
        for i, actor in enumerate(self.actors):
            lines = self.lines[i]
            public = lines[-1]
            if actor >= 0:
                events = lines[actor]
            else:
                events = next((x for x in lines[:-1] if x is not public and x != public),
                              public)
            steps.append({"i": i, "s": actor if actor >= 0 else None, "events": events})
        return steps

    def replay_position(self, version: int) -> dict[str, Any]:
        """Every seat's observation (and the spectators') after ``version`` actions."""
        state = self.game.new_initial_state()
        for action in self.state.history()[:version]:
            _apply_any(state, action)
        *seats, spectator = state.observations([*range(_seat_count(state)), None])
        player = state.current_player()
        return {
            "version": version,
            "observations": seats,
            "spectator": spectator,
            "to_act": player if player >= 0 else None,
            "decision": state.decision_event().to_json(),
            "finished": state.is_terminal(),
        }


class TableManager:
    """Every live table of this server process, and the ways to reach them."""

    def __init__(self, store: AsyncStore, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.metrics: Metrics | None = Metrics() if self.settings.metrics else None
        limits = self.settings.limits
        self.scheduler = BotScheduler(self.settings.bot_threads, limits.bot_cpu_share,
                                      limits.bot_cpu_window,
                                      processes=self.settings.bot_processes)
        self._sweeper: asyncio.Task[None] | None = None
        #: Clients of tables of bots alone being created (counted by the cap).
        self._creating: list[str | None] = []
        self.closing = False
        self._listener: threading.Thread | None = None
        self._stop_listener = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Resume every unfinished table (bots play on) and listen to other processes."""
        self._loop = asyncio.get_running_loop()
        lazy = self.settings.limits.unwatched_grace > 0
        for table_id in await self.store.unfinished_table_ids():
            if lazy:
                seats = await self.store.load_seats(table_id)
                if seats and all(s.controller == BOT for s in seats):
                    continue  # only bots there: resumed when someone opens it
            table = await self.get(table_id)
            if table is not None:
                table.schedule_bot()
        if self.settings.limits.idle_unload > 0:
            self._sweeper = self._loop.create_task(self._sweep_loop())
        if self.store.storage.is_postgresql:
            self._listener = threading.Thread(
                target=self.store.storage.listen,
                args=(self._on_remote_write, self._stop_listener),
                name="pendragon-listen",
                daemon=True,
            )
            self._listener.start()

    async def close(self) -> None:
        """Stop the bots and the listener, finish the writes."""
        self.closing = True
        self._stop_listener.set()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in self.tables.values():
            table.stop_timer()
            for watcher in list(table.watchers):
                watcher.close()
        await asyncio.to_thread(self.scheduler.shutdown)
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.join, 2.0)
        await self.store.close()

    def _on_remote_write(self, table_id: str) -> None:
        # Called in the listener thread.
        loop = self._loop
        if loop is None or table_id not in self.tables:
            return

        def schedule() -> None:
            """Catch the table up, on the event loop."""
            table = self.tables.get(table_id)
            if table is not None:
                loop.create_task(table.catch_up())

        loop.call_soon_threadsafe(schedule)

    async def run_bot(self, bot: Bot, state: State, inline: bool = False, table: str = "",
                      priority: int = PRIORITY_BOTS_ONLY) -> tuple[int, float]:
        """``bot.step(state)`` and the CPU seconds it took, for table ``table``: in the bot
        thread pool when the scheduler gives the table its turn (``priority``, its share
        of thinking time), or on the event loop when ``inline`` (a bot known to answer at
        once; still counted against the table's share)."""
        if inline:
            outcome = _timed_step(bot, state)
            self.scheduler.record(table, outcome[1])
            return outcome
        if self.scheduler.processes:
            try:
                game = pickle.dumps(state.game, protocol=pickle.HIGHEST_PROTOCOL)
                payload = dumps_sharing((bot, state), state.game)
            except Exception:  # a bot that cannot travel thinks in a thread here
                log.warning("bot %r cannot be sent to a worker process", bot, exc_info=True)
                return await asyncio.to_thread(_timed_step, bot, state)
            answer, took = await self.scheduler.run(table, priority, step_in_worker, game,
                                                    payload)
            action, moved = loads_sharing(answer, state.game)
            adopt(bot, moved)  # the bot's generator and memory advance as if it ran here
            return int(action), took

        def work() -> tuple[tuple[int, float], float]:
            """The move, with its CPU time for the scheduler."""
            outcome = _timed_step(bot, state)
            return outcome, outcome[1]

        return await self.scheduler.run(table, priority, work)

    async def _sweep_loop(self) -> None:
        """Unload idle tables now and then (:attr:`Limits.idle_unload`)."""
        idle_after = self.settings.limits.idle_unload
        while not self.closing:
            await asyncio.sleep(min(5.0, max(0.05, idle_after / 4)))
            now = time.monotonic()
            for table in list(self.tables.values()):
                try:
                    if table.is_idle(now, idle_after):
                        self.unload(table)
                except Exception:  # one table's trouble must not stop the sweeping
                    log.exception("could not unload table %s", table.table_id)

    def unload(self, table: LiveTable) -> None:
        """Forget ``table`` (it is reloaded from the database when opened)."""
        if self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]
        table.stop()
        self.scheduler.forget(table.table_id)

    def check_bot_table_cap(self, client: str | None) -> None:
        """Refuse a new table where bots hold every seat when the server, or ``client``,
        already has as many live ones as allowed (``bot_table_limit``)."""
        limits = self.settings.limits
        now = time.monotonic()
        # A paused table (nobody watched it lately) costs no CPU: only playing ones count.
        live = [t.client for t in self.tables.values()
                if t.bots_only and not t.finished and t.bots_may_play(now)]
        live += self._creating
        if limits.bot_tables_per_client > 0 and client is not None:
            mine = live.count(client)
            if mine >= limits.bot_tables_per_client:
                raise TableError(
                    "bot_table_limit",
                    f"you already have {mine} tables played by bots alone; watch one to the"
                    " end, or wait until they are idle, before creating another",
                    429,
                )
        if limits.bot_tables > 0 and len(live) >= limits.bot_tables:
            raise TableError(
                "bot_table_limit",
                "the server is running as many tables of bots alone as it allows; seat a"
                " person at the new table, or try again later",
                503,
            )

    # ------------------------------------------------------------------ tables
    async def create(
        self, game_name: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]],
        client: str | None = None,
        *,
        listed: bool = False,
        turn_timer: int = 0,
        spectator_hash: str | None = None,
        rematch_of: str | None = None,
        opened: frozenset[int] = frozenset(),
        join_mid_game: bool = False,
        host_hash: str | None = None,
    ) -> tuple[LiveTable, list[str | None], str | None]:
        """Create a table; returns it, one token per seat (``None`` for bots) and the
        spectators' token. ``seats`` items: ``{"kind": "human"|"bot", "name", "bot"}``.
        ``client``: who asks (for the cap on tables of bots alone).

        ``listed``: offer its free seats in the lobby; ``turn_timer``: seconds per decision
        of a person (one of ``settings.turn_timers``, or 0). A rematch passes the finished
        table's ``spectator_hash``, seats' ``token_hash`` (their links' secrets open the
        new table; no token is made for them, nor for the spectators), ``rematch_of`` and
        the ``opened`` seats.

        ``join_mid_game``: newcomers may join mid-game with the host's consent (only for a
        game that seats newcomers: its adapter's ``add_seat_action``). The table's host
        link is made here and handed out once, by :meth:`LiveTable.pop_host_token`; a
        rematch passes the finished table's ``host_hash`` instead.
        """
        if rematch_of is None:
            self.check_turn_timer(turn_timer)
        if seats and all(spec.get("kind") == BOT for spec in seats):
            self.check_bot_table_cap(client)
        try:
            cls = pendragon.game_class(game_name)
        except PendragonError as error:
            raise TableError(error.code.value, error.message, 400) from None
        given = dict(options)
        for reserved in SERVER_OPTIONS:
            if reserved in given:
                raise TableError(
                    "invalid_option",
                    f"option {reserved!r} is set by the server"
                    + (" (from the number of seats)" if reserved == "players" else ""),
                    400,
                )
        specs = {spec.name: spec for spec in cls.option_specs}
        for name in given:
            if name in specs and not specs[name].remote:
                # An option naming something on this machine (a file): never from a remote
                # client, whatever its value; its value is not echoed either.
                raise TableError(
                    "invalid_option",
                    f"option {name!r} cannot be set at the online table; its choices are"
                    f" {', '.join(remote_option_names(cls)) or 'none'}",
                    400,
                )
        names = set(specs)
        if "players" in names:
            given["players"] = len(seats)
        seed = self.settings.seed_source()
        try:
            game = pendragon.load_game(game_name, seed=seed, **given)
        except PendragonError as error:
            raise TableError(error.code.value, error.message, 400) from None
        if join_mid_game and self._seats_nobody_mid_game(game_name, game):
            raise TableError("invalid_option",
                             f"{game_name} seats nobody mid-game: join_mid_game must be false",
                             400)
        if game.num_players() != len(seats):
            raise TableError("bad_request", f"this game needs {game.num_players()} seats", 400)
        table_id = new_table_id()
        tokens: list[str | None] = []
        seat_records = []
        open_seats = frozenset(i for i, spec in enumerate(seats)
                               if spec.get("kind") == HUMAN and spec.get("open"))
        for index, spec in enumerate(seats):
            kind = spec.get("kind")
            try:
                name = clean_text(spec.get("name") or "", MAX_NAME)
            except InputError as error:
                raise TableError("bad_request", f"seat {index}: {error}", 400) from None
            if kind == HUMAN and "token_hash" in spec:  # a rematch: the same person's seat
                tokens.append(None)
                held = spec["token_hash"]
                seat_records.append(SeatRecord(index, name, HUMAN, None,
                                               None if held is None else str(held)))
            elif kind == HUMAN:
                token = new_token(table_id)
                tokens.append(token)
                seat_records.append(
                    SeatRecord(index, name, HUMAN, None, hash_secret(parse_token(token)[1]))
                )
            elif kind == BOT:
                bot = _bot_name(spec.get("bot"), game_name, f"seat {index}: ")
                tokens.append(None)
                seat_records.append(SeatRecord(index, name, BOT, str(bot), None))
            else:
                raise TableError("bad_request", f"seat {index}: kind must be 'human' or 'bot'",
                                 400)
        spectator = new_token(table_id) if spectator_hash is None else None
        host = new_token(table_id)
        stored_options = {k: v for k, v in game.options.items() if k != "seed"}
        record = TableRecord(
            table_id=table_id,
            game=game_name,
            options=stored_options,
            seed=seed,
            created_at=time.time(),
            spectator_hash=(hash_secret(parse_token(spectator)[1]) if spectator is not None
                            else str(spectator_hash)),
            seats=tuple(seat_records),
            actions=(),
            finished=False,
            listed=listed,
            turn_timer=turn_timer,
            rematch_of=rematch_of,
            opened=opened,
            open_seats=open_seats,
            # Begun at once where nobody is awaited (bots alone; a rematch whose people
            # all opened their links at the table before).
            started=all(s.controller != HUMAN or s.seat in opened for s in seat_records),
            host_hash=host_hash or hash_secret(parse_token(host)[1]),
            join_mid_game=join_mid_game,
        )
        state = game.new_initial_state()
        table = LiveTable(self, record, state)
        table.client = client
        table.host_token = host if host_hash is None else None
        # The deal: chance events before anyone decides are part of the log too.
        setup: list[int] = []
        probe = state.clone()
        while probe.current_player() == CHANCE:
            action = probe.sample_chance()
            probe.apply_action(action)
            setup.append(action)
        table.replay_into(state, setup)
        bots_alone = table.bots_only and not state.is_terminal()
        if bots_alone:
            # Again, and counted until it is live: concurrent creations must not all pass.
            self.check_bot_table_cap(client)
            self._creating.append(client)
        try:
            await self.store.create_table(
                TableRecord(**{**_record_fields(record), "actions": tuple(setup),
                               "finished": state.is_terminal()})
            )
        finally:
            if bots_alone:
                self._creating.remove(client)
        self.tables[table_id] = table
        table.schedule_bot()
        return table, tokens, spectator

    @staticmethod
    def _seats_nobody_mid_game(game_name: str, game: Game) -> bool:
        """Whether the game has no way to seat a newcomer mid-game (its adapter's)."""
        return adapter_for(game_name).add_seat_action(game.new_initial_state()) is None

    def check_turn_timer(self, turn_timer: object) -> int:
        """``turn_timer`` if a host may choose it (0 or one of ``settings.turn_timers``)."""
        allowed = (0, *self.settings.turn_timers)
        if (isinstance(turn_timer, bool) or not isinstance(turn_timer, int)
                or turn_timer not in allowed):
            raise TableError(
                "bad_request",
                "turn_timer must be one of " + ", ".join(str(t) for t in allowed)
                + " (seconds per decision; 0: none)", 400)
        return turn_timer

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby's open tables: listed, not over, with a free seat; newest first.

        Read from the database, so every server process lists every table.
        """
        out: list[dict[str, Any]] = []
        for entry in await self.store.listed_tables(LOBBY_LIMIT * 2):
            # Only seats the host left open to anyone, and nobody opened yet; a seat kept
            # for a named person is never offered, even before its link is first opened.
            free = {s.seat for s in entry.seats
                    if s.controller == HUMAN and s.seat in entry.open_seats
                    and s.seat not in entry.opened}
            if not free:
                continue
            out.append({
                "table": entry.table_id,
                "game": entry.game,
                "options": {k: v for k, v in entry.options.items() if k != "seed"},
                "turn_timer": entry.turn_timer,
                "created_at": entry.created_at,
                "seats": [
                    {"seat": s.seat, "name": s.name, "kind": s.controller,
                     "bot": s.bot if s.controller == BOT else None, "free": s.seat in free}
                    for s in entry.seats
                ],
            })
            if len(out) >= LOBBY_LIMIT:
                break
        return out

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, loaded from the database if needed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            record = await self.store.load_table(table_id)
            if record is None:
                self._loading.pop(table_id, None)
                return None
            game = pendragon.load_game(record.game, seed=record.seed, **record.options)
            state = game.new_initial_state()
            table = LiveTable(self, record, state)
            table.replay_into(state, record.actions)
            table.note_timeouts(record.timeouts)
            table.chat.extend(await self.store.chat_since(table_id, 0, CHAT_KEPT))
            self.tables[table_id] = table
            self._loading.pop(table_id, None)
            return table

    def maybe_unload(self, table: LiveTable) -> None:
        """Forget a finished table nobody watches (it is reloaded on demand)."""
        if table.finished and not table.watchers and self.tables.get(table.table_id) is table:
            self.unload(table)

    async def authenticate(self, token: object) -> tuple[LiveTable, int | None]:
        """The table and viewer (a seat, or ``None`` for a spectator) of ``token``: the
        seat whose view the token gets (the host's link and invitations get the
        spectators')."""
        table, access = await self.identify(token)
        return table, access.viewer

    async def identify(self, token: object) -> tuple[LiveTable, Access]:
        """The table of ``token`` and who the token is there (:class:`Access`).

        A seat's owner, the spectators, the host, an invitation; a token that gave its seat
        up is refused (401 ``seat_left``), like any unknown token (401 ``unauthorized``).
        """
        if not isinstance(token, str):
            raise TableError("unauthorized", "a table link's token is required", 401)
        try:
            table_id, secret = parse_token(token)
        except InputError:
            raise TableError("unauthorized", "this link is not valid", 401) from None
        table = await self.get(table_id)
        if table is None:
            raise TableError("unauthorized", "this link is not valid", 401)
        matches = [s.seat for s in table.seats if secret_matches(secret, s.token_hash)]
        if matches:
            table.touch()
            await table.note_opened(matches[0])
            return table, Access(SEAT_ROLE, matches[0], table.seats[matches[0]].token_hash or "")
        if secret_matches(secret, table.spectator_hash):
            table.touch()
            return table, Access(SPECTATOR_ROLE)
        if secret_matches(secret, table.host_hash):
            table.touch()
            return table, Access(HOST_ROLE, None, table.host_hash or "")
        # A pass is found by the SHA-256 of the secret: equality of two digests tells an
        # attacker nothing about a secret he does not have.
        token_hash = hash_secret(secret)
        found = table.passes.get(token_hash)
        if found is not None and found.kind in (SEAT_INVITE, JOIN_INVITE):
            table.touch()
            return table, Access(INVITED_ROLE, found.seat, token_hash)
        if found is not None and found.kind == RETIRED:
            raise TableError("seat_left", "you gave up your seat at this table: this link"
                             " opens nothing here any more", 401)
        raise TableError("unauthorized", "this link is not valid (or its seat was taken over)",
                         401)


#: Options the server sets itself: the seed (never shown to a client) and the number of
#: players (from the seats).
SERVER_OPTIONS = ("players", "seed")


def remote_option_names(cls: type[Game]) -> tuple[str, ...]:
    """The options of game class ``cls`` a client may set at a table: those declared
    ``remote`` (:class:`~pendragon.core.options.OptionSpec`), but :data:`SERVER_OPTIONS`.

    >>> remote_option_names(pendragon.game_class("grail-cup"))
    ('track',)
    """
    return tuple(spec.name for spec in remote_specs(cls.option_specs)
                 if spec.name not in SERVER_OPTIONS)


def _with_timeout_note(line: tuple[LogEvents, ...], seat: int) -> tuple[LogEvents, ...]:
    """Every viewer's events of a move, after the note that ``seat``'s time ran out."""
    note = Event(TIMED_OUT, {"seat": Seat(seat)}).to_json()
    return tuple([note, *events] for events in line)


def _timed_step(bot: Bot, state: State) -> tuple[int, float]:
    # CPU time of this thread: waiting for the interpreter lock does not count.
    started = time.thread_time()
    action = bot.step(state)
    return action, time.thread_time() - started


def _apply_any(state: State, action: int) -> None:
    """Apply a move, or a table operation (a player joining) recorded in the same log."""
    if state.is_table_operation(action):
        state.apply_table_operation(action)
    else:
        state.apply_action(action)


def _seat_count(state: State) -> int:
    """Seats in ``state`` now (a game may seat a newcomer mid-game)."""
    seats = getattr(state, "n", None)  # Shadows over Camelot keeps it; returns() is slower
    if isinstance(seats, int) and not isinstance(seats, bool):
        return seats
    return len(state.returns())


def _record_fields(record: TableRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in TableRecord.__dataclass_fields__}


def _bot_name(bot: object, game: str, where: str = "") -> str:
    """``bot`` if it names a bot of ``game`` (``bots.check_bot``), else ``TableError`` (400,
    its message after ``where``);
    no choice (``None``, ``""``) is the game's table bot (``bots.table_bot``), the one the
    lobby offers first, a seat handed over is given, and a timed-out turn is played by.

    >>> _bot_name(None, "soc"), _bot_name("random", "soc")
    ('stealth', 'random')
    """
    try:
        return check_bot(bot or table_bot(game), game)
    except ValueError as error:
        raise TableError("bad_request", f"{where}{error}", 400) from None
