"""The card game heuristic's model of the loyal side's chances: the race to seven swords
(:func:`race_value`) and the value of resolving a threat pile (:class:`PileValue`).

Both are pure functions of counts (no observation, no memory): the heuristic, its search
leaf and its evidence all value options with them.

>>> round(race_value(4, 2, [1.0], 0.55), 2)  # 4 white swords, 2 black, no flip to come
0.85
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from pendragon.games.soc_card.rules import cards as C
from pendragon.games.soc_card.rules.common import END_SWORDS
from pendragon.games.soc_card.rules.quests import COMBINED_SWORDS, merlin_targets

Obs = dict[str, Any]

#: Quest index by name.
QUEST_INDEX = {name: index for index, name in enumerate(C.QUESTS)}
_QUEST_KINDS_OF = tuple(
    tuple(c.index for c in C.CARDS if c.kind == "quest" and c.quest == q)
    for q in range(C.NUM_QUESTS)
)
_ALL_QUEST_KINDS = tuple(c.index for c in C.CARDS if c.kind == "quest")
_MORGAN_KINDS = tuple(c.index for c in C.CARDS if c.kind == C.MORGAN)


# ---------------------------------------------------------------------- the race
@functools.lru_cache(maxsize=64)
def _race_table(white_share: float, flips: int) -> tuple[tuple[float, ...], ...]:
    """``table[w][b]``: the loyal side's chance to win from ``w`` white and ``b`` black
    swords when each coming sword is white with probability ``white_share`` and ``flips``
    traitors are still hidden (each turns a white sword black at the first end check,
    SCG-END-2, SCG-RULING-11)."""
    size = 3 * END_SWORDS
    table = [[0.0] * (size + 1) for _ in range(size + 1)]
    for w in range(size, -1, -1):
        for b in range(size, -1, -1):
            if w >= END_SWORDS or b >= END_SWORDS:
                table[w][b] = _final(w, b, flips, white_share)
            elif w == size or b == size:
                table[w][b] = 0.5
            else:
                table[w][b] = (white_share * table[w + 1][b]
                               + (1 - white_share) * table[w][b + 1])
    return tuple(tuple(row) for row in table)


def _final(white: int, black: int, flips: int, white_share: float) -> float:
    """The end check with ``flips`` hidden traitors (SCG-END-2..5)."""
    turned = min(white, flips)
    white, black = white - turned, black + turned
    if white >= END_SWORDS and white > black:
        return 1.0
    if black >= END_SWORDS and black >= white:
        return 0.0
    # Play goes on with every card revealed: nobody flips again (SCG-RULING-11), but for a
    # card Vivien hides again later, which this estimate leaves out.
    return _race_table(white_share, 0)[white][black]


def race_value(white: int, black: int, flips: Sequence[float], white_share: float) -> float:
    """The loyal side's chance to win from these swords; ``flips[k]`` is the probability that
    ``k`` traitors are still hidden at the end.

    >>> round(race_value(6, 0, (1.0, 0.0, 0.0), 0.5), 3)
    0.992
    >>> race_value(7, 6, (0.0, 1.0, 0.0), 0.5)  # the hidden traitor turns a sword: 6-7
    0.0
    """
    cap = 3 * END_SWORDS
    white, black = min(white, cap), min(black, cap)
    value = 0.0
    for count, chance in enumerate(flips):
        if chance > 0:
            value += chance * _race_table(white_share, count)[white][black]
    return value


@mypyc_attr(allow_interpreted_subclasses=True)
class _RaceLookup:
    """:func:`race_value` for one decision's ``flips``, with the tables fetched once.

    Computed at each call (a few multiply-adds, in the same order, so the same floats) rather
    than kept in a dict: the tuple key and the lookup cost more (issue 40 item 5).
    """

    def __init__(self, flips: Sequence[float], white_share: float) -> None:
        self.chances: list[float] = []
        self.tables: list[tuple[tuple[float, ...], ...]] = []
        for count, chance in enumerate(flips):
            if chance > 0:
                self.chances.append(chance)
                self.tables.append(_race_table(white_share, count))

    def __call__(self, white: int, black: int) -> float:
        cap = 3 * END_SWORDS
        if white > cap:
            white = cap
        if black > cap:
            black = cap
        value = 0.0  # (a loop, not sum() over a generator: compiled, it stays native)
        for index in range(len(self.tables)):
            value += self.chances[index] * self.tables[index][white][black]
        return value


# ---------------------------------------------------------------------- valuing a pile
@mypyc_attr(allow_interpreted_subclasses=True)
class PileValue:
    """A threat pile of known cards, reduced to what its resolution needs (SCG-RULING-3).

    Mirrors :func:`pendragon.games.soc_card.rules.quests.resolve` (a test checks them against
    each other on random piles) and adds one card cheaply, for the look-ahead of a listen.

    >>> from pendragon.games.soc_card.rules.cards import KIND
    >>> pile = PileValue([KIND[k] for k in ("excalibur-5", "excalibur-3", "excalibur-q",
    ...                                      "excalibur-q", "picts-5", "picts-4", "picts-q")])
    >>> pile.outcome(QUEST_INDEX["excalibur"])  # 5 + 3 + 2 x 2 = 12: two white swords
    (2, 0, False)
    >>> pile.plus(KIND["picts-4"]).outcome(QUEST_INDEX["picts"])  # 5 + 4 + 4 + 1 = 14
    (0, 1, False)
    """

    def __init__(self, kinds: Iterable[int], token: int = -1) -> None:
        self.token = token
        self.numbered: list[list[int]] = [[] for _ in range(C.NUM_QUESTS)]
        self.unknown = [0] * C.NUM_QUESTS
        self.mordreds = 0
        self.bonus = 0
        merlins: list[int] = []
        morgans: set[int] = set()
        for kind in kinds:
            card = C.CARDS[kind]
            if C.IS_QUEST[kind]:
                if card.value:
                    self.numbered[card.quest].append(card.value)
                else:
                    self.unknown[card.quest] += 1
            elif card.kind == C.MERLIN:
                merlins.append(card.number)
            elif card.kind == C.MORGAN:
                morgans.add(card.number)
                self.bonus += card.bonus
            elif card.kind == C.MORDRED:
                self.mordreds += 1
        self.merlins = tuple(merlins)
        self.morgans = frozenset(morgans)
        self.removals = [0] * C.NUM_QUESTS
        for number in self.merlins:
            for quest in merlin_targets(number, self.token):
                self.removals[quest] += 1
        self.sums = [0] * C.NUM_QUESTS
        self.lengths = [0] * C.NUM_QUESTS
        for quest in range(C.NUM_QUESTS):
            self._group(quest)
        self._values: tuple[list[int], list[int]] | None = None
        self._busted: tuple[int, int] | None = None

    def _group(self, quest: int) -> None:
        """A quest's numbered cards after the Merlins' removals (SCG-RULING-2)."""
        numbered = self.numbered[quest]
        removed = self.removals[quest]
        kept = sorted(numbered, reverse=True)[removed:] if removed else numbered
        self.sums[quest] = sum(kept)
        self.lengths[quest] = len(kept) + self.unknown[quest]

    def _copy(self) -> PileValue:
        # (the class's own __new__, not object's, which a compiled class refuses; it does
        # not run __init__: the class allows interpreted subclasses)
        other = PileValue.__new__(PileValue)
        other.token = self.token
        other.numbered = list(self.numbered)
        other.unknown = list(self.unknown)
        other.mordreds = self.mordreds
        other.bonus = self.bonus
        other.merlins = self.merlins
        other.morgans = self.morgans
        other.removals = self.removals
        other.sums = list(self.sums)
        other.lengths = list(self.lengths)
        other._values = None
        other._busted = None
        return other

    def plus(self, kind: int) -> PileValue:
        """This pile with one more card ``kind``."""
        card = C.CARDS[kind]
        other = self._copy()
        if C.IS_QUEST[kind]:
            quest = card.quest
            if card.value:
                other.numbered[quest] = [*self.numbered[quest], card.value]
            else:
                other.unknown[quest] += 1
            other._group(quest)
            if self._values is not None and 8 not in self.morgans:
                other._revalue(self, quest)
        elif card.kind == C.MORGAN:
            other.morgans = self.morgans | {card.number}
            other.bonus += card.bonus
        elif card.kind == C.MORDRED:
            other.mordreds += 1
        elif card.kind == C.MERLIN:
            other.merlins = (*self.merlins, card.number)
            targets = merlin_targets(card.number, other.token)
            if targets:
                other.removals = list(self.removals)
                for quest in targets:
                    other.removals[quest] += 1
                for quest in set(targets):
                    other._group(quest)
        return other

    def quest_card_look(self, kind: int) -> tuple[tuple[int, int, bool], int, int]:
        """For quest card ``kind`` added (not under Morgan #8): the :meth:`outcome` of going
        on its quest, and the :meth:`busted` swords and :meth:`busted_quests` count of the
        bigger pile — what ``self.plus(kind)`` would give, computed without building it
        (the listen look-ahead asks this of every quest card the deck may give: issue 40
        item 5). The same integers as :meth:`plus`, so the same floats downstream.

        >>> from pendragon.games.soc_card.rules.cards import KIND
        >>> pile = PileValue([KIND[k] for k in ("picts-5", "picts-4", "picts-q", "grail-5",
        ...                                      "grail-5", "grail-4")])
        >>> bigger = pile.plus(KIND["picts-4"])
        >>> pile.quest_card_look(KIND["picts-4"]) == (
        ...     bigger.outcome(QUEST_INDEX["picts"]), bigger.busted(), bigger.busted_quests())
        True
        """
        card = C.CARDS[kind]
        quest = card.quest
        numbered = self.numbered[quest]
        unknown = self.unknown[quest]
        if card.value:
            numbered = [*numbered, card.value]
        else:
            unknown += 1
        removed = self.removals[quest]
        kept = sorted(numbered, reverse=True)[removed:] if removed else numbered
        length = len(kept) + unknown
        value = self._value(quest, sum(kept), unknown, length)
        values, lengths = self.values()
        black, count = self._busted_counts()
        morgans = self.morgans
        extra = 1 if 3 in morgans else 0
        swords = C.QUEST_SWORDS[quest]
        before = values[quest] >= 14 and lengths[quest] > 0
        after = value >= 14
        if after != before:
            step = 1 if after else -1
            black, count = black + step * (swords + extra), count + step
        # outcome(quest) of the bigger pile
        low = 12 if 5 in morgans else 11
        white_won = black_won = 0
        if low <= value <= 13 or (5 in self.merlins and length == 5):
            white_won = swords + extra
        elif value <= 11:
            black_won = 1 + extra
        else:
            black_won = swords + extra
        busted_black = black
        if length and value >= 14:
            busted_black -= swords + extra
        return (white_won, black_won + busted_black, 7 in morgans and value >= 14), black, count

    def _value(self, quest: int, total: int, count: int, length: int) -> int:
        value = total + count * (1 if 6 in self.morgans else count)
        if quest <= C.SAXONS:
            value += self.mordreds * length
        if length:
            value += self.bonus
        return value

    def _revalue(self, parent: PileValue, quest: int) -> None:
        """The parent's values with only ``quest`` changed (one quest card added)."""
        assert parent._values is not None
        values, lengths = list(parent._values[0]), list(parent._values[1])
        before = values[quest] >= 14 and lengths[quest] > 0
        lengths[quest] = self.lengths[quest]
        values[quest] = self._value(quest, self.sums[quest], self.unknown[quest],
                                    lengths[quest])
        self._values = (values, lengths)
        if parent._busted is not None:
            after = values[quest] >= 14
            black, count = parent._busted
            if after != before:
                step = 1 if after else -1
                worth = C.QUEST_SWORDS[quest] + (1 if 3 in self.morgans else 0)
                black, count = black + step * worth, count + step
            self._busted = (black, count)

    def values(self) -> tuple[list[int], list[int]]:
        """Each quest's value and card count after the removals (SCG-QUEST-4, SCG-MORDRED-1,
        SCG-MORGAN-4, -6); under Morgan #8 the Saxons count with the Picts (SCG-PROMO-1)."""
        if self._values is None:
            sums, lengths, unknown = list(self.sums), list(self.lengths), list(self.unknown)
            if 8 in self.morgans:
                sums[C.PICTS] += sums[C.SAXONS]
                lengths[C.PICTS] += lengths[C.SAXONS]
                unknown[C.PICTS] += unknown[C.SAXONS]
                sums[C.SAXONS] = lengths[C.SAXONS] = unknown[C.SAXONS] = 0
            values = [self._value(quest, sums[quest], unknown[quest], lengths[quest])
                      for quest in range(C.NUM_QUESTS)]
            self._values = (values, lengths)
        return self._values

    def _worth(self, quest: int) -> int:
        return COMBINED_SWORDS if quest == C.PICTS and 8 in self.morgans else C.QUEST_SWORDS[quest]

    def busted(self) -> int:
        """Black swords of the quests already past 13: main or secondary, they lay them at
        the next resolution whatever comes (SCG-QUEST-7, -8), barring a Merlin."""
        return self._busted_counts()[0]

    def busted_quests(self) -> int:
        """How many quests are already past 13."""
        return self._busted_counts()[1]

    def _busted_counts(self) -> tuple[int, int]:
        if self._busted is None:
            values, lengths = self.values()
            extra = 1 if 3 in self.morgans else 0
            black = count = 0
            for quest in range(C.NUM_QUESTS):
                if lengths[quest] and values[quest] >= 14:
                    black += self._worth(quest) + extra
                    count += 1
            self._busted = (black, count)
        return self._busted

    def outcome(self, main: int, bonus: int = 0) -> tuple[int, int, bool]:
        """``(white, black, evil wins at once)`` of going on ``main`` (SCG-QUEST-5..8)."""
        values, lengths = self.values()
        morgans = self.morgans
        if main == C.SAXONS and 8 in morgans:
            main = C.PICTS
        extra = 1 if 3 in morgans else 0
        value = values[main] + bonus
        low = 12 if 5 in morgans else 11
        swords = self._worth(main)
        white = black = 0
        if low <= value <= 13 or (5 in self.merlins and lengths[main] == 5):
            white = swords + extra
        elif value <= 11:  # 11 reaches here only under Morgan #5 (SCG-MORGAN-5)
            black = 1 + extra
        else:
            black = swords + extra
        busted_black, _ = self._busted_counts()
        if lengths[main] and values[main] >= 14:
            busted_black -= self._worth(main) + extra  # the main quest is counted above
        return white, black + busted_black, 7 in morgans and value >= 14
