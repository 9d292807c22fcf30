"""Grail Cup components as typed data: the nine allies, the clover tokens, the village die.

>>> [a.key for a in ALLIES][:3]
['sorceress', 'squire', 'merlin']
>>> sum(c.count for c in CLOVERS), [f.weight for f in DIE]
(18, [1, 2, 3])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Ally:
    """An ally card: its number (called in this order), key and the rule of its effect."""

    number: int
    key: str
    rule: str


@dataclass(frozen=True, slots=True)
class Clover:
    """A kind of clover token: key, copies among the 18 tokens, rule of its effect."""

    key: str
    count: int
    rule: str


@dataclass(frozen=True, slots=True)
class DieFace:
    """A face of the six-sided village die: key, how many sides show it, rule."""

    key: str
    weight: int
    rule: str


#: The nine allies, index = number - 1 (GC-ALLY-1).
ALLIES: Final[tuple[Ally, ...]] = (
    Ally(1, "sorceress", "GC-ALLY-SORCERESS-1"),
    Ally(2, "squire", "GC-ALLY-SQUIRE-1"),
    Ally(3, "merlin", "GC-ALLY-MERLIN-1"),
    Ally(4, "blacksmith", "GC-ALLY-BLACKSMITH-1"),
    Ally(5, "dragon-tamer", "GC-ALLY-TAMER-1"),
    Ally(6, "princess", "GC-ALLY-PRINCESS-1"),
    Ally(7, "priest", "GC-ALLY-PRIEST-1"),
    Ally(8, "fairy", "GC-ALLY-FAIRY-1"),
    Ally(9, "unicorn", "GC-ALLY-UNICORN-1"),
)
NUM_ALLIES: Final = len(ALLIES)
ALLY_KEYS: Final[tuple[str, ...]] = tuple(a.key for a in ALLIES)
# (Each code a Final of its own, not one unpacked range: mypyc folds a Final int into the
# code, where a plain global is a dictionary lookup at every use.)
SORCERESS: Final = 0
SQUIRE: Final = 1
MERLIN: Final = 2
BLACKSMITH: Final = 3
TAMER: Final = 4
PRINCESS: Final = 5
PRIEST: Final = 6
FAIRY: Final = 7
UNICORN: Final = 8

#: The 18 clover tokens (GC-CLOVER-1).
CLOVERS: Final[tuple[Clover, ...]] = (
    Clover("boots", 4, "GC-CLOVER-BOOTS"),
    Clover("goblin", 4, "GC-CLOVER-GOBLIN"),
    Clover("dragon-bait", 4, "GC-CLOVER-BAIT"),
    Clover("fake-grail", 3, "GC-CLOVER-FAKE"),
    Clover("magnet", 3, "GC-CLOVER-MAGNET"),
)
NUM_CLOVERS: Final = len(CLOVERS)
CLOVER_KEYS: Final[tuple[str, ...]] = tuple(c.key for c in CLOVERS)
CLOVER_TOTAL: Final[tuple[int, ...]] = tuple(c.count for c in CLOVERS)
TOKENS: Final = sum(CLOVER_TOTAL)
BOOTS: Final = 0
GOBLIN: Final = 1
BAIT: Final = 2
FAKE_GRAIL: Final = 3
MAGNET: Final = 4

#: The village die: seal x1, thief x2, spear x3 (GC-VILLAGE-2).
DIE: Final[tuple[DieFace, ...]] = (
    DieFace("seal", 1, "GC-VILLAGE-SEAL"),
    DieFace("thief", 2, "GC-VILLAGE-THIEF"),
    DieFace("spear", 3, "GC-VILLAGE-SPEAR"),
)
DIE_KEYS: Final[tuple[str, ...]] = tuple(f.key for f in DIE)
SEAL: Final = 0
THIEF: Final = 1
SPEAR: Final = 2

#: Spear tokens in the game (GC-SPEAR-1).
SPEARS: Final = 12

#: Allies set aside each round before the draft, (face up, face down), by player count
#: (GC-DRAFT-2, GC-RULING-2, GC-RULING-3).
ASIDE: Final[dict[int, tuple[int, int]]] = {
    2: (3, 1), 3: (0, 1), 4: (3, 1), 5: (2, 1), 6: (1, 1), 7: (0, 1), 8: (0, 1),
}

#: Rounds after which the leading knight wins (GC-RULING-13): far beyond any real game.
MAX_ROUNDS: Final = 60
#: Clover tokens one ally's resolution may reveal in a chain (GC-RULING-14).
CHAIN_CAP: Final = 12
