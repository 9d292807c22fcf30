"""The lobby's open tables and the beginning of a game (issue 17, item 10; issue 27).

A listed table offers in the lobby the seats its host left open to anyone and whose link
nobody has opened; a stranger may take one (:meth:`Lobby.sit_from_lobby`). A game begins
once every person seated has arrived (opened his link) or when the host starts it; until
then no bot moves, no person may move and no turn timer runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import Sequence
from typing import Any

from pendragon.core.events import Event, Seat
from pendragon.web.access import BOT, HOST_ROLE, HUMAN, Access
from pendragon.web.errors import TableError
from pendragon.web.seats import Seats, new_pass
from pendragon.web.security import MAX_NAME, clean_text
from pendragon.web.storage import ClaimSeat, SeatClaimedError, StartTable, StorageError
from pendragon.web.store import AsyncStore

log = logging.getLogger("pendragon.web")

#: The lobby lists at most this many open tables (the newest).
LOBBY_LIMIT = 50


class Lobby(Seats):
    """A table's arrivals, its beginning, and the seats it offers in the lobby."""

    async def note_opened(self, seat: int) -> None:
        """``seat``'s link was used: from now on the lobby never offers it, and its person
        has arrived (the game begins once everyone seated has).

        The arrival is stored first and only then known in memory (issue 36, item 3): a
        write that fails leaves the seat not arrived, and the link's next opening tries
        again. Under the table's lock, so that a stranger taking the seat from the lobby
        and its first opening are one after the other."""
        if seat in self.opened:
            return
        async with self.lock:
            if seat in self.opened:
                return
            with contextlib.suppress(SeatClaimedError):  # stored already (another process,
                await self.manager.store.write(ClaimSeat(self.table_id, seat))  # the lobby)
            self.opened.add(seat)
            if not self.started and not self.seats_not_arrived():
                await self._begin()
            if not self.started:
                # Every page's "Waiting for: ..." drops him at once (issue 39, item 1).
                self.push_state()

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
        # A seat whose person never came may be away already, or become so: the others
        # are told, so they may give it to a bot (issue 39, item 2).
        self.push_seats()
        self._schedule_away_notice()

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
            self.refuse_if_over()
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
            token, token_hash = new_pass(self.table_id)
            record = dataclasses.replace(target.record(), name=clean or target.name,
                                         token_hash=token_hash)
            try:
                await self.manager.store.write(ClaimSeat(self.table_id, target.seat, record))
            except SeatClaimedError:
                self.opened.add(target.seat)
                raise TableError("seat_taken", "someone already sits there") from None
            self.opened.add(target.seat)
            target.token_hash, target.name = record.token_hash, record.name
            target.left_at = time.monotonic()
            # A page that opened an earlier link at this very moment loses the seat.
            for watcher in [w for w in self.watchers if w.viewer == target.seat]:
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
        if not self.started:
            # Every page's "Waiting for: ..." drops him at once (issue 39, item 1).
            self.push_state()
        return token


async def open_tables(store: AsyncStore) -> list[dict[str, Any]]:
    """The lobby's open tables: listed, not over, with a free seat; newest first.

    Read from the database, so every server process lists every table.
    """
    out: list[dict[str, Any]] = []
    for entry in await store.listed_tables(LOBBY_LIMIT * 2):
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
