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
and submits it like any player, with the version it saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson

import pendragon
from pendragon.bots import bot_names, make_bot
from pendragon.bots.base import Bot
from pendragon.core.api import CHANCE, Game, State
from pendragon.core.errors import MalformedActionError, PendragonError
from pendragon.runner import bot_seed
from pendragon.web.adapters import GameAdapter, adapter_for
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
    AppendActions,
    ChatRecord,
    SeatRecord,
    StaleLogError,
    TableRecord,
)
from pendragon.web.store import AsyncStore

log = logging.getLogger("pendragon.web")

HUMAN = "human"
BOT = "bot"
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
    #: Threads that run bot moves (0: run them on the event loop, for very fast bots).
    bot_threads: int = 2
    #: Record the time from each move's submission to each push (``/api/metrics``).
    metrics: bool = False
    #: Where new tables' seeds come from (tests may fix it; pages never see it).
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(63))


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


class Watcher:
    """One open page (WebSocket) watching a table as a seat or a spectator.

    Messages are queued as text and sent by the connection's own task, so a slow page
    never holds up the table. Each queued message may carry the time its move was
    submitted, for the latency figures.
    """

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self.queue: asyncio.Queue[tuple[str, float | None]] = asyncio.Queue()
        self.log_sent = 0
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
        self.lock = asyncio.Lock()
        #: Per applied action: its actor (-1: chance or a table operation) and the events
        #: of each viewer (seats 0..n-1, then the spectators'); equal lists share one object.
        self.actors: list[int] = []
        self.lines: list[tuple[LogEvents, ...]] = []
        self.chat: deque[ChatRecord] = deque(maxlen=CHAT_KEPT)
        self.watchers: set[Watcher] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self._away_timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------------ facts
    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.seats)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

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
                "free": s.controller == BOT,
            }
            for s in self.seats
        ]

    def info(self, viewer: int | None) -> dict[str, Any]:
        """The welcome message's table description for ``viewer``."""
        return {
            "id": self.table_id,
            "game": self.game_name,
            "options": self.public_options(),
            "players": self.players,
            "seats": self.seats_view(),
            "role": "spectator" if viewer is None else "seat",
            "seat": viewer,
            "bots": bot_names(),
            "away_after": self.manager.settings.away_after,
            "can_join_new_seat": self.adapter.can_add_seat(self.state),
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

    def state_message(
        self, viewer: int | None, log_start: int, observation: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``state`` message for ``viewer``: its view, its moves, what the table awaits,
        its new log lines. ``observation``: ``viewer``'s, if already computed."""
        player = self.state.current_player()
        message: dict[str, Any] = {
            "type": "state",
            "version": self.state.version,
            "observation": (
                self.state.observation(viewer) if observation is None else observation
            ),
            "legal": self.legal_for(viewer),
            "decision": self.state.decision_event().to_json(),
            "log": self.log_for(viewer, log_start),
            "finished": self.finished,
            "to_act": player if player >= 0 else None,
            "to_act_controller": self.seats[player].controller if player >= 0 else None,
            "chat_open": self.adapter.chat_open(self.state),
            "can_join": viewer is None and self.adapter.can_add_seat(self.state),
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
        cache: dict[tuple[int | None, int], str] = {}
        end = len(self.lines)
        for watcher in watchers:
            key = (watcher.viewer, watcher.log_sent)
            text = cache.get(key)
            if text is None:
                text = _dumps(self.state_message(watcher.viewer, watcher.log_sent,
                                                 observations[watcher.viewer]))
                cache[key] = text
            watcher.log_sent = end
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
        watcher.put(_dumps({"type": "welcome", "table": self.info(watcher.viewer)}))
        watcher.put(_dumps(self.state_message(watcher.viewer, 0)))
        watcher.log_sent = len(self.lines)
        watcher.put(_dumps(self.chat_message(list(self.chat))))
        self.push_seats()

    def detach(self, watcher: Watcher) -> None:
        """Stop sending to ``watcher``."""
        if watcher not in self.watchers:
            return
        self.watchers.discard(watcher)
        watcher.close()
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
    ) -> int:
        """Apply ``seat``'s ``action`` if ``version`` is current; returns the new version.

        Raises :class:`TableError` (``stale_version``, ``not_your_turn``, ``game_over``,
        ``malformed_action``, ``illegal_action``, ``bot_seat``) and changes nothing then.
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
            try:
                await self.manager.store.append(
                    AppendActions(self.table_id, state.version, actions, actors,
                                  new_state.is_terminal())
                )
            except StaleLogError:
                # Another server process moved this table on: catch up, refuse the move.
                await self._catch_up_locked()
                raise TableError(
                    "stale_version", "the table has moved on; your view has been refreshed"
                ) from None
            self.state = new_state
            self.actors.extend(actors)
            self.lines.extend(lines)
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
        """Start the bot task if a bot is to act and none is running."""
        if self.finished or (self.bot_task is not None and not self.bot_task.done()):
            return
        player = self.state.current_player()
        if player < 0 or self.seats[player].controller != BOT:
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    def _bot_for(self, seat: SeatState) -> Bot:
        if seat.bot_player is None:
            seat.bot_player = make_bot(seat.bot or "random", bot_seed(self.seed, seat.seat))
        return seat.bot_player

    async def _bot_loop(self) -> None:
        settings = self.manager.settings
        while not self.finished and not self.manager.closing:
            player = self.state.current_player()
            if player < 0 or self.seats[player].controller != BOT:
                return
            if settings.bot_delay > 0:
                await asyncio.sleep(settings.bot_delay)
                if self.state.current_player() != player or self.seats[player].controller != BOT:
                    continue
            # A table never changes a state object in place (a move is applied to a copy
            # that then replaces it), so the bot may read this one while the table moves on.
            snapshot = self.state
            bot = self._bot_for(self.seats[player])
            try:
                seat = self.seats[player]
                action, took = await self.manager.run_bot(
                    bot, snapshot, inline=seat.bot_fast_steps >= FAST_BOT_RUN
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
    async def seat_to_bot(self, requester: int | None, seat: object, bot: object) -> None:
        """Let a bot play ``seat`` (its own player, or another player once it is away)."""
        if requester is None:
            raise TableError("forbidden", "only players at the table may do this", 403)
        if not isinstance(bot, str) or bot not in bot_names():
            raise TableError("bad_request", f"unknown bot; known bots: {', '.join(bot_names())}",
                             400)
        async with self.lock:
            target = self._seat(seat)
            if target.controller != HUMAN:
                raise TableError("seat_taken", "a bot already plays this seat")
            if requester != seat and not self.seat_is_away(target):
                raise TableError(
                    "player_present",
                    "this seat's player is still here (or left less than"
                    f" {self.manager.settings.away_after:g} seconds ago)",
                )
            target.controller, target.bot, target.bot_player = BOT, bot, None
            await self.manager.store.put_seat(self.table_id, target.record())
            self.push_seats()
            self.push_state()
        self.schedule_bot()

    async def reclaim(self, seat: int) -> None:
        """The seat's own player takes it back from the bot playing it."""
        async with self.lock:
            target = self._seat(seat)
            if target.controller != BOT:
                raise TableError("not_a_bot_seat", "you already play this seat")
            target.controller, target.bot, target.bot_player = HUMAN, None, None
            await self.manager.store.put_seat(self.table_id, target.record())
            self.push_seats()
            self.push_state()

    async def take_seat(self, seat: int, name: object) -> str:
        """A newcomer (a spectator) takes over a seat a bot plays; returns its new token.

        The seat's previous link, if any, stops working.
        """
        clean = clean_text(name, MAX_NAME) if name is not None else ""
        async with self.lock:
            if self.finished:
                raise TableError("game_over", "the game is over")
            target = self._seat(seat)
            if target.controller != BOT:
                raise TableError("seat_taken", "a player already sits there")
            token = new_token(self.table_id)
            secret = parse_token(token)[1]
            target.controller, target.bot, target.bot_player = HUMAN, None, None
            target.token_hash = hash_secret(secret)
            target.name = clean or target.name
            target.left_at = time.monotonic()
            await self.manager.store.put_seat(self.table_id, target.record())
            # Pages still open with the old link lose the seat.
            for watcher in list(self.watchers):
                if watcher.viewer == seat:
                    watcher.put(_dumps({"type": "error", "code": "seat_lost",
                                        "message": "another player has taken this seat"}))
                    self.detach(watcher)
            self.push_seats()
            self.push_state()
        return token

    async def join_new_seat(self, name: object) -> tuple[int, str]:
        """A newcomer joins with a seat of his own, by the rules' join operation.

        Only where the game allows it now (``adapter.can_add_seat``: Shadows over Camelot's
        VAR-JOIN). The join is an action of the log like any other, so a replay or a
        restart seats the newcomer again. Returns the new seat and its token.
        """
        clean = clean_text(name, MAX_NAME) if name is not None else ""
        async with self.lock:
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
            token = new_token(self.table_id)
            record = SeatRecord(seat, clean, HUMAN, None, hash_secret(parse_token(token)[1]))
            try:
                await self.manager.store.join(
                    AppendActions(self.table_id, state.version, actions, actors,
                                  new_state.is_terminal()),
                    record,
                )
            except StaleLogError:
                await self._catch_up_locked()
                raise TableError("stale_version", "the table has moved on; try again") from None
            self.state = new_state
            self.actors.extend(actors)
            self.lines.extend(lines)
            self.seats.append(SeatState(seat, clean, HUMAN, None, record.token_hash))
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
        seats = await store.load_seats(self.table_id)
        seats_changed = False
        for record in seats:
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
        if seats_changed:
            self.push_seats()
        if changed or seats_changed:
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
        self._bot_pool = (
            ThreadPoolExecutor(self.settings.bot_threads, thread_name_prefix="pendragon-bot")
            if self.settings.bot_threads > 0
            else None
        )
        self.closing = False
        self._listener: threading.Thread | None = None
        self._stop_listener = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Resume every unfinished table (bots play on) and listen to other processes."""
        self._loop = asyncio.get_running_loop()
        for table_id in await self.store.unfinished_table_ids():
            table = await self.get(table_id)
            if table is not None:
                table.schedule_bot()
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
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in self.tables.values():
            for watcher in list(table.watchers):
                watcher.close()
        if self._bot_pool is not None:
            self._bot_pool.shutdown(wait=True, cancel_futures=True)
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

    async def run_bot(self, bot: Bot, state: State, inline: bool = False) -> tuple[int, float]:
        """``bot.step(state)`` and the seconds it took: in the bot thread pool, or on the
        event loop when ``inline`` (a bot known to answer at once) or there is no pool."""
        if inline or self._bot_pool is None:
            return _timed_step(bot, state)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._bot_pool, _timed_step, bot, state)

    # ------------------------------------------------------------------ tables
    async def create(
        self, game_name: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]
    ) -> tuple[LiveTable, list[str | None], str]:
        """Create a table; returns it, one token per seat (``None`` for bots) and the
        spectators' token. ``seats`` items: ``{"kind": "human"|"bot", "name", "bot"}``."""
        try:
            cls = pendragon.game_class(game_name)
        except PendragonError as error:
            raise TableError(error.code.value, error.message, 400) from None
        given = dict(options)
        for reserved in ("seed", "players"):
            if reserved in given:
                raise TableError(
                    "invalid_option",
                    f"option {reserved!r} is set by the server"
                    + (" (from the number of seats)" if reserved == "players" else ""),
                    400,
                )
        names = {spec.name for spec in cls.option_specs}
        if "players" in names:
            given["players"] = len(seats)
        seed = self.settings.seed_source()
        try:
            game = pendragon.load_game(game_name, seed=seed, **given)
        except PendragonError as error:
            raise TableError(error.code.value, error.message, 400) from None
        if game.num_players() != len(seats):
            raise TableError("bad_request", f"this game needs {game.num_players()} seats", 400)
        table_id = new_table_id()
        tokens: list[str | None] = []
        seat_records = []
        for index, spec in enumerate(seats):
            kind = spec.get("kind")
            try:
                name = clean_text(spec.get("name") or "", MAX_NAME)
            except InputError as error:
                raise TableError("bad_request", f"seat {index}: {error}", 400) from None
            if kind == HUMAN:
                token = new_token(table_id)
                tokens.append(token)
                seat_records.append(
                    SeatRecord(index, name, HUMAN, None, hash_secret(parse_token(token)[1]))
                )
            elif kind == BOT:
                bot = spec.get("bot") or "random"
                if bot not in bot_names():
                    raise TableError(
                        "bad_request",
                        f"seat {index}: unknown bot {bot!r}; known bots: {', '.join(bot_names())}",
                        400,
                    )
                tokens.append(None)
                seat_records.append(SeatRecord(index, name, BOT, str(bot), None))
            else:
                raise TableError("bad_request", f"seat {index}: kind must be 'human' or 'bot'",
                                 400)
        spectator = new_token(table_id)
        stored_options = {k: v for k, v in game.options.items() if k != "seed"}
        record = TableRecord(
            table_id=table_id,
            game=game_name,
            options=stored_options,
            seed=seed,
            created_at=time.time(),
            spectator_hash=hash_secret(parse_token(spectator)[1]),
            seats=tuple(seat_records),
            actions=(),
            finished=False,
        )
        state = game.new_initial_state()
        table = LiveTable(self, record, state)
        # The deal: chance events before anyone decides are part of the log too.
        setup: list[int] = []
        probe = state.clone()
        while probe.current_player() == CHANCE:
            action = probe.sample_chance()
            probe.apply_action(action)
            setup.append(action)
        table.replay_into(state, setup)
        await self.store.create_table(
            TableRecord(**{**_record_fields(record), "actions": tuple(setup),
                           "finished": state.is_terminal()})
        )
        self.tables[table_id] = table
        table.schedule_bot()
        return table, tokens, spectator

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
            table.chat.extend(await self.store.chat_since(table_id, 0, CHAT_KEPT))
            self.tables[table_id] = table
            self._loading.pop(table_id, None)
            return table

    def maybe_unload(self, table: LiveTable) -> None:
        """Forget a finished table nobody watches (it is reloaded on demand)."""
        if table.finished and not table.watchers and self.tables.get(table.table_id) is table:
            del self.tables[table.table_id]

    async def authenticate(self, token: object) -> tuple[LiveTable, int | None]:
        """The table and viewer (a seat, or ``None`` for a spectator) of ``token``."""
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
            return table, matches[0]
        if secret_matches(secret, table.spectator_hash):
            return table, None
        raise TableError("unauthorized", "this link is not valid (or its seat was taken over)",
                         401)


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
