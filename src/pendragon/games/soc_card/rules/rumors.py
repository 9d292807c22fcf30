"""Listening to rumors and the threat pile: drawing, laying cards face up or (Morgan #1)
face down, what a card does when it is revealed (Morgan, Merlin, Vivien), Morgan #2's count,
Merlin #4's token, Merlin #6's quest, and the unmasked traitor's turn (SCG-LISTEN-*,
SCG-MORGAN-0..2, SCG-MERLIN-0, -4, SCG-ACCUSE-4, SCG-PROMO-2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pendragon.core.events import Seat
from pendragon.games.soc_card.rules import actions as A, tasks as T
from pendragon.games.soc_card.rules.cards import (
    CARDS,
    IS_QUEST,
    MERLIN,
    MERLIN_4,
    MERLIN_6,
    MORGAN,
    MORGAN_KINDS,
    NUM_QUESTS,
    TRAITOR,
    VIVIEN,
)
from pendragon.games.soc_card.rules.common import (
    card_term,
    discard_hand,
    note,
    note_secret,
    quest_term,
    refill_deck,
)
from pendragon.games.soc_card.rules.questing import go_on_quest

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState


# ---------------------------------------------------------------------- laying cards
def lift_morgans(st: SocCardState) -> None:
    """A Merlin revealed: the silence and Morgan #1 and #2 end (SCG-MERLIN-0)."""
    if st.silence:
        note(st, "soc-card.log.silence-ends")
    st.silence = 0
    st.morgan_1 = 0
    st.morgan_2 = 0


def lay_face_up(st: SocCardState, kind: int, seat: int, counted: bool,
                by_turn: bool = True) -> None:
    """A card revealed onto the threat pile, and its effect on reveal (SCG-LISTEN-*).

    ``counted``: the card was laid by a listen, and Morgan #2 makes its layer say its number
    aloud (SCG-MORGAN-2, SCG-RULING-12; an unmasked traitor does not listen: SCG-RULING-10).
    ``by_turn``: laid by a listen or an unmasked traitor's turn, so a Merlin #6 sends its
    revealer on a quest (SCG-RULING-26); Gawain's card does not.
    """
    card = CARDS[kind]
    count_it = counted and st.morgan_2 == 1
    st.pile.append(kind)
    st.pile_down.append(-1)
    st.pile_by.append(seat)
    if st.log is not None:
        note(st, "soc-card.log.reveal", seat=Seat(seat), card=card_term(kind))
    if card.kind == MORGAN:
        if not st.silence:
            note(st, "soc-card.log.silence-begins")
        st.silence = 1  # SCG-MORGAN-0
        if card.number == 1:
            st.morgan_1 = 1
        elif card.number == 2:
            st.morgan_2 = 1
    elif card.kind == MERLIN:
        lift_morgans(st)
        count_it = False
        if kind == MERLIN_4:
            st.agenda.append(T.task(T.D_MERLIN_4, seat))
        elif kind == MERLIN_6 and by_turn:
            st.agenda.append(T.task(T.D_MERLIN_6, seat))
    elif card.kind == VIVIEN and not st.solo:
        st.agenda.append(T.task(T.VIVIEN, seat))
    if count_it:
        st.agenda.append(T.task(T.D_COUNT, seat))


def lay_face_down(st: SocCardState, kind: int, seat: int, told: int) -> None:
    """Morgan #1: the card goes face down with the card announced for it (SCG-MORGAN-1)."""
    st.pile.append(kind)
    st.pile_down.append(told)
    st.pile_by.append(seat)
    if st.morgan_2:
        st.agenda.append(T.task(T.D_COUNT, seat))


# ---------------------------------------------------------------------- listening
def listen(st: SocCardState, seat: int) -> None:
    """SCG-LISTEN-1: draw the top rumor card and reveal it (after the turn: the next seat)."""
    if st.log is not None:
        note(st, "soc-card.log.listen", seat=Seat(seat))
    st.agenda.append(T.task(T.NEXT_TURN, seat))
    push_listen(st, seat)


def push_listen(st: SocCardState, seat: int) -> None:
    """The draw of a listen and its laying (also for a quest Arthur stopped)."""
    st.agenda.append(T.task(T.AFTER_LISTEN, seat))
    st.agenda.append(T.task(T.C_DRAW, seat, 0))


def take_drawn(st: SocCardState, seat: int, purpose: int, kind: int) -> None:
    """A drawn rumor card goes to the flight (a listen) or into ``seat``'s hand."""
    if purpose == 0:
        st.flight = kind
        if st.morgan_1 and IS_QUEST[kind] and st.log is not None:
            note_secret(st, seat, "soc-card.log.draw-secret", card=card_term(kind))
    else:
        st.hold.append(kind)
        st.hold_seat = seat
        if st.log is not None:
            note_secret(st, seat, "soc-card.log.draw", card=card_term(kind))
    refill_deck(st)  # the last card drawn: the discards are the new deck (SCG-QUEST-10)


def after_listen(st: SocCardState, seat: int, _b: int) -> None:
    """The drawn card is laid face up, or (Morgan #1) waits to be announced."""
    kind = st.flight
    if kind < 0:
        return
    if st.morgan_1 and IS_QUEST[kind]:
        st.agenda.append(T.task(T.D_ANNOUNCE, seat))  # the card stays in flight
        return
    st.flight = -1
    lay_face_up(st, kind, seat, counted=True)


def draw_card(st: SocCardState, seat: int, purpose: int, action: int) -> None:
    """A rumor card drawn from the deck, to the flight or into a hand."""
    kind = action - A.RUMOR
    st.deck[kind] -= 1
    st.deck_size -= 1
    take_drawn(st, seat, purpose, kind)


def set_aside(st: SocCardState, _a: int, _b: int, action: int) -> None:
    """SCG-SETUP-3: a Morgan leaves the deck, face down."""
    kind = MORGAN_KINDS[action - A.MORGAN_ASIDE]
    st.deck[kind] -= 1
    st.deck_size -= 1
    st.aside[kind] += 1
    note(st, "soc-card.log.morgan-aside")


# ---------------------------------------------------------------------- Morgan #1 and #2
def announce_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """SCG-MORGAN-1, SCG-RULING-6: the card's content — a loyal (or solo) player names the
    card he holds; a traitor may name any quest card."""
    if st.solo or st.loyalty[seat] != TRAITOR:
        return [A.ANNOUNCE_CARD + A.ANNOUNCE_OFFSET[st.flight]]
    return list(range(A.ANNOUNCE_CARD, A.ANNOUNCE_CARD + len(A.ANNOUNCED_KIND)))


def announce(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """Morgan #1: the card goes face down with the card named for it."""
    told = A.ANNOUNCED_KIND[action - A.ANNOUNCE_CARD]
    kind = st.flight
    st.flight = -1
    if st.log is not None:
        note(st, "soc-card.log.announce", seat=Seat(seat), card=card_term(told))
    lay_face_down(st, kind, seat, told)


def say_count(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """Morgan #2: the number the layer said aloud (it changes nothing)."""
    if st.log is not None:
        note(st, "soc-card.log.count", seat=Seat(seat), number=action - A.COUNT + 1)


# ---------------------------------------------------------------------- Merlin #4 and #6
def choose_merlin_4(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-MERLIN-4, SCG-RULING-16: the token lies face down; only its chooser knows it. It
    acts at the next quest: one played through Gawain waits for the quest after the one
    under way (a token already lying, only after the deck was rebuilt, is replaced)."""
    quest = action - A.MERLIN_4
    st.merlin_4_quest = quest
    st.merlin_4_by = seat
    if st.log is not None:
        note_secret(st, seat, "soc-card.log.merlin-4", quest=quest_term(quest))


def choose_merlin_6(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """Merlin #6: the quest its revealer goes on (SCG-PROMO-2)."""
    st.agenda.append(T.task(T.D_MERLIN_6_ADD, seat, action - A.MERLIN_6))


def add_merlin_6(st: SocCardState, seat: int, quest: int, action: int) -> None:
    """SCG-PROMO-2: the revealer goes at once on his quest, adding 0-3 to its total."""
    st.merlin_6_bonus = action - A.MERLIN_6_ADD
    if st.log is not None:
        note(st, "soc-card.log.merlin-6", seat=Seat(seat), quest=quest_term(quest),
             number=st.merlin_6_bonus)
    go_on_quest(st, seat, quest, interruptible=False)


# ---------------------------------------------------------------------- the unmasked traitor
def traitor_turn(st: SocCardState, seat: int) -> None:
    """SCG-ACCUSE-4: an unmasked traitor draws two, lays one face up, discards the other."""
    st.agenda.append(T.task(T.NEXT_TURN, seat))
    st.agenda.append(T.task(T.PLACE_CHECK, seat))
    st.agenda.append(T.task(T.C_DRAW, seat, 1))
    st.agenda.append(T.task(T.C_DRAW, seat, 1))


def place_check(st: SocCardState, seat: int, _b: int) -> None:
    """An unmasked traitor who drew a card chooses which one to lay."""
    if st.hold:  # SCG-RULING-10: with nothing drawn the turn passes
        st.agenda.append(T.task(T.D_PLACE, seat))


def place_card(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """The unmasked traitor lays one card face up and discards the other."""
    kind = action - A.PLACE
    st.hold.remove(kind)
    if st.log is not None:
        note(st, "soc-card.log.traitor-place", seat=Seat(seat))
    discard_hand(st)
    # Face up even under Morgan #1, and no number said under Morgan #2: both bind the player
    # who chooses to listen, and he does not (SCG-RULING-10, SCG-RULING-12).
    lay_face_up(st, kind, seat, counted=False)


# ---------------------------------------------------------------------- menus
def count_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Morgan #2: any number may be said (SCG-MORGAN-2, SCG-RULING-12)."""
    return list(range(A.COUNT, A.COUNT + A.MAX_COUNT))


def place_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """The unmasked traitor lays either card he drew (SCG-ACCUSE-4)."""
    return [A.PLACE + k for k in sorted(set(st.hold))]


def merlin_4_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Merlin #4's token may name any quest (SCG-MERLIN-4)."""
    return list(range(A.MERLIN_4, A.MERLIN_4 + NUM_QUESTS))


def merlin_6_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Merlin #6's revealer may go on any quest (SCG-PROMO-2)."""
    return list(range(A.MERLIN_6, A.MERLIN_6 + NUM_QUESTS))


def merlin_6_add_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Merlin #6 adds 0 to 3 to the quest's total (SCG-PROMO-2)."""
    return list(range(A.MERLIN_6_ADD, A.MERLIN_6_ADD + 4))
