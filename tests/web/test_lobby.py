"""What players of online board game sites expect (issue 17, item 10), over the JSON API:
the lobby's list of open tables and taking a free seat there, the rematch with the same
seats, and turn timers whose timed-out turn a bot plays (told in the log).

Each runs on SQLite and on PostgreSQL (skipped without ``PENDRAGON_TEST_POSTGRES``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from pendragon.web.narration import TIMED_OUT
from pendragon.web.settings import Settings
from pendragon.web.storage import AppendActions, SeatRecord, Storage, TableRecord
from tests.web.conftest import postgres_schema
from tests.web.support import FAST, LiveServer, auth, live_server, view

#: The web tests' settings (instant bots), and a one-second turn timer a host may choose.
SETTINGS = dataclasses.replace(FAST, turn_timers=(1, 30))
#: Two seats the host leaves open to anyone (the only ones a listed table offers), and a bot.
TWO_FREE_AND_A_BOT = [{"kind": "human", "name": "Ann", "open": True},
                      {"kind": "human", "open": True}, {"kind": "bot", "bot": "heuristic"}]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def lobby_server(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with instant bots and a 1 s turn timer among the host's choices."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'tables.sqlite3'}"
        with live_server(url, SETTINGS) as running:
            yield running
    else:
        with postgres_schema() as url, live_server(url, SETTINGS) as running:
            yield running


def create(http: httpx.Client, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = http.post("/api/tables", json={"game": "soc", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def lobby(http: httpx.Client) -> dict[str, dict[str, Any]]:
    """The lobby's open tables by id."""
    response = http.get("/api/lobby")
    assert response.status_code == 200, response.text
    return {entry["table"]: entry for entry in response.json()["tables"]}


def code_of(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


def sit(http: httpx.Client, table: str, seat: int, name: str = "Zed",
        held: tuple[str, ...] = ()) -> httpx.Response:
    return http.post(f"/api/lobby/{table}/seats/{seat}/sit",
                     json={"name": name, "held": list(held)})


def play_to_the_end(http: httpx.Client, tokens: list[str]) -> dict[str, Any]:
    """Every human seat plays its first legal move until the game is over."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for token in tokens:
            state: dict[str, Any] = view(http, token)["state"]
            if state["finished"]:
                return state
            if state["legal"]:
                http.post("/api/table/move", headers=auth(token),
                          json={"version": state["version"], "action": state["legal"][0]["id"]})
        time.sleep(0.005)
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------- the lobby's list
def test_the_lobby_lists_listed_tables_with_free_seats_and_never_private_ones(
    lobby_server: LiveServer,
) -> None:
    # Item 10: open tables with their free seats and options, beside private links.
    with lobby_server.http() as http:
        private = create(http, TWO_FREE_AND_A_BOT)
        older = create(http, TWO_FREE_AND_A_BOT, listed=True)
        listed = create(http, TWO_FREE_AND_A_BOT, listed=True, turn_timer=30,
                        options={"expansion": "merlins-company"})
        all_opened = create(http, [{"kind": "human", "open": True}, {"kind": "bot"},
                                   {"kind": "bot"}], listed=True)
        view(http, all_opened["seats"][0]["token"])  # its only person's seat is opened
        shown = lobby(http)
        order = [t for t in shown if t in (older["table"], listed["table"])]
    assert private["table"] not in shown, "a private table is reached by its links only"
    assert all_opened["table"] not in shown, "a table with no free seat is not listed"
    assert order == [listed["table"], older["table"]], "newest first"
    entry = shown[listed["table"]]
    assert entry["game"] == "soc" and entry["title"] == "Shadows over Camelot"
    assert entry["turn_timer"] == 30
    assert entry["options"]["expansion"] == "merlins-company" and "seed" not in entry["options"]
    assert [(s["seat"], s["kind"], s["free"]) for s in entry["seats"]] == [
        (0, "human", True), (1, "human", True), (2, "bot", False)]
    assert entry["seats"][0]["name"] == "Ann" and entry["seats"][2]["bot"] == "heuristic"
    assert "token" not in str(entry) and "hash" not in str(entry)


def test_a_finished_table_leaves_the_lobby(tmp_path: Path) -> None:
    # The list is read from the database: a game over is never offered.
    storage = Storage(f"sqlite:///{tmp_path / 't.sqlite3'}")
    seats = (SeatRecord(0, "", "human", None, "h0"), SeatRecord(1, "", "bot", "random", None))
    for created_at, table_id in enumerate(("open", "over")):
        storage.create_table(TableRecord(table_id, "soc", {}, 1, float(created_at), "s", seats,
                                         (), False, listed=True))
    assert [e.table_id for e in storage.listed_tables(10)] == ["over", "open"]
    storage.write_batch([AppendActions("over", 0, (1,), (-1,), True)])
    assert [e.table_id for e in storage.listed_tables(10)] == ["open"]
    storage.close()


def test_a_database_from_before_the_lobby_still_loads(tmp_path: Path) -> None:
    # Tables survive restarts; a database made before these tables existed loads as
    # private, untimed tables with no rematch.
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    storage = Storage(url)
    seats = (SeatRecord(0, "Ann", "human", None, "h0"),)
    storage.create_table(TableRecord("t1", "soc", {}, 1, 1.0, "s", seats, (3,), False,
                                     listed=True, turn_timer=30))
    with storage.engine.begin() as conn:
        for name in ("pendragon_table_lobby", "pendragon_seats_opened", "pendragon_timeouts",
                     "pendragon_table_start"):
            conn.execute(sa.text(f"DROP TABLE {name}"))
    storage.close()
    reopened = Storage(url)
    record = reopened.load_table("t1")
    assert record is not None and record.actions == (3,)
    assert (record.listed, record.turn_timer, record.rematch, record.opened) == (
        False, 0, None, frozenset())
    # Begun (as every table was before a game waited for its people), no seat open.
    assert (record.started, record.open_seats) == (True, frozenset())
    assert reopened.listed_tables(10) == []
    reopened.close()


# ---------------------------------------------------------------------- sitting down
def test_a_free_seat_is_taken_once_with_a_new_link(lobby_server: LiveServer) -> None:
    with lobby_server.http() as http:
        created = create(http, TWO_FREE_AND_A_BOT, listed=True)
        table = created["table"]
        taken = sit(http, table, 1, "Zed")
        assert taken.status_code == 200, taken.text
        token = taken.json()["token"]
        assert taken.json()["link"] == f"/table#{token}"
        mine = view(http, token)
        assert mine["table"]["seat"] == 1 and mine["table"]["role"] == "seat"
        assert [s["name"] for s in mine["table"]["seats"]][1] == "Zed"
        again = sit(http, table, 1, "Eve")
        # The creator's earlier link to that seat no longer opens it.
        old = http.get("/api/table", headers=auth(created["seats"][1]["token"]))
        free_now = [s["seat"] for s in lobby(http)[table]["seats"] if s["free"]]
        told = [e for line in view(http, token)["state"]["log"] for e in line["events"]]
    assert again.status_code == 409 and code_of(again) == "seat_taken"
    # Every change of hands is announced (issue 17, items 1-3), as what it was: a seat
    # taken from the lobby, not at the host's invitation (issue 27, item 9).
    assert {"k": "table.event.seated-lobby", "p": {"seat": {"seat": 1}}} in told
    assert old.status_code == 401
    assert free_now == [0]


def test_sitting_is_refused_at_an_opened_seat_a_bot_seat_and_a_private_table(
    lobby_server: LiveServer,
) -> None:
    with lobby_server.http() as http:
        listed = create(http, TWO_FREE_AND_A_BOT, listed=True)
        private = create(http, TWO_FREE_AND_A_BOT)
        view(http, listed["seats"][0]["token"])  # Ann opens her link: her seat is hers
        opened = sit(http, listed["table"], 0)
        bot = sit(http, listed["table"], 2)
        hidden = sit(http, private["table"], 1)
        nowhere = sit(http, "nosuchtable0", 0)
        no_seat = sit(http, listed["table"], 7)
        # Ann's browser, which holds seat 0, may not take seat 1 too: one person, one seat.
        second = sit(http, listed["table"], 1, held=(listed["seats"][0]["token"],))
        ann = view(http, listed["seats"][0]["token"])
    assert opened.status_code == 409 and code_of(opened) == "seat_taken"
    assert bot.status_code == 409 and code_of(bot) == "bot_seat"
    assert hidden.status_code == 404 and code_of(hidden) == "not_found"
    assert nowhere.status_code == 404
    assert no_seat.status_code == 404 and code_of(no_seat) == "unknown_seat"
    assert second.status_code == 403 and code_of(second) == "holds_seat"
    assert ann["table"]["seat"] == 0, "a refused claim changes nothing"


def test_a_seat_kept_for_a_named_person_is_never_listed_nor_taken_from_the_lobby(
    lobby_server: LiveServer,
) -> None:
    """Issue 27, item 2: a listed table's seats kept for "Host" and "Ann" (not left open to
    anyone) are not offered, even before their links are first opened; sitting there is
    refused (409 ``seat_reserved``) and the owner's link still opens the seat. Only the
    seat the host left open is listed and may be taken."""
    seats = [{"kind": "human", "name": "Host"}, {"kind": "human", "name": "Ann"},
             {"kind": "human", "open": True}]
    with lobby_server.http() as http:
        created = create(http, seats, listed=True)
        table = created["table"]
        offered = [(s["seat"], s["free"]) for s in lobby(http)[table]["seats"]]
        refused = [sit(http, table, seat, "Mallory") for seat in (0, 1)]
        owners = [http.get("/api/table", headers=auth(created["seats"][seat]["token"]))
                  for seat in (0, 1)]
        taken = sit(http, table, 2, "Zed")
        reserved_only = create(http, seats[:2] + [{"kind": "bot"}], listed=True)
        shown = lobby(http)
    assert offered == [(0, False), (1, False), (2, True)]
    assert all(r.status_code == 409 and code_of(r) == "seat_reserved" for r in refused)
    assert [o.status_code for o in owners] == [200, 200]
    assert [o.json()["table"]["seat"] for o in owners] == [0, 1]
    assert taken.status_code == 200, taken.text
    assert reserved_only["table"] not in shown, "no seat open to anyone: not listed"


def test_a_bad_turn_timer_is_refused_and_creates_nothing(lobby_server: LiveServer) -> None:
    with lobby_server.http() as http:
        before = set(lobby(http))
        response = http.post("/api/tables", json={"game": "soc", "seats": TWO_FREE_AND_A_BOT,
                                                   "listed": True, "turn_timer": 7})
        choices = http.get("/api/lobby").json()["turn_timers"]
        after = set(lobby(http))
    assert response.status_code == 400 and "turn_timer" in response.json()["error"]["message"]
    assert choices == [0, 1, 30]
    assert after == before


# ---------------------------------------------------------------------- rematch
def test_a_rematch_has_the_same_game_options_and_seats_and_each_gets_his_own_link(
    lobby_server: LiveServer,
) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
             {"kind": "bot", "bot": "heuristic"}]
    with lobby_server.http() as http:
        created = create(http, seats, options={"expansion": "merlins-company"}, turn_timer=30)
        tokens = [created["seats"][0]["token"], created["seats"][1]["token"]]
        spectator = created["spectator"]["token"]
        early = http.post("/api/table/rematch", headers=auth(tokens[0]))
        play_to_the_end(http, tokens)
        by_spectator = http.post("/api/table/rematch", headers=auth(spectator))
        proposed = http.post("/api/table/rematch", headers=auth(tokens[0]))
        assert proposed.status_code == 200, proposed.text
        ann = proposed.json()
        again = http.post("/api/table/rematch", headers=auth(tokens[1])).json()
        bob = view(http, tokens[1])["rematch"]
        bob_get = http.get("/api/table/rematch", headers=auth(tokens[1])).json()
        old_state = view(http, tokens[0])["state"]
        new_ann = view(http, ann["token"])
        new_bob = view(http, bob["token"])
        watcher = http.get("/api/table/rematch", headers=auth(spectator)).json()
        watching = view(http, watcher["token"])
        host = http.get("/api/table/rematch", headers=auth(created["host"]["token"])).json()
        hosting = view(http, host["token"])
    assert early.status_code == 409 and code_of(early) == "not_finished"
    assert by_spectator.status_code == 403
    assert again["table"] == ann["table"] != created["table"], "one rematch per game"
    assert old_state["rematch"] == ann["table"]
    # Each person's answer carries his own link only.
    assert ann["seat"] == 0 and bob["seat"] == 1 and bob_get == bob
    assert ann["token"] != bob["token"]
    assert ann["token"] not in str(bob) and bob["token"] not in str(ann)
    assert new_ann["table"]["seat"] == 0 and new_bob["table"]["seat"] == 1
    assert new_ann["table"]["id"] == ann["table"] and new_ann["table"]["rematch_of"] == (
        created["table"])
    info = new_ann["table"]
    assert info["game"] == "soc" and info["options"]["expansion"] == "merlins-company"
    assert info["turn_timer"] == 30
    assert [(s["name"], s["controller"], s["bot"]) for s in info["seats"]] == [
        ("Ann", "human", None), ("Bob", "human", None), ("", "bot", "heuristic")]
    assert not new_ann["state"]["finished"], "a new deal"
    assert watching["table"]["role"] == "spectator", "the spectators' link follows too"
    assert hosting["table"]["role"] == "host", "and the host's"
    assert len({ann["token"], bob["token"], watcher["token"], host["token"]}) == 4


# ---------------------------------------------------------------------- turn timers
def test_a_timed_out_turn_is_played_by_a_bot_and_the_log_says_so(
    tmp_path: Path,
) -> None:
    # Item 10: optional turn timers chosen by the host, a bot playing a timed-out turn.
    url = f"sqlite:///{tmp_path / 'timer.sqlite3'}"
    with live_server(url, SETTINGS) as running, running.http() as http:
        created = create(http, [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                {"kind": "bot"}], turn_timer=1)
        token = created["seats"][0]["token"]
        deadline = time.monotonic() + 60
        while True:  # Ann is to act: the state carries her deadline
            state = view(http, token)["state"]
            if state["legal"]:
                break
            assert time.monotonic() < deadline, "Ann was never to act"
            time.sleep(0.02)
        assert state["timer"]["seat"] == 0 and state["timer"]["seconds"] == 1
        assert 0 <= state["timer"]["remaining"] <= 1
        first = state["version"]
        while True:  # she does nothing: poll until the timer's bot has played for her
            body = view(http, token)
            notes = [line for line in body["state"]["log"]
                     if line["events"] and line["events"][0]["k"] == TIMED_OUT]
            if notes:
                break
            assert time.monotonic() < deadline, "the timer never played Ann's turn"
            time.sleep(0.05)
        line = notes[0]
        # The game's table bot played it: in soc the stealth traitor, which, had Ann held
        # the traitor card, would not have shown it (GamePlugin.table_bot).
        table = running.app.state.manager.tables[created["table"]]
        assert type(table._timeout_bots[0]).__name__ == "StealthTraitor"
    assert line["i"] == first and line["s"] == 0
    assert line["events"][0]["p"] == {"seat": {"seat": 0}}
    assert len(line["events"]) > 1, "the move itself is narrated after the note"
    # The note is stored: after a restart the log still says so.
    with live_server(url, SETTINGS) as again, again.http() as http:
        log = view(http, token)["state"]["log"]
    assert log[first]["events"][0]["k"] == TIMED_OUT


def test_the_servers_timeout_bot_plays_where_the_game_seats_it_and_a_bad_one_is_refused(
) -> None:
    # Item 10: the operator's ``Settings.timeout_bot`` plays a timed-out turn at the tables
    # of the games that seat it; at another game's table (stealth is soc's and the card
    # game's, not Grail Cup's) the game's table bot does, rather than failing at the first
    # timed-out turn; a name no table seats (a bot that plays only among bots, a typo)
    # stops the server from starting.
    from pendragon.web.turn_timer import timeout_bot

    assert [timeout_bot("stealth", g) for g in ("soc", "soc-card", "grail-cup")] == [
        "stealth", "stealth", "heuristic"]
    assert timeout_bot("random", "grail-cup") == "random"
    assert timeout_bot(None, "grail-cup") == "heuristic"
    assert Settings(timeout_bot="ismcts").timeout_bot == "ismcts"
    for bad in ("talking", "genius"):
        with pytest.raises(ValueError, match=f"timeout_bot '{bad}' is no table's bot"):
            Settings(timeout_bot=bad)


def test_a_table_without_a_timer_waits_for_its_player(lobby_server: LiveServer) -> None:
    with lobby_server.http() as http:
        created = create(http, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
        token = created["seats"][0]["token"]
        deadline = time.monotonic() + 60
        while not (state := view(http, token)["state"])["legal"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    assert state["timer"] is None
