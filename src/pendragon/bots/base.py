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


@runtime_checkable
class Bot(Protocol):
    """Anything with ``step(state) -> int`` choosing a legal action for the seat to act."""

    def step(self, state: State) -> int:
        """The action id to play in ``state`` (which the bot must not modify)."""
        ...
