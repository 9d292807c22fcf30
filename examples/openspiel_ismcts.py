"""OpenSpiel's IS-MCTS in seat 0 of Shadows over Camelot, against pendragon's bots.

Importing ``pendragon.envs.openspiel`` registers ``python_pendragon_soc`` with ``pyspiel``;
OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``, random-rollout
evaluator) then searches it, determinizing the hidden cards through the game's
``resample_from_infostate``. The other seats are pendragon bots made by
``pendragon.bots.make_bot``: the first registered bot other than ``"random"`` (a heuristic
bot, once one exists), falling back to ``"random"`` when that is the only bot there is.

Each deal is played twice, once with IS-MCTS in seat 0 and once with a random bot there,
chance drawn from the pendragon state's own seeded stream in both. Expect modest results
from a few random-rollout simulations: random rollouts of this game are almost always lost
by the loyal knights, which gives the search little to tell its moves apart. Raise
``--simulations`` (slower) or plug in a better evaluator.

    python examples/openspiel_ismcts.py [--games 3] [--simulations 20] [--players 5]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import pendragon.envs.openspiel  # noqa: F401  (registers python_pendragon_soc)
from pendragon.bots import Bot, bot_names, make_bot


def opponent_name() -> str:
    """The bot for the other seats: a non-random one if any is registered."""
    others = [name for name in bot_names() if name != "random"]
    return others[0] if others else "random"


def play(game: Any, searcher: Any | None, opponents: list[Bot], seed: int) -> dict[str, Any]:
    """One game; seat 0 is ``searcher`` (IS-MCTS) or, if ``None``, a random bot."""
    seat_zero = make_bot("random", seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        inner = state.pendragon_state
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            action = inner.sample_chance()
        elif player == 0:
            action = searcher.step(state) if searcher is not None else seat_zero.step(inner)
        else:
            action = opponents[player].step(inner)
        state.apply_action(int(action))
    table = state.pendragon_state.observation(0)
    return {
        "return": state.returns()[0],
        "loyalty": table["you"]["loyalty"],
        "end": f"{table['status']} ({table['end_reason']})",
        "turns": table["turn"]["number"],
        "swords": f"{table['round_table']['white']}/{table['round_table']['black']}",
    }


def main() -> None:
    """Play each deal with IS-MCTS and with a random seat 0; print both."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    name = opponent_name()
    print(f"seats 1-{args.players - 1}: pendragon bot {name!r} (known bots: {bot_names()})")
    results: dict[str, list[float]] = {"IS-MCTS": [], "random": []}
    for index in range(args.games):
        seed = args.seed + index
        game = pyspiel.load_game("python_pendragon_soc", {"players": args.players, "seed": seed})
        generator = np.random.RandomState(seed)
        searcher = ismcts.ISMCTSBot(
            game=game,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=generator),
            uct_c=2.0,
            max_simulations=args.simulations,
            random_state=generator,
        )
        for label, bot in (("IS-MCTS", searcher), ("random", None)):
            opponents = [make_bot(name, seed * 100 + seat) for seat in range(args.players)]
            start = time.perf_counter()
            outcome = play(game, bot, opponents, seed)
            results[label].append(outcome["return"])
            print(
                f"deal {seed}, seat 0 {label:>7} ({outcome['loyalty']}): return"
                f" {outcome['return']:+.0f}, {outcome['end']} after {outcome['turns']} turns,"
                f" swords {outcome['swords']} ({time.perf_counter() - start:.1f} s)"
            )
    for label, returns in results.items():
        print(f"seat 0 {label:>7}: mean return {np.mean(returns):+.2f} over {len(returns)} games")


if __name__ == "__main__":
    main()
