"""The online table: a FastAPI application serving the pages, a JSON API and a WebSocket.

Routes (see ``docs/web.md`` for the protocol):

=====================================  ===================================================
``GET /``, ``/table``, ``/replay``      the pages (lobby, a seat's or a spectator's table,
                                        the replay of a finished game)
``GET /static/...``, ``/i18n/L.json``   the front end's modules and translations
``GET /games/NAME/board.js``            a game's board module (its plugin's, or the
                                        generic one)
``GET /api/games``                      games, their options, seat counts and bots
``POST /api/tables``                    create a table; returns one link per human seat
                                        and the spectators' link
``GET /api/table``                      the token's view (``Authorization: Bearer``)
``POST /api/table/move``                play ``{"version", "action"}``
``POST /api/table/chat``                say ``{"text"}``
``POST /api/table/name``                rename one's seat ``{"name"}``
``POST /api/table/seats/{s}/bot``       let a bot play seat ``s`` ``{"bot"}``
``POST /api/table/seats/{s}/take``      the host, or his invitation to seat ``s``, takes
                                        a seat no person owns ``{"name", "held"}``
``POST /api/table/start``               the host begins the game before everyone seated
                                        has opened his link
``POST /api/table/seats/{s}/invite``    the host invites a player to seat ``s``
``POST /api/table/join``                the host, or his join invitation, joins with a new
                                        seat where the table and the rules allow it
                                        (SoC's VAR-JOIN) ``{"name", "held"}``
``POST /api/table/join/invite``         the host invites a newcomer to join
``POST /api/table/reclaim``             take one's seat back from the bot keeping it
``POST /api/table/leave``               give one's seat up for good ``{"bot"}``
``GET /api/replay``, ``/api/replay/V``  a finished game, move by move, secrets revealed
``GET /api/lobby``                      the open tables (listed, with free seats)
``POST /api/lobby/T/seats/{s}/sit``     take a free seat of a listed table ``{"name"}``
``POST``/``GET /api/table/rematch``     start / find the rematch: one's own new link
``WS /ws``                              live updates; first message ``{"type": "hello",
                                        "token"}``
=====================================  ===================================================

Start it with :func:`serve_main` (``pendragon serve``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import logging
import os
import secrets
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import pendragon
from pendragon.bots import bot_names, table_bots
from pendragon.core.plugins import plugin_for
from pendragon.i18n import LANGUAGES, catalog
from pendragon.web.adapters import adapter_for
from pendragon.web.limits import Limits, RateLimited, RateLimiter, client_address
from pendragon.web.security import MAX_NAME, InputError, parse_token
from pendragon.web.storage import Storage, check_url
from pendragon.web.store import AsyncStore
from pendragon.web.tables import (
    LiveTable,
    Metrics,
    Settings,
    TableError,
    TableManager,
    Watcher,
    remote_option_names,
)

log = logging.getLogger("pendragon.web")

WEB_DIR = Path(__file__).resolve().parent
STATIC_DIR = WEB_DIR / "static"
#: The board module of a game whose plugin has none: the observation as a readable table.
GENERIC_BOARD = STATIC_DIR / "js" / "generic_board.js"
#: Largest request body and WebSocket message accepted.
MAX_BODY = 64 * 1024
MAX_WS_MESSAGE = 8 * 1024
#: Seconds a new WebSocket has to say hello.
HELLO_TIMEOUT = 10.0

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


# ---------------------------------------------------------------------- request bodies
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


class TakeSeat(_Body):
    """``POST /api/table/seats/{seat}/take``, ``POST /api/table/join``: the newcomer's
    name, and the tokens his page holds at this table (``held``: the client's identity; a
    client that holds or held a seat here is refused another)."""

    name: str = Field(default="", max_length=4 * MAX_NAME)
    held: list[Annotated[str, Field(max_length=100)]] = Field(default_factory=list,
                                                             max_length=8)


#: The ``Authorization: Bearer <token>`` header (at module level: FastAPI resolves the
#: postponed annotations of the route functions in this module's namespace).
AuthHeader = Annotated[str | None, Header()]


# ---------------------------------------------------------------------- helpers
def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message}},
        status_code=status,
        headers={"Cache-Control": "no-store"},
    )


def _bearer(authorization: str | None) -> str:
    if not authorization:
        raise TableError("unauthorized", "send the table link's token as a Bearer token", 401)
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TableError("unauthorized", "send the table link's token as a Bearer token", 401)
    return token.strip()


def _describe_validation(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(x) for x in item.get("loc", ()) if x != "body")
        message = str(item.get("msg", "invalid value"))
        if item.get("type") == "json_invalid":
            return "the request body is not valid JSON"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "invalid request"


class _LimitBody:
    """Refuse request bodies over :data:`MAX_BODY` (413) and bodies of unknown length."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            headers = dict(scope.get("headers") or [])
            length = headers.get(b"content-length")
            problem: tuple[int, str, str] | None = None
            if length is None:
                if headers.get(b"transfer-encoding"):
                    problem = (411, "length_required", "send a Content-Length")
            elif not length.isdigit() or int(length) > MAX_BODY:
                problem = (413, "too_large", f"request bodies are limited to {MAX_BODY} bytes")
            if problem is not None:
                response = _error(problem[1], problem[2], problem[0])
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


#: ``GET`` paths a monitor polls: never rate-limited.
_UNLIMITED_READS = ("/api/health", "/api/metrics")


class _RateLimit:
    """Per-client rate limits on writes over HTTP (``POST /api/tables`` has its own) and on
    reads of ``/api/`` (but :data:`_UNLIMITED_READS`): beyond them, 429 ``rate_limited``
    with ``Retry-After`` (``pendragon.web.limits``)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = None
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
            path = str(scope["path"]).rstrip("/")
            if scope["method"] == "POST":
                kind = "create" if path == "/api/tables" else "write"
            elif scope["method"] in ("GET", "HEAD") and path not in _UNLIMITED_READS:
                kind = "read"
            if kind is not None:
                client = client_address(scope, self.limiter.limits)
                try:
                    self.limiter.check(kind, client)
                except RateLimited as limited:
                    response = _error("rate_limited", str(limited), 429)
                    response.headers["Retry-After"] = str(limited.retry_after)
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class _SecurityHeaders:
    """Headers that keep tokens out of referrers and scripts out of user text."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            """Add the security headers to the response's start."""
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers += [
                    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


@functools.cache
def _page_messages(language: str) -> bytes:
    """``/i18n/<language>.json``: every message of ``language`` for the pages, encoded once
    (plural messages as ``{cldr_category: text}``)."""
    return json.dumps(catalog(language).for_page(), ensure_ascii=False).encode()


# ---------------------------------------------------------------------- the application
def create_app(database: str, settings: Settings | None = None) -> FastAPI:
    """The web application storing its tables in ``database`` (an SQLAlchemy URL)."""
    check_url(database)
    settings = settings or Settings()
    settings.limits.check()
    limiter = RateLimiter(settings.limits)
    holder: dict[str, TableManager] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """Open the database, resume the tables; close them at shutdown."""
        instance = secrets.token_hex(8)
        storage = await asyncio.to_thread(Storage, database, instance)
        manager = TableManager(AsyncStore(storage), settings)
        await manager.start()
        holder["manager"] = manager
        _app.state.manager = manager
        try:
            yield
        finally:
            await manager.close()

    app = FastAPI(
        title="Pendragon",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )

    app.add_middleware(_LimitBody)
    app.add_middleware(_RateLimit, limiter=limiter)
    app.add_middleware(_SecurityHeaders)
    app.state.limiter = limiter

    def manager() -> TableManager:
        """The running table manager."""
        return holder["manager"]

    # -------------------------------------------------------------- errors
    @app.exception_handler(TableError)
    async def _table_error(_request: Request, error: TableError) -> JSONResponse:
        return _error(error.code, error.message, error.status)

    @app.exception_handler(InputError)
    async def _input_error(_request: Request, error: InputError) -> JSONResponse:
        return _error("bad_request", str(error), 400)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        message = _describe_validation(error)
        status = 400 if message.startswith("the request body is not valid JSON") else 422
        return _error("bad_request" if status == 400 else "invalid_request", message, status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "error")
        return _error(code, str(error.detail), error.status_code)

    # -------------------------------------------------------------- pages
    def page(name: str) -> Callable[[], Awaitable[FileResponse]]:
        """A route serving the static page ``name``."""
        async def serve_page() -> FileResponse:
            """The page."""
            return FileResponse(STATIC_DIR / name, headers={"Cache-Control": "no-cache"})

        return serve_page

    app.get("/", include_in_schema=False)(page("index.html"))
    app.get("/table", include_in_schema=False)(page("table.html"))
    app.get("/replay", include_in_schema=False)(page("replay.html"))

    @app.get("/i18n/{language}.json", include_in_schema=False)
    async def translations(language: str) -> Response:
        """One language's messages: the interface's and every installed game's."""
        if language not in LANGUAGES:
            raise TableError("not_found", f"no translation {language!r}", 404)
        return Response(_page_messages(language), media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/games/{name}/board.js", include_in_schema=False)
    async def board_module(name: str) -> FileResponse:
        """The board module of game ``name``: its plugin's, or the generic one."""
        if name not in pendragon.registered_games():
            raise TableError("not_found", f"no game {name!r}", 404)
        plugin = plugin_for(name)
        path = plugin.web_module_path() if plugin is not None else None
        if path is not None and not path.is_file():
            log.error("game %s: its board module %s is missing", name, path)
            raise TableError("not_found", f"the board module of {name!r} is missing", 404)
        return FileResponse(path or GENERIC_BOARD, media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # -------------------------------------------------------------- API
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Liveness check."""
        return {"ok": True, "tables_loaded": len(manager().tables)}

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """Games, their options and seat counts, bots and languages."""
        out = []
        for name in pendragon.registered_games():
            try:
                cls = pendragon.game_class(name)
                info = pendragon.load_game(name).info
            except Exception:
                # A broken plugin is logged and left out; the other games stay playable.
                log.exception("game %s cannot be loaded; the lobby leaves it out", name)
                continue
            players = next((s for s in cls.option_specs if s.name == "players"), None)
            remote_options = remote_option_names(cls)
            # The seat range of the players option covers every combination of options
            # (an expansion may allow more); the server checks the chosen combination.
            minimum = players.minimum if players and players.minimum else info.min_players
            maximum = players.maximum if players and players.maximum else info.max_players
            title_key = f"game.{name}"
            english = catalog("en")
            out.append(
                {
                    "name": name,
                    "title": english.text(title_key) if title_key in english else info.long_name,
                    "long_name": info.long_name,
                    "min_players": minimum,
                    "max_players": maximum,
                    "default_players": players.default if players else info.min_players,
                    # The generic bots and the game's own (GamePlugin.bots), the one a
                    # bot seat takes by default first (GamePlugin.table_bot).
                    "bots": table_bots(name),
                    # The lobby offers "newcomers may join mid-game" only where the game
                    # can seat one (its adapter's add_seat_action).
                    "join_mid_game": adapter_for(name).add_seat_action(
                        pendragon.load_game(name).new_initial_state()) is not None,
                    "options": [
                        {
                            "name": spec.name,
                            "type": spec.type.__name__,
                            "default": spec.default,
                            "help": spec.help,
                            "choices": list(spec.choices) if spec.choices is not None else None,
                            "minimum": spec.minimum,
                            "maximum": spec.maximum,
                            "nullable": spec.nullable,
                        }
                        for spec in cls.option_specs
                        # Only what a client may set: not the seed or the player count
                        # (the server's), nor an option naming a file on this machine.
                        if spec.name in remote_options
                    ],
                }
            )
        return {"games": out, "bots": bot_names(), "languages": list(LANGUAGES)}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; one link per human seat and one for spectators."""
        table, tokens, spectator = await manager().create(
            body.game, body.options, [seat.model_dump() for seat in body.seats],
            client=client_address(request.scope, settings.limits),
            listed=body.listed, turn_timer=body.turn_timer, join_mid_game=body.join_mid_game,
        )
        host = table.pop_host_token()
        return {
            "table": table.table_id,
            "seats": [
                {"seat": i, "kind": "human" if token else "bot", "token": token,
                 "link": f"/table#{token}" if token else None}
                for i, token in enumerate(tokens)
            ],
            "spectator": {"token": spectator, "link": f"/table#{spectator}"},
            "host": {"token": host, "link": f"/table#{host}"},
        }

    async def authed(authorization: str | None) -> tuple[LiveTable, int | None]:
        """The table and viewer of the request's Bearer token."""
        return await manager().authenticate(_bearer(authorization))

    def seat_of(viewer: int | None) -> int:
        """The viewer's seat; spectators are refused."""
        if viewer is None:
            raise TableError("forbidden", "a spectator's link cannot do this", 403)
        return viewer

    @app.get("/api/table")
    async def table_view(authorization: AuthHeader = None) -> JSONResponse:
        """The token's view: table, state message, chat."""
        table, access = await manager().identify(_bearer(authorization))
        viewer = access.viewer
        body = {
            "table": table.info(viewer, access),
            "state": table.state_message(viewer, 0),
            "chat": table.chat_message(list(table.chat))["lines"],
        }
        if table.rematch is not None:  # the bearer's own link to it (issue 17, item 10)
            body["rematch"] = await rematch_answer(authorization)
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.post("/api/table/move")
    async def move(body: Move, authorization: AuthHeader = None) -> dict[str, Any]:
        """Play a move against the version it was chosen on."""
        table, viewer = await authed(authorization)
        version = await table.submit(seat_of(viewer), body.version, body.action)
        return {"ok": True, "version": version}

    @app.post("/api/table/chat")
    async def chat(body: ChatLine, authorization: AuthHeader = None) -> dict[str, Any]:
        """Say a line at the table."""
        table, viewer = await authed(authorization)
        await table.say(viewer, body.text)
        return {"ok": True}

    @app.post("/api/table/name")
    async def rename(body: Name, authorization: AuthHeader = None) -> dict[str, Any]:
        """Rename one's own seat."""
        table, viewer = await authed(authorization)
        await table.rename(seat_of(viewer), body.name)
        return {"ok": True}

    @app.post("/api/table/seats/{seat}/bot")
    async def seat_to_bot(seat: int, body: SeatBot,
                          authorization: AuthHeader = None) -> dict[str, Any]:
        """Let a bot play a seat (one's own, or one whose player is gone)."""
        table, viewer = await authed(authorization)
        await table.seat_to_bot(viewer, seat, body.bot)
        return {"ok": True}

    @app.post("/api/table/seats/{seat}/take")
    async def take_seat(seat: int, body: TakeSeat,
                        authorization: AuthHeader = None) -> dict[str, Any]:
        """Seat a person at a seat no person owns, with the host's consent (the host's
        link, or his invitation to this seat, which becomes the seat's link)."""
        token = _bearer(authorization)
        table, access = await manager().identify(token)
        new_token = await table.take_seat(access, token, seat, body.name, body.held)
        return {"ok": True, "seat": seat, "token": new_token, "link": f"/table#{new_token}"}

    @app.post("/api/table/start")
    async def start_game(authorization: AuthHeader = None) -> dict[str, Any]:
        """The host begins the game without waiting for everyone to arrive."""
        table, access = await manager().identify(_bearer(authorization))
        await table.start(access)
        return {"ok": True}

    @app.post("/api/table/seats/{seat}/invite")
    async def invite_to_seat(seat: int, authorization: AuthHeader = None) -> dict[str, Any]:
        """The host's invitation link to a seat no person owns (it works once)."""
        table, access = await manager().identify(_bearer(authorization))
        token = await table.invite_to_seat(access, seat)
        return {"ok": True, "seat": seat, "token": token, "link": f"/table#{token}"}

    @app.post("/api/table/join")
    async def join_table(body: TakeSeat, authorization: AuthHeader = None) -> dict[str, Any]:
        """Join with a seat of one's own, where the host allowed it and the rules allow it
        now, with the host's consent (his link, or his join invitation)."""
        token = _bearer(authorization)
        table, access = await manager().identify(token)
        seat, new_token = await table.join_new_seat(access, token, body.name, body.held)
        return {"ok": True, "seat": seat, "token": new_token, "link": f"/table#{new_token}"}

    @app.post("/api/table/join/invite")
    async def invite_to_join(authorization: AuthHeader = None) -> dict[str, Any]:
        """The host's invitation link to join mid-game (it works once)."""
        table, access = await manager().identify(_bearer(authorization))
        token = await table.invite_to_join(access)
        return {"ok": True, "token": token, "link": f"/table#{token}"}

    @app.post("/api/table/leave")
    async def leave(body: SeatBot, authorization: AuthHeader = None) -> dict[str, Any]:
        """Give one's seat up for good: a bot plays it for nobody, the link dies."""
        table, viewer = await authed(authorization)
        await table.leave(seat_of(viewer), body.bot)
        return {"ok": True}

    @app.post("/api/table/pace")
    async def pace(body: Pace, authorization: AuthHeader = None) -> dict[str, Any]:
        """A seated player or the host sets the bots' pace at this table (issue 27, item 9)."""
        table, access = await manager().identify(_bearer(authorization))
        await table.set_pace(access, body.seconds)
        return {"ok": True, "seconds": table.pace}

    @app.post("/api/table/reclaim")
    async def reclaim(authorization: AuthHeader = None) -> dict[str, Any]:
        """Take one's seat back from the bot playing it."""
        table, viewer = await authed(authorization)
        await table.reclaim(seat_of(viewer))
        return {"ok": True}

    # -------------------------------------------------------------- lobby and rematch
    # Issue 17, item 10 (docs/web.md, "The lobby's open tables", "Rematch").
    @app.get("/api/lobby")
    async def lobby() -> JSONResponse:
        """The open tables (listed, not over, with a free seat), newest first, and the
        turn timers a host may choose."""
        english = catalog("en")
        tables = await manager().lobby()
        for entry in tables:
            key = f"game.{entry['game']}"
            entry["title"] = english.text(key) if key in english else entry["game"]
        body = {"tables": tables, "turn_timers": [0, *settings.turn_timers]}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.post("/api/lobby/{table_id}/seats/{seat}/sit")
    async def sit(table_id: str, seat: int, body: TakeSeat) -> dict[str, Any]:
        """Take a free seat of a listed table (one whose link nobody has opened)."""
        table = await manager().get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise TableError("not_found", "there is no open table with this id", 404)
        token = await table.sit_from_lobby(seat, body.name, body.held)
        return {"ok": True, "table": table.table_id, "seat": seat, "token": token,
                "link": f"/table#{token}"}

    async def rematch_answer(authorization: str | None) -> dict[str, Any]:
        """The bearer's own link to the rematch (``None`` parts while there is none)."""
        token = _bearer(authorization)
        table, viewer = await manager().authenticate(token)
        new_token = await table.rematch_token(viewer, parse_token(token)[1])
        return {"table": table.rematch, "seat": viewer, "token": new_token,
                "link": f"/table#{new_token}" if new_token else None}

    @app.post("/api/table/rematch")
    async def propose_rematch(authorization: AuthHeader = None) -> dict[str, Any]:
        """A seated player starts the rematch of a finished game (or gets the one
        started); the answer carries his own new link only."""
        table, viewer = await authed(authorization)
        await table.propose_rematch(viewer)
        return {"ok": True, **(await rematch_answer(authorization))}

    @app.get("/api/table/rematch")
    async def rematch_link(authorization: AuthHeader = None) -> JSONResponse:
        """The bearer's own link to the rematch, once someone started it."""
        return JSONResponse(await rematch_answer(authorization),
                            headers={"Cache-Control": "no-store"})

    @app.get("/api/replay")
    async def replay(authorization: AuthHeader = None) -> JSONResponse:
        """Every step of a finished game, narrated with its secrets."""
        table, viewer = await authed(authorization)
        if not table.finished:
            raise TableError("not_finished", "the replay opens when the game is over")
        info = table.info(viewer)
        body = {"table": info, "length": table.state.version, "steps": table.replay_steps(),
                "returns": table.state.returns()}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    @app.get("/api/replay/{version}")
    async def replay_position(version: int, authorization: AuthHeader = None) -> JSONResponse:
        """Every seat's observation after ``version`` actions of a finished game."""
        table, _viewer = await authed(authorization)
        if not table.finished:
            raise TableError("not_finished", "the replay opens when the game is over")
        if not 0 <= version <= table.state.version:
            raise TableError("bad_request",
                             f"version must be between 0 and {table.state.version}", 400)
        return JSONResponse(table.replay_position(version),
                            headers={"Cache-Control": "no-store"})

    @app.get("/api/metrics")
    async def metrics() -> dict[str, Any]:
        """Move-to-push latencies and counters (with ``--metrics``)."""
        current = manager().metrics
        if current is None:
            raise TableError("not_found", "metrics are off (serve with --metrics)", 404)
        snapshot = current.snapshot()
        store = manager().store
        snapshot["commits"] = store.commits
        snapshot["writes"] = store.writes
        snapshot["tables_loaded"] = len(manager().tables)
        return snapshot

    @app.post("/api/metrics/reset")
    async def reset_metrics() -> dict[str, Any]:
        """Start the figures afresh (the benchmark's warm-up ends)."""
        if manager().metrics is None:
            raise TableError("not_found", "metrics are off (serve with --metrics)", 404)
        manager().metrics = Metrics()
        return {"ok": True}

    # -------------------------------------------------------------- WebSocket
    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        """A page's live connection: hello, then pushes and requests."""
        await ws.accept()
        client = client_address(ws.scope, settings.limits)
        try:
            limiter.check("connect", client)
        except RateLimited as limited:
            await ws.send_text(json.dumps({"type": "error", "code": "rate_limited",
                                           "message": str(limited),
                                           "retry_after": limited.retry_after}))
            await _close(ws, 4429, str(limited))
            return
        try:
            hello = await asyncio.wait_for(_receive_json(ws), HELLO_TIMEOUT)
        except (TimeoutError, _BadMessage, WebSocketDisconnect) as problem:
            await _close(ws, 4400, str(problem) or "say hello first")
            return
        if hello.get("type") != "hello":
            await _close(ws, 4400, "the first message must be {\"type\": \"hello\", \"token\"}")
            return
        try:
            table, access = await manager().identify(hello.get("token"))
        except TableError as error:
            await ws.send_text(json.dumps({"type": "error", "code": error.code,
                                           "message": error.message}))
            await _close(ws, 4401, error.message)
            return
        viewer = access.viewer
        watcher = Watcher(viewer, access)
        table.attach(watcher)
        # How the server ends the connection: 4408 unless a message was too big (1009).
        closing = [4408, "closed by the server"]
        sender = asyncio.get_running_loop().create_task(
            _send_loop(ws, watcher, manager(), closing))
        # Messages sent while over the rate, since the last one let through: a client
        # that goes on past another burst's worth is cut off rather than answered.
        ignored = 0
        try:
            while True:
                raw = await _receive_text(ws)
                # Every message counts, well-formed or not, before any work is done on it.
                try:
                    limiter.check("message", client)
                    ignored = 0
                except RateLimited as limited:
                    ignored += 1
                    if ignored > max(settings.limits.message_burst, 1):
                        closing[:] = [4429, "too many messages: this connection is closed"]
                        break
                    watcher.put(json.dumps({"type": "error", "code": "rate_limited",
                                            "message": str(limited),
                                            "retry_after": limited.retry_after}))
                    continue
                try:
                    message = _parse_message(raw)
                except _BadMessage as problem:
                    watcher.put(json.dumps({"type": "error", "code": "bad_request",
                                            "message": str(problem)}))
                    if problem.fatal:
                        closing[:] = [1009, str(problem)]
                        break
                    continue
                await _handle(table, viewer, watcher, message)
                if watcher.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(watcher)
            try:
                await asyncio.wait_for(sender, 5.0)
            except (TimeoutError, asyncio.CancelledError, Exception):
                sender.cancel()

    return app


class _BadMessage(Exception):
    def __init__(self, message: str, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


class _Raw:
    """A received WebSocket message before it is parsed: its text, or why it has none."""

    __slots__ = ("problem", "text")

    def __init__(self, text: str | None, problem: _BadMessage | None = None) -> None:
        self.text = text
        self.problem = problem


async def _receive_text(ws: WebSocket) -> _Raw:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        return _Raw(None, _BadMessage("send JSON text messages"))
    if len(text) > MAX_WS_MESSAGE:
        return _Raw(None, _BadMessage(f"messages are limited to {MAX_WS_MESSAGE} characters",
                                      fatal=True))
    return _Raw(text)


def _parse_message(raw: _Raw) -> dict[str, Any]:
    if raw.problem is not None:
        raise raw.problem
    try:
        data = json.loads(raw.text or "")
    except RecursionError:
        raise _BadMessage("a message may not nest that deep") from None
    except ValueError as error:  # not JSON, or an integer past Python's digit limit
        reason = "a message must be a JSON object"
        if not isinstance(error, json.JSONDecodeError):
            reason = "a number in the message is too long"
        raise _BadMessage(reason) from None
    if not isinstance(data, dict):
        raise _BadMessage("a message must be a JSON object")
    return data


async def _receive_json(ws: WebSocket) -> dict[str, Any]:
    return _parse_message(await _receive_text(ws))


async def _handle(table: LiveTable, viewer: int | None, watcher: Watcher,
                  message: dict[str, Any]) -> None:
    kind = message.get("type")
    try:
        if kind == "move":
            if viewer is None:
                raise TableError("forbidden", "spectators cannot move", 403)
            await table.submit(viewer, message.get("version"), message.get("action"))
        elif kind == "chat":
            await table.say(viewer, message.get("text"))
        elif kind == "name":
            if viewer is None:
                raise TableError("forbidden", "spectators have no seat to name", 403)
            await table.rename(viewer, message.get("name"))
        elif kind == "seat_to_bot":
            await table.seat_to_bot(viewer, message.get("seat"), message.get("bot"))
        elif kind == "reclaim":
            if viewer is None:
                raise TableError("forbidden", "spectators have no seat to take back", 403)
            await table.reclaim(viewer)
        elif kind == "leave":
            if viewer is None:
                raise TableError("forbidden", "spectators have no seat to give up", 403)
            await table.leave(viewer, message.get("bot"))
        elif kind == "ping":
            watcher.put(json.dumps({"type": "pong"}))
        else:
            raise TableError("bad_request", f"unknown message type {kind!r}", 400)
    except TableError as error:
        watcher.put(json.dumps({"type": "error", "code": error.code, "message": error.message,
                                "request": kind}))
        if error.code == "stale_version":
            watcher.put(json.dumps(table.state_message(viewer, watcher.log_sent)))
            watcher.log_sent = len(table.lines)
    except InputError as error:
        watcher.put(json.dumps({"type": "error", "code": "bad_request", "message": str(error),
                                "request": kind}))


async def _send_loop(ws: WebSocket, watcher: Watcher, manager: TableManager,
                     closing: list[Any]) -> None:
    try:
        while True:
            text, submitted = await watcher.queue.get()
            if not text:
                break
            await ws.send_text(text)
            metrics = manager.metrics
            if submitted is not None and metrics is not None:
                metrics.latencies.append(time.perf_counter() - submitted)
    except Exception:  # the connection is gone: the receive loop notices
        return
    await _close(ws, int(closing[0]), str(closing[1]))


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):  # already closed by the other side
        await ws.close(code=code, reason=reason[:120])


# ---------------------------------------------------------------------- command line
def default_database() -> str:
    """``sqlite:///`` in the user's data directory (``$XDG_DATA_HOME/pendragon``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    folder = Path(base) / "pendragon"
    return f"sqlite:///{folder / 'tables.sqlite3'}"


def build_parser() -> argparse.ArgumentParser:
    """The ``pendragon serve`` arguments."""
    parser = argparse.ArgumentParser(
        prog="pendragon serve",
        description="Serve the online table: play in a browser with friends and bots.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--database",
        default=None,
        help="sqlite:///PATH (default: in ~/.local/share/pendragon) or postgresql://...",
    )
    parser.add_argument("--bot-delay", type=float, default=0.4,
                        help="seconds a bot waits before each move (default 0.4)")
    parser.add_argument("--away-after", type=float, default=60.0,
                        help="seconds before a gone player's seat may be given to a bot")
    parser.add_argument("--bot-threads", type=int, default=2,
                        help="workers running bot moves (0: on the event loop)")
    parser.add_argument("--bot-pool", choices=("process", "thread"), default="process",
                        help="bot workers are processes (default: a thinking bot never"
                             " slows the server down) or threads")
    parser.add_argument("--metrics", action="store_true",
                        help="record move-to-push latencies at /api/metrics")
    _add_limit_arguments(parser)
    parser.add_argument("--log-level", default="warning",
                        choices=("critical", "error", "warning", "info", "debug"))
    return parser


#: ``pendragon serve`` flags of :class:`Limits` (flag, field, type, help); 0 switches off.
_LIMIT_FLAGS: tuple[tuple[str, str, type, str], ...] = (
    ("--create-rate", "create_rate", float, "tables a client may create per second"),
    ("--create-burst", "create_burst", int, "tables a client may create at once"),
    ("--write-rate", "write_rate", float, "other HTTP writes per second per client"),
    ("--write-burst", "write_burst", int, "other HTTP writes at once per client"),
    ("--read-rate", "read_rate", float, "HTTP reads of /api/ per second per client"),
    ("--read-burst", "read_burst", int, "HTTP reads of /api/ at once per client"),
    ("--connect-rate", "connect_rate", float, "WebSocket connections per second per client"),
    ("--connect-burst", "connect_burst", int, "WebSocket connections at once per client"),
    ("--message-rate", "message_rate", float, "WebSocket messages per second per client"),
    ("--message-burst", "message_burst", int, "WebSocket messages at once per client"),
    ("--bot-tables", "bot_tables", int, "live tables of bots alone on the server"),
    ("--bot-tables-per-client", "bot_tables_per_client", int,
     "live tables of bots alone one client may create"),
    ("--bot-cpu-share", "bot_cpu_share", float,
     "fraction of wall-clock time one table's bots may think"),
    ("--bot-cpu-window", "bot_cpu_window", float, "seconds over which that share is counted"),
    ("--ismcts-budget", "ismcts_budget", int,
     "simulated actions an ISMCTS bot may spend on one move"),
    ("--idle-unload", "idle_unload", float,
     "seconds without watchers, visits or moves before a table is unloaded"),
    ("--unwatched-grace", "unwatched_grace", float,
     "seconds bots alone play on after the last watcher or visit"),
)


def _add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = Limits()
    group = parser.add_argument_group("limits (docs/web.md, \"Limits\"; 0 switches one off)")
    for flag, name, kind, text in _LIMIT_FLAGS:
        default = getattr(defaults, name)
        group.add_argument(flag, type=kind, default=default, dest=name,
                           metavar="N" if kind is int else "X",
                           help=f"{text} (default {default:g})")
    group.add_argument("--trusted-proxy", action="append", default=[], dest="trusted_proxies",
                       metavar="ADDRESS",
                       help="address or network (10.0.0.2, 10.1.0.0/16) of a reverse proxy in"
                            " front of the server, whose --trusted-header names the client;"
                            " repeat for several; none by default (docs/web.md, \"Behind a"
                            " reverse proxy\")")
    group.add_argument("--trusted-header", default=defaults.trusted_header,
                       dest="trusted_header", metavar="NAME",
                       help="the header a trusted proxy appends the client's address to"
                            f" (default {defaults.trusted_header}); read only from"
                            " --trusted-proxy peers")


def serve_main(argv: Sequence[str] | None = None) -> int:
    """Run ``pendragon serve`` with ``argv``; returns the exit status."""
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    import uvicorn

    database = args.database or default_database()
    if database.startswith("sqlite:///"):
        path = database[len("sqlite:///"):]
        if path and path != ":memory:":
            Path(path).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    if not database.startswith("sqlite") or (args.bot_threads > 0 and args.bot_pool == "thread"):
        # The database writer thread wakes on every network reply and must wait for the
        # interpreter lock while the event loop runs; a shorter switch interval (default
        # 5 ms) keeps each of its waits, and so each commit, short. The same holds for the
        # event loop while bot threads think: it gets the lock back within 0.5 ms.
        sys.setswitchinterval(0.0005)
    try:
        limits = Limits(trusted_proxies=tuple(args.trusted_proxies),
                        trusted_header=args.trusted_header,
                        **{name: getattr(args, name) for _f, name, _k, _t in _LIMIT_FLAGS}
                        ).check()
    except ValueError as error:
        print(f"pendragon serve: {error}", file=sys.stderr)
        return 2
    settings = Settings(
        bot_delay=max(0.0, args.bot_delay),
        away_after=max(0.0, args.away_after),
        bot_threads=max(0, args.bot_threads),
        bot_processes=args.bot_pool == "process",
        metrics=args.metrics,
        limits=limits,
    )
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    try:
        app = create_app(database, settings)
    except ValueError as error:
        print(f"pendragon serve: {error}", file=sys.stderr)
        return 2
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    print(f"Pendragon is serving at http://{shown}:{args.port}/ - open it in your browser."
          f" (database: {_redact(database)}; Ctrl+C stops)", flush=True)
    server = uvicorn.Server(uvicorn_config(app, host=host, port=args.port,
                                           log_level=args.log_level))
    server.run()
    return 0


def uvicorn_config(app: FastAPI, **options: Any) -> Any:
    """The uvicorn configuration the table is served with (``pendragon serve``, the tests).

    uvicorn's own proxy-header handling is off: by default it believes ``X-Forwarded-For``
    from 127.0.0.1, so that behind no proxy at all any local client could pose as any
    address. Who the client is is decided by :func:`~pendragon.web.limits.client_address`
    alone, from ``--trusted-proxy``.
    """
    import uvicorn

    settings: dict[str, Any] = {"log_level": "warning", "lifespan": "on",
                                "ws_max_size": MAX_WS_MESSAGE * 4, "access_log": False,
                                "proxy_headers": False, **options}
    return uvicorn.Config(app, **settings)


def _redact(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(serve_main())
