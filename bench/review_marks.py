"""Are a review's marks real? (issue 38, item 3: "a move is marked only when its drop is
real".)

Games of heuristic bots on held-out seeds (game ``k``: ``pendragon.simulate.game_seed``), in
which each decision with a choice is, with chance ``--rate``, played uniformly at random
instead (``pendragon.training.explorer``: the moves a person might make that the bots
seldom do). Each game is reviewed at those decisions (``coach.review(..., only=...)``),
once for each way of marking in ``--marks`` (the model's drops, the search's, the
model's confirmed by the search: ``coach.estimate.Marks``). At every one whose move is not
the review's best, the move's *true* drop is measured from the real position (every card
where it lies): ``--playouts`` paired playouts by heuristic bots on every seat after the
review's best and after the move played (the same bots' seeds and chance draws for
both), the seat's side winning with the one minus winning with the other. The real
position is one draw of what the seat could not see, so a move's true drop is unbiased
for what the seat could know, and noisy.

A playout is one game's outcome, so a single move's true drop is read to about
``1 / sqrt(playouts)``; the figures are over many moves: the correlation of the review's
drops with the true ones, the mean true drop of the marked and of the unmarked moves (95%
intervals), how many of the moves that truly drop 10 or 20 points or more were marked, and
how many marked moves truly dropped less than 2 (the true figure's own noise included).

    python -m bench.review_marks GAME PLAYERS [--games N] [--rate R] [--playouts K]
        [--seed S] [--marks model,search,confirmed] [--option K=V] [--workers W]

Writes ``bench/results/review_marks_<game>_<players>.json`` and prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import get_context
from typing import Any

import pendragon
from bench.run import RESULTS_DIR, machine_info
from pendragon.bots import make_bot
from pendragon.coach import review
from pendragon.core import rng
from pendragon.core.api import CHANCE, Game, State
from pendragon.runner import bot_seed, play_game
from pendragon.simulate import game_seed
from pendragon.training import explorer

#: The playouts' chance stream, apart from their bots' seeds.
_CHANCE = 0xC0A7


def playout(game: Game, state: State, seed: int) -> State:
    """``state`` played to its end by heuristic bots on every seat (seeded from ``seed``),
    chance drawn from ``seed``'s own stream: the same ``seed`` gives two children of one
    position the same bots and the same draws."""
    bots = [make_bot("heuristic", bot_seed(seed, s), game.name)
            for s in range(game.num_players())]
    world = state.clone()
    stream, draws = rng.mix(seed, _CHANCE), 0
    while not world.is_terminal():
        player = world.current_player()
        if player == CHANCE:
            world.apply_action(rng.pick_at(rng.uniform(stream, draws), world.chance_outcomes()))
            draws += 1
        else:
            world.apply_action(bots[player].step(world))
    return world


class Outcomes:
    """The seat's wins in ``playouts`` playouts from the real ``state`` after each action
    asked, playout ``k`` seeded ``mix(seed, k)`` whatever the action (so two actions' wins
    are paired), each action's played once however many reviews ask it."""

    def __init__(self, game: Game, state: State, seat: int, playouts: int, seed: int) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.playouts, self.seed = playouts, seed
        self._wins: dict[int, list[float]] = {}

    def wins(self, action: int) -> list[float]:
        """1 or 0 a playout: whether the seat's side won after ``action``."""
        found = self._wins.get(action)
        if found is None:
            found = []
            for k in range(self.playouts):
                child = self.state.clone()
                child.apply_action(action)
                final = playout(self.game, child, rng.mix(self.seed, k))
                found.append(1.0 if final.returns()[self.seat] > 0 else 0.0)
            self._wins[action] = found
        return found

    def drop(self, best: int, played: int) -> float:
        """The mean of ``won after best - won after played`` over the paired playouts."""
        pairs = zip(self.wins(best), self.wins(played), strict=True)
        return statistics.fmean(a - b for a, b in pairs)


def _one_game(task: tuple[str, dict[str, Any], int, float, int, tuple[str, ...]]
              ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, float], int]:
    """One game: per way of marking, its reviewed deviations with their true drops and
    the review's CPU seconds; and the number of deviations."""
    name, options, seed, rate, playouts, ways = task
    game = pendragon.load_game(name, **{**options, "seed": seed})
    bots = [make_bot("heuristic", bot_seed(seed, s), name) for s in range(game.num_players())]
    moved: dict[int, int] = {}
    actions = play_game(game, bots, deviate=explorer(rate, seed, moved)).history()
    truths: dict[int, Outcomes] = {}
    rows: dict[str, list[dict[str, Any]]] = {}
    spent: dict[str, float] = {}
    for way in ways:
        started = time.process_time()
        done = review(game, actions, only=set(moved), marks=way)  # type: ignore[arg-type]
        spent[way] = time.process_time() - started
        rows[way] = []
        for move in done.moves:
            if move.played == move.best:
                continue
            if move.index not in truths:
                state = game.new_initial_state()
                for action in actions[:move.index]:
                    state.apply_action(action)
                truths[move.index] = Outcomes(game, state, move.seat, playouts,
                                              rng.mix(seed, move.index))
            rows[way].append({
                "seed": seed, "index": move.index, "seat": move.seat,
                "played": move.played_text, "best": move.best_text, "drop": move.drop,
                "drop_error": move.drop_error, "mark": move.mark,
                "true": truths[move.index].drop(move.best, move.played)})
    return rows, spent, len(moved)


def _mean(values: Sequence[float]) -> dict[str, Any]:
    """Mean and 95% interval, in points."""
    if not values:
        return {"count": 0}
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return {"count": len(values), "points": 100 * mean, "low": 100 * (mean - half),
            "high": 100 * (mean + half)}


def _correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation of the review's drops with the true ones (``None`` when
    either does not vary)."""
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return None


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of the module's text from the reviewed deviations ``rows``.

    >>> rows = [{"true": 0.3, "drop": 0.25, "mark": "blunder"},
    ...         {"true": 0.0, "drop": 0.0, "mark": None},
    ...         {"true": 0.12, "drop": 0.02, "mark": None},
    ...         {"true": 0.01, "drop": 0.06, "mark": "inaccuracy"}]
    >>> found = summary(rows)
    >>> found["truly_10"], found["truly_20"], found["marked_below_2"]
    ({'moves': 2, 'marked': 1}, {'moves': 1, 'marked': 1}, {'moves': 2, 'marked': 1})
    >>> round(found["correlation"], 2)
    0.89
    """
    marked = [r["true"] for r in rows if r["mark"]]
    unmarked = [r["true"] for r in rows if not r["mark"]]
    found: dict[str, Any] = {"moves": len(rows), "marked": _mean(marked),
                             "unmarked": _mean(unmarked),
                             "correlation": _correlation([r["drop"] for r in rows],
                                                         [r["true"] for r in rows])}
    for least in (10, 20):
        big = [r for r in rows if r["true"] >= least / 100]
        found[f"truly_{least}"] = {"moves": len(big), "marked": sum(1 for r in big if r["mark"])}
    small = [r for r in rows if r["true"] < 0.02]
    found["marked_below_2"] = {"moves": len(small),
                               "marked": sum(1 for r in small if r["mark"])}
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bench (see the module's text)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--marks", default="model,search,confirmed",
                        help="where a drop comes from (coach.estimate.Marks), one or more: "
                             "model, search, confirmed (the same games and playouts)")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    ways = tuple(args.marks.split(","))
    if not ways or not set(ways) <= {"model", "search", "confirmed"}:
        raise SystemExit("--marks: one or more of model, search, confirmed")
    options: dict[str, Any] = dict(item.split("=", 1) for item in args.option)
    options["players"] = args.players
    tasks = [(args.game, options, game_seed(args.seed, k), args.rate, args.playouts, ways)
             for k in range(args.games)]
    rows: dict[str, list[dict[str, Any]]] = {way: [] for way in ways}
    spent: dict[str, list[float]] = {way: [] for way in ways}
    deviations = 0
    with get_context("spawn").Pool(args.workers) as pool:
        for done, (found, seconds, count) in enumerate(pool.imap(_one_game, tasks), 1):
            for way in ways:
                rows[way].extend(found[way])
                spent[way].append(seconds[way])
            deviations += count
            if done % 10 == 0:
                print(f"{done} games, {len(rows[ways[0]])} moves", file=sys.stderr, flush=True)
    result = {"game": args.game, "players": args.players, "deviations": deviations,
              "marks": {way: {"review_cpu_s": statistics.fmean(spent[way]),
                              **summary(rows[way]), "rows": rows[way]} for way in ways}}
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / f"review_marks_{args.game}_{args.players}.json").write_text(json.dumps(
        {"settings": vars(args), "machine": machine_info(None), "results": result},
        indent=1) + "\n")
    print(markdown(result))
    return 0


def markdown(result: dict[str, Any]) -> str:
    """The figures as a Markdown table, a column for each way of marking."""
    ways = list(result["marks"])

    def interval(part: dict[str, Any]) -> str:
        if not part["count"]:
            return "none"
        return (f"{part['count']}: {part['points']:+.1f} "
                f"[{part['low']:+.1f}, {part['high']:+.1f}]")

    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> str:
        return f"| {label} | " + " | ".join(cell(result["marks"][w]) for w in ways) + " |"

    return "\n".join([
        f"{result['game']} at {result['players']}: {result['deviations']} random moves", "",
        "| marks by | " + " | ".join(ways) + " |", "| --- |" + " --- |" * len(ways),
        row("moves not the review's best", lambda m: str(m["moves"])),
        row("its drops against the true: correlation",
            lambda m: "-" if m["correlation"] is None else f"{m['correlation']:.2f}"),
        row("marked: true drop (points)", lambda m: interval(m["marked"])),
        row("unmarked: true drop", lambda m: interval(m["unmarked"])),
        row("truly 10+ points: marked", lambda m: "{marked} of {moves}".format(**m["truly_10"])),
        row("truly 20+ points: marked", lambda m: "{marked} of {moves}".format(**m["truly_20"])),
        row("truly below 2: marked",
            lambda m: "{marked} of {moves}".format(**m["marked_below_2"])),
        row("review CPU a game", lambda m: f"{m['review_cpu_s']:.2f} s"),
    ])


if __name__ == "__main__":
    raise SystemExit(main())
