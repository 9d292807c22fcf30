"""Beliefs about hidden loyalty: a probability for every set of traitors at the table.

Games with hidden traitors (Shadows over Camelot and its card game) deal loyalty cards from
a small deck: some loyal cards and one or two traitor cards, some of them dealt to the
seats and the rest set aside unseen. A seat's belief is a weight for every *set* of seats
that may hold the traitor cards among those whose card it has not seen, the empty set
("no traitor at the table") included, so two traitors and "no traitor" get their real
prior odds. Evidence multiplies the weights (``weigh``: a likelihood ratio for one seat);
a card shown is a certainty (``settle``); search bots draw whole worlds from the posterior
(``sample``) instead of dealing loyalty uniformly.

The prior of a set ``S`` of ``k`` traitors among ``h`` unseen seats, with ``loyal`` and
``traitors`` cards unseen in all, is the chance that a random deal gives exactly ``S`` the
traitor cards: ``traitors!/(traitors-k)! * loyal!/(loyal-h+k)! / (cards!/(cards-h)!)``.

>>> belief = LoyaltyBelief(hidden=(1, 2, 3, 4), loyal=6, traitors=1)  # 5 knights, 8 cards
>>> round(belief.probability(1), 3), round(belief.none(), 3)
(0.143, 0.429)
>>> belief.weigh(2, 6.0)
>>> belief.most_suspected()[0], round(belief.probability(2), 3)
(2, 0.5)
>>> belief.settle(2, traitor=False)
>>> round(belief.probability(2), 3), round(belief.none(), 3)
(0.0, 0.5)
>>> import random
>>> sorted(belief.sample(random.Random(1))) in ([], [1], [3], [4])
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from itertools import combinations
from typing import ClassVar

from mypy_extensions import mypyc_attr


def _falling(n: int, k: int) -> int:
    """n * (n-1) * ... * (n-k+1): ordered ways to deal k of n cards (0 when k > n)."""
    return math.perm(n, k) if 0 <= k <= n else 0


@mypyc_attr(allow_interpreted_subclasses=True)
class LoyaltyBelief:
    """Weights over the sets of traitors among ``hidden`` seats.

    ``loyal`` and ``traitors``: the loyal and traitor cards the seat has not seen (those
    dealt to ``hidden`` seats and those set aside). Every set of at most ``traitors`` hidden
    seats whose complement the loyal cards can fill has its dealing probability as prior.
    """

    #: Weight kept (relative) by a set that evidence rules out but that could still be true
    #: (a card may have changed hands unseen).
    ruled_out: ClassVar[float] = 0.005

    def __init__(self, hidden: Iterable[int], loyal: int, traitors: int) -> None:
        self.hidden = tuple(sorted(hidden))
        h = len(self.hidden)
        cards = loyal + traitors
        if h > cards:
            raise ValueError(f"{h} unseen seats but only {cards} unseen loyalty cards")
        deal = _falling(cards, h)
        self.weights: dict[frozenset[int], float] = {}
        for k in range(0, min(traitors, h) + 1):
            ways = _falling(traitors, k) * _falling(loyal, h - k)
            if ways == 0:
                continue
            for group in combinations(self.hidden, k):
                self.weights[frozenset(group)] = ways / deal
        self.prior = dict(self.weights)

    # ------------------------------------------------------------------ reading
    def probability(self, seat: int) -> float:
        """P(``seat`` holds a traitor card)."""
        return sum(w for group, w in self.weights.items() if seat in group)

    def none(self) -> float:
        """P(no hidden seat holds a traitor card)."""
        return self.weights.get(frozenset(), 0.0)

    def most_suspected(self) -> tuple[int, float]:
        """The most suspected hidden seat and its probability (``(-1, 0.0)`` if none)."""
        if not self.hidden:
            return -1, 0.0
        seat = max(self.hidden, key=lambda s: (self.probability(s), -s))
        return seat, self.probability(seat)

    def count_distribution(self, excluded: Iterable[int] = ()) -> list[float]:
        """P(0, 1, 2 traitors among the hidden seats outside ``excluded``)."""
        shown = set(excluded)
        counts = [0.0, 0.0, 0.0]
        for group, weight in self.weights.items():
            counts[min(2, len(group - shown))] += weight
        return counts

    def sample(self, generator: random.Random) -> frozenset[int]:
        """A set of traitors drawn from the belief (sets in a fixed order, so the draw
        depends on the weights and the generator alone)."""
        groups = sorted(self.weights, key=lambda g: (len(g), sorted(g)))
        point = generator.random() * sum(self.weights.values())
        for group in groups:
            point -= self.weights[group]
            if point < 0:
                return group
        return groups[-1]

    # ------------------------------------------------------------------ updating
    def _normalise(self) -> None:
        total = sum(self.weights.values())
        if total <= 0:
            self.weights = dict(self.prior)
            total = sum(self.weights.values())
        for key in self.weights:
            self.weights[key] /= total

    def weigh(self, seat: int, ratio: float) -> None:
        """Evidence ``ratio`` times as likely if ``seat`` is a traitor as if loyal."""
        if seat not in self.hidden or ratio == 1.0:
            return
        for group in self.weights:
            if seat in group:
                self.weights[group] *= ratio
        self._normalise()

    def settle(self, seat: int, traitor: bool) -> None:
        """``seat``'s card was seen: the sets that disagree are impossible."""
        if seat not in self.hidden:
            return
        for group in self.weights:
            if (seat in group) != traitor:
                self.weights[group] = 0.0
        self._normalise()

    def at_least_one_of(self, seats: Iterable[int]) -> None:
        """One of ``seats`` is a traitor (short of certainty: ``ruled_out``)."""
        suspects = set(seats)
        for group in self.weights:
            if not group & suspects:
                self.weights[group] *= self.ruled_out
        self._normalise()

    def soften(self, share: float) -> None:
        """Mix ``share`` of the prior back in (loyalty cards may have changed hands)."""
        for group in self.weights:
            self.weights[group] = (1 - share) * self.weights[group] + share * self.prior[group]
        self._normalise()
