"""Load benchmark of the online table (``make bench-server``).

Starts ``pendragon serve`` in a child process on the loopback interface (SQLite in a
temporary directory, ``--metrics`` on), creates many bot-only Shadows over Camelot tables
and watches each with WebSocket spectators, keeping the number of live tables constant
(a finished game is replaced by a new table). After a warm-up it measures, for a fixed
time:

* moves served per second (bot decisions applied, stored and pushed; each also carries
  the chance steps that follow it);
* the time from a move's submission to each observation push for it (the server takes
  the time when the move is submitted and again when the push has been written to the
  WebSocket), p50 / p90 / p99;
* the messages the watchers received per second (client side).

This throughput run switches the server's limits off (one client creates every table).

The *flood* run (issue 17, item 4) starts the server with its default limits and
measures what a person at a table feels while others try to overload it: ``--flood-clients``
clients (each its own address, given in ``X-Forwarded-For``, which the server trusts for
this run only) create 8-seat ISMCTS bot tables as fast as they can (``--flood-rate``
attempts a second in all, ignoring ``Retry-After``) and watch every table they get, while
the bench plays ``--people-tables`` tables of three people and an ISMCTS bot over
WebSockets. Reported: the
people's move-to-push time (client side: from sending a move to receiving the new view),
the time the table's bots took per turn, and how the server answered the flood.

Every run is bounded: at most ``--seconds`` of measurement plus a short warm-up, at most
``--max-tables`` tables created, traffic only to 127.0.0.1. Writes
``bench/results/server.json``; nothing asserts on the figures.

Issue 36's attacks (``--scenario attacks``, or one by name) are in :mod:`bench.attacks`.

    python -m bench.server [--scenario both|throughput|flood|attacks] [--tables 200]
                           [--watchers 1] [--bot-delay 0.25] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import platform
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.attacks import ATTACKS, run_attack, serving

RESULTS_DIR = Path(__file__).resolve().parent / "results"
HOST = "127.0.0.1"


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class Load:
    """Keeps ``tables`` bot tables alive, each watched by ``watchers`` spectators."""

    def __init__(self, base: str, tables: int, watchers: int, players: int,
                 max_tables: int, bot: str | None = None) -> None:
        self.base = base
        #: The seats' bot (``None``: the game's table bot).
        self.seat = {"kind": "bot"} if bot is None else {"kind": "bot", "bot": bot}
        self.ws_url = base.replace("http://", "ws://") + "/ws"
        self.tables = tables
        self.watchers = watchers
        self.players = players
        self.max_tables = max_tables
        self.created = 0
        self.finished = 0
        self.messages = 0
        self.state_messages = 0
        self.errors: list[str] = []
        self.stop = asyncio.Event()
        self.http = httpx.AsyncClient(base_url=base, timeout=30.0, trust_env=False,
                                      limits=httpx.Limits(max_connections=50))

    async def create_table(self) -> str | None:
        if self.created >= self.max_tables:
            return None
        self.created += 1
        response = await self.http.post("/api/tables", json={
            "game": "soc", "seats": [self.seat] * self.players})
        response.raise_for_status()
        token: str = response.json()["spectator"]["token"]
        return token

    async def watch(self, token: str) -> bool:
        """One spectator: read every message until the game ends (True) or the run stops."""
        async with websockets.connect(self.ws_url, max_size=2**22, proxy=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while not self.stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                self.messages += 1
                if '"type":"state"' in text:
                    self.state_messages += 1
                    if '"finished":true' in text:
                        return True
        return False

    async def table_slot(self) -> None:
        """Run tables one after another in this slot until the run stops."""
        while not self.stop.is_set():
            try:
                token = await self.create_table()
                if token is None:
                    return
                ended = await asyncio.gather(*(self.watch(token) for _ in range(self.watchers)))
            except Exception as error:  # counted and reported; the slot carries on
                self.errors.append(f"{type(error).__name__}: {error}")
                await asyncio.sleep(0.5)
                continue
            if any(ended):
                self.finished += 1

    async def run(self) -> list[asyncio.Task[None]]:
        return [asyncio.create_task(self.table_slot()) for _ in range(self.tables)]


async def measure(args: argparse.Namespace, base: str) -> dict[str, Any]:
    load = Load(base, args.tables, args.watchers, args.players, args.max_tables, args.bot)
    tasks = await load.run()
    await asyncio.sleep(args.warmup)
    await load.http.post("/api/metrics/reset")
    messages_before = load.messages
    started = time.monotonic()
    await asyncio.sleep(args.seconds)
    elapsed = time.monotonic() - started
    metrics = (await load.http.get("/api/metrics")).json()
    messages = load.messages - messages_before
    load.stop.set()
    await asyncio.wait(tasks, timeout=15)
    await load.http.aclose()
    return {
        "moves": metrics["moves"],
        "actions": metrics["actions"],
        "pushes": metrics["pushes"],
        "seconds": round(elapsed, 2),
        "moves_per_second": round(metrics["moves"] / metrics["seconds"], 1),
        "actions_per_second": round(metrics["actions"] / metrics["seconds"], 1),
        "pushes_per_second": round(metrics["pushes"] / metrics["seconds"], 1),
        "latency_ms": metrics["latency_ms"],
        "latency_samples": metrics["latency_samples"],
        "db_commits": metrics["commits"],
        "db_writes": metrics["writes"],
        "client_messages_per_second": round(messages / elapsed, 1),
        "tables_created": load.created,
        "games_finished": load.finished,
        "client_errors": len(load.errors),
        "first_errors": load.errors[:3],
    }


def quantiles(samples: list[float]) -> dict[str, float | None]:
    """p50 / p90 / p99 / max of ``samples`` (seconds) in milliseconds."""
    ordered = sorted(samples)

    def pct(q: float) -> float | None:
        if not ordered:
            return None
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0)}


class Flood:
    """Clients creating 8-seat ISMCTS bot tables as fast as they can, watching each."""

    def __init__(self, base: str, clients: int, rate: float, max_tables: int) -> None:
        self.base = base
        self.ws_url = base.replace("http://", "ws://") + "/ws"
        self.clients = clients
        self.rate = rate
        self.max_tables = max_tables
        self.answers: dict[str, int] = {}
        self.created = 0
        self.watching = 0
        self.stop = asyncio.Event()
        self.http = httpx.AsyncClient(base_url=base, timeout=30.0, trust_env=False,
                                      limits=httpx.Limits(max_connections=100))

    async def watch(self, token: str, address: str) -> None:
        """Keep the table's bots playing: a spectator reading everything."""
        try:
            async with websockets.connect(self.ws_url, max_size=2**22, proxy=None,
                                          additional_headers={"X-Forwarded-For": address}
                                          ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                self.watching += 1
                try:
                    while not self.stop.is_set():
                        try:
                            text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                        except TimeoutError:
                            continue
                        if '"finished":true' in str(text):
                            return
                finally:
                    self.watching -= 1
        except Exception:  # refused (rate limited) or closed: the flood goes on
            return

    async def client(self, index: int) -> None:
        """One attacker: attempts at ``rate / clients`` a second, from its own address."""
        address = f"10.{index // 250}.{index % 250}.7"
        pause = self.clients / self.rate
        watchers: list[asyncio.Task[None]] = []
        await asyncio.sleep(random.random() * pause)
        while not self.stop.is_set() and self.created < self.max_tables:
            try:
                response = await self.http.post(
                    "/api/tables", headers={"X-Forwarded-For": address},
                    json={"game": "soc", "options": {"expansion": "merlins-company"},
                          "seats": [{"kind": "bot", "bot": "ismcts"}] * 8})
                key = str(response.status_code)
                if response.status_code != 201:
                    key += " " + response.json()["error"]["code"]
                self.answers[key] = self.answers.get(key, 0) + 1
                if response.status_code == 201:
                    self.created += 1
                    token = response.json()["spectator"]["token"]
                    watchers.append(asyncio.create_task(self.watch(token, address)))
            except httpx.HTTPError as error:
                key = type(error).__name__
                self.answers[key] = self.answers.get(key, 0) + 1
            await asyncio.sleep(pause)
        await asyncio.gather(*watchers, return_exceptions=True)

    async def run(self) -> list[asyncio.Task[None]]:
        return [asyncio.create_task(self.client(i)) for i in range(self.clients)]


class PeopleTable:
    """Tables of three people (played by the bench over WebSockets) and an ISMCTS bot.

    Each person moves as soon as it is his turn (a random legal move); the time from
    sending the move to receiving the view it produced is the move-to-push time.
    """

    def __init__(self, base: str) -> None:
        self.base = base
        self.ws_url = base.replace("http://", "ws://") + "/ws"
        self.latencies: list[float] = []
        self.bot_turns: list[float] = []
        self.games = 0
        self.errors: list[str] = []
        self.measuring = False
        self.stop = asyncio.Event()
        self.rng = random.Random(17)

    async def seat(self, token: str, done: asyncio.Event, timer: bool, address: str) -> None:
        """Play one seat until the game ends or the run stops (from its own address: each
        person is a client of his own)."""
        async with websockets.connect(self.ws_url, max_size=2**22, proxy=None,
                                      additional_headers={"X-Forwarded-For": address}
                                      ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent_at: float | None = None
            bot_since: float | None = None
            last_move = ""
            while not self.stop.is_set() and not done.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                message = json.loads(text)
                if message.get("type") == "error":
                    self.errors.append(str(message.get("code")))
                    sent_at = None
                    if message.get("code") == "rate_limited" and last_move:
                        # Counted as an error; the move is sent again (not timed).
                        await asyncio.sleep(float(message.get("retry_after", 1)))
                        await ws.send(last_move)
                if message.get("type") != "state":
                    continue
                now = time.perf_counter()
                if sent_at is not None and self.measuring:
                    self.latencies.append(now - sent_at)
                sent_at = None
                if bot_since is not None and self.measuring:
                    self.bot_turns.append(now - bot_since)
                bot_since = None
                if message["finished"]:
                    done.set()
                    return
                if timer and message.get("to_act_controller") == "bot":
                    bot_since = now  # the first person's page times the bots' turns
                if message["legal"]:
                    action = self.rng.choice(message["legal"])["id"]
                    last_move = json.dumps({"type": "move", "version": message["version"],
                                            "action": action})
                    sent_at = time.perf_counter()
                    await ws.send(last_move)

    async def play(self, index: int) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=30.0,
                                     trust_env=False) as http:
            while not self.stop.is_set():
                try:
                    response = await http.post("/api/tables", headers={
                        "X-Forwarded-For": f"10.250.{index}.1"}, json={
                        "game": "soc", "seats": [
                            {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "ismcts"},
                            {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"},
                        ]})
                    response.raise_for_status()
                    tokens = [s["token"] for s in response.json()["seats"] if s["token"]]
                    done = asyncio.Event()
                    await asyncio.gather(*(self.seat(token, done, i == 0,
                                                     f"10.250.{index}.{i + 1}")
                                           for i, token in enumerate(tokens)))
                    self.games += 1
                except Exception as error:
                    self.errors.append(f"{type(error).__name__}: {error}")
                    await asyncio.sleep(0.5)


async def measure_flood(args: argparse.Namespace, base: str) -> dict[str, Any]:
    flood = Flood(base, args.flood_clients, args.flood_rate, args.max_tables)
    people = PeopleTable(base)
    players = [asyncio.create_task(people.play(i)) for i in range(args.people_tables)]
    tasks = await flood.run()
    await asyncio.sleep(args.warmup)
    async with httpx.AsyncClient(base_url=base, timeout=30.0, trust_env=False) as http:
        await http.post("/api/metrics/reset")
        answers_before = dict(flood.answers)
        people.measuring = True
        started = time.monotonic()
        await asyncio.sleep(args.seconds)
        elapsed = time.monotonic() - started
        people.measuring = False
        metrics = (await http.get("/api/metrics")).json()
    flood.stop.set()
    people.stop.set()
    await asyncio.wait([*tasks, *players], timeout=15)
    await flood.http.aclose()
    answers = {k: v - answers_before.get(k, 0) for k, v in flood.answers.items()}
    return {
        "seconds": round(elapsed, 2),
        "people_move_to_push_ms": quantiles(people.latencies),
        "people_moves": len(people.latencies),
        "people_games_finished": people.games,
        "people_errors": people.errors[:5],
        "people_table_bot_turn_ms": quantiles(people.bot_turns),
        "people_table_bot_turns": len(people.bot_turns),
        "flood_attempts_per_second": round(sum(answers.values()) / elapsed, 1),
        "flood_answers": answers,
        "flood_tables_created": flood.created,
        "server_moves_per_second": round(metrics["moves"] / metrics["seconds"], 1),
        "server_push_latency_ms": metrics["latency_ms"],
        "tables_loaded": metrics["tables_loaded"],
    }


@contextlib.contextmanager
def fresh_database(url: str | None) -> Iterator[str | None]:
    """For PostgreSQL, a URL whose tables live in a new schema, dropped afterwards (so no
    unfinished bench table is resumed by a later server)."""
    if not url:
        yield None
        return
    import psycopg

    schema = "pendragon_bench_" + secrets.token_hex(4)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        # Other work on the machine skews the figures: the load before the run says how
        # quiet it was.
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }


def run_one(args: argparse.Namespace, flood: bool = False) -> dict[str, Any]:
    port = free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as folder, fresh_database(args.database) as given:
        database = given or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        command = [
            sys.executable, "-m", "pendragon.web.server", "--host", HOST, "--port", str(port),
            "--database", database, "--bot-delay", str(args.bot_delay), "--metrics",
            "--bot-threads", str(args.bot_threads), "--bot-pool", args.bot_pool,
            "--log-level", "error",
        ]
        if flood:
            # Default limits; the flood's many addresses come in X-Forwarded-For, which
            # the server believes from this loopback client as from a reverse proxy.
            command += ["--trusted-proxy", HOST]
        else:
            # One client creates every table: the limits would refuse most of them.
            command += ["--create-rate", "0", "--write-rate", "0", "--connect-rate", "0",
                        "--message-rate", "0", "--bot-tables", "0",
                        "--bot-tables-per-client", "0", "--unwatched-grace", "0",
                        "--connections-per-client", "0", "--loads-per-client", "0"]
        with serving(command, base, 30, subprocess.DEVNULL):
            figures = asyncio.run(measure_flood(args, base) if flood else measure(args, base))
    if flood:
        return {"config": {"scenario": "flood", "flood_clients": args.flood_clients,
                           "flood_rate": args.flood_rate, "bot_delay_s": args.bot_delay,
                           "bot_threads": args.bot_threads, "bot_pool": args.bot_pool,
                           "warmup_s": args.warmup,
                           "database": "postgresql" if args.database else "sqlite"},
                **figures}
    return {
        "config": {
            "scenario": "throughput",
            "tables": args.tables, "watchers_per_table": args.watchers,
            "players": args.players, "bot": args.bot or "the table's",
            "bot_delay_s": args.bot_delay,
            "bot_threads": args.bot_threads, "warmup_s": args.warmup,
            "database": "postgresql" if args.database else "sqlite",
        },
        **figures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables")
    parser.add_argument("--watchers", type=int, default=1, help="spectators per table")
    parser.add_argument("--players", type=int, default=5, help="seats per table (bots)")
    parser.add_argument("--bot", default=None,
                        help="throughput: the seats' bot (default: the game's table bot, "
                             "soc's stealth; random: the server's own cost, bots all but free)")
    parser.add_argument("--bot-delay", type=float, default=0.25,
                        help="seconds each bot waits before moving (0: as fast as possible)")
    parser.add_argument("--bot-threads", type=int, default=2)
    parser.add_argument("--bot-pool", choices=("process", "thread"), default="process",
                        help="the server's bot workers (pendragon serve --bot-pool)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--max-tables", type=int, default=5000,
                        help="upper bound of tables created in one run")
    parser.add_argument("--database", default=None,
                        help="postgresql://... to measure PostgreSQL (default: SQLite)")
    parser.add_argument("--flood-bot-delay", type=float, default=0.4,
                        help="bot delay of the flood run (the server's default)")
    parser.add_argument("--saturate", action="store_true",
                        help="also run once with --bot-delay 0 (the server's ceiling)")
    parser.add_argument("--scenario", choices=("both", "throughput", "flood", "attacks",
                                               *ATTACKS), default="both",
                        help="the throughput run, the flood run (issue 17, item 4), or both;"
                             " or issue 36's attacks beside a normal table (all, or one by"
                             " name: bench/attacks.py)")
    parser.add_argument("--attack-seconds", type=float, default=20.0,
                        help="how long each of issue 36's attacks lasts")
    parser.add_argument("--flood-clients", type=int, default=30,
                        help="flooding clients, each from its own address")
    parser.add_argument("--flood-rate", type=float, default=60.0,
                        help="table creations the flood attempts per second in all")
    parser.add_argument("--people-tables", type=int, default=3,
                        help="tables of people (and a bot) played during the flood")
    parser.add_argument("--output", type=Path, default=RESULTS_DIR / "server.json")
    args = parser.parse_args(argv)
    args.seconds = min(args.seconds, 300.0)
    if args.scenario == "attacks" or args.scenario in ATTACKS:
        return attacks_main(args)

    before = machine()
    runs = []
    if args.scenario in ("both", "throughput"):
        runs.append(run_one(args))
        if args.saturate:
            runs.append(run_one(argparse.Namespace(**{**vars(args), "bot_delay": 0.0})))
    if args.scenario in ("both", "flood"):
        flood_args = argparse.Namespace(**{**vars(args), "bot_delay": args.flood_bot_delay})
        runs.append(run_one(flood_args, flood=True))
    for result in runs:
        config = result["config"]
        if config["scenario"] == "flood":
            people = result["people_move_to_push_ms"]
            print(
                f"flood: {result['flood_attempts_per_second']} creations attempted/s by"
                f" {config['flood_clients']} clients ({result['flood_answers']}); a people's"
                f" table's move to push p50 {people['p50']} ms, p99 {people['p99']} ms"
                f" ({result['people_moves']} moves); its bots' turns p50"
                f" {result['people_table_bot_turn_ms']['p50']} ms, p99"
                f" {result['people_table_bot_turn_ms']['p99']} ms"
            )
            continue
        latency = result["latency_ms"]
        print(
            f"{config['tables']} tables x {config['watchers_per_table']} watcher(s),"
            f" bot delay {config['bot_delay_s']} s: {result['moves_per_second']} moves/s"
            f" ({result['actions_per_second']} actions/s, {result['pushes_per_second']}"
            f" pushes/s); submission to push p50 {latency['p50']} ms, p90 {latency['p90']} ms,"
            f" p99 {latency['p99']} ms; {result['games_finished']} games finished"
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"machine": before, "runs": runs}, indent=2) + "\n")
    print(f"wrote {args.output}")
    return 0


def attacks_main(args: argparse.Namespace) -> int:
    """Issue 36's attacks, each beside a normal people's table; written to
    ``bench/results/server_attacks.json`` (or ``--output`` if given otherwise)."""
    names = ATTACKS if args.scenario == "attacks" else (args.scenario,)
    before = machine()
    reports = []
    for name in names:
        report = run_attack(name, min(args.attack_seconds, 120.0))
        reports.append(report)
        print(json.dumps(report), flush=True)
    output = args.output
    if output == RESULTS_DIR / "server.json":
        output = RESULTS_DIR / "server_attacks.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({"machine": before, "attacks": reports}, indent=2) + "\n")
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
