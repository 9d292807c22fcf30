"""The agenda's tasks: what the state does or waits for next.

The flow of the game is a stack of tasks (``State.agenda``), each one int
``task | a << 8 | b << 16``. The top task is automatic (run at once), a chance node, or a
decision of seat ``a``. Because the agenda is plain data, any position clones, serializes
and resumes, even in the middle of Vivien's exchange or a Gawain draw.
"""

from __future__ import annotations

from typing import Final

# Automatic tasks.
BEGIN_TURN: Final = 1  # a: seat
NEXT_TURN: Final = 2  # a: seat whose turn ends
AFTER_LISTEN: Final = 3  # a: seat (the card in flight is laid or announced)
RESOLVE: Final = 4  # a: quest, b: seat
FINISH: Final = 5  # a: quest, b: seat
END_CHECK: Final = 6
END_REVEAL: Final = 7  # a: seat
FLIP: Final = 8  # a: seat (a traitor revealed at the end)
END_DECIDE: Final = 9
ACCUSE_SWORDS: Final = 10  # a: accused seat (shows his card now), b: accuser
VIVIEN: Final = 11  # a: drawer
GAWAIN_CHECK: Final = 12  # a: seat
PLACE_CHECK: Final = 13  # a: seat (an unmasked traitor's two cards)
# Chance nodes.
C_LOYALTY: Final = 20  # a: seat dealt
C_ASIDE: Final = 21  # a Morgan set aside at set-up
C_DRAW: Final = 22  # a: seat, b: 0 listen (to the flight), 1 into the seat's hand
C_VIVIEN: Final = 23  # a: seat offered a set-aside loyalty card
C_KNIGHT: Final = 24  # a: seat drawing a Knight card
C_MORGAN_IN: Final = 25  # a set-aside Morgan shuffled into the deck
C_TRISTAN: Final = 26  # a: seat looking through the deck (fixes the next unknown card)
# Decisions of seat a.
D_TURN: Final = 40
D_ANNOUNCE: Final = 41
D_COUNT: Final = 42
D_GIVE: Final = 43
D_KEEP: Final = 44
D_PLACE: Final = 45
D_MERLIN_4: Final = 46
D_ARTHUR: Final = 47  # b: the quester
D_GAWAIN: Final = 48  # b: the quester (a new round after each Gawain)
D_GAWAIN_PICK: Final = 49
D_PERCIVAL: Final = 50
D_MERLIN_6: Final = 51
D_MERLIN_6_ADD: Final = 52  # b: quest
D_TRAITOR_TRISTAN: Final = 53  # an unmasked traitor with Knight cards, before his draw

AUTOMATIC: Final = frozenset(range(1, 20))
CHANCE_TASKS: Final = frozenset(range(20, 40))
DECISIONS: Final = frozenset(range(40, 54))
ALL_TASKS: Final = AUTOMATIC | CHANCE_TASKS | DECISIONS
KNOWN: Final = frozenset(
    {BEGIN_TURN, NEXT_TURN, AFTER_LISTEN, RESOLVE, FINISH, END_CHECK, END_REVEAL, FLIP,
     END_DECIDE, ACCUSE_SWORDS, VIVIEN, GAWAIN_CHECK, PLACE_CHECK, C_LOYALTY, C_ASIDE, C_DRAW,
     C_VIVIEN, C_KNIGHT, C_MORGAN_IN, C_TRISTAN, *range(40, 54)}
)

#: Decision names (``soc-card.decision.<name>``).
DECISION_NAMES: Final = {
    D_TURN: "turn",
    D_ANNOUNCE: "announce",
    D_COUNT: "count",
    D_GIVE: "vivien-give",
    D_KEEP: "vivien-keep",
    D_PLACE: "traitor-place",
    D_MERLIN_4: "merlin-4",
    D_ARTHUR: "arthur",
    D_GAWAIN: "gawain",
    D_GAWAIN_PICK: "gawain-pick",
    D_PERCIVAL: "percival",
    D_MERLIN_6: "merlin-6",
    D_MERLIN_6_ADD: "merlin-6-add",
    D_TRAITOR_TRISTAN: "traitor-tristan",
}


def task(code: int, a: int = 0, b: int = 0) -> int:
    """Encode a task.

    >>> split(task(RESOLVE, 3, 2)) == (RESOLVE, 3, 2)
    True
    """
    return code | (a << 8) | (b << 16)


def split(entry: int) -> tuple[int, int, int]:
    """Decode a task into ``(code, a, b)``."""
    return entry & 0xFF, (entry >> 8) & 0xFF, (entry >> 16) & 0xFF
