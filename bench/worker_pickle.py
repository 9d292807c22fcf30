"""What a state costs on its way to a web bot worker and back (issue 41 item 3b).

The web server sends a bot's move, a hint or a table's loading to its own worker processes
with the state pickled. Two ways are timed at mid-game positions of each game, one pickle
and one unpickle per round trip, in one process (the pipe between processes is the same
for both and left out):

* ``checked``: ``pickle.dumps(state)`` / ``pickle.loads`` — ``State.__reduce__``, the
  state's text read back by ``Game.deserialize_state`` with every check an untrusted state
  gets (every seat's observation rebuilt); the path before issue 41;
* ``trusted``: ``dumps_sharing`` / ``loads_sharing`` of ``pendragon.web.limits`` — the
  state's fields as they are (the fast path the server's own workers now take).

    python -m bench.worker_pickle [--players 5] [--positions 12] [--repeats 200]

Prints the median µs per round trip of each way and game for the build that is installed
(the best of three rounds at each position). Nothing asserts on the figures; docs/web.md
records them with this command.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time
from collections.abc import Callable

import pendragon
from pendragon import build
from pendragon.core.api import State
from pendragon.web.limits import dumps_sharing, loads_sharing

GAMES = ("soc", "soc-card", "grail-cup")


def positions(name: str, players: int, count: int, seed: int = 1) -> list[State]:
    """``count`` decision points of seeded random games of ``name``, spread over each game."""
    found: list[State] = []
    game_seed = seed
    while len(found) < count:
        state = pendragon.load_game(name, players=players, seed=game_seed).new_initial_state()
        chooser = random.Random(game_seed)
        seen: list[State] = []
        while True:
            state.play_random_chance()
            if state.is_terminal():
                break
            seen.append(state.clone())
            state.apply_action(chooser.choice(state.legal_actions()))
        step = max(1, len(seen) // 4)
        found.extend(seen[step::step][:count - len(found)])
        game_seed += 1
    return found


def per_round_trip(trip: Callable[[], object], repeats: int) -> float:
    """The best of three rounds of ``repeats`` calls of ``trip``, in µs per call."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(repeats):
            trip()
        best = min(best, (time.perf_counter() - started) / repeats)
    return best * 1e6


def checked(state: State) -> Callable[[], object]:
    """The state through ``State.__reduce__`` and back (the checked reader)."""
    return lambda: pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))


def trusted(state: State) -> Callable[[], object]:
    """The state through the workers' fast path and back, sharing its game."""
    return lambda: loads_sharing(dumps_sharing(state, state.game), state.game)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"build: {build.describe()}; {args.players} players, {args.positions} positions,"
          " median µs per round trip (pickle + unpickle)")
    print(f"{'game':<10} {'checked':>9} {'trusted':>9} {'ratio':>7}")
    for name in GAMES:
        states = positions(name, args.players, args.positions)
        for state in states:  # the fast path gives the same state back
            again = loads_sharing(dumps_sharing(state, state.game), state.game)
            assert again.serialize() == state.serialize()
        old = statistics.median(per_round_trip(checked(s), args.repeats) for s in states)
        new = statistics.median(per_round_trip(trusted(s), args.repeats) for s in states)
        print(f"{name:<10} {old:>9.1f} {new:>9.1f} {old / new:>6.1f}x")


if __name__ == "__main__":
    main()
