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
``POST /api/table/pace``               a seat or the host sets the bots' pace
                                        ``{"seconds"}``
``POST /api/table/hints``               the host allows hints or turns them off
                                        ``{"allowed"}``
``POST /api/table/hint``                the coach's move for one's own seat at one's
                                        turn ``{"version"}`` (announced, not told)
``GET /api/replay``, ``/api/replay/V``  a finished game, move by move, secrets revealed
``GET /api/replay/record``              the finished game's record file (download)
``POST``/``GET /api/replay/review``     begin / follow the coach's review of the
                                        finished game (progress, then the figures)
``GET /api/lobby``                      the open tables (listed, with free seats)
``POST /api/lobby/T/seats/{s}/sit``     take a free seat of a listed table ``{"name"}``
``POST``/``GET /api/table/rematch``     start / find the rematch: one's own new link
``WS /ws``                              live updates; first message ``{"type": "hello",
                                        "token"}`` (``"held"`` too, back after a drop)
=====================================  ===================================================

The routes live by concern: :mod:`~pendragon.web.routes_site` (pages, translations, board
modules, health, metrics), :mod:`~pendragon.web.routes_lobby` (games, new tables, the
lobby), :mod:`~pendragon.web.routes_table` (one table's API, rematch, replay),
:mod:`~pendragon.web.routes_coach` (hints and reviews) and
:mod:`~pendragon.web.websocket`; :mod:`~pendragon.web.middleware` checks every request
first. This module assembles the application (:func:`create_app`) and runs it:
:func:`serve_main` (``pendragon serve``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import secrets
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from pendragon.web.api_models import FIELD_NAMES
from pendragon.web.connections import guarded_protocols, quiet_accept_errors
from pendragon.web.errors import TableError
from pendragon.web.limits import Limits, RateLimiter
from pendragon.web.manager import TableManager
from pendragon.web.middleware import (
    LimitBody,
    RateLimit,
    SecurityHeaders,
    describe_validation,
    error_response,
)
from pendragon.web.routes_coach import coach_routes
from pendragon.web.routes_lobby import lobby_routes
from pendragon.web.routes_site import STATIC_DIR, site_routes
from pendragon.web.routes_table import table_routes
from pendragon.web.security import InputError
from pendragon.web.settings import Settings
from pendragon.web.storage import Storage, check_url
from pendragon.web.store import AsyncStore
from pendragon.web.websocket import MAX_WS_MESSAGE, websocket_routes

#: What an HTTP error of the framework (not of a table) says, by status: a documented code
#: and fixed words (docs/web.md, "Errors").
HTTP_ERRORS: dict[int, tuple[str, str]] = {
    400: ("bad_request", "the request body could not be read (not JSON, or nested too deep)"),
    404: ("not_found", "Not Found"),
    405: ("method_not_allowed", "Method Not Allowed"),
}


# ---------------------------------------------------------------------- the application
def create_app(database: str, settings: Settings | None = None) -> FastAPI:
    """The web application storing its tables in ``database`` (an SQLAlchemy URL)."""
    check_url(database)
    settings = settings or Settings()
    settings.limits.check()
    limiter = RateLimiter(settings.limits)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """Open the database, resume the tables; close them at shutdown."""
        instance = secrets.token_hex(8)
        storage = await asyncio.to_thread(Storage, database, instance)
        manager = TableManager(AsyncStore(storage), settings)
        await manager.start()
        _app.state.manager = manager  # read by manager() and api_models.identified
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

    app.add_middleware(LimitBody)
    app.add_middleware(RateLimit, limiter=limiter)
    app.add_middleware(SecurityHeaders)
    app.state.limiter = limiter

    def manager() -> TableManager:
        """The running table manager (the application's state, set by its lifespan)."""
        found: TableManager = app.state.manager
        return found

    # -------------------------------------------------------------- errors
    @app.exception_handler(TableError)
    async def _table_error(_request: Request, error: TableError) -> JSONResponse:
        return error_response(error.code, error.message, error.status)

    @app.exception_handler(SQLAlchemyError)
    async def _storage_error(_request: Request, error: SQLAlchemyError) -> JSONResponse:
        # Nothing was changed in memory (every change is applied once stored): the client
        # may simply try again (issue 36, item 3).
        logging.getLogger("pendragon.web").error("a write failed: %s", error)
        return error_response("storage_busy", "the table could not be saved just now; try"
                              " again", 503)

    @app.exception_handler(InputError)
    async def _input_error(_request: Request, error: InputError) -> JSONResponse:
        return error_response("bad_request", str(error), 400)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        message = describe_validation(error, FIELD_NAMES)
        status = 400 if message.startswith("the request body is not valid JSON") else 422
        return error_response("bad_request" if status == 400 else "invalid_request", message,
                              status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Fixed words for each status, never the exception's detail (issue 36, item 8): a
        # body nested 30,000 deep is a 400 ``bad_request`` like any unreadable body.
        code, message = HTTP_ERRORS.get(error.status_code, ("bad_request",
                                                            "this request was refused"))
        return error_response(code, message, error.status_code)

    # -------------------------------------------------------------- routes
    app.include_router(site_routes(manager))
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(lobby_routes(manager, settings))
    # Before the table's routes: /api/replay/{version} would take "review" for a version.
    app.include_router(coach_routes(manager))
    app.include_router(table_routes(manager))
    app.include_router(websocket_routes(manager, settings, limiter))
    return app


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
    parser.add_argument("--hint-budget", type=int, default=0, metavar="N",
                        help="simulated actions one hint may spend (default 0: the coach's own,"
                             " four times the game's review budget)")
    parser.add_argument("--review-budget", type=int, default=0, metavar="N",
                        help="simulated actions per decision of a review (default 0: the"
                             " game's, docs/bots.md \"Coach\")")
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
    ("--hints-per-client", "hints_per_client", int,
     "hint searches one client may have queued or running"),
    ("--connections-per-client", "connections_per_client", int,
     "connections one client may hold open (a trusted proxy is not capped)"),
    ("--request-timeout", "request_timeout", float,
     "seconds a request has to arrive whole (headers and body)"),
    ("--loads-per-client", "loads_per_client", int,
     "tables one client may be loading from the database at once"),
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
    # The database thread wakes on every network reply and must wait for the interpreter
    # lock while the event loop runs; a shorter switch interval (default 5 ms) keeps each
    # of its waits, and so each commit, short. The same holds for the event loop while
    # bot threads think or the loader thread replays a table being opened (issue 36,
    # item 5): it gets the lock back within 0.5 ms.
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
        hint_budget=max(0, args.hint_budget),
        review_budget=max(0, args.review_budget),
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

    limits: Limits = app.state.limiter.limits
    http, ws, registry = guarded_protocols(limits)
    app.state.connections = registry
    quiet_accept_errors()
    settings: dict[str, Any] = {
        "log_level": "warning", "lifespan": "on", "access_log": False,
        "proxy_headers": False,
        # Issue 36, item 2: uvicorn's own limits first, then ours (connections.py).
        "http": http, "ws": ws,
        "ws_max_size": MAX_WS_MESSAGE * 4,          # a bigger frame closes the socket (1009)
        "ws_ping_interval": WS_PING_INTERVAL,       # a silent peer is pinged ...
        "ws_ping_timeout": WS_PING_TIMEOUT,         # ... and closed if it does not answer
        "timeout_keep_alive": KEEP_ALIVE,           # an idle keep-alive connection closes
        "h11_max_incomplete_event_size": MAX_HEADERS,  # headers beyond this: 400
        "limit_concurrency": max_concurrency(),     # beyond: 503 at once, not a stall
        **options,
    }
    return uvicorn.Config(app, **settings)


#: uvicorn's knobs (issue 36, item 2; docs/web.md "Limits").
WS_PING_INTERVAL = 20.0
WS_PING_TIMEOUT = 20.0
KEEP_ALIVE = 5
MAX_HEADERS = 16 * 1024
#: File descriptors kept for the database, the bot workers' pipes, the log.
RESERVED_FDS = 128


def max_concurrency() -> int:
    """Connections and requests served at once: the process's file descriptors less
    :data:`RESERVED_FDS` (beyond it uvicorn answers 503 rather than run out of them)."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not on POSIX
        return 1000
    if soft == resource.RLIM_INFINITY:  # pragma: no cover
        return 60_000
    return max(64, int(soft) - RESERVED_FDS)


def _redact(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(serve_main())
