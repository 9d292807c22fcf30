"""A seat's chance of winning, from that seat's information only: read by the game's
learned evaluator (issue 38), or estimated by the search where no model fits.

**By the model** (:func:`model_estimate`, the default wherever the game ships a model that
reads its observation layout: :mod:`pendragon.bots.evaluator`): the chance of a position
is the model's reading of the seat's observation tensor and the setup
(:func:`win_chance`); the chance after each legal action comes from a light search on
top of it (:class:`ModelReader`; issue 38 item 3): a few worlds the seat cannot tell from
the real one (``resample_hidden(seat)``: an action whose outcome shows something hidden,
an accusation, is judged on what it might show, never on what it would) are drawn once
for the decision, every action is played in each of them (*paired worlds*: every action
meets the same worlds and, after it, the same draws), followed for the game's lookahead
in decisions by the rollout policy (none in the card game), then read by the model
(:data:`COACH`: each game's worlds and lookahead; Grail Cup averages that reading with the
one right after the move); a tensor read once is not read again. The worlds are seeded by the
seed, the seat and the position, so an estimate repeats with its seed. The move: the
game's heuristic's, unless another reads :data:`MODEL_MARGIN` higher (and by two paired
standard errors over the worlds) in a game whose model may overrule it
(:attr:`GameCoach.overrules`: Grail Cup's; the others' overrules lost games).

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from pendragon.bots.base import Bot, Forkable, sample_world
from pendragon.bots.evaluator import Evaluator, evaluator_for
from pendragon.bots.heuristic import HeuristicBot, rollout_factory
from pendragon.bots.ismcts import (
    DEFAULT_CONFIDENCE,
    DEFAULT_MIN_ITERATIONS,
    DEFAULT_PRIOR_MARGIN,
    CanonicalRandom,
    ISMCTSBot,
)
from pendragon.core import rng
from pendragon.core.api import CHANCE, Game, State

#: How an estimate is made: by the game's learned evaluator, or by the search's rollouts.
Method = Literal["model", "search"]
#: Worlds a model estimate reads every move in (drawn once per decision: paired)...
WORLDS = 4
#: ...each move followed for this many decisions before the model reads the position.
LOOKAHEAD = 5
#: The heuristic's move stands unless another reads this much higher (a chance, 0..1), in
#: a game whose model may overrule it (:attr:`GameCoach.overrules`).
MODEL_MARGIN = 0.03
#: One decision searched alone (a hint; a review's second look at one move) spends this
#: many times a review's simulated actions a decision, and up to :data:`COMPARE_SWEEPS`
#: times its sweeps (at least six, a mark's least): in the card game 32 sweeps marked 66
#: of the 70 random moves that truly drop 20 points or more where 16 marked 52, and fewer
#: that drop less than 2 (10 and 12 of 90), at about 0.1 s a decision.
DECISION_FACTOR = 4
COMPARE_SWEEPS = 2

#: Where a review's drops (and a hint's comparison of moves) come from, with the model: the
#: readings that gave the chances (``"model"``), the search's paired sweeps on top of them
#: (``"search"``, :func:`compared`), or the search's wherever the model's would mark the
#: move (``"confirmed"``: the search confirms a mark or lifts it; a hint keeps the model's).
Marks = Literal["model", "search", "confirmed"]

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


#: A game without its own budget.
DEFAULT_BUDGET = Budget(actions=3000)


@dataclass(frozen=True, slots=True)
class GameCoach:
    """How the coach reads one game (:data:`COACH`): every setting a game may have its own.

    * ``budget``: a review's search budget a decision (a 5-player Shadows over Camelot game
      reviews by the search in under 2 minutes on one core, the card game and Grail Cup in
      under 30 s: docs/bots.md, "Coach calibration"); ``budget_seats``: the table size it
      was set at, where a larger table costs more (:func:`budget_for`);
    * ``worlds``, ``lookahead``: the model estimate's light search (:class:`ModelReader`);
      ``max_worlds``: more worlds read, up to that many, while the standard error of the
      policy's move's chance (:meth:`Estimate.error`) is above ``spread``;
      ``read_at_once``: with a lookahead, the weight of the model's reading right after the
      move, averaged with its reading at the lookahead's end; ``light_seats``: the table
      size past which fewer worlds are read (:func:`light_search`);
    * ``overrules``: whether the model's readings may overrule the heuristic's move (by
      :data:`MODEL_MARGIN` and two paired standard errors), else the coach's move is the
      heuristic's and the model gives every move's chance;
    * ``marks``: where a review's drops come from (:data:`Marks`); ``"search"`` also has a
      hint compare its moves by the search (:func:`compared`);
    * ``anchored``: every move's readings are shifted alike so that the policy's move
      reads the model's chance of the position itself (:func:`win_chance`, fitted where
      the seat decides), the readings after the moves giving only their differences;
    * ``search_calibration``: the calibration error of the search's estimates (the mean
      gap between estimate and outcome over the reliability table's buckets, weighted by
      count, ``bench/calibration.py``), what a review by the search reports (a review by
      the model reports its model's own held-out figure).
    """

    budget: Budget = DEFAULT_BUDGET
    budget_seats: int | None = None
    worlds: int = WORLDS
    max_worlds: int = 0
    spread: float = 0.025
    lookahead: int = LOOKAHEAD
    read_at_once: float = 0.0
    light_seats: int | None = None
    overrules: bool = False
    marks: Marks = "model"
    anchored: bool = False
    search_calibration: float | None = None


#: Each game's coach. Why these settings (figures: docs/bots.md, "Coach" and "Are the
#: marks real?"):
#:
#: * *Lookahead.* The card game reads the model right after the move: its model sees a
#:   move's effect on the table at once, and a lookahead's rollouts only added noise (its
#:   estimate moved by 3.3 points between seeds with 6 decisions of lookahead, by none
#:   without) and cost, for no better calibration. Shadows over Camelot follows each move
#:   for one decision: read at once, a move that opens a choice (a special ability: its
#:   target still to name) read far above its completion, and reviews marked the
#:   heuristic's moves against it. Grail Cup's model does not see a race won until the
#:   game ends, so its moves are followed for four decisions (issue 31's blunder test:
#:   with three, the winning move was not found sure enough to mark its miss). Worlds
#:   matter even without a lookahead, for a move that shows something hidden.
#: * *More worlds where they stray.* A soc decision whose outcome hangs on a draw (a black
#:   card that may end the game) read 51% on four worlds where those around it read 3-4%;
#:   drawing more while the coach's move's chance has a standard error above 2.5 points
#:   (up to 16) cut the largest error over 6 reviewed games from 24.8 points to 7.1 and the
#:   chart's steps above 20 points from 60 to 52 of 2,057, at 5.6 ms an estimate.
#: * *Grail Cup's readings.* Its seat-relative model made the lookahead end's readings
#:   vary with the draws: an estimate moved 2.1-2.7 points between seeds at 4 knights with
#:   the end's alone (four worlds, five decisions), 1.0-1.5 with both (three worlds, four
#:   decisions: less time). An 8-knight race's lookahead plays twice the moves of a
#:   4-knight one: it read three worlds a decision in 9.4-10.6 ms of CPU, against a bar of
#:   10, and two in 6.3 ms with the same calibration; its review took 42 s of CPU at the
#:   5-knight budget, 34-42 s at 5/8 of it (the bar is 30 s).
#: * *Anchored.* The card game's model reads a move's position right after it, where
#:   another seat is often to act; its chance maps are fitted where the seat decides, and
#:   right after a move they read low in the upper half (the policy's move at 400 games of
#:   4 decisions, rules version 3, unanchored: 4.0 / 3.6 / 2.0 points on seeds 7 / 8 / 9,
#:   74.8% where 83.4% came true; at the decision itself, 3.1 / 3.0 / 1.8). The policy's
#:   move is what the model's training games played there, so the position's own reading
#:   is its chance, and the readings after the moves give the differences.
#: * *Overrules.* A hint's move is worth following only if following it wins: playing the
#:   coach's move at every decision of one seat (``python -m bench.evaluator strength GAME
#:   N --panels coach --games 400 --seed 21``, with the model overruling) lost 9.0 points
#:   [-13.1, -4.9] against the heuristic in Shadows over Camelot (6.3 with a margin of
#:   0.10) and 7.2 [-12.1, -2.4] in the card game (0.06: 3.5, 0.10: 1.5), and won 2.3
#:   [-2.1, +6.6] in Grail Cup (800 seeds). A model trained on the bots' games reads the
#:   moves they seldom make blind (the card game's wrong accusation: a loyal seat shown
#:   loyal read as a gain worth its black sword).
#: * *Marks.* The card game's model read the moves its training games seldom made blind (a
#:   lost quest 2.5 points above listening); the search's drops follow the true ones more
#:   closely (``python -m bench.review_marks``: correlation 0.83 against 0.60 over 283-288
#:   random moves), so its reviews and hints compare moves by the search. Shadows over
#:   Camelot's and Grail Cup's models mark harmless moves (soc: 12 of 121 moves that truly
#:   drop less than 2 points, on the network of 86f1e83; Grail Cup: 4 of 46); confirmed by
#:   the search, 1 of 119 and 0 of 47 stand (3 marks averaging a true drop of 52 points,
#:   2 averaging 100), for a search of the marked moves alone (the search's drops at every
#:   move cost 2.6 s a soc game with one random move in fifty, confirming 0.46 s). Figures:
#:   docs/bots.md, "Are the marks real?".
COACH: dict[str, GameCoach] = {
    "soc": GameCoach(budget=Budget(actions=5000, min_sweeps=2, max_sweeps=16), worlds=4,
                     max_worlds=16, lookahead=1, marks="confirmed",
                     search_calibration=0.098),
    "soc-card": GameCoach(budget=Budget(actions=1000, min_sweeps=4, max_sweeps=16),
                          worlds=8, lookahead=0, marks="search", anchored=True,
                          search_calibration=0.043),
    "grail-cup": GameCoach(budget=Budget(actions=2400, min_sweeps=2, max_sweeps=24),
                           budget_seats=5, worlds=3, lookahead=4, read_at_once=0.5,
                           light_seats=4, overrules=True, marks="confirmed",
                           search_calibration=0.131),
}


def coach_for(game: str) -> GameCoach:
    """``game``'s coach settings (:data:`COACH`; a game without its own: the defaults).

    >>> coach_for("soc-card").marks, coach_for("no-such-game") == GameCoach()
    ('search', True)
    """
    return COACH.get(game) or GameCoach()


def budget_for(game: str, players: int | None = None) -> Budget:
    """The review's budget of ``game`` (at ``players`` seats, where that matters).

    >>> budget_for("soc").max_sweeps, budget_for("no-such-game") == DEFAULT_BUDGET
    (16, True)
    >>> budget_for("grail-cup", 8).actions, budget_for("grail-cup", 4).actions
    (937, 2400)
    """
    settings = coach_for(game)
    chosen, seats = settings.budget, settings.budget_seats
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
    #: Whether ``choice`` could leave ``prior``: ``False`` where the game's model is not
    #: trusted over its policy (:attr:`GameCoach.overrules`), whatever the readings.
    overrules: bool = True

    @property
    def sweeps(self) -> int:
        """Paired sweeps run (every action has one reward per sweep)."""
        return len(next(iter(self.rewards.values())))

    def mean(self, action: int) -> float:
        """The mean reward after ``action`` over the sweeps (a compared estimate's may pass
        -1 or 1: :func:`compared` shifts the search's rewards to the model's level)."""
        values = self.rewards[action]
        return sum(values) / len(values)

    def chance(self, action: int) -> float:
        """The seat's estimated chance of winning after ``action``, in [0, 1]."""
        return min(1.0, max(0.0, (self.mean(action) + 1) / 2))

    def error(self, action: int) -> float:
        """The standard error of :meth:`chance` (``inf`` with one sweep)."""
        values = self.rewards[action]
        return _standard_error(values) / 2

    def difference(self, action: int, other: int) -> float:
        """``chance(action) - chance(other)`` before either is held to [0, 1]: the paired
        sweeps' evidence, which a chance near 0 or 1 would cut short."""
        return (self.mean(action) - self.mean(other)) / 2

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
        """The actions by estimated chance, best first (ties: the search's choice, then id),
        by :meth:`mean`: a compared estimate may read two moves at 100%, and the sweeps
        still tell them apart.

        >>> Estimate(0, "own", 1, 1, {1: (1.2, 1.2), 2: (1.6, 1.4), 3: (0.0, 0.0)}).ranked()
        [2, 1, 3]
        """
        return sorted(self.rewards, key=lambda a: (-self.mean(a), a != self.choice, a))


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


def compare_budget(budget: Budget) -> Budget:
    """The search's budget when it compares the moves of one decision on top of the model:
    :data:`DECISION_FACTOR` times ``budget``'s simulated actions (a review's), up to
    :data:`COMPARE_SWEEPS` times its sweeps, and at least six.

    >>> compare_budget(budget_for("soc-card"))
    Budget(actions=4000, min_sweeps=6, max_sweeps=32)
    """
    return Budget(actions=DECISION_FACTOR * budget.actions,
                  min_sweeps=max(budget.min_sweeps, DEFAULT_MIN_ITERATIONS),
                  max_sweeps=max(COMPARE_SWEEPS * budget.max_sweeps, DEFAULT_MIN_ITERATIONS))


def compared(found: Estimate, state: State, seed: int = 0,
             budget: Budget | None = None) -> Estimate:
    """``found`` (the model's estimate of ``state``'s decision) with its moves compared by
    the search: the search's paired sweeps (``budget``, by default :func:`compare_budget`
    of the game's review budget; seeded by ``seed``, the seat and the position, so the
    same decision reads the same in a hint, a whole review or one move's) give the move,
    the differences between moves and their paired errors; every move's rewards are
    shifted alike so that the search's move reads the model's chance of it (a chance
    stays in [0, 1]).

    >>> import pendragon
    >>> state = pendragon.load_game("soc-card", players=3, seed=5).new_initial_state()
    >>> while state.current_player() < 0 or len(state.legal_actions()) < 2:
    ...     state.apply_action(state.sample_chance() if state.current_player() < 0
    ...                        else state.legal_actions()[0])
    >>> seat = state.current_player()
    >>> found = estimate(state, seat)
    >>> both = compared(found, state, budget=Budget(actions=400, min_sweeps=6, max_sweeps=6))
    >>> both.sweeps, round(both.chance(both.choice), 9) == round(found.chance(both.choice), 9)
    (6, True)
    """
    seat = found.seat
    chosen = budget or compare_budget(budget_for(state.game.name, state.game.num_players()))
    search = estimate_with(coach_bot(rng.mix(rng.mix(seed, seat), state.version), chosen),
                           state, seat, chosen)
    shift = 2 * found.chance(search.choice) - 1 - search.mean(search.choice)
    rewards = {action: tuple(v + shift for v in each) for action, each in search.rewards.items()}
    return Estimate(seat, found.side, search.prior, search.choice, rewards)


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


class ModelReader:
    """A seat's reader of model estimates (:func:`model_estimate`): its policy (the game's
    heuristic, seeded) gives the prior and draws the worlds; a review keeps one per seat
    so that a policy with a memory of the game (the card game's count of the cards
    turned) follows it, as at the table.

    ``settings``: the game's coach (:func:`coach_for`), its one source: the worlds the
    seat cannot tell from the real one each estimate reads (fewer past its light seats at
    ``players`` seats, :func:`light_search`), the decisions each move is followed for (by
    the rollout policy, the same draws for every move) before the model reads the
    position, the weight of a reading at once, whether the model may overrule the policy.
    """

    def __init__(self, seed: int, settings: GameCoach | None = None,
                 players: int | None = None) -> None:
        settings = settings or GameCoach()
        if settings.worlds < 1:
            raise ValueError("a model estimate reads at least one world")
        if settings.lookahead < 0:
            raise ValueError("lookahead is a number of decisions, 0 or more")
        self.seed = seed
        self.settings = settings
        self.worlds, self.lookahead = _light(settings, players)
        self.policy: Bot = HeuristicBot(seed)
        #: The rollout policy following the real game (``None``: it keeps no memory) and
        #: the factory of fresh ones: (game, policy, factory).
        self._follower: tuple[Game, Forkable | None, Callable[[int], Bot]] | None = None

    def _rollout_memory(self, state: State) -> tuple[Forkable | None, Callable[[int], Bot]]:
        """The rollout policy following the real game ``state`` (``None``: it keeps no
        memory) and the factory of a fresh one."""
        known = self._follower
        if known is None or known[0] is not state.game:
            factory: Callable[[int], Bot] = rollout_factory(state.game.name)
            policy = factory(self.seed)
            known = (state.game, policy if isinstance(policy, Forkable) else None, factory)
            self._follower = known
        follower = known[1]
        if follower is not None:
            follower.follow(state)
        return follower, known[2]

    def estimate(self, state: State, seat: int, seed: int) -> Estimate:
        """``seat``'s estimate of its decision in ``state`` (see :func:`model_estimate`)."""
        bound = evaluator_for(state.game)
        if bound is None:
            raise ValueError(f"{state.game.name} has no learned evaluator for this layout")
        legal = state.legal_actions()
        prior = self.policy.step(state) if len(legal) > 1 else legal[0]
        follower, factory = (self._rollout_memory(state) if self.lookahead
                             else (None, None))
        # The worlds are a function of the seed, the seat and the position's public count
        # of actions alone: the same position and seed give the same estimate, in a review
        # or out of it.
        generator = CanonicalRandom(rng.mix(rng.mix(seed, seat), state.version))
        readings: dict[tuple[float, ...], float] = {}
        rewards: dict[int, list[float]] = {action: [] for action in legal}
        settings = self.settings
        at_once = settings.read_at_once if factory is not None else 0.0
        read = 0
        while read < self.worlds or (read < settings.max_worlds  # a reward is 2 chances
                                     and _standard_error(rewards[prior]) / 2 > settings.spread):
            read += 1
            world = sample_world(self.policy, state, seat, generator)
            sweep_seed = generator.getrandbits(32)
            for action in legal:
                child = world.clone()
                child.apply_action(action)
                now = _reading(bound, child, seat, readings) if at_once else 0.0
                if factory is not None:
                    policy = (follower.fork(sweep_seed) if follower is not None
                              else factory(sweep_seed))
                    self._follow(child, sweep_seed, policy)
                later = _reading(bound, child, seat, readings)
                rewards[action].append(at_once * now + (1.0 - at_once) * later)
        if settings.anchored:  # the policy's move reads the position's own chance
            shift = bound.value(state, seat) - sum(rewards[prior]) / len(rewards[prior])
            rewards = {action: [v + shift for v in values]
                       for action, values in rewards.items()}
        frozen = {action: tuple(values) for action, values in rewards.items()}
        overrules = settings.overrules
        choice = (search_choice(prior, frozen, margin=2 * MODEL_MARGIN, min_sweeps=2)
                  if len(frozen) > 1 and overrules else prior)
        return Estimate(seat, side_of(state, seat), prior, choice, frozen, overrules)

    def _follow(self, world: State, sweep_seed: int, policy: Bot) -> None:
        """Play ``world`` on for :attr:`lookahead` decisions with the sweep's ``policy``
        and chance stream (the same for every move of the world: common random numbers)."""
        chance_seed = rng.mix(sweep_seed, _CHANCE_STREAM)
        depth = draws = 0
        while depth < self.lookahead and not world.is_terminal():
            if world.current_player() == CHANCE:
                world.apply_action(rng.pick_at(rng.uniform(chance_seed, draws),
                                               world.chance_outcomes()))
                draws += 1
                continue
            world.apply_action(policy.step(world))
            depth += 1


#: The chance stream of a world's lookahead (apart from its policy's seed).
_CHANCE_STREAM = 0x5EED


def _reading(bound: Evaluator, world: State, seat: int,
             readings: dict[tuple[float, ...], float]) -> float:
    """The model's reading of ``world`` for ``seat`` as a reward in [-1, 1] (a finished
    game: +1 or -1); a tensor read before in this estimate is not read again (most moves
    show the seat the same position in every world)."""
    if world.is_terminal():
        return 1.0 if world.returns()[seat] > 0 else -1.0
    key = tuple(world.observation_tensor(seat))
    found = readings.get(key)
    if found is None:
        # The evaluator's own reading (its checks and calibration), on a miss only.
        found = bound.value(world, seat)
        readings[key] = found
    return found


def light_search(game: str, players: int | None = None) -> tuple[int, int]:
    """``game``'s (worlds, lookahead) for a model estimate (:data:`COACH`) at ``players``
    seats: a game whose estimate costs more with more seats
    (:attr:`GameCoach.light_seats`) reads fewer worlds past that table size, in
    proportion, rounded up.

    >>> light_search("soc-card"), light_search("no-such-game") == (WORLDS, LOOKAHEAD)
    ((8, 0), True)
    >>> [light_search("grail-cup", n) for n in (4, 6, 8)]
    [(3, 4), (2, 4), (2, 4)]
    """
    return _light(coach_for(game), players)


def _light(settings: GameCoach, players: int | None) -> tuple[int, int]:
    worlds, lookahead, seats = settings.worlds, settings.lookahead, settings.light_seats
    if seats is not None and players is not None and players > seats:
        worlds = max(2, -(-worlds * seats // players))
    return worlds, lookahead


def model_bot(seed: int, game: str, players: int | None = None) -> ModelReader:
    """A :class:`ModelReader` for one seat of ``game`` (at ``players`` seats) seeded with
    ``seed``, by the game's coach (a review keeps one per seat)."""
    return ModelReader(seed, coach_for(game), players)


def model_estimate(state: State, seat: int, seed: int = 0,
                   bot: ModelReader | None = None) -> Estimate:
    """:func:`estimate` by the learned evaluator (``ValueError`` if the game has no model
    that fits): the game's worlds (:func:`light_search`) the seat cannot tell from the real
    one are drawn once for the decision (``resample_hidden(seat)``, or the heuristic's
    belief), every legal move is played in each of them (paired worlds: each move meets
    the same worlds, and the same draws after it), followed for the game's lookahead in
    decisions, and the model reads the position from the seat's view; a game that ends on
    the way counts as won or lost. ``bot``: a :class:`ModelReader` that has followed the
    game (a review keeps one per seat); its policy's move is the prior. The worlds are
    seeded by ``seed``, the seat and the position, so the same position and seed give the
    same figures."""
    if evaluator_for(state.game) is None:
        raise ValueError(f"{state.game.name} has no learned evaluator for this layout")
    if bot is None:
        bot = model_bot(rng.mix(seed, seat), state.game.name, state.game.num_players())
    return bot.estimate(state, seat, seed)


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
