"""Going on a quest: the declaration, the resolution of the threat pile, the swords
(SCG-QUEST-*; the valuation itself is the pure function :func:`.quests.resolve`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pendragon.core.events import Seat
from pendragon.games.soc_card.rules import tasks as T
from pendragon.games.soc_card.rules.cards import CARD_QUEST, CARDS, MERLIN
from pendragon.games.soc_card.rules.common import (
    END_MORGAN_7,
    EVIL_WIN,
    card_term,
    discard_pile,
    note,
    push_asks,
    quest_term,
)
from pendragon.games.soc_card.rules.quests import highest_numbered, merlin_targets, resolve

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState


def go_on_quest(st: SocCardState, seat: int, quest: int, interruptible: bool) -> None:
    """SCG-QUEST-2: the declaration; Arthur may still stop it (SCG-EXPERT-5) unless it is
    Merlin #6's (SCG-RULING-26). The silence ends only once the quest goes ahead
    (:func:`reveal_pile`, SCG-RULING-7)."""
    if st.log is not None:
        note(st, "soc-card.log.quest", seat=Seat(seat), quest=quest_term(quest))
    st.agenda.append(T.task(T.RESOLVE, quest, seat))
    if interruptible:
        push_asks(st, T.D_ARTHUR, (seat + 1) % st.n, skip=seat, b=seat)


def reveal_pile(st: SocCardState, quest: int, seat: int) -> None:
    """SCG-QUEST-3: the quester takes the pile and lays it out; Gawain may still act. A
    player has gone on a quest, so Morgan's silence ends (SCG-RULING-7).

    Morgan #1's face-down cards are named in card order, not paired with their
    announcements: the pile is shuffled before it is resolved (SCG-MORGAN-1, SCG-RULING-6).
    """
    if st.silence:
        note(st, "soc-card.log.silence-ends")
    st.silence = 0
    if st.log is not None:
        face_down = sorted(st.pile[i] for i, d in enumerate(st.pile_down) if d >= 0)
        for kind in face_down:
            note(st, "soc-card.log.face-down-was", card=card_term(kind))
    # The quester holds the pile now, sorted: no order is left to tell who laid what.
    st.pile.sort()
    st.pile_down[:] = [-1] * len(st.pile)
    st.pile_by[:] = [seat] * len(st.pile)
    st.last_pile = []
    st.last_token = -1
    # The Merlins act "before the value of all quests is counted"; Gawain only once it has
    # been counted (SCG-MERLIN-0, SCG-EXPERT-6, SCG-RULING-3): his card comes after them.
    set_merlins_aside(st)
    st.agenda.append(T.task(T.FINISH, quest, seat))
    push_asks(st, T.D_GAWAIN, seat, b=seat)  # SCG-EXPERT-6; again after each Gawain


def set_merlins_aside(st: SocCardState, *, token: bool = True) -> None:
    """SCG-MERLIN-0..4, SCG-RULING-2, -3, -16: every Merlin of the pile that removes cards is
    set aside with the highest numbered card of each quest it names, and Merlin #4's token,
    if one lies beside the pile, takes the highest numbered card of its quest.

    Run when the pile is laid out, before anything is counted (``token``: the token acts
    at this quest, the next one after it was laid), and again when Gawain's card is a
    Merlin: it acts at once on the stacks as they lie (SCG-EXPERT-7, SCG-RULING-19). A
    Merlin #4 card is set aside with them; its token acts at the next quest, never at the
    resolution under way (SCG-MERLIN-4: «Następnym razem, gdy któryś z graczy Wyruszy na
    Wyprawę»). The Merlins and their cards lie set aside (``last_pile``) until the pile is
    cleared: then they go to the discard pile with it (:func:`finish`), so a deck rebuilt
    while the pile is resolved (Gawain's draws) does not hold them. Merlin #5 (and #6)
    stay, acting when the quest is valued.
    """
    acting = [k for k in st.pile if CARDS[k].kind == MERLIN and CARDS[k].number in (1, 2, 3, 4)]
    moved: list[int] = []
    for merlin in acting:
        _take_from_pile(st, merlin)
        moved.append(merlin)
        for quest in merlin_targets(CARDS[merlin].number, -1):
            _remove_highest(st, quest, moved)
    if token and st.merlin_4_quest >= 0:  # the token acts: shown and removed (SCG-RULING-16)
        _remove_highest(st, st.merlin_4_quest, moved)
        if st.log is not None:
            note(st, "soc-card.log.token", quest=quest_term(st.merlin_4_quest))
        st.last_token = st.merlin_4_quest
        st.merlin_4_quest = -1
        st.merlin_4_by = -1
    st.last_pile += moved


def _remove_highest(st: SocCardState, quest: int, moved: list[int]) -> None:
    """A Merlin (or Merlin #4's token) takes the highest numbered card of ``quest``."""
    highest = highest_numbered([k for k in st.pile if CARD_QUEST[k] == quest])
    if highest >= 0:
        _take_from_pile(st, highest)
        moved.append(highest)
        if st.log is not None:
            note(st, "soc-card.log.merlin-removes", card=card_term(highest))


def _take_from_pile(st: SocCardState, kind: int) -> None:
    index = st.pile.index(kind)
    del st.pile[index], st.pile_down[index], st.pile_by[index]


def finish(st: SocCardState, quest: int, seat: int) -> None:
    """SCG-QUEST-4..10, SCG-MORGAN-3..7, SCG-MERLIN-*: value the quests, lay the swords."""
    # The Merlins that remove cards have acted already (set_merlins_aside).
    result = resolve(st.pile, quest, merlin_6_bonus=st.merlin_6_bonus)
    if st.log is not None:
        for q, total in sorted(result.totals.items()):
            note(st, "soc-card.log.total", quest=quest_term(q), total=total)
    st.last_quest = quest
    st.last_bonus = st.merlin_6_bonus
    set_aside = st.last_pile  # what the Merlins set aside (set_merlins_aside)
    st.last_pile = sorted(set_aside + st.pile)
    # A token Gawain's Merlin #4 laid during this resolution stays for the next quest.
    st.merlin_6_bonus = 0
    if result.morgan_7_ends:  # SCG-MORGAN-7, SCG-RULING-5
        note(st, "soc-card.log.morgan-7")
        discard_pile(st, set_aside)
        st.result = EVIL_WIN
        st.end_reason = END_MORGAN_7
        st.agenda.clear()
        return
    main = result.main
    if result.main_won:
        st.white += result.white
        if st.log is not None:
            note(st, "soc-card.log.quest-won", quest=quest_term(main), count=result.white)
    else:
        st.black += result.main_black
        if st.log is not None:
            note(st, "soc-card.log.quest-lost", quest=quest_term(main), count=result.main_black)
    for q, swords in sorted(result.secondary_black.items()):
        st.black += swords  # SCG-QUEST-8
        if st.log is not None:
            note(st, "soc-card.log.secondary-lost", quest=quest_term(q), count=swords)
    discard_pile(st, set_aside)
    # Below END_CHECK (which runs first): the expert variant's draws (SCG-EXPERT-2, -3).
    if st.expert:
        if result.main_won and sum(st.aside) > 0:
            st.agenda.append(T.task(T.C_MORGAN_IN))
        if not result.main_won and sum(st.knight_deck) > 0:
            st.agenda.append(T.task(T.C_KNIGHT, seat))
    st.agenda.append(T.task(T.END_CHECK))
