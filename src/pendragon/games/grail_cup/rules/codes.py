"""Grail Cup's codes: where an ally lies, the agenda's task codes and their kinds.

The engine (:mod:`.engine`) runs tasks by these codes; it and the other rules modules
import this module whole (``from pendragon.games.grail_cup.rules import codes as C``) and
write ``C.DEAL``. Each code is a ``Final`` of its own: mypyc folds a ``Final`` int into the
compiled code (``C.DEAL`` too), where a plain module global is a dictionary lookup at every
use.
"""

from __future__ import annotations

from typing import Final

# ---------------------------------------------------------------- ally locations
DECK: Final = 0
ASIDE_UP: Final = 1
ASIDE_DOWN: Final = 2
PACKET: Final = 3
RANDOM: Final = 4
DISCARD: Final = 5
#: ``HAND + seat``: drafted by that seat this round.
HAND: Final = 10
LOCATION_NAMES: Final = ("deck", "aside-up", "aside-down", "packet", "random-discard", "discard")

# ---------------------------------------------------------------- task codes
DEAL: Final = 1
SETUP_END: Final = 2
ROUND: Final = 3
ASIDE_UP_DRAW: Final = 4
ASIDE_DOWN_DRAW: Final = 5
SIGHT: Final = 6
PICK: Final = 7
DIRECTION: Final = 8
DRAFT_REST: Final = 9
RANDOM_DISCARD: Final = 10
TAKE_ASIDE: Final = 11
FINAL_DISCARD: Final = 12
CALL: Final = 13
RESOLVE: Final = 14
STRIKE: Final = 15
CURSE: Final = 16
NAME: Final = 17
LOOK: Final = 18
MERLIN_DONE: Final = 19
PLACE: Final = 20
CHOOSE_MOVE: Final = 21
MOVE_DRAGON: Final = 22
STEPS: Final = 23
TO: Final = 24
BACK: Final = 25
SPEAR: Final = 26
LAND: Final = 27
CLOVER: Final = 28
LAY: Final = 29
RETURN: Final = 30
DIE_ROLL: Final = 31
FAKE: Final = 32
STEAL: Final = 33
ROUND_END: Final = 34
NUM_TASKS: Final = 35
TASK_NAMES: Final[dict[int, str]] = {
    DEAL: "deal", SETUP_END: "setup-end", ROUND: "round", ASIDE_UP_DRAW: "aside-up",
    ASIDE_DOWN_DRAW: "aside-down", SIGHT: "sight", PICK: "draft", DIRECTION: "direction",
    DRAFT_REST: "draft-rest", RANDOM_DISCARD: "random-discard", TAKE_ASIDE: "take-aside",
    FINAL_DISCARD: "final-discard", CALL: "call", RESOLVE: "resolve", STRIKE: "strike",
    CURSE: "curse", NAME: "name", LOOK: "look",
    MERLIN_DONE: "merlin-done", PLACE: "place", CHOOSE_MOVE: "move", MOVE_DRAGON: "dragon",
    STEPS: "steps", TO: "to", BACK: "back", SPEAR: "spear", LAND: "land", CLOVER: "clover",
    LAY: "lay", RETURN: "return", DIE_ROLL: "die", FAKE: "fake-grail",
    STEAL: "magnet", ROUND_END: "round-end",
}
# The sets of task codes as bit masks (bit ``code``): the hot paths test a bit of a Final
# int, which mypyc folds into the code; a frozenset costs a boxed int and a hash lookup.
CHANCE_BITS: Final = (
    1 << DEAL | 1 << ASIDE_UP_DRAW | 1 << ASIDE_DOWN_DRAW | 1 << RANDOM_DISCARD | 1 << LAY
    | 1 << DIE_ROLL
)
DECISION_BITS: Final = (
    1 << PICK | 1 << DIRECTION | 1 << CURSE | 1 << NAME | 1 << LOOK | 1 << PLACE
    | 1 << CHOOSE_MOVE | 1 << MOVE_DRAGON | 1 << SPEAR | 1 << FAKE | 1 << STEAL
)
WAITING_BITS: Final = CHANCE_BITS | DECISION_BITS
#: Waiting tasks that a position read from outside may hold with nothing to offer.
GUARDED_BITS: Final = (
    1 << PICK | 1 << RANDOM_DISCARD | 1 << DEAL | 1 << ASIDE_UP_DRAW | 1 << ASIDE_DOWN_DRAW
    | 1 << LAY | 1 << LOOK | 1 << STEAL | 1 << SPEAR
)


def _codes(bits: int) -> frozenset[int]:
    return frozenset(code for code in range(NUM_TASKS) if bits >> code & 1)


CHANCE_TASKS: Final = _codes(CHANCE_BITS)
DECISION_TASKS: Final = _codes(DECISION_BITS)
WAITING: Final = _codes(WAITING_BITS)
GUARDED: Final = _codes(GUARDED_BITS)
#: CHOOSE_MOVE's ``b``: whose distances.
MERLIN_MOVES: Final = 0
FAIRY_MOVES: Final = 1
#: MOVE_DRAGON's ``b``: who moves the dragon.
BY_TAMER: Final = 0
BY_BAIT: Final = 1
#: The village die's faces by weight (read only: the chance node's counts).
