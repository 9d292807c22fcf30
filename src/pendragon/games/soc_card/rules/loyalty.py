"""Loyalty: the deal, accusations, Vivien's exchange, and the end of the game with its
reveals (SCG-SETUP-1, -2, SCG-ACCUSE-1..3, SCG-VIVIEN-*, SCG-END-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pendragon.core.events import Event, Seat
from pendragon.games.soc_card.rules import actions as A, tasks as T
from pendragon.games.soc_card.rules.cards import LOYAL, TRAITOR
from pendragon.games.soc_card.rules.common import (
    END_SWORDS,
    END_SWORDS_REASON,
    EVIL_WIN,
    LOYAL_WIN,
    loyalty_term,
    note,
    note_private,
    note_secret,
    push_asks,
)

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState


def deal(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-SETUP-2: one loyalty card face down to each; the two left lie aside."""
    loyalty = action - A.DEAL_LOYALTY
    st.loyal_pool[loyalty] -= 1
    st.loyalty[seat] = loyalty
    if st.log is not None:
        note_private(
            st, 1 << seat,
            Event("soc-card.log.dealt-loyalty-known", {"seat": Seat(seat),
                                                       "loyalty": loyalty_term(loyalty)}),
            Event("soc-card.log.dealt-loyalty", {"seat": Seat(seat)}),
        )
    if seat == st.n - 1:
        st.loyal_aside[LOYAL] += st.loyal_pool[LOYAL]
        st.loyal_aside[TRAITOR] += st.loyal_pool[TRAITOR]
        st.loyal_pool[:] = [0, 0]


# ---------------------------------------------------------------------- accusations
def accuse(st: SocCardState, seat: int, target: int) -> None:
    """SCG-ACCUSE-1: Percival is asked "at the moment a player is accused", before the
    accused shows his card (SCG-EXPERT-9, SCG-RULING-18)."""
    st.accused[seat] = 1
    st.agenda.append(T.task(T.NEXT_TURN, seat))
    st.agenda.append(T.task(T.ACCUSE_SWORDS, target, seat))
    depth = len(st.agenda)
    push_asks(st, T.D_PERCIVAL, seat)
    if len(st.agenda) > depth and st.log is not None:
        note(st, "soc-card.log.accusing", seat=Seat(seat), target=Seat(target))


def accuse_swords(st: SocCardState, target: int, accuser: int) -> None:
    """SCG-ACCUSE-1..3: the accused shows his card; one sword (two with Percival). Being
    accused, he shows no card at an end from now on (SCG-END-2). One Vivien veiled shows the
    card he holds: his traitor card if he kept it, a white sword like any traitor's, and from
    then on he is the unmasked traitor again (SCG-RULING-9)."""
    st.revealed[target] = 1
    st.was_accused[target] = 1
    st.veiled[target] = 0
    if st.log is not None:
        note(st, "soc-card.log.accuse", seat=Seat(accuser), target=Seat(target),
             loyalty=loyalty_term(st.loyalty[target]))
    swords = 2 if st.percival else 1  # SCG-EXPERT-9
    st.percival = 0
    if st.loyalty[target] == TRAITOR:
        st.white += swords  # SCG-ACCUSE-3
        if st.log is not None:
            note(st, "soc-card.log.white-swords", count=swords)
    else:
        st.black += swords  # SCG-ACCUSE-2
        if st.log is not None:
            note(st, "soc-card.log.black-swords", count=swords)
    st.agenda.append(T.task(T.END_CHECK))  # SCG-RULING-11


# ---------------------------------------------------------------------- the end
def end_check(st: SocCardState, _a: int, _b: int) -> None:
    """SCG-END-1, SCG-END-2: seven swords of a colour; every player nobody accused whose card
    is hidden (``revealed`` 0: never shown, or shown at an earlier end and hidden again by
    Vivien) shows it. One accused and hidden again by Vivien (``revealed`` 2) does not, nor
    does a card already face up (SCG-RULING-11)."""
    if st.white < END_SWORDS and st.black < END_SWORDS:
        return
    st.agenda.append(T.task(T.END_DECIDE))
    if st.solo:
        return
    for seat in reversed(range(st.n)):
        if not st.revealed[seat]:
            st.agenda.append(T.task(T.END_REVEAL, seat))


def end_reveal(st: SocCardState, seat: int, _b: int) -> None:
    """SCG-END-2: ``seat`` shows his loyalty card at the end (one Vivien veiled too: his
    card lies face down, SCG-RULING-9)."""
    st.revealed[seat] = 1
    st.veiled[seat] = 0
    if st.log is not None:
        note(st, "soc-card.log.end-reveal", seat=Seat(seat),
             loyalty=loyalty_term(st.loyalty[seat]))
    if st.loyalty[seat] == TRAITOR:
        st.agenda.append(T.task(T.FLIP, seat))
        push_asks(st, T.D_PERCIVAL, st.turn)


def flip(st: SocCardState, seat: int, _b: int) -> None:
    """SCG-END-2: a traitor revealed at the end turns a white sword black (two with Percival)."""
    flips = min(st.white, 2 if st.percival else 1)  # SCG-END-2, SCG-RULING-22
    st.percival = 0
    st.white -= flips
    st.black += flips
    if st.log is not None:
        note(st, "soc-card.log.flip", seat=Seat(seat), count=flips)


def end_decide(st: SocCardState, _a: int, _b: int) -> None:
    """SCG-END-3..5."""
    if st.white >= END_SWORDS and st.white > st.black:
        st.result = LOYAL_WIN
    elif st.black >= END_SWORDS and st.black >= st.white:
        st.result = EVIL_WIN
    else:
        note(st, "soc-card.log.play-on")
        return
    st.end_reason = END_SWORDS_REASON
    note(st, "soc-card.log.loyal-win" if st.result == LOYAL_WIN else "soc-card.log.evil-win")
    st.agenda.clear()


# ---------------------------------------------------------------------- Vivien
def begin_vivien(st: SocCardState, drawer: int, _b: int) -> None:
    """SCG-VIVIEN-1, SCG-RULING-9: the drawer takes one set-aside card, face down, and hands
    the other, unseen, to any other player — whether or not their loyalty was shown. He
    names the receiver before either card is dealt, so before he has seen his own: «a drugą
    kartę przekazuje dowolnemu graczowi, bez podglądania jej treści» (:func:`give`)."""
    st.vivien_drawer = drawer
    st.vivien_receiver = -1
    st.agenda.append(T.task(T.D_GIVE, drawer))


def deal_offer(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-VIVIEN-1: ``seat`` is offered a set-aside loyalty card, in secret."""
    loyalty = action - A.VIVIEN_CARD
    st.loyal_aside[loyalty] -= 1
    st.offer[seat] = loyalty
    st.peeks[:] = [mask & ~(1 << seat) for mask in st.peeks]  # he may swap now
    if st.log is not None:
        note_secret(st, seat, "soc-card.log.vivien-card", loyalty=loyalty_term(loyalty))


def give(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-VIVIEN-1, SCG-RULING-9: the drawer hands the other set-aside card to ``target``;
    only now are the cards dealt, the drawer's first, then the receiver's («Obaj gracze
    decydują teraz»), and both decide, the drawer first.

    The agenda is a stack: the tasks run in the reverse of their pushing. A drawer already
    holding his card (a position saved before rules version 4 dealt it before the hand-over)
    is not dealt another; one left without a card (no set-aside card for him) decides
    nothing, and the receiver is dealt a card only if one is left for him."""
    target = action - A.GIVE
    st.vivien_receiver = target
    if st.log is not None:
        note(st, "soc-card.log.vivien-give", seat=Seat(seat), target=Seat(target))
    deal_drawer = st.offer[seat] < 0 and sum(st.loyal_aside) > 0
    deal_target = sum(st.loyal_aside) > (1 if deal_drawer else 0)
    if deal_target:
        st.agenda.append(T.task(T.D_KEEP, target))
    if deal_drawer or st.offer[seat] >= 0:
        st.agenda.append(T.task(T.D_KEEP, seat))
    if deal_target:
        st.agenda.append(T.task(T.C_VIVIEN, target))
    if deal_drawer:
        st.agenda.append(T.task(T.C_VIVIEN, seat))


def keep_or_swap(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """SCG-VIVIEN-2: each keeps his card or swaps it, in secret.

    Nobody tells his choice, so a card shown before is no longer known (SCG-RULING-9),
    whatever he chose. One accused stays verified and shows no card at an end; one whose
    card was shown at an earlier end, never accused, shows his card at the next (SCG-END-2,
    SCG-RULING-11). An unmasked traitor is veiled until his next turn: if he kept his
    traitor card, that turn shows it again (:func:`unveil`; his draw-two turn, SCG-ACCUSE-4,
    would tell the table anyway), if he took the new card, it is an ordinary turn.
    """
    swap = action == A.SWAP
    offered = st.offer[seat]
    st.offer[seat] = -1
    if st.veiled[seat] or (st.revealed[seat] == 1 and st.loyalty[seat] == TRAITOR):
        # Veiled again before his next turn: he still holds that traitor card only if he
        # keeps the card he holds and held it (``veiled`` 2, or face up now).
        held = st.veiled[seat] == 2 or st.revealed[seat] == 1
        st.veiled[seat] = 2 if held and not swap else 1
    st.revealed[seat] = 2 if st.was_accused[seat] else 0
    if swap:
        st.loyal_aside[st.loyalty[seat]] += 1
        st.loyalty[seat] = offered
    else:
        st.loyal_aside[offered] += 1
    if st.log is not None:
        note_private(
            st, 1 << seat,
            Event("soc-card.log.swap-known" if swap else "soc-card.log.keep-known",
                  {"seat": Seat(seat)}),
            Event("soc-card.log.vivien-decided", {"seat": Seat(seat)}),
        )


def unveil(st: SocCardState, seat: int) -> None:
    """SCG-RULING-9: the turn of a seat Vivien veiled begins. If he kept his traitor card,
    it lies face up again (he is the unmasked traitor, and this turn is his draw-two turn,
    SCG-ACCUSE-4); if he took the new card, nothing is shown."""
    if st.veiled[seat] == 2:
        st.revealed[seat] = 1
        if st.log is not None:
            note(st, "soc-card.log.shown-again", seat=Seat(seat),
                 loyalty=loyalty_term(st.loyalty[seat]))
    st.veiled[seat] = 0


def give_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Vivien's second card goes to any other player (SCG-RULING-9)."""
    return [A.GIVE + s for s in range(st.n) if s != seat]


def keep_or_swap_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """Keep one's loyalty card, or swap it for the one offered (SCG-VIVIEN-2)."""
    return [A.KEEP, A.SWAP]
