"""Bots: programs that choose actions for a seat, and a registry to create them by name.

Three names serve every game; a game may add its own (``GamePlugin.bots``), which are
known only with ``game=``:

>>> bot = make_bot("random", seed=3)
>>> bot
RandomBot(seed=3)
>>> make_bot("heuristic", seed=3)
HeuristicBot(seed=3)
>>> make_bot("oracle", seed=3)
Traceback (most recent call last):
...
ValueError: unknown bot 'oracle'; known bots: heuristic, ismcts, random
>>> make_bot("stealth", seed=3, game="soc")
StealthTraitor(seed=3)
>>> make_bot("stealth", seed=3, game="grail-cup")
Traceback (most recent call last):
...
ValueError: unknown bot 'stealth' for grail-cup; known bots: heuristic, ismcts, random
"""

from __future__ import annotations

from collections.abc import Callable

from pendragon.bots.base import Bot
from pendragon.bots.heuristic import HeuristicBot
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.bots.random_bot import RandomBot
from pendragon.core.plugins import PluginError, plugin_for

__all__ = ["Bot", "HeuristicBot", "ISMCTSBot", "RandomBot", "bot_names", "make_bot", "table_bots"]

# Every name works for every game: ``heuristic`` falls back to a generic one-ply policy
# and ``ismcts`` is built on the core API alone.
_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
    "random": RandomBot,
}


def _game_bots(game: str | None) -> dict[str, str]:
    """Game ``game``'s own bots (name -> import path); a name that would hide a generic
    bot is a :class:`PluginError`."""
    plugin = None if game is None else plugin_for(game)
    if plugin is None:
        return {}
    clash = sorted(set(plugin.bots) & set(_FACTORIES))
    if clash:
        raise PluginError(f"{game}: its bots may not take the generic names {clash}")
    return dict(plugin.bots)


def bot_names(game: str | None = None) -> list[str]:
    """Names accepted by :func:`make_bot` (with ``game``: that game's own bots too), sorted.

    >>> bot_names()
    ['heuristic', 'ismcts', 'random']
    >>> bot_names("soc")
    ['heuristic', 'ismcts', 'random', 'stealth']
    """
    return sorted({*_FACTORIES, *_game_bots(game)})


def table_bots(game: str) -> list[str]:
    """:func:`bot_names` of ``game`` with its table bot (``GamePlugin.table_bot``) first: the
    order a table offers them in, the first being its choice for a bot seat.

    >>> table_bots("soc")
    ['stealth', 'heuristic', 'ismcts', 'random']
    >>> table_bots("grail-cup")
    ['heuristic', 'ismcts', 'random']
    """
    names = bot_names(game)
    plugin = plugin_for(game)
    first = "heuristic" if plugin is None else plugin.table_bot
    if first not in names:
        raise PluginError(f"{game}: its table bot {first!r} is none of its bots {names}")
    return [first, *(name for name in names if name != first)]


def make_bot(name: str, seed: int | None = None, game: str | None = None) -> Bot:
    """A new bot of kind ``name`` seeded with ``seed``; ``ValueError`` for an unknown name.

    ``game``: the game it will play, whose own bots (``GamePlugin.bots``) it may name.
    """
    factory = _FACTORIES.get(name)
    if factory is not None:
        return factory(seed)
    plugin = None if game is None else plugin_for(game)
    if plugin is None or name not in _game_bots(game):
        where = "" if game is None else f" for {game}"
        raise ValueError(f"unknown bot {name!r}{where}; known bots: {', '.join(bot_names(game))}")
    own: Callable[[int | None], Bot] = plugin.load_bot(name)
    return own(seed)
