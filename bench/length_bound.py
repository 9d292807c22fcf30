"""The longest games seen, per game and player count, over every setup and every policy:
the measurement behind every game's research bound ``max_game_length`` (three times the
longest; issue 40 item 6; docs/research.md, "Game lengths").

    python -m bench.length_bound --game soc-card [--games 400] [--slow-games 30] [--search-games 1]

Every setup of :data:`SETUPS` at every player count it supports is played ``--games`` times
by random bots and by the two stubborn policies (the first or the last legal action, always:
a person pressing one key), ``--slow-games`` times by the heuristic and the game's own bots
(and, in Shadows over Camelot, by the staller, :class:`Staller`), and ``--search-games``
times by ISMCTS (the default setup at 4 seats only: it is slow). Game
``i`` is seeded ``1000 + i``, the bot of seat ``s`` ``10 i + s``. It prints, per player
count, the longest game and who played it.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from typing import Any

import pendragon
from pendragon import State
from pendragon.bots import Bot, bot_names, make_bot
from pendragon.runner import play_game

#: Setups measured beside the default one (options other than the player count).
SETUPS: dict[str, tuple[dict[str, Any], ...]] = {
    "soc": ({}, {"expansion": "merlins-company"}, {"squires": True},
            {"squires": True, "squires_hard": True}, {"no_traitor": True},
            {"traitor_in_our_midst": True}, {"three_brave_knights": True},
            {"share": "random", "played_black": "off"}, {"played_black": "on"}),
    "soc-card": ({}, {"knights_relief": True}, {"promos": True},
                 {"knights_relief": True, "promos": True}),
    "grail-cup": ({},),
}


class Staller:
    """Shadows over Camelot's staller: a Geraint who skips the Progression of Evil whenever
    he may (MC-KNIGHT-GERAINT), every other choice at random: a table held to the 400-round
    cap (SOC-RULING-45) with turns as long as random play makes them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        """Skip the Progression of Evil if legal, else a random legal action."""
        legal = state.legal_actions()
        for action in legal:
            if state.action_to_string(action) == "geraint-skip-evil":
                return action
        return self.rng.choice(legal)


class Stubborn:
    """Always the first (or the last) legal action."""

    def __init__(self, last: bool) -> None:
        self.last = last

    def step(self, state: State) -> int:
        """The first or last legal action."""
        legal = state.legal_actions()
        return legal[-1] if self.last else legal[0]


def _bots(name: str, game: str, index: int, players: int) -> Sequence[Bot]:
    if name in ("first", "last"):
        return [Stubborn(name == "last")] * players
    if name == "staller":
        return [Staller(index * 10 + s) for s in range(players)]
    return [make_bot(name, index * 10 + s, game) for s in range(players)]


def longest(game: str, games: int, slow: int, search: int) -> dict[int, tuple[int, str]]:
    """Per player count: the longest game's steps and ``policy setup`` that played it."""
    found: dict[int, tuple[int, str]] = {}
    policies = [("random", games), ("first", games), ("last", games)]
    if game == "soc":
        policies.append(("staller", slow))
    policies += [(name, slow) for name in bot_names(game) if name not in ("random", "ismcts")]
    policies.append(("ismcts", search))
    for options in SETUPS[game]:
        for players in range(1, 9):
            try:
                pendragon.load_game(game, players=players, seed=0, **options)
            except Exception:  # noqa: BLE001 - a setup this count does not support
                continue
            for name, count in policies:
                if name == "ismcts" and (options or players != 4):
                    continue  # slow: the default setup at 4 seats only
                for index in range(count):
                    loaded = pendragon.load_game(game, players=players, seed=1000 + index,
                                                 **options)
                    final = play_game(loaded, _bots(name, game, index, players))
                    best = found.get(players, (0, ""))
                    if final.version > best[0]:
                        found[players] = (final.version, f"{name} {json.dumps(options)} "
                                                         f"seed {1000 + index}")
            print(game, players, options, found.get(players), flush=True)
    return found


def main() -> None:
    """Print the longest game per player count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="grail-cup")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--slow-games", type=int, default=40)
    parser.add_argument("--search-games", type=int, default=3)
    args = parser.parse_args()
    found = longest(args.game, args.games, args.slow_games, args.search_games)
    for players, (steps, how) in sorted(found.items()):
        print(f"{args.game} {players} players: longest {steps} ({how})")


if __name__ == "__main__":
    main()
