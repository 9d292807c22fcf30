"""The cards of Shadows over Camelot: The Card Game, as typed data.

The rumor deck is the data file ``rumor_deck.json`` next to this module (SCG-COMP-2,
SCG-RULING-4): every count, value, quest symbol and Morgan #4 bonus the seed leaves open is
decided there, in one place. This module checks the file and turns it into frozen records;
the rules refer to cards by their index in :data:`CARDS` (a *kind*), and every pile is a
count vector over kinds.

>>> len(CARDS), CARDS[KIND["picts-q"]].value, CARDS[KIND["grail-5"]].value
(43, 0, 5)
>>> sum(card.count for card in CARDS if not card.promo)
62
>>> [QUESTS[q] for q in CARDS[KIND["mordred"]].allows]
['picts', 'saxons']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Final

#: Quests in a fixed order; a quest is its index.
QUESTS: Final[tuple[str, ...]] = ("picts", "saxons", "dragon", "excalibur", "grail")
PICTS: Final = 0
SAXONS: Final = 1
DRAGON: Final = 2
EXCALIBUR: Final = 3
GRAIL: Final = 4
NUM_QUESTS: Final = len(QUESTS)

#: Card kinds (the ``kind`` field).
QUEST: Final = "quest"
MORGAN: Final = "morgan"
MERLIN: Final = "merlin"
MORDRED: Final = "mordred"
VIVIEN: Final = "vivien"

#: Knight cards of the expert variant, in a fixed order; a knight is its index.
KNIGHT_KEYS: Final[tuple[str, ...]] = ("arthur", "tristan", "gawain", "galahad", "percival")
ARTHUR: Final = 0
TRISTAN: Final = 1
GAWAIN: Final = 2
GALAHAD: Final = 3
PERCIVAL: Final = 4

#: Loyalty cards.
LOYAL: Final = 0
TRAITOR: Final = 1
LOYALTY_KEYS: Final[tuple[str, ...]] = ("loyal", "traitor")


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of rumor card.

    ``value`` is 0 for a "?" card; ``allows`` lists the quests its symbol lets the next
    player go on (SCG-QUEST-1); ``number`` is a Morgan's or Merlin's number.
    """

    index: int
    key: str
    kind: str
    quest: int
    value: int
    count: int
    number: int
    bonus: int
    symbol: str
    allows: tuple[int, ...]
    promo: bool

    @property
    def is_quest(self) -> bool:
        """Whether this is a quest card (Picts, Saxons, Dragon, Excalibur, Grail)."""
        return self.kind == QUEST

    @property
    def is_unknown_value(self) -> bool:
        """Whether this is a "?" card (SCG-QUEST-4)."""
        return self.kind == QUEST and self.value == 0


class DeckFileError(ValueError):
    """The rumor deck data file is inconsistent."""


def _allows(symbol: str, quest: int) -> tuple[int, ...]:
    if symbol == "none":
        return ()
    if symbol == "war":
        return (PICTS, SAXONS)
    if symbol == "any":
        return tuple(range(NUM_QUESTS))
    if symbol == "own":
        return (quest,)
    raise DeckFileError(f"unknown symbol {symbol!r}")


def _load(data: dict[str, Any]) -> tuple[tuple[Card, ...], tuple[int, ...], tuple[int, ...]]:
    if data.get("format") != 1:
        raise DeckFileError("rumor_deck.json: unknown format")
    quests = tuple(q["key"] for q in data["quests"])
    if quests != QUESTS:
        raise DeckFileError(f"rumor_deck.json: quests must be {QUESTS}")
    swords = tuple(int(q["swords"]) for q in data["quests"])
    cards: list[Card] = []
    for quest, name in enumerate(QUESTS):
        for entry in data["quest_cards"]:
            value = 0 if entry["value"] == "?" else int(entry["value"])
            suffix = "q" if value == 0 else str(value)
            cards.append(Card(len(cards), f"{name}-{suffix}", QUEST, quest, value,
                              int(entry["count"]), 0, 0, "own", (quest,), False))
    for entry in data["characters"]:
        kind = entry["kind"]
        if kind not in (MORGAN, MERLIN, MORDRED, VIVIEN):
            raise DeckFileError(f"rumor_deck.json: unknown kind {kind!r}")
        symbol = str(entry.get("symbol", "none"))
        cards.append(Card(len(cards), str(entry["key"]), kind, -1, 0, int(entry["count"]),
                          int(entry.get("number", 0)), int(entry.get("bonus", 0)), symbol,
                          _allows(symbol, -1), bool(entry.get("promo", False))))
    keys = [card.key for card in cards]
    if len(set(keys)) != len(keys):
        raise DeckFileError("rumor_deck.json: duplicate card keys")
    knights = tuple(int(k["count"]) for k in data["knights"])
    if tuple(k["key"] for k in data["knights"]) != KNIGHT_KEYS:
        raise DeckFileError(f"rumor_deck.json: knights must be {KNIGHT_KEYS}")
    return tuple(cards), swords, knights


_DATA: Final[dict[str, Any]] = json.loads(
    files("pendragon.games.soc_card.rules").joinpath("rumor_deck.json").read_text("utf-8")
)
_LOADED: Final = _load(_DATA)
# Each a Final of its own (a tuple unpacking is not): mypyc keeps a Final in a C static where
# a plain module global is a dictionary lookup at every use.
CARDS: Final = _LOADED[0]
QUEST_SWORDS: Final = _LOADED[1]
KNIGHT_COUNTS: Final = _LOADED[2]
#: Card index by key.
KIND: Final[dict[str, int]] = {card.key: card.index for card in CARDS}
NUM_KINDS: Final = len(CARDS)
#: Morgans shuffled into the deck at set-up; the rest are set aside (SCG-SETUP-3).
MORGANS_IN_DECK: Final = int(_DATA["morgans_in_deck"])

MORGAN_KINDS: Final = tuple(c.index for c in CARDS if c.kind == MORGAN)
MERLIN_KINDS: Final = tuple(c.index for c in CARDS if c.kind == MERLIN)
QUEST_KINDS: Final = tuple(c.index for c in CARDS if c.kind == QUEST)
IS_QUEST: Final = tuple(c.kind == QUEST for c in CARDS)
IS_MORGAN: Final = tuple(c.kind == MORGAN for c in CARDS)
CARD_QUEST: Final = tuple(c.quest for c in CARDS)
CARD_VALUE: Final = tuple(c.value for c in CARDS)

MORGAN_8: Final = KIND["morgan-8"]
MERLIN_6: Final = KIND["merlin-6"]
MERLIN_4: Final = KIND["merlin-4"]
MORDRED_KIND: Final = KIND["mordred"]
VIVIEN_KIND: Final = KIND["vivien"]


def morgan_number(kind: int) -> int:
    """The Morgan number of ``kind`` (0 if it is no Morgan)."""
    card = CARDS[kind]
    return card.number if card.kind == MORGAN else 0


def merlin_number(kind: int) -> int:
    """The Merlin number of ``kind`` (0 if it is no Merlin)."""
    card = CARDS[kind]
    return card.number if card.kind == MERLIN else 0


def deck_counts(*, promos: tuple[bool, bool]) -> list[int]:
    """Counts by kind of every rumor card in the game, Morgans included (SCG-COMP-2).

    ``promos`` is (Morgan #8, Merlin #6) (SCG-PROMO-1, SCG-PROMO-2).

    >>> sum(deck_counts(promos=(False, False))), sum(deck_counts(promos=(True, True)))
    (62, 64)
    """
    counts = [0 if c.promo else c.count for c in CARDS]
    if promos[0]:
        counts[MORGAN_8] = CARDS[MORGAN_8].count
    if promos[1]:
        counts[MERLIN_6] = CARDS[MERLIN_6].count
    return counts
