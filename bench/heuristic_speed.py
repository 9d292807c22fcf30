"""Decision time of each game's heuristic bot, and a fingerprint of the games it played.

Figures for docs/bots.md (issue 40 item 5); nothing asserts them. Every seat is played by
the game's ``heuristic`` bot over whole games, on the seeds of
:func:`~pendragon.simulate.play_paired` (game ``i`` of seed 0), each decision timed on its
own: the process's CPU time around ``step`` (following the table and choosing), so that a
machine shared with other work, which stretches the wall clock, changes the figure less. The
fingerprint is a SHA-256 of every game's history: two runs with the same ``--games`` that
print the same fingerprint made the same decisions, whatever their speed (how issue 40
item 5's speed-up was checked not to change a move).

    python -m bench.heuristic_speed [--games 40] [--no-pin] [--json PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.run import RESULTS_DIR, machine_info, pin_to_one_core
from pendragon import Game, State
from pendragon.bots import Bot, make_bot
from pendragon.runner import play_game
from pendragon.simulate import play_paired

#: (game, players, options) measured; the card game at several tables.
TABLES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("soc-card", 5, {}),
    ("soc-card", 3, {"knights_relief": True}),
    ("soc-card", 7, {}),
    ("soc-card", 1, {}),
    ("soc-card", 4, {"knights_relief": True, "promos": True}),
    ("grail-cup", 4, {}),
    ("soc", 5, {}),
)


class CpuTimedBot:
    """A bot whose every decision's CPU time (``time.process_time``) goes to ``times``."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def step(self, state: State) -> int:
        """The bot's action, timed."""
        start = time.process_time()
        action = self.bot.step(state)
        self.times.append(time.process_time() - start)
        return action


def measure(name: str, players: int, options: dict[str, Any], games: int) -> dict[str, Any]:
    """Time every decision of ``games`` whole games; fingerprint their histories."""
    times: list[float] = []
    digest = hashlib.sha256()

    def timed(game: Game, bots: list[Bot]) -> State:
        final = play_game(game, [CpuTimedBot(b, times) for b in bots])
        digest.update(json.dumps(final.history()).encode())
        return final

    play_paired(name, [[lambda seed: make_bot("heuristic", seed)]], games, 0,
                {**options, "players": players}, play=timed)
    ordered = sorted(times)
    return {
        "game": name, "players": players, "options": options, "games": games,
        "decisions": len(ordered),
        "mean_ms": 1000 * statistics.fmean(ordered),
        "median_ms": 1000 * ordered[len(ordered) // 2],
        "fingerprint": digest.hexdigest()[:16],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark, print a line per table and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per table")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--json", type=Path, default=RESULTS_DIR / "heuristic_speed.json")
    args = parser.parse_args(argv)
    cpu = None if args.no_pin else pin_to_one_core()
    rows = []
    for name, players, options in TABLES:
        games = args.games if name == "soc-card" else max(1, args.games // 4)
        row = measure(name, players, options, games)
        rows.append(row)
        print(f"{name:9} {players}p {json.dumps(options):45} {row['decisions']:6} decisions"
              f"  mean {row['mean_ms']:.3f} ms  median {row['median_ms']:.3f} ms"
              f"  fingerprint {row['fingerprint']}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"machine": machine_info(cpu), "tables": rows}, indent=2)
                         + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
