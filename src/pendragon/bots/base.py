"""The interface every bot implements: look at a state, return an action id.

>>> class FirstLegal:
...     def step(self, state: State) -> int:
...         return state.legal_actions()[0]
>>> isinstance(FirstLegal(), Bot)
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pendragon.core.api import State
from pendragon.core.errors import GameOverError


@runtime_checkable
class Bot(Protocol):
    """Anything with ``step(state) -> int`` choosing a legal action for the seat to act."""

    def step(self, state: State) -> int:
        """The action id to play in ``state`` (which the bot must not modify)."""
        ...


def to_act(state: State) -> tuple[int, list[int]]:
    """Who acts in ``state`` (``CHANCE`` at a chance node) and the legal actions: how every
    bot's ``step`` begins. A finished game raises :class:`GameOverError`.

    >>> import pendragon
    >>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    >>> to_act(state)[0] == pendragon.CHANCE
    True
    """
    legal = state.legal_actions()
    if not legal:
        raise GameOverError("the game is over; there is no action to choose")
    return state.current_player(), legal
