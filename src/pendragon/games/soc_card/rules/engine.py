"""The agenda runner: it dispatches each task to the module of its mechanism.

Every rules module reads and changes the plain fields of a
:class:`~pendragon.games.soc_card.rules.state.SocCardState`; nothing else changes them.
Each exports tables keyed by task code (:mod:`.tasks`): ``AUTOMATIC`` (run at once),
``LEGAL`` and ``DECIDE`` (a seat's decision), ``CHANCE`` (a chance node's outcome applied).
What a chance node draws from is :func:`draw` here: every chance node draws a card from a
pile kept as a count vector, and a random playout samples it from the counts, without the
list of outcomes and probabilities (:func:`sample`).

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

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from pendragon.games.soc_card.rules import actions as A
from pendragon.games.soc_card.rules import knights, loyalty, questing, rumors, turn
from pendragon.games.soc_card.rules import tasks as T
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
    pick_count,
    reshuffle,
    weighted,
)

if TYPE_CHECKING:
    from pendragon.games.soc_card.rules.state import SocCardState

__all__ = [
    "END_MORGAN_7", "END_NONE", "END_SWORDS_REASON", "EVIL_WIN", "LOYAL_WIN", "NUM_KNIGHTS",
    "RUNNING", "chance", "chance_outcomes", "chance_weight", "decide", "draw", "knight_count",
    "legal", "run", "sample",
]

_MODULES: Final = (turn, rumors, questing, loyalty, knights)
AUTOMATIC: Final[dict[int, Callable[[SocCardState, int, int], None]]] = {}
LEGAL: Final[dict[int, Callable[[SocCardState, int, int], list[int]]]] = {}
DECIDE: Final[dict[int, Callable[[SocCardState, int, int, int], None]]] = {}
CHANCE: Final[dict[int, Callable[[SocCardState, int, int, int], None]]] = {}
for _module in _MODULES:
    AUTOMATIC.update(getattr(_module, "AUTOMATIC", {}))
    LEGAL.update(getattr(_module, "LEGAL", {}))
    DECIDE.update(getattr(_module, "DECIDE", {}))
    CHANCE.update(getattr(_module, "CHANCE", {}))
assert set(AUTOMATIC) == T.KNOWN & T.AUTOMATIC
assert set(LEGAL) == set(DECIDE) == T.KNOWN & T.DECISIONS
assert set(CHANCE) == T.KNOWN & T.CHANCE_TASKS


def run(st: SocCardState) -> None:
    """Execute automatic tasks until a chance node or a decision is on top."""
    agenda = st.agenda
    automatic = AUTOMATIC
    while agenda and st.result == RUNNING:
        entry = agenda[-1]
        code = entry & 0xFF
        handler = automatic.get(code)
        if handler is not None:
            agenda.pop()
            handler(st, (entry >> 8) & 0xFF, (entry >> 16) & 0xFF)
            continue
        if code == T.C_DRAW:
            if st.known:  # Tristan put the deck in order: no chance left in this draw
                agenda.pop()
                st.known_seen.pop(0)
                rumors.take_drawn(st, (entry >> 8) & 0xFF, (entry >> 16) & 0xFF,
                                  st.known.pop(0))
                continue
            if st.deck_size > 0:
                return
            if st.discard_size > 0 or st.hidden_discard:
                reshuffle(st)  # SCG-QUEST-10
                continue
            agenda.pop()  # nothing left to draw (SCG-RULING-13)
            continue
        if code == T.C_TRISTAN and st.deck_size == 0:
            agenda.pop()
            continue
        return


def legal(st: SocCardState) -> list[int]:
    """The legal actions of the decision on top of the agenda."""
    entry = st.agenda[-1]
    return LEGAL[entry & 0xFF](st, (entry >> 8) & 0xFF, (entry >> 16) & 0xFF)


def decide(st: SocCardState, action: int) -> None:
    """Apply a seat's legal ``action`` to the decision on top."""
    entry = st.agenda.pop()
    DECIDE[entry & 0xFF](st, (entry >> 8) & 0xFF, (entry >> 16) & 0xFF, action)


def draw(st: SocCardState) -> tuple[int, list[int]]:
    """What the chance node on top draws from: ``(base, counts)``, outcome ``base + i``
    weighted by ``counts[i]``, the cards of that kind left (a count vector of the state
    itself where there is one: read it, never change it).

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
    return weighted(base, counts)


def sample(st: SocCardState, u: float) -> int:
    """The outcome of the chance node on top that ``u`` (in ``[0, 1)``) picks from
    :func:`chance_outcomes` (``rng.pick_at``), without building that list."""
    base, counts = draw(st)
    return pick_count(base, counts, u)


def chance_weight(st: SocCardState, action: int) -> int:
    """The weight of ``action`` at the chance node on top: 0 if it cannot happen."""
    base, counts = draw(st)
    index = action - base
    return counts[index] if 0 <= index < len(counts) else 0


def chance(st: SocCardState, action: int) -> None:
    """Apply a chance outcome to the chance node on top (Tristan's look stays on top until
    the whole deck is in order)."""
    entry = st.agenda[-1]
    code = entry & 0xFF
    if code != T.C_TRISTAN:
        st.agenda.pop()
    CHANCE[code](st, (entry >> 8) & 0xFF, (entry >> 16) & 0xFF, action)
