"""A bot that plays uniformly at random among the legal actions.

>>> import pendragon
>>> from pendragon.bots.random_bot import RandomBot
>>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
>>> state.play_random_chance()
>>> bot = RandomBot(seed=4)
>>> bot.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from pendragon.bots.policy import to_act
from pendragon.core.api import State


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Uniform choice among ``state.legal_actions()``, from its own seeded generator.

    Works for any game. Its choices depend only on its seed and on the sequence of
    legal-action lists it is shown, so a game is reproducible from the game seed and the
    bots' seeds. At a chance node it picks an outcome uniformly, ignoring probabilities:
    chance should be resolved with :meth:`State.sample_chance` instead.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._generator = random.Random(seed)

    def step(self, state: State) -> int:
        """A legal action of ``state`` chosen uniformly at random.

        Raises :class:`~pendragon.core.errors.GameOverError` at a terminal state.
        """
        _seat, legal = to_act(state)
        return legal[self._generator.randrange(len(legal))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"
