"""The ``heuristic`` bot: a game's own hand-written policy, or a generic one-ply fallback.

A game's plugin names its specific policy (``GamePlugin.heuristic``; Shadows over Camelot:
:class:`~pendragon.games.soc.heuristic.SocHeuristicBot`). For any other game the bot looks
one action ahead on a determinisation of what its seat cannot see (``resample_hidden``):
it takes a move that wins at once, avoids one that loses at once, and otherwise plays at
random. Either way it sees only what its seat may see.

>>> import pendragon
>>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
>>> state.play_random_chance()
>>> bot = HeuristicBot(seed=4)
>>> bot.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from mypy_extensions import mypyc_attr

from pendragon.bots.base import Bot, determinise, sample_world
from pendragon.bots.policy import PolicyBot
from pendragon.core.api import State
from pendragon.core.plugins import plugin_for


def game_policy(game_name: str, piece: str = "heuristic") -> Callable[[int | None], Bot] | None:
    """The factory of ``game_name``'s own policy (``piece``: ``heuristic`` or ``rollout``).

    >>> game_policy("soc").__name__
    'SocHeuristicBot'
    >>> game_policy("no-such-game") is None
    True
    """
    plugin = plugin_for(game_name)
    if plugin is None:
        return None
    factory: Callable[[int | None], Bot] | None = plugin.load(piece)
    return factory


@mypyc_attr(allow_interpreted_subclasses=True)
class OnePlyBot(PolicyBot[None]):
    """Generic policy for any game: win now if possible, never lose now, else random.

    The look-ahead runs on a world (``resample_hidden(seat, rng)``, without a past), so the
    bot never uses what its seat cannot see; chance after the move is resolved with the
    resampled stream.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"OnePlyBot(seed={self.seed!r})"

    def decide(self, state: State, seat: int, legal: Sequence[int], seen: None) -> int:
        """A winning action if one exists, else a random one that does not lose at once."""
        safe: list[int] = []
        world = determinise(state, seat, self._rng)
        for action in legal:
            child = world.clone()
            child.apply_action(action)
            child.play_random_chance()
            if child.is_terminal():
                value = child.returns()[seat]
                if value > 0:
                    return action
                if value < 0:
                    continue
            safe.append(action)
        pool = safe or legal
        return pool[self._rng.randrange(len(pool))]


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot:
    """The ``heuristic`` bot: dispatches to the game's own policy on first use.

    One instance plays one game (the specific policies may follow its public record).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._delegate: Bot | None = None

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed!r})"

    def step(self, state: State) -> int:
        """The action of the game's heuristic policy (or :class:`OnePlyBot`)."""
        if self._delegate is None:
            factory = game_policy(state.game.name) or OnePlyBot
            self._delegate = factory(self.seed)
        return self._delegate.step(state)

    def sample_world(self, state: State, seat: int, generator: random.Random) -> State:
        """The game policy's draw of a world from its belief (:func:`bots.base.sample_world`)."""
        if self._delegate is None:
            self._delegate = (game_policy(state.game.name) or OnePlyBot)(self.seed)
        return sample_world(self._delegate, state, seat, generator)


def rollout_factory(game_name: str) -> Callable[[int | None], Bot]:
    """The maker of ``game_name``'s rollout policy: the plugin's ``rollout``, else its
    heuristic, else :class:`OnePlyBot` (look it up once where many are made)."""
    return game_policy(game_name, "rollout") or game_policy(game_name) or OnePlyBot


def rollout_policy(game_name: str, seed: int | None) -> Bot:
    """A fast policy for search rollouts (:func:`rollout_factory`'s, seeded)."""
    return rollout_factory(game_name)(seed)
