"""A table in memory, the part every concern shares: :class:`TableCore`.

It holds one game's state and everything the table knows (seats, passes, announcements,
the log, the chat, who watches), says what it is (facts: finished, bots only, idle, the
bots' pace), and tells the pages: the welcome, the ``state`` message of each viewer, the
seats, the chat. What leaves for a watcher is only ``observation(seat)``
(``observation(None)`` for spectators), the seat's legal actions with their text forms and
label events when it is to act, the decision under way (``decision_event()``, public), and
the log (:mod:`pendragon.web.narration`). The raw state, the seed and other seats' views
never leave.

The table's concerns build on it, each in its module: moves and announcements
(:mod:`~pendragon.web.moves`), the turn timer, the bot loop, seats, the lobby, the rematch
and the chat; :class:`pendragon.web.tables.LiveTable` is all of them.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pendragon.bots import table_bots
from pendragon.bots.base import Bot
from pendragon.core.api import Game, State
from pendragon.web.access import BOT, HUMAN, INVITED_ROLE, Access, SeatState
from pendragon.web.adapters import GameAdapter, adapter_for
from pendragon.web.errors import TableError
from pendragon.web.narration import (
    LogEvents,
    log_lines,
    narrate,
    replay_position,
    replay_steps,
)
from pendragon.web.settings import BOT_PACES, CHAT_KEPT, HINTS_EVENTS, PACE_EVENTS
from pendragon.web.storage import ChatRecord, NoticeRecord, PassRecord, TableRecord
from pendragon.web.watchers import Held, Watcher, dumps

if TYPE_CHECKING:
    from pendragon.web.manager import TableManager


class TableCore:
    """One table's state and what it tells the pages. Create through
    :class:`~pendragon.web.manager.TableManager` (as a :class:`~pendragon.web.tables.LiveTable`)."""

    #: Start the bot task or the turn timer when one is due (:mod:`pendragon.web.bot_loop`).
    schedule_bot: Callable[[], None]
    #: The turn timer in a state message (:mod:`pendragon.web.turn_timer`).
    timer_view: Callable[[], dict[str, Any] | None]

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
        #: The coach's hint for the decision under way: ((version, seat), its task), made
        #: once per decision however often it is asked (:mod:`pendragon.web.hints`).
        self.hint_job: tuple[tuple[int, int], asyncio.Task[dict[str, Any]]] | None = None

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

    @property
    def hints_allowed(self) -> bool:
        """Whether a seated player may ask the coach for a hint (issue 31, item 2): the
        host's last announcement of it (stored, so it survives a restart and reaches every
        process); off at a table where he never allowed them."""
        for notice in reversed(self.notices):
            if notice.event.get("k") in HINTS_EVENTS:
                return bool(notice.event.get("k") == HINTS_EVENTS[0])
        return False

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
            "hints": self.hints_allowed,
        }

    # ------------------------------------------------------------------ log
    def replay_into(self, state: State, actions: Iterable[int]) -> None:
        """Apply stored ``actions`` to ``state`` (this table's), recording narration."""
        for action in actions:
            actor, lines = narrate(state, action)
            state.apply_recorded(action)
            self.actors.append(actor)
            self.lines.append(lines)

    def log_for(self, viewer: int | None, start: int = 0) -> list[dict[str, Any]]:
        """``viewer``'s log lines from action index ``start`` on:
        ``{"i": index, "s": actor or None, "events": [event JSON, ...]}``."""
        return log_lines(self.actors, self.lines, viewer, start)

    def replay_steps(self) -> list[dict[str, Any]]:
        """Every action of a finished game, narrated with every secret revealed."""
        return replay_steps(self.actors, self.lines)

    def replay_position(self, version: int) -> dict[str, Any]:
        """Every seat's observation (and the spectators') after ``version`` actions."""
        return replay_position(self.game, self.state.history(), version)

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
            "hints": self.hints_allowed,
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
        text = dumps(message)
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
                text = dumps(self.state_message(watcher.viewer, watcher.log_sent,
                                                 observations[watcher.viewer],
                                                 watcher.notices_sent))
                cache[key] = text
            watcher.log_sent = end
            watcher.notices_sent = told
            watcher.put(text, submitted)
        if self.manager.metrics is not None:
            self.manager.metrics.pushes += len(self.watchers)

    # ------------------------------------------------------------------ watchers
    def attach(self, watcher: Watcher, held: Held | None = None) -> None:
        """Start sending to ``watcher``: welcome, seats, state and recent chat. A page
        that says what it ``held`` from an earlier connection gets only what came after
        (the welcome's ``resumed``); one holding more than the table has (another
        table's, or a log the server no longer has) gets everything again."""
        self.watchers.add(watcher)
        if watcher.viewer is not None:
            seat = self.seats[watcher.viewer]
            seat.connections += 1
            # His coming back cancels the notice his absence had set (none is then due).
            self._schedule_away_notice()
        held = self.honoured(held)
        watcher.put(dumps({"type": "welcome", "resumed": held is not None,
                            "table": self.info(watcher.viewer, watcher.access)}))
        state, chat = self.since(watcher.viewer, held)
        watcher.put(dumps(state))
        watcher.log_sent = len(self.lines)
        watcher.notices_sent = len(self.notices)
        watcher.put(dumps(chat))
        self.push_seats()
        self.touch()

    def honoured(self, held: Held | None) -> Held | None:
        """``held`` if this table has at least what it says a client holds; else ``None``
        (another table's log, or one the server no longer has): everything again."""
        if held is not None and (held.log > len(self.lines) or held.notices > len(self.notices)):
            return None
        return held

    def since(self, viewer: int | None,
              held: Held | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """``viewer``'s state and chat messages for a client holding ``held`` (honoured:
        :meth:`honoured`): only the log lines, announcements and chat lines after it, or
        all of them for ``None``."""
        log_start, notice_start, chat_after = (
            (held.log, held.notices, held.chat) if held is not None else (0, 0, None))
        chat = [c for c in self.chat if chat_after is None or c.id > chat_after]
        return self.state_message(viewer, log_start, None, notice_start), self.chat_message(chat)

    def holding(self) -> Held:
        """What a client given everything so far holds: the ``held`` to send next time."""
        return Held(len(self.lines), len(self.notices), self.chat[-1].id if self.chat else None)

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
        """Tell the others when the next gone player becomes "away" (they may then hand
        his seat to a bot): the soonest of every absent person's seat, a seat whose person
        never arrived included (issue 39, item 2: after "Start the game now" his seat
        becomes away with nobody leaving)."""
        loop = asyncio.get_running_loop()
        if self._away_timer is not None:
            self._away_timer.cancel()
            self._away_timer = None
        now = time.monotonic()
        after = self.manager.settings.away_after
        pending = [s.left_at + after - now for s in self.seats
                   if s.controller == HUMAN and s.connections == 0
                   and not self.seat_is_away(s, now)]
        if not pending:
            return

        def tell() -> None:
            self._away_timer = None
            self.push_seats()
            self._schedule_away_notice()

        self._away_timer = loop.call_later(max(0.0, min(pending)) + 0.05, tell)

    def seats_not_arrived(self) -> list[int]:
        """Seats kept for a person who has not yet opened his link (a bot's seat, free or
        keeping one warm, needs nobody)."""
        return [s.seat for s in self.seats if s.controller == HUMAN and s.seat not in self.opened]

    def _seat(self, seat: object) -> SeatState:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise TableError("unknown_seat", "there is no such seat at this table", 404)
        return self.seats[seat]
