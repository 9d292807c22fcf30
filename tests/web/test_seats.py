"""Who may sit where (issue 17, items 1-3; docs/web.md, "Seats that change hands").

Each attack of the issue is refused at the API, with nothing changed; a seat handed to a
bot stays its owner's and his link takes it back; a seat no person owns is given by the
host (his link, or an invitation he issued for it); a token never obtains a second seat's
view; every change of hands is announced in the log, in every language; joining mid-game is
off unless the host turned it on, and needs his consent; all of it survives a restart, and
a database from before hosts still loads.
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import pendragon
from pendragon.core.events import Event
from pendragon.i18n import LANGUAGES, catalog
from pendragon.web import tables as tables_module
from pendragon.web.settings import Settings
from tests.web.support import FAST, LiveServer, auth, live_server, past_the_opening, view, wait_for

ANN_AND_TWO_BOTS = [{"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}]
THREE_HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]


def ann_to_act(body: dict[str, Any]) -> bool:
    """The table waits on seat 0 (Ann, the only person), so no bot will move."""
    return bool(body["state"]["observation"]["waiting"]["seat"] == 0)


def code_of(response: httpx.Response) -> tuple[int, str]:
    """The status and error code of a refused request."""
    return response.status_code, str(response.json()["error"]["code"])


def announcements(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The table's announcements (notice lines) in a view's log, oldest first."""
    return [event for line in body["state"]["log"] if line.get("notice")
            for event in line["events"]]


def take(http: httpx.Client, token: str, seat: int, name: str = "Dee",
         held: list[str] | None = None) -> httpx.Response:
    return http.post(f"/api/table/seats/{seat}/take", headers=auth(token),
                     json={"name": name, "held": held or []})


def invite(http: httpx.Client, host: str, seat: int) -> str:
    response = http.post(f"/api/table/seats/{seat}/invite", headers=auth(host))
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


# ---------------------------------------------------------------------- item 1
def test_item_1_the_spectator_link_takes_no_bot_seat_and_the_host_link_sees_no_secret(
    server: LiveServer,
) -> None:
    with server.http() as http:
        created = server.create(http, ANN_AND_TWO_BOTS)
        spectator, host = created["spectator"]["token"], created["host"]["token"]
        assert len({spectator, host, created["seats"][0]["token"]}) == 3
        before = view(http, spectator)
        # The attack: take a bot's seat with the spectator link (then hand it back).
        assert code_of(take(http, spectator, 1)) == (403, "forbidden")
        assert code_of(http.post("/api/table/seats/1/invite", headers=auth(spectator))) \
            == (403, "forbidden")
        # Compare the two links once the bots have played up to Ann's turn, where the
        # table waits: earlier, a bot's move may land between the two reads.
        after = wait_for(http, spectator, ann_to_act)
        hosted = view(http, host)
    assert after["table"]["seats"] == before["table"]["seats"]
    assert announcements(after) == []
    # The host's own link watches like a spectator: no hand, no loyalty, no moves.
    assert hosted["table"]["role"] == "host" and hosted["table"]["seat"] is None
    assert hosted["state"]["observation"] == after["state"]["observation"]
    assert "you" not in hosted["state"]["observation"] and hosted["state"]["legal"] == []


def test_item_1_a_seat_the_host_gives_is_a_new_link_and_the_table_is_told(
    server: LiveServer,
) -> None:
    with server.http() as http:
        created = server.create(http, ANN_AND_TWO_BOTS)
        host, ann = created["host"]["token"], created["seats"][0]["token"]
        response = take(http, host, 2, "Gawain")
        assert response.status_code == 200, response.text
        seated = response.json()["token"]
        mine = view(http, seated)
        hosted = view(http, host)
        told = view(http, ann)
    assert seated != host and mine["table"]["seat"] == 2 and "you" in mine["state"]["observation"]
    assert mine["table"]["seats"][2] == {**mine["table"]["seats"][2], "name": "Gawain",
                                         "controller": "human", "owned": True, "free": False}
    # The host link stays the host's and never becomes a seat.
    assert hosted["table"]["role"] == "host" and "you" not in hosted["state"]["observation"]
    assert announcements(told) == [{"k": "table.event.seated", "p": {"seat": {"seat": 2}}}]


# ---------------------------------------------------------------------- item 2
def test_item_2_a_seat_handed_to_a_bot_is_kept_for_its_owner_only(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        ann, bob, _cy = (s["token"] for s in created["seats"])
        spectator, host = created["spectator"]["token"], created["host"]["token"]
        assert http.post("/api/table/seats/1/bot", headers=auth(bob),
                         json={"bot": "random"}).status_code == 200
        # Nobody else takes it: not a spectator, not a player, not even the host.
        assert code_of(take(http, spectator, 1)) == (403, "forbidden")
        assert code_of(take(http, ann, 1)) == (403, "holds_seat")
        assert code_of(take(http, host, 1)) == (409, "seat_owned")
        assert code_of(http.post("/api/table/seats/1/invite", headers=auth(host))) \
            == (409, "seat_owned")
        # Its owner's link still opens it, and takes it back.
        kept = view(http, bob)
        assert kept["table"]["seat"] == 1 and "you" in kept["state"]["observation"]
        assert http.post("/api/table/reclaim", headers=auth(bob)).status_code == 200
        back = view(http, spectator)
    assert back["table"]["seats"][1]["controller"] == "human"
    assert [e["k"] for e in announcements(back)] == ["table.event.to-bot",
                                                     "table.event.reclaim"]
    assert announcements(back)[0]["p"] == {"seat": {"seat": 1}, "bot": {"term": "bot.random"}}


def test_item_2_a_seat_given_to_a_bot_while_its_player_was_away_stays_his(
    database: str,
) -> None:
    away_at_once = Settings(bot_delay=0, away_after=0, bot_threads=1)
    with live_server(database, away_at_once) as srv, srv.http() as http:
        created = srv.create(http, THREE_HUMANS)
        ann, bob, _cy = (s["token"] for s in created["seats"])
        host = created["host"]["token"]
        # Bob is gone (nobody connected, away_after=0): Ann lets a bot play for him.
        assert http.post("/api/table/seats/1/bot", headers=auth(ann),
                         json={"bot": "random"}).status_code == 200
        assert code_of(take(http, host, 1)) == (409, "seat_owned")
        assert code_of(take(http, ann, 1)) == (403, "holds_seat")
        assert http.post("/api/table/reclaim", headers=auth(bob)).status_code == 200
        body = view(http, bob)
    assert body["table"]["seat"] == 1 and body["table"]["seats"][1]["controller"] == "human"
    assert announcements(body)[0] == {"k": "table.event.to-bot-away", "p": {
        "seat": {"seat": 1}, "by": {"seat": 0}, "bot": {"term": "bot.random"}}}


def test_item_2_one_person_never_holds_two_seats(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, [*THREE_HUMANS[:2], {"kind": "bot"}, {"kind": "bot"}])
        ann, bob = (s["token"] for s in created["seats"][:2])
        host = created["host"]["token"]
        first = invite(http, host, 2)
        second = invite(http, host, 2)  # replaces the first
        assert code_of(take(http, first, 2)) == (401, "unauthorized")
        # An invitation opened by a client that holds Ann's seat (its page says so).
        assert code_of(take(http, second, 2, held=[ann])) == (403, "holds_seat")
        assert code_of(take(http, second, 3)) == (403, "forbidden")  # for seat 2 only
        # A player who gave his seat up holds none, but held one: refused all the same.
        assert http.post("/api/table/leave", headers=auth(bob), json={"bot": "random"}
                         ).status_code == 200
        assert code_of(http.get("/api/table", headers=auth(bob))) == (401, "seat_left")
        assert code_of(take(http, second, 2, held=[bob])) == (403, "holds_seat")
        assert code_of(take(http, host, 1, held=[bob])) == (403, "holds_seat")
        # Nothing was changed by the refusals: the invitation still works, once.
        response = take(http, second, 2, "Dee", held=[second, "junk", "x" * 90])
        assert response.status_code == 200, response.text
        assert response.json()["token"] == second
        assert code_of(take(http, second, 3)) == (403, "holds_seat")
        # Bob's seat is free now: the host may seat someone there.
        assert http.post("/api/table/seats/1/invite", headers=auth(host)).status_code == 200
        body = view(http, second)
    assert body["table"]["seat"] == 2 and body["table"]["seats"][1]["free"]
    assert [e["k"] for e in announcements(body)] == [
        "table.event.invited", "table.event.invited", "table.event.leave",
        "table.event.seated", "table.event.invited"]


def test_item_2_a_finished_game_takes_no_newcomer(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, [{"kind": "bot"}] * 3)
        host = created["host"]["token"]
        invitation = invite(http, host, 1)
        deadline = time.monotonic() + 60
        while not view(http, host)["state"]["finished"]:
            assert time.monotonic() < deadline, "the bots never finished"
            time.sleep(0.02)
        assert code_of(take(http, invitation, 1)) == (409, "game_over")
        assert code_of(http.post("/api/table/seats/0/invite", headers=auth(host))) \
            == (409, "game_over")


# ---------------------------------------------------------------------- item 3
def test_item_3_joining_mid_game_is_off_unless_the_host_turned_it_on(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        spectator, host = created["spectator"]["token"], created["host"]["token"]
        body = view(http, spectator)
        assert body["table"]["join_mid_game"] is False and body["state"]["can_join"] is False
        assert code_of(http.post("/api/table/join", headers=auth(spectator), json={})) \
            == (403, "forbidden")
        assert code_of(http.post("/api/table/join", headers=auth(host), json={})) \
            == (409, "join_off")
        assert code_of(http.post("/api/table/join/invite", headers=auth(host))) \
            == (409, "join_off")
        assert len(view(http, spectator)["table"]["seats"]) == 3


def test_item_3_with_the_option_on_a_newcomer_joins_only_with_the_hosts_consent(
    server: LiveServer,
) -> None:
    state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    if not hasattr(state, "can_join"):
        pytest.skip("the soc state has no join operation (VAR-JOIN)")
    with server.http() as http:
        created = server.create(http, THREE_HUMANS, join_mid_game=True)
        spectator, host = created["spectator"]["token"], created["host"]["token"]
        past_the_opening(http, created)
        assert view(http, spectator)["state"]["can_join"] is True
        assert code_of(http.post("/api/table/join", headers=auth(spectator), json={})) \
            == (403, "forbidden")
        assert code_of(http.post("/api/table/join/invite", headers=auth(spectator))) \
            == (403, "forbidden")
        invitation = http.post("/api/table/join/invite", headers=auth(host)).json()["token"]
        joined = http.post("/api/table/join", headers=auth(invitation), json={"name": "Dee"})
        assert joined.status_code == 200, joined.text
        assert joined.json() == {**joined.json(), "seat": 3, "token": invitation}
        again = http.post("/api/table/join", headers=auth(invitation), json={"name": "Eve"})
        body = view(http, invitation)
    assert code_of(again) == (403, "holds_seat")  # the invitation is now seat 3's link
    assert body["table"]["seat"] == 3 and len(body["table"]["seats"]) == 4
    assert [e["k"] for e in announcements(body)] == ["table.event.invited-join",
                                                     "table.event.joined"]


# ---------------------------------------------------------------------- persistence
def test_owners_hosts_invitations_and_announcements_survive_a_restart(database: str) -> None:
    with live_server(database, FAST) as first, first.http() as http:
        created = first.create(http, [*THREE_HUMANS, {"kind": "bot"}])
        ann, bob, cy = (s["token"] for s in created["seats"][:3])
        host = created["host"]["token"]
        invitation = invite(http, host, 3)
        assert http.post("/api/table/seats/1/bot", headers=auth(bob), json={}).status_code == 200
        assert http.post("/api/table/leave", headers=auth(cy), json={}).status_code == 200
        before = view(http, ann)
    with live_server(database, FAST) as second, second.http() as http:
        after = view(http, ann)
        assert announcements(after) == announcements(before)
        assert [e["k"] for e in announcements(after)] == [
            "table.event.invited", "table.event.to-bot", "table.event.leave"]
        assert view(http, host)["table"]["role"] == "host"
        assert code_of(http.get("/api/table", headers=auth(cy))) == (401, "seat_left")
        assert code_of(take(http, host, 1)) == (409, "seat_owned")
        assert http.post("/api/table/reclaim", headers=auth(bob)).status_code == 200
        assert take(http, invitation, 3).status_code == 200
        assert view(http, invitation)["table"]["seat"] == 3


def test_a_database_from_before_hosts_still_loads(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    with live_server(url, FAST) as first, first.http() as http:
        created = first.create(http, ANN_AND_TWO_BOTS)
    # An older version had none of the seat model's tables.
    with sqlite3.connect(tmp_path / "old.sqlite3") as conn:
        for name in ("pendragon_table_access", "pendragon_passes", "pendragon_notices"):
            conn.execute(f"DROP TABLE {name}")
    with live_server(url, FAST) as second, second.http() as http:
        body = view(http, created["seats"][0]["token"])
        # No host then: nobody may take its bot seats; joining is off.
        assert code_of(http.get("/api/table", headers=auth(created["host"]["token"]))) \
            == (401, "unauthorized")
        assert code_of(take(http, created["spectator"]["token"], 1)) == (403, "forbidden")
    assert body["table"]["seat"] == 0 and body["table"]["join_mid_game"] is False


# ---------------------------------------------------------------------- words
def test_every_announcement_has_words_in_every_language() -> None:
    # Every module of the table server that announces something (seats, lobby, pace...).
    source = "".join(path.read_text(encoding="utf-8")
                     for path in Path(tables_module.__file__).parent.glob("*.py"))
    keys = set(re.findall(r'"(table\.event\.[a-z-]+)"', source))
    assert len(keys) >= 11
    params = {"seat": {"seat": 1}, "by": {"seat": 0}, "bot": {"term": "bot.random"},
              "pace": {"term": "table.pace.1000"}}
    for language in LANGUAGES:
        words = catalog(language)
        for key in sorted(keys):
            event = Event.from_json({"k": key, "p": params})
            for reader in (None, 0, 1):
                text = words.render(event, lambda s: f"<{s}>", reader)
                assert text and "{" not in text, (language, key, reader, text)


def test_a_change_of_hands_written_by_another_process_reaches_this_one(tmp_path: Path) -> None:
    # Several processes share one database (PostgreSQL tells them to catch up; here the
    # catch-up is run by hand on SQLite): a seat given up elsewhere is lost here too.
    import asyncio

    from pendragon.web.security import hash_secret, parse_token
    from pendragon.web.storage import ChangeHands, PassRecord, SeatRecord, Storage
    from tests.web.support import Peer, is_type

    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with live_server(url, FAST) as srv, srv.http() as http:
        created = srv.create(http, THREE_HUMANS)
        bob = created["seats"][1]["token"]
        peer = Peer(srv.ws_url, bob)
        peer.until(is_type("chat"))
        other = Storage(url)
        try:
            other.write_batch([ChangeHands(
                created["table"], (SeatRecord(1, "", "bot", "random", None),),
                (PassRecord(hash_secret(parse_token(bob)[1]), "retired", 1),), (),
                {"k": "table.event.leave", "p": {"seat": {"seat": 1},
                                                 "bot": {"term": "bot.random"}}}, 3, 1.0)])
        finally:
            other.close()
        table = srv.manager.tables[created["table"]]
        loop = srv.manager._loop
        assert loop is not None
        asyncio.run_coroutine_threadsafe(table.catch_up(), loop).result(timeout=10)
        lost = peer.until(is_type("error"))
        peer.close()
        body = view(http, created["spectator"]["token"])
        refused = http.get("/api/table", headers=auth(bob))
    assert lost["code"] == "seat_left"
    assert code_of(refused) == (401, "seat_left")
    assert body["table"]["seats"][1]["free"]
    assert [e["k"] for e in announcements(body)] == ["table.event.leave"]


# ---------------------------------------------------------------------- default bot
def test_a_bot_seat_without_a_named_bot_gets_the_games_table_bot(server: LiveServer) -> None:
    """A bot seat at creation, a seat handed to a bot and a seat given up, each without
    ``bot``, get the game's table bot (soc: ``stealth``, the bot the lobby offers first and
    the turn timer plays), as in the lobby; a named bot is kept; Grail Cup's is its
    heuristic. (docs/web.md, the API table.)"""
    with server.http() as http:
        created = server.create(http, [*THREE_HUMANS, {"kind": "bot"},
                                       {"kind": "bot", "bot": "random"}])
        ann, bob, cy = (s["token"] for s in created["seats"][:3])
        assert http.post("/api/table/seats/1/bot", headers=auth(bob), json={}).status_code == 200
        assert http.post("/api/table/leave", headers=auth(cy), json={}).status_code == 200
        seats = view(http, ann)["table"]["seats"]
        assert [s["bot"] for s in seats] == [None, "stealth", "stealth", "stealth", "random"]
        grail = http.post("/api/tables", json={"game": "grail-cup", "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}]})
        assert grail.status_code == 201, grail.text
        seats = view(http, grail.json()["seats"][0]["token"])["table"]["seats"]
        assert [s["bot"] for s in seats] == [None, "heuristic", "heuristic"]
