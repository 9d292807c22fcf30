"""The interface every bot implements: look at a state, return an action id.

>>> class FirstLegal:
...     def step(self, state: State) -> int:
...         return state.legal_actions()[0]
>>> isinstance(FirstLegal(), Bot)
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from pendragon.core.api import State
from pendragon.core.errors import GameOverError


@runtime_checkable
class Bot(Protocol):
    """Anything with ``step(state) -> int`` choosing a legal action for the seat to act."""

    def step(self, state: State) -> int:
        """The action id to play in ``state`` (which the bot must not modify)."""
        ...


@runtime_checkable
class WorldSampler(Protocol):
    """A policy that can draw the worlds a search explores from what it believes.

    ``sample_world(state, seat, generator)`` returns a state ``seat`` cannot tell from
    ``state`` (as :meth:`State.resample_hidden`), with what the policy has inferred (who
    the traitor is likely to be) weighing the draw. Search bots use it when their policy
    offers it, and ``resample_hidden`` otherwise.
    """

    def sample_world(self, state: State, seat: int, generator: random.Random) -> State:
        """A determinisation of ``state`` for ``seat`` drawn from the policy's belief."""
        ...


def sample_world(policy: object, state: State, seat: int, generator: random.Random) -> State:
    """``policy``'s own draw of a world (:class:`WorldSampler`), else a uniform redeal.

    >>> import pendragon, random
    >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    >>> world = sample_world(object(), state, 0, random.Random(2))
    >>> world.observation(0) == state.observation(0)
    True
    """
    if isinstance(policy, WorldSampler):
        return policy.sample_world(state, seat, generator)
    return state.resample_hidden(seat, generator)


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
