"""The routes of one table, reached with a link's token (``Authorization: Bearer``): its
view, moves, chat, seats changing hands, the bots' pace, the game's start, the rematch and
the replay of a finished game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from pendragon.web.api_models import (
    AuthHeader,
    ChatLine,
    Move,
    Name,
    Pace,
    SeatBot,
    TakeSeat,
    bearer,
    link,
    seat_of,
)
from pendragon.web.errors import TableError
from pendragon.web.limits import client_address
from pendragon.web.manager import TableManager
from pendragon.web.record_download import file_name, record_text
from pendragon.web.security import parse_token
from pendragon.web.tables import LiveTable


def table_routes(manager: Callable[[], TableManager]) -> APIRouter:
    """``/api/table/...`` and ``/api/replay`` (``manager``: the running table manager)."""
    router = APIRouter()

    async def authed(authorization: str | None) -> tuple[LiveTable, int | None]:
        """The table and viewer of the request's Bearer token."""
        return await manager().authenticate(bearer(authorization))

    async def seated(authorization: str | None) -> tuple[LiveTable, int]:
        """The table and seat of the request's Bearer token (a spectator's is refused)."""
        table, viewer = await authed(authorization)
        return table, seat_of(viewer)


    @router.get("/api/table")
    async def table_view(authorization: AuthHeader = None) -> JSONResponse:
        """The token's view: table, state message, chat."""
        table, access = await manager().identify(bearer(authorization))
        viewer = access.viewer
        body = {
            "table": table.info(viewer, access),
            "state": table.state_message(viewer, 0),
            "chat": table.chat_message(list(table.chat))["lines"],
        }
        if table.rematch is not None:  # the bearer's own link to it (issue 17, item 10)
            body["rematch"] = await rematch_answer(authorization)
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @router.post("/api/table/move")
    async def move(body: Move, authorization: AuthHeader = None) -> dict[str, Any]:
        """Play a move against the version it was chosen on."""
        table, seat = await seated(authorization)
        version = await table.submit(seat, body.version, body.action)
        return {"ok": True, "version": version}

    @router.post("/api/table/chat")
    async def chat(body: ChatLine, authorization: AuthHeader = None) -> dict[str, Any]:
        """Say a line at the table."""
        table, viewer = await authed(authorization)
        await table.say(viewer, body.text)
        return {"ok": True}

    @router.post("/api/table/name")
    async def rename(body: Name, authorization: AuthHeader = None) -> dict[str, Any]:
        """Rename one's own seat."""
        table, seat = await seated(authorization)
        await table.rename(seat, body.name)
        return {"ok": True}

    @router.post("/api/table/seats/{seat}/bot")
    async def seat_to_bot(seat: int, body: SeatBot, request: Request,
                          authorization: AuthHeader = None) -> dict[str, Any]:
        """Let a bot play a seat (one's own, or one whose player is gone)."""
        table, viewer = await authed(authorization)
        await table.seat_to_bot(viewer, seat, body.bot,
                                client_address(request.scope, manager().settings.limits))
        return {"ok": True}

    @router.post("/api/table/seats/{seat}/take")
    async def take_seat(seat: int, body: TakeSeat,
                        authorization: AuthHeader = None) -> dict[str, Any]:
        """Seat a person at a seat no person owns, with the host's consent (the host's
        link, or his invitation to this seat, which becomes the seat's link)."""
        token = bearer(authorization)
        table, access = await manager().identify(token)
        new_token = await table.take_seat(access, token, seat, body.name, body.held)
        return {"ok": True, "seat": seat, "token": new_token, "link": link(new_token)}

    @router.post("/api/table/start")
    async def start_game(authorization: AuthHeader = None) -> dict[str, Any]:
        """The host begins the game without waiting for everyone to arrive."""
        table, access = await manager().identify(bearer(authorization))
        await table.start(access)
        return {"ok": True}

    @router.post("/api/table/seats/{seat}/invite")
    async def invite_to_seat(seat: int, authorization: AuthHeader = None) -> dict[str, Any]:
        """The host's invitation link to a seat no person owns (it works once)."""
        table, access = await manager().identify(bearer(authorization))
        token = await table.invite_to_seat(access, seat)
        return {"ok": True, "seat": seat, "token": token, "link": link(token)}

    @router.post("/api/table/join")
    async def join_table(body: TakeSeat, authorization: AuthHeader = None) -> dict[str, Any]:
        """Join with a seat of one's own, where the host allowed it and the rules allow it
        now, with the host's consent (his link, or his join invitation)."""
        token = bearer(authorization)
        table, access = await manager().identify(token)
        seat, new_token = await table.join_new_seat(access, token, body.name, body.held)
        return {"ok": True, "seat": seat, "token": new_token, "link": link(new_token)}

    @router.post("/api/table/join/invite")
    async def invite_to_join(authorization: AuthHeader = None) -> dict[str, Any]:
        """The host's invitation link to join mid-game (it works once)."""
        table, access = await manager().identify(bearer(authorization))
        token = await table.invite_to_join(access)
        return {"ok": True, "token": token, "link": link(token)}

    @router.post("/api/table/leave")
    async def leave(body: SeatBot, request: Request,
                    authorization: AuthHeader = None) -> dict[str, Any]:
        """Give one's seat up for good: a bot plays it for nobody, the link dies."""
        table, seat = await seated(authorization)
        await table.leave(seat, body.bot, client_address(request.scope,
                                                         manager().settings.limits))
        return {"ok": True}

    @router.post("/api/table/pace")
    async def pace(body: Pace, authorization: AuthHeader = None) -> dict[str, Any]:
        """A seated player or the host sets the bots' pace at this table (issue 27, item 9)."""
        table, access = await manager().identify(bearer(authorization))
        await table.set_pace(access, body.seconds)
        return {"ok": True, "seconds": table.pace}

    @router.post("/api/table/reclaim")
    async def reclaim(authorization: AuthHeader = None) -> dict[str, Any]:
        """Take one's seat back from the bot playing it."""
        table, seat = await seated(authorization)
        await table.reclaim(seat)
        return {"ok": True}

    async def rematch_answer(authorization: str | None) -> dict[str, Any]:
        """The bearer's own link to the rematch (``None`` parts while there is none)."""
        token = bearer(authorization)
        table, viewer = await manager().authenticate(token)
        new_token = await table.rematch_token(viewer, parse_token(token)[1])
        return {"table": table.rematch, "seat": viewer, "token": new_token,
                "link": link(new_token) if new_token else None}

    @router.post("/api/table/rematch")
    async def propose_rematch(authorization: AuthHeader = None) -> dict[str, Any]:
        """A seated player starts the rematch of a finished game (or gets the one
        started); the answer carries his own new link only."""
        table, viewer = await authed(authorization)
        await table.propose_rematch(viewer)
        return {"ok": True, **(await rematch_answer(authorization))}

    @router.get("/api/table/rematch")
    async def rematch_link(authorization: AuthHeader = None) -> JSONResponse:
        """The bearer's own link to the rematch, once someone started it."""
        return JSONResponse(await rematch_answer(authorization),
                            headers={"Cache-Control": "no-store"})

    @router.get("/api/replay")
    async def replay(authorization: AuthHeader = None) -> JSONResponse:
        """Every step of a finished game, narrated with its secrets."""
        table, viewer = await authed(authorization)
        _refuse_unless_over(table)
        info = table.info(viewer)
        body = {"table": info, "length": table.state.version, "steps": table.replay_steps(),
                "returns": table.state.returns()}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @router.get("/api/replay/record")
    async def replay_record(authorization: AuthHeader = None) -> Response:
        """A finished game's record file (docs/records.md), for download; before
        ``/api/replay/{version}``, which would take ``record`` for a version."""
        table, _viewer = await authed(authorization)
        _refuse_unless_over(table)
        return Response(record_text(table), media_type="application/json", headers={
            "Cache-Control": "no-store",
            "Content-Disposition": f'attachment; filename="{file_name(table)}"'})

    @router.get("/api/replay/{version}")
    async def replay_position(version: int, authorization: AuthHeader = None) -> JSONResponse:
        """Every seat's observation after ``version`` actions of a finished game."""
        table, _viewer = await authed(authorization)
        _refuse_unless_over(table)
        if not 0 <= version <= table.state.version:
            raise TableError("bad_request",
                             f"version must be between 0 and {table.state.version}", 400)
        return JSONResponse(table.replay_position(version),
                            headers={"Cache-Control": "no-store"})

    return router


def _refuse_unless_over(table: LiveTable) -> None:
    """The replay opens only once the game is over (``not_finished``)."""
    if not table.finished:
        raise TableError("not_finished", "the replay opens when the game is over")
