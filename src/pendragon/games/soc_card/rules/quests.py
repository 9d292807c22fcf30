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
from dataclasses import dataclass, field
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
    or -1."""
    numbered = [k for k in cards if CARD_VALUE[k] > 0]
    return max(numbered, key=lambda k: CARD_VALUE[k]) if numbered else -1


@dataclass(slots=True)
class Resolution:
    """What a quest resolution found and decided.

    ``totals`` maps each quest that has cards (and the main quest) to its final value;
    under Morgan #8 the Picts-and-Saxons quest is keyed by Picts. ``removed`` lists the
    cards the Merlins removed. ``white``/``black`` are the swords to lay (Morgan #3
    included); ``main_won`` says whether the main quest succeeded; ``morgan_7_ends`` that
    the game ends at once with evil winning (SCG-MORGAN-7).
    """

    main: int
    totals: dict[int, int] = field(default_factory=dict)
    removed: list[int] = field(default_factory=list)
    main_won: bool = False
    main_black: int = 0
    white: int = 0
    black: int = 0
    secondary_black: dict[int, int] = field(default_factory=dict)
    morgan_7_ends: bool = False


def resolve(
    pile: Sequence[int], main: int, *, merlin_4_quest: int = -1, merlin_6_bonus: int = 0
) -> Resolution:
    """Resolve the threat pile ``pile`` (card kinds, all face up now) for quest ``main``."""
    groups: list[list[int]] = [[] for _ in range(NUM_QUESTS)]
    merlins: list[int] = []
    morgans: list[int] = []
    morgan_4_bonus = 0
    mordreds = 0
    for kind in pile:
        card = CARDS[kind]
        if IS_QUEST[kind]:
            groups[CARD_QUEST[kind]].append(kind)
        elif card.kind == MERLIN:
            merlins.append(card.number)
        elif card.kind == MORGAN:
            morgans.append(card.number)
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
    combined = 8 in morgans
    units: dict[int, list[int]] = {q: groups[q] for q in range(NUM_QUESTS)}
    swords = {q: QUEST_SWORDS[q] for q in range(NUM_QUESTS)}
    if combined:  # SCG-PROMO-1: Picts and Saxons are one quest worth 2 swords
        units[PICTS] = groups[PICTS] + groups[SAXONS]
        del units[SAXONS]
        swords[PICTS] = COMBINED_SWORDS
        if main == SAXONS:
            main = PICTS
            result.main = PICTS
    question_worth_one = 6 in morgans
    for quest, cards in units.items():
        if not cards and quest != main:
            continue
        unknown = sum(1 for k in cards if CARD_VALUE[k] == 0)
        total = sum(CARD_VALUE[k] for k in cards)
        total += unknown * (1 if question_worth_one else unknown)  # SCG-QUEST-4, SCG-MORGAN-6
        if quest in (PICTS, SAXONS):
            total += mordreds * len(cards)  # SCG-MORDRED-1
        if cards:
            total += morgan_4_bonus  # SCG-MORGAN-4
        if quest == main:
            total += merlin_6_bonus  # SCG-PROMO-2
        result.totals[quest] = total
    extra = 1 if 3 in morgans else 0  # SCG-MORGAN-3
    value = result.totals[main]
    low = 12 if 5 in morgans else 11  # SCG-MORGAN-5
    exactly_five = 5 in merlins and len(units[main]) == 5  # SCG-MERLIN-5
    if low <= value <= 13 or exactly_five:
        result.main_won = True
        result.white = swords[main] + extra
    elif value <= 10 or (value == 11 and low == 12):
        result.main_black = 1 + extra
    else:
        result.main_black = swords[main] + extra
    result.morgan_7_ends = 7 in morgans and value >= 14
    result.black = result.main_black
    for quest, total in result.totals.items():
        if quest != main and total >= 14:
            result.secondary_black[quest] = swords[quest] + extra
            result.black += swords[quest] + extra
    return result
