"""The coach's routes (issue 31, items 2-3): the host's hint setting, a seat's hint, and the
review of a finished game in the replay. Included before :mod:`~pendragon.web.routes_table`,
whose ``/api/replay/{version}`` would otherwise take ``review`` for a version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pendragon.web.api_models import HintRequest, HintsSetting, Identified
from pendragon.web.limits import client_address
from pendragon.web.manager import TableManager


def coach_routes(manager: Callable[[], TableManager]) -> APIRouter:
    """``/api/table/hints``, ``/api/table/hint`` and ``/api/replay/review``."""
    router = APIRouter()

    @router.post("/api/table/hints")
    async def hints_setting(body: HintsSetting, caller: Identified) -> dict[str, Any]:
        """The host allows hints at the table, or turns them off (announced in the log)."""
        await caller.table.set_hints(caller.access, body.allowed)
        return {"ok": True, "allowed": caller.table.hints_allowed}

    @router.post("/api/table/hint")
    async def ask_hint(body: HintRequest, request: Request, caller: Identified) -> JSONResponse:
        """The coach's move for the token's own seat, at its turn (only to the asker; the
        log tells everyone that the seat asked)."""
        client = client_address(request.scope, manager().settings.limits)
        found = await caller.table.ask_hint(caller.access, body.version, client)
        return JSONResponse(found, headers={"Cache-Control": "no-store"})

    @router.post("/api/replay/review")
    async def start_review(request: Request, caller: Identified) -> JSONResponse:
        """Begin (or queue) the review of the finished game, or report the one under way or
        done; ``review_busy`` while the client has another review under way (429) or the
        queue is full (503)."""
        table = caller.finished_table("review")
        client = client_address(request.scope, manager().settings.limits)
        return JSONResponse(manager().reviews.start(table, client),
                            headers={"Cache-Control": "no-store"})

    @router.get("/api/replay/review")
    async def review_status(caller: Identified) -> JSONResponse:
        """How far the review is (``running``, ``done`` with the review, ``failed``,
        ``none``)."""
        table = caller.finished_table("review")
        return JSONResponse(manager().reviews.status(table.table_id),
                            headers={"Cache-Control": "no-store"})

    return router
