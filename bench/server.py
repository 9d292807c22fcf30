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

Every run is bounded: at most ``--seconds`` of measurement plus a short warm-up, at most
``--max-tables`` tables created, traffic only to 127.0.0.1. Writes
``bench/results/server.json``; nothing asserts on the figures.

    python -m bench.server [--tables 200] [--watchers 1] [--bot-delay 0.25] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import platform
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
                 max_tables: int) -> None:
        self.base = base
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
            "game": "soc", "seats": [{"kind": "bot"}] * self.players})
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
    load = Load(base, args.tables, args.watchers, args.players, args.max_tables)
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


def run_one(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.TemporaryDirectory() as folder, fresh_database(args.database) as given:
        database = given or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        command = [
            sys.executable, "-m", "pendragon.web.server", "--host", HOST, "--port", str(port),
            "--database", database, "--bot-delay", str(args.bot_delay), "--metrics",
            "--bot-threads", str(args.bot_threads), "--log-level", "error",
        ]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(base + "/api/health", timeout=1, trust_env=False).is_success:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)
            figures = asyncio.run(measure(args, base))
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
    return {
        "config": {
            "tables": args.tables, "watchers_per_table": args.watchers,
            "players": args.players, "bot_delay_s": args.bot_delay,
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
    parser.add_argument("--bot-delay", type=float, default=0.25,
                        help="seconds each bot waits before moving (0: as fast as possible)")
    parser.add_argument("--bot-threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--max-tables", type=int, default=5000,
                        help="upper bound of tables created in one run")
    parser.add_argument("--database", default=None,
                        help="postgresql://... to measure PostgreSQL (default: SQLite)")
    parser.add_argument("--saturate", action="store_true",
                        help="also run once with --bot-delay 0 (the server's ceiling)")
    parser.add_argument("--output", type=Path, default=RESULTS_DIR / "server.json")
    args = parser.parse_args(argv)
    args.seconds = min(args.seconds, 300.0)

    before = machine()
    runs = [run_one(args)]
    if args.saturate:
        runs.append(run_one(argparse.Namespace(**{**vars(args), "bot_delay": 0.0})))
    for result in runs:
        config = result["config"]
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


if __name__ == "__main__":
    raise SystemExit(main())
