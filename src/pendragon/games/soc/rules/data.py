"""The Shadows over Camelot state's data: compact, integer-coded, cheap to copy.

Everything a position needs is in the slots of :class:`SocData`; rule modules are mixins
that add behaviour only. Piles of interchangeable cards are count vectors indexed by card
kind. The game's flow is an *agenda*: a stack of small integer tuples ``(task, a, b, c)``
whose top is either an automatic step (run at once), a chance node, or a decision of one
seat. Because the agenda is plain data, a state can be cloned, serialized and resumed at
any sub-decision (a reward card being shared, a Merlin being pledged...).

Encodings:

* a black card lying face down on a quest is ``kind + FACE_DOWN_BASE * (placer + 1)``;
* a known card in the black deck (``black_top`` / ``black_bottom``) is
  ``kind + KNOWN_BASE * mask`` where bit ``p`` of ``mask`` means seat ``p`` knows it.

Notes: while an action is narrated (``view.narrate`` applies it to a copy whose ``log`` is a
list; everywhere else ``log`` is ``None`` and nothing is recorded), the rules record what
the table sees happen as they do it, one :data:`Note` ``(kind, a, b, c)`` per change, with
:meth:`SocData.note`. Every note is public: secrets are told (or not) by the narration of
the action itself.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from pendragon.core.api import State
from pendragon.games.soc.rules.cards import NUM_BLACK, NUM_WHITE

if TYPE_CHECKING:
    from pendragon.games.soc.rules.game import SocGame

FACE_DOWN_BASE = 64
KNOWN_BASE = 64
#: A relic's owner field: still on its quest, or out of the game (lost, used, owner dead).
ON_QUEST = -1
GONE = -2

Task = tuple[int, int, int, int]
#: A change the table sees, recorded while narrating: ``(kind, a, b, c)``, kinds below.
Note = tuple[int, int, int, int]
#: A quest ends: (location, won 0/1).
NOTE_QUEST = 1
#: A knight's life changes: (seat, change).
NOTE_LIFE = 2
#: A knight dies: (seat,).
NOTE_DIES = 3
#: Swords laid (or taken away) on the Round Table: (white, black).
NOTE_SWORDS = 4
#: White swords turned black (a false accusation, SOC-ACCUSE-3; the end, SOC-TRAITOR-3):
#: (count,).
NOTE_TURNED = 5
#: Siege engines added or removed: (change,).
NOTE_SIEGE = 6
#: A relic changes hands: (relic index in :data:`RELIC_KEYS`, old owner, new owner).
NOTE_RELIC = 7
#: A black card read out to the table (SOC-EVIL-2): (drawer, kind).
NOTE_READ = 8
#: A traitor still hidden when the game ends shows himself (SOC-TRAITOR-3): (seat,).
NOTE_TRAITOR = 9
#: The game ends (SOC-END-1, SOC-END-2): (result, reason).
NOTE_OVER = 10
#: The relics, in the order the observation and the narration list them.
RELIC_KEYS = ("excalibur", "grail", "armor")
EXCALIBUR_RELIC, GRAIL_RELIC, ARMOR_RELIC = 0, 1, 2


class Status(enum.IntEnum):
    """Where a seat's knight stands in the game."""

    IN_PLAY = 0
    DEAD = 1
    UNMASKED = 2


class Loyalty(enum.IntEnum):
    """A loyalty card."""

    UNDEALT = -1
    LOYAL = 0
    TRAITOR = 1


class Result(enum.IntEnum):
    """How the game ended."""

    RUNNING = 0
    LOYAL_WIN = 1
    EVIL_WIN = 2


class EndReason(enum.IntEnum):
    """Why the game ended (for statistics)."""

    NONE = 0
    SWORDS = 1  # 12 swords laid, counted
    SIEGE = 2  # 12 siege engines
    BLACK_SWORDS = 3  # 7 black swords
    ALL_DEAD = 4  # every loyal knight dead
    EXHAUSTED = 5  # the round cap (SOC-RULING-45)
    ALL_CAPTURED = 6  # every knight still acting is captured, none can free him (MC-RULING-14)


#: Each end reason's name in the observation and the catalogs (``soc.end.<name>``).
END_REASON_KEYS = tuple(
    "" if reason is EndReason.NONE else reason.name.lower().replace("_", "-")
    for reason in EndReason
)


class T(enum.IntEnum):
    """Agenda task codes. ``C_`` tasks are chance nodes, ``D_`` decisions, others automatic."""

    # chance
    C_KNIGHT = 1
    C_LOYALTY = 2
    C_WHITE = 3  # (seat, purpose)
    C_BLACK = 4  # (seat, purpose)
    C_DIE = 5  # (seat)
    C_HANDCARD = 6  # (victim, thief)
    C_RANDSEAT = 7
    # decisions
    D_CONTRIB = 20
    D_SHARE = 21
    D_EVIL = 22
    D_HEROIC = 23
    D_FACE = 24  # (seat, card, quest)
    D_ARMOR = 25  # (seat, purpose)
    D_PERC_BOTTOM = 26
    D_POOL = 27  # (seat, card)
    D_EXCAL = 28  # (owner, card)
    D_WAR_TARGET = 29  # (seat, card)
    D_GRAIL = 30  # (owner, dying)
    D_SIEGE = 31
    D_KAY = 32  # (kay, quest or -1 for a siege fight)
    D_MERLIN = 33
    D_HEROISM = 34
    D_PIETY = 35
    D_REINF = 36
    D_FATE = 37
    D_MSG_TARGET = 38
    D_MSG_CARD = 39  # (seat, target, given)
    D_ARTHUR_TARGET = 40
    D_ARTHUR_CARD = 41  # (arthur, target)
    D_ARTHUR_RETURN = 42  # (target, arthur)
    D_CLAIRV = 43
    D_CONVOKE = 44  # (seat, player)
    D_VOLUNTEER = 45  # (seat, morgan card)
    D_DISCARD = 46  # (seat, remaining)
    D_TRAITOR_TARGET = 47
    D_TRAITOR_EVIL = 48
    # automatic
    START_TURN = 60
    END_TURN = 61
    BLACK_AFTER_POOL = 62  # (card, seat)
    BLACK_RESOLVE = 63  # (card, seat)
    DYING = 64
    QUEST_CHECK = 65  # (quest, finisher)
    COMBAT_COMPARE = 66  # (quest, finisher)
    SHARE_NEXT = 67
    SIEGE_RESOLVE = 68
    CONVOKE_RESOLVE = 69
    MORGAN_FALLBACK = 70  # (card, drawer)
    CHAIN_DRAW = 71  # (seat)
    REVEAL_CONTRIB = 72
    DRAW_BLACK = 73  # (seat, purpose)
    SETUP_MERLIN = 74  # (seat)
    EXCAL_OFFER = 75  # (card, seat)
    CLAIRV_DRAW = 76  # (seat, remaining)
    ARMOR_SECOND = 77  # (seat, purpose)
    PERC_ARMOR_SECOND = 78
    SETUP_CONTRIB = 79
    # Merlin's Company and the optional rules
    C_TRAVEL = 8  # (seat, destination)
    D_LAMORAK = 49  # (seat, life still to lose)
    D_VALUE = 50  # (seat, context, location)
    D_TRAVEL = 51  # (seat, travel card, destination)
    D_CALL = 52  # (seat, caller)
    D_DISPEL = 53
    D_TRUCE = 54
    D_SLAYER = 55
    D_SLAYER_PLAY = 56  # (seat, remaining)
    D_TOURNAMENT = 57
    D_RESCUE = 58
    D_KNIGHTING = 59  # (decider, quest)
    D_WITCH4 = 19  # (seat)
    D_FREE_CARD = 18  # (seat, captive)
    GAHERIS_TAKE = 80
    BEDIVERE_DRAW = 81
    AMBUSH_AFTER = 82  # (seat, destination)
    CALL_RESOLVE = 83  # (caller)


CHANCE_TASKS = frozenset(t for t in T if t.name.startswith("C_"))
#: Travel card kinds (Merlin's Company), in the order of ``cards.TRAVEL_KEYS``.
NOTHING, VISION, MERLIN_TRAVELS, LOST, AMBUSHED, CHARGED, CAPTURED = range(7)
TRAVEL_COUNTS = (3, 1, 5, 2, 2, 2, 1)
#: Bits of the persistent Morgan's Witch cards on the table.
WITCH_NO_SACRIFICE = 1  # witch 2: until a quest is won
WITCH_DOUBLE_ACCUSE = 2  # witch 5: for the rest of the game
WITCH_MERLIN_GONE = 4  # witch 6: for the rest of the game
WITCH_ABSENT_PAY = 8  # witch 7: until the next lost quest
WITCH_BITS = ((2, WITCH_NO_SACRIFICE), (5, WITCH_DOUBLE_ACCUSE), (6, WITCH_MERLIN_GONE),
              (7, WITCH_ABSENT_PAY))
#: A "?" Fight card on a board or in a fight is ``FIGHT_ANY + VALUE_BASE * value``.
VALUE_BASE = 64
DECISION_TASKS = frozenset(t for t in T if t.name.startswith("D_"))


class Purpose(enum.IntEnum):
    """Why a card is drawn."""

    HAND = 0  # white: into the seat's hand
    OFFER = 1  # white: revealed for sharing
    PLAY = 2  # black: the drawer plays it
    CHAIN = 3  # black: played in Morgan's chain (SOC-B-MORGAN-3)
    HELD = 4  # black: held privately (Armor, Clairvoyance, Percival)
    PEEK = 5  # black: Percival looks at it


class Heroic:
    """Bits of the five heroic action types (SOC-HERO-1); a turn may not repeat one.

    Plain ``int`` constants rather than an ``IntFlag``: flag arithmetic on enums is slow
    on the hot path of ``legal_actions``.
    """

    MOVE = 1
    QUEST = 2
    SPECIAL = 4
    HEAL = 8
    ACCUSE = 16
    NAMES = ((1, "move"), (2, "quest"), (4, "special"), (8, "heal"), (16, "accuse"))


class TurnFlag:
    """Bits of the things done this turn (plain ints, see :class:`Heroic`)."""

    SACRIFICED = 1
    TRISTAN_FREE = 2
    GALAHAD_FREE = 4
    ARTHUR_USED = 8
    PEEKED = 16
    SKIP_HEROIC = 32
    PERC_ARMOR = 64  # Percival used the Armor while peeking: his draw is the known top card
    GAHERIS = 128
    BEDIVERE = 256
    CARADOC = 512
    MERLIN_DRAWN = 1024


class SocData(State):
    """All the fields of a Shadows over Camelot position (see the module docstring)."""

    __slots__ = (
        "_narration_memo",
        "log",  # a list only on narration's dry run (see Notes above), else None
        "n",
        "knight",
        "life",
        "loc",
        "status",
        "loyalty",
        "accused",
        "loyalty_shown",
        "hands",
        "known",
        "excalibur_owner",
        "grail_owner",
        "armor_owner",
        "white_deck",
        "white_discard",
        "black_deck",
        "black_top",
        "black_bottom",
        "black_discard",
        "black_discard_unseen",
        "limbo",
        "bk_white",
        "bk_black",
        "ld_white",
        "ld_black",
        "ld_phase",
        "excal_pos",
        "excal_over",
        "grail_white",
        "grail_black",
        "grail_over",
        "dark_forest",
        "war_white",
        "war_figures",
        "mordred",
        "heroism",
        "vivien",
        "mist",
        "white_swords",
        "black_swords",
        "siege",
        "turn_seat",
        "first_seat",
        "turns",
        "actions_left",
        "used_types",
        "turn_flags",
        "agenda",
        "offer",
        "offer_eligible",
        "offer_giver",
        "contrib",
        "siege_cards",
        "siege_die",
        "kay_bonus",
        "pledges",
        "cancelled",
        "held",
        "held_seat",
        "picks",
        "answered",
        "volunteer",
        "doomed",
        "result",
        "end_reason",
        "merlin_loc",
        "travel_deck",
        "travel_discard",
        "black_removed",
        "white_removed",
        "witches",
        "divine_favor",
        "captured",
        "seat_order",
        "siege_won",
    )

    game: SocGame
    #: The notes of narration's dry run of an action (``view.narrate``); ``None`` otherwise.
    log: list[Note] | None

    def _init_data(self, n: int, white: list[int], black: list[int]) -> None:
        self.log = None
        self.n = n
        self.knight = [-1] * n
        self.life = [4] * n
        self.loc = [0] * n
        self.status = [0] * n
        self.loyalty = [-1] * n
        self.accused = [False] * n
        # A loyalty card shown to every player: an accused knight's (SOC-ACCUSE-2).
        self.loyalty_shown = [False] * n
        self.hands = [[0] * NUM_WHITE for _ in range(n)]
        # known[(s, p)]: white cards seat s knows seat p holds (count vector).
        self.known: dict[tuple[int, int], list[int]] = {}
        self.excalibur_owner = -1
        self.grail_owner = -1
        self.armor_owner = -1
        self.white_deck = white
        self.white_discard = [0] * NUM_WHITE
        self.black_deck = black
        self.black_top: list[int] = []  # known cards above the unordered middle; [-1] is the top
        self.black_bottom: list[int] = []  # known cards below it; [0] is drawn first
        self.black_discard = [0] * NUM_BLACK
        # The part of black_discard that went there never shown (SOC-RULING-65).
        self.black_discard_unseen = [0] * NUM_BLACK
        self.limbo: list[int] = []  # black cards drawn and not yet placed or discarded
        self.bk_white: list[int] = []
        self.bk_black: list[int] = []
        self.ld_white: list[int] = []
        self.ld_black: list[int] = []
        self.ld_phase = 0  # 0 Lancelot, 1 Dragon, 2 both over
        self.excal_pos = 0
        self.excal_over = False
        self.grail_white = 0
        self.grail_black: list[int] = []
        self.grail_over = False
        self.dark_forest = False
        self.war_white: list[list[int]] = [[], []]  # Picts, Saxons
        self.war_figures = [0, 0]
        self.mordred = -1  # 0 Picts, 1 Saxons
        self.heroism = -1  # location holding the Heroism card
        self.vivien = False
        self.mist = False
        self.white_swords = 0
        self.black_swords = 0
        self.siege = 0
        self.turn_seat = -1
        self.first_seat = 0
        self.turns = 0
        self.actions_left = 0
        self.used_types = 0
        self.turn_flags = 0
        self.agenda: list[Task] = []
        self.offer: list[int] = []
        self.offer_eligible: list[int] = []
        self.offer_giver = -1
        self.contrib = [-1] * n
        self.siege_cards: list[int] = []
        self.siege_die = 0
        self.kay_bonus = 0
        self.pledges: list[int] = []  # seats, one entry per pledged Merlin
        self.cancelled = False
        self.held: list[int] = []
        self.held_seat = -1
        self.picks: list[int] = []
        self.answered: list[int] = []
        self.volunteer = -1
        self.doomed = -1
        self.result = 0
        self.end_reason = 0
        self.merlin_loc = -1  # the Merlin figure (MC-MERLIN): not in play yet
        self.travel_deck = list(TRAVEL_COUNTS) if self.game.expansion else [0] * 7
        self.travel_discard = [0] * 7
        self.black_removed = [0] * NUM_BLACK  # cards out of the game (MC-PLAYED-BLACK)
        self.white_removed = [0] * NUM_WHITE  # Merlins gone for good (Morgan's Witch 6)
        self.witches = 0
        self.divine_favor = False
        self.captured = [False] * n
        self.seat_order = list(range(n))  # clockwise; a joining player is inserted (VAR-JOIN)
        self.siege_won = False

    # Fields copied by value (ints/bools) and by one-level list copy; used by clone and
    # serialization so that the list of fields is written once.
    SCALARS = (
        "n", "excalibur_owner", "grail_owner", "armor_owner", "ld_phase", "excal_pos",
        "excal_over", "grail_white", "grail_over", "dark_forest", "mordred", "heroism",
        "vivien", "mist", "white_swords", "black_swords", "siege", "turn_seat", "first_seat",
        "turns", "actions_left", "used_types", "turn_flags", "offer_giver", "siege_die",
        "kay_bonus", "cancelled", "held_seat", "volunteer", "doomed", "result", "end_reason",
        "merlin_loc", "witches", "divine_favor", "siege_won",
    )
    FLAT_LISTS = (
        "knight", "life", "loc", "status", "loyalty", "accused", "loyalty_shown", "white_deck",
        "white_discard", "black_deck", "black_top", "black_bottom", "black_discard",
        "black_discard_unseen", "limbo", "bk_white", "bk_black", "ld_white", "ld_black",
        "grail_black", "war_figures", "agenda", "offer", "offer_eligible", "contrib",
        "siege_cards", "pledges", "held", "picks", "answered", "travel_deck", "travel_discard",
        "black_removed", "white_removed", "captured", "seat_order",
    )

    def note(self, kind: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        """Record a change the table sees, if an action is being narrated (see Notes)."""
        if self.log is not None:
            self.log.append((kind, a, b, c))
