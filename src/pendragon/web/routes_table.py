"""The routes of one table, reached with a link's token (``Authorization: Bearer``): its
view, moves, chat, seats changing hands, the bots' pace, the game's start, the rematch and
the replay of a finished game."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from pendragon.web.api_models import (
    Caller,
    ChatLine,
    HeldCount,
    Identified,
    Move,
    Name,
    Pace,
    SeatBot,
    TakeSeat,
    link,
)
from pendragon.web.errors import TableError
from pendragon.web.limits import client_address
from pendragon.web.manager import TableManager
from pendragon.web.record_download import file_name, record_text
from pendragon.web.security import parse_token
from pendragon.web.watchers import Held


def table_routes(manager: Callable[[], TableManager]) -> APIRouter:
    """``/api/table/...`` and ``/api/replay`` (``manager``: the running table manager)."""
    router = APIRouter()

    @router.get("/api/table")
    async def table_view(caller: Identified, log: HeldCount = None, notices: HeldCount = None,
                         chat: HeldCount = None) -> JSONResponse:
        """The token's view: table, state message, chat. A client that polls says what it
        holds (``?log=&notices=&chat=``, as a reconnecting page's hello does, each left out
        meaning none) and is sent only what came since (``resumed``); ``held`` is what to
        say next time."""
        table, viewer = caller.table, caller.viewer
        asked = (log, notices, chat) != (None, None, None)
        held = table.honoured(Held(log or 0, notices or 0, chat) if asked else None)
        state, lines = table.since(viewer, held)
        body = {
            "table": table.info(viewer, caller.access),
            "state": state,
            "chat": lines["lines"],
            "resumed": held is not None,
            "held": dataclasses.asdict(table.holding()),
        }
        if table.rematch is not None:  # the bearer's own link to it (issue 17, item 10)
            body["rematch"] = await rematch_answer(caller)
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @router.post("/api/table/move")
    async def move(body: Move, caller: Identified) -> dict[str, Any]:
        """Play a move against the version it was chosen on."""
        version = await caller.table.submit(caller.seat, body.version, body.action)
        return {"ok": True, "version": version}

    @router.post("/api/table/chat")
    async def chat(body: ChatLine, caller: Identified) -> dict[str, Any]:
        """Say a line at the table."""
        await caller.table.say(caller.viewer, body.text)
        return {"ok": True}

    @router.post("/api/table/name")
    async def rename(body: Name, caller: Identified) -> dict[str, Any]:
        """Rename one's own seat."""
        await caller.table.rename(caller.seat, body.name)
        return {"ok": True}

    @router.post("/api/table/seats/{seat}/bot")
    async def seat_to_bot(seat: int, body: SeatBot, request: Request,
                          caller: Identified) -> dict[str, Any]:
        """Let a bot play a seat (one's own, or one whose player is gone)."""
        await caller.table.seat_to_bot(caller.viewer, seat, body.bot,
                                       client_address(request.scope, manager().settings.limits))
        return {"ok": True}

    @router.post("/api/table/seats/{seat}/take")
    async def take_seat(seat: int, body: TakeSeat,
                        caller: Identified) -> dict[str, Any]:
        """Seat a person at a seat no person owns, with the host's consent (the host's
        link, or his invitation to this seat, which becomes the seat's link)."""
        new_token = await caller.table.take_seat(caller.access, caller.token, seat, body.name,
                                                 body.held)
        return {"ok": True, "seat": seat, "token": new_token, "link": link(new_token)}

    @router.post("/api/table/start")
    async def start_game(caller: Identified) -> dict[str, Any]:
        """The host begins the game without waiting for everyone to arrive."""
        await caller.table.start(caller.access)
        return {"ok": True}

    @router.post("/api/table/seats/{seat}/invite")
    async def invite_to_seat(seat: int, caller: Identified) -> dict[str, Any]:
        """The host's invitation link to a seat no person owns (it works once)."""
        token = await caller.table.invite_to_seat(caller.access, seat)
        return {"ok": True, "seat": seat, "token": token, "link": link(token)}

    @router.post("/api/table/join")
    async def join_table(body: TakeSeat, caller: Identified) -> dict[str, Any]:
        """Join with a seat of one's own, where the host allowed it and the rules allow it
        now, with the host's consent (his link, or his join invitation)."""
        seat, new_token = await caller.table.join_new_seat(caller.access, caller.token,
                                                           body.name, body.held)
        return {"ok": True, "seat": seat, "token": new_token, "link": link(new_token)}

    @router.post("/api/table/join/invite")
    async def invite_to_join(caller: Identified) -> dict[str, Any]:
        """The host's invitation link to join mid-game (it works once)."""
        token = await caller.table.invite_to_join(caller.access)
        return {"ok": True, "token": token, "link": link(token)}

    @router.post("/api/table/leave")
    async def leave(body: SeatBot, request: Request,
                    caller: Identified) -> dict[str, Any]:
        """Give one's seat up for good: a bot plays it for nobody, the link dies."""
        await caller.table.leave(caller.seat, body.bot,
                                 client_address(request.scope, manager().settings.limits))
        return {"ok": True}

    @router.post("/api/table/pace")
    async def pace(body: Pace, caller: Identified) -> dict[str, Any]:
        """A seated player or the host sets the bots' pace at this table (issue 27, item 9)."""
        await caller.table.set_pace(caller.access, body.seconds)
        return {"ok": True, "seconds": caller.table.pace}

    @router.post("/api/table/reclaim")
    async def reclaim(caller: Identified) -> dict[str, Any]:
        """Take one's seat back from the bot playing it."""
        await caller.table.reclaim(caller.seat)
        return {"ok": True}

    async def rematch_answer(caller: Caller) -> dict[str, Any]:
        """The bearer's own link to the rematch (``None`` parts while there is none)."""
        table, viewer = caller.table, caller.viewer
        new_token = await table.rematch_token(viewer, parse_token(caller.token)[1])
        return {"table": table.rematch, "seat": viewer, "token": new_token,
                "link": link(new_token) if new_token else None}

    @router.post("/api/table/rematch")
    async def propose_rematch(caller: Identified) -> dict[str, Any]:
        """A seated player starts the rematch of a finished game (or gets the one
        started); the answer carries his own new link only."""
        await caller.table.propose_rematch(caller.viewer)
        return {"ok": True, **(await rematch_answer(caller))}

    @router.get("/api/table/rematch")
    async def rematch_link(caller: Identified) -> JSONResponse:
        """The bearer's own link to the rematch, once someone started it."""
        return JSONResponse(await rematch_answer(caller),
                            headers={"Cache-Control": "no-store"})

    @router.get("/api/replay")
    async def replay(caller: Identified) -> JSONResponse:
        """Every step of a finished game, narrated with its secrets."""
        table = caller.finished_table("replay")
        info = table.info(caller.viewer)
        body = {"table": info, "length": table.state.version, "steps": table.replay_steps(),
                "returns": table.state.returns()}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @router.get("/api/replay/record")
    async def replay_record(caller: Identified) -> Response:
        """A finished game's record file (docs/records.md), for download; before
        ``/api/replay/{version}``, which would take ``record`` for a version."""
        table = caller.finished_table("replay")
        return Response(record_text(table), media_type="application/json", headers={
            "Cache-Control": "no-store",
            "Content-Disposition": f'attachment; filename="{file_name(table)}"'})

    @router.get("/api/replay/{version}")
    async def replay_position(version: int, caller: Identified) -> JSONResponse:
        """Every seat's observation after ``version`` actions of a finished game."""
        table = caller.finished_table("replay")
        if not 0 <= version <= table.state.version:
            raise TableError("bad_request",
                             f"version must be between 0 and {table.state.version}", 400)
        return JSONResponse(table.replay_position(version),
                            headers={"Cache-Control": "no-store"})

    return router
