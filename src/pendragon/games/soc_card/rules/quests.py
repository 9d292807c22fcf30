"""Quest resolution: from the cards of the threat pile to the swords laid (SCG-QUEST-*).

A pure function of the pile's cards, so that the worked examples of the seed can be checked
directly. Steps (SCG-QUEST-3..8, SCG-RULING-1..3): sort the cards by quest; set the Merlins
aside and apply their removals (each removes the highest *numbered* card of its quests;
"?" cards are never removed); value each quest: the numbered cards, each "?" worth the
number of "?" cards of its quest (1 under Morgan #6), Mordred's +1 per card to Picts and
Saxons, Morgan #4's bonus to every quest that has cards; then the main quest (10 or less:
one black sword; 11-13: as many white swords as the quest is worth; 14 or more: that many
black swords), then every secondary quest (14 or more: its swords, black).

Example 1 of the seed: Excalibur 5, 3, ?, ? is 12 (2 white swords); Grail 3, ? is 4;
Picts 5, 3, 2, ?, ? is 14 (1 black sword).

>>> from pendragon.games.soc_card.rules.cards import KIND
>>> pile = [KIND[k] for k in ("excalibur-5", "excalibur-3", "excalibur-q", "excalibur-q",
...         "grail-3", "grail-q", "picts-5", "picts-3", "picts-2", "picts-q", "picts-q")]
>>> result = resolve(pile, main=3)
>>> result.totals, result.white, result.black
({0: 14, 3: 12, 4: 4}, 2, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pendragon.games.soc_card.rules.cards import (
    CARD_QUEST,
    CARD_VALUE,
    CARDS,
    DRAGON,
    EXCALIBUR,
    GRAIL,
    IS_QUEST,
    MERLIN,
    MORDRED,
    MORGAN,
    NUM_QUESTS,
    PICTS,
    QUEST_SWORDS,
    SAXONS,
)

#: Quests whose highest numbered card each Merlin removes (SCG-MERLIN-1..3); Merlin #4
#: removes from the quest on its token (SCG-MERLIN-4).
MERLIN_REMOVES: Final[dict[int, tuple[int, ...]]] = {
    1: (PICTS, SAXONS),
    2: (DRAGON, GRAIL),
    3: (EXCALIBUR, GRAIL),
}
#: A combined Picts-and-Saxons quest under Morgan #8 is keyed by PICTS and worth this many.
COMBINED_SWORDS: Final = 2


def merlin_targets(number: int, merlin_4_quest: int) -> tuple[int, ...]:
    """The quests Merlin #``number`` takes a card from (SCG-MERLIN-1..4); Merlin #4 only
    once its token names a quest, Merlin #5 (and the promo #6) none.

    >>> merlin_targets(3, -1), merlin_targets(4, 2), merlin_targets(4, -1)
    ((3, 4), (2,), ())
    """
    if number == 4:
        return (merlin_4_quest,) if merlin_4_quest >= 0 else ()
    return MERLIN_REMOVES.get(number, ())


def highest_numbered(cards: Sequence[int]) -> int:
    """The highest *numbered* card among ``cards`` (a "?" is never taken, SCG-RULING-2),
    or -1; of equal values, the first.

    >>> from pendragon.games.soc_card.rules.cards import KIND
    >>> highest_numbered([KIND["grail-q"], KIND["grail-3"], KIND["grail-5"]]) == KIND["grail-5"]
    True
    """
    best = -1
    best_value = 0
    for kind in cards:
        value = CARD_VALUE[kind]
        if value > best_value:
            best, best_value = kind, value
    return best


class Resolution:
    """What a quest resolution found and decided.

    ``totals`` maps each quest that has cards (and the main quest) to its final value, in
    quest order; under Morgan #8 the Picts-and-Saxons quest is keyed by Picts. ``removed``
    lists the cards the Merlins removed. ``white``/``black`` are the swords to lay (Morgan
    #3 included); ``main_won`` says whether the main quest succeeded; ``morgan_7_ends`` that
    the game ends at once with evil winning (SCG-MORGAN-7).

    (A plain class, not a dataclass: mypyc runs a dataclass's generated ``__init__`` as
    interpreted code, and every quest makes one.)
    """

    def __init__(self, main: int) -> None:
        self.main = main
        self.totals: dict[int, int] = {}
        self.removed: list[int] = []
        self.main_won = False
        self.main_black = 0
        self.white = 0
        self.black = 0
        self.secondary_black: dict[int, int] = {}
        self.morgan_7_ends = False

    def __repr__(self) -> str:
        return (f"Resolution(main={self.main}, totals={self.totals}, removed={self.removed},"
                f" main_won={self.main_won}, main_black={self.main_black}, white={self.white},"
                f" black={self.black}, secondary_black={self.secondary_black},"
                f" morgan_7_ends={self.morgan_7_ends})")


def _swords(quest: int, combined: bool) -> int:
    """The swords quest ``quest`` is worth (SCG-PROMO-1: Picts-and-Saxons under Morgan #8)."""
    return COMBINED_SWORDS if combined and quest == PICTS else QUEST_SWORDS[quest]


def resolve(
    pile: Sequence[int], main: int, *, merlin_4_quest: int = -1, merlin_6_bonus: int = 0
) -> Resolution:
    """Resolve the threat pile ``pile`` (card kinds, all face up now) for quest ``main``."""
    # Plain loops and a bitmask of Morgan numbers: mypyc compiles them to native code (the
    # comprehensions and generator sums this replaced allocated at every quest).
    groups: list[list[int]] = [[] for _ in range(NUM_QUESTS)]
    merlins: list[int] = []
    morgans = 0  # bit n: Morgan #n is in the pile
    morgan_4_bonus = 0
    mordreds = 0
    for kind in pile:
        if IS_QUEST[kind]:
            groups[CARD_QUEST[kind]].append(kind)
            continue
        card = CARDS[kind]
        if card.kind == MERLIN:
            merlins.append(card.number)
        elif card.kind == MORGAN:
            morgans |= 1 << card.number
            morgan_4_bonus += card.bonus
        elif card.kind == MORDRED:
            mordreds += 1
    result = Resolution(main)
    # SCG-MERLIN-0: Merlins are set aside and remove before anything is counted.
    for number in merlins:
        for quest in merlin_targets(number, merlin_4_quest):
            highest = highest_numbered(groups[quest])
            if highest >= 0:
                groups[quest].remove(highest)
                result.removed.append(highest)
    combined = bool(morgans >> 8 & 1)
    if combined:  # SCG-PROMO-1: Picts and Saxons are one quest worth 2 swords
        groups[PICTS] = groups[PICTS] + groups[SAXONS]
        if main == SAXONS:
            main = PICTS
            result.main = PICTS
    question_worth_one = bool(morgans >> 6 & 1)
    for quest in range(NUM_QUESTS):
        cards = groups[quest]
        if combined and quest == SAXONS or not cards and quest != main:
            continue
        unknown = 0
        total = 0
        for kind in cards:
            value = CARD_VALUE[kind]
            total += value
            if value == 0:
                unknown += 1
        total += unknown * (1 if question_worth_one else unknown)  # SCG-QUEST-4, SCG-MORGAN-6
        if quest in (PICTS, SAXONS):
            total += mordreds * len(cards)  # SCG-MORDRED-1
        if cards:
            total += morgan_4_bonus  # SCG-MORGAN-4
        if quest == main:
            total += merlin_6_bonus  # SCG-PROMO-2
        result.totals[quest] = total
    extra = morgans >> 3 & 1  # SCG-MORGAN-3
    value = result.totals[main]
    low = 12 if morgans >> 5 & 1 else 11  # SCG-MORGAN-5
    exactly_five = 5 in merlins and len(groups[main]) == 5  # SCG-MERLIN-5
    if low <= value <= 13 or exactly_five:
        result.main_won = True
        result.white = _swords(main, combined) + extra
    elif value <= 10 or (value == 11 and low == 12):
        result.main_black = 1 + extra
    else:
        result.main_black = _swords(main, combined) + extra
    result.morgan_7_ends = bool(morgans >> 7 & 1) and value >= 14
    result.black = result.main_black
    for quest, total in result.totals.items():
        if quest != main and total >= 14:
            swords = _swords(quest, combined) + extra
            result.secondary_black[quest] = swords
            result.black += swords
    return result
