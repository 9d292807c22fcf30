"""The turn: whose it is, and the one action a player takes (SCG-TURN-1, SCG-SETUP-5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pendragon.games.soc_card.rules import actions as A, knights, loyalty, rumors, tasks as T
from pendragon.games.soc_card.rules.cards import NUM_QUESTS, TRAITOR, TRISTAN
from pendragon.games.soc_card.rules.common import (
    ACCUSE_MIN_SWORDS,
    can_draw,
    knight_count,
    top_allows,
)
from pendragon.games.soc_card.rules.questing import go_on_quest

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState


def begin_turn(st: SocCardState, seat: int, _b: int) -> None:
    """The turn of ``seat`` begins: his action, or an unmasked traitor's draw (SCG-TURN-1);
    one Vivien veiled shows the traitor card he kept, or nothing (SCG-RULING-9)."""
    st.turn = seat
    if st.veiled[seat]:
        loyalty.unveil(st, seat)
    if st.loyalty[seat] == TRAITOR and st.revealed[seat] == 1:
        if st.expert and knight_count(st, seat) > 0:
            # Tristan comes "before your action", on his turn too (SCG-EXPERT-4,
            # SCG-RULING-10); asked whenever he has a Knight card, so it tells nothing.
            st.agenda.append(T.task(T.D_TRAITOR_TRISTAN, seat))
        else:
            rumors.traitor_turn(st, seat)  # SCG-ACCUSE-4, SCG-RULING-10
    else:
        st.agenda.append(T.task(T.D_TURN, seat))


def next_turn(st: SocCardState, seat: int, _b: int) -> None:
    """The turn of ``seat`` is over: the next seat's begins."""
    st.agenda.append(T.task(T.BEGIN_TURN, (seat + 1) % st.n))


def turn_legal(st: SocCardState, seat: int, _b: int) -> list[int]:
    """SCG-TURN-1: listen, a quest the top card allows, or an accusation.

    Listed in id order without a sort: the blocks of the catalog come in this order, and a
    card's quests (``Card.allows``) are in quest order.
    """
    actions: list[int] = []
    if can_draw(st):
        actions.append(A.LISTEN)
        for quest in top_allows(st):
            actions.append(A.QUEST + quest)
    else:  # SCG-RULING-13: with nothing left to draw, any quest
        for quest in range(NUM_QUESTS):
            actions.append(A.QUEST + quest)
    # SCG-ACCUSE-1, SCG-SOLO-1, SCG-RULING-14.
    if not st.solo and not st.accused[seat] and st.white + st.black >= ACCUSE_MIN_SWORDS:
        for target in range(st.n):
            if target != seat and st.revealed[target] != 1:
                actions.append(A.ACCUSE + target)
    if st.expert:
        actions += knights.turn_actions(st, seat)
    return actions


def take_turn(st: SocCardState, seat: int, _b: int, action: int) -> None:
    """Apply the one action ``seat`` takes on his turn (SCG-TURN-1)."""
    if action == A.LISTEN:
        rumors.listen(st, seat)
    elif A.QUEST <= action < A.QUEST + NUM_QUESTS:
        st.agenda.append(T.task(T.NEXT_TURN, seat))
        go_on_quest(st, seat, action - A.QUEST, interruptible=True)
    elif A.ACCUSE <= action < A.ACCUSE + A.MAX_SEATS:
        loyalty.accuse(st, seat, action - A.ACCUSE)
    elif action == A.PLAY + TRISTAN:
        knights.tristan(st, seat)
    elif A.GALAHAD <= action < A.GALAHAD + A.MAX_SEATS:
        knights.galahad(st, seat, action - A.GALAHAD)
    else:
        raise AssertionError(f"not a turn action: {action}")
