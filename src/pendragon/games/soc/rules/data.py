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

from typing import TYPE_CHECKING, ClassVar, Final

from pendragon.core.api import State
from pendragon.games.soc.rules.cards import NUM_BLACK, NUM_WHITE

if TYPE_CHECKING:  # named in SocData's base, State["SocGame"]
    from pendragon.games.soc.rules.game import SocGame  # noqa: F401

FACE_DOWN_BASE: Final = 64
KNOWN_BASE: Final = 64
#: A relic's owner field: still on its quest, or out of the game (lost, used, owner dead).
ON_QUEST: Final = -1
GONE: Final = -2

Task = tuple[int, int, int, int]
#: A change the table sees, recorded while narrating: ``(kind, a, b, c)``, kinds below.
Note = tuple[int, int, int, int]
#: A quest ends: (location, won 0/1).
NOTE_QUEST: Final = 1
#: A knight's life changes: (seat, change).
NOTE_LIFE: Final = 2
#: A knight dies: (seat,).
NOTE_DIES: Final = 3
#: Swords laid (or taken away) on the Round Table: (white, black).
NOTE_SWORDS: Final = 4
#: White swords turned black (a false accusation, SOC-ACCUSE-3; the end, SOC-TRAITOR-3):
#: (count,).
NOTE_TURNED: Final = 5
#: Siege engines added or removed: (change,).
NOTE_SIEGE: Final = 6
#: A relic changes hands: (relic index in :data:`RELIC_KEYS`, old owner, new owner).
NOTE_RELIC: Final = 7
#: A black card read out to the table (SOC-EVIL-2): (drawer, kind).
NOTE_READ: Final = 8
#: A traitor still hidden when the game ends shows himself (SOC-TRAITOR-3): (seat,).
NOTE_TRAITOR: Final = 9
#: The game ends (SOC-END-1, SOC-END-2): (result, reason).
NOTE_OVER: Final = 10
#: A black card laid face down on a combat quest is turned face up at its end (SOC-BK-2,
#: SOC-RULING-34): (kind,).
NOTE_SHOWN: Final = 11
#: The relics, in the order the observation and the narration list them.
RELIC_KEYS: Final = ("excalibur", "grail", "armor")
EXCALIBUR_RELIC, GRAIL_RELIC, ARMOR_RELIC = 0, 1, 2


class Status:
    """Where a seat's knight stands in the game."""

    IN_PLAY: Final = 0
    DEAD: Final = 1
    UNMASKED: Final = 2


class Loyalty:
    """A loyalty card."""

    UNDEALT: Final = -1
    LOYAL: Final = 0
    TRAITOR: Final = 1


class Result:
    """How the game ended."""

    RUNNING: Final = 0
    LOYAL_WIN: Final = 1
    EVIL_WIN: Final = 2


class EndReason:
    """Why the game ended (for statistics)."""

    NONE: Final = 0
    SWORDS: Final = 1  # 12 swords laid, counted
    SIEGE: Final = 2  # 12 siege engines
    BLACK_SWORDS: Final = 3  # 7 black swords
    ALL_DEAD: Final = 4  # every loyal knight dead
    EXHAUSTED: Final = 5  # the round cap (SOC-RULING-45)
    # every knight still acting is captured, none can free him (MC-RULING-14)
    ALL_CAPTURED: Final = 6


def constants(codes: type) -> dict[str, int]:
    """The names and values of a class of code constants, in their order (``T``...).

    >>> constants(Result)
    {'RUNNING': 0, 'LOYAL_WIN': 1, 'EVIL_WIN': 2}
    """
    return {name: value for name, value in vars(codes).items()
            if name.isupper() and isinstance(value, int)}


#: Each end reason's name in the observation and the catalogs (``soc.end.<name>``).
END_REASON_KEYS: Final = tuple(
    "" if value == EndReason.NONE else name.lower().replace("_", "-")
    for name, value in constants(EndReason).items()
)


class T:
    """Agenda task codes. ``C_`` tasks are chance nodes, ``D_`` decisions, others automatic."""

    # chance
    C_KNIGHT: Final = 1
    C_LOYALTY: Final = 2
    C_WHITE: Final = 3  # (seat, purpose)
    C_BLACK: Final = 4  # (seat, purpose)
    C_DIE: Final = 5  # (seat)
    C_HANDCARD: Final = 6  # (victim, thief)
    C_DEAL: Final = 7  # (seat): an offered card dealt face down (share="random")
    # decisions
    D_CONTRIB: Final = 20
    D_SHARE: Final = 21
    D_EVIL: Final = 22
    D_HEROIC: Final = 23
    D_FACE: Final = 24  # (seat, card, quest)
    D_ARMOR: Final = 25  # (seat, purpose)
    D_PERC_BOTTOM: Final = 26
    D_POOL: Final = 27  # (seat, card)
    D_EXCAL: Final = 28  # (owner, card)
    D_WAR_TARGET: Final = 29  # (seat, card)
    D_GRAIL: Final = 30  # (owner, dying)
    D_SIEGE: Final = 31
    D_KAY: Final = 32  # (kay, quest or -1 for a siege fight)
    D_MERLIN: Final = 33
    D_HEROISM: Final = 34
    D_PIETY: Final = 35
    D_REINF: Final = 36
    D_FATE: Final = 37
    D_MSG_TARGET: Final = 38
    D_MSG_CARD: Final = 39  # (seat, target, given)
    D_ARTHUR_TARGET: Final = 40
    D_ARTHUR_CARD: Final = 41  # (arthur, target)
    D_ARTHUR_RETURN: Final = 42  # (target, arthur)
    D_CLAIRV: Final = 43
    D_CONVOKE: Final = 44  # (seat, player)
    D_VOLUNTEER: Final = 45  # (seat, morgan card)
    D_DISCARD: Final = 46  # (seat, remaining)
    D_TRAITOR_TARGET: Final = 47
    D_TRAITOR_EVIL: Final = 48
    # automatic
    START_TURN: Final = 60
    END_TURN: Final = 61
    BLACK_AFTER_POOL: Final = 62  # (card, seat)
    BLACK_RESOLVE: Final = 63  # (card, seat)
    DYING: Final = 64
    QUEST_CHECK: Final = 65  # (quest, finisher, 1 + the seat whose black card ended it, or 0)
    COMBAT_COMPARE: Final = 66  # (quest, finisher, the same)
    SHARE_NEXT: Final = 67
    SIEGE_RESOLVE: Final = 68
    CONVOKE_RESOLVE: Final = 69
    MORGAN_FALLBACK: Final = 70  # (card, drawer)
    CHAIN_DRAW: Final = 71  # (seat)
    REVEAL_CONTRIB: Final = 72
    DRAW_BLACK: Final = 73  # (seat, purpose)
    SETUP_MERLIN: Final = 74  # (seat)
    EXCAL_OFFER: Final = 75  # (card, seat)
    CLAIRV_DRAW: Final = 76  # (seat, remaining)
    ARMOR_SECOND: Final = 77  # (seat, purpose)
    PERC_ARMOR_SECOND: Final = 78
    SETUP_CONTRIB: Final = 79
    # Merlin's Company and the optional rules
    C_TRAVEL: Final = 8  # (seat, destination)
    D_LAMORAK: Final = 49  # (seat, life still to lose)
    D_VALUE: Final = 50  # (seat, context, location)
    D_TRAVEL: Final = 51  # (seat, travel card, destination)
    D_CALL: Final = 52  # (seat, caller)
    D_DISPEL: Final = 53
    D_TRUCE: Final = 54
    D_SLAYER: Final = 55
    D_SLAYER_PLAY: Final = 56  # (seat, remaining)
    D_TOURNAMENT: Final = 57
    D_RESCUE: Final = 58
    D_KNIGHTING: Final = 59  # (decider, quest)
    D_WITCH4: Final = 19  # (seat)
    D_FREE_CARD: Final = 18  # (seat, captive)
    D_BORS_DEAL: Final = 17  # (bors, winner or -1 for a random share, cards): dealt in?
    GAHERIS_TAKE: Final = 80
    BEDIVERE_DRAW: Final = 81
    AMBUSH_AFTER: Final = 82  # (seat, destination)
    CALL_RESOLVE: Final = 83  # (caller)
    JUDGE_END: Final = 84  # the end judged once a lost quest's deaths have landed


#: Each task code's name (``C_KNIGHT``...).
TASK_NAMES: Final = {value: name for name, value in constants(T).items()}
CHANCE_TASKS: Final = frozenset(t for t, name in TASK_NAMES.items() if name.startswith("C_"))
#: Travel card kinds (Merlin's Company), in the order of ``cards.TRAVEL_KEYS``.
NOTHING, VISION, MERLIN_TRAVELS, LOST, AMBUSHED, CHARGED, CAPTURED = range(7)
TRAVEL_COUNTS: Final = (3, 1, 5, 2, 2, 2, 1)
#: Bits of the persistent Morgan's Witch cards on the table.
WITCH_NO_SACRIFICE: Final = 1  # witch 2: until a quest is won
WITCH_DOUBLE_ACCUSE: Final = 2  # witch 5: for the rest of the game
WITCH_MERLIN_GONE: Final = 4  # witch 6: for the rest of the game
WITCH_ABSENT_PAY: Final = 8  # witch 7: until the next lost quest
WITCH_BITS: Final = ((2, WITCH_NO_SACRIFICE), (5, WITCH_DOUBLE_ACCUSE), (6, WITCH_MERLIN_GONE),
                     (7, WITCH_ABSENT_PAY))
#: A "?" Fight card on a board or in a fight is ``FIGHT_ANY + VALUE_BASE * value``.
VALUE_BASE: Final = 64
DECISION_TASKS: Final = frozenset(t for t, name in TASK_NAMES.items() if name.startswith("D_"))
#: The kinds of task are ranges of codes: chance below ``FIRST_DECISION``, decisions below
#: ``FIRST_AUTO``, automatic steps from it (the agenda's loop tests a range, not a set).
FIRST_DECISION: Final = 17
FIRST_AUTO: Final = 60
if not (
    max(CHANCE_TASKS) < FIRST_DECISION == min(DECISION_TASKS)
    and max(DECISION_TASKS) < FIRST_AUTO <= min(set(TASK_NAMES) - CHANCE_TASKS - DECISION_TASKS)
):
    raise AssertionError("a task code lies outside the range of its kind")


class Purpose:
    """Why a card is drawn."""

    HAND: Final = 0  # white: into the seat's hand
    OFFER: Final = 1  # white: revealed for sharing
    PLAY: Final = 2  # black: the drawer plays it
    CHAIN: Final = 3  # black: played in Morgan's chain (SOC-B-MORGAN-3)
    HELD: Final = 4  # black: held privately (Armor, Clairvoyance, Percival)
    PEEK: Final = 5  # black: Percival looks at it


class Heroic:
    """Bits of the five heroic action types (SOC-HERO-1); a turn may not repeat one.

    Plain ``int`` constants rather than an ``IntFlag``: flag arithmetic on enums is slow
    on the hot path of ``legal_actions``.
    """

    MOVE: Final = 1
    QUEST: Final = 2
    SPECIAL: Final = 4
    HEAL: Final = 8
    ACCUSE: Final = 16
    NAMES: Final = ((1, "move"), (2, "quest"), (4, "special"), (8, "heal"), (16, "accuse"))


class TurnFlag:
    """Bits of the things done this turn (plain ints, see :class:`Heroic`)."""

    SACRIFICED: Final = 1
    TRISTAN_FREE: Final = 2
    GALAHAD_FREE: Final = 4
    ARTHUR_USED: Final = 8
    PEEKED: Final = 16
    SKIP_HEROIC: Final = 32
    PERC_ARMOR: Final = 64  # Percival used the Armor while peeking: his draw is the known top card
    GAHERIS: Final = 128
    BEDIVERE: Final = 256
    CARADOC: Final = 512
    MERLIN_DRAWN: Final = 1024
    CAMELOT_ACTED: Final = 2048  # drew or fought at Camelot: he stays (SOC-RULING-76)


class SocData(State["SocGame"]):
    """All the fields of a Shadows over Camelot position (see the module docstring)."""

    #: The notes of narration's dry run of an action (``view.narrate``); ``None`` otherwise.
    log: list[Note] | None
    #: The seats whose hand list this state may share with a clone (see ``own_hand``);
    #: all bits set (-1) right after a clone.
    hands_shared: int = 0

    def _init_data(self, n: int, white: list[int], black: list[int]) -> None:
        # The fields that change seldom during play are tuples: a clone shares them (it is
        # on every search step's path), and a change replaces the tuple (see ``replaced``).
        self.log = None
        self.n = n
        self.knight = [-1] * n
        self.life = [4] * n
        self.loc: tuple[int, ...] = (0,) * n
        self.status: tuple[int, ...] = (0,) * n
        self.loyalty = [-1] * n
        self.accused: tuple[bool, ...] = (False,) * n
        # A loyalty card shown to every player: an accused knight's (SOC-ACCUSE-2).
        self.loyalty_shown: tuple[bool, ...] = (False,) * n
        self.hands = [[0] * NUM_WHITE for _ in range(n)]
        self.hands_shared = 0
        # known[(s, p)]: white cards seat s knows seat p holds (count vector; tuples, which
        # a clone shares: a change replaces the vector).
        self.known: dict[tuple[int, int], tuple[int, ...]] = {}
        self.excalibur_owner = -1
        self.grail_owner = -1
        self.armor_owner = -1
        self.white_deck = white
        self.white_discard = [0] * NUM_WHITE
        self.black_deck: tuple[int, ...] = tuple(black)
        # known cards above the unordered middle; [-1] is the top
        self.black_top: tuple[int, ...] = ()
        self.black_bottom: tuple[int, ...] = ()  # known cards below it; [0] is drawn first
        self.black_discard: tuple[int, ...] = (0,) * NUM_BLACK
        # The part of black_discard that went there never shown (SOC-RULING-65).
        self.black_discard_unseen = [0] * NUM_BLACK
        # black cards drawn and not yet placed or discarded
        self.limbo: tuple[int, ...] = ()
        self.bk_white: tuple[int, ...] = ()
        self.bk_black: tuple[int, ...] = ()
        self.ld_white: tuple[int, ...] = ()
        self.ld_black: tuple[int, ...] = ()
        self.ld_phase = 0  # 0 Lancelot, 1 Dragon, 2 both over
        self.excal_pos = 0
        self.excal_over = False
        self.grail_white = 0
        self.grail_black: tuple[int, ...] = ()
        self.grail_over = False
        self.dark_forest = False
        self.war_white: tuple[tuple[int, ...], ...] = ((), ())  # Picts, Saxons
        self.war_figures: tuple[int, ...] = (0, 0)
        self.mordred = -1  # 0 Picts, 1 Saxons
        self.heroism = -1  # location holding the Heroism card
        # SOC-RULING-72: on a solo quest, the seat whose leaving it discards Heroism (the
        # knight on that quest when it was laid, else its layer); -1 elsewhere
        self.heroism_bound = -1
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
        self.offer: tuple[int, ...] = ()
        self.offer_eligible: tuple[int, ...] = ()
        self.offer_giver = -1
        self.contrib: tuple[int, ...] = (-1,) * n
        self.siege_cards: tuple[int, ...] = ()
        self.siege_die = 0
        self.kay_bonus = 0
        self.pledges: tuple[int, ...] = ()  # seats, one entry per pledged Merlin
        self.cancelled = False
        self.held: tuple[int, ...] = ()
        self.held_seat = -1
        self.picks: tuple[int, ...] = ()
        self.answered: tuple[int, ...] = ()
        self.volunteer = -1
        self.doomed = -1
        self.result = 0
        self.end_reason = 0
        self.merlin_loc = -1  # the Merlin figure (MC-MERLIN): not in play yet
        self.travel_deck: tuple[int, ...] = TRAVEL_COUNTS if self.game.expansion else (0,) * 7
        self.travel_discard: tuple[int, ...] = (0,) * 7
        # cards out of the game (MC-PLAYED-BLACK)
        self.black_removed: tuple[int, ...] = (0,) * NUM_BLACK
        # Merlins gone for good (Morgan's Witch 6)
        self.white_removed: tuple[int, ...] = (0,) * NUM_WHITE
        self.witches = 0
        self.divine_favor = False
        self.captured: tuple[bool, ...] = (False,) * n
        # clockwise; a joining player is inserted (VAR-JOIN)
        self.seat_order: tuple[int, ...] = tuple(range(n))
        self.siege_won = False
        # SOC-ACCUSE-1 (SOC-RULING-5): six siege engines have stood at Camelot at some
        # moment; accusations stay open once they have, whatever the engines do after.
        self.siege_reached_six = False

    # The scalar fields (ints/bools) and the flat sequences (lists, or the tuples of
    # TUPLES); used by serialization so that the list of fields is written once.
    SCALARS: ClassVar[tuple[str, ...]] = (
        "n", "excalibur_owner", "grail_owner", "armor_owner", "ld_phase", "excal_pos",
        "excal_over", "grail_white", "grail_over", "dark_forest", "mordred", "heroism",
        "heroism_bound", "vivien", "mist", "white_swords", "black_swords", "siege", "turn_seat",
        "first_seat",
        "turns", "actions_left", "used_types", "turn_flags", "offer_giver", "siege_die",
        "kay_bonus", "cancelled", "held_seat", "volunteer", "doomed", "result", "end_reason",
        "merlin_loc", "witches", "divine_favor", "siege_won", "siege_reached_six",
    )
    FLAT_LISTS: ClassVar[tuple[str, ...]] = (
        "knight", "life", "loc", "status", "loyalty", "accused", "loyalty_shown", "white_deck",
        "white_discard", "black_deck", "black_top", "black_bottom", "black_discard",
        "black_discard_unseen", "limbo", "bk_white", "bk_black", "ld_white", "ld_black",
        "grail_black", "war_figures", "agenda", "offer", "offer_eligible", "contrib",
        "siege_cards", "pledges", "held", "picks", "answered", "travel_deck", "travel_discard",
        "black_removed", "white_removed", "captured", "seat_order",
    )

    #: The fields above that are tuples (shared by clones, replaced on change).
    TUPLES: ClassVar[frozenset[str]] = frozenset((
        "loc", "status", "accused", "loyalty_shown", "black_deck", "black_top", "black_bottom",
        "black_discard", "limbo", "bk_white", "bk_black", "ld_white", "ld_black", "grail_black",
        "war_figures", "offer", "offer_eligible", "contrib", "siege_cards", "pledges", "held",
        "picks", "answered", "travel_deck", "travel_discard", "black_removed", "white_removed",
        "captured", "seat_order",
    ))

    def own_hand(self, seat: int) -> list[int]:
        """``seat``'s hand, to be changed in place (always through this).

        A clone shares the hands' lists with its original (``hands_shared``, a bit per
        seat, is set in both): the first change to a shared hand copies it.
        """
        hand = self.hands[seat]
        if self.hands_shared >> seat & 1:
            hand = hand[:]
            self.hands[seat] = hand
            self.hands_shared &= ~(1 << seat)
        return hand

    def note(self, kind: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        """Record a change the table sees, if an action is being narrated (see Notes)."""
        if self.log is not None:
            self.log.append((kind, a, b, c))
