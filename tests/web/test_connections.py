"""Connections that cannot starve the server, one client per IPv6 /64, and the smaller
holes (issue 36, items 2, 7 and 8; docs/web.md "Limits" and "Threat model"). Each test
checks a mechanism (a connection closed, a count, a refusal), never a time."""

from __future__ import annotations

import dataclasses
import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidState
from websockets.sync.client import connect

from pendragon.web.limits import Limits, client_address, client_key
from pendragon.web.settings import Settings
from tests.web.support import FAST, LiveServer, Peer, auth, live_server, view


def wait_until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (reads its end, waiting up to 20 s)."""
    sock.settimeout(20)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def still_open(sock: socket.socket) -> bool:
    """Whether ``sock`` is open and the server sent nothing on it (not waiting)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False
    finally:
        sock.setblocking(True)


def guarded(tmp_path: Any, **limits: Any) -> Any:
    settings = dataclasses.replace(FAST, limits=Limits.off().with_changes(**limits))
    return live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", settings)


def raw(srv: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", srv.port), timeout=10)


# ---------------------------------------------------------------------- item 2
def test_a_connection_that_sends_nothing_or_trickles_is_closed(tmp_path: Any) -> None:
    """Issue 36 item 2: a connection that never sends a request, one that sends its
    headers a byte at a time, and one that sends its headers but not the body it announced
    are each closed by the server after ``request_timeout``; a whole request on a
    keep-alive connection is answered, and the next one has its own deadline."""
    with guarded(tmp_path, request_timeout=0.5) as srv:
        silent, trickle, bodiless = raw(srv), raw(srv), raw(srv)
        bodiless.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type:"
                         b" application/json\r\nContent-Length: 100\r\n\r\n{")
        trickled = [False]
        for byte in b"GET /api/health HTTP/1.1\r\nHost: x\r\n":
            try:
                trickle.send(bytes([byte]))
            except OSError:
                trickled[0] = True
                break
            time.sleep(0.1)
        assert trickled[0] or closed_by_server(trickle)
        assert closed_by_server(silent)
        assert closed_by_server(bodiless)
        whole = raw(srv)
        whole.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        whole.settimeout(10)
        assert whole.recv(4096).startswith(b"HTTP/1.1 200")
        assert closed_by_server(whole)  # then idle: keep-alive's or the request deadline
        for sock in (silent, trickle, bodiless, whole):
            sock.close()
        # A page's own requests are untouched.
        with srv.http() as http:
            assert http.get("/api/health").status_code == 200


def test_the_connection_cap_counts_a_clients_sockets_and_websockets(tmp_path: Any) -> None:
    """Issue 36 item 2: with ``connections_per_client`` 3, a client holding a WebSocket and
    two idle sockets has its fourth connection closed at once (counted as refused), the
    three stay open; when one closes, a new one is admitted; a trusted proxy is not
    capped (it carries many clients)."""
    with guarded(tmp_path, connections_per_client=3) as srv:
        registry = srv.app.state.connections
        with srv.http() as http:
            created = srv.create(http, [{"kind": "human", "name": "Ann"}] * 3)
        http_done = lambda: registry.open("127.0.0.1") == 0  # noqa: E731
        wait_until(http_done, "the HTTP client's connection is closed")
        peer = Peer(srv.ws_url, created["spectator"]["token"])
        peer.until(lambda m: m["type"] == "state")
        idle = [raw(srv), raw(srv)]
        wait_until(lambda: registry.open("127.0.0.1") == 3, "three connections counted")
        fourth = raw(srv)
        assert closed_by_server(fourth)
        assert registry.refused >= 1 and registry.open("127.0.0.1") == 3
        assert all(still_open(sock) for sock in idle)
        peer.send({"type": "ping"})
        assert peer.until(lambda m: m["type"] == "pong")
        idle[0].close()
        wait_until(lambda: registry.open("127.0.0.1") == 2, "a closed one is counted off")
        fifth = raw(srv)
        fifth.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        fifth.settimeout(10)
        assert fifth.recv(4096).startswith(b"HTTP/1.1 200")
        for sock in (idle[1], fourth, fifth):
            sock.close()
        peer.close()
    with guarded(tmp_path, connections_per_client=1, trusted_proxies=("127.0.0.1",)) as srv:
        many = [raw(srv) for _ in range(4)]
        for sock in many:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            sock.settimeout(10)
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
            sock.close()


def test_websocket_ping_frames_count_and_a_flood_is_cut_off(tmp_path: Any) -> None:
    """Issue 36 item 8: ping frames count against the connection's message rate; a client
    sending far more than a burst past it is disconnected (1008), while pings within the
    rate are answered."""
    with guarded(tmp_path, message_rate=1.0, message_burst=5) as srv:
        with srv.http() as http:
            created = srv.create(http, [{"kind": "human", "name": "Ann"}] * 3)
        with connect(srv.ws_url, open_timeout=10, proxy=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": created["spectator"]["token"]}))
            ws.recv(timeout=10)
            assert ws.ping().wait(10)  # within the rate: answered
            try:
                for _ in range(200):
                    ws.ping()
            except (InvalidState, ConnectionClosed):
                pass  # closing, or closed, already
            with pytest.raises(ConnectionClosed):
                while True:
                    ws.recv(timeout=10)
            assert ws.protocol.close_rcvd is not None
            assert ws.protocol.close_rcvd.code == 1008


def test_accept_errors_and_refusals_are_logged_once_per_window() -> None:
    """Issue 36 item 2: the filters ``pendragon serve`` installs let one ``socket.accept()``
    error (file descriptors exhausted) and one "Exceeded concurrency limit" warning through
    per window, and every other record."""
    import logging

    from pendragon.web.connections import ACCEPT_ERRORS, SERVER_WARNINGS, quiet_accept_errors

    quiet_accept_errors()
    assert ACCEPT_ERRORS in logging.getLogger("asyncio").filters
    assert SERVER_WARNINGS in logging.getLogger("uvicorn.error").filters
    before = ACCEPT_ERRORS.suppressed
    records = [logging.makeLogRecord({"msg": "socket.accept() out of system resource"})
               for _ in range(50)]
    passed = [ACCEPT_ERRORS.filter(record) for record in records]
    assert passed.count(True) <= 1 and ACCEPT_ERRORS.suppressed >= before + 49
    assert ACCEPT_ERRORS.filter(logging.makeLogRecord({"msg": "something else"}))


def test_uvicorn_is_configured_with_its_own_limits(tmp_path: Any) -> None:
    """Issue 36 item 2: the server is run with uvicorn's limits set (keep-alive timeout,
    concurrency limit, header size, WebSocket ping interval and timeout, message size) and
    with the guarded protocols."""
    from pendragon.web.connections import GuardedH11, GuardedWebSocket
    from pendragon.web.server import create_app, uvicorn_config

    config = uvicorn_config(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", Settings()))
    assert config.timeout_keep_alive > 0 and config.limit_concurrency > 0
    assert config.h11_max_incomplete_event_size == 16 * 1024
    assert config.ws_ping_interval and config.ws_ping_timeout and config.ws_max_size
    assert issubclass(config.http, GuardedH11) and issubclass(config.ws, GuardedWebSocket)


# ---------------------------------------------------------------------- item 7
def test_one_ipv6_slash_64_is_one_client_and_a_mapped_address_is_its_ipv4() -> None:
    """Issue 36 item 7: every address of one /64 is one client; an IPv4-mapped IPv6 address
    is its IPv4 address, as a peer, in the trusted header, and as a trusted proxy."""
    assert len({client_key(f"2001:db8:0:7:{i:x}::1") for i in range(30)}) == 1
    assert client_key("2001:db8:0:7::1") != client_key("2001:db8:0:8::1")
    assert client_key("::ffff:192.0.2.5") == client_key("192.0.2.5") == "192.0.2.5"
    limits = Limits(trusted_proxies=("127.0.0.1",))
    behind = {"client": ("::ffff:127.0.0.1", 1), "headers": [
        (b"x-forwarded-for", b"2001:db8:0:7:abcd::99")]}
    assert client_address(behind, limits) == "2001:db8:0:7::/64"
    mapped = {"client": ("::ffff:127.0.0.1", 1),
              "headers": [(b"x-forwarded-for", b"::ffff:198.51.100.7")]}
    assert client_address(mapped, limits) == "198.51.100.7"
    assert client_address({"client": ("::ffff:10.0.0.1", 1), "headers": []},
                          Limits()) == "10.0.0.1"


def test_thirty_addresses_of_one_slash_64_share_one_creation_budget(tmp_path: Any) -> None:
    """Issue 36 item 7: behind a trusted proxy, creations from 30 addresses of one /64 are
    limited as one client's (5 then 429), while another /64 still creates."""
    with guarded(tmp_path, create_rate=0.01, create_burst=5,
                 trusted_proxies=("127.0.0.1",)) as srv, srv.http() as http:
        seats = [{"kind": "human", "name": "Ann"}]
        codes = [http.post("/api/tables", json={"game": "soc", "seats": seats * 3},
                           headers={"X-Forwarded-For": f"2001:db8:0:7:{i:x}::1"}).status_code
                 for i in range(1, 31)]
        assert codes[:5] == [201] * 5 and set(codes[5:]) == {429}
        other = http.post("/api/tables", json={"game": "soc", "seats": seats * 3},
                          headers={"X-Forwarded-For": "2001:db8:0:8::1"})
        assert other.status_code == 201


# ---------------------------------------------------------------------- item 8
@pytest.fixture
def server(tmp_path: Any) -> Iterator[LiveServer]:
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}") as srv:
        yield srv


def test_an_old_link_opened_as_a_stranger_sits_loses_the_seat(server: LiveServer) -> None:
    """Issue 36 item 8: who a link is, is decided again after its first opening is stored.
    A stranger takes the open seat from the lobby while the seat's old link is being opened:
    the old link is refused (401) and never gets the seat's view; the stranger's works."""
    with server.http() as http:
        created = server.create(http, [{"kind": "human", "name": "Ann", "open": True},
                                        {"kind": "human", "name": "Bob"},
                                        {"kind": "human", "name": "Cy"}],
                                begin=False, listed=True)
        old = created["seats"][0]["token"]
        table = server.manager.tables[created["table"]]
        original = table.note_opened
        taken: list[str] = []

        async def stranger_first(seat: int) -> None:
            taken.append(await table.sit_from_lobby(seat, "Stranger"))
            await original(seat)

        table.note_opened = stranger_first  # type: ignore[method-assign]
        refused = http.get("/api/table", headers=auth(old))
        table.note_opened = original  # type: ignore[method-assign]
        assert refused.status_code == 401 and taken
        assert "observation" not in refused.text
        assert view(http, taken[0])["table"]["seat"] == 0
        assert http.get("/api/table", headers=auth(old)).status_code == 401


def test_only_a_seats_own_player_hands_a_never_opened_seat_to_a_bot(server: LiveServer) -> None:
    """Issue 36 item 8: before the game begins, another player may not hand a seat whose
    person has not arrived to a bot (409 ``not_started``); its own player may."""
    with server.http() as http:
        created = server.create(http, [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"},
                                        {"kind": "human", "name": "Cy"}], begin=False)
        ann, bob = created["seats"][0]["token"], created["seats"][1]["token"]
        refused = http.post("/api/table/seats/2/bot", headers=auth(ann), json={"bot": "random"})
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "not_started")
        assert view(http, ann)["table"]["seats"][2]["controller"] == "human"
        own = http.post("/api/table/seats/1/bot", headers=auth(bob), json={"bot": "random"})
        assert own.status_code == 200, own.text


def test_errors_never_echo_what_the_client_sent(server: LiveServer) -> None:
    """Issue 36 item 8: an action's text, an unknown field's or option's name, a seat
    number of 4,000 digits, an unknown bot, an unknown WebSocket ``type`` of 7 KB: each
    refused with a fixed message and code that do not contain it; a body nested 30,000
    deep is 400 ``bad_request`` (documented)."""
    marker = "zq" + "x" * 40
    with server.http() as http:
        created = server.create(http, [{"kind": "human", "name": "Ann"}] * 3)
        token = created["seats"][0]["token"]
        version = view(http, token)["state"]["version"]
        answers = [
            http.post("/api/table/move", headers=auth(token),
                      json={"version": version, "action": marker}),
            http.post("/api/table/move", headers=auth(token),
                      json={"version": version, "action": int("4" * 4000)}),
            http.post("/api/table/chat", headers=auth(token), json={"text": "x", marker: 1}),
            http.post("/api/tables", json={"game": "soc", "options": {marker: 1},
                                           "seats": [{"kind": "human"}] * 3}),
            http.post("/api/tables", json={"game": marker[:30],
                                           "seats": [{"kind": "human"}] * 3}),
            http.post("/api/tables", json={"game": "soc", "seats": [
                {"kind": "bot", "bot": marker[:30]}] * 3}),
            http.post("/api/tables", json={"game": "soc", "options": {"players": marker},
                                           "seats": [{"kind": "human"}] * 3}),
            http.post(f"/api/table/seats/{'4' * 4000}/bot", headers=auth(token),
                      json={"bot": "random"}),
            http.post("/api/table/seats/4000/bot", headers=auth(token), json={"bot": "random"}),
        ]
        for answer in answers:
            assert 400 <= answer.status_code < 500, answer.text
            assert marker[:30] not in answer.text and "4444" not in answer.text, answer.text
            assert "4000" not in answer.text
            assert answer.json()["error"]["code"] != "error"
        deep = http.post("/api/table/chat", headers={**auth(token),
                                                     "Content-Type": "application/json"},
                         content=b"[" * 30000 + b"]" * 30000)
        assert (deep.status_code, deep.json()["error"]["code"]) == (400, "bad_request")
    peer = Peer(server.ws_url, token)
    try:
        peer.until(lambda m: m["type"] == "state")
        peer.send({"type": "y" * 7000})
        error = peer.until(lambda m: m["type"] == "error")
        assert error["code"] == "bad_request" and error["request"] is None
        assert "yyyy" not in json.dumps(error)
        peer.send({"type": "move", "version": version, "action": marker})
        error = peer.until(lambda m: m["type"] == "error")
        assert error["code"] == "malformed_action" and marker[:10] not in json.dumps(error)
    finally:
        peer.close()

