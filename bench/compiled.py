"""Our games beside OpenSpiel's C++ Hanabi, in one process: the compiled core's bars.

Each contender plays uniformly random playouts (chance from its own stream: our games'
``sample_chance``, Hanabi's outcomes drawn with the same ``random.Random``) for one round of
``--seconds``; the rounds go round-robin, so load on the machine falls on all alike, and the
best round of each counts. Also measured, at mid-game positions: ``clone()`` in µs.

Run for the build that is installed, and (``--both``) again in a subprocess with
``PENDRAGON_PURE=1``, so the pure figure stands beside the compiled one:

    python -m bench.compiled [--players 5] [--rounds 5] [--seconds 1.0] [--ismcts N] [--both]

Nothing asserts on the figures; docs/research.md and the README record them with this
command. Needs the ``rl`` extra (OpenSpiel).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pendragon
from pendragon import build

GAMES = ("soc", "soc-card", "grail-cup")
#: Mid-game positions sampled for the clone figure, and clones timed at each.
CLONE_POSITIONS = 12
CLONES_EACH = 2000


Playout = Callable[[random.Random], int]
#: How a contender draws a chance outcome: ours from the state's own stream, Hanabi's with
#: the benchmark's generator.
ChanceDraw = Callable[[Any, random.Random], int]


def _playout_of(start: Callable[[], Any], chance: ChanceDraw) -> Playout:
    """One random playout from ``start()``; returns the decisions it took."""

    def playout(rng: random.Random) -> int:
        state = start()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        return decisions

    return playout


def _ours(name: str, players: int) -> tuple[Playout, Callable[[], Any]]:
    game = pendragon.load_game(name, players=players, seed=1)
    return _playout_of(game.new_initial_state, lambda state, _rng: state.sample_chance()), \
        game.new_initial_state


def _any_outcome(state: Any, rng: random.Random) -> int:
    """One of the chance outcomes, uniformly: the cheapest draw there is, so the yardstick
    runs at its best (a draw by the outcomes' probabilities costs Hanabi 40% of its rate)."""
    outcomes = state.chance_outcomes()
    return int(outcomes[rng.randrange(len(outcomes))][0])


def _hanabi(players: int | None) -> tuple[Playout, Callable[[], Any]]:
    import pyspiel

    game = pyspiel.load_game("hanabi", {} if players is None else {"players": players})
    return _playout_of(game.new_initial_state, _any_outcome), game.new_initial_state


def _mid_game_clone_us(start: Callable[[], Any], rng: random.Random) -> float:
    """Mean µs of ``clone()`` over positions a random playout passes halfway."""
    total = 0.0
    for _ in range(CLONE_POSITIONS):
        actions = []
        state = start()
        while not state.is_terminal():  # a whole playout, then its first half again
            actions.append(_random_step(state, rng))
        state = start()
        for action in actions[: len(actions) // 2]:
            state.apply_action(action)
        began = time.perf_counter()
        for _ in range(CLONES_EACH):
            state.clone()
        total += (time.perf_counter() - began) / CLONES_EACH
    return total / CLONE_POSITIONS * 1e6


def _random_step(state: Any, rng: random.Random) -> int:
    if state.is_chance_node():
        action = _any_outcome(state, rng)
    else:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
    state.apply_action(action)
    return int(action)


def ismcts_ms(name: str, players: int, decisions: int) -> float:
    """Mean milliseconds of one ISMCTS decision (the table's search bot at its default
    budget, heuristic rollouts) over ``decisions`` decisions of seeded games: the same
    positions and the same searches in either build."""
    from pendragon.bots.ismcts import ISMCTSBot

    spent, made, seed = 0.0, 0, 0
    while made < decisions:
        game = pendragon.load_game(name, players=players, seed=seed)
        state = game.new_initial_state()
        bots = [ISMCTSBot(seed=seed * 10 + seat) for seat in range(players)]
        while not state.is_terminal() and made < decisions:
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            began = time.perf_counter()
            action = bots[state.current_player()].step(state)
            spent += time.perf_counter() - began
            made += 1
            state.apply_action(action)
        seed += 1
    return spent / made * 1000


def measure(players: int, rounds: int, seconds: float, ismcts: int = 0) -> dict[str, Any]:
    """Best-of-rounds decisions/s and mid-game clone µs of every contender, and the mean
    time of ``ismcts`` search decisions of each of our games (none: 0)."""
    contenders = {f"{name} {players}p": _ours(name, players) for name in GAMES}
    contenders["hanabi (C++) 2p"] = _hanabi(None)
    contenders[f"hanabi (C++) {players}p"] = _hanabi(players)
    best = dict.fromkeys(contenders, 0.0)
    rng = random.Random(7)
    for _ in range(rounds):
        for label, (playout, _start) in contenders.items():
            decisions, began = 0, time.perf_counter()
            while time.perf_counter() - began < seconds:
                decisions += playout(rng)
            best[label] = max(best[label], decisions / (time.perf_counter() - began))
    clones = {label: _mid_game_clone_us(start, rng) for label, (_p, start) in contenders.items()}
    search = {f"{name} {players}p": ismcts_ms(name, players, ismcts)
              for name in GAMES} if ismcts else {}
    return {"mode": build.describe(), "players": players, "rounds": rounds,
            "seconds": seconds, "decisions_per_second": best, "clone_us": clones,
            "ismcts_ms": search}


def _print(result: dict[str, Any]) -> None:
    rates, clones = result["decisions_per_second"], result["clone_us"]
    yardstick = max(v for k, v in rates.items() if k.startswith("hanabi"))
    print(f"\n{result['mode']}: best of {result['rounds']} rounds of {result['seconds']} s")
    print(f"{'contender':<20} {'decisions/s':>12} {'x Hanabi':>9} {'clone µs':>9}")
    for label, rate in rates.items():
        print(f"{label:<20} {rate:>12,.0f} {rate / yardstick:>9.2f} {clones[label]:>9.2f}")
    for label, ms in result["ismcts_ms"].items():
        print(f"ISMCTS decision, {label}: {ms:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--ismcts", type=int, default=0, metavar="N",
                        help="also time N ISMCTS decisions of each game")
    parser.add_argument("--both", action="store_true",
                        help="measure the pure build too, in a subprocess")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    result = measure(args.players, args.rounds, args.seconds, args.ismcts)
    if args.json:
        print(json.dumps(result))
        return 0
    _print(result)
    if args.both and build.MODE == "compiled":
        command = [sys.executable, "-m", "bench.compiled", "--json", "--players",
                   str(args.players), "--rounds", str(args.rounds), "--seconds",
                   str(args.seconds), "--ismcts", str(args.ismcts)]
        pure = subprocess.run(command, env={**os.environ, "PENDRAGON_PURE": "1"},
                              check=True, capture_output=True, text=True)
        _print(json.loads(pure.stdout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
