"""Every live table of a server process: :class:`TableManager` creates tables, loads them
from the database when opened (and unloads idle ones), finds a link's table and who the
link is there, runs the bots' moves in the bot pool, caps the tables of bots alone, and
hears what other processes wrote (PostgreSQL ``LISTEN``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pendragon
from pendragon.bots.base import Bot
from pendragon.core import registry
from pendragon.core.api import CHANCE, Game, State
from pendragon.core.errors import PendragonError
from pendragon.records import other_rules
from pendragon.web.access import BOT, HUMAN, INVITATIONS, RETIRED, Access
from pendragon.web.adapters import adapter_for
from pendragon.web.bot_loop import bot_name, timed_step
from pendragon.web.errors import TableError
from pendragon.web.limits import (
    HINT_NICE,
    PRIORITY_BOTS_ONLY,
    BotScheduler,
    adopt,
    current_client,
    dumps_sharing,
    loads_sharing,
    step_in_worker,
)
from pendragon.web.lobby import open_tables
from pendragon.web.narration import LogEvents, replay_game, replay_in_worker
from pendragon.web.options import remote_option_names, table_options
from pendragon.web.reviews import ReviewDesk
from pendragon.web.seats import new_pass
from pendragon.web.security import (
    MAX_NAME,
    InputError,
    clean_text,
    hash_secret,
    new_table_id,
    parse_token,
    secret_matches,
)
from pendragon.web.settings import CHAT_KEPT, Settings
from pendragon.web.storage import SeatRecord, TableRecord
from pendragon.web.store import AsyncStore
from pendragon.web.table_core import TableCore
from pendragon.web.tables import LiveTable
from pendragon.web.watchers import Metrics

log = logging.getLogger("pendragon.web")

#: Finished tables kept in memory for their replays (beyond, the least recently opened one
#: nobody watches is unloaded; opened again, it is loaded again).
FINISHED_KEPT = 32


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
        #: The coach's hints: one worker of their own (a process at :data:`HINT_NICE`,
        #: started at the first hint), so that a hint never holds a bot's worker nor takes
        #: a core from a bot's move; counted in the same shares as the bots' moves.
        self.hint_scheduler = BotScheduler(min(1, self.settings.bot_threads),
                                           limits.bot_cpu_share, limits.bot_cpu_window,
                                           processes=self.settings.bot_processes,
                                           nice=HINT_NICE, usage=self.scheduler.usage)
        self._sweeper: asyncio.Task[None] | None = None
        #: Clients of tables of bots alone being created (counted by the cap).
        self._creating: list[str | None] = []
        self.closing = False
        self._listener: threading.Thread | None = None
        self._stop_listener = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Cold loads under way per client (``Limits.loads_per_client``), and the thread
        #: that replays them (one: however many are asked, the event loop keeps most of
        #: the interpreter).
        self._loads: dict[str, int] = {}
        self._loader: Executor = ThreadPoolExecutor(1, thread_name_prefix="pendragon-load")
        if self.settings.bot_processes and self.settings.bot_threads > 0:
            # A process (started at the first cold load): the replay never holds the
            # interpreter lock the event loop needs; only its unpickling runs here. At the
            # server's own priority: a person waits for it (and a client has few at once).
            self._loader = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"))
        #: Finished tables in memory, the least recently opened first.
        self._finished: OrderedDict[str, None] = OrderedDict()
        #: Hint searches queued or running, per client (``Limits.hints_per_client``).
        self.hint_searches: dict[str, int] = {}
        #: The reviews of finished games (issue 31, item 3): one at a time, kept in memory.
        self.reviews = ReviewDesk(self.settings, store.storage)
        #: Stored tables whose moves this version's rules do not replay (:func:`unplayable`).
        self.unplayable: set[str] = set()

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
            try:
                table = await self.get(table_id)
            except TableError:  # its moves no longer replay: the others still start
                continue
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
        await self.reviews.close()
        await asyncio.to_thread(self.scheduler.shutdown)
        await asyncio.to_thread(self.hint_scheduler.shutdown)
        self._loader.shutdown(wait=False, cancel_futures=True)
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
            outcome = timed_step(bot, state)
            self.scheduler.record(table, outcome[1])
            return outcome
        if self.scheduler.processes:
            try:
                game = pickle.dumps(state.game, protocol=pickle.HIGHEST_PROTOCOL)
                payload = dumps_sharing((bot, state), state.game)
            except Exception:  # a bot that cannot travel thinks in a thread here
                log.warning("bot %r cannot be sent to a worker process", bot, exc_info=True)
                return await asyncio.to_thread(timed_step, bot, state)
            answer, took = await self.scheduler.run(table, priority, step_in_worker, game,
                                                    payload)
            action, moved = loads_sharing(answer, state.game)
            adopt(bot, moved)  # the bot's generator and memory advance as if it ran here
            return int(action), took

        def work() -> tuple[tuple[int, float], float]:
            """The move, with its CPU time for the scheduler."""
            outcome = timed_step(bot, state)
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

    def check_bot_table_cap(self, client: str | None, exclude: str | None = None) -> None:
        """Refuse a new table where bots hold every seat (or a hand-over that makes table
        ``exclude`` one) when the server, or ``client``, already has as many live ones as
        allowed (``bot_table_limit``). A table counts by who plays it now: one whose
        people all handed their seats to bots counts as much as one created so."""
        limits = self.settings.limits
        now = time.monotonic()
        # A paused table (nobody watched it lately) costs no CPU: only playing ones count.
        live = [t.client for t in self.tables.values()
                if t.bots_only and not t.finished and t.bots_may_play(now)
                and t.table_id != exclude]
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
        given = table_options(game_name, options, len(seats))
        seed = self.settings.seed_source()
        try:
            game = pendragon.load_game(game_name, seed=seed, **given)
        except PendragonError as error:  # its message may quote an option: never echoed
            known = ", ".join(remote_option_names(pendragon.game_class(game_name))) or "none"
            raise TableError(error.code.value, f"these options are not valid for {game_name};"
                             f" its options are {known}", 400) from None
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
                token, token_hash = new_pass(table_id)
                tokens.append(token)
                seat_records.append(SeatRecord(index, name, HUMAN, None, token_hash))
            elif kind == BOT:
                bot = bot_name(spec.get("bot"), game_name, f"seat {index}: ")
                tokens.append(None)
                seat_records.append(SeatRecord(index, name, BOT, str(bot), None))
            else:
                raise TableError("bad_request", f"seat {index}: kind must be 'human' or 'bot'",
                                 400)
        spectator, made_hash = new_pass(table_id) if spectator_hash is None else (None, None)
        host, host_made_hash = new_pass(table_id)
        stored_options = {k: v for k, v in game.options.items() if k != "seed"}
        state = game.new_initial_state()
        # The deal: chance events before anyone decides are part of the log too.
        setup: list[int] = []
        probe = state.clone()
        while probe.current_player() == CHANCE:
            action = probe.sample_chance()
            probe.apply_action(action)
            setup.append(action)
        record = TableRecord(
            table_id=table_id,
            game=game_name,
            options=stored_options,
            seed=seed,
            created_at=time.time(),
            spectator_hash=made_hash if made_hash is not None else str(spectator_hash),
            seats=tuple(seat_records),
            actions=tuple(setup),
            finished=probe.is_terminal(),
            listed=listed,
            turn_timer=turn_timer,
            rematch_of=rematch_of,
            opened=opened,
            open_seats=open_seats,
            # Begun at once where nobody is awaited (bots alone; a rematch whose people
            # all opened their links at the table before).
            started=all(s.controller != HUMAN or s.seat in opened for s in seat_records),
            host_hash=host_hash or host_made_hash,
            join_mid_game=join_mid_game,
            rules_version=game.rules_version,
        )
        table = LiveTable(self, record, state)
        table.client = client
        table.host_token = host if host_hash is None else None
        table.replay_into(state, setup)
        bots_alone = table.bots_only and not state.is_terminal()
        if bots_alone:
            # Again, and counted until it is live: concurrent creations must not all pass.
            self.check_bot_table_cap(client)
            self._creating.append(client)
        try:
            await self.store.create_table(record)
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
        """The lobby's open tables (:func:`pendragon.web.lobby.open_tables`)."""
        return await open_tables(self.store)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table ``table_id``, loaded from the database if needed."""
        table = self.tables.get(table_id)
        if table is not None:
            if table.finished:
                self._keep_finished(table)
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if table_id in self.unplayable:
                self._loading.pop(table_id, None)
                raise unplayable()
            client = current_client.get()
            cap = self.settings.limits.loads_per_client
            if client is not None and cap > 0 and self._loads.get(client, 0) >= cap:
                self._loading.pop(table_id, None)
                raise TableError("rate_limited", "too many tables opened at once; try again"
                                 " in 1 s", 429)
            self._loads[client or ""] = self._loads.get(client or "", 0) + 1
            try:
                record = await self.store.load_table(table_id)
                if record is None:
                    self._loading.pop(table_id, None)
                    return None
                # The whole game replayed and narrated: off the event loop (issue 36, item 5).
                try:
                    check_rules_version(record)
                    state, actors, lines = await self._replay(record)
                except PendragonError as error:
                    # Stored under rules this version no longer plays (a move now illegal,
                    # an option or game gone): the table is left as stored, and refused.
                    log.warning("table %s does not replay: %s", table_id, error)
                    self.unplayable.add(table_id)
                    self._loading.pop(table_id, None)
                    raise unplayable() from None
            finally:
                left = self._loads.get(client or "", 0) - 1
                if left > 0:
                    self._loads[client or ""] = left
                else:
                    self._loads.pop(client or "", None)
            table = LiveTable(self, record, state)
            table.actors, table.lines = actors, lines
            table.note_timeouts(record.timeouts)
            table.chat.extend(await self.store.chat_since(table_id, 0, CHAT_KEPT))
            self.tables[table_id] = table
            self._loading.pop(table_id, None)
            if table.finished:
                self._keep_finished(table)
            return table

    async def _replay(self, record: TableRecord) -> tuple[State, list[int],
                                                          list[tuple[LogEvents, ...]]]:
        """``record``'s game replayed in the loader (a process, or a thread)."""
        loop = asyncio.get_running_loop()
        if isinstance(self._loader, ProcessPoolExecutor):
            data = await loop.run_in_executor(self._loader, replay_in_worker, record.game,
                                              record.seed, dict(record.options),
                                              list(record.actions))
            game = pendragon.load_game(record.game, seed=record.seed, **record.options)
            replayed: tuple[State, list[int], list[tuple[LogEvents, ...]]] = loads_sharing(
                data, game)
            return replayed
        return await loop.run_in_executor(self._loader, replay_record, record)

    def _keep_finished(self, table: LiveTable) -> None:
        """Note that a finished table was opened; beyond :data:`FINISHED_KEPT` of them, the
        least recently opened one nobody watches is unloaded (issue 36, item 5: 200
        finished games opened one after another would otherwise all stay in memory, and
        every full collection of the garbage collector would walk them all)."""
        kept = self._finished
        kept[table.table_id] = None
        kept.move_to_end(table.table_id)
        for old in list(kept)[:max(0, len(kept) - FINISHED_KEPT)]:
            loaded = self.tables.get(old)
            if loaded is None or not loaded.finished:
                del kept[old]
            elif not loaded.watchers and not loaded.lock.locked():
                del kept[old]
                self.unload(loaded)

    def maybe_unload(self, table: TableCore) -> None:
        """Forget a finished table nobody watches (it is reloaded on demand)."""
        live = self.tables.get(table.table_id)
        if table.finished and not table.watchers and live is table:
            self.unload(live)

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
            # Who the link is is decided again after the write: a stranger may have taken
            # the seat from the lobby meanwhile, and its old link then opens nothing
            # (issue 36, item 8).
            seat = table.seats[matches[0]]
            if not secret_matches(secret, seat.token_hash):
                raise TableError("unauthorized", "this link is not valid (or its seat was"
                                 " taken over)", 401)
            return table, Access.seat_owner(seat.seat, seat.token_hash or "")
        if secret_matches(secret, table.spectator_hash):
            table.touch()
            return table, Access.spectator()
        if secret_matches(secret, table.host_hash):
            table.touch()
            return table, Access.host(table.host_hash or "")
        # A pass is found by the SHA-256 of the secret: equality of two digests tells an
        # attacker nothing about a secret he does not have.
        token_hash = hash_secret(secret)
        found = table.passes.get(token_hash)
        if found is not None and found.kind in INVITATIONS:
            table.touch()
            return table, Access.invited(found.seat, token_hash)
        if found is not None and found.kind == RETIRED:
            raise TableError("seat_left", "you gave up your seat at this table: this link"
                             " opens nothing here any more", 401)
        raise TableError("unauthorized", "this link is not valid (or its seat was taken over)",
                         401)


def unplayable() -> TableError:
    """The answer about a stored table whose moves the installed rules do not replay, or
    that was played under another version of them (:func:`check_rules_version`): kept as
    stored, never changed."""
    return TableError("table_unplayable", "this table's moves do not replay under this "
                      "server's rules (it was played under another version of them); it is "
                      "kept as it was", 409)


def check_rules_version(record: TableRecord) -> None:
    """A :class:`~pendragon.core.errors.PendragonError` if ``record``'s table was played under
    another version of its game's rules than the installed one (its moves may still be legal
    and make another game); a table stored before tables named it passes (replayed as it
    stands), and so does a game no longer installed (its replay says so)."""
    if record.rules_version is None:
        return
    try:
        other = other_rules(registry.game_class(record.game), record.rules_version)
    except PendragonError:
        return
    if other is not None:
        raise PendragonError(other)


def replay_record(record: TableRecord) -> tuple[State, list[int],
                                                list[tuple[LogEvents, ...]]]:
    """A stored table's game replayed (:func:`~pendragon.web.narration.replay_game`), in
    the loader thread."""
    return replay_game(record.game, record.seed, dict(record.options), record.actions)
