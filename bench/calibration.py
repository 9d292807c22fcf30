"""Calibration of the coach's estimates (issue 31 item 4): are decisions estimated at p won
about p of the time?

For each game, heuristic bots play seeded games (game ``k`` has seed ``seed * 1_000_003 +
k``, bots ``runner.bot_seed``); at ``--per-game`` decisions of each game with two or more
legal actions (evenly spaced over the game's decisions), the coach estimates the deciding
seat's chance of winning after the search's move (``coach.estimate``, the game's review
budget, the same figure a review calls "before" and a hint reports). At the end of the
game each estimate meets its outcome: did the seat's side win? Estimates are bucketed by
tenths; for each bucket: count, mean estimate, observed win rate with its 95% Wilson
interval. The calibration error is the count-weighted mean of |mean estimate - observed|
over the buckets; the Brier score is the mean squared gap over all estimates.

Prints a Markdown table per game and writes ``bench/results/calibration.json``.

    python -m bench.calibration [--games N] [--per-game N] [--seed S] [--only GAME] [--no-pin]

``--review-time GAME PLAYERS SEED`` instead times one review (``coach.review`` with its
game's budget and seed 1) of a game played by heuristic bots, in CPU seconds of this
process: the figures of docs/bots.md, "Coach calibration".
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Hashable, Sequence
from typing import Any

import pendragon
from bench.run import RESULTS_DIR, machine_info, pin_to_one_core
from pendragon.bots.heuristic import HeuristicBot
from pendragon.coach import Side, estimate, review
from pendragon.coach.review import decisions_of
from pendragon.core.api import Game, State
from pendragon.runner import bot_seed, play_game
from pendragon.simulate import game_seed, wilson_interval

#: The games and their table sizes.
GAMES: dict[str, int] = {"soc": 5, "soc-card": 5, "grail-cup": 4}


def sample_states(game: Game, actions: list[int], per_game: int,
                  draw: random.Random | None = None) -> tuple[list[State], list[float]]:
    """States at ``per_game`` decisions of a game played with ``actions`` (evenly spaced
    over its decisions, or drawn at random by ``draw`` as training draws its own), and
    the final returns. Evenly spaced picks hang on the game's length, which no seat
    knows when it decides: a model calibrated at every decision may read a little off
    at them."""
    decisions = decisions_of(game, actions)
    if draw is not None:
        chosen = set(draw.sample(decisions, min(per_game, len(decisions))))
    else:
        step = max(1, len(decisions) // per_game)
        chosen = set(decisions[step // 2::step][:per_game])
    state = game.new_initial_state()
    found: list[State] = []
    for index, action in enumerate(actions):
        if index in chosen:
            found.append(state.clone())
        state.apply_action(action)
    return found, state.returns()


def sample_game(name: str, players: int, seed: int, per_game: int
                ) -> list[tuple[float, bool, Group]]:
    """(estimate, won, its :func:`outcome_group`) at ``per_game`` decisions of one
    heuristic game of ``name``."""
    game = pendragon.load_game(name, players=players, seed=seed)
    final = play_game(game, [HeuristicBot(bot_seed(seed, s)) for s in range(players)])
    states, returns = sample_states(game, final.history(), per_game)
    found: list[tuple[float, bool, Group]] = []
    for state in states:
        seat = state.current_player()
        result = estimate(state, seat, seed=seed)
        found.append((result.chance(result.choice), returns[seat] > 0,
                      outcome_group(seed, result.side, seat)))
    return found


def review_time(name: str, players: int, seed: int) -> str:
    """One review of a heuristic game of ``name``, timed in CPU seconds."""
    game = pendragon.load_game(name, players=players, seed=seed)
    final = play_game(game, [HeuristicBot(bot_seed(seed, s)) for s in range(players)])
    started = time.process_time()
    done = review(game, final.history(), seed=1)
    cpu = time.process_time() - started
    sweeps = [move.sweeps for move in done.moves]
    return (f"{name} {players} players, seed {seed}: {len(final.history())} actions, "
            f"{len(done.moves)} decisions, {cpu:.1f} s of CPU, "
            f"{sum(sweeps) / max(1, len(sweeps)):.1f} sweeps a decision, marks {done.marks}")


def reliability(samples: Sequence[tuple[float, bool]]) -> dict[str, Any]:
    """The reliability table of ``samples`` by tenths, the calibration error and Brier score.

    >>> table = reliability([(0.05, False), (0.95, True), (0.92, False)])
    >>> [(row["bucket"], row["count"]) for row in table["buckets"]]
    [('0.0-0.1', 1), ('0.9-1.0', 2)]
    >>> round(table["calibration_error"], 3), round(table["brier"], 3)
    (0.307, 0.284)
    """
    rows = []
    gap = 0.0
    for tenth in range(10):
        inside = [(p, won) for p, won in samples
                  if tenth == min(9, int(p * 10))]
        if not inside:
            continue
        mean = sum(p for p, _ in inside) / len(inside)
        wins = sum(won for _, won in inside)
        low, high = wilson_interval(wins, len(inside))
        observed = wins / len(inside)
        gap += len(inside) * abs(mean - observed)
        rows.append({"bucket": f"{tenth / 10:.1f}-{(tenth + 1) / 10:.1f}", "count": len(inside),
                     "mean_estimate": mean, "observed": observed, "low": low, "high": high})
    count = len(samples)
    return {"buckets": rows, "estimates": count,
            "calibration_error": gap / count if count else 0.0,
            "brier": sum((p - won) ** 2 for p, won in samples) / count if count else 0.0}


#: The outcome a reading meets, for the noise floor: its group (a game's key: every reading
#: of the group meets the same outcome) and whether it reads that outcome (``True``) or its
#: opposite (a traitor's reading of a game whose group is its loyal side).
Group = tuple[Hashable, bool]


def outcome_group(game: Hashable, side: Side, seat: int) -> Group:
    """The :data:`Group` of ``seat``'s reading in game ``game``: in the Camelot games every
    seat's side wins or loses with the loyal side (a traitor's the other way round); in
    Grail Cup each knight races alone.

    >>> outcome_group(3, "traitors", 1), outcome_group(3, "own", 1)
    (((3,), False), ((3, 1), True))
    """
    if side == "own":
        return (game, seat), True
    return (game,), side == "loyal"


def null_errors(samples: Sequence[tuple[float, bool]], groups: Sequence[Group] | None = None,
                draws: int = 200, seed: int = 0) -> list[float]:
    """The calibration errors of :func:`reliability` a *perfectly calibrated* model would
    show on these estimates, over ``draws`` seeded draws, smallest first: each reading's
    outcome a win with the reading's own chance. Readings of one of ``groups`` (a game's)
    share one uniform draw ``u``: a reading of ``p`` of the group's outcome wins if ``u <
    p``, one of its opposite if ``u >= 1 - p``; so each keeps its chance, and a game's
    readings rise and fall together (as much as their chances let them), as at the table,
    where they meet one outcome. Without ``groups`` every reading is drawn alone.

    >>> alone = null_errors([(0.5, True)] * 8, draws=50)
    >>> together = null_errors([(0.5, True)] * 8, [("game", True)] * 8, draws=50)
    >>> min(together), sum(alone) / 50 < 0.3  # one game: all won or all lost
    (0.5, True)
    """
    generator = random.Random(seed)
    keys = [(index, True) for index in range(len(samples))] if groups is None else groups
    found = []
    for _ in range(draws):
        drawn: dict[Hashable, float] = {}
        outcomes = []
        for (p, _), (key, same) in zip(samples, keys, strict=True):
            u = drawn.setdefault(key, generator.random())
            outcomes.append((p, u < p if same else u >= 1 - p))
        found.append(reliability(outcomes)["calibration_error"])
    return sorted(found)


#: Draws of a table's noise figures (the 95th of a thousand: within a tenth of a point).
NOISE_DRAWS = 1000


def noise_table(samples: Sequence[tuple[float, bool]], groups: Sequence[Group] | None = None,
                draws: int = NOISE_DRAWS) -> dict[str, float]:
    """What a table's error owes to its sample alone (its size, and how many games its
    readings come from): the mean of :func:`null_errors` (``noise_floor``) and the error a
    calibrated model stays under in 95 draws of 100 (``noise_95``).

    >>> floor = noise_table([(0.5, True)] * 100, draws=200)
    >>> 0.02 < floor["noise_floor"] < floor["noise_95"] < 0.12
    True
    >>> noise_table([(0.0, False), (1.0, True)], draws=20)
    {'noise_floor': 0.0, 'noise_95': 0.0}
    """
    if not samples:
        return {"noise_floor": 0.0, "noise_95": 0.0}
    errors = null_errors(samples, groups, draws)
    return {"noise_floor": sum(errors) / len(errors),
            "noise_95": errors[math.ceil(0.95 * len(errors)) - 1]}


def markdown(name: str, table: dict[str, Any]) -> str:
    """The reliability table of one game as Markdown."""
    floor, high = table.get("noise_floor"), table.get("noise_95")
    lines = [f"{name} ({table['estimates']} estimates, calibration error "
             f"{100 * table['calibration_error']:.1f} points"
             + ("" if floor is None else f"; a calibrated model's on this sample "
                f"{100 * floor:.1f}")
             + ("" if high is None else f", under {100 * high:.1f} in 95 samples of 100")
             + f", Brier {table['brier']:.3f})", "",
             "| bucket | count | mean estimate | observed win rate | 95% interval |",
             "| --- | --- | --- | --- | --- |"]
    for row in table["buckets"]:
        lines.append(f"| {row['bucket']} | {row['count']} | {100 * row['mean_estimate']:.1f}% | "
                     f"{100 * row['observed']:.1f}% | [{100 * row['low']:.1f}%, "
                     f"{100 * row['high']:.1f}%] |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the calibration and print/write the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games per game (default 60)")
    parser.add_argument("--per-game", type=int, default=8,
                        help="estimates per game (default 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=None, help="one game only")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one core")
    parser.add_argument("--review-time", nargs=3, default=None, metavar=("GAME", "PLAYERS", "SEED"),
                        help="time one review instead (see above)")
    args = parser.parse_args(argv)
    cpu = None if args.no_pin else pin_to_one_core()
    if args.review_time is not None:
        name, players, seed = args.review_time
        print(review_time(name, int(players), int(seed)))
        return 0
    results: dict[str, Any] = {"settings": vars(args), "machine": machine_info(cpu), "games": {}}
    for name, players in GAMES.items():
        if args.only is not None and name != args.only:
            continue
        started = time.process_time()
        read: list[tuple[float, bool, Group]] = []
        for k in range(args.games):
            read += sample_game(name, players, game_seed(args.seed, k), args.per_game)
        samples = [(p, won) for p, won, _ in read]
        table = reliability(samples)
        table.update(noise_table(samples, [group for _, _, group in read]))
        table["players"] = players
        table["cpu_seconds"] = time.process_time() - started
        results["games"][name] = table
        print(markdown(f"{name}, {players} players", table))
        print(f"({table['cpu_seconds']:.0f} s of CPU)\n", flush=True)
    RESULTS_DIR.mkdir(exist_ok=True)
    suffix = "" if args.only is None else f"_{args.only}"
    (RESULTS_DIR / f"calibration{suffix}.json").write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
