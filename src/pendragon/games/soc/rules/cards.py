"""Shadows over Camelot cards, knights and locations as typed data.

Every card kind is a frozen record with its base-game count, its *Merlin's Company* extra
count ("+N" in the seeds) and the rule ID of its effect in ``docs/rules/soc.md``. Identical
cards are interchangeable, so states hold *counts per kind*, indexed by ``kind.index``.

The expansion's kinds are listed now (with their counts) so that action ids never change
when the expansion is switched on.

>>> WHITE[FIGHT_5].name, WHITE[FIGHT_5].fight_value, WHITE[FIGHT_5].base_count
('Fight 5', 5, 7)
>>> sum(c.base_count for c in WHITE), sum(c.base_count for c in BLACK)
(84, 76)
>>> sum(c.expansion_count for c in WHITE), sum(c.expansion_count for c in BLACK)
(23, 14)
>>> BLACK[DRAGON_OFFSET + 3].name
'Lancelot/Dragon 7'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


class Location:
    """Where a knight can stand. The Lancelot board becomes the Dragon's after Lancelot.

    Plain ``int`` constants, as are the other code classes of the rules (``data.T``...): a
    compiled build folds them into the code, where an ``IntEnum`` member is looked up.
    """

    CAMELOT: Final = 0
    BLACK_KNIGHT: Final = 1
    LANCELOT: Final = 2  # the Lancelot / Dragon board
    EXCALIBUR: Final = 3
    GRAIL: Final = 4
    PICTS: Final = 5
    SAXONS: Final = 6


LOCATION_KEYS: Final = (
    "camelot", "black-knight", "lancelot", "excalibur", "grail", "picts", "saxons")
LOCATION_NAMES: Final = (
    "Camelot",
    "the Black Knight",
    "Lancelot / the Dragon",
    "Excalibur",
    "the Holy Grail",
    "the Picts",
    "the Saxons",
)
NUM_LOCATIONS: Final = len(LOCATION_KEYS)
#: Location of a knight who is dead or unmasked (off the board).
OFF_BOARD: Final = -1


@dataclass(frozen=True, slots=True)
class WhiteCard:
    """A kind of white card."""

    index: int
    key: str
    name: str
    special: bool
    fight_value: int  # 0 for non-Fight cards; -1 for the expansion's "?" card
    base_count: int
    expansion_count: int
    rule_id: str


@dataclass(frozen=True, slots=True)
class BlackCard:
    """A kind of black card."""

    index: int
    key: str
    name: str
    special: bool
    quest: int  # a Location, or -1 when the card belongs to no quest
    combat_value: int  # value on its quest; 0 for non-combat cards
    base_count: int
    expansion_count: int
    rule_id: str


@dataclass(frozen=True, slots=True)
class Knight:
    """A coat of arms."""

    index: int
    key: str
    name: str
    expansion: bool
    rule_id: str


def _white() -> tuple[WhiteCard, ...]:
    rows: list[tuple[str, str, bool, int, int, int, str]] = [
        ("fight-1", "Fight 1", False, 1, 14, 3, "SOC-W-FIGHT"),
        ("fight-2", "Fight 2", False, 2, 12, 2, "SOC-W-FIGHT"),
        ("fight-3", "Fight 3", False, 3, 10, 1, "SOC-W-FIGHT"),
        ("fight-4", "Fight 4", False, 4, 8, 1, "SOC-W-FIGHT"),
        ("fight-5", "Fight 5", False, 5, 7, 1, "SOC-W-FIGHT"),
        ("fight-any", "Fight ?", False, -1, 0, 3, "MC-W-FIGHT-ANY"),
        ("grail", "Grail", False, 0, 18, 3, "SOC-W-GRAIL"),
        ("merlin", "Merlin", True, 0, 7, 1, "SOC-W-MERLIN"),
        ("convocation", "Convocation", True, 0, 1, 0, "SOC-W-CONVOCATION"),
        ("fate", "Fate", True, 0, 1, 0, "SOC-W-FATE"),
        ("heroism", "Heroism", True, 0, 1, 0, "SOC-W-HEROISM"),
        ("lady-of-the-lake", "Lady of the Lake", True, 0, 1, 0, "SOC-W-LADY"),
        ("messenger", "Messenger", True, 0, 1, 0, "SOC-W-MESSENGER"),
        ("piety", "Piety", True, 0, 1, 0, "SOC-W-PIETY"),
        ("clairvoyance", "Clairvoyance", True, 0, 1, 0, "SOC-W-CLAIRVOYANCE"),
        ("reinforcements", "Reinforcements", True, 0, 1, 0, "SOC-W-REINFORCEMENTS"),
        ("call-for-help", "Call for Help", True, 0, 0, 1, "MC-W-CALL-FOR-HELP"),
        ("dispel", "Dispel", True, 0, 0, 1, "MC-W-DISPEL"),
        ("divine-favor", "Divine Favor", True, 0, 0, 1, "MC-W-DIVINE-FAVOR"),
        ("dragon-slayer", "Dragon Slayer", True, 0, 0, 1, "MC-W-DRAGON-SLAYER"),
        ("merlin-to-the-rescue", "Merlin to the Rescue", True, 0, 0, 1, "MC-W-MERLIN-RESCUE"),
        ("new-hope", "New Hope", True, 0, 0, 1, "MC-W-NEW-HOPE"),
        ("tournament", "Tournament", True, 0, 0, 1, "MC-W-TOURNAMENT"),
        ("truce", "Truce", True, 0, 0, 1, "MC-W-TRUCE"),
    ]
    return tuple(WhiteCard(i, *row) for i, row in enumerate(rows))


def _black() -> tuple[BlackCard, ...]:
    bk, ld, gr, ex = Location.BLACK_KNIGHT, Location.LANCELOT, Location.GRAIL, Location.EXCALIBUR
    pi, sa = Location.PICTS, Location.SAXONS
    rows: list[tuple[str, str, bool, int, int, int, int, str]] = [
        ("black-knight-1", "Black Knight 1", False, bk, 1, 5, 0, "SOC-B-BLACKKNIGHT"),
        ("black-knight-3", "Black Knight 3", False, bk, 3, 3, 0, "SOC-B-BLACKKNIGHT"),
        ("black-knight-5", "Black Knight 5", False, bk, 5, 2, 0, "SOC-B-BLACKKNIGHT"),
        ("black-knight-7", "Black Knight 7", False, bk, 7, 1, 0, "SOC-B-BLACKKNIGHT"),
        ("lancelot-1", "Lancelot/Dragon 1", False, ld, 1, 4, 0, "SOC-B-LANCELOT"),
        ("lancelot-3", "Lancelot/Dragon 3", False, ld, 3, 3, 0, "SOC-B-LANCELOT"),
        ("lancelot-5", "Lancelot/Dragon 5", False, ld, 5, 3, 0, "SOC-B-LANCELOT"),
        ("lancelot-7", "Lancelot/Dragon 7", False, ld, 7, 1, 0, "SOC-B-LANCELOT"),
        ("despair", "Despair", False, gr, 0, 15, 2, "SOC-B-DESPAIR"),
        ("excalibur", "Excalibur", False, ex, 0, 15, 2, "SOC-B-EXCALIBUR"),
        ("mercenaries", "Mercenaries", False, -1, 0, 4, 1, "SOC-B-MERCENARIES"),
        ("picts", "Picts", False, pi, 0, 4, 1, "SOC-B-PICTS"),
        ("saxons", "Saxons", False, sa, 0, 4, 1, "SOC-B-SAXONS"),
        ("desolation", "Desolation", True, gr, 0, 2, 0, "SOC-B-DESOLATION"),
        ("dark-forest", "Dark Forest", True, gr, 0, 1, 0, "SOC-B-DARKFOREST"),
        ("guinevere", "Guinevere", True, -1, 0, 1, 0, "SOC-B-GUINEVERE"),
        ("mist-of-avalon", "Mist of Avalon", True, -1, 0, 1, 0, "SOC-B-MIST"),
        ("mordred", "Mordred", True, -1, 0, 1, 0, "SOC-B-MORDRED"),
        ("morgan-1", "Morgan (each knight loses 1 life)", True, -1, 0, 1, 0, "SOC-B-MORGAN-1"),
        ("morgan-2", "Morgan (discard 1 each, or 3 by one)", True, -1, 0, 1, 0, "SOC-B-MORGAN-2"),
        ("morgan-3", "Morgan (play the next 3 black cards)", True, -1, 0, 1, 0, "SOC-B-MORGAN-3"),
        ("morgan-4", "Morgan (2 siege engines)", True, -1, 0, 1, 0, "SOC-B-MORGAN-4"),
        ("morgan-5", "Morgan (discard 1 each, or 2 life by one)", True, -1, 0, 1, 0,
         "SOC-B-MORGAN-5"),
        ("vivien", "Vivien", True, -1, 0, 1, 0, "SOC-B-VIVIEN"),
    ]
    rows += [
        (f"witch-{i}", f"Morgan's Witch {i}", True, -1, 0, 0, 1, f"MC-B-WITCH-{i}")
        for i in range(1, 8)
    ]
    return tuple(BlackCard(i, *row) for i, row in enumerate(rows))


WHITE: Final[tuple[WhiteCard, ...]] = _white()
BLACK: Final[tuple[BlackCard, ...]] = _black()
NUM_WHITE: Final = len(WHITE)
NUM_BLACK: Final = len(BLACK)
WHITE_BY_KEY: Final = {c.key: c.index for c in WHITE}
BLACK_BY_KEY: Final = {c.key: c.index for c in BLACK}

# White kind indices used by the rules.
FIGHT_1, FIGHT_2, FIGHT_3, FIGHT_4, FIGHT_5, FIGHT_ANY = range(6)
FIGHT_KINDS: Final = (FIGHT_1, FIGHT_2, FIGHT_3, FIGHT_4, FIGHT_5)
GRAIL_CARD: Final = WHITE_BY_KEY["grail"]
MERLIN: Final = WHITE_BY_KEY["merlin"]
CONVOCATION: Final = WHITE_BY_KEY["convocation"]
FATE: Final = WHITE_BY_KEY["fate"]
HEROISM: Final = WHITE_BY_KEY["heroism"]
LADY: Final = WHITE_BY_KEY["lady-of-the-lake"]
MESSENGER: Final = WHITE_BY_KEY["messenger"]
PIETY: Final = WHITE_BY_KEY["piety"]
CLAIRVOYANCE: Final = WHITE_BY_KEY["clairvoyance"]
REINFORCEMENTS: Final = WHITE_BY_KEY["reinforcements"]
SPECIAL_KINDS: Final = tuple(c.index for c in WHITE if c.special)
CALL_FOR_HELP: Final = WHITE_BY_KEY["call-for-help"]
DISPEL: Final = WHITE_BY_KEY["dispel"]
DIVINE_FAVOR: Final = WHITE_BY_KEY["divine-favor"]
DRAGON_SLAYER: Final = WHITE_BY_KEY["dragon-slayer"]
MERLIN_RESCUE: Final = WHITE_BY_KEY["merlin-to-the-rescue"]
NEW_HOPE: Final = WHITE_BY_KEY["new-hope"]
TOURNAMENT: Final = WHITE_BY_KEY["tournament"]
TRUCE: Final = WHITE_BY_KEY["truce"]
#: Standard white kinds that may be healed with (three identical cards).
HEAL_KINDS: Final = (FIGHT_1, FIGHT_2, FIGHT_3, FIGHT_4, FIGHT_5, FIGHT_ANY, GRAIL_CARD)

# Black kind indices used by the rules.
BLACK_KNIGHT_KINDS: Final = (0, 1, 2, 3)
DRAGON_OFFSET: Final = 4
LANCELOT_KINDS: Final = (4, 5, 6, 7)
#: The Dragon side of a Lancelot/Dragon card is worth 4 more.
DRAGON_BONUS: Final = 4
DESPAIR: Final = BLACK_BY_KEY["despair"]
EXCALIBUR_CARD: Final = BLACK_BY_KEY["excalibur"]
MERCENARIES: Final = BLACK_BY_KEY["mercenaries"]
PICTS_CARD: Final = BLACK_BY_KEY["picts"]
SAXONS_CARD: Final = BLACK_BY_KEY["saxons"]
DESOLATION: Final = BLACK_BY_KEY["desolation"]
DARK_FOREST: Final = BLACK_BY_KEY["dark-forest"]
GUINEVERE: Final = BLACK_BY_KEY["guinevere"]
MIST: Final = BLACK_BY_KEY["mist-of-avalon"]
MORDRED: Final = BLACK_BY_KEY["mordred"]
MORGAN_1, MORGAN_2, MORGAN_3, MORGAN_4, MORGAN_5 = (
    BLACK_BY_KEY[f"morgan-{i}"] for i in range(1, 6)
)
VIVIEN: Final = BLACK_BY_KEY["vivien"]
COMBAT_BLACK_KINDS: Final = BLACK_KNIGHT_KINDS + LANCELOT_KINDS
WITCH_1: Final = BLACK_BY_KEY["witch-1"]
WITCH_KINDS: Final = tuple(BLACK_BY_KEY[f"witch-{i}"] for i in range(1, 8))


def _knights() -> tuple[Knight, ...]:
    rows = [
        ("arthur", "King Arthur", False),
        ("galahad", "Sir Galahad", False),
        ("gawain", "Sir Gawain", False),
        ("kay", "Sir Kay", False),
        ("palamedes", "Sir Palamedes", False),
        ("percival", "Sir Percival", False),
        ("tristan", "Sir Tristan", False),
        ("gaheris", "Sir Gaheris", True),
        ("gareth", "Sir Gareth", True),
        ("geraint", "Sir Geraint", True),
        ("lamorak", "Sir Lamorak", True),
        ("owain", "Sir Owain", True),
        ("bedivere", "Sir Bedivere", True),
        ("bors", "Sir Bors", True),
        ("caradoc", "Sir Caradoc", True),
    ]
    return tuple(
        Knight(i, key, name, exp, f"{'MC' if exp else 'SOC'}-KNIGHT-{key.upper()}")
        for i, (key, name, exp) in enumerate(rows)
    )


KNIGHTS: Final[tuple[Knight, ...]] = _knights()
NUM_KNIGHTS: Final = len(KNIGHTS)
KNIGHT_BY_KEY: Final = {k.key: k.index for k in KNIGHTS}
ARTHUR, GALAHAD, GAWAIN, KAY, PALAMEDES, PERCIVAL, TRISTAN = range(7)
GAHERIS, GARETH, GERAINT, LAMORAK, OWAIN, BEDIVERE, BORS, CARADOC = range(7, 15)
BASE_KNIGHTS: Final = tuple(k.index for k in KNIGHTS if not k.expansion)

#: Travel cards of the expansion (listed now so that action ids are stable).
TRAVEL_KEYS: Final = (
    "nothing-happens",
    "vision",
    "merlin-travels",
    "lost",
    "ambushed",
    "charged",
    "captured",
)


def white_counts(expansion: bool) -> list[int]:
    """Number of copies of each white kind in the deck."""
    return [c.base_count + (c.expansion_count if expansion else 0) for c in WHITE]


def black_counts(expansion: bool) -> list[int]:
    """Number of copies of each black kind in the deck."""
    return [c.base_count + (c.expansion_count if expansion else 0) for c in BLACK]
