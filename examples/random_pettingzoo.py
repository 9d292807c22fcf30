"""A random rollout of Shadows over Camelot through PettingZoo (``pendragon.envs.soc_v2``).

Every agent picks uniformly among the legal ids of its ``action_mask``; chance is resolved
inside the environment from the seed. Prints each game's length, result and each seat's
reward (``state.returns()``), then the environment's step rate.

    python examples/random_pettingzoo.py [--players 5] [--games 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from pendragon.envs import soc_v2


def main() -> None:
    """Play ``--games`` random games and print what happened."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = soc_v2.env(players=args.players)
    chooser = random.Random(args.seed)
    steps = 0
    start = time.perf_counter()
    for game in range(args.games):
        env.reset(seed=args.seed + game)
        rewards: dict[str, float] = {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                rewards[agent] = float(reward)
                env.step(None)
            else:
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[chooser.randrange(len(legal))]))
            steps += 1
        # The spectator's view: what anyone at the table may know at the end.
        table = env.game_state.observation(None)
        loyalty = {k["seat"]: k["loyalty"] for k in table["knights"]}
        print(
            f"game {game} (seed {args.seed + game}): {table['status']} by {table['end_reason']}"
            f" after {table['turn']['number']} turns and {env.game_state.version} actions;"
            f" white/black swords {table['round_table']['white']}/{table['round_table']['black']},"
            f" siege engines {table['siege_engines']}"
        )
        for agent, reward in sorted(rewards.items()):
            seat = int(agent.split("_")[1])
            print(f"  {agent} ({loyalty[seat]}): reward {reward:+.0f}")
    elapsed = time.perf_counter() - start
    print(f"{steps} agent steps in {elapsed:.2f} s ({steps / elapsed:,.0f} steps/s)")


if __name__ == "__main__":
    main()
