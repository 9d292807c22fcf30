"""How long games take: steps (chance included) per game, per player count, with one bot on
every seat, beside the declared research bound ``max_game_length`` and hard cap
``length_cap`` (docs/research.md, "Game lengths").

    python -m bench.lengths --game grail-cup --games 200 --bot random

Game ``i`` is seeded ``1000 + i`` and the bot of seat ``s`` ``10 i + s``, as the test of the
documented figures replays them (tests/test_envs_research.py).
"""

from __future__ import annotations

import argparse

import pendragon
from pendragon.bots import make_bot
from pendragon.runner import play_game


def lengths(game: str, players: int, games: int, bot: str) -> list[int]:
    """The sorted lengths of ``games`` seeded games."""
    found = []
    for index in range(games):
        loaded = pendragon.load_game(game, players=players, seed=1000 + index)
        final = play_game(loaded, [make_bot(bot, index * 10 + s, game) for s in range(players)])
        found.append(final.version)
    return sorted(found)


def main() -> None:
    """Print median, p99 and longest per player count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="grail-cup")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="random")
    args = parser.parse_args()
    for players in pendragon.game_class(args.game).supported_player_counts():
        found = lengths(args.game, players, args.games, args.bot)
        loaded = pendragon.load_game(args.game, players=players, seed=0)
        print(f"{args.game} {args.bot} {players} players: median {found[len(found) // 2]}, "
              f"p99 {found[int(0.99 * len(found)) - 1]}, longest {found[-1]} "
              f"(max_game_length {loaded.max_game_length()}, "
              f"length_cap {loaded.length_cap()})", flush=True)


if __name__ == "__main__":
    main()
