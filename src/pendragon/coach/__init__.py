"""The coach (issue 31): hints and reviews from one seat's information only, read by the
game's learned evaluator where it ships one (issue 38), else by the search bot.

* :func:`hint` — the search's move for a seat, its estimated chance of winning and why,
  as an event every language words (:mod:`pendragon.coach.hint`);
* :func:`review` — a finished game, decision by decision: the chance before, after the
  move played and after the search's move, the drop and a mark, and the chart of the
  win chance (:mod:`pendragon.coach.review`);
* :func:`estimate` — the figures both are made of (:mod:`pendragon.coach.estimate`);
* :func:`win_chance` — one position's chance for one seat, the documented public entry
  (issue 38): ``win_chance(state, seat, seed=0) -> float``, by the game's learned
  evaluator (:mod:`pendragon.bots.evaluator`) where it ships one.

Every result has ``to_json()`` for the web table. How estimates are made, the marks'
thresholds, each game's settings (:data:`COACH`) and the calibration: docs/bots.md, "Coach".
"""

from pendragon.coach.estimate import (
    COACH,
    Budget,
    Estimate,
    GameCoach,
    Side,
    budget_for,
    coach_for,
    estimate,
    has_model,
    side_of,
    win_chance,
)
from pendragon.coach.hint import Hint, hint, percent
from pendragon.coach.review import (
    THRESHOLDS,
    Mark,
    Review,
    ReviewedMove,
    decisions_of,
    mark_for,
    review,
)

__all__ = ["COACH", "THRESHOLDS", "Budget", "Estimate", "GameCoach", "Hint", "Mark", "Review",
           "ReviewedMove", "Side", "budget_for", "coach_for", "decisions_of", "estimate",
           "has_model", "hint", "mark_for", "percent", "review", "side_of", "win_chance"]
