"""The registry of games: ``load_game(name, **options)``.

Games come from the installed plugins (:mod:`pendragon.core.plugins`, the
``pendragon.games`` entry points); :func:`register_game` adds a class directly (tests).

>>> import pendragon
>>> "soc" in pendragon.registered_games()
True
>>> pendragon.load_game("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pendragon.core.errors.UnknownGameError: unknown game 'chess'; registered games: ...
"""

from __future__ import annotations

from typing import Any

from pendragon.core.api import Game
from pendragon.core.errors import UnknownGameError
from pendragon.core.plugins import PluginError, installed_plugins

#: Registered game classes by name (not Final: the tests swap the registry for a copy).
_GAMES: dict[str, type[Game]] = {}


def register_game(game_class: type[Game]) -> type[Game]:
    """Register ``game_class`` under its ``name`` (usable as a class decorator)."""
    _GAMES[game_class.name] = game_class
    return game_class


def registered_games() -> list[str]:
    """Names of every registered game (installed plugins and registered classes), sorted."""
    return sorted(set(_GAMES) | set(installed_plugins()))


def game_class(name: str) -> type[Game]:
    """The class registered under ``name``."""
    if name not in _GAMES:
        plugin = installed_plugins().get(name)
        if plugin is None:
            known = ", ".join(registered_games())
            raise UnknownGameError(f"unknown game {name!r}; registered games: {known}")
        cls = plugin.load("rules")
        if not (isinstance(cls, type) and issubclass(cls, Game)) or cls.name != name:
            raise PluginError(f"{name}: its rules {plugin.rules!r} are not a Game named {name!r}")
        _GAMES[name] = cls
    return _GAMES[name]


def load_game(name: str, **options: Any) -> Game:
    """Create the game ``name`` with ``options`` (``players``, ``seed`` and game options).

    An unknown option, or a value of the wrong type or range, raises a ``ValueError``
    subclass that names it.
    """
    return game_class(name)(options)
