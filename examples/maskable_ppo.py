"""A learning baseline: MaskablePPO (sb3-contrib) on a pendragon game, with self-play and a
paired-seed evaluation against every kind of opponent (issue 40 item 4).

One seat learns through the Gymnasium environment (``pendragon.envs.gymnasium_env``; the
seat is drawn anew at every deal), the others are pendragon bots. Training runs in two
halves: first against ``--opponents`` (the random bot by default), then **self-play**:
the other seats are frozen copies of the learner (``ModelPolicy.frozen(model)``, a deep
copy of its network), refreshed every ``--snapshot`` steps and drawn from a league of the
last few snapshots, beside the heuristic bot (``env.set_opponents``, issue 40 item 1).

**Evaluation, paired.** For each opponent panel (``random``, ``heuristic``, ``ismcts`` and
the trained policy itself in every other seat) the same ``--eval`` deals are played three
times: with the trained policy in the learner's seat, with a uniformly random player there
and with the heuristic bot there. A deal's seed fixes the cards, the chance stream, the
learner's seat and the bots' seeds, so the three runs differ only by who sits in that seat.
Reported: each one's win rate with its Wilson 95% interval, and the trained policy's
paired difference from the random and from the heuristic seat (points of win rate, a 95%
normal interval over the deals' differences).

Needs the ``learn`` extra and a CPU build of torch (the ``learn`` extra's plain install
pulls the CUDA build, about 2.6 GB; the CPU build is about 190 MB; ``docs/research.md``)::

    pip install 'pendragon[rl,learn]'
    python examples/maskable_ppo.py --game grail-cup --players 4 --steps 300000 --eval 300

``--steps 512 --eval 2 --ismcts-eval 1`` is the smoke run the tests make (seconds).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger

from pendragon.bots import make_bot
from pendragon.envs.gymnasium_env import ModelPolicy, PendragonGymEnv
from pendragon.simulate import wilson_interval

#: Seeds of the evaluation deals start here: far from any training deal's.
EVAL_SEED_BASE = 10_000_000
#: A seat player: (env) -> action for the learner's seat, made once per deal from a seed.
SeatPlayer = Callable[[PendragonGymEnv], int]


class SelfPlay(BaseCallback):  # type: ignore[misc]
    """From ``start`` steps on, every ``every`` steps: snapshot the learner into a league
    of the last ``keep`` copies, and seat a random member of it in every other seat but
    one, which the ``anchor`` bot keeps (so the learner never forgets a fixed opponent)."""

    def __init__(self, start: int, every: int, keep: int, anchor: str, seed: int) -> None:
        super().__init__()
        self.start, self.every, self.keep, self.anchor = start, every, keep, anchor
        self.league: list[ModelPolicy] = []
        self.chooser = random.Random(seed)
        self.next_snapshot = start
        self.snapshots = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_snapshot:
            self.next_snapshot += self.every
            self.snapshots += 1
            self.league = [*self.league, ModelPolicy.frozen(self.model)][-self.keep:]
            for env in self.training_env.envs:
                inner: PendragonGymEnv = env.unwrapped
                seats = inner.game.num_players()
                members = [self.chooser.choice(self.league) for _ in range(seats)]
                inner.set_opponents([self.anchor, *members[1:]] if seats > 2 else members)
        return True


def silent_logger() -> Logger:
    """A logger that writes nowhere: SB3's own, even silent (``verbose=0``), makes an empty
    ``SB3-<date>`` folder in the temporary directory at every ``learn``; this example prints
    its own figures."""
    return Logger(folder=None, output_formats=[])


def train(args: argparse.Namespace) -> tuple[MaskablePPO, float, int]:
    """Train MaskablePPO for ``args.steps`` steps (half of them in self-play); return the
    model, the seconds it took and the number of self-play snapshots taken."""
    env = PendragonGymEnv(args.game, seat=None, opponents=args.opponents, players=args.players)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MultiInputPolicy", env, seed=args.seed, verbose=0, n_steps=min(2048, args.steps),
        batch_size=min(256, args.steps), learning_rate=3e-4, gamma=1.0, ent_coef=0.01,
        device="cpu",
    )
    model.set_logger(silent_logger())
    callback = SelfPlay(args.steps // 2, max(1, args.snapshot), 5, args.opponents, args.seed)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=callback)
    return model, time.perf_counter() - start, callback.snapshots


def trained_player(model: MaskablePPO) -> Callable[[int], SeatPlayer]:
    """The trained policy (greedy over the legal actions) in the learner's seat."""

    def make(_seed: int) -> SeatPlayer:
        def play(env: PendragonGymEnv) -> int:
            observation = env._observe(env.game_state)
            action, _ = model.predict(observation, action_masks=env.action_masks(),
                                      deterministic=True)
            return int(action)
        return play
    return make


def random_player(seed: int) -> SeatPlayer:
    """A uniformly random legal action, seeded per deal."""
    chooser = random.Random(seed)

    def play(env: PendragonGymEnv) -> int:
        return int(chooser.choice(env.game_state.legal_actions()))
    return play


def bot_player(name: str, game: str) -> Callable[[int], SeatPlayer]:
    """A pendragon bot in the learner's seat, seeded per deal."""

    def make(seed: int) -> SeatPlayer:
        bot = make_bot(name, seed, game)

        def play(env: PendragonGymEnv) -> int:
            return int(bot.step(env.game_state))
        return play
    return make


def play_deals(env: PendragonGymEnv, make: Callable[[int], SeatPlayer], deals: range) -> list[int]:
    """1 for each deal the seat player won, else 0."""
    wins = []
    for seed in deals:
        env.reset(seed=seed)
        player = make(seed)
        reward, terminated = 0.0, env.game_state.is_terminal()
        while not terminated:
            _, step_reward, terminated, _, _ = env.step(player(env))
            reward += float(step_reward)
        wins.append(int(reward > 0))
    return wins


def paired(first: list[int], second: list[int]) -> dict[str, float]:
    """Mean difference of paired outcomes with a 95% normal interval, in points."""
    differences = np.array(first, float) - np.array(second, float)
    mean = float(differences.mean())
    error = float(differences.std(ddof=1) / math.sqrt(len(differences))) if len(
        differences) > 1 else float("inf")
    return {"points": 100 * mean, "low": 100 * (mean - 1.96 * error),
            "high": 100 * (mean + 1.96 * error)}


def rate(wins: list[int]) -> dict[str, float]:
    """Win rate with its Wilson 95% interval, in percent."""
    low, high = wilson_interval(sum(wins), len(wins))
    return {"rate": 100 * sum(wins) / len(wins), "low": 100 * low, "high": 100 * high,
            "games": len(wins)}


def evaluate(model: MaskablePPO, args: argparse.Namespace,
             done: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The paired evaluation of the trained policy against every panel of opponents;
    ``done(results)`` is called after each panel."""
    # The search bot last: it is by far the slowest.
    panels: dict[str, Any] = {"random": "random", "heuristic": "heuristic",
                              "self-play": ModelPolicy(model, True), "ismcts": "ismcts"}
    seats = {"trained": trained_player(model), "random": random_player,
             "heuristic": bot_player("heuristic", args.game)}
    results: dict[str, Any] = {}
    for panel, opponents in panels.items():
        count = args.ismcts_eval if panel == "ismcts" else args.eval
        deals = range(EVAL_SEED_BASE + args.seed, EVAL_SEED_BASE + args.seed + count)
        env = PendragonGymEnv(args.game, seat=None, opponents=opponents, players=args.players)
        start = time.perf_counter()
        wins = {name: play_deals(env, make, deals) for name, make in seats.items()}
        results[panel] = {
            "deals": count,
            "seconds": round(time.perf_counter() - start, 1),
            **{f"{name} win %": rate(won) for name, won in wins.items()},
            "trained - random": paired(wins["trained"], wins["random"]),
            "trained - heuristic": paired(wins["trained"], wins["heuristic"]),
        }
        line = results[panel]
        print(f"{panel:>10} ({count} deals): trained {line['trained win %']['rate']:5.1f}%, "
              f"random seat {line['random win %']['rate']:5.1f}%, heuristic seat "
              f"{line['heuristic win %']['rate']:5.1f}%; trained - random "
              f"{line['trained - random']['points']:+.1f} "
              f"[{line['trained - random']['low']:+.1f}, {line['trained - random']['high']:+.1f}]"
              f", trained - heuristic {line['trained - heuristic']['points']:+.1f} "
              f"[{line['trained - heuristic']['low']:+.1f}, "
              f"{line['trained - heuristic']['high']:+.1f}]", flush=True)
        if done is not None:
            done(results)
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, print and return the figures (and write them with ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="grail-cup")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300_000, help="training steps")
    parser.add_argument("--opponents", default="random", help="bot of the first half")
    parser.add_argument("--snapshot", type=int, default=20_000,
                        help="steps between self-play snapshots")
    parser.add_argument("--eval", type=int, default=300, help="deals per opponent panel")
    parser.add_argument("--ismcts-eval", type=int, default=100,
                        help="deals against ismcts (a slow bot)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write the figures here as JSON")
    parser.add_argument("--save", help="save the trained model here (MaskablePPO.load)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    model, seconds, snapshots = train(args)
    print(f"trained {args.steps} steps of {args.game} ({args.players} players) in "
          f"{seconds:.0f} s ({args.steps / seconds:.0f} steps/s)", flush=True)
    figures: dict[str, Any] = {"config": vars(args), "train_seconds": round(seconds, 1),
                               "self_play_snapshots": snapshots, "evaluation": {}}

    def write(results: dict[str, Any]) -> None:
        figures["evaluation"] = results
        if args.out:  # after each panel: a long evaluation keeps what it has
            with open(args.out, "w") as handle:
                json.dump(figures, handle, indent=1)

    if args.save:
        model.save(args.save)
    write(evaluate(model, args, write))
    return figures


if __name__ == "__main__":
    main()
