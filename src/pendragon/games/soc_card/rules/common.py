"""What every rules module shares: results, event helpers, and small reads of the state.

Events for the narration are recorded with :func:`note` and :func:`note_private`, only while
a narration is being computed (``state.log`` is a list), so random playouts pay nothing for
them; callers build an event's terms only under ``if st.log is not None``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from pendragon.core.events import Event, Seat, Term
from pendragon.games.soc_card.rules import tasks as T
from pendragon.games.soc_card.rules.cards import (
    CARDS,
    KNIGHT_KEYS,
    LOYALTY_KEYS,
    NUM_KINDS,
    QUESTS,
)

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState

NUM_KNIGHTS: Final = len(KNIGHT_KEYS)
#: Swords on the table needed before anyone may accuse (SCG-ACCUSE-1).
ACCUSE_MIN_SWORDS: Final = 4
#: Swords of one colour that end the game (SCG-END-1).
END_SWORDS: Final = 7
#: Results.
RUNNING: Final = 0
LOYAL_WIN: Final = 1
EVIL_WIN: Final = 2
#: Why the game ended.
END_NONE: Final = 0
END_SWORDS_REASON: Final = 1
END_MORGAN_7: Final = 2


# ---------------------------------------------------------------------- terms and events
def card_term(kind: int) -> Term:
    """The catalog term of a rumor card."""
    return Term(f"soc-card.card.{CARDS[kind].key}")


def quest_term(quest: int) -> Term:
    """The catalog term of a quest."""
    return Term(f"soc-card.quest.{QUESTS[quest]}")


def loyalty_term(loyalty: int) -> Term:
    """The catalog term of a loyalty card."""
    return Term(f"soc-card.loyalty.{LOYALTY_KEYS[loyalty]}")


def knight_term(knight: int) -> Term:
    """The catalog term of a Knight card."""
    return Term(f"soc-card.knight.{KNIGHT_KEYS[knight]}")


def note(st: SocCardState, key: str, **params: int | Seat | Term | Event) -> None:
    """Record a public event (only while narrating)."""
    if st.log is not None:
        st.log.append((Event(key, params), 0, None))


def note_private(
    st: SocCardState, seats: int, private: Event, others: Event | None
) -> None:
    """Record ``private`` for the seats in bitmask ``seats``, ``others`` for everyone else."""
    if st.log is not None:
        st.log.append((private, seats, others))


def note_secret(st: SocCardState, seat: int, key: str, **secret: Term) -> None:
    """Record what ``seat`` alone learns: ``<key>-known`` with ``secret`` for him, ``key``
    (who, not what) for everyone else. Callers test ``st.log`` first, so that no term is
    made outside narration."""
    if st.log is not None:
        who = Seat(seat)
        st.log.append((Event(f"{key}-known", {"seat": who, **secret}), 1 << seat,
                       Event(key, {"seat": who})))


# ---------------------------------------------------------------------- reads and moves
def holds(st: SocCardState, seat: int, knight: int) -> bool:
    """Whether ``seat`` holds a Knight card ``knight``."""
    return st.knights[seat * NUM_KNIGHTS + knight] > 0


def knight_count(st: SocCardState, seat: int) -> int:
    """How many face-down Knight cards lie in front of ``seat`` (public)."""
    base = seat * NUM_KNIGHTS
    return sum(st.knights[base : base + NUM_KNIGHTS])


def can_draw(st: SocCardState) -> bool:
    """Whether a rumor card can be drawn (deck, or a discard pile to reshuffle)."""
    return bool(st.known) or st.deck_size > 0 or st.discard_size > 0 or bool(st.hidden_discard)


def top_allows(st: SocCardState) -> tuple[int, ...]:
    """The quests the top card of the threat pile lets a player go on (SCG-QUEST-1)."""
    if not st.pile:
        return ()
    told = st.pile_down[-1]
    if told >= 0:
        return (CARDS[told].quest,)  # SCG-MORGAN-1: the announced card's quest, true or not
    return CARDS[st.pile[-1]].allows


def push_asks(st: SocCardState, code: int, first: int, skip: int = -1, b: int = 0) -> None:
    """Ask every seat with a face-down Knight card, in turn order from ``first``.

    Only seats with a Knight card in front of them are asked (that number is public), and
    each is asked whether or not it holds the card in question, so being asked reveals
    nothing (SCG-RULING-18). Gawain's questions come in rounds: each Gawain played asks
    a new round from the quester (:func:`.knights.answer`), until one passes in silence.
    """
    if not st.expert:
        return
    seats = [(first + i) % st.n for i in range(st.n)]
    for seat in reversed(seats):
        if seat != skip and knight_count(st, seat) > 0:
            st.agenda.append(T.task(code, seat, b))


def discard_pile(st: SocCardState, set_aside: Sequence[int] = ()) -> None:
    """Clear the threat pile, and ``set_aside`` (the cards its Merlins set aside), onto the
    discard pile (SCG-QUEST-10, SCG-RULING-3)."""
    for kind in [*st.pile, *set_aside]:
        st.discard[kind] += 1
        st.discard_size += 1
    st.pile.clear()
    st.pile_down.clear()
    st.pile_by.clear()
    refill_deck(st)


def discard_hand(st: SocCardState) -> None:
    """The held cards go face down onto the discard pile, seen only by their holder."""
    for kind in st.hold:
        st.hidden_discard.append(kind)
        st.hidden_seen.append(1 << st.hold_seat)
    st.hold.clear()
    st.hold_seat = -1
    refill_deck(st)


def refill_deck(st: SocCardState) -> bool:
    """SCG-QUEST-10: a rumor deck that has run out (no card left in it, none in an order
    Tristan saw) is rebuilt from the discard pile as soon as there is one: when its last
    card is drawn, or when cards are discarded while it is out. Whether it was rebuilt."""
    if st.deck_size == 0 and not st.known and (st.discard_size > 0 or st.hidden_discard):
        reshuffle(st)
        return True
    return False


def reshuffle(st: SocCardState) -> None:
    """The discard pile becomes the rumor deck (SCG-QUEST-10)."""
    for kind in range(NUM_KINDS):
        st.deck[kind] += st.discard[kind]
        st.discard[kind] = 0
    for kind in st.hidden_discard:
        st.deck[kind] += 1
    st.deck_size += st.discard_size + len(st.hidden_discard)
    st.discard_size = 0
    st.hidden_discard.clear()
    st.hidden_seen.clear()
    note(st, "soc-card.log.reshuffle")


def forget_order(st: SocCardState) -> None:
    """Shuffling the deck loses the order Tristan saw (SCG-RULING-20)."""
    for kind in st.known:
        st.deck[kind] += 1
    st.deck_size += len(st.known)
    st.known.clear()
    st.known_seen.clear()
