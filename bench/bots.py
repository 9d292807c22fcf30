"""Decision time of the bots, on one core (figures for docs/bots.md; nothing asserts them).

* ``heuristic``: every decision of whole 5-player Shadows over Camelot games played by
  heuristic bots (a game with a traitor, the default table), timed one by one.
* ``ismcts``: the default budget, every decision of whole 5-player games without a
  traitor played by ISMCTS bots (the bar's table), timed one by one. Most decisions are
  the policy's alone; near the end of a game each is a search, the slowest ones.
* ``ismcts-traitor``: the same with the traitor deck (a traitor in 5 games of 8; issue
  18's table), ISMCTS on every seat, the traitor's included.

Prints a table and writes ``bench/results/bots.json``.

    python -m bench.bots [--games N] [--ismcts-games N] [--ismcts-traitor-games N] [--no-pin]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench.run import RESULTS_DIR, TimedBot, machine_info, pin_to_one_core
from pendragon import Game
from pendragon.bots import Bot, make_bot
from pendragon.runner import play_game
from pendragon.simulate import play_paired


def _stats(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "decisions": len(ordered),
        "mean_ms": 1000 * statistics.fmean(ordered),
        "median_ms": 1000 * ordered[len(ordered) // 2],
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "max_ms": 1000 * ordered[-1],
    }


def time_games(bot: str, games: int, players: int, **options: object) -> list[float]:
    """Per-decision times of ``bot`` on every seat over ``games`` whole games (game ``i``
    seeded ``i``: the run of seed 0 of :func:`~pendragon.simulate.play_paired`)."""
    times: list[float] = []

    def timed(game: Game, bots: list[Bot]) -> None:
        play_game(game, [TimedBot(b, times) for b in bots])

    play_paired("soc", [[lambda seed: make_bot(bot, seed)]], games, 0,
                {**options, "players": players}, play=timed)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and write its results."""
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="heuristic games to time")
    parser.add_argument("--ismcts-games", type=int, default=2, help="ISMCTS games to time")
    parser.add_argument("--ismcts-traitor-games", type=int, default=2,
                        help="ISMCTS games with the traitor deck to time")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--output", type=Path, default=RESULTS_DIR, help="JSON directory")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    args = parser.parse_args(argv)
    cpu = None if args.no_pin else pin_to_one_core()
    timed = {
        "heuristic": time_games("heuristic", args.games, args.players),
        "ismcts": time_games("ismcts", args.ismcts_games, args.players, no_traitor=True),
        "ismcts-traitor": time_games("ismcts", args.ismcts_traitor_games, args.players),
    }
    results: dict[str, Any] = {"machine": machine_info(cpu), "players": args.players}
    results.update({name: _stats(times) for name, times in timed.items() if times})
    table = Table(title=f"Decision time, soc {args.players} players, one core")
    for column in ("bot", "decisions", "mean ms", "median ms", "p99 ms", "max ms"):
        table.add_column(column)
    for name in timed:
        if name in results:
            row = results[name]
            table.add_row(name, str(row["decisions"]), *(f"{row[k]:.2f}" for k in (
                "mean_ms", "median_ms", "p99_ms", "max_ms")))
    Console().print(table)
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "bots.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
