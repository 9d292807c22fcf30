"""The site's routes: the pages (lobby, table, replay), their translations, each game's
board module, and the server's health and latency figures."""

from __future__ import annotations

import functools
import json
import logging
import re
import string
from collections.abc import Awaitable, Callable
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

import pendragon
from pendragon.core.plugins import plugin_for
from pendragon.i18n import LANGUAGES, catalog
from pendragon.web.errors import TableError
from pendragon.web.manager import TableManager
from pendragon.web.watchers import Metrics

log = logging.getLogger("pendragon.web")

WEB_DIR = Path(__file__).resolve().parent
STATIC_DIR = WEB_DIR / "static"
#: The board module of a game whose plugin has none: the observation as a readable table.
GENERIC_BOARD = STATIC_DIR / "js" / "generic_board.js"
#: Every page is one shell (``static/page.html``) with its script and body class: path →
#: (the module under ``static/js/`` that draws it, the page's name).
PAGES: dict[str, tuple[str, str]] = {
    "/": ("lobby", "index"),
    "/table": ("table", "table"),
    "/replay": ("replay", "replay"),
}


@functools.cache
def page_html(path: str) -> bytes:
    """The page served at ``path`` (one of :data:`PAGES`), made once from the shell.

    >>> b'src="/static/js/table.js"' in page_html("/table")
    True
    >>> b'class="page-index"' in page_html("/")
    True
    """
    script, name = PAGES[path]
    shell = string.Template((STATIC_DIR / "page.html").read_text(encoding="utf-8"))
    return shell.substitute(script=script, page=name).encode()


#: The rules pages, as package data: ``pendragon/web/rules`` is the project's ``docs/rules``
#: (a link in the source tree, copied into the wheel by ``[tool.setuptools.package-data]``),
#: found through :mod:`importlib.resources` so that an installed server has them too. It
#: holds each game's rules reference (``<game>.md``, and ``<game>-expansion.md`` where a
#: game has one) and its players' page in each language (``play/<game>.<language>.md``).
RULES_DIR = Path(str(resources.files("pendragon.web").joinpath("rules")))
RULES_PAGE = string.Template("""<!doctype html>
<html lang="$lang"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="stylesheet" href="/static/css/style.css">
<link rel="stylesheet" href="/static/css/extras.css">
</head><body class="page-rules"><header class="top"><a href="/" class="home">Pendragon</a>
<span class="game-name">$title</span></header>
<main class="rules" data-testid="rules">$note
$body$more
</main></body></html>
""")
#: The links between the rules pages as the Markdown writes them (relative paths, so that
#: the files read well in the repository too), and the page each stands for on the site.
_PLAY_LINK = re.compile(r'href="play/([a-z0-9-]+)\.([a-z]{2})\.md"')
_REFERENCE_LINK = re.compile(r'href="\.\./([a-z0-9-]+)\.md"')


def _site_links(html: str, language: str) -> str:
    """``html`` with the rules pages' links to one another made the site's addresses (a
    reference opened from a page keeps the page's ``language`` for its note); any other
    relative ``.md`` link loses its address (this server serves no other file)."""
    html = _PLAY_LINK.sub(lambda m: f'href="/rules/{m[1]}?lang={m[2]}"', html)
    html = _REFERENCE_LINK.sub(
        lambda m: f'href="/rules/{m[1]}/reference?lang={language}" data-testid="rules-other"',
        html)
    return re.sub(r'href="(?![a-z]+:|/|#)[^"]*\.md(#[^"]*)?"', 'href="#"', html)


def _markdown(text: str, language: str) -> str:
    """The project's own Markdown as HTML, raw HTML off, for a page in ``language``."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return _site_links(html, language)


def _game_title(game: str, language: str, key: str) -> str:
    words = catalog(language)
    name = words.text(f"game.{game}") if f"game.{game}" in words else game
    return words.text(key, game=name)


def play_page_path(game: str, language: str) -> tuple[Path, str] | None:
    """The players' rules page of ``game`` (a registered game's name, never a client's
    text) in ``language`` (one of :data:`LANGUAGES`), else in English, with the language it
    is in; ``None`` when the game has none."""
    for wanted in dict.fromkeys((language, "en")):
        path = RULES_DIR / "play" / f"{game}.{wanted}.md"
        if path.is_file():
            return path, wanted
    return None


@functools.cache
def rules_html(game: str, language: str) -> bytes | None:
    """The players' rules page of ``game`` (a registered game's name) in ``language`` (one
    of :data:`LANGUAGES`; English where the game has no page in it), or its rules reference
    where it has no players' page, or ``None`` when this server has neither (issue 39,
    item 12)."""
    found = play_page_path(game, language)
    if found is None:
        return reference_html(game, language)
    path, written_in = found
    title = _game_title(game, language, "rules.play_title")
    # The page ends with its link to the reference (``../<game>.md``).
    return RULES_PAGE.substitute(
        lang=written_in, title=escape(title), note="", more="",
        body=_markdown(path.read_text(encoding="utf-8"), language)).encode()


@functools.cache
def reference_html(game: str, language: str) -> bytes | None:
    """The rules reference of ``game`` (a registered game's name) with its note in
    ``language`` (one of :data:`LANGUAGES`), or ``None`` when this server has none. The
    reference is the project's own Markdown, in English, rendered with raw HTML off."""
    parts = [RULES_DIR / f"{game}.md", RULES_DIR / f"{game}-expansion.md"]
    texts = [part.read_text(encoding="utf-8") for part in parts if part.is_file()]
    if not texts:
        return None
    words = catalog(language)
    note = (f'<p class="notice info" data-testid="rules-note">'
            f'{escape(words.text("rules.note"))}</p>')
    page = RULES_PAGE.substitute(
        lang="en", title=escape(_game_title(game, language, "rules.title")), note=note,
        body=_markdown("\n\n".join(texts), language),
        more=(f'\n<p class="rules-more"><a href="/rules/{game}?lang={language}"'
              f' data-testid="rules-other">{escape(words.text("rules.to_play"))}</a></p>'))
    return page.encode()


@functools.cache
def _page_messages(language: str) -> bytes:
    """``/i18n/<language>.json``: every message of ``language`` for the pages, encoded once
    (plural messages as ``{cldr_category: text}``)."""
    return json.dumps(catalog(language).for_page(), ensure_ascii=False).encode()


def site_routes(manager: Callable[[], TableManager]) -> APIRouter:
    """The pages, translations, board modules, health and metrics (``manager``: the
    running table manager)."""
    router = APIRouter()

    # -------------------------------------------------------------- pages
    def page(path: str) -> Callable[[], Awaitable[HTMLResponse]]:
        """A route serving the page at ``path``."""
        async def serve_page() -> HTMLResponse:
            """The page."""
            return HTMLResponse(page_html(path), headers={"Cache-Control": "no-cache"})

        return serve_page

    for path in PAGES:
        router.get(path, include_in_schema=False)(page(path))

    @router.get("/i18n/{language}.json", include_in_schema=False)
    async def translations(language: str) -> Response:
        """One language's messages: the interface's and every installed game's."""
        if language not in LANGUAGES:
            raise TableError("not_found", "no such translation", 404)
        return Response(_page_messages(language), media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    @router.get("/games/{name}/board.js", include_in_schema=False)
    async def board_module(name: str) -> FileResponse:
        """The board module of game ``name``: its plugin's, or the generic one."""
        if name not in pendragon.registered_games():
            raise TableError("not_found", "no such game", 404)
        plugin = plugin_for(name)
        path = plugin.web_module_path() if plugin is not None else None
        if path is not None and not path.is_file():
            log.error("game %s: its board module %s is missing", name, path)
            raise TableError("not_found", f"the board module of {name!r} is missing", 404)
        return FileResponse(path or GENERIC_BOARD, media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    def registered(name: str) -> str:
        """``name`` as the registered game's own name; a fixed 404 for anything else (a
        client's text never reaches a path, nor the answer)."""
        for game in pendragon.registered_games():
            if game == name:
                return game
        raise TableError("not_found", "no such game", 404)

    def rules_response(page: bytes | None) -> HTMLResponse:
        if page is None:
            raise TableError("not_found", "this server has no rules page for the game", 404)
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    @router.get("/rules/{name}", include_in_schema=False)
    async def rules_page(name: str, lang: str = "en") -> HTMLResponse:
        """The players' rules page of game ``name`` (a link at the table opens it) in the
        page's language ``lang``, else in English."""
        return rules_response(rules_html(registered(name), lang if lang in LANGUAGES else "en"))

    @router.get("/rules/{name}/reference", include_in_schema=False)
    async def rules_reference(name: str, lang: str = "en") -> HTMLResponse:
        """The rules reference of game ``name`` (English, with rule IDs and rulings), its
        note in the page's language ``lang``."""
        return rules_response(
            reference_html(registered(name), lang if lang in LANGUAGES else "en"))

    # -------------------------------------------------------------- the server's state
    @router.get("/api/health")
    async def health() -> dict[str, Any]:
        """Liveness check."""
        return {"ok": True, "tables_loaded": len(manager().tables)}

    @router.get("/api/metrics")
    async def metrics(request: Request) -> dict[str, Any]:
        """Move-to-push latencies and counters (with ``--metrics``)."""
        current = manager().metrics
        if current is None:
            raise TableError("not_found", "metrics are off (serve with --metrics)", 404)
        snapshot = current.snapshot()
        store = manager().store
        snapshot["commits"] = store.commits
        snapshot["writes"] = store.writes
        snapshot["tables_loaded"] = len(manager().tables)
        # The bot pool's queue and the hint searches under way (issue 36: the benchmark's
        # hint flood watches them drain).
        snapshot["bot_queue"] = manager().scheduler.queued()
        snapshot["hint_queue"] = manager().hint_scheduler.queued()
        snapshot["hint_searches"] = sum(manager().hint_searches.values())
        registry = getattr(request.app.state, "connections", None)
        if registry is not None:  # served by uvicorn_config: the connections per client
            snapshot["connections_most_by_one_client"] = max(registry.counts.values(),
                                                             default=0)
            snapshot["connections_refused"] = registry.refused
        return snapshot

    @router.post("/api/metrics/reset")
    async def reset_metrics() -> dict[str, Any]:
        """Start the figures afresh (the benchmark's warm-up ends)."""
        if manager().metrics is None:
            raise TableError("not_found", "metrics are off (serve with --metrics)", 404)
        manager().metrics = Metrics()
        return {"ok": True}

    return router
