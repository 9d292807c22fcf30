"""The lobby's routes: the games on offer, creating a table, the open tables and taking a
free seat of one (issue 17, item 10)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

import pendragon
from pendragon.bots import bot_names, table_bots
from pendragon.i18n import LANGUAGES, catalog
from pendragon.web.adapters import adapter_for
from pendragon.web.api_models import CreateTable, TakeSeat, link
from pendragon.web.errors import TableError
from pendragon.web.limits import client_address
from pendragon.web.manager import TableManager
from pendragon.web.options import remote_option_names
from pendragon.web.settings import Settings

log = logging.getLogger("pendragon.web")


def lobby_routes(manager: Callable[[], TableManager], settings: Settings) -> APIRouter:
    """``/api/games``, ``/api/tables``, ``/api/lobby`` and its seats (``manager``: the
    running table manager)."""
    router = APIRouter()


    @router.get("/api/games")
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

    @router.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; one link per human seat and one for spectators."""
        table, tokens, spectator = await manager().create(
            body.game, body.options, [seat.model_dump() for seat in body.seats],
            client=client_address(request.scope, settings.limits),
            listed=body.listed, turn_timer=body.turn_timer, join_mid_game=body.join_mid_game,
        )
        if body.hints:  # the host allows hints (issue 31, item 2): announced in the log
            await table.allow_hints_at_creation()
        host = table.pop_host_token()
        return {
            "table": table.table_id,
            "seats": [
                {"seat": i, "kind": "human" if token else "bot", "token": token,
                 "link": link(token) if token else None}
                for i, token in enumerate(tokens)
            ],
            "spectator": {"token": spectator, "link": link(str(spectator))},
            "host": {"token": host, "link": link(str(host))},
        }

    # -------------------------------------------------------------- lobby and rematch
    # Issue 17, item 10 (docs/web.md, "The lobby's open tables", "Rematch").
    @router.get("/api/lobby")
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

    @router.post("/api/lobby/{table_id}/seats/{seat}/sit")
    async def sit(table_id: str, seat: int, body: TakeSeat) -> dict[str, Any]:
        """Take a free seat of a listed table (one whose link nobody has opened)."""
        table = await manager().get(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise TableError("not_found", "there is no open table with this id", 404)
        token = await table.sit_from_lobby(seat, body.name, body.held)
        return {"ok": True, "table": table.table_id, "seat": seat, "token": token,
                "link": link(token)}

    return router
