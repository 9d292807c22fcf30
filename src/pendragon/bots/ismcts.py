"""Information-Set Monte Carlo search that improves on a policy, for any game of the core API.

The bot plays its *policy* (the game's heuristic, or a random player) and overrules it
only where the search shows, with statistical confidence, that another action does better.
Each iteration is a *sweep*: one determinisation of what the seat cannot see (a world:
``state.resample_hidden(seat, rng)``, or, when the policy keeps a belief about who the
traitor is, its ``sample_world``: loyalty drawn from the posterior, the cards redealt
uniformly; see :class:`~pendragon.bots.base.WorldSampler`) in which every legal root
action is tried, each followed by the same rollout (the policy, seeded alike for every
action, to the end of the game or to a depth cap) and the same chance draws. The root
actions are therefore compared on common random numbers: the difference between two
actions in one sweep is the difference their choice made in that world, not the luck of
the draw. The policy's own choice stands unless another action's mean reward beats it by
more than ``prior_margin`` *and* by ``confidence`` standard errors of the paired
differences.

This is single-observer ISMCTS (Cowling, Powley and Whitehouse 2012) with the tree held to
the root's information set and the rollout policy below it, and with every root action
visited in every determinisation (the bandit of each sweep is exhaustive). Where full
rollouts are too long for the budget to give that evidence (early in a long game), the bot
plays its policy at once: the budget is spent where the end of the game is in sight.

The search reads the state it is given through worlds alone (``resample_hidden(seat)``:
what the seat cannot see redealt, and no past, since the real history would tell the real
deal). Its policy decides at the root as it would at the table (the seat's observations
and the public record: the same bot as the ``heuristic``), and a rollout policy that keeps
a memory (:class:`~pendragon.bots.base.Forkable`) starts every rollout from what the
table saw of the real game, then follows the world's observations. So the choice cannot
depend on what other seats hold.

>>> import pendragon
>>> state = pendragon.load_game("soc", players=3, seed=1, no_traitor=True).new_initial_state()
>>> state.play_random_chance()
>>> bot = ISMCTSBot(seed=2, iterations=8, budget=10**6, min_iterations=2)
>>> bot.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from pendragon.bots.base import Bot, Forkable, sample_world
from pendragon.bots.evaluator import Evaluator as BoundEvaluator, evaluator_for
from pendragon.bots.policy import PolicyBot
from pendragon.bots.random_bot import RandomBot
from pendragon.core import rng
from pendragon.core.api import CHANCE, Game, State

#: Evaluation of a non-terminal position: one value per seat in [-1, 1].
Evaluator = Callable[[State], list[float]]

#: Sweeps (determinisations) per decision at most.
DEFAULT_ITERATIONS = 16
#: Sweeps before an action no better than the policy's is dropped (and, under a time
#: limit, the fewest that may overrule the policy).
DEFAULT_MIN_ITERATIONS = 6
#: Simulated actions (every seat's and chance's) one decision may spend: in Shadows over
#: Camelot a searched decision took 0.63 s at the 99th percentile, 0.87 s at most, on one
#: core of this project's machine (docs/bots.md).
DEFAULT_BUDGET = 8000
#: The policy's choice stands unless another action's mean reward beats it by this much
#: (rewards lie in [-1, 1])...
DEFAULT_PRIOR_MARGIN = 0.1
#: ...and by this many standard errors of the paired differences (about 2% one-sided for
#: one comparison; a root compares up to a dozen actions with the policy's), unless the
#: game's heuristic names its own (``search_confidence(game)``).
DEFAULT_CONFIDENCE = 2.0
#: Keeps a sweep's chance draws apart from its policy's tie-breaks (both come from the
#: sweep's seed).
_CHANCE_STREAM = 0xC4A7CE
#: Decisions a rollout plays before the learned evaluator reads it, where full rollouts do
#: not fit the budget, ``rollout_depth`` is unset and the game names no horizon of its own.
DEFAULT_MODEL_DEPTH = 10


def soc_evaluate(state: State) -> list[float]:
    """Shadows over Camelot: how the board favours the loyal side, seen by each seat.

    Public figures only (swords, siege engines, life of knights in play), plus each seat's
    loyalty in the (determinised) world: a traitor gets the opposite value. Used where a
    rollout is cut (``rollout_depth``).
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

#: A game's own end of a rollout (its heuristic's ``search_leaf``): given the rollout's
#: position, the seat searching and the world the sweep started from (before the root
#: action), that seat's value in [-1, 1] where the rollout may stop, else ``None``.
Leaf = Callable[[State, int, State], float | None]

#: A game's horizon for rollouts the learned evaluator reads (its heuristic's
#: ``search_horizon``): given the rollout's position and the sweep's world before the root
#: action, whether the model reads the position now. Every root action's rollout stops at
#: the same point of the game (Shadows over Camelot: two turns on, at the start of a turn),
#: so the model compares positions alike, not one in the middle of a turn with one at its
#: start.
Horizon = Callable[[State, State], bool]

#: A game's fellows of a seat (its heuristic's ``search_fellows``): given a rollout's world
#: and the searching seat, the seats of that seat's side in that world (the seat among
#: them), whose readings of the learned evaluator a search asked for it averages
#: (``ISMCTSBot(fellows=True)``).
Fellows = Callable[[State, int], list[int]]


class GameHooks(NamedTuple):
    """What a game's heuristic tells its search (read once per game, :meth:`ISMCTSBot.
    leaf_for`, :meth:`~ISMCTSBot.horizon_for`, :meth:`~ISMCTSBot.confidence_for`)."""

    #: The game they were read for.
    game: Game
    #: Its ``search_leaf`` (``None``: rollouts play to the end).
    leaf: Leaf | None
    #: Its ``search_horizon`` (``None``: ``DEFAULT_MODEL_DEPTH`` decisions).
    horizon: Horizon | None
    #: Its ``search_confidence(game)``, else ``DEFAULT_CONFIDENCE``.
    confidence: float
    #: Its ``search_fellows`` (``None``: the searching seat's reading alone).
    fellows: Fellows | None


@mypyc_attr(native_class=False)  # (a native class cannot extend random.Random)
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


def paired_advantage(rewards: Sequence[float], baseline: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``rewards[i] - baseline[i]`` (paired samples).

    >>> mean, error = paired_advantage([1, 1, -1, 1], [-1, 1, -1, -1])
    >>> mean, round(error, 4)
    (1.0, 0.5774)
    >>> paired_advantage([1.0], [0.0])
    (1.0, inf)
    """
    diffs = [a - b for a, b in zip(rewards, baseline, strict=True)]
    count = len(diffs)
    mean = sum(diffs) / count
    if count < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return mean, math.sqrt(variance / count)


@mypyc_attr(allow_interpreted_subclasses=True)
class ISMCTSBot(PolicyBot[None]):
    """Policy-improving ISMCTS: paired sweeps over the root actions, a confidence test.

    ``rollout``: ``"heuristic"`` (the game's heuristic, or :class:`OnePlyBot` for a game
    without one; the default) or ``"random"``. The same policy decides where the search
    does not overrule it: with ``"heuristic"``, a bot that never overrules plays exactly
    as the ``heuristic`` bot with the same seed.

    Budget: ``iterations`` sweeps at most, and no more than ``budget`` simulated actions
    (the sweeps' expected length is learnt from the rollouts; a search whose rollouts run
    longer than expected stops before the sweep that would overspend it); fewer than
    ``min_iterations`` sweeps and the policy plays without a search. ``time_limit`` (in
    seconds) replaces both: sweeps run until it is spent (decisions then depend on the
    machine's speed; leave it unset for reproducible games). ``rollout_depth`` cuts
    rollouts after that many decisions and scores the position with the game's evaluator
    (``None``, the default: play to the end).

    ``prior_margin`` and ``confidence``: the policy's choice is overruled only by an action
    whose mean paired advantage exceeds both the margin and ``confidence`` standard
    errors. ``prior_margin=None`` plays the best mean regardless. ``confidence=None`` (the
    default) takes the game's own (its heuristic's ``search_confidence(game)``; see
    :meth:`confidence_for`), else ``DEFAULT_CONFIDENCE``.

    A game's heuristic may end rollouts early (``search_leaf``, see :meth:`leaf_for`).

    ``evaluator``: score where a rollout stops with the game's learned evaluator (issue 38,
    :mod:`pendragon.bots.evaluator`: the searching seat's chance from its own view of the
    rollout's world) rather than the game's own leaf value (the card game's leaf table) or
    the hand-made evaluation at ``rollout_depth``; where the game ships no model that fits,
    the search is as without it. Without ``rollout_depth`` the model also searches where
    full rollouts do not fit the budget: there the rollouts stop at the game's horizon
    (:meth:`horizon_for`; else after ``DEFAULT_MODEL_DEPTH`` decisions) and the model reads
    them; where full rollouts fit, the search plays them as without the model.

    ``fellows``: where the model reads a rollout, average its readings from the view of
    every seat of the searching seat's side in the rollout's world (the game's
    ``search_fellows``, :meth:`fellows_for`; a game that names none: the seat's own). A
    model's error at two sibling positions is much the same in every world, so the sweeps'
    spread does not show it and it passes the confidence test; read from several seats'
    views, with their different hands and places, much of it averages out (docs/bots.md,
    Shadows over Camelot without a traitor). The world is a determinisation of the
    searching seat's information set, so the fellows' views of it tell nothing of the real
    table.
    """

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        time_limit: float | None = None,
        rollout: str = "heuristic",
        rollout_depth: int | None = None,
        prior_margin: float | None = DEFAULT_PRIOR_MARGIN,
        confidence: float | None = None,
        budget: int = DEFAULT_BUDGET,
        min_iterations: int = DEFAULT_MIN_ITERATIONS,
        evaluator: bool = False,
        fellows: bool = False,
    ) -> None:
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', got {rollout!r}")
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if not 1 <= min_iterations <= iterations:
            raise ValueError("min_iterations must lie between 1 and iterations")
        if budget < 1:
            raise ValueError("budget must be at least 1")
        if confidence is not None and not confidence >= 0:
            raise ValueError(f"confidence must be a number of standard errors >= 0, "
                             f"got {confidence!r}")
        if rollout_depth is not None and rollout_depth < 1:
            raise ValueError("rollout_depth must be at least 1 (or None: to the end)")
        self.seed = seed
        self.iterations = iterations
        self.time_limit = time_limit
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.prior_margin = prior_margin
        self.confidence = confidence
        self.budget = budget
        self.min_iterations = min_iterations
        self.evaluator = evaluator
        self.fellows = fellows
        #: The learned evaluator of the game, read once per game: (game, evaluator).
        self._model: tuple[Game, BoundEvaluator | None] | None = None
        self._rng = CanonicalRandom(seed)
        self._policy: Bot | None = None
        #: The rollouts' view of when the game ends: (game, version measured at, mean
        #: length of the game from there in actions).
        self._horizon: tuple[object, int, float] | None = None
        #: The game's rollout leaf, the model's horizon and the overrule test's standard
        #: errors (its heuristic's ``search_leaf``, ``search_horizon`` and
        #: ``search_confidence(game)``), read once per game: (game, leaf, horizon,
        #: confidence).
        self._game_hooks: GameHooks | None = None
        #: Whether this search's rollouts stop where the model reads them (full rollouts
        #: did not fit the budget).
        self._short = False
        #: The rollout policy following the real game's public record, that every rollout
        #: forks (``None`` when the rollout policy keeps no memory): (game, policy).
        self._follower: tuple[Game, Forkable | None] | None = None
        #: What the last search found, for tests and reports: (sweeps, overruled).
        self.last_search: tuple[int, bool] | None = None

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot(seed={self.seed!r}, iterations={self.iterations}, "
            f"rollout={self.rollout!r})"
        )

    # ------------------------------------------------------------------ policies
    def _make_policy(self, game_name: str, seed: int | None, root: bool) -> Bot:
        """The policy: at the root (``root``; it may follow the game's public record) or a
        fresh, seeded copy for one sweep's rollouts."""
        if self.rollout == "random":
            return RandomBot(seed)
        from pendragon.bots.heuristic import HeuristicBot, rollout_policy

        return HeuristicBot(seed) if root else rollout_policy(game_name, seed)

    def model_for(self, game: Game) -> BoundEvaluator | None:
        """The learned evaluator the rollouts stop on (``None``: not asked for, or no model
        fits the game)."""
        if not self.evaluator:
            return None
        known = self._model
        if known is None or known[0] is not game:
            known = (game, evaluator_for(game))
            self._model = known
        return known[1]

    def leaf_for(self, game: Game) -> Leaf | None:
        """Where rollouts in ``game`` stop before its end: its heuristic's ``search_leaf``
        (``None``: play every rollout to the end, or to ``rollout_depth``). A game whose
        outcome is mostly luck far ahead (the card game) scores a rollout once the choice
        at the root has played out, with a model of the rest, rather than by one noisy end.

        >>> import pendragon
        >>> ISMCTSBot().leaf_for(pendragon.load_game("soc", players=3)) is None
        True
        >>> ISMCTSBot().leaf_for(pendragon.load_game("soc-card", players=3)) is not None
        True
        """
        return self._hooks(game).leaf

    def horizon_for(self, game: Game) -> Horizon | None:
        """Where the rollouts of a search that reads the learned evaluator (full rollouts
        not fitting the budget) stop in ``game``: its heuristic's ``search_horizon``
        (``None``: after ``DEFAULT_MODEL_DEPTH`` decisions).

        >>> import pendragon
        >>> ISMCTSBot().horizon_for(pendragon.load_game("soc", players=3)) is not None
        True
        >>> ISMCTSBot().horizon_for(pendragon.load_game("grail-cup", players=3)) is None
        True
        """
        return self._hooks(game).horizon

    def fellows_for(self, game: Game) -> Fellows | None:
        """Whose views of a rollout's world the learned evaluator reads in ``game`` (its
        heuristic's ``search_fellows``), where the bot was asked to (``fellows``); ``None``:
        the searching seat's alone.

        >>> import pendragon
        >>> game = pendragon.load_game("soc", players=3, no_traitor=True)
        >>> ISMCTSBot().fellows_for(game) is None, ISMCTSBot(fellows=True).fellows_for(game) is None
        (True, False)
        >>> ISMCTSBot(fellows=True).fellows_for(pendragon.load_game("grail-cup", players=3))
        """
        return self._hooks(game).fellows if self.fellows else None

    def confidence_for(self, game: Game) -> float:
        """The standard errors by which an action must beat the policy's choice in
        ``game``: the bot's ``confidence`` if given, else the game's own (its heuristic's
        ``search_confidence(game)``: Shadows over Camelot's 1 without a traitor, chosen on
        dev seeds and confirmed on fresh ones, docs/bots.md), else ``DEFAULT_CONFIDENCE``.

        >>> import pendragon
        >>> ISMCTSBot().confidence_for(pendragon.load_game("soc", players=3, no_traitor=True))
        1.0
        >>> ISMCTSBot().confidence_for(pendragon.load_game("soc", players=3))
        2.0
        >>> ISMCTSBot().confidence_for(pendragon.load_game("grail-cup", players=3))
        2.0
        >>> ISMCTSBot(confidence=3.0).confidence_for(pendragon.load_game("soc", players=3))
        3.0
        """
        if self.confidence is not None:
            return self.confidence
        return self._hooks(game).confidence

    def _hooks(self, game: Game) -> GameHooks:
        """What ``game``'s heuristic tells the search (:class:`GameHooks`), read once per
        game."""
        known = self._game_hooks
        if known is None or known.game is not game:
            from pendragon.bots.heuristic import game_policy

            policy = game_policy(game.name)
            ask = getattr(policy, "search_confidence", None)
            confidence = None if ask is None else ask(game)
            known = GameHooks(game, getattr(policy, "search_leaf", None),
                              getattr(policy, "search_horizon", None),
                              DEFAULT_CONFIDENCE if confidence is None else float(confidence),
                              getattr(policy, "search_fellows", None))
            self._game_hooks = known
        return known

    # ------------------------------------------------------------------ decision
    def observe(self, state: State, seat: int) -> None:
        """At every decision of the seat (forced moves too, which are played without asking
        the policy: it reads the record back): no search yet."""
        self.last_search = None

    def decide(self, state: State, seat: int, legal: Sequence[int], seen: None) -> int:
        """The policy's action, unless the search shows a better one with confidence."""
        if self._policy is None:
            self._policy = self._make_policy(state.game.name, self.seed, root=True)
        # The policy is the table's bot: it reads the seat's view and the public record of
        # the real game (a world has no past to follow).
        prior = self._policy.step(state)
        if prior not in legal:
            raise ValueError(f"the policy {self._policy!r} chose an illegal action {prior}")
        if self._affordable(state, seat, len(legal)):
            return self.search(state, seat, prior, self.iterations)
        if self.rollout_depth is not None or self.model_for(state.game) is None:
            return prior
        # Full rollouts do not fit: the learned evaluator reads them at the game's horizon.
        self._short = True
        try:
            return self.search(state, seat, prior, self.iterations)
        finally:
            self._short = False

    def _affordable(self, state: State, seat: int, actions: int) -> bool:
        """Whether the budget pays for every sweep here (a time limit always does)."""
        if self.time_limit is not None:
            return True
        remaining = self._expected_length(state, seat)
        return self.iterations * actions * max(1.0, remaining) <= self.budget

    def _expected_length(self, state: State, seat: int) -> float:
        """Actions a rollout plays from here (to the end of the game, or to the depth cap),
        as the last rollouts saw it; measured again by one rollout when the last measure is
        from another game, or has run a third down."""
        known = self._horizon
        if known is not None and known[0] is state.game and state.version >= known[1]:
            measured_at, length = known[1], known[2]
            left = length - (state.version - measured_at)
            if state.version - measured_at <= length / 3:
                return left
        world = self.world_for(state, seat)
        self._rollout(world, seat, self._rng.getrandbits(32), follower=self._rollout_memory(state))
        length = float(world.version - state.version)
        self._horizon = (state.game, state.version, length)
        return length

    def search(self, state: State, seat: int, prior: int, sweeps: int) -> int:
        """Play up to ``sweeps`` paired sweeps from ``seat``'s information set; return the
        policy's choice ``prior`` unless an action beats it with confidence.

        After ``min_iterations`` sweeps, an action whose mean is no better than the
        policy's is dropped (it can no longer be chosen, so it needs no more rollouts), and
        the search stops once only the policy's choice is left. Only hopeless actions are
        dropped early, never a winner chosen early, so the final test keeps its meaning.
        Where the learned evaluator reads the rollouts at the game's horizon (a chance, not
        a win or a loss: two actions all but never tie), "no better" is a mean advantage of
        no more than ``prior_margin``, the least by which the final test lets an action
        overrule: a hair's lead read from a model is no reason to sweep on.
        """
        legal = state.legal_actions()
        rewards: dict[int, list[float]] = {action: [] for action in legal}
        alive = list(legal)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        follower = self._rollout_memory(state)
        lengths = rollouts = done = 0
        keep = (self.prior_margin or 0.0) if self._short else 0.0  # the lead to stay alive
        while done < sweeps:
            lengths += self._sweep(state, seat, alive, rewards, follower)
            rollouts += len(alive)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if deadline is None and lengths + lengths / done > self.budget:
                # The rollouts run longer than the last measure said: another sweep would
                # overspend the budget (and the move's time), so the search ends here.
                break
            if done >= self.min_iterations and self.prior_margin is not None:
                base = sum(rewards[prior])
                alive = [a for a in alive
                         if a == prior or (sum(rewards[a]) - base) / done > keep]
                if len(alive) == 1:
                    break
        if not self._short:  # (rollouts cut at the model's horizon say nothing of the end)
            self._horizon = (state.game, state.version, lengths / rollouts)
        scores = {a: rewards[a] for a in alive}
        choice = self._decide(prior, scores, done, self.confidence_for(state.game))
        self.last_search = (done, choice != prior)
        return choice

    def root_rewards(self, state: State, seat: int, budget: int | None = None,
                     min_sweeps: int = 1) -> tuple[int, dict[int, list[float]]]:
        """For estimates rather than play (the coach, :mod:`pendragon.coach`): the policy's
        choice in ``state`` and every legal action's reward for ``seat`` in each paired
        sweep, none dropped. Up to ``iterations`` sweeps; with ``budget`` (simulated
        actions), it stops once another sweep would overspend it, after ``min_sweeps``.
        The sweeps are drawn as :meth:`search` draws them (the same worlds, rollouts and
        leaves); the bot's own play is untouched.

        >>> import pendragon
        >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
        >>> state.play_random_chance()
        >>> bot = ISMCTSBot(seed=2, iterations=2, min_iterations=2)
        >>> prior, rewards = bot.root_rewards(state, state.current_player())
        >>> sorted(rewards) == state.legal_actions() and prior in rewards
        True
        >>> {len(r) for r in rewards.values()}, {v for r in rewards.values() for v in r} <= {-1, 1}
        ({2}, True)
        """
        if self._policy is None:
            self._policy = self._make_policy(state.game.name, self.seed, root=True)
        legal = state.legal_actions()
        prior = self._policy.step(state) if len(legal) > 1 else legal[0]
        rewards: dict[int, list[float]] = {action: [] for action in legal}
        follower = self._rollout_memory(state)
        lengths = done = 0
        while done < self.iterations:
            lengths += self._sweep(state, seat, legal, rewards, follower)
            done += 1
            if budget is not None and done >= min_sweeps and lengths + lengths / done > budget:
                break
        return prior, rewards

    def _sweep(self, state: State, seat: int, actions: Sequence[int],
               rewards: dict[int, list[float]], follower: Forkable | None) -> int:
        """One paired sweep: a world as ``seat`` may imagine it, each of ``actions`` tried
        in it and played out with the same rollout seed, its reward added to ``rewards``;
        returns the actions the rollouts took."""
        world = self.world_for(state, seat)
        sweep_seed = self._rng.getrandbits(32)
        lengths = 0
        for action in actions:
            child = world.clone()
            child.apply_action(action)
            rewards[action].append(self._rollout(child, seat, sweep_seed, world, follower))
            lengths += child.version - state.version
        return lengths

    def world_for(self, state: State, seat: int) -> State:
        """The world one sweep searches: what ``seat`` cannot see drawn from its policy's
        belief (:func:`~pendragon.bots.base.sample_world`). A subclass may draw it otherwise
        (``bench.evaluator``'s open-hand search, a bound, reads the true state)."""
        return sample_world(self._policy, state, seat, self._rng)

    def _decide(self, prior: int, rewards: dict[int, list[float]], done: int,
                confidence: float = DEFAULT_CONFIDENCE) -> int:
        """The action with the best mean, if it clears the margin and ``confidence``
        standard errors against the policy's choice; else the policy's choice."""
        best = max(rewards, key=lambda a: (sum(rewards[a]), a == prior, -a))
        if self.prior_margin is None or best == prior:
            return best
        if done < self.min_iterations:
            return prior
        advantage, error = paired_advantage(rewards[best], rewards[prior])
        if advantage > self.prior_margin and advantage > confidence * error:
            return best
        return prior

    def _model_value(self, model: BoundEvaluator, world: State, seat: int) -> float:
        """The learned evaluator's value of ``world`` for ``seat``: its own reading, or the
        mean of its fellows' (:meth:`fellows_for`)."""
        fellows = self.fellows_for(world.game)
        if fellows is None:
            return model.value(world, seat)
        seats = fellows(world, seat)
        return sum(model.value(world, s) for s in seats) / len(seats)

    def _rollout_memory(self, state: State) -> Forkable | None:
        """The rollout policy brought up to the real game ``state`` from its public record,
        for every rollout of this decision to fork (:class:`~pendragon.bots.base.Forkable`);
        ``None`` when the rollout policy keeps no memory. One per game, followed on from
        decision to decision."""
        known = self._follower
        if known is None or known[0] is not state.game:
            policy = self._make_policy(state.game.name, self.seed, root=False)
            known = (state.game, policy if isinstance(policy, Forkable) else None)
            self._follower = known
        follower = known[1]
        if follower is not None:
            follower.follow(state)
        return follower

    def _rollout(self, world: State, seat: int, sweep_seed: int,
                 root: State | None = None, follower: Forkable | None = None) -> float:
        """Play ``world`` on with the sweep's policy and chance stream; ``seat``'s reward
        at the end, or where the game's leaf (:meth:`leaf_for`, given ``root``, the sweep's
        world before the root action; ``world`` itself when omitted) stops the rollout.
        The policy starts from ``follower``'s memory of the real game when given (a world
        has no past to rebuild it from).

        Both are seeded by the sweep alone, so every root action of a sweep meets the same
        policy tie-breaks and the same chance draws, in order (common random numbers).
        """
        policy = (follower.fork(sweep_seed) if follower is not None
                  else self._make_policy(world.game.name, sweep_seed, root=False))
        chance = random.Random(rng.mix(sweep_seed, _CHANCE_STREAM))
        leaf = self.leaf_for(world.game)
        model = self.model_for(world.game)
        cap = self.rollout_depth
        horizon: Horizon | None = None
        if self._short and model is not None:
            horizon = self.horizon_for(world.game)
            if horizon is None:
                cap = DEFAULT_MODEL_DEPTH
        start = (world.clone() if root is None and (leaf is not None or horizon is not None)
                 else root)
        depth = 0
        while not world.is_terminal():
            if cap is not None and depth >= cap:
                if model is not None:
                    return self._model_value(model, world, seat)
                evaluate = EVALUATORS.get(world.game.name, neutral_evaluate)
                return evaluate(world)[seat]
            if world.current_player() == CHANCE:
                world.apply_action(rng.pick_at(chance.random(), world.chance_outcomes()))
                continue
            if horizon is not None and model is not None and start is not None and horizon(
                    world, start):
                return self._model_value(model, world, seat)
            if leaf is not None and start is not None:
                value = leaf(world, seat, start)
                if value is not None:
                    # The game's leaf says where; the learned evaluator, if asked, what.
                    return value if model is None else self._model_value(model, world, seat)
            world.apply_action(policy.step(world))
            depth += 1
        return world.returns()[seat]
