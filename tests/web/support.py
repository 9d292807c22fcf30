"""Helpers of the web tests: a live server in a thread, HTTP and WebSocket clients."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from pendragon.web.limits import Limits
from pendragon.web.manager import TableManager
from pendragon.web.server import create_app, uvicorn_config
from pendragon.web.settings import Settings

#: Instant bots and no limits: these tests create tables by the hundred from one address
#: (the limits have their own tests, test_limits.py).
FAST = Settings(bot_delay=0.0, away_after=3600.0, bot_threads=1, limits=Limits.off())


class LiveServer:
    """The web application served by uvicorn in a background thread on a free port."""

    def __init__(self, database: str, settings: Settings | None = None) -> None:
        self.app = create_app(database, settings or FAST)
        # IPPROTO_TCP named, as asyncio's own listening sockets (`pendragon serve`) have it:
        # asyncio turns Nagle's algorithm off (TCP_NODELAY) only on a connection whose
        # socket says TCP. Left 0, every answer on a kept-alive connection waited ~40 ms
        # for the client's delayed acknowledgement (uvicorn writes its headers and body
        # apart): most of the time of the tests that make many requests.
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        # As `pendragon serve` configures it (uvicorn's own proxy headers off).
        self.server = uvicorn.Server(uvicorn_config(self.app))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def manager(self) -> TableManager:
        manager: TableManager = self.app.state.manager
        return manager

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10.0, trust_env=False)

    def create(self, http: httpx.Client, seats: list[dict[str, Any]],
               options: dict[str, Any] | None = None, *, begin: bool = True,
               **fields: Any) -> dict[str, Any]:
        """A new soc table; ``fields``: more of the request (``join_mid_game``...).

        ``begin``: the host starts the game at once (as if everyone had arrived), for tests
        of what comes after; ``False`` leaves it waiting for its people (issue 27, item 5).
        """
        response = http.post("/api/tables", json={"game": "soc", "seats": seats,
                                                   "options": options or {}, **fields})
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        if begin:
            begin_game(http, body)
        return body


@contextmanager
def live_server(database: str, settings: Settings | None = None) -> Iterator[LiveServer]:
    server = LiveServer(database, settings).start()
    try:
        yield server
    finally:
        server.stop()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def begin_game(http: httpx.Client, created: dict[str, Any]) -> None:
    """The host of the table ``created`` (``POST /api/tables``' answer) starts its game now,
    unless it has begun already (bots alone)."""
    response = http.post("/api/table/start", headers=auth(created["host"]["token"]))
    assert response.status_code == 200 or (
        response.status_code == 409
        and response.json()["error"]["code"] == "already_started"), response.text


def view(http: httpx.Client, token: str) -> dict[str, Any]:
    """``GET /api/table`` as the holder of ``token`` sees it (asserting it is granted)."""
    response = http.get("/api/table", headers=auth(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def past_the_opening(http: httpx.Client, created: dict[str, Any], timeout: float = 60.0) -> None:
    """The people of the soc table ``created`` lay and share the opening cards (each plays
    his first legal move; its bots play their own) until a newcomer may join: VAR-JOIN
    waits for the first turn."""
    deadline = time.monotonic() + timeout
    spectator = created["spectator"]["token"]
    while not view(http, spectator)["state"]["can_join"]:
        assert time.monotonic() < deadline, "the opening never ended"
        for seat in created["seats"]:
            if seat["token"] is None:  # a bot's seat
                continue
            state = view(http, seat["token"])["state"]
            if state["legal"]:
                http.post("/api/table/move", headers=auth(seat["token"]),
                          json={"version": state["version"], "action": state["legal"][0]["id"]})


def waited_out(response: httpx.Response) -> bool:
    """Whether ``response`` was the server's 429 ``rate_limited``; if so, its ``Retry-After``
    has been waited out, as a client is asked to (a loop that polls or plays as fast as the
    server answers may go past a server's read or write rate)."""
    if response.status_code != 429 or response.json()["error"]["code"] != "rate_limited":
        return False
    time.sleep(float(response.headers["Retry-After"]))
    return True


def play_to_the_end(http: httpx.Client, token: str,
                    choose: Callable[[dict[str, Any]], int], timeout: float = 240.0) -> int:
    """Play the seat of ``token`` over the JSON API until the game is over: ``choose``
    gives the action id to play in each ``state`` message where the seat is to act (a page
    open meanwhile follows). A view that a page's last click made stale is read again, and
    a request over the server's rate made again once it may be. Returns the moves made."""
    moves = 0
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the game took too long"
        response = http.get("/api/table", headers=auth(token))
        if waited_out(response):
            continue
        assert response.status_code == 200, response.text
        state = response.json()["state"]
        if state["finished"]:
            return moves
        if not state["legal"]:
            time.sleep(0.01)
            continue
        moved = http.post("/api/table/move", headers=auth(token),
                          json={"version": state["version"], "action": choose(state)})
        if moved.status_code == 409 and moved.json()["error"]["code"] == "stale_version":
            continue
        if waited_out(moved):
            continue
        assert moved.status_code == 200, moved.text
        moves += 1


def wait_for(
    http: httpx.Client, token: str, predicate: Callable[[dict[str, Any]], bool],
    timeout: float = 20.0,
) -> dict[str, Any]:
    """The first view of ``token`` that satisfies ``predicate``, polling while bots play (a
    poll over the server's read rate made again once it may be)."""
    deadline = time.monotonic() + timeout
    while True:
        response = http.get("/api/table", headers=auth(token))
        if waited_out(response):
            continue
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if predicate(body):
            return body
        assert time.monotonic() < deadline, "the table never reached the expected state"
        time.sleep(0.02)


class Peer:
    """A WebSocket client that remembers everything it received."""

    def __init__(self, url: str, token: str | None) -> None:
        self._context = connect(url, open_timeout=10, max_size=2**22, proxy=None)
        self.ws: ClientConnection = self._context.__enter__()
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        if token is not None:
            self.send({"type": "hello", "token": token})

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        return message

    def until(self, predicate: Callable[[dict[str, Any]], bool],
              timeout: float = 15.0) -> dict[str, Any]:
        """Receive until a message satisfies ``predicate``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message arrived")
            message = self.recv(timeout=left)
            if predicate(message):
                return message

    def latest_state(self) -> dict[str, Any]:
        return next(m for m in reversed(self.received) if m["type"] == "state")

    def close(self) -> None:
        self._context.__exit__(None, None, None)


def is_type(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda message: message.get("type") == kind


def state_from(version: int) -> Callable[[dict[str, Any]], bool]:
    """A predicate: a state message at ``version`` or later."""
    return lambda message: message.get("type") == "state" and message["version"] >= version


def my_turn(message: dict[str, Any]) -> bool:
    return message.get("type") == "state" and bool(message["legal"])


def finished(message: dict[str, Any]) -> bool:
    return message.get("type") == "state" and bool(message["finished"])


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """``pendragon.web.server`` in a child process (so a test can kill and restart it)."""

    def __init__(self, database: str, port: int | None = None, bot_delay: float = 0.0,
                 extra: Sequence[str] = ()) -> None:
        self.database = database
        self.port = port or free_port()
        self.bot_delay = bot_delay
        #: More options of ``pendragon.web.server`` (``--read-burst 1000``...).
        self.extra = tuple(extra)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        command = [
            sys.executable, "-m", "pendragon.web.server", "--host", "127.0.0.1",
            "--port", str(self.port), "--database", self.database,
            "--bot-delay", str(self.bot_delay), "--away-after", "3600", *self.extra,
        ]
        # A session of its own, so that kill() takes the server's worker processes with it.
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(self.base + "/api/health", timeout=1.0,
                             trust_env=False).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                error = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server did not start: {error[-2000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL: no clean shutdown), the server's bot and
        review workers with it (left alone, they outlived the test run)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
