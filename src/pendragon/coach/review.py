"""The review of a finished game: every decision's chance before, after the move played
and after the coach's move, the drop, and a mark.

For each decision of a seat with two or more legal actions (chance and forced moves are
not decisions), the deciding seat's chance after every legal action is estimated from
that seat's information only (:mod:`pendragon.coach.estimate`): by the game's learned
evaluator with a light search on top where it has one (issue 38: every action played in
the same few worlds, followed for the game's lookahead, read by the model; one reader per
seat follows the game, its heuristic giving the prior), else by the search to the end
(rollouts to the game's end or its leaf; one search bot per seat follows the game, as at
the table); either way every action meets the same worlds and rollouts. Then:

* **best**: the search's move (the policy's unless beaten with confidence);
* **before**: the chance of the position with the best move: what the seat could have
  kept, as a chess engine's evaluation before a move; **after best** is the same figure;
* **after**: the chance after the move played;
* **drop**: ``after best - after``, never below 0 (a move the search could not tell from
  its own is no loss). In a game whose coach marks by the search
  (:data:`~pendragon.coach.estimate.COACH`: the card game) a move that is not the
  model's best is judged again by the search on top of the model
  (:func:`~pendragon.coach.estimate.compared`: the search's move, drop, paired error and
  sweeps, at the model's *before*): there the model misread the moves its training games
  seldom made (``python -m bench.review_marks``, docs/bots.md "Are the marks real?"); in
  one whose marks the search confirms (Shadows over Camelot, Grail Cup) only a move the
  model would mark is, and the search's verdict stands;
* **mark**, by the drop in percentage points (:data:`THRESHOLDS`), and only when the drop
  is also more than two standard errors of its paired sweeps (a drop within the noise is
  not marked): *inaccuracy* from 5 points, *mistake* from 10, *blunder* from 20.

Why these: a decision rarely moves a whole game of 100-300 decisions by more than a few
points, so 5 points is already a move worth a second look; 20 points (one game in five
turned from a win into a loss) is a move that changes the game. They are lichess's
inaccuracy/mistake/blunder steps (5, 10, 15 points of winning chance) with the last one
wider, because our estimates come from a few dozen rollouts, not a chess engine.

The chart: in the two Camelot games the loyal side's chance at each decision as the
deciding seat sees it (a traitor's estimate of its own side, turned round); in Grail Cup
each knight's own chance at each of its decisions.

A review is a function of the game, its actions and ``seed``: the same inputs give the
same figures (every generator is seeded).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pendragon.bots.evaluator import evaluator_for, setup_key
from pendragon.bots.ismcts import DEFAULT_MIN_ITERATIONS, ISMCTSBot
from pendragon.coach.estimate import (
    Budget,
    Estimate,
    Marks,
    Method,
    ModelReader,
    Side,
    budget_for,
    coach_bot,
    coach_for,
    compare_budget,
    compared,
    estimate_with,
    model_bot,
    model_estimate,
)
from pendragon.core import rng
from pendragon.core.api import Game, State

Mark = Literal["inaccuracy", "mistake", "blunder"]

#: Marks by the least drop (in chance, 0..1) that earns them, worst first.
THRESHOLDS: tuple[tuple[Mark, float], ...] = (
    ("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
#: A drop is marked only if it exceeds this many standard errors of its paired sweeps...
NOISE_ERRORS = 2.0
#: ...over at least this many sweeps (two or three sweeps can agree by chance and show
#: no spread at all; the search bot overrules its policy after six at the earliest).
MIN_MARK_SWEEPS = DEFAULT_MIN_ITERATIONS

#: Called as a review goes: (decisions reviewed, decisions in all).
Progress = Callable[[int, int], None]

def model_calibration(game: Game) -> float | None:
    """The held-out calibration error recorded with ``game``'s learned evaluator: its
    setup's own, measured on the setup's calibration games (at the decisions a review
    reads), where the model was given some; else the model's over every setup.

    >>> import pendragon
    >>> five = model_calibration(pendragon.load_game("soc", players=5))
    >>> squires = model_calibration(pendragon.load_game("soc", players=5, squires=True))
    >>> five != squires and 0 < five < 0.1 and 0 < squires < 0.1  # its own; the model's
    True
    """
    bound = evaluator_for(game)
    if bound is None:
        return None
    metadata = bound.model.metadata
    own = metadata.get("calibration_games", {}).get("validation", {}).get(setup_key(game))
    figures = own if isinstance(own, dict) else metadata.get("validation", {}).get("all", {})
    value = figures.get("calibration_error") if isinstance(figures, dict) else None
    return float(value) if isinstance(value, (int, float)) else None


def mark_for(drop: float, error: float = 0.0, sweeps: int = MIN_MARK_SWEEPS,
             gap: float | None = None) -> Mark | None:
    """The mark of a drop of ``drop`` (0..1) whose paired standard error over ``sweeps``
    sweeps is ``error``; ``gap``, the paired difference that error belongs to where the
    chances clamp it (``drop`` by default): its size is ``drop``'s, its evidence ``gap``'s.

    >>> mark_for(0.04), mark_for(0.05), mark_for(0.12), mark_for(0.2)
    (None, 'inaccuracy', 'mistake', 'blunder')
    >>> mark_for(0.25, error=0.15) is None  # within two standard errors: noise
    True
    >>> mark_for(0.5, sweeps=2) is None  # too few sweeps to tell
    True
    >>> mark_for(0.3, error=0.2, gap=0.7)  # read from 30%: the search's 70 points show
    'blunder'
    """
    if (drop if gap is None else gap) <= NOISE_ERRORS * error or sweeps < MIN_MARK_SWEEPS:
        return None
    for mark, least in THRESHOLDS:
        if drop >= least - 1e-12:
            return mark
    return None


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """One decision of the game, as the deciding seat's search saw it."""

    #: Index of the move in the game's actions.
    index: int
    seat: int
    side: Side
    played: int
    played_text: str
    best: int
    best_text: str
    #: The seat's chances (0..1): with the best move (= before) and after the move played.
    before: float
    after: float
    #: ``before - after``, never below 0, and its paired standard error.
    drop: float
    drop_error: float
    #: Standard error of ``before``.
    error: float
    sweeps: int
    mark: Mark | None
    #: The loyal side's chance before the move, as the seat sees it (``None`` in a race).
    loyal_before: float | None

    @property
    def after_best(self) -> float:
        """The chance after the search's move (the same as :attr:`before`)."""
        return self.before

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "index": self.index, "seat": self.seat, "side": self.side,
            "played": self.played, "played_text": self.played_text,
            "best": self.best, "best_text": self.best_text,
            "before": round(self.before, 4), "after": round(self.after, 4),
            "after_best": round(self.before, 4), "drop": round(self.drop, 4),
            "drop_error": _finite(self.drop_error), "error": _finite(self.error),
            "sweeps": self.sweeps, "mark": self.mark,
            "loyal_before": None if self.loyal_before is None else round(self.loyal_before, 4),
        }


def _finite(value: float) -> float | None:
    return round(value, 4) if math.isfinite(value) else None


@dataclass(frozen=True, slots=True)
class Review:
    """A finished game's review: every decision (:class:`ReviewedMove`) and the chart.

    ``chart``: series name -> points (move index, chance): ``"loyal"`` in the Camelot
    games, ``"seat N"`` for each knight in Grail Cup.
    """

    game: str
    players: int
    seed: int
    budget: Budget
    moves: tuple[ReviewedMove, ...]
    chart: dict[str, list[tuple[int, float]]]
    returns: tuple[float, ...]
    #: Mean standard error of the chances before the moves (how sure, from the sweeps).
    mean_error: float
    #: The calibration error of the estimates (the model's held-out figure, or the
    #: search's: :attr:`~pendragon.coach.estimate.GameCoach.search_calibration`), if measured.
    calibration_error: float | None = None
    marks: dict[str, int] = field(default_factory=dict)
    #: The search's budget where it judged moves on top of the model (``marks`` of
    #: ``"search"`` or ``"confirmed"``: :func:`~pendragon.coach.estimate.compare_budget`),
    #: else ``None``.
    compare: Budget | None = None

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON data (for ``--json`` and the web table)."""
        return {
            "format": "pendragon-review", "version": 1,
            "game": self.game, "players": self.players, "seed": self.seed,
            "budget": _budget_json(self.budget),
            "compare_budget": None if self.compare is None else _budget_json(self.compare),
            "thresholds": {mark: least for mark, least in THRESHOLDS},
            "noise_errors": NOISE_ERRORS,
            "returns": list(self.returns),
            "mean_error": round(self.mean_error, 4),
            "calibration_error": self.calibration_error,
            "marks": dict(self.marks),
            "moves": [move.to_json() for move in self.moves],
            "chart": {name: [[i, round(c, 4)] for i, c in points]
                      for name, points in self.chart.items()},
        }


def _budget_json(budget: Budget) -> dict[str, int]:
    return {"actions": budget.actions, "min_sweeps": budget.min_sweeps,
            "max_sweeps": budget.max_sweeps}


def decisions_of(game: Game, actions: Sequence[int]) -> list[int]:
    """The indices of ``actions`` that are decisions: a seat to act with two or more
    legal actions (not chance, not a forced move, not a table operation)."""
    state = game.new_initial_state()
    found = []
    for index, action in enumerate(actions):
        if (not state.is_table_operation(action) and state.current_player() >= 0
                and len(state.legal_actions()) > 1):
            found.append(index)
        _apply(state, action)
    return found


def _apply(state: State, action: int) -> None:
    """Apply a move or a table operation of the history (a player joining mid-game)."""
    if state.is_table_operation(action):
        state.apply_table_operation(action)
    else:
        state.apply_action(action)


def review(game: Game, actions: Sequence[int], progress: Progress | None = None,
           seed: int = 0, budget: Budget | None = None,
           only: Collection[int] | None = None, method: Method | None = None,
           marks: Marks | None = None) -> Review:
    """Review the game ``game`` played by ``actions`` (its whole history, chance included,
    as ``State.history()`` gives it). ``progress(done, total)`` is called after each
    decision; ``budget`` overrides the game's (:func:`budget_for`); ``only``: review
    these indices of ``actions`` alone (those that are decisions; the web table may
    review one move on request); ``method``: ``"model"`` (the learned evaluator, the
    default where the game has one; ``budget`` then plays only in a drop the search
    judges) or ``"search"``; ``marks``: where a move's drop comes from with the model
    (:data:`~pendragon.coach.estimate.Marks`; default: the game's,
    :attr:`~pendragon.coach.estimate.GameCoach.marks`; by the search, always the search). The
    same arguments give the same review.

    >>> import pendragon
    >>> from pendragon.runner import random_playout
    >>> game = pendragon.load_game("grail-cup", players=2, seed=3)
    >>> state = random_playout(game, seed=3)
    >>> done = review(game, state.history(), budget=Budget(actions=300, max_sweeps=2))
    >>> len(done.moves) == len(decisions_of(game, state.history())), sorted(done.chart)
    (True, ['seat 0', 'seat 1'])
    """
    chosen = budget or budget_for(game.name, game.num_players())
    if method is None:
        method = "model" if evaluator_for(game) is not None else "search"
    if method not in ("model", "search"):
        raise ValueError(f"method must be 'model' or 'search', got {method!r}")
    if marks is None:
        marks = "search" if method == "search" else coach_for(game.name).marks
    if marks not in ("model", "search", "confirmed") or (method == "search"
                                                         and marks != "search"):
        raise ValueError(f"marks must be 'model', 'search' or 'confirmed' (by the search: "
                         f"'search'), got {marks!r}")
    wanted = set(decisions_of(game, actions))
    if only is not None:
        wanted &= set(only)
    total = len(wanted)
    # One reader (or search bot) per seat, made at its first decision.
    readers: dict[int, ModelReader] = {}
    bots: dict[int, ISMCTSBot] = {}
    state = game.new_initial_state()
    moves: list[ReviewedMove] = []
    for index, action in enumerate(actions):
        if index in wanted:
            seat = state.current_player()
            if method == "search":
                if seat not in bots:
                    bots[seat] = coach_bot(rng.mix(seed, seat), chosen)
                move = _review_one(state, index, action,
                                   estimate_with(bots[seat], state, seat, chosen), False)
            else:
                if seat not in readers:
                    readers[seat] = model_bot(rng.mix(seed, seat), game.name,
                                              game.num_players())
                found = model_estimate(state, seat, seed, readers[seat])
                move = _review_one(state, index, action, found, True)
                if action != found.choice and (
                        marks == "search" or (marks == "confirmed" and move.mark is not None)):
                    # The search judges the move against the model's, at its level.
                    move = _review_one(state, index, action, compared(
                        found, state, seed, compare_budget(chosen)), False)
            moves.append(move)
            if progress is not None:
                progress(len(moves), total)
        _apply(state, action)
    if not state.is_terminal():
        raise ValueError("the actions do not finish the game: only a finished game is reviewed")
    counts: dict[str, int] = {}
    for move in moves:
        if move.mark is not None:
            counts[move.mark] = counts.get(move.mark, 0) + 1
    errors = [m.error for m in moves if math.isfinite(m.error)]
    return Review(
        game=game.name, players=game.num_players(), seed=seed, budget=chosen,
        moves=tuple(moves), chart=_chart(moves, len(state.returns())),
        returns=tuple(state.returns()),
        mean_error=sum(errors) / len(errors) if errors else 0.0,
        calibration_error=(model_calibration(game) if method == "model"
                           else coach_for(game.name).search_calibration), marks=counts,
        compare=compare_budget(chosen) if method == "model" and marks != "model" else None,
    )


def _review_one(state: State, index: int, action: int, found: Estimate,
                by_model: bool) -> ReviewedMove:
    seat = state.current_player()
    best = found.choice
    before = found.chance(best)
    after = found.chance(action)
    drop = max(0.0, before - after) if action != best else 0.0
    drop_error = found.difference_error(best, action) if action != best else 0.0
    return ReviewedMove(
        index=index, seat=seat, side=found.side,
        played=action, played_text=state.action_to_string(action),
        best=best, best_text=state.action_to_string(best),
        before=before, after=after, drop=drop, drop_error=drop_error,
        error=found.error(best), sweeps=found.sweeps,
        # The model's worlds are not rollouts: its figures need no count of sweeps to be
        # read (a drop the worlds disagree on is still held to two standard errors).
        mark=mark_for(drop, drop_error, MIN_MARK_SWEEPS if by_model else found.sweeps,
                      found.difference(best, action) if action != best else 0.0),
        loyal_before=found.loyal_chance(best),
    )


def _chart(moves: Sequence[ReviewedMove], players: int) -> dict[str, list[tuple[int, float]]]:
    if any(move.loyal_before is not None for move in moves):
        return {"loyal": [(m.index, m.loyal_before) for m in moves
                          if m.loyal_before is not None]}
    return {f"seat {seat}": [(m.index, m.before) for m in moves if m.seat == seat]
            for seat in range(players)}
