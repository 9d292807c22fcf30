"""Diagnosis of ISMCTS's overrules (issue 14: the card game; issue 38: the model search).

Plays games with ISMCTS on the loyal seats (``loyal_search``; Grail Cup: every seat), logs
every decision where the search overruled the heuristic (decision kind, the policy's action,
the search's, the sweeps' paired mean and standard error), and judges each overrule by an
*oracle*: from the real state (every card known to the harness, never to a bot), both
actions are played out ``--oracle`` times with the game's heuristic on every seat, on common
random numbers (the same bot seeds and chance stream for both actions). The oracle's mean
gain is what an overrule is worth to a team of heuristic players after it. For diagnosis
only.

``--evaluator``: the search with the learned evaluator (``ISMCTSBot(evaluator=True)``, which
also searches, reading the model at the game's horizon, where full rollouts do not fit).

    python -m bench.overrules [--game soc-card] [--players 5] [--option K=V] [--evaluator]
        [--games 20] [--seed 5] [--iterations 8] [--budget 2000] [--margin 0.1]
        [--confidence E] [--oracle 40] [--json PATH]

The judge of issue 38 (Shadows over Camelot, the model at its two-turn horizon):
``python -m bench.overrules --game soc --option no_traitor=true --evaluator --iterations 16
--budget 8000 --games 6 --seed 41 --confidence 2`` (the test soc's search asked for then;
without ``--confidence``, the game's own: ``ISMCTSBot.confidence_for``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from bench.soc_card_bars import loyal_search, paired_difference
from pendragon import CHANCE, Game, State
from pendragon.bots import make_bot
from pendragon.bots.base import Bot, holds_loyal_card
from pendragon.bots.ismcts import (
    DEFAULT_CONFIDENCE,
    DEFAULT_PRIOR_MARGIN,
    ISMCTSBot,
    paired_advantage,
)
from pendragon.core import rng
from pendragon.runner import play_game
from pendragon.simulate import play_paired


def kind(state: State, prior: int, choice: int) -> str:
    """The decision's kind, from the actions' text forms."""
    texts = {state.action_to_string(a).split(":")[0] for a in state.legal_actions()}
    if {"listen", "quest", "accuse"} & texts:
        return "turn"
    return "/".join(sorted(texts))[:40]


class Logged(ISMCTSBot):
    """ISMCTS that records every search (and its sweeps' rewards) in ``log``."""

    def __init__(self, seed: int, log: list[dict[str, Any]], **options: Any) -> None:
        super().__init__(seed, **options)
        self.log = log
        #: The rewards of the search being decided (set by :meth:`_decide`).
        self._captured: dict[int, list[float]] = {}

    def _decide(self, prior: int, rewards: dict[int, list[float]], done: int,
                confidence: float = DEFAULT_CONFIDENCE) -> int:
        """The search's choice, with the sweeps' rewards kept for :meth:`search` (an
        override, not a patched instance: the compiled search calls its own method)."""
        self._captured = {a: list(r) for a, r in rewards.items()}
        return super()._decide(prior, rewards, done, confidence)

    def search(self, state: State, seat: int, prior: int, sweeps: int) -> int:
        """The search, with its evidence kept."""
        self._captured = {}
        start = time.perf_counter()
        choice = super().search(state, seat, prior, sweeps)
        seconds = time.perf_counter() - start
        entry: dict[str, Any] = {"seat": seat, "version": state.version, "seconds": seconds,
                                 "kind": kind(state, prior, choice),
                                 "prior": state.action_to_string(prior),
                                 "choice": state.action_to_string(choice),
                                 "overruled": choice != prior}
        if choice != prior:
            rewards = self._captured
            mean, error = paired_advantage(rewards[choice], rewards[prior])
            entry.update(mean=mean, error=error, sweeps=len(rewards[prior]),
                         state=state.clone(), prior_id=prior, choice_id=choice)
        self.log.append(entry)
        return choice


#: The oracle's chance stream, apart from its bots' (``rng.mix(seed, seat)``).
ORACLE_CHANCE = 0x0AC1E


def playout(state: State, action: int, seed: int, seat: int) -> float:
    """``seat``'s reward after ``action`` from the real ``state``, the heuristic on every
    seat (bots and chance seeded by ``seed``)."""
    world = state.clone()
    world.apply_action(action)
    name = world.game.name
    bots: list[Bot] = [make_bot("heuristic", rng.mix(seed, s), name) for s in
                       range(world.game.num_players())]
    chance = random.Random(rng.mix(seed, ORACLE_CHANCE))
    while not world.is_terminal():
        player = world.current_player()
        if player == CHANCE:
            world.apply_action(rng.pick_at(chance.random(), world.chance_outcomes()))
            continue
        world.apply_action(bots[player].step(world))
    return world.returns()[seat]


def main(argv: Sequence[str] | None = None) -> int:
    """Play, log, judge and print the overrules."""
    parser = argparse.ArgumentParser(prog="python -m bench.overrules",
                                     description=__doc__)
    parser.add_argument("--game", default="soc-card")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--option", action="append", default=[],
                        help="a game option, K=V (e.g. no_traitor=true)")
    parser.add_argument("--evaluator", action="store_true",
                        help="the search with the learned evaluator")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--margin", type=float, default=DEFAULT_PRIOR_MARGIN,
                        help="the search's prior_margin (the overrule test's margin)")
    parser.add_argument("--confidence", type=float, default=None,
                        help="the overrule test's standard errors (default: the game's own)")
    parser.add_argument("--oracle", type=int, default=40)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    log: list[dict[str, Any]] = []
    options: dict[str, Any] = {"players": args.players,
                               **dict(item.split("=", 1) for item in args.option)}

    def factory(seed: int) -> Bot:
        return Logged(seed, log, iterations=args.iterations, budget=args.budget,
                      prior_margin=args.margin, confidence=args.confidence,
                      evaluator=args.evaluator)

    def heuristic(seed: int) -> Bot:
        return make_bot("heuristic", seed, args.game)

    def logged(game: Game, bots: list[Bot]) -> tuple[bool, int, int]:
        """Whether the loyal side won, and the game's entries of the log (from, to)."""
        mark = len(log)
        final = play_game(game, bots)
        side = next(s for s in range(game.num_players()) if holds_loyal_card(final, s))
        return final.returns()[side] > 0, mark, len(log)

    played = play_paired(args.game, [[lambda seed: loyal_search(seed, factory, heuristic)]],
                         args.games, args.seed, options, play=logged)
    wins = []
    for index, [(won, first, last)] in enumerate(played):
        wins.append(won)
        for entry in log[first:last]:
            entry["game"] = index
    searches = len(log)
    overrules = [e for e in log if e["overruled"]]
    print(f"{args.games} games (seed {args.seed}, iterations {args.iterations}, budget "
          f"{args.budget}): loyal wins {sum(wins)}; searches {searches}, overrules "
          f"{len(overrules)}; max search {max((e['seconds'] for e in log), default=0):.2f} s")
    by_kind: dict[str, int] = {}
    for e in log:
        by_kind[e["kind"]] = by_kind.get(e["kind"], 0) + 1
    print("searches by kind:", by_kind)
    right = 0
    rows = []
    for e in overrules:
        state = e.pop("state")
        diffs = []
        for k in range(args.oracle):
            seed = rng.mix(e["version"], k + 1)
            diffs.append(playout(state, e["choice_id"], seed, e["seat"])
                         - playout(state, e["prior_id"], seed, e["seat"]))
        mean, error = paired_advantage(diffs, [0.0] * len(diffs))
        e.update(oracle_mean=mean, oracle_error=error)
        right += mean > 0
        print(f"game {e['game']:3d} seat {e['seat']} v{e['version']:4d} {e['kind']:10s} "
              f"{e['prior']:>14s} -> {e['choice']:<14s} search {e['mean']:+.2f}"
              f"±{e['error']:.2f} ({e['sweeps']} sweeps); oracle {mean:+.3f}±{error:.3f}")
        rows.append({k: v for k, v in e.items() if k not in ("prior_id", "choice_id")})
    gains = paired_difference([e["oracle_mean"] for e in overrules])
    against = sum(e["oracle_mean"] < 0 for e in overrules)
    # A reward is 1 for a win and -1 for a loss: half a reward's difference is a win chance's.
    print(f"overrules the oracle favours: {right}/{len(overrules)} ({against} against); oracle "
          f"mean gain {gains['mean']:+.3f}, {50 * gains['mean']:+.1f} points of win chance "
          f"an overrule [{50 * gains['low']:+.1f}, {50 * gains['high']:+.1f}]")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"wins": wins, "overrules": rows,
                       "searches": [{k: v for k, v in e.items() if k != "state"}
                                    for e in log if not e["overruled"]]}, out, indent=1,
                      default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
