"""The WebSocket protocol: hello, pushes, moves, chat, seats and every error case."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.web.support import LiveServer, Peer, auth, is_type, state_from

THREE_HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]


def join(server: LiveServer, token: str) -> tuple[Peer, dict[str, Any]]:
    """Connect with ``token``; returns the peer and its first state message."""
    peer = Peer(server.ws_url, token)
    welcome = peer.recv()
    assert welcome["type"] == "welcome", welcome
    state = peer.until(is_type("state"))
    return peer, state


def closed_code(peer: Peer) -> int | None:
    try:
        while True:
            peer.recv(timeout=5)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_hello_with_a_bad_token_is_refused_and_closed(server: LiveServer) -> None:
    peer = Peer(server.ws_url, "not-a-token")
    error = peer.recv()
    assert error["type"] == "error" and error["code"] == "unauthorized"
    assert closed_code(peer) == 4401


@pytest.mark.parametrize("first", ['{"type": "move"}', "not json", '["hello"]'])
def test_the_first_message_must_be_hello(server: LiveServer, first: str) -> None:
    peer = Peer(server.ws_url, None)
    peer.ws.send(first)
    assert closed_code(peer) == 4400


def test_a_seat_receives_welcome_its_view_chat_and_seats(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    peer = Peer(server.ws_url, created["seats"][1]["token"])
    kinds = [peer.recv()["type"] for _ in range(4)]
    assert kinds == ["welcome", "state", "chat", "seats"]
    welcome, state, _chat, seats = peer.received
    assert welcome["table"]["seat"] == 1 and welcome["table"]["role"] == "seat"
    assert state["observation"]["seat"] == 1 and "you" in state["observation"]
    assert seats["seats"][1]["connected"] is True and seats["seats"][0]["connected"] is False
    assert all(line["i"] == i for i, line in enumerate(state["log"]))
    peer.close()


def test_moves_over_the_socket_push_every_watcher_its_own_view(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    tokens = [s["token"] for s in created["seats"]]
    peers = [join(server, t) for t in tokens]
    spectator, _ = join(server, created["spectator"]["token"])
    actor = next(i for i, (_, state) in enumerate(peers) if state["legal"])
    peer, state = peers[actor]
    action = state["legal"][0]
    peer.send({"type": "move", "version": state["version"], "action": action["id"]})
    pushed = peer.until(lambda m: m["type"] == "state" and m["version"] > state["version"])
    for seat, (other, _) in enumerate(peers):
        message = pushed if seat == actor else other.until(
            lambda m: m["type"] == "state" and m["version"] == pushed["version"])
        assert message["observation"]["seat"] == seat
        assert message["log"] and message["log"][0]["i"] == state["version"], "only new lines"
    watched = spectator.until(lambda m: m["type"] == "state" and m["version"] == pushed["version"])
    assert "you" not in watched["observation"] and watched["legal"] == []
    for other, _ in peers:
        other.close()
    spectator.close()


def test_a_stale_move_is_refused_and_the_view_refreshed(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    peers = [join(server, s["token"]) for s in created["seats"]]
    actor = next(i for i, (_, state) in enumerate(peers) if state["legal"])
    peer, state = peers[actor]
    peer.send({"type": "move", "version": state["version"] - 3, "action": state["legal"][0]["id"]})
    error = peer.until(is_type("error"))
    assert error["code"] == "stale_version" and error["request"] == "move"
    refreshed = peer.until(is_type("state"))
    assert refreshed["version"] == state["version"] and refreshed["legal"] == state["legal"]
    for other, _ in peers:
        other.close()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "move", "version": "x", "action": 1}, "bad_request"),
        ({"type": "move", "version": 1, "action": True}, "malformed_action"),
        ({"type": "move", "version": 1, "action": "fly:away"}, "malformed_action"),
        ({"type": "move", "version": 1, "action": [1]}, "malformed_action"),
        ({"type": "dance"}, "bad_request"),
        ({"type": "chat", "text": 5}, "bad_request"),
        ({"type": "chat", "text": "x" * 600}, "bad_request"),
        ({"type": "seat_to_bot", "seat": "one"}, "unknown_seat"),
        ({"type": "seat_to_bot", "seat": 7, "bot": "random"}, "unknown_seat"),
        ({"type": "name", "name": None}, "bad_request"),
    ],
)
def test_bad_requests_get_a_clear_error_and_the_connection_lives(
    server: LiveServer, message: dict[str, Any], code: str
) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    peer, _ = join(server, created["seats"][0]["token"])
    peer.send(message)
    error = peer.until(is_type("error"))
    assert error["code"] == code and error["message"]
    peer.send({"type": "ping"})
    assert peer.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    peer.close()


def test_a_spectator_cannot_move_or_talk(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    peer, state = join(server, created["spectator"]["token"])
    peer.send({"type": "move", "version": state["version"], "action": 0})
    assert peer.until(is_type("error"))["code"] == "forbidden"
    peer.send({"type": "chat", "text": "hello"})
    assert peer.until(is_type("error"))["code"] == "forbidden"
    peer.close()


def test_binary_and_oversized_messages(server: LiveServer) -> None:
    """A message one character over the limit gets its error and the documented 1009."""
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    peer, _ = join(server, created["seats"][0]["token"])
    peer.ws.send(b"\x00\x01")
    assert peer.until(is_type("error"))["code"] == "bad_request"
    text = json.dumps({"type": "chat", "text": ""})
    peer.ws.send(text[:-2] + "y" * (8193 - len(text)) + text[-2:])
    assert "8192" in peer.until(is_type("error"))["message"]
    assert closed_code(peer) == 1009


@pytest.mark.parametrize(
    "text",
    [
        "[" * 3000 + "]" * 3000,
        '{"type": "ping", "x": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"type": "move", "version": 0, "action": ' + "9" * 5000 + "}",
        '{"type": "ping", "n": ' + "7" * 5000 + "}",
    ],
    ids=["nested", "nested-field", "long-action", "long-ping-field"],
)
def test_deep_nesting_and_huge_numbers_get_an_error_and_the_connection_lives(
    server: LiveServer, text: str
) -> None:
    """Under the size limit, but past Python's recursion or integer-digit limit."""
    assert len(text) <= 8192
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    peer, _ = join(server, created["seats"][0]["token"])
    peer.ws.send(text)
    assert peer.until(is_type("error"))["code"] == "bad_request"
    peer.send({"type": "ping"})
    assert peer.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    peer.close()


@pytest.mark.parametrize("text", ['{"type": "hello", "token": ' + "1" * 5000 + "}",
                                  '{"type": "hello", "token": ' + "[" * 3000 + "]" * 3000 + "}"])
def test_a_malformed_hello_is_closed_as_documented(server: LiveServer, text: str) -> None:
    peer = Peer(server.ws_url, None)
    peer.ws.send(text)
    assert closed_code(peer) == 4400


def held_of(log: list[dict[str, Any]], chat: int | None) -> dict[str, Any]:
    """A page's ``held`` for ``log`` (its lines so far) and its last chat line's id."""
    notices = sum(1 for line in log if line.get("notice"))
    return {"log": len(log) - notices, "notices": notices, "chat": chat}


def rejoin(server: LiveServer, token: str, held: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """Connect again saying what the page holds; the welcome, first state and chat."""
    peer = Peer(server.ws_url, None)
    peer.send({"type": "hello", "token": token, "held": held})
    welcome, state, chat = (peer.until(is_type(kind)) for kind in ("welcome", "state", "chat"))
    peer.close()
    return welcome, state, chat


def test_a_page_back_after_a_drop_gets_only_what_came_since(server: LiveServer) -> None:
    """A page that reconnects says what it holds (docs/web.md, "WebSocket"): its first state
    carries only the log lines that came since and its chat only the newer lines, together
    exactly what a new page gets; a page holding more than the table has gets it all."""
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        ann, before = join(server, tokens[0])
        ann.send({"type": "chat", "text": "one"})
        first_line = ann.until(lambda m: m["type"] == "chat" and bool(m["lines"]))["lines"][-1]
        ann.close()
        # While Ann is away: a chat line and two moves.
        bob, _ = join(server, tokens[1])
        bob.send({"type": "chat", "text": "two"})
        version = before["version"]
        for _ in range(2):
            table = http.get("/api/table", headers=auth(tokens[0])).json()["state"]
            seat = table["to_act"]
            legal = http.get("/api/table", headers=auth(tokens[seat])).json()["state"]["legal"]
            response = http.post("/api/table/move", headers=auth(tokens[seat]),
                                 json={"version": table["version"], "action": legal[0]["id"]})
            assert response.status_code == 200, response.text
            version = response.json()["version"]
        bob.until(lambda m: m["type"] == "chat" and any(
            line["text"] == "two" for line in m["lines"]))
        bob.close()
    fresh, fresh_state = join(server, tokens[0])
    fresh_chat = fresh.until(is_type("chat"))
    fresh.close()
    assert fresh_state["version"] == version > before["version"]

    welcome, state, chat = rejoin(server, tokens[0], held_of(before["log"], first_line["id"]))
    assert welcome["resumed"] is True
    assert state["log"] and state["log"][0]["i"] == before["version"]
    assert before["log"] + state["log"] == fresh_state["log"]
    assert [line["text"] for line in chat["lines"]] == ["two"]
    assert [line["text"] for line in fresh_chat["lines"]] == ["one", "two"]

    # Holding more than the table has (another table's log, say): everything again.
    welcome, state, chat = rejoin(server, tokens[0], held_of(fresh_state["log"] * 2, None))
    assert welcome["resumed"] is False
    assert state["log"] == fresh_state["log"] and chat["lines"] == fresh_chat["lines"]


def test_a_polling_client_gets_only_what_came_since(server: LiveServer) -> None:
    """``GET /api/table`` says what to hold (``held``) and, asked with it
    (``?log=&notices=&chat=``), sends only the log and chat lines that came since, as a
    reconnecting page's hello does (docs/web.md, "HTTP API"); asked with more than the table
    has, everything again; a count that is not a whole number from 0 is refused, naming it."""
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]

        def poll(**held: Any) -> dict[str, Any]:
            params = {k: v for k, v in held.items() if v is not None}
            response = http.get("/api/table", params=params, headers=auth(tokens[0]))
            assert response.status_code == 200, response.text
            body: dict[str, Any] = response.json()
            return body

        first = poll()
        assert first["resumed"] is False
        assert first["held"] == held_of(first["state"]["log"], None)
        said = http.post("/api/table/chat", headers=auth(tokens[1]), json={"text": "two"})
        assert said.status_code == 200, said.text
        for _ in range(2):
            seat = poll()["state"]["to_act"]
            state = http.get("/api/table", headers=auth(tokens[seat])).json()["state"]
            moved = http.post("/api/table/move", headers=auth(tokens[seat]),
                              json={"version": state["version"], "action": state["legal"][0]["id"]})
            assert moved.status_code == 200, moved.text
        whole = poll()
        later = poll(**first["held"])
        assert later["resumed"] is True
        assert later["state"]["log"] and later["state"]["log"][0]["i"] == first["state"]["version"]
        assert first["state"]["log"] + later["state"]["log"] == whole["state"]["log"]
        assert [line["text"] for line in later["chat"]] == ["two"] == [
            line["text"] for line in whole["chat"]]
        assert later["held"] == whole["held"] == held_of(whole["state"]["log"],
                                                         whole["chat"][-1]["id"])
        assert later["state"]["observation"] == whole["state"]["observation"]
        # Nothing new since: no line at all.
        again = poll(**later["held"])
        assert again["resumed"] is True and again["state"]["log"] == [] and again["chat"] == []
        # More than the table has (another table's log, say): everything again.
        over = poll(log=len(whole["state"]["log"]) * 2)
        assert over["resumed"] is False
        assert over["state"]["log"] == whole["state"]["log"] and over["chat"] == whole["chat"]
        for name, value in (("log", "-1"), ("notices", "1.5"), ("chat", "true"), ("log", "x")):
            refused = http.get("/api/table", params={name: value}, headers=auth(tokens[0]))
            assert refused.status_code == 422, refused.text
            assert refused.json()["error"]["code"] == "invalid_request"
            assert name in refused.json()["error"]["message"], refused.text


@pytest.mark.parametrize("held", [
    {"log": -1, "notices": 0, "chat": None}, {"log": True, "notices": 0, "chat": None},
    {"log": 1.5, "notices": 0, "chat": None}, {"log": 1, "notices": 0}, [1, 0, None],
    {"log": 1, "notices": 0, "chat": "7"}, "everything",
])
def test_a_malformed_held_closes_the_hello(server: LiveServer, held: Any) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    peer = Peer(server.ws_url, None)
    peer.send({"type": "hello", "token": created["seats"][0]["token"], "held": held})
    assert closed_code(peer) == 4400
    assert not any(m["type"] == "welcome" for m in peer.received)


def test_chat_lines_reach_everyone_as_text(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    ann, _ = join(server, created["seats"][0]["token"])
    watcher, _ = join(server, created["spectator"]["token"])
    ann.send({"type": "chat", "text": "<img src=x onerror=alert(1)> to the Grail!"})
    line = watcher.until(lambda m: m["type"] == "chat" and bool(m["lines"]))["lines"][-1]
    assert line == {**line, "seat": 0, "name": "Ann",
                    "text": "<img src=x onerror=alert(1)> to the Grail!"}
    ann.close()
    watcher.close()


def test_seat_changes_are_pushed_and_a_page_that_gives_its_seat_up_loses_it(
    server: LiveServer,
) -> None:
    # docs/web.md, "Seats that change hands" (issue 17, items 1-2).
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
        tokens = [s["token"] for s in created["seats"]]
        bob, _ = join(server, tokens[1])
        bob.send({"type": "seat_to_bot", "seat": 1, "bot": "random"})
        seats = bob.until(lambda m: m["type"] == "seats" and m["seats"][1]["controller"] == "bot")
        assert seats["seats"][1]["owned"] and not seats["seats"][1]["free"]
        told = bob.until(lambda m: m["type"] == "state" and any(
            line.get("notice") for line in m["log"]))
        assert [e["k"] for line in told["log"] if line.get("notice") for e in line["events"]] \
            == ["table.event.to-bot"]
        # Nobody takes a seat a bot keeps warm for its owner, not even the host.
        refused = http.post("/api/table/seats/1/take", headers=auth(created["host"]["token"]),
                            json={"name": "Dee"})
        assert refused.status_code == 409
        bob.send({"type": "leave", "bot": "random"})
        lost = bob.until(lambda m: m["type"] == "error")
        assert lost["code"] == "seat_left"
        assert closed_code(bob) == 4408
        # The old link no longer opens anything; the host may now seat someone there.
        stale = Peer(server.ws_url, tokens[1])
        assert stale.recv()["code"] == "seat_left"
        taken = http.post("/api/table/seats/1/take", headers=auth(created["host"]["token"]),
                          json={"name": "Dee"})
        assert taken.status_code == 200, taken.text
    dee, state = join(server, taken.json()["token"])
    assert state["observation"]["seat"] == 1
    dee.close()


def test_three_humans_play_a_whole_game_over_sockets_seeing_only_their_own(
    server: LiveServer,
) -> None:
    """Every state a seat receives is its own observation: no other seat's hand or
    loyalty, no raw state, no seed; a private log line names only this seat's secrets."""
    with server.http() as http:
        created = server.create(http, THREE_HUMANS)
    tokens = [s["token"] for s in created["seats"]]
    peers = [join(server, t)[0] for t in tokens]
    rng = random.Random(5)
    for _ in range(3000):
        states = [p.latest_state() for p in peers]
        if all(s["finished"] for s in states):
            break
        version = max(s["version"] for s in states)
        actor = next((i for i, s in enumerate(states) if s["legal"] and s["version"] == version),
                     None)
        if actor is None:
            for p in peers:
                p.until(state_from(version))
            continue
        state = states[actor]
        move = rng.choice(state["legal"])
        peers[actor].send({"type": "move", "version": state["version"], "action": move["id"]})
        for p in peers:
            p.until(state_from(version + 1))
    else:
        raise AssertionError("the game did not end")
    table = server.manager.tables.get(created["table"]) or None
    for seat, peer in enumerate(peers):
        for raw in peer.raw:
            assert '"seed"' not in raw and '"agenda"' not in raw and '"history"' not in raw
        shown: set[int] = set()  # accused knights, whose loyalty card all have seen
        for message in peer.received:
            if message["type"] != "state":
                continue
            observation = message["observation"]
            assert observation["seat"] == seat
            for line in message["log"]:
                shown |= {event["p"]["seat"]["seat"] for event in line["events"]
                          if event["k"] in ("soc.log.shows-loyalty", "soc.log.shows-loyalty.you")}
            for knight in observation["knights"]:
                if knight["seat"] != seat and knight["loyalty"] is not None:
                    # SOC-ACCUSE-2: an accused knight shows his card to everyone.
                    assert (knight["status"] == "unmasked" or knight["seat"] in shown
                            or observation["status"] != "running")
            for line in message["log"]:
                for event in line["events"]:
                    params = event["p"]
                    if event["k"] in ("soc.log.draw-white-known", "soc.log.draw-black-known",
                                      "soc.log.dealt-loyalty-known"):
                        assert params["seat"] == {"seat": seat}, line
                    if event["k"] == "soc.log.take-card-known":
                        assert {"seat": seat} in (params["seat"], params["victim"]), line
            assert message["legal"] == [] or message["to_act"] == seat
        peer.close()
    assert table is None or table.finished
