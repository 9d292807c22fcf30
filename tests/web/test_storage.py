"""Event-sourced storage: restarts resume every table exactly; several server processes
share one PostgreSQL database without forking a game."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed

import pendragon
from pendragon.web.settings import Settings
from pendragon.web.storage import (
    AddChat,
    AppendActions,
    PutSeat,
    SeatRecord,
    Storage,
    TableRecord,
    normalize_url,
)
from pendragon.web.storage_schema import actions_table, rules_table
from tests.web.conftest import postgres_schema
from tests.web.support import FAST, Peer, auth, is_type, live_server, past_the_opening

THREE_HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]


def table_view(http: httpx.Client, token: str) -> dict[str, Any]:
    response = http.get("/api/table", headers=auth(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def play_moves(http: httpx.Client, tokens: list[str], count: int) -> None:
    for _ in range(count):
        for token in tokens:
            state = table_view(http, token)["state"]
            if state["legal"]:
                response = http.post("/api/table/move", headers=auth(token), json={
                    "version": state["version"], "action": state["legal"][-1]["id"]})
                assert response.status_code == 200, response.text
                break


def test_a_restarted_server_resumes_every_table_exactly(database: str) -> None:
    with live_server(database, FAST) as first, first.http() as http:
        created = first.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        play_moves(http, tokens, 12)
        http.post("/api/table/chat", headers=auth(tokens[0]), json={"text": "before"})
        before = [table_view(http, t) for t in tokens]
        serialized = first.manager.tables[created["table"]].state.serialize()
    with live_server(database, FAST) as second, second.http() as http:
        after = [table_view(http, t) for t in tokens]
        assert second.manager.tables[created["table"]].state.serialize() == serialized
        for old, new in zip(before, after, strict=True):
            assert new["state"] == old["state"]
            assert new["chat"][-1]["text"] == "before"
        play_moves(http, tokens, 3)
        assert table_view(http, tokens[0])["state"]["version"] > before[0]["state"]["version"]


def test_bot_tables_play_on_after_a_restart(database: str) -> None:
    slow = Settings(bot_delay=0.01, away_after=3600, bot_threads=1)
    with live_server(database, slow) as first, first.http() as http:
        created = first.create(http, [{"kind": "bot"}] * 3)
        spectator = created["spectator"]["token"]
        deadline = time.monotonic() + 10
        while table_view(http, spectator)["state"]["version"] < 60:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        stopped_at = table_view(http, spectator)["state"]["version"]
    with live_server(database, FAST) as second, second.http() as http:
        state = table_view(http, spectator)["state"]
        assert state["version"] >= stopped_at
        deadline = time.monotonic() + 30
        while not state["finished"]:
            assert time.monotonic() < deadline, "the resumed bots did not finish the game"
            time.sleep(0.05)
            state = table_view(http, spectator)["state"]


def test_a_table_whose_moves_no_longer_replay_is_refused_and_the_others_play_on(
    database: str,
) -> None:
    """A stored table whose moves the installed rules do not replay (played under an
    earlier version of them; here a move the catalog does not have), or that names another
    version of its game's rules (``Game.rules_version``: its moves would still replay, into
    another game), does not stop the server: its links get ``table_unplayable`` (HTTP 409,
    the page's socket 4401 after the error), its rows stay as they were, and every other
    table resumes, one stored before tables named their rules among them."""
    with live_server(database, FAST) as first, first.http() as http:
        stale, sound, other, legacy = (first.create(http, THREE_HUMANS) for _ in range(4))
        for created in (stale, sound):
            play_moves(http, [s["token"] for s in created["seats"]], 4)
        before = table_view(http, sound["seats"][0]["token"])
    engine = sa.create_engine(normalize_url(database))
    with engine.begin() as db:
        version = pendragon.load_game("soc", players=3).rules_version
        assert db.execute(sa.select(rules_table.c.rules_version).where(
            rules_table.c.table_id == sound["table"])).scalar() == version
        db.execute(rules_table.update().where(rules_table.c.table_id == other["table"])
                   .values(rules_version=version + 1))
        db.execute(rules_table.delete().where(rules_table.c.table_id == legacy["table"]))
        last = sa.select(sa.func.max(actions_table.c.idx)).where(
            actions_table.c.table_id == stale["table"]).scalar_subquery()
        db.execute(actions_table.update().where(actions_table.c.table_id == stale["table"],
                                                 actions_table.c.idx == last)
                   .values(action=99_999))
        stored = db.execute(sa.select(actions_table.c.idx, actions_table.c.action).where(
            actions_table.c.table_id == stale["table"]).order_by(actions_table.c.idx)).all()
    engine.dispose()
    with live_server(database, FAST) as second, second.http() as http:
        for _ in range(2):  # refused again without another replay
            response = http.get("/api/table", headers=auth(stale["seats"][1]["token"]))
            assert response.status_code == 409, response.text
            assert response.json()["error"]["code"] == "table_unplayable"
        peer = Peer(second.ws_url, stale["seats"][0]["token"])
        error = peer.until(is_type("error"))
        assert error["code"] == "table_unplayable" and "another version" in error["message"]
        with pytest.raises(ConnectionClosed) as closed:
            peer.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        response = http.get("/api/table", headers=auth(other["seats"][0]["token"]))
        assert response.status_code == 409 and "another version" in response.text
        assert table_view(http, sound["seats"][0]["token"])["state"] == before["state"]
        play_moves(http, [s["token"] for s in sound["seats"]], 2)
        play_moves(http, [s["token"] for s in legacy["seats"]], 2)
    engine = sa.create_engine(normalize_url(database))
    with engine.connect() as db:
        assert db.execute(sa.select(actions_table.c.idx, actions_table.c.action).where(
            actions_table.c.table_id == stale["table"]).order_by(actions_table.c.idx)
        ).all() == stored
    engine.dispose()


def test_one_conflicting_write_does_not_undo_the_others(tmp_path: Any) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    seats = (SeatRecord(0, "A", "human", None, "h"), SeatRecord(1, "", "bot", "random", None))
    for table_id in ("table-one", "table-two"):
        storage.create_table(TableRecord(table_id, "soc", {}, 1, 0.0, "s", seats, (), False))
    results = storage.write_batch([
        AppendActions("table-one", 0, (1, 2), (-1, -1), False),
        AppendActions("table-two", 5, (3,), (0,), False),  # not the next index
        AddChat("table-two", 0, "A", "hello", 1.0),
        PutSeat("table-one", SeatRecord(1, "Bo", "human", None, "k")),
        AppendActions("table-one", 2, (4,), (1,), True),
    ])
    assert results[0] is None and results[4] is None
    assert type(results[1]).__name__ == "StaleLogError"
    assert isinstance(results[2], int)
    one = storage.load_table("table-one")
    two = storage.load_table("table-two")
    assert one is not None and two is not None
    assert one.actions == (1, 2, 4) and one.finished and one.seats[1].name == "Bo"
    assert two.actions == ()
    assert storage.unfinished_table_ids() == ["table-two"]
    assert [c.text for c in storage.chat_since("table-two", 0, 10)] == ["hello"]
    storage.close()


def test_two_server_processes_share_a_postgresql_database() -> None:
    """A move made through one server reaches a page connected to another (NOTIFY), and a
    move that lost the race is refused as stale instead of forking the game."""
    with postgres_schema() as url, live_server(url, FAST) as one, \
            live_server(url, FAST) as two, one.http() as http_one, two.http() as http_two:
        created = one.create(http_one, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        watcher = Peer(two.ws_url, created["spectator"]["token"])
        start = watcher.until(is_type("state"))
        actor, state = next(
            (i, table_view(http_one, t)["state"]) for i, t in enumerate(tokens)
            if table_view(http_one, t)["state"]["legal"]
        )
        response = http_one.post("/api/table/move", headers=auth(tokens[actor]), json={
            "version": state["version"], "action": state["legal"][0]["id"]})
        new_version = response.json()["version"]
        pushed = watcher.until(lambda m: m["type"] == "state" and m["version"] == new_version,
                               timeout=10)
        assert pushed["version"] > start["version"]
        # Server two still believes an older version is current only until it catches up;
        # a move on the old version through it is refused either way.
        late = http_two.post("/api/table/move", headers=auth(tokens[actor]), json={
            "version": state["version"], "action": state["legal"][0]["id"]})
        assert late.status_code == 409 and late.json()["error"]["code"] == "stale_version"
        stored = one.manager.store.storage.load_table(created["table"])
        assert stored is not None and len(stored.actions) == new_version
        watcher.close()


@pytest.mark.parametrize("url", ["mysql://x/y", "redis://z"])
def test_unsupported_databases_are_refused(url: str) -> None:
    from pendragon.web.server import create_app

    with pytest.raises(ValueError, match="unsupported database URL"):
        create_app(url)


def test_a_newcomer_who_joined_is_seated_again_after_a_restart(database: str) -> None:
    import pendragon

    state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    if not hasattr(state, "can_join"):
        pytest.skip("the soc state has no join operation (VAR-JOIN) yet")
    with live_server(database, FAST) as first, first.http() as http:
        # Joining needs the table's option and the host's consent (issue 17, item 3).
        created = first.create(http, THREE_HUMANS, join_mid_game=True)
        past_the_opening(http, created)  # VAR-JOIN: a newcomer waits for the first turn
        invitation = http.post("/api/table/join/invite",
                               headers=auth(created["host"]["token"])).json()["token"]
        joined = http.post("/api/table/join", headers=auth(invitation), json={"name": "Dee"})
        assert joined.status_code == 200, joined.text
        token = joined.json()["token"]
        before = table_view(http, token)
    with live_server(database, FAST) as second, second.http() as http:
        after = table_view(http, token)
        assert after["table"]["seat"] == 3 and after["table"]["seats"][3]["name"] == "Dee"
        assert after["state"] == before["state"]
