"""A hint: the search's move for one seat, its estimated chance, and why in a sentence.

The reason is an :class:`~pendragon.core.events.Event` (worded in every language by the
catalogs, keys ``coach.hint.*``), built from the figures alone:

* ``coach.hint.only``: the move is the only one;
* ``coach.hint.better``: the move's chance is the best, and the next best is named with
  its own;
* ``coach.hint.close``: another move reads a higher chance, but not by the search's
  margin and confidence (docs/bots.md, "Coach"): the move stands, and the hint says the
  difference is within the noise;
* ``coach.hint.kept``: another move reads a higher chance, in a game whose model is not
  trusted over the bots' play nor checked by the search
  (:class:`~pendragon.coach.estimate.GameCoach`'s ``overrules`` and ``marks``): the
  bots' move stands, and the hint says so.

>>> import pendragon
>>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
>>> state.play_random_chance()
>>> found = hint(state, state.current_player(), budget=2000, seed=1)
>>> found.action in state.legal_actions(), found.reason.key.startswith("coach.hint.")
(True, True)
>>> from pendragon.i18n import catalog
>>> catalog("en").render(found.reason).startswith(("Best move: ", "Only move: "))
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pendragon.bots.ismcts import DEFAULT_MIN_ITERATIONS
from pendragon.coach.estimate import (
    DECISION_FACTOR,
    Estimate,
    Side,
    budget_for,
    coach_for,
    compare_budget,
    compared,
    estimate,
    has_model,
)
from pendragon.core.api import State
from pendragon.core.events import Event, Term

#: A hint searches :data:`~pendragon.coach.estimate.DECISION_FACTOR` times a review's
#: budget (one decision, not a whole game: a second or two on one core), and at least as
#: many sweeps as the search bot needs before it may overrule its policy, however long
#: the rollouts.
HINT_MIN_SWEEPS = DEFAULT_MIN_ITERATIONS


def percent(chance: float) -> int:
    """A chance as a whole percentage (what a reader is shown).

    >>> percent(0.625), percent(0.004), percent(1.0)
    (63, 0, 100)
    """
    return max(0, min(100, int(chance * 100 + 0.5)))


def side_term(side: Side) -> Term:
    """The name of ``side`` in the catalogs (``coach.side.loyal``, ``.traitors``, ``.own``)."""
    return Term(f"coach.side.{side}")


@dataclass(frozen=True, slots=True)
class Hint:
    """The search's move for ``seat``, its chance and the reason, JSON-ready
    (:meth:`to_json`) for the web table."""

    seat: int
    action: int
    action_text: str
    chance: float
    error: float
    side: Side
    sweeps: int
    reason: Event
    #: Every legal action with its chance, best first: (action, text, chance).
    alternatives: tuple[tuple[int, str, float], ...]

    def to_json(self) -> dict[str, Any]:
        """The hint as plain JSON data (the reason as an event's JSON)."""
        return {
            "seat": self.seat, "action": self.action, "action_text": self.action_text,
            "chance": round(self.chance, 4), "error": _finite(self.error), "side": self.side,
            "sweeps": self.sweeps, "reason": self.reason.to_json(),
            "alternatives": [{"action": a, "text": t, "chance": round(c, 4)}
                             for a, t, c in self.alternatives],
        }


def _finite(value: float) -> float | None:
    return None if value != value or value in (float("inf"), float("-inf")) else round(value, 4)


def reason_for(state: State, found: Estimate) -> Event:
    """Why the search's move, in one event built from ``found``'s figures."""
    move = found.choice
    params: dict[str, Any] = {"action": state.action_event(move),
                              "side": side_term(found.side),
                              "chance": percent(found.chance(move))}
    others = [a for a in found.ranked() if a != move]
    if not others:
        return Event("coach.hint.only", params)
    other = others[0]
    params["other"] = state.action_event(other)
    params["other_chance"] = percent(found.chance(other))
    if found.chance(other) > found.chance(move):
        return Event("coach.hint.close" if found.overrules else "coach.hint.kept", params)
    return Event("coach.hint.better", params)


def hint(state: State, seat: int | None = None, budget: int | None = None,
         seed: int = 0) -> Hint:
    """The search's move for ``seat`` (default: the seat to act, which it must be) in
    ``state``, from that seat's information only: what the ISMCTS bot seeded with
    ``seed`` would play, with the chance of its side winning after it. ``budget``:
    simulated actions (default: :data:`~pendragon.coach.estimate.DECISION_FACTOR` times
    the game's review budget, :func:`coach.budget_for`), with at least
    :data:`HINT_MIN_SWEEPS` sweeps. In a game whose coach marks by the search
    (:attr:`~pendragon.coach.estimate.GameCoach.marks`) the model's estimate is
    :func:`~pendragon.coach.estimate.compared` by the search with that budget: the move
    and the other moves' chances are the search's, at the model's level."""
    seat = state.current_player() if seat is None else seat
    review_budget = budget_for(state.game.name, state.game.num_players())
    if budget is None:
        budget = DECISION_FACTOR * review_budget.actions
    found = estimate(state, seat, seed=seed, budget=budget, min_sweeps=HINT_MIN_SWEEPS)
    if (coach_for(state.game.name).marks == "search" and has_model(state)
            and len(found.rewards) > 1):
        # The model's chance, the search's comparison of the moves (as a review judges,
        # with the hint's simulated actions).
        found = compared(found, state, seed,
                         replace(compare_budget(review_budget), actions=budget))
    move = found.choice
    return Hint(
        seat=seat, action=move, action_text=state.action_to_string(move),
        chance=found.chance(move), error=found.error(move), side=found.side,
        sweeps=found.sweeps, reason=reason_for(state, found),
        alternatives=tuple((a, state.action_to_string(a), found.chance(a))
                           for a in found.ranked()),
    )
