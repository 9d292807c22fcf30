"""The expert variant Knights' relief: Knight cards and the Morgans that return
(SCG-EXPERT-*, SCG-RULING-17..20, -22, -24)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from pendragon.core.events import Event, Seat
from pendragon.games.soc_card.rules import actions as A, tasks as T
from pendragon.games.soc_card.rules.cards import (
    ARTHUR,
    GALAHAD,
    GAWAIN,
    IS_MORGAN,
    MORGAN_KINDS,
    PERCIVAL,
    TRISTAN,
)
from pendragon.games.soc_card.rules.common import (
    NUM_KNIGHTS,
    can_draw,
    card_term,
    discard_hand,
    forget_order,
    holds,
    knight_term,
    loyalty_term,
    note,
    note_private,
    note_secret,
    push_asks,
)
from pendragon.games.soc_card.rules.questing import set_merlins_aside
from pendragon.games.soc_card.rules.rumors import lay_face_up, push_listen, traitor_turn

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState

#: The Knight card each question is about.
_ASKED: Final = {T.D_ARTHUR: ARTHUR, T.D_GAWAIN: GAWAIN, T.D_PERCIVAL: PERCIVAL}


def use_knight(st: SocCardState, seat: int, knight: int) -> None:
    """A Knight card is played once, then discarded face up (SCG-RULING-17)."""
    st.knights[seat * NUM_KNIGHTS + knight] -= 1
    st.knights_played[knight] += 1
    if st.log is not None:
        note(st, "soc-card.log.play-knight", seat=Seat(seat), knight=knight_term(knight))


def turn_actions(st: SocCardState, seat: int) -> list[int]:
    """Tristan and Galahad: entries of their owner's turn menu (SCG-RULING-18)."""
    actions: list[int] = []
    if holds(st, seat, TRISTAN):
        actions.append(A.PLAY + TRISTAN)
    if holds(st, seat, GALAHAD) and not st.solo:  # SCG-RULING-25: no loyalty cards solo
        actions += [A.GALAHAD + t for t in range(st.n) if t != seat and st.revealed[t] != 1]
    return actions


def tristan(st: SocCardState, seat: int, *, unmasked: bool = False) -> None:
    """SCG-EXPERT-4, SCG-RULING-20: the whole deck's order is fixed and seen; the turn goes
    on (an unmasked traitor's: his draw, SCG-RULING-10)."""
    use_knight(st, seat, TRISTAN)
    st.known_seen[:] = [mask | (1 << seat) for mask in st.known_seen]
    if st.log is not None:
        note_private(st, 1 << seat, Event("soc-card.log.tristan-known", {
            "seat": Seat(seat), "count": len(st.known)}), None)
    if unmasked:
        traitor_turn(st, seat)
    else:
        st.agenda.append(T.task(T.D_TURN, seat))
    st.agenda.append(T.task(T.C_TRISTAN, seat))


def traitor_tristan(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-EXPERT-4, SCG-RULING-10: an unmasked traitor may play Tristan before his draw."""
    if action == A.PASS:
        if st.log is not None:
            note(st, "soc-card.log.pass", seat=Seat(seat))
        traitor_turn(st, seat)
    else:
        tristan(st, seat, unmasked=True)


def galahad(st: SocCardState, seat: int, target: int) -> None:
    """SCG-EXPERT-8: look at one player's loyalty card, instead of an action."""
    use_knight(st, seat, GALAHAD)
    st.peeks[seat] |= 1 << target
    if st.log is not None:
        note_private(
            st, 1 << seat,
            Event("soc-card.log.galahad-known", {"seat": Seat(seat), "target": Seat(target),
                                                 "loyalty": loyalty_term(st.loyalty[target])}),
            Event("soc-card.log.galahad", {"seat": Seat(seat), "target": Seat(target)}),
        )
    st.agenda.append(T.task(T.NEXT_TURN, seat))


def ask_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Arthur, Gawain or Percival: play the card if held (and usable), or pass."""
    knight = _ASKED[st.agenda[-1] & 0xFF]
    usable = holds(st, seat, knight)
    if knight in (ARTHUR, GAWAIN):  # SCG-RULING-18: only with a card left to draw
        usable = usable and can_draw(st)
    return [A.PLAY + knight, A.PASS] if usable else [A.PASS]


def answer(st: SocCardState, seat: int, quester: int, action: int) -> None:
    """The answer to a question about a Knight card: pass, or play it."""
    if action == A.PASS:
        if st.log is not None:
            note(st, "soc-card.log.pass", seat=Seat(seat))
        return
    knight = action - A.PLAY
    use_knight(st, seat, knight)
    agenda = st.agenda
    if knight == ARTHUR:  # SCG-EXPERT-5: the quester listens instead
        while agenda and agenda[-1] & 0xFF != T.RESOLVE:
            agenda.pop()
        agenda.pop()
        push_listen(st, quester)
        if st.log is not None:
            note(st, "soc-card.log.arthur", seat=Seat(seat), target=Seat(quester))
    elif knight == GAWAIN:  # SCG-EXPERT-6: the moment lasts until the swords are laid
        # SCG-RULING-18: his card ends the round of questions; once it is in the pile, a
        # new round asks everyone again from the quester (himself too: a second Gawain),
        # and the swords wait for a round in which nobody plays.
        while agenda and agenda[-1] & 0xFF == T.D_GAWAIN:
            agenda.pop()
        push_asks(st, T.D_GAWAIN, quester, b=quester)
        agenda.append(T.task(T.GAWAIN_CHECK, seat))
        agenda += [T.task(T.C_DRAW, seat, 1)] * 3
    else:
        st.percival = 1  # SCG-EXPERT-9


def gawain_check(st: SocCardState, seat: int, _b: int) -> None:
    """SCG-EXPERT-7: Gawain picks a drawn card that is no Morgan, if any."""
    if any(not IS_MORGAN[k] for k in st.hold):
        st.agenda.append(T.task(T.D_GAWAIN_PICK, seat))
        return
    if st.log is not None:  # SCG-RULING-19: three Morgans, nothing to play
        note(st, "soc-card.log.gawain-nothing", seat=Seat(seat))
    discard_hand(st)


def gawain_pick(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-EXPERT-7: Gawain's card goes into the pile, the others are discarded."""
    kind = action - A.GAWAIN
    st.hold.remove(kind)
    discard_hand(st)
    if st.log is not None:
        note(st, "soc-card.log.gawain-play", seat=Seat(seat), card=card_term(kind))
    # SCG-EXPERT-7: into the pile, played by its own rules (Merlin #6: no extra quest); a
    # Merlin takes its cards at once, from the stacks the pile's Merlins left (SCG-RULING-19);
    # a Merlin #4's token waits for the next quest (SCG-MERLIN-4, SCG-RULING-16).
    lay_face_up(st, kind, seat, counted=False, by_turn=False)
    set_merlins_aside(st, token=False)


def knight_drawn(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-EXPERT-3: the quester of a failed quest takes the top Knight card, face down."""
    knight = action - A.KNIGHT
    st.knight_deck[knight] -= 1
    st.knights[seat * NUM_KNIGHTS + knight] += 1
    if st.log is not None:
        note_secret(st, seat, "soc-card.log.knight-draw", knight=knight_term(knight))


def morgan_in(st: SocCardState, _a: int, _b: int, action: int) -> None:
    """SCG-EXPERT-2: after a success a set-aside Morgan is shuffled into the deck."""
    kind = MORGAN_KINDS[action - A.MORGAN_IN]
    st.aside[kind] -= 1
    forget_order(st)
    st.deck[kind] += 1
    st.deck_size += 1
    note(st, "soc-card.log.morgan-in")


def deck_order(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """Tristan's look fixes the next unknown card of the deck (the task stays on top)."""
    kind = action - A.RUMOR
    st.deck[kind] -= 1
    st.deck_size -= 1
    st.known.append(kind)
    st.known_seen.append(1 << seat)
    if st.log is not None:
        note_private(st, 1 << seat, Event("soc-card.log.deck-card-known", {
            "number": len(st.known), "card": card_term(kind)}),
            Event("soc-card.log.deck-card", {"seat": Seat(seat), "number": len(st.known)}))


def gawain_pick_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Gawain plays one of the cards he drew that is no Morgan (SCG-EXPERT-7)."""
    return [A.GAWAIN + k for k in sorted(set(st.hold)) if not IS_MORGAN[k]]


def traitor_tristan_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Tristan before an unmasked traitor's draw, or not (SCG-RULING-10)."""
    return ([A.PLAY + TRISTAN] if holds(st, seat, TRISTAN) else []) + [A.PASS]
