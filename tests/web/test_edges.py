"""The online table trusted at its edges (issue 27, items 1-5; ``docs/web.md``, "Threat
model"): no server file within reach of a request, the client's address not taken from a
header anyone sets, every WebSocket message counted, and no clock or bot running before
the game has begun for the people seated.

Item 2 (the lobby offers only the seats left open to anyone) is tested in
``test_lobby.py``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

import pendragon
from pendragon.web.limits import Limits
from pendragon.web.options import remote_option_names
from pendragon.web.settings import Settings
from tests.web.support import FAST, LiveServer, Peer, auth, begin_game, is_type, live_server

# ---------------------------------------------------------------------- item 1: files
#: Values a hostile client might send for an option to make the server read a file or
#: load a module, each with what an opened path (or an imported module's name) would
#: contain had the server followed it.
PATH_LIKE = {
    "/etc/passwd": "passwd",
    "/proc/self/cmdline": "/proc/self/cmdline",
    "/proc/self/environ": "/proc/self/environ",
    "../../../../etc/passwd": "passwd",
    "file:///etc/passwd": "passwd",
    "~/.ssh/id_rsa": "id_rsa",
    "C:\\Windows\\win.ini": "win.ini",
    "/dev/zero": "/dev/zero",
    "/tmp/pendragon-no-such-folder/a.track": "pendragon-no-such-folder",
    "pendragon_no_such_module": "pendragon_no_such_module",
    "pendragon_no_such_module:Game": "pendragon_no_such_module",
}
#: What a file's content or the server's errors about one would show in an answer.
FILE_TELLS = ("root:", "python", "No such file", "Errno", "cannot read", "Permission denied")


class _Opens:
    """Every path the process opens while ``watching`` (a ``sys.addaudithook`` hook: the
    server runs in a thread of this process, so its opens are seen here)."""

    def __init__(self) -> None:
        self.watching = False
        self.paths: list[str] = []
        self.lock = threading.Lock()
        sys.addaudithook(self)

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        if self.watching and event in ("open", "os.listdir", "os.scandir", "import"):
            target = args[0] if args else None
            if isinstance(target, str | bytes | os.PathLike):
                with self.lock:
                    self.paths.append(os.fsdecode(target))


_OPENS: _Opens | None = None


def opens() -> _Opens:
    """The one audit hook of this test process (a hook cannot be removed)."""
    global _OPENS
    if _OPENS is None:
        _OPENS = _Opens()
    return _OPENS


def _seats(game: str) -> list[dict[str, Any]]:
    count = pendragon.load_game(game).num_players()
    return [{"kind": "human", "name": f"P{i}"} for i in range(count)]


# Options are checked before anything is stored: one database is enough (11 s a run).
@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_no_option_of_any_game_makes_the_server_open_a_path_or_echo_a_file(
    server: LiveServer,
) -> None:
    """Item 1: for every option of every installed game, path-like values through
    ``POST /api/tables`` never make the server open that path (seen by an audit hook on
    the server's own process), and no answer quotes a file (``root:``, the server's
    command line, "No such file")."""
    watch = opens()
    problems: list[str] = []
    for game in pendragon.registered_games():  # what a game itself reads, read before
        pendragon.load_game(game)
    with server.http() as http:
        for game in pendragon.registered_games():
            for spec in pendragon.game_class(game).option_specs:
                for value, tell in PATH_LIKE.items():
                    with watch.lock:
                        watch.paths.clear()
                    watch.watching = True
                    try:
                        response = http.post("/api/tables", json={
                            "game": game, "seats": _seats(game), "options": {spec.name: value}})
                    finally:
                        watch.watching = False
                    where = f"{game}.{spec.name}={value!r}"
                    if response.status_code >= 500:
                        problems.append(f"{where}: {response.status_code}")
                    if response.status_code == 201 and not spec.remote:
                        problems.append(f"{where}: a server-side option was accepted")
                    problems += [f"{where}: the answer shows {t!r}" for t in FILE_TELLS
                                 if t in response.text]
                    with watch.lock:
                        touched = [p for p in watch.paths if tell in p]
                    if touched:
                        problems.append(f"{where}: the server opened {touched}")
    assert problems == []


def test_options_naming_server_files_are_neither_offered_nor_accepted(
    server: LiveServer,
) -> None:
    """Item 1: ``GET /api/games`` lists only the options a remote client may set; Grail
    Cup offers its tracks by name (the ones shipped with the game); a server-side option
    (``track_file``) is refused whatever its value, without echoing it."""
    with server.http() as http:
        games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
        for name, listed in games.items():
            cls = pendragon.game_class(name)
            offered = [o["name"] for o in listed["options"]]
            assert offered == list(remote_option_names(cls)), name
            assert all(spec.remote for spec in cls.option_specs if spec.name in offered)
        track = next(o for o in games["grail-cup"]["options"] if o["name"] == "track")
        assert track["choices"] and "standard" in track["choices"]
        for value in ("/etc/passwd", "standard.track", None):
            refused = http.post("/api/tables", json={
                "game": "grail-cup", "seats": _seats("grail-cup"),
                "options": {"track_file": value}})
            assert refused.status_code == 400, refused.text
            error = refused.json()["error"]
            assert error["code"] == "invalid_option"
            assert "track_file" in error["message"] and "passwd" not in error["message"]
        by_name = http.post("/api/tables", json={
            "game": "grail-cup", "seats": _seats("grail-cup"), "options": {"track": "standard"}})
        assert by_name.status_code == 201, by_name.text


# ---------------------------------------------------------------------- item 3: addresses
class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def _limited_server(tmp_path: Path, **limits: Any) -> Iterator[LiveServer]:
    settings = Settings(bot_delay=0.0, away_after=3600.0, bot_threads=1,
                        limits=Limits.off().with_changes(**limits))
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", settings) as srv:
        srv.app.state.limiter.clock = _Clock()  # no refill while the test runs
        yield srv


@pytest.mark.parametrize("trusted", [(), ("127.0.0.1",)])
def test_a_forwarding_header_counts_only_from_a_trusted_proxy(
    tmp_path: Path, trusted: tuple[str, ...],
) -> None:
    """Item 3: 30 creations from 127.0.0.1, each with its own ``X-Forwarded-For``. By
    default no proxy is trusted (uvicorn's own proxy headers are off too): they are one
    client, and the create limit (a burst of 5) refuses the rest with 429. Only with
    ``--trusted-proxy 127.0.0.1`` is each address a client of its own."""
    with _limited_server(tmp_path, create_rate=0.2, create_burst=5,
                         trusted_proxies=trusted) as srv, srv.http() as http:
        codes = [
            http.post("/api/tables", json={"game": "soc", "seats": [{"kind": "bot"}] * 3},
                      headers={"X-Forwarded-For": f"10.1.{i}.7"}).status_code
            for i in range(30)
        ]
    if trusted:
        assert codes == [201] * 30
    else:
        assert codes == [201] * 5 + [429] * 25


def test_pendragon_serve_trusts_no_proxy_by_default(tmp_path: Path) -> None:
    """Item 3: the server's uvicorn configuration believes no forwarding header."""
    from pendragon.web.server import build_parser, create_app, uvicorn_config
    from pendragon.web.settings import Settings

    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", Settings())
    config = uvicorn_config(app, host="127.0.0.1", port=1)
    assert config.proxy_headers is False
    args = build_parser().parse_args([])
    assert args.trusted_proxies == []
    refused = build_parser().parse_args(["--trusted-proxy", "not-an-address"])
    with pytest.raises(ValueError, match="trusted-proxy 'not-an-address'"):
        Limits(trusted_proxies=tuple(refused.trusted_proxies)).check()


# ---------------------------------------------------------------------- item 4: messages
def test_every_websocket_message_counts_malformed_ones_too(tmp_path: Path) -> None:
    """Item 4: malformed messages spend the same per-client budget as well-formed ones
    (here a burst of 3): after it, the answer is ``rate_limited``; a client that keeps
    sending past another burst's worth is cut off (4429) instead of answered forever."""
    with _limited_server(tmp_path, message_rate=1.0, message_burst=3) as srv:
        with srv.http() as http:
            created = srv.create(http, [{"kind": "human", "name": "Ann"}] + [{"kind": "bot"}] * 2)
        peer = Peer(srv.ws_url, created["seats"][0]["token"])
        try:
            peer.until(is_type("welcome"))
            junk = "x" * 8000
            sent = 0
            with contextlib.suppress(ConnectionClosed):  # cut off while still sending
                for _ in range(40):
                    peer.ws.send(junk)
                    sent += 1
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    peer.recv()
        finally:
            peer.close()
    answers = [m["code"] for m in peer.received if m["type"] == "error"]
    assert answers[:3] == ["bad_request"] * 3
    assert answers[3:] == ["rate_limited"] * 3, "a burst's worth of answers, then cut off"
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    assert sent >= 7


# ---------------------------------------------------------------------- item 5: the start
TIMED = dataclasses.replace(FAST, turn_timers=(30,))


def _state(http: httpx.Client, token: str) -> dict[str, Any]:
    response = http.get("/api/table", headers=auth(token))
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()["state"]
    return state


def test_no_bot_moves_and_no_clock_runs_before_the_person_arrives(tmp_path: Path) -> None:
    """Item 5: a table of the host's seat and two bots, with a turn timer, created while
    nobody has opened a link: its bots wait and no clock runs (the host's page would
    otherwise open on a turn already played or half timed out). When he opens his link,
    the game begins: the bots play up to his decision and only then his clock runs."""
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", TIMED) as srv, srv.http() as http:
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "human", "name": "Host"},
                 {"kind": "bot", "bot": "random"}]
        created = srv.create(http, seats, begin=False, turn_timer=30)
        table = srv.manager.tables[created["table"]]
        version = table.state.version
        time.sleep(0.5)  # bots play instantly here: any move would have happened
        spectator = http.get("/api/table", headers=auth(created["spectator"]["token"])).json()
        assert (table.state.version, table.deadline, table.started) == (version, None, False)
        assert spectator["state"]["started"] is False
        assert spectator["state"]["waiting_for"] == [1]
        assert spectator["state"]["timer"] is None and spectator["state"]["legal"] == []

        _state(http, created["seats"][1]["token"])  # the host opens his link
        deadline = time.monotonic() + 10
        while table.state.current_player() != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        mine = _state(http, created["seats"][1]["token"])
    assert table.started and table.state.current_player() == 1
    assert mine["started"] is True and mine["waiting_for"] == []
    assert mine["legal"] and mine["timer"] is not None and mine["timer"]["seat"] == 1


def test_the_host_may_start_before_everyone_arrives_and_nobody_else_may(
    server: LiveServer,
) -> None:
    """Item 5: three people; one arrives. Until everyone has (or the host starts), his
    moves are refused (409 ``not_started``) and his page is told whom the table waits
    for. A player's or spectator's link may not start it (403); the host's may, once
    (then 409 ``already_started``), and play goes on."""
    with server.http() as http:
        created = server.create(http, [{"kind": "human", "name": n} for n in "ABC"],
                                begin=False)
        tokens = [s["token"] for s in created["seats"]]
        waiting = [_state(http, token) for token in tokens[:1]][0]
        assert waiting["started"] is False and waiting["waiting_for"] == [1, 2]
        early = http.post("/api/table/move", headers=auth(tokens[0]),
                          json={"version": waiting["version"], "action": 0})
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_started"
        for token in (tokens[0], created["spectator"]["token"]):
            denied = http.post("/api/table/start", headers=auth(token))
            assert denied.status_code == 403, denied.text
        assert _state(http, tokens[0])["started"] is False
        begin_game(http, created)
        again = http.post("/api/table/start", headers=auth(created["host"]["token"]))
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_started"
        to_act = next(s for s in (_state(http, t) for t in tokens) if s["legal"])
        seat = to_act["to_act"]
        moved = http.post("/api/table/move", headers=auth(tokens[seat]), json={
            "version": to_act["version"], "action": to_act["legal"][0]["id"]})
        assert moved.status_code == 200, moved.text


def test_everyone_arriving_begins_the_game_and_it_stays_begun(tmp_path: Path) -> None:
    """Item 5: when the last person seated opens his link the game begins by itself; a
    server started again on the same database finds it begun (stored), and a table still
    waiting finds it waiting."""
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    people = [{"kind": "human", "name": n} for n in "AB"] + [{"kind": "bot"}]
    with live_server(url, FAST) as srv, srv.http() as http:
        begun = srv.create(http, people, begin=False)
        waiting = srv.create(http, people, begin=False)
        first = _state(http, begun["seats"][0]["token"])
        assert first["started"] is False and first["waiting_for"] == [1]
        assert _state(http, begun["seats"][1]["token"])["started"] is True
        assert _state(http, waiting["seats"][0]["token"])["started"] is False
    with live_server(url, FAST) as srv, srv.http() as http:
        spectator = {t["table"]: json.loads(
            http.get("/api/table", headers=auth(t["spectator"]["token"])).text)["state"]
            for t in (begun, waiting)}
    assert spectator[begun["table"]]["started"] is True
    assert spectator[waiting["table"]]["started"] is False
    assert spectator[waiting["table"]]["waiting_for"] == [1]


def test_a_refused_option_value_is_not_echoed_at_length(server: LiveServer) -> None:
    """Item 1: an error names the option and at most 40 characters of the value sent."""
    with server.http() as http:
        refused = http.post("/api/tables", json={
            "game": "grail-cup", "seats": _seats("grail-cup"), "options": {"track": "A" * 5000}})
    assert refused.status_code == 400, refused.text
    message = refused.json()["error"]["message"]
    assert "track" in message and message.count("A") < 60
