"""Who sits where and who a token is: the seats' controllers (:data:`HUMAN`, :data:`BOT`),
a seat in memory (:class:`SeatState`), a token's role at its table (:class:`Access`) and the
kinds of pass (invitations, retired links)."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from pendragon.bots.base import Bot
from pendragon.web.storage import SeatRecord

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
#: The kinds of pass that invite someone in.
INVITATIONS = frozenset({SEAT_INVITE, JOIN_INVITE})


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

    @classmethod
    def seat_owner(cls, seat: int, token_hash: str) -> Access:
        """The owner of ``seat``."""
        return cls(SEAT_ROLE, seat, token_hash)

    @classmethod
    def spectator(cls) -> Access:
        """A spectator."""
        return cls(SPECTATOR_ROLE)

    @classmethod
    def host(cls, token_hash: str) -> Access:
        """The table's host."""
        return cls(HOST_ROLE, None, token_hash)

    @classmethod
    def invited(cls, seat: int | None, token_hash: str) -> Access:
        """The holder of an invitation (to ``seat``, or to join if ``None``)."""
        return cls(INVITED_ROLE, seat, token_hash)

    @property
    def viewer(self) -> int | None:
        """The seat whose view this token gets (``None``: the spectators')."""
        return self.seat if self.role == SEAT_ROLE else None
