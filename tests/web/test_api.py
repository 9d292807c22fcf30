"""The JSON API: every endpoint and its error cases, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute

import pendragon
from pendragon.core import registry
from pendragon.games.soc.rules.game import SocGame
from pendragon.i18n import catalog
from pendragon.web.api_models import identified
from pendragon.web.manager import TableManager
from pendragon.web.routes_coach import coach_routes
from pendragon.web.routes_table import table_routes
from tests.web.support import LiveServer, auth, past_the_opening, view, wait_for

HUMAN_AND_BOTS = [{"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}]
THREE_HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]


def error_of(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}
    assert body["error"]["message"], "every error explains itself"
    error: dict[str, Any] = body["error"]
    return error


def seat_to_act(http: httpx.Client, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat (of three humans) whose turn it is, and its view."""
    for seat, token in enumerate(tokens):
        body = view(http, token)
        if body["state"]["legal"]:
            return seat, body
    raise AssertionError("nobody is to act")


# ---------------------------------------------------------------------- games and pages
def test_games_lists_soc_with_its_options_but_never_seed_or_players(server: LiveServer) -> None:
    with server.http() as http:
        body = http.get("/api/games").json()
    soc = next(g for g in body["games"] if g["name"] == "soc")
    names = {o["name"] for o in soc["options"]}
    specs = {s.name for s in pendragon.game_class("soc").option_specs}
    assert names == specs - {"players", "seed"}
    assert soc["min_players"] == 3 and soc["max_players"] >= 7
    assert "random" in body["bots"]
    assert body["languages"] == ["en", "ru", "cs", "pl"]


def test_a_game_offers_its_own_bots_and_no_other_game_seats_them(server: LiveServer) -> None:
    """soc's stealth traitor (GamePlugin.bots) is listed first (GamePlugin.table_bot) and
    seated at a soc table; a Grail Cup table refuses the name, saying which bots it knows."""
    with server.http() as http:
        body = http.get("/api/games").json()
        created = server.create(http, [{"kind": "human"}]
                                + [{"kind": "bot", "bot": "stealth"}] * 2)
        table = view(http, created["seats"][0]["token"])["table"]
        refused = http.post("/api/tables", json={
            "game": "grail-cup", "seats": [{"kind": "bot", "bot": "stealth"}] * 3})
        # soc's talking search plays only where every seat is a bot (SOC-TURN-3).
        among_bots = http.post("/api/tables", json={
            "game": "soc", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "talking"},
                                     {"kind": "bot"}]})
    listed = {g["name"]: g["bots"] for g in body["games"]}
    # soc's table bot comes first: a bot seat's default, the bot a seat is handed to.
    assert listed["soc"] == ["stealth", "heuristic", "ismcts", "random"]
    assert listed["grail-cup"] == body["bots"] == ["heuristic", "ismcts", "random"]
    assert [s["bot"] for s in table["seats"]] == [None, "stealth", "stealth"]
    assert table["bots"] == listed["soc"]
    assert refused.status_code == 400 and error_of(refused)["code"] == "bad_request"
    # The game's own bots are named; the client's word is not echoed (issue 36, item 8).
    assert error_of(refused)["message"] == ("seat 0: unknown bot; known bots: heuristic,"
                                            " ismcts, random")
    assert among_bots.status_code == 400 and error_of(among_bots)["message"] == (
        "seat 1: that bot plays only where every seat is a bot; this table's bots: stealth,"
        " heuristic, ismcts, random")


@pytest.mark.parametrize("path", ["/", "/table", "/replay", "/static/js/table.js",
                                  "/games/soc/board.js", "/i18n/pl.json"])
def test_pages_and_assets_are_served_with_security_headers(server: LiveServer, path: str) -> None:
    with server.http() as http:
        response = http.get(path)
    assert response.status_code == 200
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/i18n/de.json", "/i18n/..%2Fserver.py", "/static/../server.py",
                                  "/nowhere", "/games/chess/board.js", "/games/soc/../x.js"])
def test_unknown_files_are_404(server: LiveServer, path: str) -> None:
    with server.http() as http:
        response = http.get(path)
    assert response.status_code == 404
    assert "import" not in response.text


def test_the_page_messages_come_from_the_catalogs(server: LiveServer) -> None:
    with server.http() as http:
        polish = http.get("/i18n/pl.json").json()
    assert polish == catalog("pl").for_page()
    assert polish["core.cards"] == {"one": "{count} karta", "few": "{count} karty",
                                    "many": "{count} kart"}


def test_a_game_without_a_plugin_gets_the_generic_board_and_adapter(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    class PlainSoc(SocGame):
        """Shadows over Camelot registered without a plugin: no board module, no adapter."""

        name = "plain-soc"

    monkeypatch.setitem(registry._GAMES, "plain-soc", PlainSoc)
    with server.http() as http:
        generic = http.get("/games/plain-soc/board.js")
        soc = http.get("/games/soc/board.js")
        listed = {g["name"]: g for g in http.get("/api/games").json()["games"]}
        response = http.post("/api/tables", json={"game": "plain-soc",
                                                   "seats": [{"kind": "human"}] * 3})
        assert response.status_code == 201, response.text
        plain = view(http, response.json()["spectator"]["token"])
        # Joining mid-game is a table option, and only for a game that seats newcomers.
        refused = http.post("/api/tables", json={"game": "plain-soc", "join_mid_game": True,
                                                  "seats": [{"kind": "human"}] * 3})
        created = server.create(http, [{"kind": "human"}] * 3, join_mid_game=True)
        past_the_opening(http, created)  # VAR-JOIN: a newcomer waits for the first turn
        with_plugin = view(http, created["spectator"]["token"])
    assert generic.status_code == 200 and "text/javascript" in generic.headers["content-type"]
    assert "export function drawBoard" in generic.text and "drawPrivate" not in generic.text
    assert soc.status_code == 200 and "export function drawPrivate" in soc.text
    assert listed["soc"]["title"] == "Shadows over Camelot"
    assert listed["plain-soc"]["title"] == PlainSoc(dict(players=3)).info.long_name
    # The generic adapter seats nobody mid-game; the soc plugin's (VAR-JOIN) does.
    assert listed["plain-soc"]["join_mid_game"] is False and listed["soc"]["join_mid_game"]
    assert refused.status_code == 400 and error_of(refused)["code"] == "invalid_option"
    assert plain["table"]["can_join_new_seat"] is False
    assert with_plugin["table"]["can_join_new_seat"] is True


# ---------------------------------------------------------------------- creating tables
def test_create_returns_one_link_per_human_seat_and_a_spectator_link(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, HUMAN_AND_BOTS)
        assert [s["kind"] for s in created["seats"]] == ["human", "bot", "bot"]
        token = created["seats"][0]["token"]
        assert created["seats"][0]["link"] == f"/table#{token}"
        assert created["seats"][1]["token"] is None
        spectator = created["spectator"]["token"]
        assert len({token, spectator}) == 2 and len(token) > 40
        seat_view = view(http, token)
        spectator_view = view(http, spectator)
    assert seat_view["table"]["role"] == "seat" and seat_view["table"]["seat"] == 0
    assert seat_view["state"]["observation"]["seat"] == 0
    assert "you" in seat_view["state"]["observation"]
    assert spectator_view["table"]["role"] == "spectator"
    assert spectator_view["state"]["observation"]["seat"] is None
    assert "you" not in spectator_view["state"]["observation"]
    assert spectator_view["state"]["legal"] == []
    assert [s["name"] for s in seat_view["table"]["seats"]] == ["Ann", "", ""]
    assert "seed" not in seat_view["table"]["options"]


def test_a_new_table_has_dealt_its_cards_and_waits_for_a_seat(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        seat, body = seat_to_act(http, tokens)
    state = body["state"]
    assert state["version"] > 0, "the deal is part of the log"
    assert state["to_act"] == seat and state["to_act_controller"] == "human"
    assert all({"id", "text", "label"} == set(a) for a in state["legal"])
    # Each action carries its words as an event (the page words it in its language).
    assert all(a["label"]["k"].startswith("soc.action.") for a in state["legal"])
    assert state["decision"]["k"].startswith("soc.decision.")
    assert sum(state["observation"]["you"]["hand"].values()) == 6
    assert state["log"] and all({"i", "s", "events"} == set(line) for line in state["log"])


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess", "seats": [{"kind": "bot"}] * 3}, 400, "unknown_game"),
        ({"game": "soc", "seats": [{"kind": "bot"}] * 2}, 400, "invalid_option"),
        ({"game": "soc", "seats": [{"kind": "bot"}] * 3, "options": {"seed": 4}}, 400,
         "invalid_option"),
        ({"game": "soc", "seats": [{"kind": "bot"}] * 3, "options": {"players": 3}}, 400,
         "invalid_option"),
        ({"game": "soc", "seats": [{"kind": "bot"}] * 3, "options": {"share": "auction"}}, 400,
         "invalid_option"),
        ({"game": "soc", "seats": [{"kind": "bot"}] * 3, "options": {"colour": 1}}, 400,
         "unknown_option"),
        ({"game": "soc", "seats": [{"kind": "bot", "bot": "oracle"}] * 3}, 400, "bad_request"),
        ({"game": "soc", "seats": [{"kind": "human", "name": "x" * 41}] * 3}, 400,
         "bad_request"),
        ({"game": "soc", "seats": [{"kind": "alien"}] * 3}, 422, "invalid_request"),
        ({"game": "soc", "seats": [{"kind": "bot"}] * 17}, 422, "invalid_request"),
        ({"game": "soc", "seats": []}, 422, "invalid_request"),
        ({"game": "soc", "seats": [{"kind": "bot"}] * 3, "extra": 1}, 422, "invalid_request"),
        ({"game": 7, "seats": [{"kind": "bot"}] * 3}, 422, "invalid_request"),
    ],
)
def test_create_refuses_bad_tables_clearly(server: LiveServer, body: dict[str, Any], status: int,
                                          code: str) -> None:
    with server.http() as http:
        response = http.post("/api/tables", json=body)
    assert response.status_code == status, response.text
    assert error_of(response)["code"] == code


def test_a_table_of_too_few_or_too_many_seats_is_told_the_games_range(
    server: LiveServer,
) -> None:
    """A soc table of 2 seats was refused as "these options are not valid for soc; its
    options are share, ...": no word of its seats. The refusal names the range."""
    with server.http() as http:
        few = http.post("/api/tables", json={"game": "soc", "seats": [{"kind": "bot"}] * 2})
        many = http.post("/api/tables", json={"game": "grail-cup",
                                                "seats": [{"kind": "bot"}] * 16})
    assert error_of(few) == {"code": "invalid_option",
                             "message": "soc is played by 3 to 8 players; this table has 2 seats"}
    assert many.status_code == 400
    assert "grail-cup is played by" in error_of(many)["message"], error_of(many)


def test_malformed_and_oversized_bodies_are_4xx(server: LiveServer) -> None:
    with server.http() as http:
        broken = http.post("/api/tables", content=b"{not json",
                           headers={"Content-Type": "application/json"})
        huge = http.post("/api/tables", content=b"x" * (70 * 1024),
                         headers={"Content-Type": "application/json"})
    assert broken.status_code == 400 and error_of(broken)["code"] == "bad_request"
    assert huge.status_code == 413 and error_of(huge)["code"] == "too_large"


# ---------------------------------------------------------------------- tokens
@pytest.mark.parametrize(
    "header",
    [None, "Basic abc", "Bearer", "Bearer nonsense",
     "Bearer aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbb"],
)
def test_missing_or_wrong_tokens_are_401(server: LiveServer, header: str | None) -> None:
    headers = {"Authorization": header} if header else {}
    with server.http() as http:
        response = http.get("/api/table", headers=headers)
    assert response.status_code == 401
    assert error_of(response)["code"] == "unauthorized"


def token_routes() -> list[APIRoute]:
    """Every route reached with a table's token: the table's and the coach's routers."""
    def no_manager() -> TableManager:
        raise AssertionError("building the routes asks for no manager")

    routers = (table_routes(no_manager), coach_routes(no_manager))
    return [route for router in routers for route in router.routes
            if isinstance(route, APIRoute)]


def test_every_table_route_identifies_its_caller_through_one_dependency(
        server: LiveServer) -> None:
    """Issue 41 item 1: each route reached with a table's token takes the caller from
    ``identified`` (none reads the header itself), and is refused 401 ``unauthorized``
    without a token, or with one no table knows, before its body's fields or its path are
    checked (a wrong field or path of a caller not identified is a 401, not a 422)."""
    routes = token_routes()
    assert len(routes) >= 22
    with server.http() as http:
        for route in routes:
            assert [d.call for d in route.dependant.dependencies] == [identified], route.path
            assert not route.dependant.header_params, route.path
            path = route.path.replace("{seat}", "x").replace("{version}", "x")
            for method in sorted(route.methods or ()):
                for headers in ({}, {"Authorization": "Bearer nonsense"}):
                    response = http.request(method, path, headers=headers,
                                            json={"no": "such field"})
                    assert response.status_code == 401, (method, path, response.text)
                    assert error_of(response)["code"] == "unauthorized"


def test_a_token_with_a_real_table_but_a_forged_secret_is_refused(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, HUMAN_AND_BOTS)
        table_id = created["table"]
        forged = f"{table_id}.{'A' * 32}"
        response = http.get("/api/table", headers=auth(forged))
    assert response.status_code == 401


# ---------------------------------------------------------------------- moves
def test_moves_are_checked_applied_and_versioned(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        seat, body = seat_to_act(http, tokens)
        version = body["state"]["version"]
        legal = body["state"]["legal"]
        other = tokens[(seat + 1) % 3]

        # Not your turn: the other seat's token cannot move for this seat.
        response = http.post("/api/table/move", headers=auth(other),
                             json={"version": version, "action": legal[0]["id"]})
        assert response.status_code == 409 and error_of(response)["code"] == "not_your_turn"
        # A stale version is refused and nothing changes.
        response = http.post("/api/table/move", headers=auth(tokens[seat]),
                             json={"version": version - 1, "action": legal[0]["id"]})
        assert response.status_code == 409 and error_of(response)["code"] == "stale_version"
        # An id outside the catalog, and a text naming no action.
        for action in (10**6, "dance:wildly"):
            response = http.post("/api/table/move", headers=auth(tokens[seat]),
                                 json={"version": version, "action": action})
            assert response.status_code == 400
            assert error_of(response)["code"] == "malformed_action"
        # A catalog action that is not legal now.
        legal_ids = {a["id"] for a in legal}
        illegal = next(a for a in range(300) if a not in legal_ids)
        response = http.post("/api/table/move", headers=auth(tokens[seat]),
                             json={"version": version, "action": illegal})
        assert response.status_code == 409 and error_of(response)["code"] == "illegal_action"
        # Wrong types.
        response = http.post("/api/table/move", headers=auth(tokens[seat]),
                             json={"version": str(version), "action": legal[0]["id"]})
        assert response.status_code == 422
        # A spectator cannot move.
        response = http.post("/api/table/move", headers=auth(created["spectator"]["token"]),
                             json={"version": version, "action": legal[0]["id"]})
        assert response.status_code == 403 and error_of(response)["code"] == "forbidden"
        assert view(http, tokens[seat])["state"]["version"] == version, "nothing changed"

        # The move by its text form.
        response = http.post("/api/table/move", headers=auth(tokens[seat]),
                             json={"version": version, "action": legal[-1]["text"]})
        assert response.status_code == 200, response.text
        new_version = response.json()["version"]
        assert new_version > version
        assert view(http, tokens[seat])["state"]["version"] == new_version
        # Replaying the same request is now stale.
        response = http.post("/api/table/move", headers=auth(tokens[seat]),
                             json={"version": version, "action": legal[-1]["text"]})
        assert response.status_code == 409 and error_of(response)["code"] == "stale_version"


def test_every_move_is_stored_before_it_is_acknowledged(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        seat, body = seat_to_act(http, tokens)
        response = http.post("/api/table/move", headers=auth(tokens[seat]),
                             json={"version": body["state"]["version"],
                                   "action": body["state"]["legal"][0]["id"]})
        version = response.json()["version"]
    stored = server.manager.store.storage.load_table(created["table"])
    assert stored is not None and len(stored.actions) == version
    live = server.manager.tables[created["table"]].state
    assert list(stored.actions) == live.history()


def test_a_game_against_bots_plays_to_the_end(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, HUMAN_AND_BOTS)
        token = created["seats"][0]["token"]
        for _ in range(2000):
            body = wait_for(http, token, lambda b: b["state"]["finished"] or b["state"]["legal"])
            state = body["state"]
            if state["finished"]:
                break
            http.post("/api/table/move", headers=auth(token),
                      json={"version": state["version"], "action": state["legal"][0]["id"]})
        else:
            raise AssertionError("the game did not end")
    assert state["observation"]["status"] in ("loyal-win", "evil-win")
    assert state["returns"] in ([1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]) or len(state["returns"]) == 3


# ---------------------------------------------------------------------- chat and names
def test_chat_is_limited_rate_limited_and_closed_to_spectators(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, HUMAN_AND_BOTS)
        token = created["seats"][0]["token"]
        spectator = created["spectator"]["token"]
        ok = http.post("/api/table/chat", headers=auth(token),
                       json={"text": "<b>Hail</b>, knights!\u0000"})
        assert ok.status_code == 200
        lines = view(http, spectator)["chat"]
        assert lines[-1]["text"] == "<b>Hail</b>, knights!" and lines[-1]["name"] == "Ann"
        assert http.post("/api/table/chat", headers=auth(spectator),
                         json={"text": "hi"}).status_code == 403
        assert http.post("/api/table/chat", headers=auth(token),
                         json={"text": "   "}).status_code == 400
        too_long = http.post("/api/table/chat", headers=auth(token), json={"text": "x" * 501})
        assert too_long.status_code == 400 and "500" in error_of(too_long)["message"]
        statuses = [
            http.post("/api/table/chat", headers=auth(token), json={"text": f"line {i}"})
            .status_code
            for i in range(6)
        ]
        assert statuses[:4] == [200] * 4 and statuses[-1] == 429


def test_players_rename_their_own_seat_only(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, HUMAN_AND_BOTS)
        token = created["seats"][0]["token"]
        assert http.post("/api/table/name", headers=auth(token),
                         json={"name": "Sir Ann"}).status_code == 200
        assert view(http, token)["table"]["seats"][0]["name"] == "Sir Ann"
        assert http.post("/api/table/name", headers=auth(created["spectator"]["token"]),
                         json={"name": "x"}).status_code == 403
        assert http.post("/api/table/name", headers=auth(token),
                         json={"name": "y" * 41}).status_code == 400


# ---------------------------------------------------------------------- seats: bots, newcomers
def test_a_present_player_cannot_be_replaced_but_may_hand_over_and_reclaim(
    server: LiveServer,
) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        # Seat 1's player is not "away" (away_after is an hour in these tests).
        response = http.post("/api/table/seats/1/bot", headers=auth(tokens[0]),
                             json={"bot": "random"})
        assert response.status_code == 409 and error_of(response)["code"] == "player_present"
        assert http.post("/api/table/seats/1/bot", headers=auth(tokens[0]),
                         json={"bot": "oracle"}).status_code == 400
        assert http.post("/api/table/seats/9/bot", headers=auth(tokens[1]),
                         json={}).status_code == 404
        # A player hands his own seat to a bot, and takes it back.
        assert http.post("/api/table/seats/1/bot", headers=auth(tokens[1]),
                         json={"bot": "random"}).status_code == 200
        seats = view(http, tokens[0])["table"]["seats"]
        # The bot keeps the seat warm for its owner: owned, not free (issue 17, item 2).
        assert seats[1]["controller"] == "bot" and seats[1]["owned"] and not seats[1]["free"]
        assert http.post("/api/table/reclaim", headers=auth(tokens[1])).status_code == 200
        assert view(http, tokens[0])["table"]["seats"][1]["controller"] == "human"
        again = http.post("/api/table/reclaim", headers=auth(tokens[1]))
        assert again.status_code == 409 and error_of(again)["code"] == "not_a_bot_seat"


def test_a_newcomer_takes_a_free_bot_seat_only_by_the_hosts_invitation(
    server: LiveServer,
) -> None:
    # docs/web.md, "Seats that change hands" (issue 17, items 1-2): a seat handed to a bot
    # stays its owner's; a free seat (a bot seat nobody owns) goes to the host's invitee.
    with server.http() as http:
        created = server.create(http, [*THREE_HUMANS[:2], {"kind": "bot"}])
        tokens = [s["token"] for s in created["seats"][:2]]
        spectator, host = created["spectator"]["token"], created["host"]["token"]
        assert http.post("/api/table/seats/1/bot", headers=auth(tokens[1]),
                         json={}).status_code == 200
        owned = http.post("/api/table/seats/1/invite", headers=auth(host))
        assert owned.status_code == 409 and error_of(owned)["code"] == "seat_owned"
        # Neither a spectator nor a seated player takes the free seat.
        assert http.post("/api/table/seats/2/take", headers=auth(spectator),
                         json={"name": "Dee"}).status_code == 403
        assert http.post("/api/table/seats/2/take", headers=auth(tokens[0]),
                         json={}).status_code == 403
        invitation = http.post("/api/table/seats/2/invite", headers=auth(host)).json()["token"]
        response = http.post("/api/table/seats/2/take", headers=auth(invitation),
                             json={"name": "Dee"})
        assert response.status_code == 200, response.text
        assert response.json()["token"] == invitation  # the invitation is now seat 2's link
        body = view(http, invitation)
        assert body["table"]["seat"] == 2 and body["table"]["seats"][2]["name"] == "Dee"
        assert body["table"]["seats"][2]["controller"] == "human"
        assert http.post("/api/table/reclaim", headers=auth(tokens[1])).status_code == 200
    stored = server.manager.store.storage.load_table(created["table"])
    assert stored is not None and stored.seats[2].name == "Dee"


def test_a_gone_player_can_be_replaced_by_a_bot_which_then_plays(database: str) -> None:
    from pendragon.web.settings import Settings
    from tests.web.support import live_server

    with live_server(database, Settings(bot_delay=0, away_after=0, bot_threads=1)) as srv, \
            srv.http() as http:
        created = srv.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        seat, body = seat_to_act(http, tokens)
        version = body["state"]["version"]
        helper = tokens[(seat + 1) % 3]
        # Nobody is connected to the seat: with away_after=0 it counts as gone.
        response = http.post(f"/api/table/seats/{seat}/bot", headers=auth(helper),
                             json={"bot": "random"})
        assert response.status_code == 200, response.text
        after = wait_for(http, helper, lambda b: b["state"]["version"] > version)
        assert after["table"]["seats"][seat]["controller"] == "bot"
        # The seat's own link still opens it (read-only while the bot plays).
        mine = view(http, tokens[seat])
        assert mine["state"]["legal"] == []


# ---------------------------------------------------------------------- replay
def test_replay_opens_only_when_the_game_is_over(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, HUMAN_AND_BOTS)
        token = created["seats"][0]["token"]
        response = http.get("/api/replay", headers=auth(token))
        assert response.status_code == 409 and error_of(response)["code"] == "not_finished"
        assert http.get("/api/replay/0", headers=auth(token)).status_code == 409


def test_replay_of_a_finished_game_reveals_every_seat(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, [{"kind": "bot"}] * 3)
        spectator = created["spectator"]["token"]
        final = wait_for(http, spectator, lambda b: b["state"]["finished"])
        length = final["state"]["version"]
        replay = http.get("/api/replay", headers=auth(spectator)).json()
        assert replay["length"] == length and len(replay["steps"]) == length
        position = http.get(f"/api/replay/{length}", headers=auth(spectator)).json()
        start = http.get("/api/replay/0", headers=auth(spectator)).json()
        assert http.get(f"/api/replay/{length + 1}", headers=auth(spectator)).status_code == 400
        assert http.get("/api/replay/-1", headers=auth(spectator)).status_code == 400
    assert [o["seat"] for o in position["observations"]] == [0, 1, 2]
    assert all(o["you"]["loyalty"] in ("loyal", "traitor") for o in position["observations"])
    assert position["spectator"] == final["state"]["observation"]
    assert start["version"] == 0
    keys = [event["k"] for step in replay["steps"] for event in step["events"]]
    assert keys.count("soc.log.dealt-loyalty-known") == 3, "the replay names every loyalty card"
    assert "soc.log.draw-white" not in keys, "the replay names every white card drawn"
    assert "seed" not in str(replay)


def test_a_newcomer_joins_with_a_knight_of_his_own_where_the_rules_allow(
    server: LiveServer,
) -> None:
    state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    if not hasattr(state, "can_join"):
        pytest.skip("the soc state has no join operation (VAR-JOIN) yet")
    with server.http() as http:
        # Joining mid-game is the host's option (issue 17, item 3), and needs his consent.
        created = server.create(http, THREE_HUMANS, join_mid_game=True)
        spectator, host = created["spectator"]["token"], created["host"]["token"]
        assert view(http, spectator)["state"]["can_join"] is False  # the opening cards first
        past_the_opening(http, created)
        before = view(http, spectator)
        assert before["state"]["can_join"] is True
        assert http.post("/api/table/join", headers=auth(created["seats"][0]["token"]),
                         json={"name": "Dee"}).status_code == 403
        assert http.post("/api/table/join", headers=auth(spectator),
                         json={"name": "Dee"}).status_code == 403
        response = http.post("/api/table/join", headers=auth(host), json={"name": "Dee"})
        assert response.status_code == 200, response.text
        joined = response.json()
        assert joined["seat"] == 3
        mine = view(http, joined["token"])
        assert mine["table"]["seat"] == 3 and len(mine["table"]["seats"]) == 4
        assert mine["table"]["seats"][3] == {**mine["table"]["seats"][3], "name": "Dee",
                                             "controller": "human"}
        observation = mine["state"]["observation"]
        assert len(observation["knights"]) == 4 and sum(observation["you"]["hand"].values()) == 5
        assert any(event == {"k": "soc.log.join", "p": {"seat": {"seat": 3}}}
                   for line in mine["state"]["log"] for event in line["events"])
        # A fifth seat is refused once no loyalty card is left... or allowed: the rules say.
        again = http.post("/api/table/join", headers=auth(host), json={"name": "Eve"})
        assert again.status_code in (200, 409)
        if again.status_code == 409:
            assert again.json()["error"]["code"] == "cannot_join"
