"""The interface every bot implements: look at a state, return an action id.

Also here, re-exported: :class:`PolicyBot`, the start every policy's ``step`` shares
(compiled, in :mod:`pendragon.bots.policy`; this module stays Python, see there).

>>> class FirstLegal:
...     def step(self, state: State) -> int:
...         return state.legal_actions()[0]
>>> isinstance(FirstLegal(), Bot)
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from pendragon.bots.policy import PolicyBot, Seen, to_act
from pendragon.core.api import State

__all__ = [
    "Bot", "Forkable", "PolicyBot", "Seen", "WorldSampler", "determinise", "sample_world",
    "to_act",
]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``step(state) -> int`` choosing a legal action for the seat to act."""

    def step(self, state: State) -> int:
        """The action id to play in ``state`` (which the bot must not modify)."""
        ...


@runtime_checkable
class WorldSampler(Protocol):
    """A policy that can draw the worlds a search explores from what it believes.

    ``sample_world(state, seat, generator)`` returns a world ``seat`` cannot tell from
    ``state`` (as :meth:`State.resample_hidden`: without a past), with what the policy has
    inferred (who the traitor is likely to be) weighing the draw. Search bots use it when
    their policy offers it, and ``resample_hidden`` otherwise.
    """

    def sample_world(self, state: State, seat: int, generator: random.Random) -> State:
        """A determinisation of ``state`` for ``seat`` drawn from the policy's belief."""
        ...


@runtime_checkable
class Forkable(Protocol):
    """A policy whose memory of the game a search builds once and hands to every rollout.

    A world drawn by :meth:`State.resample_hidden` has no past, so a policy that remembers
    what it saw (the card game's count of the cards turned) cannot rebuild its memory in a
    world. ``follow(state)`` reads the *real* game ``state`` as everyone at the table saw
    it (its public record, never a seat's cards); ``fork(seed)`` is a fresh policy seeded
    with ``seed`` that starts from that memory and goes on from the observations of the
    world it plays in.
    """

    def follow(self, state: State) -> None:
        """Bring the memory up to ``state`` (a real game) from its public record."""
        ...

    def fork(self, seed: int | None) -> Bot:
        """A policy seeded with ``seed`` that starts from a copy of this memory."""
        ...


def determinise(state: State, seat: int, generator: random.Random) -> State:
    """``state.resample_hidden(seat, generator)``, made sure to carry no past
    (:meth:`State.forget_past`). Every shipped game (soc, soc-card, grail-cup) drops its
    past in ``resample_hidden`` already; the check guards a plugin game that does not.

    >>> import pendragon, random
    >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    >>> state.play_random_chance()
    >>> determinise(state, 0, random.Random(2)).is_world()
    True
    """
    world = state.resample_hidden(seat, generator)
    if not world.is_world():
        world.forget_past()
    return world


def sample_world(policy: object, state: State, seat: int, generator: random.Random) -> State:
    """``policy``'s own draw of a world (:class:`WorldSampler`), else a uniform redeal
    (:func:`determinise`); either way a world without a past.

    >>> import pendragon, random
    >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    >>> world = sample_world(object(), state, 0, random.Random(2))
    >>> world.observation(0) == state.observation(0)
    True
    """
    if isinstance(policy, WorldSampler):
        world = policy.sample_world(state, seat, generator)
        if not world.is_world():
            world.forget_past()
        return world
    return determinise(state, seat, generator)
