"""What the JSON API accepts: the request bodies (strict pydantic models; an unknown field or
a wrong type is refused) and the ``Authorization: Bearer <token>`` header, with the helpers
every route of a table shares (the caller its token identifies, a seat's own link)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import Depends, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from pendragon.web.access import Access
from pendragon.web.errors import TableError
from pendragon.web.manager import TableManager
from pendragon.web.security import MAX_NAME
from pendragon.web.tables import LiveTable


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SeatSpec(_Body):
    """One seat of a new table."""

    kind: Literal["human", "bot"]
    name: str = Field(default="", max_length=4 * MAX_NAME)
    bot: str | None = Field(default=None, max_length=32)
    #: A person's seat the host leaves open to anyone: a listed table offers it in the
    #: lobby. A seat not open is kept for whom the host gives its link, and never offered.
    open: bool = False


class CreateTable(_Body):
    """``POST /api/tables``."""

    game: str = Field(max_length=32)
    options: dict[str, int | str | bool | None] = Field(default_factory=dict, max_length=32)
    seats: list[SeatSpec] = Field(min_length=1, max_length=16)
    #: Offer the free seats in the lobby's list (otherwise: invitation links only).
    listed: bool = False
    #: Seconds per decision of a person (0: none; the choices: ``GET /api/lobby``).
    turn_timer: int = 0
    #: Newcomers may join mid-game, with the host's consent (where the game seats them).
    join_mid_game: bool = False
    #: A seated player may ask the coach for a hint at his turn (issue 31, item 2).
    hints: bool = False


class Move(_Body):
    """``POST /api/table/move``: the version acted on and an action id or text form."""

    version: int
    action: int | str


class ChatLine(_Body):
    """``POST /api/table/chat``."""

    text: str = Field(max_length=4000)


class SeatBot(_Body):
    """``POST /api/table/seats/{seat}/bot`` and ``POST /api/table/leave``; no ``bot``: the
    game's table bot (``bots.table_bot``)."""

    bot: str | None = Field(default=None, max_length=32)


class Name(_Body):
    """A display name (taking a seat, renaming one's seat)."""

    name: str = Field(default="", max_length=4 * MAX_NAME)


class Pace(_Body):
    """``POST /api/table/pace``: seconds before each bot move (one of ``BOT_PACES``)."""

    seconds: int | float


class HintRequest(_Body):
    """``POST /api/table/hint``: the version the seat is deciding on. No seat: a hint is
    only ever for the token's own seat."""

    version: int


class HintsSetting(_Body):
    """``POST /api/table/hints``: whether the table allows hints (the host's choice)."""

    allowed: bool


class TakeSeat(_Body):
    """``POST /api/table/seats/{seat}/take``, ``POST /api/table/join``: the newcomer's
    name, and the tokens his page holds at this table (``held``: the client's identity; a
    client that holds or held a seat here is refused another)."""

    name: str = Field(default="", max_length=4 * MAX_NAME)
    held: list[Annotated[str, Field(max_length=100)]] = Field(default_factory=list,
                                                             max_length=8)


#: The ``Authorization: Bearer <token>`` header (read by :func:`identified`; FastAPI resolves
#: a function's postponed annotations in its module's namespace, so the aliases FastAPI reads
#: stay at module level).
AuthHeader = Annotated[str | None, Header()]


def bearer(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header (401 without one)."""
    if not authorization:
        raise TableError("unauthorized", "send the table link's token as a Bearer token", 401)
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TableError("unauthorized", "send the table link's token as a Bearer token", 401)
    return token.strip()


def seat_of(viewer: int | None) -> int:
    """The viewer's seat; spectators are refused."""
    if viewer is None:
        raise TableError("forbidden", "a spectator's link cannot do this", 403)
    return viewer


@dataclass(frozen=True)
class Caller:
    """Who sent a request with a table's token: the token, its table and its :class:`Access`
    there (found by :meth:`TableManager.identify`)."""

    token: str
    table: LiveTable
    access: Access

    @property
    def viewer(self) -> int | None:
        """The seat whose view the token gets (``None``: the spectators')."""
        return self.access.viewer

    @property
    def seat(self) -> int:
        """The token's own seat; a token with no seat is refused (403 ``forbidden``)."""
        return seat_of(self.access.viewer)

    def finished_table(self, page: str) -> LiveTable:
        """The token's table once its game is over; before, the ``page`` (the replay, the
        review) is refused (409 ``not_finished``)."""
        if not self.table.finished:
            raise TableError("not_finished", f"the {page} opens when the game is over")
        return self.table


async def identified(request: Request, authorization: AuthHeader = None) -> Caller:
    """The dependency of every route reached with a table's token: 401 without a Bearer
    token (``unauthorized``), or with one no table knows (``unauthorized``, ``seat_left``).

    It runs before FastAPI checks the body's fields and the path, so a request without a
    valid token is refused 401 even if they are wrong too (a body that is not JSON at all is
    refused 400 before, when FastAPI parses it)."""
    manager: TableManager = request.app.state.manager
    token = bearer(authorization)
    table, access = await manager.identify(token)
    return Caller(token, table, access)


#: A route's parameter for :func:`identified` (``caller: Identified``).
Identified = Annotated[Caller, Depends(identified)]


def link(token: str) -> str:
    """The page a table token opens."""
    return f"/table#{token}"


def _field_names() -> frozenset[str]:
    """Every field name of the request bodies (an error may name them: they are ours)."""
    names: set[str] = set()
    pending: list[type[_Body]] = [_Body]
    while pending:
        model = pending.pop()
        names.update(model.model_fields)
        pending.extend(model.__subclasses__())
    return frozenset(names)


#: A count a polling client says it holds (``GET /api/table?log=&notices=&chat=``, as a
#: reconnecting page's hello: :class:`pendragon.web.watchers.Held`); left out, none.
HeldCount = Annotated[int | None, Query(ge=0)]

#: The request bodies' field names and the query's
#: (:func:`pendragon.web.middleware.describe_validation`).
FIELD_NAMES = _field_names() | {"log", "notices", "chat"}
