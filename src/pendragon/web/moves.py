"""How a table changes: moves, announcements, and what other server processes wrote.

A move is checked against the rules on a copy of the state, the chance events that follow
are resolved with the state's own seeded stream, the whole sequence is written to the action
log, and only then does the copy become the table's state and every watcher receive its new
view: a move is acknowledged only once it is stored. Seats changing hands and the table's
announcements go the same way (:meth:`TableMoves._change_hands`: written, then applied).
Another process's writes reach this one through :meth:`TableMoves.catch_up`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pendragon.core.api import CHANCE, State
from pendragon.core.errors import MalformedActionError, PendragonError
from pendragon.core.events import Event
from pendragon.web.access import BOT, SEAT_ROLE, SeatState
from pendragon.web.errors import TableError
from pendragon.web.narration import LogEvents, narrate, with_timeout_note
from pendragon.web.settings import CHAT_KEPT
from pendragon.web.storage import (
    AppendActions,
    ChangeHands,
    NoticeRecord,
    PassRecord,
    SeatRecord,
    StaleLogError,
    TimedOutMove,
)
from pendragon.web.table_core import TableCore
from pendragon.web.watchers import dumps


@dataclass
class Played:
    """An action and the chance events after it, applied to a copy of the table's state:
    the copy, the actions, their actors and narration, ready to be stored."""

    state: State
    actions: list[int] = field(default_factory=list)
    actors: list[int] = field(default_factory=list)
    lines: list[tuple[LogEvents, ...]] = field(default_factory=list)

    def apply(self, action: int) -> None:
        """Narrate ``action`` for every viewer, then apply it to the copy."""
        actor, narration = narrate(self.state, action)
        self.state.apply_recorded(action)
        self.actions.append(action)
        self.actors.append(actor)
        self.lines.append(narration)


class TableMoves(TableCore):
    """Moves and announcements of a table, and catching up with other processes."""

    def parse_action(self, action: object) -> int:
        """An action id from a page's ``action`` (an id or a text form)."""
        if isinstance(action, bool):
            raise TableError("malformed_action", "an action is an id or a text form", 400)
        if isinstance(action, int):
            return action
        if isinstance(action, str) and len(action) <= 64:
            try:
                return self.state.string_to_action(action)
            except MalformedActionError:  # its message quotes the text: never echoed
                raise TableError("malformed_action", "this text names no action of this game",
                                 400) from None
        raise TableError("malformed_action", "an action is an id or a text form", 400)

    def refuse_if_over(self) -> None:
        """Refuse any change once the game is over (``game_over``)."""
        if self.finished:
            raise TableError("game_over", "the game is over")

    def _play(self, action: int, refused: Callable[[PendragonError], TableError]) -> Played:
        """``action`` and the chance events that follow, on a copy of the table's state;
        the rules' refusal of ``action`` becomes ``refused(error)``, with nothing changed."""
        played = Played(self.state.clone())
        try:
            played.apply(action)
        except PendragonError as error:
            raise refused(error) from None
        while played.state.current_player() == CHANCE:
            played.apply(played.state.sample_chance())
        return played

    def _append(self, played: Played) -> AppendActions:
        """The write that stores ``played`` after the table's current version."""
        return AppendActions(self.table_id, self.state.version, played.actions, played.actors,
                             played.state.is_terminal())

    def _adopt(self, played: Played) -> None:
        """Make ``played`` (stored) the table's state and log."""
        self.state = played.state
        self.drop_stale_hint()
        self.actors.extend(played.actors)
        self.lines.extend(played.lines)

    def drop_stale_hint(self) -> None:
        """Cancel the hint search of a decision that has passed (the table moved on): a
        queued search never starts (issue 36, item 1)."""
        job = self.hint_job
        if job is not None and job[0][0] != self.state.version:
            job[1].cancel()
            self.hint_job = None

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
        version = checked_version(version, "acted on")
        action_id = self.parse_action(action)
        async with self.lock:
            state = self.state
            self.refuse_if_over()
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
            played = self._play(action_id, _refused_move)
            append = self._append(played)
            try:
                if timed_out:
                    played.lines[0] = with_timeout_note(played.lines[0], seat)
                    await self.manager.store.write(TimedOutMove(append, seat))
                else:
                    await self.manager.store.append(append)
            except StaleLogError:
                # Another server process moved this table on: catch up, refuse the move.
                await self._catch_up_locked()
                raise TableError(
                    "stale_version", "the table has moved on; your view has been refreshed"
                ) from None
            self._adopt(played)
            self.last_move = time.monotonic()
            metrics = self.manager.metrics
            if metrics is not None:
                metrics.moves += 1
                metrics.actions += len(played.actions)
            self.push_state(submitted if metrics is not None else None)
        if self.finished:
            self.manager.maybe_unload(self)
        else:
            self.schedule_bot()
        return played.state.version

    # ------------------------------------------------------------------ announcements
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

    def _send_away(self, seat: int, message: str) -> None:
        """Close the pages watching as ``seat``, telling them ``message`` (``seat_left``)."""
        for watcher in list(self.watchers):
            if watcher.viewer == seat:
                watcher.put(dumps({"type": "error", "code": "seat_left", "message": message}))
                self.detach(watcher)

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
            self.drop_stale_hint()
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
                    watcher.put(dumps({"type": "error", "code": "seat_left",
                                       "message": "this link no longer holds its seat"}))
                    self.detach(watcher)
            self.push_seats()
        if changed or seats_changed or lobby_changed:
            self.push_state()
        loop = asyncio.get_running_loop()
        loop.call_soon(self.schedule_bot)

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


#: No table ever reaches this many actions; a version beyond it is refused as malformed
#: rather than compared (and echoed back) as a merely stale one.
MAX_VERSION = 1 << 31


def checked_version(version: object, doing: str) -> int:
    """``version`` as sent by a client, if it can be a table's version at all: an int (not
    a bool) from 0 to :data:`MAX_VERSION`; otherwise a ``bad_request`` that does not echo
    it (``doing``: what the client did on it, for the message).

    >>> checked_version(12, "acted on")
    12
    >>> checked_version(10**400, "acted on")
    Traceback (most recent call last):
    ...
    pendragon.web.errors.TableError: version must be the state version you acted on
    """
    if isinstance(version, bool) or not isinstance(version, int) \
            or not 0 <= version <= MAX_VERSION:
        raise TableError("bad_request", f"version must be the state version you {doing}", 400)
    return version


#: The words of the rules' refusals of a move, by code (issue 36, item 8: the rules' own
#: message may quote what the client sent, such as an action id of 4,000 digits).
_REFUSALS = {
    "malformed_action": "this is not an action of this game",
    "illegal_action": "this move is not legal now",
}


def _refused_move(error: PendragonError) -> TableError:
    """The rules' refusal of a move, as the table's error (400 for a malformed one), in
    fixed words: nothing the client sent is echoed."""
    code = error.code.value
    return TableError(code, _REFUSALS.get(code, "the rules refuse this move"),
                      400 if code == "malformed_action" else 409)
