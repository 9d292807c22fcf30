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

from collections.abc import Callable, Mapping

from pendragon.bots.base import Bot
from pendragon.bots.heuristic import HeuristicBot
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.bots.random_bot import RandomBot
from pendragon.core.plugins import GamePlugin, PluginError, plugin_for

__all__ = ["Bot", "HeuristicBot", "ISMCTSBot", "RandomBot", "among_bots", "bot_names",
           "check_bot", "make_bot", "table_bot", "table_bots"]

# Every name works for every game: ``heuristic`` falls back to a generic one-ply policy
# and ``ismcts`` is built on the core API alone.
_FACTORIES: dict[str, Callable[[int | None], Bot]] = {
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
    "random": RandomBot,
}


def _own_bots(game: str | None) -> tuple[GamePlugin | None, Mapping[str, str]]:
    """Game ``game``'s plugin and its own bots (name -> import path); a name that would hide
    a generic bot is a :class:`PluginError`."""
    plugin = None if game is None else plugin_for(game)
    if plugin is None:
        return None, {}
    clash = sorted(set(plugin.bots) & set(_FACTORIES))
    if clash:
        raise PluginError(f"{game}: its bots may not take the generic names {clash}")
    return plugin, plugin.bots


def bot_names(game: str | None = None) -> list[str]:
    """Names accepted by :func:`make_bot` (with ``game``: that game's own bots too), sorted.

    >>> bot_names()
    ['heuristic', 'ismcts', 'random']
    >>> bot_names("soc")
    ['heuristic', 'ismcts', 'random', 'stealth', 'talking']
    """
    return sorted({*_FACTORIES, *_own_bots(game)[1]})


def check_bot(name: object, game: str | None = None, people: bool = False) -> str:
    """``name`` if it names a bot of ``game`` (:func:`bot_names`; ``people``: a table
    where people sit, :func:`table_bots`), else ``ValueError`` with the names it knows:
    the one check of a bot's name for the command line, the online table and the simulator.

    >>> check_bot("stealth", "soc")
    'stealth'
    >>> check_bot("stealth")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'stealth'; known bots: heuristic, ismcts, random
    >>> check_bot("talking", "soc", people=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'talking' plays only where every seat is a bot; a table of soc with people ...
    """
    if not isinstance(name, str) or name not in bot_names(game):
        raise _unknown(name, game)
    seated = table_bots(game) if people and game is not None else None
    if seated is not None and name not in seated:
        raise ValueError(f"{name!r} plays only where every seat is a bot; a table of {game}"
                         f" with people seats: {', '.join(seated)}")
    return name


def _unknown(name: object, game: str | None) -> ValueError:
    where = "" if game is None else f" for {game}"
    return ValueError(f"unknown bot {name!r}{where}; known bots: {', '.join(bot_names(game))}")


def among_bots(game: str) -> tuple[str, ...]:
    """The bots of ``game`` that play only where every seat is a bot
    (``GamePlugin.among_bots``).

    >>> among_bots("soc"), among_bots("grail-cup")
    (('talking',), ())
    """
    plugin = plugin_for(game)
    return () if plugin is None else plugin.among_bots


def table_bots(game: str) -> list[str]:
    """The bots a table of ``game`` with people may seat: :func:`bot_names` but
    :func:`among_bots`, its table bot (``GamePlugin.table_bot``) first: the order a table
    offers them in, the first being its choice for a bot seat.

    >>> table_bots("soc")
    ['stealth', 'heuristic', 'ismcts', 'random']
    >>> table_bots("grail-cup")
    ['heuristic', 'ismcts', 'random']
    """
    plugin = plugin_for(game)
    names = [name for name in bot_names(game) if name not in among_bots(game)]
    first = "heuristic" if plugin is None else plugin.table_bot
    if first not in names:
        raise PluginError(f"{game}: its table bot {first!r} is none of its bots {names}")
    return [first, *(name for name in names if name != first)]


def table_bot(game: str) -> str:
    """The bot a table of ``game`` seats when none is named: a bot seat created without
    one, a seat handed over or given up, a timed-out turn, ``pendragon play``.

    >>> table_bot("soc"), table_bot("grail-cup")
    ('stealth', 'heuristic')
    """
    return table_bots(game)[0]


def make_bot(name: str, seed: int | None = None, game: str | None = None,
             max_budget: int | None = None) -> Bot:
    """A new bot of kind ``name`` seeded with ``seed``; ``ValueError`` for an unknown name.

    ``game``: the game it will play, whose own bots (``GamePlugin.bots``) it may name, and
    whose own settings of the search (``GamePlugin.search``) ``ismcts`` is made with:

    >>> make_bot("ismcts", 3).evaluator, make_bot("ismcts", 3, "soc").evaluator
    (False, True)
    >>> make_bot("ismcts", 3, "soc-card").evaluator
    False

    ``max_budget``: the most simulated actions a search (any ``ISMCTSBot``) may spend on one
    move, a server's bound (``pendragon serve --ismcts-budget``); a search whose own budget
    is smaller keeps it, and a bot that does not search is unchanged:

    >>> make_bot("ismcts", 3, "soc", max_budget=4000).budget, make_bot("ismcts", 3, "soc").budget
    (4000, 6000)
    >>> make_bot("ismcts", 3, "soc", max_budget=10**6).budget
    6000
    >>> make_bot("ismcts", 3, "soc", max_budget=0)
    Traceback (most recent call last):
    ...
    ValueError: max_budget must be at least 1 simulated action, got 0
    """
    if max_budget is not None and max_budget < 1:
        raise ValueError(f"max_budget must be at least 1 simulated action, got {max_budget}")
    bot = _made(name, seed, game)
    if max_budget is not None and isinstance(bot, ISMCTSBot):
        bot.budget = min(bot.budget, max_budget)
    return bot


def _made(name: str, seed: int | None, game: str | None) -> Bot:
    """:func:`make_bot`'s bot, as its game or the core makes it."""
    searcher = None if name != "ismcts" or game is None else plugin_for(game)
    if searcher is not None and searcher.search is not None:
        made_search: Bot = searcher.load("search")(seed)
        return made_search
    factory = _FACTORIES.get(name)
    if factory is not None:
        return factory(seed)
    plugin, own = _own_bots(game)
    if plugin is None or name not in own:
        raise _unknown(name, game)
    made: Bot = plugin.load_bot(name)(seed)
    return made
