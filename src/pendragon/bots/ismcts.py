"""Single-observer Information-Set Monte Carlo Tree Search, for any game of the core API.

Each iteration draws a determinisation of what the searching seat cannot see
(``state.resample_hidden(seat, rng)``), descends the tree with UCB restricted to the
actions legal in that world (the subset-armed bandit of SO-ISMCTS, Cowling, Powley and
Whitehouse 2012), expands one node, finishes with a rollout (random or heuristic) cut at
a depth cap, and backs up every seat's reward: ``returns()`` at the end of the game, or a
cheap evaluation of the position where the rollout was cut. Chance nodes are resolved by
sampling ``chance_outcomes()`` with the bot's own generator; tree nodes follow the seats'
decisions only.

The bot reads nothing but ``resample_hidden(seat)`` of the state it is given, so its choice
cannot depend on what other seats hold.

>>> import pendragon
>>> state = pendragon.load_game("soc", players=3, seed=1, no_traitor=True).new_initial_state()
>>> state.play_random_chance()
>>> bot = ISMCTSBot(seed=2, iterations=20)
>>> bot.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable
from typing import Any

from pendragon.bots.base import Bot
from pendragon.bots.random_bot import RandomBot
from pendragon.core import rng
from pendragon.core.api import CHANCE, State
from pendragon.core.errors import GameOverError

#: Evaluation of a non-terminal position: one value per seat in [-1, 1].
Evaluator = Callable[[State], list[float]]

DEFAULT_ITERATIONS = 48
DEFAULT_ROLLOUT_DEPTH = 20
#: The rollout policy's own choice at the root stands unless another action's mean reward
#: beats it by this much (rewards lie in [-1, 1]).
DEFAULT_PRIOR_MARGIN = 0.1


def soc_evaluate(state: State) -> list[float]:
    """Shadows over Camelot: how the board favours the loyal side, seen by each seat.

    Public figures only (swords, siege engines, life of knights in play), plus each seat's
    loyalty in the (determinised) world: a traitor gets the opposite value.
    """
    public = state.observation(None)
    table = public["round_table"]
    knights = public["knights"]
    alive = [k for k in knights if k["status"] == "in-play"]
    score = 0.35 * (table["white"] - table["black"])
    score -= 0.25 * max(0, table["black"] - 3)
    score -= 0.12 * max(0, public["siege_engines"] - 5)
    score += 0.05 * sum(min(k["life"], 4) for k in alive) - 0.3 * (len(knights) - len(alive))
    value = math.tanh(score / 2.0)
    values = []
    for seat, knight in enumerate(knights):
        loyalty = knight["loyalty"]
        if loyalty is None:
            loyalty = state.observation(seat)["you"]["loyalty"]
        values.append(-value if loyalty == "traitor" else value)
    return values


def neutral_evaluate(state: State) -> list[float]:
    """For games without an evaluator: every unfinished position is a draw."""
    return [0.0] * state.game.num_players()


#: Game name -> evaluation of cut-off rollouts.
EVALUATORS: dict[str, Evaluator] = {"soc": soc_evaluate}


class CanonicalRandom(random.Random):
    """A generator whose ``shuffle`` first sorts the list it is given.

    ``resample_hidden`` pools the hidden cards and shuffles them; the pool's order may
    follow where the cards really are. Sorting first makes each determinisation a
    function of the seat's information set and the generator's state alone, so the
    search cannot be steered, even by chance, by what other seats hold.

    >>> items = [3, 1, 2]
    >>> CanonicalRandom(1).shuffle(items); other = [2, 3, 1]; CanonicalRandom(1).shuffle(other)
    >>> items == other
    True
    """

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        """Sort ``x`` (when its items can be ordered), then shuffle it in place."""
        with contextlib.suppress(TypeError):  # unorderable items: shuffle as given
            x.sort()
        super().shuffle(x)


def _mean(root: _Node, action: int) -> float:
    """Mean reward of a root action (a never-tried action counts as a loss)."""
    child = root.children.get(action)
    return child.value / child.visits if child is not None and child.visits else -1.0


class _Node:
    __slots__ = ("children", "visits", "value", "available")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0  # sum of rewards of the seat that chose the action into this node
        self.available = 0  # times this node's action was legal when its parent was visited


class ISMCTSBot:
    """SO-ISMCTS with UCB1, an iteration budget (or a time budget) and a rollout policy.

    ``rollout`` is ``"heuristic"`` (the game's fast heuristic, if any; the default) or
    ``"random"``. ``time_limit`` in seconds, when given, replaces the iteration count (then
    decisions depend on the machine's speed; leave it unset for reproducible games).

    ``prior_margin``: the search improves on its rollout policy rather than replacing it.
    The policy's own choice at the root (asked in a determinisation, so it too sees only
    the seat's information) is played unless the most visited action's mean reward beats
    it by more than ``prior_margin``; ``None`` plays the most visited action regardless.
    """

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = None,
        rollout: str = "heuristic",
        rollout_depth: int = DEFAULT_ROLLOUT_DEPTH,
        exploration: float = 0.7,
        prior_margin: float | None = DEFAULT_PRIOR_MARGIN,
    ) -> None:
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', got {rollout!r}")
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.seed = seed
        self.iterations = iterations
        self.time_limit = time_limit
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.prior_margin = prior_margin
        self._rng = CanonicalRandom(seed)

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot(seed={self.seed!r}, iterations={self.iterations}, "
            f"rollout={self.rollout!r})"
        )

    # ------------------------------------------------------------------ search
    def step(self, state: State) -> int:
        """The most visited root action after the search budget is spent."""
        legal = state.legal_actions()
        if not legal:
            raise GameOverError("the game is over; there is no action to choose")
        seat = state.current_player()
        if seat == CHANCE:
            return state.sample_chance()
        if len(legal) == 1:
            return legal[0]
        return self.search(state, seat)

    def search(self, state: State, seat: int) -> int:
        """Run the search from ``seat``'s information set; return the chosen action."""
        root = _Node()
        evaluate = EVALUATORS.get(state.game.name, neutral_evaluate)
        policy = self._rollout_policy(state)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        prior: int | None = None
        if self.prior_margin is not None:
            prior = policy.step(state.resample_hidden(seat, self._rng))
        done = 0
        while True:
            world = state.resample_hidden(seat, self._rng)
            self._iterate(root, world, policy, evaluate)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
        legal = state.legal_actions()
        best = max(
            legal,
            key=lambda a: (
                root.children[a].visits if a in root.children else -1,
                root.children[a].value if a in root.children else 0.0,
                -a,
            ),
        )
        margin = self.prior_margin
        if (
            prior is not None and margin is not None and prior != best and prior in legal
            and _mean(root, best) <= _mean(root, prior) + margin
        ):
            return prior
        return best

    def _rollout_policy(self, state: State) -> Bot:
        """A fresh rollout policy for one search, seeded from the bot's generator."""
        seed = self._rng.getrandbits(32)
        if self.rollout == "heuristic":
            from pendragon.bots.heuristic import rollout_policy

            return rollout_policy(state.game.name, seed)
        return RandomBot(seed)

    def _iterate(self, root: _Node, world: State, policy: Bot, evaluate: Evaluator) -> None:
        path: list[tuple[_Node, int]] = []  # (child node, seat that chose it)
        node = root
        # Selection and expansion.
        while not world.is_terminal():
            player = world.current_player()
            if player == CHANCE:
                world.apply_action(self._sample(world))
                continue
            legal = world.legal_actions()
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[self._rng.randrange(len(untried))]
                child = _Node()
                child.available = 1
                node.children[action] = child
                world.apply_action(action)
                path.append((child, player))
                break
            action = self._select(node, legal)
            world.apply_action(action)
            node = node.children[action]
            path.append((node, player))
        # Rollout.
        depth = 0
        while not world.is_terminal() and depth < self.rollout_depth:
            player = world.current_player()
            if player == CHANCE:
                world.apply_action(self._sample(world))
                continue
            world.apply_action(policy.step(world))
            depth += 1
        rewards = world.returns() if world.is_terminal() else evaluate(world)
        for child, player in path:
            child.visits += 1
            child.value += rewards[player]

    def _select(self, node: _Node, legal: list[int]) -> int:
        best_action = legal[0]
        best_score = -math.inf
        c = self.exploration
        for action in legal:
            child = node.children[action]
            score = child.value / child.visits + c * math.sqrt(
                math.log(max(child.available, 1)) / child.visits
            )
            if score > best_score:
                best_score = score
                best_action = action
        return best_action

    def _sample(self, world: State) -> int:
        return rng.pick_at(self._rng.random(), world.chance_outcomes())
