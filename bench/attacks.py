"""The attacks of issue 36 as benchmark scenarios (``python -m bench.server --scenario
attacks``, or one of them by name).

Each scenario starts ``pendragon serve`` in a child process (SQLite, its default limits,
``--metrics``, ``--trusted-proxy 127.0.0.1`` so that the attackers' addresses can come in
``X-Forwarded-For``) and plays a *normal people's table* beside the attack: a Grail Cup
table of a person (the bench, moving as soon as it is his turn) and an ISMCTS bot at the
server's pace (0.4 s), with a spectator socket sending a ``ping`` every 0.1 s and another
client asking for the lobby every 0.25 s; all of it in a process of its own (the
attacker's work in the bench must not delay its readings). The bot's turns (from the view
that hands it the turn to the view after its move), the pings' answers and the other
client's requests are measured before the attack, during it and after it. What each attack does and
what it reports:

* ``hints``: one address holds every seat of five 8-seat tables with hints on and, at
  each decision, asks for a hint and moves at once; after it stops, how long until no
  hint search is queued or running.
* ``idle``: one address (127.0.0.2) opens 2,000 connections and sends nothing, or a
  header byte a second, opening each again 10 s after the server closes it; the sockets
  the server let it hold, the server's log growth.
* ``openings``: 10 addresses x 5 tables of 8 people, every link opened at once: the
  answers, then after a restart how many seats are recorded as arrived.
* ``reviews``: one address reviews its games back to back while a second asks for one:
  how long the second waited, beside one review's time.
* ``coldload``: one address opens 200 finished 8-seat tables that are not in memory.
* ``handover``: one address creates tables of a person and 7 ISMCTS bots and hands the
  person's seat to a bot; how many it got, and whether another client's table of bots
  alone is still accepted.
* ``ipv6``: 30 addresses of one IPv6 /64 create tables: how many are accepted.

Bounded: every attack stops after ``--seconds``; traffic only to 127.0.0.1/127.0.0.2.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import IO, Any

import httpx
import websockets

HOST = "127.0.0.1"
ATTACKS = ("hints", "idle", "openings", "reviews", "coldload", "handover", "ipv6")


def wait_until_serving(server: subprocess.Popen[bytes], base: str, seconds: float) -> None:
    """Return once the server at ``base`` answers its health check; raise if its process
    ended or ``seconds`` passed first."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(base + "/api/health", timeout=1, trust_env=False).is_success:
                return
        except httpx.HTTPError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.1)


@contextlib.contextmanager
def serving(command: list[str], base: str, seconds: float, stdout: IO[bytes] | int | None,
            stderr: IO[bytes] | int | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """The server ``command`` started and waited for (:func:`wait_until_serving` at ``base``,
    ``seconds`` at most); on leaving, terminated (killed if it has not ended 20 s later)."""
    server = subprocess.Popen(command, stdout=stdout, stderr=stderr)
    try:
        wait_until_serving(server, base, seconds)
        yield server
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _quantiles(samples: list[float]) -> dict[str, float | int | None]:
    ordered = sorted(samples)

    def pct(q: float) -> float | None:
        if not ordered:
            return None
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"n": len(ordered), "p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0)}


@contextlib.contextmanager
def serve(database: str, extra: list[str], log: Path) -> Iterator[str]:
    """``pendragon serve`` in a child process; its base URL. Its output goes to ``log``."""
    port = _free_port()
    base = f"http://{HOST}:{port}"
    command = [sys.executable, "-m", "pendragon.web.server", "--host", HOST, "--port",
               str(port), "--database", database, "--metrics", "--log-level", "warning",
               "--trusted-proxy", HOST, *extra]
    with log.open("ab") as out, serving(command, base, 60, out, out):
        yield base


class NormalTable:
    """A person and an ISMCTS bot at Grail Cup, and a spectator that pings; every sample
    is filed under the phase it was taken in."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.ws_url = base.replace("http://", "ws://") + "/ws"
        self.phase = "warmup"
        self.bot_turns: dict[str, list[float]] = {}
        self.pings: dict[str, list[float]] = {}
        self.requests: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.stop = asyncio.Event()
        self.rng = random.Random(36)

    def _note(self, where: dict[str, list[float]], seconds: float) -> None:
        where.setdefault(self.phase, []).append(seconds)

    async def _table(self, http: httpx.AsyncClient) -> tuple[str, str]:
        response = await http.post("/api/tables", json={
            "game": "grail-cup", "seats": [{"kind": "human", "name": "Ann"},
                                           {"kind": "bot", "bot": "ismcts"}]})
        response.raise_for_status()
        body = response.json()
        return body["seats"][0]["token"], body["spectator"]["token"]

    async def _person(self, token: str) -> None:
        async with websockets.connect(self.ws_url, max_size=2**22, proxy=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            bot_since: float | None = None
            while not self.stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
                except TimeoutError:
                    continue
                if message.get("type") != "state":
                    continue
                now = time.perf_counter()
                if bot_since is not None and message.get("to_act_controller") != "bot":
                    self._note(self.bot_turns, now - bot_since)
                    bot_since = None
                if message["finished"]:
                    return
                if message.get("to_act_controller") == "bot" and bot_since is None:
                    bot_since = now
                if message["legal"]:
                    action = self.rng.choice(message["legal"])["id"]
                    await ws.send(json.dumps({"type": "move", "version": message["version"],
                                              "action": action}))

    async def _pinger(self, token: str) -> None:
        async with websockets.connect(self.ws_url, max_size=2**22, proxy=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while not self.stop.is_set():
                sent = time.perf_counter()
                await ws.send('{"type": "ping"}')
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))
                    if message.get("type") == "pong":
                        break
                self._note(self.pings, time.perf_counter() - sent)
                await asyncio.sleep(0.1)

    async def _requests(self) -> None:
        """Another client's request (the lobby) every 0.25 s, timed."""
        async with httpx.AsyncClient(base_url=self.base, timeout=60, trust_env=False) as http:
            while not self.stop.is_set():
                started = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):
                    (await http.get("/api/lobby")).raise_for_status()
                    self._note(self.requests, time.perf_counter() - started)
                await asyncio.sleep(0.25)

    async def run(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=60, trust_env=False) as http:
            token, spectator = await self._table(http)
            pinger = asyncio.create_task(self._pinger(spectator))
            requests = asyncio.create_task(self._requests())
            while not self.stop.is_set():
                try:
                    await self._person(token)
                    if not self.stop.is_set():
                        token, _ = await self._table(http)
                except Exception as error:  # reported; the table carries on
                    self.errors.append(f"{type(error).__name__}: {error}"[:200])
                    await asyncio.sleep(0.5)
            for helper in (pinger, requests):
                helper.cancel()
                with contextlib.suppress(BaseException):
                    await helper

    def figures(self) -> dict[str, Any]:
        return {phase: {"bot_turn_ms": _quantiles(self.bot_turns.get(phase, [])),
                        "ping_ms": _quantiles(self.pings.get(phase, [])),
                        "other_request_ms": _quantiles(self.requests.get(phase, []))}
                for phase in ("before", "during", "after")}


def _client(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def _new(http: httpx.AsyncClient, address: str, game: str, seats: list[dict[str, Any]],
               **fields: Any) -> dict[str, Any] | None:
    response = await http.post("/api/tables", headers=_client(address),
                               json={"game": game, "seats": seats, **fields})
    if response.status_code != 201:
        return None
    body: dict[str, Any] = response.json()
    return body


def _auth(token: str, address: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **_client(address)}


# ---------------------------------------------------------------------- the attacks
async def attack_hints(base: str, seconds: float, report: dict[str, Any]) -> None:
    """Five 8-seat tables of one address, a hint asked at every decision, moving at once."""
    address = "10.36.1.1"
    answers: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False,
                                 limits=httpx.Limits(max_connections=200)) as http:
        tables = []
        for _ in range(5):
            body = await _new(http, address, "grail-cup",
                              [{"kind": "human", "name": f"S{i}"} for i in range(8)],
                              hints=True)
            if body is not None:
                await http.post("/api/table/start", headers=_auth(body["host"]["token"],
                                                                  address))
                tables.append([s["token"] for s in body["seats"]])
        pending: set[asyncio.Task[Any]] = set()

        def count(key: str) -> None:
            answers[key] = answers.get(key, 0) + 1

        async def hint(token: str, version: int) -> None:
            answer = await http.post("/api/table/hint", headers=_auth(token, address),
                                     json={"version": version})
            count(f"hint {answer.status_code}")

        async def play(tokens: list[str]) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                for token in tokens:
                    view = await http.get("/api/table", headers=_auth(token, address))
                    if view.status_code != 200:
                        count(f"view {view.status_code}")
                        await asyncio.sleep(0.05)
                        continue
                    state = view.json()["state"]
                    if state["finished"]:
                        return
                    if not state["legal"]:
                        continue
                    task = asyncio.create_task(hint(token, state["version"]))
                    pending.add(task)
                    task.add_done_callback(pending.discard)
                    moved = await http.post("/api/table/move", headers=_auth(token, address),
                                            json={"version": state["version"],
                                                  "action": state["legal"][0]["id"]})
                    count(f"move {moved.status_code}")

        await asyncio.gather(*(play(tokens) for tokens in tables))
        stopped = time.monotonic()
        drained = None
        while time.monotonic() - stopped < 60:
            metrics = (await http.get("/api/metrics")).json()
            if metrics["hint_queue"] == 0 and metrics["hint_searches"] == 0:
                drained = round(time.monotonic() - stopped, 2)
                break
            await asyncio.sleep(0.1)
        for task in list(pending):
            task.cancel()
    report.update(tables=len(tables), answers=answers, drained_after_stop_s=drained)


async def attack_idle(base: str, seconds: float, report: dict[str, Any]) -> None:
    """One address (127.0.0.2) holding as many silent or trickling connections as it can,
    while another client's requests are timed."""
    port = int(base.rsplit(":", 1)[1])
    held = [0]
    opened = [0]
    peak = [0]
    stop = time.monotonic() + seconds

    async def one(index: int) -> None:
        while time.monotonic() < stop:
            try:
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setblocking(False)
                sock.bind(("127.0.0.2", 0))
                await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
            except OSError:
                await asyncio.sleep(1.0)
                continue
            opened[0] += 1
            held[0] += 1
            peak[0] = max(peak[0], held[0])
            reader, writer = await asyncio.open_connection(sock=sock)
            try:
                while time.monotonic() < stop:
                    if index % 2:
                        writer.write(b"G")  # a trickle: one byte a second
                        await writer.drain()
                    with contextlib.suppress(TimeoutError):
                        if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                            break  # closed by the server
            except OSError:
                pass
            finally:
                held[0] -= 1
                writer.close()
            await asyncio.sleep(10.0)  # then opens it again (the server's deadline)

    other: list[float] = []
    errors = [0]
    server_peak = [0]

    async def another_client() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30, trust_env=False) as http:
            while time.monotonic() < stop:
                started = time.perf_counter()
                try:
                    (await http.get("/api/lobby")).raise_for_status()
                    other.append(time.perf_counter() - started)
                except httpx.HTTPError:
                    errors[0] += 1
                with contextlib.suppress(httpx.HTTPError, KeyError):
                    metrics = (await http.get("/api/metrics")).json()
                    server_peak[0] = max(server_peak[0],
                                         metrics["connections_most_by_one_client"])
                    report["connections_refused_by_the_server"] = metrics[
                        "connections_refused"]
                await asyncio.sleep(0.25)

    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    attackers = min(2000, max(100, hard - 500))
    await asyncio.gather(another_client(), *(one(i) for i in range(attackers)))
    report.update(attacker_tasks=attackers, connections_opened=opened[0],
                  peak_held_by_the_attacker=peak[0],
                  peak_held_as_the_server_counts=server_peak[0],
                  other_client_request_ms=_quantiles(other), other_client_errors=errors[0])


async def attack_openings(base: str, seconds: float, report: dict[str, Any]) -> None:
    """10 addresses x 5 tables of 8 people, every link opened at once."""
    created: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=base, timeout=120, trust_env=False,
                                 limits=httpx.Limits(max_connections=500)) as http:
        for a in range(10):
            for _ in range(5):
                body = await _new(http, f"10.36.3.{a + 1}", "grail-cup",
                                  [{"kind": "human", "name": f"S{i}"} for i in range(8)])
                if body is not None:
                    body["address"] = f"10.36.3.{a + 1}"
                    created.append(body)
        statuses: dict[str, int] = {}

        async def open_link(token: str, address: str) -> None:
            try:
                answer = await http.get("/api/table", headers=_auth(token, address))
                key = str(answer.status_code)
            except httpx.HTTPError as error:
                key = type(error).__name__
            statuses[key] = statuses.get(key, 0) + 1

        started = time.monotonic()
        await asyncio.gather(*(open_link(seat["token"], body["address"])
                               for body in created for seat in body["seats"]))
        report.update(tables=len(created), links=sum(len(b["seats"]) for b in created),
                      answers=statuses, all_opened_in_s=round(time.monotonic() - started, 2))
        await asyncio.sleep(max(0.0, seconds - (time.monotonic() - started)))
    report["_spectators"] = [(b["spectator"]["token"], b["address"]) for b in created]


async def check_openings_after_restart(base: str, report: dict[str, Any]) -> None:
    """After a restart: every table whose 8 links were opened has begun."""
    spectators = report.pop("_spectators", [])
    begun = 0
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        for token, address in spectators:
            answer = await http.get("/api/table", headers=_auth(token, address))
            if answer.status_code == 200 and answer.json()["table"]["waiting_for"] == []:
                begun += 1
    report["tables_begun_after_restart"] = begun


async def _finished_tables(http: httpx.AsyncClient, count: int, seats: int,
                           prefix: str) -> list[tuple[str, str]]:
    """``count`` finished Grail Cup games of random bots (each from its own address, which
    the cap on tables of bots alone allows): their spectator tokens and addresses."""
    made: list[tuple[str, str]] = []
    index = 0
    while len(made) < count:
        index += 1
        address = f"{prefix}.{index // 250}.{index % 250 + 1}"
        body = await _new(http, address, "grail-cup",
                          [{"kind": "bot", "bot": "random"}] * seats)
        if body is None:
            await asyncio.sleep(0.2)
            continue
        made.append((body["spectator"]["token"], address))
    for token, address in made:
        while True:
            view = await http.get("/api/table", headers=_auth(token, address))
            if view.status_code == 200 and view.json()["state"]["finished"]:
                break
            await asyncio.sleep(0.2)
    return made


async def attack_reviews(base: str, seconds: float, report: dict[str, Any]) -> None:
    """One address reviews games back to back; a second address asks for one meanwhile."""
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        games = await _finished_tables(http, 4, 4, "10.36")
        greedy, other = "10.36.4.1", "10.36.4.2"

        async def review(token: str, address: str) -> tuple[float, float | None]:
            """Asked, then (seconds until it started running, until done)."""
            asked = time.monotonic()
            began: float | None = None
            while True:
                answer = await http.post("/api/replay/review", headers=_auth(token, address))
                if answer.status_code == 200:
                    break
                await asyncio.sleep(1.0)
            while True:
                state = (await http.get("/api/replay/review",
                                        headers=_auth(token, address))).json()
                if began is None and state.get("total"):
                    began = time.monotonic() - asked
                if state["state"] in ("done", "failed"):
                    return time.monotonic() - asked, began
                await asyncio.sleep(0.2)

        async def back_to_back() -> list[float]:
            took = []
            for token, _address in games[:3]:
                took.append((await review(token, greedy))[0])
            return took

        greedy_task = asyncio.create_task(back_to_back())
        await asyncio.sleep(0.5)
        second = await review(games[3][0], other)
        greedy_times = await greedy_task
    report.update(greedy_reviews_s=[round(t, 1) for t in greedy_times],
                  second_client_done_after_s=round(second[0], 1),
                  second_client_started_after_s=None if second[1] is None
                  else round(second[1], 1))


async def attack_coldload(base: str, seconds: float, report: dict[str, Any]) -> None:
    """One address opens 200 finished 8-seat tables that are not in memory."""
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False,
                                 limits=httpx.Limits(max_connections=200)) as http:
        games = report.pop("_games")
        answers: dict[str, int] = {}
        address = "10.36.5.1"

        async def open_one(token: str) -> None:
            while True:
                try:
                    answer = await http.get("/api/table", headers=_auth(token, address))
                    key = str(answer.status_code)
                except httpx.HTTPError as error:  # a keep-alive connection closed under it
                    key = type(error).__name__
                answers[key] = answers.get(key, 0) + 1
                if key == "200":
                    return
                await asyncio.sleep(0.2)

        started = time.monotonic()
        await asyncio.gather(*(open_one(token) for token, _ in games))
        report.update(tables_opened=len(games), answers=answers,
                      all_opened_in_s=round(time.monotonic() - started, 2))
        await asyncio.sleep(max(0.0, seconds - (time.monotonic() - started)))


async def prepare_coldload(base: str, report: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        report["_games"] = await _finished_tables(http, 200, 8, "10.37")


async def attack_handover(base: str, seconds: float, report: dict[str, Any]) -> None:
    """One address: tables of a person and 7 ISMCTS bots, the person's seat handed over."""
    address = "10.36.6.1"
    answers: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            body = await _new(http, address, "grail-cup", [{"kind": "human", "name": "A"}]
                              + [{"kind": "bot", "bot": "ismcts"}] * 7)
            if body is None:
                answers["create refused"] = answers.get("create refused", 0) + 1
                await asyncio.sleep(1.0)
                continue
            token = body["seats"][0]["token"]
            await http.get("/api/table", headers=_auth(token, address))  # arrives: begins
            handed = await http.post("/api/table/seats/0/bot", headers=_auth(token, address),
                                     json={"bot": "ismcts"})
            key = f"hand-over {handed.status_code}"
            if handed.status_code != 200:
                key += " " + handed.json()["error"]["code"]
            answers[key] = answers.get(key, 0) + 1
            await asyncio.sleep(0.5)
        legit = await http.post("/api/tables", headers=_client("10.36.6.2"), json={
            "game": "grail-cup", "seats": [{"kind": "bot", "bot": "random"}] * 2})
    report.update(answers=answers, legit_bots_table_status=legit.status_code)


async def attack_ipv6(base: str, seconds: float, report: dict[str, Any]) -> None:
    """30 addresses of one /64 create tables (the creation limit is 5 per client)."""
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        statuses: dict[str, int] = {}
        for i in range(30):
            answer = await http.post("/api/tables", headers=_client(f"2001:db8:36:1:{i:x}::1"),
                                     json={"game": "grail-cup", "seats": [
                                         {"kind": "human", "name": "A"},
                                         {"kind": "human", "name": "B"}]})
            statuses[str(answer.status_code)] = statuses.get(str(answer.status_code), 0) + 1
        mapped = await http.post("/api/tables", headers=_client("::ffff:198.51.100.36"),
                                 json={"game": "grail-cup", "seats": [
                                     {"kind": "human", "name": "A"},
                                     {"kind": "human", "name": "B"}]})
        await asyncio.sleep(seconds / 4)
    report.update(one_slash_64_answers=statuses, mapped_address_status=mapped.status_code)


ATTACK: dict[str, Callable[[str, float, dict[str, Any]], Awaitable[None]]] = {
    "hints": attack_hints, "idle": attack_idle, "openings": attack_openings,
    "reviews": attack_reviews, "coldload": attack_coldload, "handover": attack_handover,
    "ipv6": attack_ipv6,
}
#: Server flags of a scenario beyond the defaults.
EXTRA = {"reviews": ["--review-budget", "300"], "coldload": ["--bot-delay", "0"]}


PHASES = ("warmup", "before", "during", "after", "stop")


def _normal_process(base: str, paced: bool, phase: Any, results: Any) -> None:
    """The normal table in a process of its own: the attacker's work in the bench's event
    loop must not delay the normal table's own readings."""
    async def main() -> None:
        normal = NormalTable(base)
        if paced:
            _pace(normal)
        table = asyncio.create_task(normal.run())
        while PHASES[phase.value] != "stop":
            normal.phase = PHASES[phase.value]
            await asyncio.sleep(0.02)
        normal.stop.set()
        await asyncio.wait([table], timeout=20)
        results.put({"figures": normal.figures(), "errors": normal.errors[:3]})

    asyncio.run(main())


async def _scenario(name: str, base: str, seconds: float, report: dict[str, Any]) -> None:
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    phase = context.Value("i", 0)
    results = context.Queue()
    normal = context.Process(target=_normal_process,
                             args=(base, name == "coldload", phase, results), daemon=True)
    normal.start()
    await asyncio.sleep(5.0)
    phase.value = PHASES.index("before")
    await asyncio.sleep(seconds / 2)
    phase.value = PHASES.index("during")
    await ATTACK[name](base, seconds, report)
    phase.value = PHASES.index("after")
    await asyncio.sleep(min(10.0, seconds / 2))
    phase.value = PHASES.index("stop")
    found = await asyncio.to_thread(results.get, True, 60)
    await asyncio.to_thread(normal.join, 20)
    report["normal_table"] = found["figures"]
    report["normal_table_errors"] = found["errors"]


def _pace(normal: NormalTable) -> None:
    """The normal table at 0.4 s even where the server's bots play without a pause: its
    own tables ask for it (``POST /api/table/pace``) as they are made."""
    original = normal._table

    async def paced(http: httpx.AsyncClient) -> tuple[str, str]:
        token, spectator = await original(http)
        await http.post("/api/table/pace", headers={"Authorization": f"Bearer {token}"},
                        json={"seconds": 0.4})
        return token, spectator

    normal._table = paced  # type: ignore[method-assign]


def run_attack(name: str, seconds: float) -> dict[str, Any]:
    """One scenario on a fresh server and database; its figures."""
    report: dict[str, Any] = {"scenario": name, "attack_seconds": seconds,
                              "load_average_before": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'attack.sqlite3'}"
        log = Path(folder) / "server.log"
        if name == "coldload":
            # The finished games are made by one server; the attack meets the next one,
            # which has none of them in memory.
            with serve(database, EXTRA[name], log) as base:
                asyncio.run(prepare_coldload(base, report))
        with serve(database, EXTRA.get(name, []), log) as base:
            size_before = log.stat().st_size
            asyncio.run(_scenario(name, base, seconds, report))
            report["server_log_bytes_during"] = log.stat().st_size - size_before
        if name == "openings":
            with serve(database, [], log) as base:
                asyncio.run(check_openings_after_restart(base, report))
    return report
