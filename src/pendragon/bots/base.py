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
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pendragon.bots.policy import PolicyBot, Seen, to_act
from pendragon.core.api import State

__all__ = [
    "Bot", "Forkable", "PolicyBot", "RoleBot", "Seen", "WorldSampler", "determinise",
    "holds_loyal_card", "sample_world", "to_act",
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
class Listener(Protocol):
    """A bot that hears its fellow bots' table talk (Shadows over Camelot's ``talking``),
    and only them: a runner whose every seat is a bot (:func:`pendragon.runner.play_game`,
    and so the simulator) tells it so before the first move; told nothing (a table with
    people), it hears no one.
    """

    def hear_bots(self, seats: frozenset[int]) -> None:
        """Hear the seats ``seats``, each played by a bot."""
        ...


def hear_one_another(bots: Sequence[Bot]) -> None:
    """Tell the bots of a table where every seat is a bot (``bots[seat]``) so: those that
    talk (:class:`Listener`) hear every seat."""
    seats = frozenset(range(len(bots)))
    for bot in bots:
        if isinstance(bot, Listener):
            bot.hear_bots(seats)


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


def holds_loyal_card(state: State, seat: int) -> bool:
    """Whether ``seat``'s own loyalty card, as its own observation shows it, is loyal. A
    seat that has not read its card (soc's three-brave-knights variant) and a game without
    loyalty cards (Grail Cup) count as loyal.

    >>> import pendragon
    >>> state = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    >>> holds_loyal_card(state, 0)
    True
    """
    you = state.observation(seat).get("you")
    return not isinstance(you, dict) or you.get("loyalty") != "traitor"


class RoleBot(PolicyBot[None]):
    """One bot for a seat (or a whole table) that asks ``loyal`` or ``traitor`` by the
    acting seat's loyalty card, read at every decision (:func:`holds_loyal_card`; SOC-SETUP-5,
    SCG-SETUP-1), so a card that changed hands (Vivien, SCG-VIVIEN-1, 2) changes the policy
    at the next decision. Both policies stay the same objects for the whole game, so a
    policy that follows the public record keeps its memory.

    >>> import pendragon
    >>> from pendragon.bots import make_bot
    >>> from pendragon.runner import play_game
    >>> game = pendragon.load_game("soc-card", players=3, seed=4)
    >>> bot = RoleBot(make_bot("heuristic", 1, "soc-card"), make_bot("random", 2))
    >>> play_game(game, [bot] * 3).is_terminal()
    True
    """

    def __init__(self, loyal: Bot, traitor: Bot) -> None:
        self.loyal = loyal
        self.traitor = traitor

    def __repr__(self) -> str:
        return f"RoleBot(loyal={self.loyal!r}, traitor={self.traitor!r})"

    def hear_bots(self, seats: frozenset[int]) -> None:
        """Tell both policies that talk whom they hear (:class:`Listener`)."""
        for policy in (self.loyal, self.traitor):
            if isinstance(policy, Listener):
                policy.hear_bots(seats)

    def policy_for(self, state: State, seat: int) -> Bot:
        """The policy that decides for ``seat`` in ``state``."""
        return self.loyal if holds_loyal_card(state, seat) else self.traitor

    def decide(self, state: State, seat: int, legal: Sequence[int], seen: None) -> int:
        """The action of the policy of the seat to act."""
        return self.policy_for(state, seat).step(state)
