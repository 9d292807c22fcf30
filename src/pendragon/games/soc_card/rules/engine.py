"""The agenda runner: it dispatches each task to the module of its mechanism.

Every rules module reads and changes the plain fields of a
:class:`~pendragon.games.soc_card.rules.state.SocCardState`; nothing else changes them.
Each task code (:mod:`.tasks`) has its functions in the module of its mechanism: one run
at once (an automatic task), a menu and a move (a seat's decision), or an outcome applied
(a chance node). What a chance node draws from is :func:`draw` here: every chance node
draws a card from a pile kept as a count vector, and a random playout samples it from the
counts, without the list of outcomes and probabilities (:func:`sample`).

The dispatch is a chain of comparisons of the code, most frequent first, rather than tables
of functions: mypyc compiles each branch to a native call, where a call through a table
is a Python call, and the agenda runs several tasks at every step of a playout.

==============  ==============================================================
module          mechanism
==============  ==============================================================
``turn``        whose turn it is, and the one action he takes
``rumors``      listening, the threat pile, Morgan and Merlin on reveal, the
                unmasked traitor's turn
``questing``    going on a quest: declaration, resolution, swords
``quests``      the valuation of a threat pile (a pure function)
``loyalty``     the deal, accusations, Vivien, the end of the game
``knights``     the expert variant: Knight cards, returning Morgans
==============  ==============================================================

``run`` executes automatic tasks until a chance node or a decision is on top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pendragon.core import rng
from pendragon.games.soc_card.rules import (
    actions as A,
    knights,
    loyalty,
    questing,
    rumors,
    tasks as T,
    turn,
)
from pendragon.games.soc_card.rules.cards import MORGAN_KINDS
from pendragon.games.soc_card.rules.common import (
    END_MORGAN_7,
    END_NONE,
    END_SWORDS_REASON,
    EVIL_WIN,
    LOYAL_WIN,
    NUM_KNIGHTS,
    RUNNING,
    knight_count,
    refill_deck,
)

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState

__all__ = [
    "END_MORGAN_7", "END_NONE", "END_SWORDS_REASON", "EVIL_WIN", "LOYAL_WIN", "NUM_KNIGHTS",
    "RUNNING", "chance", "chance_outcomes", "decide", "draw", "knight_count",
    "legal", "run",
]

def _task(entry: int) -> tuple[int, int, int]:
    """An agenda entry's task code and its two arguments (a byte each)."""
    return entry & 0xFF, (entry >> 8) & 0xFF, (entry >> 16) & 0xFF


def run(st: SocCardState) -> None:
    """Execute automatic tasks until a chance node or a decision is on top."""
    agenda = st.agenda
    while agenda and st.result == RUNNING:
        code, a, b = _task(agenda[-1])
        if code < T.C_LOYALTY:  # an automatic task (codes 1 to 19)
            agenda.pop()
            _automatic(st, code, a, b)
            continue
        if code == T.C_DRAW:
            if st.known:  # Tristan put the deck in order: no chance left in this draw
                agenda.pop()
                st.known_seen.pop(0)
                rumors.take_drawn(st, a, b, st.known.pop(0))
                continue
            if st.deck_size > 0:
                return
            if refill_deck(st):  # SCG-QUEST-10: a position set up with the deck out
                continue
            agenda.pop()  # nothing left to draw (SCG-RULING-13)
            continue
        if code == T.C_TRISTAN and st.deck_size == 0 and not refill_deck(st):
            agenda.pop()  # the whole deck is in order (or no card is left to see)
            continue
        return


def _automatic(st: SocCardState, code: int, a: int, b: int) -> None:
    if code == T.BEGIN_TURN:
        turn.begin_turn(st, a, b)
    elif code == T.NEXT_TURN:
        turn.next_turn(st, a, b)
    elif code == T.AFTER_LISTEN:
        rumors.after_listen(st, a, b)
    elif code == T.END_CHECK:
        loyalty.end_check(st, a, b)
    elif code == T.RESOLVE:
        questing.reveal_pile(st, a, b)
    elif code == T.FINISH:
        questing.finish(st, a, b)
    elif code == T.VIVIEN:
        loyalty.begin_vivien(st, a, b)
    elif code == T.ACCUSE_SWORDS:
        loyalty.accuse_swords(st, a, b)
    elif code == T.PLACE_CHECK:
        rumors.place_check(st, a, b)
    elif code == T.END_REVEAL:
        loyalty.end_reveal(st, a, b)
    elif code == T.FLIP:
        loyalty.flip(st, a, b)
    elif code == T.END_DECIDE:
        loyalty.end_decide(st, a, b)
    elif code == T.GAWAIN_CHECK:
        knights.gawain_check(st, a, b)
    else:
        raise AssertionError(f"task {code} is not automatic")


def legal(st: SocCardState) -> list[int]:
    """The legal actions of the decision on top of the agenda."""
    code, a, b = _task(st.agenda[-1])
    if code == T.D_TURN:
        return turn.turn_legal(st, a, b)
    if code == T.D_KEEP:
        return loyalty.keep_or_swap_legal(st, a, b)
    if code == T.D_GIVE:
        return loyalty.give_legal(st, a, b)
    if code == T.D_MERLIN_4:
        return rumors.merlin_4_legal(st, a, b)
    if code == T.D_PLACE:
        return rumors.place_legal(st, a, b)
    if code == T.D_ANNOUNCE:
        return rumors.announce_legal(st, a, b)
    if code == T.D_COUNT:
        return rumors.count_legal(st, a, b)
    if code == T.D_ARTHUR or code == T.D_GAWAIN or code == T.D_PERCIVAL:
        return knights.ask_legal(st, a, b)
    if code == T.D_GAWAIN_PICK:
        return knights.gawain_pick_legal(st, a, b)
    if code == T.D_TRAITOR_TRISTAN:
        return knights.traitor_tristan_legal(st, a, b)
    if code == T.D_MERLIN_6:
        return rumors.merlin_6_legal(st, a, b)
    if code == T.D_MERLIN_6_ADD:
        return rumors.merlin_6_add_legal(st, a, b)
    raise AssertionError(f"task {code} is not a decision")


def decide(st: SocCardState, action: int) -> None:
    """Apply a seat's legal ``action`` to the decision on top."""
    code, a, b = _task(st.agenda.pop())
    if code == T.D_TURN:
        turn.take_turn(st, a, b, action)
    elif code == T.D_KEEP:
        loyalty.keep_or_swap(st, a, b, action)
    elif code == T.D_GIVE:
        loyalty.give(st, a, b, action)
    elif code == T.D_MERLIN_4:
        rumors.choose_merlin_4(st, a, b, action)
    elif code == T.D_PLACE:
        rumors.place_card(st, a, b, action)
    elif code == T.D_ANNOUNCE:
        rumors.announce(st, a, b, action)
    elif code == T.D_COUNT:
        rumors.say_count(st, a, b, action)
    elif code == T.D_ARTHUR or code == T.D_GAWAIN or code == T.D_PERCIVAL:
        knights.answer(st, a, b, action)
    elif code == T.D_GAWAIN_PICK:
        knights.gawain_pick(st, a, b, action)
    elif code == T.D_TRAITOR_TRISTAN:
        knights.traitor_tristan(st, a, b, action)
    elif code == T.D_MERLIN_6:
        rumors.choose_merlin_6(st, a, b, action)
    elif code == T.D_MERLIN_6_ADD:
        rumors.add_merlin_6(st, a, b, action)
    else:
        raise AssertionError(f"task {code} is not a decision")


def draw(st: SocCardState) -> tuple[int, list[int]]:
    """What the chance node on top draws from: ``(base, counts)``, outcome ``base + i``
    weighted by ``counts[i]``, the cards of that kind left (a count vector of the state
    itself where there is one: read it, never change it). The core samples and checks a
    drawn card from it (``State._chance_counts``).

    A chain of comparisons rather than a table of functions: mypyc compiles it to native
    calls, and it runs at every chance node of a playout.
    """
    code = st.agenda[-1] & 0xFF
    if code == T.C_DRAW or code == T.C_TRISTAN:  # a rumor card (Tristan: the next one)
        return A.RUMOR, st.deck
    if code == T.C_LOYALTY:
        return A.DEAL_LOYALTY, st.loyal_pool
    if code == T.C_VIVIEN:
        return A.VIVIEN_CARD, st.loyal_aside
    if code == T.C_ASIDE:  # SCG-SETUP-3: a Morgan of the deck set aside
        return A.MORGAN_ASIDE, [st.deck[k] for k in MORGAN_KINDS]
    if code == T.C_KNIGHT:
        return A.KNIGHT, st.knight_deck
    if code == T.C_MORGAN_IN:  # SCG-EXPERT-2: a set-aside Morgan into the deck
        return A.MORGAN_IN, [st.aside[k] for k in MORGAN_KINDS]
    raise AssertionError(f"task {code} is not a chance node")


def chance_outcomes(st: SocCardState) -> list[tuple[int, float]]:
    """Outcomes of the chance node on top, weighted by the cards left."""
    base, counts = draw(st)
    return rng.weighted(base, counts)


def chance(st: SocCardState, action: int) -> None:
    """Apply a chance outcome to the chance node on top (Tristan's look stays on top until
    the whole deck is in order)."""
    code, a, b = _task(st.agenda[-1])
    if code != T.C_TRISTAN:
        st.agenda.pop()
    if code == T.C_DRAW:
        rumors.draw_card(st, a, b, action)
    elif code == T.C_LOYALTY:
        loyalty.deal(st, a, b, action)
    elif code == T.C_ASIDE:
        rumors.set_aside(st, a, b, action)
    elif code == T.C_VIVIEN:
        loyalty.deal_offer(st, a, b, action)
    elif code == T.C_KNIGHT:
        knights.knight_drawn(st, a, b, action)
    elif code == T.C_MORGAN_IN:
        knights.morgan_in(st, a, b, action)
    elif code == T.C_TRISTAN:
        knights.deck_order(st, a, b, action)
    else:
        raise AssertionError(f"task {code} is not a chance node")
