"""Bots: programs that choose actions for a seat, and a registry to create them by name.

>>> bot = make_bot("random", seed=3)
>>> bot
RandomBot(seed=3)
>>> make_bot("heuristic", seed=3)
HeuristicBot(seed=3)
>>> make_bot("oracle", seed=3)
Traceback (most recent call last):
...
ValueError: unknown bot 'oracle'; known bots: heuristic, ismcts, random
"""

from __future__ import annotations

from collections.abc import Callable

from pendragon.bots.base import Bot
from pendragon.bots.heuristic import HeuristicBot
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.bots.random_bot import RandomBot

__all__ = ["Bot", "HeuristicBot", "ISMCTSBot", "RandomBot", "bot_names", "make_bot"]

# Every name works for every game: ``heuristic`` falls back to a generic one-ply policy
# and ``ismcts`` is built on the core API alone.
_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
    "random": RandomBot,
}


def bot_names() -> list[str]:
    """Names accepted by :func:`make_bot`, sorted.

    >>> bot_names()
    ['heuristic', 'ismcts', 'random']
    """
    return sorted(_FACTORIES)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of kind ``name`` seeded with ``seed``; ``ValueError`` for an unknown name."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(bot_names())
        raise ValueError(f"unknown bot {name!r}; known bots: {known}") from None
    return factory(seed)
