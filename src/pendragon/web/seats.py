"""Seats that change hands (docs/web.md, "Seats that change hands"; issue 17, items 1-3).

A seat belongs to the token that took it until that token gives it up; a bot keeps an
owned seat warm for its owner only; a seat no person owns is taken only with the host's
consent (his link, or an invitation he issued for it); a token never changes seats, and a
caller that holds (or held) a seat here takes no other one. Every change is stored with
its announcement before it is applied (:meth:`~pendragon.web.moves.TableMoves._change_hands`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence

from pendragon.core.errors import PendragonError
from pendragon.core.events import Event, Seat, Term
from pendragon.web.access import (
    BOT,
    HOST_ROLE,
    HUMAN,
    INVITED_ROLE,
    JOIN_INVITE,
    RETIRED,
    SEAT_INVITE,
    SEAT_ROLE,
    SPECTATOR_ROLE,
    Access,
    SeatState,
)
from pendragon.web.bot_loop import BotLoop, bot_name
from pendragon.web.errors import TableError
from pendragon.web.security import (
    MAX_NAME,
    InputError,
    clean_text,
    hash_secret,
    new_token,
    parse_token,
)
from pendragon.web.storage import (
    AddSeat,
    ChangeHands,
    NoticeRecord,
    PassRecord,
    SeatRecord,
    StaleLogError,
)


class Seats(BotLoop):
    """Who sits where: handing seats to bots and back, invitations, taking and joining."""

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

    def _check_bots_alone_cap(self, handed: int, client: str | None) -> None:
        """Refuse (``bot_table_limit``) a hand-over of seat ``handed`` that would make this
        a table of bots alone beyond the cap: the cap counts tables by who plays now, so
        it is counted again at every hand-over (issue 36, item 6)."""
        if any(s.controller != BOT for s in self.seats if s.seat != handed):
            return
        if self.client is None:
            self.client = client  # a table loaded from the database: its hander's share
        self.manager.check_bot_table_cap(self.client, exclude=self.table_id)

    async def seat_to_bot(self, requester: int | None, seat: object, bot_choice: object,
                          client: str | None = None) -> None:
        """Let a bot keep ``seat`` warm for its owner (its own player, or another player
        once the owner is away). The seat stays its owner's: only his link takes it back.
        Before the game begins, only a seat's own player hands it over (the host starts
        the game without someone who has not arrived; issue 36, item 8). ``client``: who
        asks (for the cap on tables of bots alone)."""
        if requester is None:
            raise TableError("forbidden", "only players at the table may do this", 403)
        bot = bot_name(bot_choice, self.game_name)
        async with self.lock:
            self.refuse_if_over()
            target = self._seat(seat)
            if target.controller != HUMAN:
                raise TableError("seat_taken", "a bot already plays this seat")
            if requester != target.seat and not self.started:
                raise TableError("not_started", "before the game begins only a seat's own"
                                 " player hands it to a bot (the host may start the game)")
            if requester != seat and not self.seat_is_away(target):
                raise TableError(
                    "player_present",
                    "this seat's player is still here (or left less than"
                    f" {self.manager.settings.away_after:g} seconds ago)",
                )
            self._check_bots_alone_cap(target.seat, client)
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
            self.refuse_if_over()
            record = SeatRecord(target.seat, target.name, HUMAN, None, target.token_hash)
            await self._change_hands([record], Event("table.event.reclaim",
                                                     {"seat": Seat(target.seat)}))
            self.push_seats()
            self.push_state()

    async def leave(self, seat: int, bot_choice: object, client: str | None = None) -> None:
        """The seat's owner gives it up: a bot plays it for nobody from now on, the host may
        seat someone else there, and the owner's link opens nothing at this table again
        (it is kept as retired, so it can never take another seat)."""
        bot = bot_name(bot_choice, self.game_name)
        async with self.lock:
            self.refuse_if_over()
            target = self._seat(seat)
            if target.token_hash is None:  # pragma: no cover - a seat token found this seat
                raise TableError("forbidden", "nobody owns this seat", 403)
            if target.controller == HUMAN:
                self._check_bots_alone_cap(target.seat, client)
            retired = PassRecord(target.token_hash, RETIRED, target.seat)
            record = SeatRecord(target.seat, "", BOT, bot, None)
            await self._change_hands(
                [record], Event("table.event.leave",
                                {"seat": Seat(target.seat), "bot": Term(f"bot.{bot}")}),
                add=[retired],
            )
            self._send_away(target.seat, "you gave up this seat")
            self.push_seats()
            self.push_state()
        self.schedule_bot()

    async def invite_to_seat(self, access: Access, seat: object) -> str:
        """The host's invitation to take ``seat`` (a seat no person owns); returns its
        token. It works once, and replaces an earlier invitation to the same seat."""
        if access.role != HOST_ROLE:
            raise TableError("forbidden", "only the table's host may invite players", 403)
        async with self.lock:
            self.refuse_if_over()
            target = self._seat(seat)
            if target.token_hash is not None:
                raise TableError("seat_owned", "this seat belongs to its player")
            token, token_hash = new_pass(self.table_id)
            invite = PassRecord(token_hash, SEAT_INVITE, target.seat)
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
            self.refuse_if_over()
            if not self.join_mid_game:
                raise TableError("join_off", "joining mid-game is off at this table")
            token, token_hash = new_pass(self.table_id)
            invite = PassRecord(token_hash, JOIN_INVITE, None)
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
            self.refuse_if_over()
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
                token, token_hash = new_pass(self.table_id)
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
            seat = state.seat_count()
            played = self._play(action, _refused_join)
            if access.role == INVITED_ROLE:
                token_hash = access.token_hash
                drop: tuple[str, ...] = (token_hash,)
            else:
                token, token_hash = new_pass(self.table_id)
                drop = ()
            record = SeatRecord(seat, clean, HUMAN, None, token_hash)
            at = time.time()
            notice = Event("table.event.joined", {"seat": Seat(seat)}).to_json()
            change = ChangeHands(self.table_id, (), (), drop, notice, played.state.version, at)
            try:
                notice_id = await self.manager.store.write(
                    AddSeat(self._append(played), record, change))
            except StaleLogError:
                await self._catch_up_locked()
                raise TableError("stale_version", "the table has moved on; try again") from None
            self._adopt(played)
            self.seats.append(SeatState(seat, clean, HUMAN, None, record.token_hash))
            self._apply_passes((), drop)
            self.notices.append(NoticeRecord(int(notice_id), played.state.version, notice, at))
            self.push_seats()
            self.push_state()
        self.schedule_bot()
        return seat, token

    async def rename(self, seat: int, name: object) -> None:
        """A player changes the name shown for his seat."""
        clean = clean_text(name, MAX_NAME)
        async with self.lock:
            target = self._seat(seat)
            record = dataclasses.replace(target.record(), name=clean)
            await self.manager.store.put_seat(self.table_id, record)
            target.name = clean  # only once stored
            self.push_seats()


def new_pass(table_id: str) -> tuple[str, str]:
    """A new token of table ``table_id`` and its stored form (its secret's hash)."""
    token = new_token(table_id)
    return token, hash_secret(parse_token(token)[1])


def _refused_join(error: PendragonError) -> TableError:
    """The rules' refusal of a join operation, as the table's error."""
    return TableError("cannot_join", error.message)
