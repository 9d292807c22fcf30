"""The bars of Grail Cup's bots, at 4 players (figures for docs/bots.md; nothing asserts them).

1. **Heuristic against random**: one ``heuristic`` bot among three ``random`` bots wins at
   least 50% of the games (twice the fair share of 25%).
2. **ISMCTS against the heuristic**: one ``ismcts`` bot among three ``heuristic`` bots wins
   clearly more than 25% (its 95% interval lies above 25%).
3. **Game length**: rounds played by four ``heuristic`` bots (the standard track is meant
   for 8-12 rounds, GC-RULING-1).

Every deal (game seed ``game_seed(seed, k)``, ``pendragon.simulate.play_paired``) is
played once with the lone bot on each of the four seats, so seats and deals are balanced;
every bot is seeded ``bot_seed(game seed, seat)``. For bar 2 the same deals played by four heuristic
bots (bar 3's games) give the paired baseline: an ISMCTS bot plays exactly as the heuristic
until its search first overrules it. Win rates carry 95% Wilson intervals.

Prints the figures and writes ``bench/results/grail_cup_bars.json``.

    python -m bench.grail_cup_bars [--random-deals N] [--ismcts-deals N] [--length-deals N]
                                   [--seed S] [--iterations N] [--no-pin]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.run import RESULTS_DIR, machine_info, pin_to_one_core
from pendragon import Game
from pendragon.bots import Bot, ISMCTSBot, RandomBot
from pendragon.games.grail_cup.heuristic import GrailCupBot
from pendragon.runner import play_game
from pendragon.simulate import BotFactory, play_paired, wilson_interval

PLAYERS = 4


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games if games else 0.0,
            "low": low, "high": high}


def _text(rate: dict[str, Any]) -> str:
    return (f"{rate['wins']}/{rate['games']} = {100 * rate['rate']:.1f}% "
            f"[{100 * rate['low']:.1f}%, {100 * rate['high']:.1f}%]")


def lone_bot_games(
    lone: BotFactory, others: BotFactory, deals: int, seed: int
) -> list[tuple[int, int, bool]]:
    """``(deal, seat, won)`` for each deal played with ``lone`` on each seat in turn."""
    panels = [[lone if s == seat else others for s in range(PLAYERS)] for seat in range(PLAYERS)]
    played = play_paired("grail-cup", panels, deals, seed, {"players": PLAYERS},
                         play=lambda game, bots: play_game(game, bots).returns())
    return [(deal, seat, returns[seat] > 0)
            for deal, row in enumerate(played) for seat, returns in enumerate(row)]


def heuristic_games(deals: int, seed: int) -> list[tuple[int, int]]:
    """``(rounds, winner)`` of each deal played by four heuristic bots."""
    def figures(game: Game, bots: list[Bot]) -> tuple[int, int]:
        final = play_game(game, bots)
        return int(final.observation(None)["round"]), final.returns().index(1.0)

    return [row[0] for row in play_paired("grail-cup", [[GrailCupBot]], deals, seed,
                                          {"players": PLAYERS}, play=figures)]


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the three bars and write their figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.grail_cup_bars", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random-deals", type=int, default=500, help="bar 1 (4 games each)")
    parser.add_argument("--ismcts-deals", type=int, default=60, help="bar 2 (4 games each)")
    parser.add_argument("--length-deals", type=int, default=1000, help="bar 3 (1 game each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=16, help="ISMCTS sweeps at most")
    parser.add_argument("--budget", type=int, default=8000, help="ISMCTS simulated actions")
    parser.add_argument("--output", type=Path, default=RESULTS_DIR, help="JSON directory")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    args = parser.parse_args(argv)
    cpu = None if args.no_pin else pin_to_one_core()
    results: dict[str, Any] = {"machine": machine_info(cpu), "players": PLAYERS,
                               "seed": args.seed}

    # 1. One heuristic among three random bots.
    start = time.process_time()
    games = lone_bot_games(GrailCupBot, RandomBot, args.random_deals, args.seed)
    bar1 = _rate(sum(won for *_, won in games), len(games))
    bar1["cpu_seconds"] = time.process_time() - start
    bar1["met"] = bar1["rate"] >= 0.5
    results["heuristic_vs_random"] = bar1
    print(f"1. heuristic among 3 random: {_text(bar1)} (bar: >= 50%) "
          f"{'met' if bar1['met'] else 'NOT met'}; {bar1['cpu_seconds']:.0f} s")

    # 3. Four heuristic bots (also bar 2's paired baseline).
    start = time.process_time()
    plain = heuristic_games(max(args.length_deals, args.ismcts_deals), args.seed)
    rounds = [r for r, _ in plain[: args.length_deals]]
    histogram = dict(sorted(Counter(rounds).items()))
    bar3: dict[str, Any] = {
        "games": len(rounds),
        "mean": statistics.fmean(rounds) if rounds else math.nan,
        "stdev": statistics.stdev(rounds) if len(rounds) > 1 else 0.0,
        "median": statistics.median(rounds) if rounds else math.nan,
        "min": min(rounds, default=0),
        "max": max(rounds, default=0),
        "histogram": histogram,
        "seat_wins": [sum(1 for _, w in plain[: args.length_deals] if w == s)
                      for s in range(PLAYERS)],
        "cpu_seconds": time.process_time() - start,
    }
    bar3["met"] = 8 <= bar3["mean"] <= 12
    results["heuristic_rounds"] = bar3

    # 2. One ISMCTS bot among three heuristic bots.
    def ismcts(seed: int) -> Bot:
        return ISMCTSBot(seed, iterations=args.iterations, budget=args.budget,
                         min_iterations=min(6, args.iterations))

    start = time.process_time()
    games = lone_bot_games(ismcts, GrailCupBot, args.ismcts_deals, args.seed)
    bar2 = _rate(sum(won for *_, won in games), len(games))
    baseline = [plain[deal][1] == seat for deal, seat, _ in games]
    bar2["baseline"] = _rate(sum(baseline), len(baseline))
    diffs = [int(won) - int(base) for (_, _, won), base in zip(games, baseline, strict=True)]
    if len(diffs) > 1:
        error = statistics.stdev(diffs) / math.sqrt(len(diffs))
        bar2["paired_difference"] = {"mean": statistics.fmean(diffs), "margin95": 1.96 * error,
                                     "ismcts_only": diffs.count(1), "heuristic_only":
                                     diffs.count(-1)}
    bar2["cpu_seconds"] = time.process_time() - start
    bar2["settings"] = {"iterations": args.iterations, "budget": args.budget,
                        "min_iterations": min(6, args.iterations)}
    bar2["met"] = bar2["low"] > 0.25
    results["ismcts_vs_heuristic"] = bar2
    print(f"2. ismcts ({args.iterations} sweeps, budget {args.budget}) among 3 heuristic: "
          f"{_text(bar2)} (bar: interval above 25%) {'met' if bar2['met'] else 'NOT met'}; "
          f"{bar2['cpu_seconds']:.0f} s")
    if "paired_difference" in bar2:
        paired = bar2["paired_difference"]
        print(f"   same deals and seats, heuristic instead: {_text(bar2['baseline'])}; paired "
              f"difference {100 * paired['mean']:+.1f} points (95%: +/- "
              f"{100 * paired['margin95']:.1f}); won by ismcts only {paired['ismcts_only']}, "
              f"by the heuristic only {paired['heuristic_only']}")
    print(f"3. rounds, 4 heuristic bots, {bar3['games']} games: mean {bar3['mean']:.2f} "
          f"(sd {bar3['stdev']:.2f}), median {bar3['median']}, {bar3['min']}-{bar3['max']} "
          f"(bar: mean 8-12) {'met' if bar3['met'] else 'NOT met'}; {bar3['cpu_seconds']:.0f} s")
    print("   distribution: " + ", ".join(f"{r}: {c}" for r, c in histogram.items()))
    print(f"   wins by seat: {bar3['seat_wins']}")
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "grail_cup_bars.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
