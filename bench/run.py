"""Throughput benchmark of every registered game, on one core.

For each game (and each of its player counts: the default table gets the full time budget,
the others a quarter of it) it measures:

* full random games per second (random bots, chance from the state's own stream);
* applied actions per second, split into decisions and chance steps, and their total;
* the mean cost of ``clone()`` at mid-game positions, in microseconds;
* the mean cost of ``observation_tensor`` at the same positions (for the seat to act, or
  seat 0 at a chance node), in microseconds: the research environments' share of a step;
* the mean cost of narrating one action at the same positions to every seat and the
  spectator, in microseconds: what the table and the terminal pay for each move.

Prints a table and writes ``bench/results/<game>.json`` with the machine's description.
Figures are for comparing versions on one machine; nothing asserts on them.

    python -m bench.run [--games N] [--seconds S] [--game NAME] [--default-only] [--no-pin]
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import os
import platform
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import pendragon
from pendragon import CHANCE, Game, State
from pendragon.bots.base import Bot
from pendragon.bots.random_bot import RandomBot
from pendragon.runner import supported_player_counts

RESULTS_DIR = Path(__file__).resolve().parent / "results"
#: Mid-game positions sampled for the clone measurement, per player count.
CLONE_POSITIONS = 20
#: Time spent cloning (and building the tensor of) each position (nanoseconds).
CLONE_BUDGET_NS = 40_000_000


@dataclass(frozen=True, slots=True)
class Result:
    """Measurements of one game at one player count."""

    players: int
    games: int
    seconds: float
    games_per_second: float
    decisions: int
    chance_steps: int
    decisions_per_second: float
    chance_steps_per_second: float
    steps_per_second: float
    mean_game_length: float
    clone_positions: int
    clone_us_mean: float
    clone_us_median: float
    tensor_us_mean: float
    #: Narrating one action to every seat and the spectator (a fresh copy's cost taken off).
    narrate_us_mean: float
    options: dict[str, Any] = field(default_factory=dict)


class TimedBot:
    """A bot whose every decision is timed: the seconds of each ``step`` go to ``times``
    (the harness's clock around the bot; the game and the bot see nothing of it)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def step(self, state: State) -> int:
        """The bot's action, timed."""
        start = time.perf_counter()
        action = self.bot.step(state)
        self.times.append(time.perf_counter() - start)
        return action


#: Tables measured besides the default options, per game: (players, options).
EXTRA_TABLES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "soc": [(8, {"expansion": "merlins-company"})],
}


def pin_to_one_core() -> int | None:
    """Run this process on a single CPU where the OS allows it; return that CPU."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def machine_info(cpu: int | None) -> dict[str, Any]:
    """Python, platform and date, stored next to the figures."""
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "pinned_cpu": cpu,
        # The build of the rules and the core that ran (compiled or pure, and why).
        "build": pendragon.build.describe(),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def player_counts(name: str) -> tuple[int, list[int]]:
    """The default player count of ``name`` and the other counts it allows (default options)."""
    default = pendragon.load_game(name, seed=0).num_players()
    return default, [c for c in supported_player_counts(name) if c != default]


def _play(game: Game, bot: RandomBot) -> tuple[State, int, int]:
    """One random game; returns the final state, decisions and chance steps."""
    state = game.new_initial_state()
    decisions = chance = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
            chance += 1
        else:
            state.apply_action(bot.step(state))
            decisions += 1
    return state, decisions, chance


def _mid_game_states(
    name: str, players: int, count: int, options: dict[str, Any] | None = None
) -> list[State]:
    """States halfway through ``count`` seeded random games."""
    states = []
    for seed in range(count):
        game = pendragon.load_game(name, players=players, seed=10_000 + seed, **(options or {}))
        history = _play(game, RandomBot(seed))[0].history()
        state = game.new_initial_state()
        state.replay(history[: len(history) // 2])
        states.append(state)
    return states


def _cost_us(call: Callable[[], object]) -> float:
    """Mean wall time of ``call()`` in microseconds, over many repetitions."""
    start = time.perf_counter_ns()
    for _ in range(10):
        call()
    calibration = max(1, (time.perf_counter_ns() - start) // 10)
    repetitions = max(10, CLONE_BUDGET_NS // calibration)
    start = time.perf_counter_ns()
    for _ in range(repetitions):
        call()
    return (time.perf_counter_ns() - start) / repetitions / 1000


def _tensor_seat(state: State) -> int:
    """The seat whose tensor a learner would ask for: the one to act, else seat 0."""
    player = state.current_player()
    return player if player >= 0 else 0


def _narrate_all(state: State) -> None:
    """Narrate the position's first legal action (its own draw at a chance node) to every
    seat and the spectator, on a fresh copy (a game may keep what it narrated per position)."""
    copy = state.clone()
    action = copy.sample_chance() if copy.is_chance_node() else copy.legal_actions()[0]
    for viewer in (None, *range(copy.game.num_players())):
        copy.narrate(action, viewer)


def measure(
    name: str, players: int, seconds: float, max_games: int,
    options: dict[str, Any] | None = None,
) -> Result:
    """Random games of ``name`` at ``players`` seats for ``seconds`` or ``max_games``."""
    bot = RandomBot(0)
    games = decisions = chance = 0
    elapsed = 0
    budget = int(seconds * 1e9)
    while games < max_games and elapsed < budget:
        game = pendragon.load_game(name, players=players, seed=games, **(options or {}))
        start = time.perf_counter_ns()
        _, game_decisions, game_chance = _play(game, bot)
        elapsed += time.perf_counter_ns() - start
        games += 1
        decisions += game_decisions
        chance += game_chance
    wall = elapsed / 1e9
    positions = _mid_game_states(name, players, CLONE_POSITIONS, options)
    clones = [_cost_us(s.clone) for s in positions]
    tensors = [_cost_us(functools.partial(s.observation_tensor, _tensor_seat(s)))
               for s in positions]
    # Narration to every watcher, the fresh copy's cost taken off.
    narrations = [_cost_us(functools.partial(_narrate_all, s)) - clone
                  for s, clone in zip(positions, clones, strict=True)]
    return Result(
        players=players,
        games=games,
        seconds=round(wall, 3),
        games_per_second=games / wall,
        decisions=decisions,
        chance_steps=chance,
        decisions_per_second=decisions / wall,
        chance_steps_per_second=chance / wall,
        steps_per_second=(decisions + chance) / wall,
        mean_game_length=(decisions + chance) / games,
        clone_positions=len(clones),
        clone_us_mean=statistics.fmean(clones),
        clone_us_median=statistics.median(clones),
        tensor_us_mean=statistics.fmean(tensors),
        narrate_us_mean=statistics.fmean(narrations),
        options=dict(options or {}),
    )


def _table(name: str, results: Sequence[Result]) -> Table:
    table = Table(title=f"{name}: random games on one core")
    headers = ("seats", "games", "games/s", "decisions/s", "chance/s", "steps/s", "avg length",
               "clone µs", "tensor µs", "narrate µs")
    for column in headers:
        table.add_column(column, justify="right")
    for r in results:
        extra = "".join(f" {k}={v}" for k, v in r.options.items())
        table.add_row(
            f"{r.players}{extra}", str(r.games), f"{r.games_per_second:,.1f}",
            f"{r.decisions_per_second:,.0f}", f"{r.chance_steps_per_second:,.0f}",
            f"{r.steps_per_second:,.0f}", f"{r.mean_game_length:,.1f}", f"{r.clone_us_mean:,.1f}",
            f"{r.tensor_us_mean:,.1f}", f"{r.narrate_us_mean:,.1f}",
        )
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; write one JSON file per game."""
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__)
    parser.add_argument("--games", type=int, default=1_000_000, help="max games per table")
    parser.add_argument(
        "--seconds", type=float, default=10.0,
        help="time for the default table (the other player counts get a quarter)",
    )
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--default-only", action="store_true", help="skip other player counts")
    parser.add_argument("--output", type=Path, default=RESULTS_DIR, help="JSON directory")
    parser.add_argument(
        "--no-pin", action="store_true", help="do not pin the process to one CPU (tests)"
    )
    args = parser.parse_args(argv)

    cpu = None if args.no_pin else pin_to_one_core()
    info = machine_info(cpu)
    console = Console(width=max(100, shutil.get_terminal_size().columns))
    console.print(f"Rules and core: {pendragon.build.describe()}", highlight=False)
    names = [args.game] if args.game else pendragon.registered_games()
    for name in names:
        # Warm up (imports, caches, CPU frequency) so the first table is not penalised.
        measure(name, player_counts(name)[0], min(1.0, args.seconds / 10), args.games)
        default, others = player_counts(name)
        plan = [(default, args.seconds)]
        if not args.default_only:
            plan += [(p, args.seconds / 4) for p in others]
        results = [measure(name, players, seconds, args.games) for players, seconds in plan]
        if not args.default_only:
            results += [
                measure(name, players, args.seconds / 4, args.games, options)
                for players, options in EXTRA_TABLES.get(name, [])
            ]
        console.print(_table(name, results))
        args.output.mkdir(parents=True, exist_ok=True)
        path = args.output / f"{name}.json"
        payload = {
            "game": name,
            "machine": info,
            "default_players": default,
            "results": [asdict(r) for r in results],
        }
        path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        console.print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
