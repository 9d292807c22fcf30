"""A seat's chance of winning, from that seat's information only: read by the game's
learned evaluator (issue 38), or estimated by the search where no model fits.

**By the model** (:func:`model_estimate`, the default wherever the game ships a model that
reads its observation layout: :mod:`pendragon.bots.evaluator`): the chance of a position
is the model's reading of the seat's observation tensor and the setup
(:func:`win_chance`); the chance after each legal action comes from a light search on
top of it: in each of :data:`WORLDS` worlds the seat cannot tell from the real one
(``resample_hidden(seat)``: an action whose outcome shows something hidden, an
accusation, is judged on what it might show, never on what it would), every action is
followed for :data:`LOOKAHEAD` decisions by the rollout policy, the same draws for every
action, then read by the model. The move: the game's heuristic's, unless another reads
:data:`MODEL_MARGIN` higher (and by two paired standard errors over the worlds).

**By the search** (where no model fits, or with ``method="search"``): an estimate runs
the search bot's paired sweeps (:meth:`ISMCTSBot.root_rewards`): worlds
drawn as the seat could imagine them (``resample_hidden(seat)``, or its policy's belief
about the traitors), every legal action tried in each world and followed by the same
rollout. A rollout's reward for the seat is +1 (its side won) or -1 (lost), or a game's
leaf value in between (the card game scores a rollout once the root's choice has played
out); the seat's chance after an action is ``(mean reward + 1) / 2``.

"Its side": in Shadows over Camelot and the card game the seat wins with the loyal side,
or with the traitors if its own loyalty card says so (the seat knows it: its
observation's ``you.loyalty``); the loyal side's chance is then one minus the traitor's.
In Grail Cup each knight races alone: its chance is its own.

>>> import pendragon
>>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
>>> state.play_random_chance()
>>> found = estimate(state, state.current_player(), seed=1, budget=2000, max_sweeps=4)
>>> found.side, 0 <= found.chance(found.choice) <= 1, found.choice in state.legal_actions()
('own', True, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from pendragon.bots.evaluator import evaluator_for
from pendragon.bots.ismcts import (
    DEFAULT_CONFIDENCE,
    DEFAULT_MIN_ITERATIONS,
    DEFAULT_PRIOR_MARGIN,
    ISMCTSBot,
)
from pendragon.core import rng
from pendragon.core.api import CHANCE, State

#: How an estimate is made: by the game's learned evaluator, or by the search's rollouts.
Method = Literal["model", "search"]
#: Worlds (paired sweeps) a model estimate reads each action's outcome in...
WORLDS = 8
#: ...each action followed for this many decisions before the model reads the position.
LOOKAHEAD = 6
#: The heuristic's move stands unless another reads this much higher (a chance, 0..1).
MODEL_MARGIN = 0.03

#: Whose victory a seat's chance is: the loyal side's, the traitors', or its own (a race).
Side = Literal["loyal", "traitors", "own"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much search one estimate may spend: ``actions`` simulated actions (every seat's
    and chance's, over all sweeps), at least ``min_sweeps`` and at most ``max_sweeps``
    paired sweeps. Chosen per game so a whole review meets issue 31's bar (docs/bots.md,
    "Coach calibration")."""

    actions: int
    min_sweeps: int = 2
    max_sweeps: int = 24


#: Per game: a 5-player Shadows over Camelot game reviews in under 2 minutes on one core,
#: the card game and Grail Cup in under 30 s (figures: docs/bots.md, "Coach calibration").
BUDGETS: dict[str, Budget] = {
    "soc": Budget(actions=5000, min_sweeps=2, max_sweeps=16),
    "soc-card": Budget(actions=1000, min_sweeps=4, max_sweeps=16),
    "grail-cup": Budget(actions=2400, min_sweeps=2, max_sweeps=24),
}
#: A game without its own budget.
DEFAULT_BUDGET = Budget(actions=3000)


#: Games whose review costs more with more seats: the table size their budget was set at.
#: A larger table gets fewer simulated actions a decision, by the square of the ratio (an
#: 8-knight Grail Cup race took 42 s of CPU at the 5-knight budget, compiled, and 34-42 s
#: at 5/8 of it; the bar is 30 s).
BUDGET_SEATS: dict[str, int] = {"grail-cup": 5}


def budget_for(game: str, players: int | None = None) -> Budget:
    """The review's budget of ``game`` (at ``players`` seats, where that matters).

    >>> budget_for("soc").max_sweeps, budget_for("no-such-game") == DEFAULT_BUDGET
    (16, True)
    >>> budget_for("grail-cup", 8).actions, budget_for("grail-cup", 4).actions
    (937, 2400)
    """
    chosen = BUDGETS.get(game, DEFAULT_BUDGET)
    seats = BUDGET_SEATS.get(game)
    if seats is not None and players is not None and players > seats:
        # A decision's rollouts grow with the seats, and so does the number of decisions.
        chosen = replace(chosen, actions=chosen.actions * seats * seats // (players * players))
    return chosen


def side_of(state: State, seat: int) -> Side:
    """Whose victory ``seat``'s chance is, from its own observation (``you.loyalty``).

    >>> import pendragon
    >>> state = pendragon.load_game("soc", players=3, seed=1, no_traitor=True).new_initial_state()
    >>> state.play_random_chance()
    >>> side_of(state, 0)
    'loyal'
    """
    you = state.observation(seat).get("you")
    loyalty = you.get("loyalty") if isinstance(you, Mapping) else None
    if loyalty == "traitor":
        return "traitors"
    if loyalty is None:
        return "own"
    return "loyal"


@dataclass(frozen=True, slots=True)
class Estimate:
    """What the sweeps found for ``seat`` in one position.

    ``rewards[action]``: the seat's reward in each sweep after ``action`` (all actions met
    the same worlds and rollouts, in order). ``prior``: the policy's move; ``choice``: the
    search's (the policy's unless another beats it by the ISMCTS bot's margin and
    confidence test, so noise alone does not pick a move).
    """

    seat: int
    side: Side
    prior: int
    choice: int
    rewards: Mapping[int, tuple[float, ...]]

    @property
    def sweeps(self) -> int:
        """Paired sweeps run (every action has one reward per sweep)."""
        return len(next(iter(self.rewards.values())))

    def chance(self, action: int) -> float:
        """The seat's estimated chance of winning after ``action``, in [0, 1]."""
        values = self.rewards[action]
        return (sum(values) / len(values) + 1) / 2

    def error(self, action: int) -> float:
        """The standard error of :meth:`chance` (``inf`` with one sweep)."""
        values = self.rewards[action]
        return _standard_error(values) / 2

    def difference_error(self, action: int, other: int) -> float:
        """The standard error of ``chance(action) - chance(other)`` on the paired sweeps."""
        diffs = [a - b for a, b in zip(self.rewards[action], self.rewards[other], strict=True)]
        return _standard_error(diffs) / 2

    def loyal_chance(self, action: int) -> float | None:
        """The loyal side's chance after ``action`` as the seat sees it (``None`` in a race)."""
        if self.side == "own":
            return None
        mine = self.chance(action)
        return mine if self.side == "loyal" else 1 - mine

    def ranked(self) -> list[int]:
        """The actions by estimated chance, best first (ties: the search's choice, then id)."""
        return sorted(self.rewards, key=lambda a: (-self.chance(a), a != self.choice, a))


def _standard_error(values: tuple[float, ...] | list[float]) -> float:
    count = len(values)
    if count < 2:
        return math.inf
    mean = sum(values) / count
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return math.sqrt(variance / count)


def search_choice(prior: int, rewards: Mapping[int, tuple[float, ...]],
                  margin: float = DEFAULT_PRIOR_MARGIN,
                  confidence: float = DEFAULT_CONFIDENCE,
                  min_sweeps: int = DEFAULT_MIN_ITERATIONS) -> int:
    """The ISMCTS bot's test: the best mean if it beats the policy's ``prior`` by
    ``margin`` (rewards in [-1, 1]) and by ``confidence`` paired standard errors over at
    least ``min_sweeps`` sweeps, else ``prior``.

    >>> search_choice(1, {1: (-1.0,) * 6, 2: (1.0,) * 6})
    2
    >>> search_choice(1, {1: (-1.0, 1.0) * 3, 2: (1.0, -1.0) * 3})
    1
    >>> search_choice(1, {1: (-1.0,) * 2, 2: (1.0,) * 2})  # too few sweeps to overrule
    1
    """
    best = max(rewards, key=lambda a: (sum(rewards[a]), a == prior, -a))
    if best == prior or len(rewards[prior]) < min_sweeps:
        return prior
    diffs = [a - b for a, b in zip(rewards[best], rewards[prior], strict=True)]
    mean = sum(diffs) / len(diffs)
    error = _standard_error(diffs)
    return best if mean > margin and mean > confidence * error else prior


def coach_bot(seed: int, budget: Budget) -> ISMCTSBot:
    """The search an estimate runs: the ISMCTS bot (its policy the game's heuristic),
    seeded with ``seed``, sweeping at most ``budget.max_sweeps`` times."""
    return ISMCTSBot(seed=seed, iterations=budget.max_sweeps,
                     min_iterations=min(budget.min_sweeps, budget.max_sweeps))


def estimate_with(bot: ISMCTSBot, state: State, seat: int, budget: Budget) -> Estimate:
    """:func:`estimate` with a bot that has followed the game so far (a review keeps one
    per seat, as a table keeps one bot per seat)."""
    if state.current_player() != seat:
        raise ValueError(f"seat {seat} is not to act (seat {state.current_player()} is)")
    prior, rewards = bot.root_rewards(state, seat, budget.actions, budget.min_sweeps)
    frozen = {action: tuple(values) for action, values in rewards.items()}
    choice = search_choice(prior, frozen) if len(frozen) > 1 else prior
    return Estimate(seat, side_of(state, seat), prior, choice, frozen)


def has_model(state: State) -> bool:
    """Whether ``state``'s game has a learned evaluator that reads its layout."""
    return evaluator_for(state.game) is not None


def win_chance(state: State, seat: int, seed: int = 0) -> float:
    """``seat``'s chance (0..1) that its side wins from ``state``, from its information
    only: the public entry for one position (issue 38).

    By the game's learned evaluator where one fits (``seed`` then changes nothing: the
    model reads the seat's observation alone); else by the search's estimate of the
    seat's own decision (``seed`` seeds it; the seat must be the one to act). A finished
    game reads 1 or 0.

    >>> import pendragon
    >>> state = pendragon.load_game("soc-card", players=5, seed=4).new_initial_state()
    >>> state.play_random_chance()
    >>> chance = win_chance(state, 0)
    >>> 0.0 < chance < 1.0 and chance == win_chance(state, 0, seed=9)
    True
    """
    if not 0 <= seat < state.game.num_players():
        raise ValueError(f"seat {seat} is not a seat of this {state.game.num_players()}-player"
                         " game")
    if state.is_terminal():
        return 1.0 if state.returns()[seat] > 0 else 0.0
    bound = evaluator_for(state.game)
    if bound is not None:
        return bound.chance(state, seat)
    found = estimate(state, seat, seed=seed, method="search")
    return found.chance(found.choice)


def model_bot(seed: int, worlds: int = WORLDS) -> ISMCTSBot:
    """The light search a model estimate runs: the search bot's paired sweeps (``worlds``
    of them, every legal action in each), its rollouts cut after :data:`LOOKAHEAD`
    decisions (or at the game's own leaf) and read by the learned evaluator."""
    return ISMCTSBot(seed=seed, iterations=worlds, min_iterations=1, evaluator=True,
                     rollout_depth=LOOKAHEAD)


def model_estimate(state: State, seat: int, seed: int = 0, bot: ISMCTSBot | None = None,
                   worlds: int = WORLDS) -> Estimate:
    """:func:`estimate` by the learned evaluator with a light search on top (``ValueError``
    if the game has no model that fits): in each of ``worlds`` worlds the seat cannot tell
    from the real one, every legal action is played and followed for :data:`LOOKAHEAD`
    decisions by the game's rollout policy (the same draws for every action), then the
    model reads the position from the seat's view; a game that ends on the way counts as
    won or lost. ``bot``: a :func:`model_bot` that has followed the game (a review keeps one
    per seat); its policy's move is the prior."""
    if evaluator_for(state.game) is None:
        raise ValueError(f"{state.game.name} has no learned evaluator for this layout")
    if bot is None:
        bot = model_bot(rng.mix(seed, seat), worlds)
    prior, rewards = bot.root_rewards(state, seat)
    frozen = {action: tuple(values) for action, values in rewards.items()}
    choice = (search_choice(prior, frozen, margin=2 * MODEL_MARGIN, min_sweeps=2)
              if len(frozen) > 1 else prior)
    return Estimate(seat, side_of(state, seat), prior, choice, frozen)


def estimate(state: State, seat: int, seed: int = 0, budget: int | None = None,
             max_sweeps: int | None = None, min_sweeps: int | None = None,
             method: Method | None = None) -> Estimate:
    """``seat``'s chances after each of its legal actions in ``state`` (its decision),
    from its information only; seeded, so the same position gives the same estimate.
    ``method``: ``"model"`` (the learned evaluator, :func:`model_estimate`; the default
    where the game has one) or ``"search"``; for the search, ``budget`` (simulated
    actions), ``max_sweeps`` and ``min_sweeps`` override the game's (:func:`budget_for`)."""
    if state.is_terminal() or state.current_player() == CHANCE:
        raise ValueError("an estimate needs a seat's decision, not chance or the game's end")
    if state.current_player() != seat:
        raise ValueError(f"seat {seat} is not to act (seat {state.current_player()} is)")
    if method is None:
        method = "model" if has_model(state) else "search"
    if method == "model":
        return model_estimate(state, seat, seed)
    if method != "search":
        raise ValueError(f"method must be 'model' or 'search', got {method!r}")
    chosen = budget_for(state.game.name, state.game.num_players())
    most = max_sweeps or chosen.max_sweeps
    chosen = Budget(actions=budget if budget is not None else chosen.actions,
                    min_sweeps=min(most, min_sweeps or chosen.min_sweeps), max_sweeps=most)
    return estimate_with(coach_bot(rng.mix(seed, seat), chosen), state, seat, chosen)
