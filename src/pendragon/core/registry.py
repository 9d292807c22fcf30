"""The registry of games: ``load_game(name, **options)``.

>>> import pendragon
>>> "soc" in pendragon.registered_games()
True
>>> pendragon.load_game("chess")
Traceback (most recent call last):
...
pendragon.core.errors.UnknownGameError: unknown game 'chess'; registered games: soc
"""

from __future__ import annotations

from typing import Any

from pendragon.core.api import Game
from pendragon.core.errors import UnknownGameError

_GAMES: dict[str, type[Game]] = {}


def register_game(game_class: type[Game]) -> type[Game]:
    """Register ``game_class`` under its ``name`` (usable as a class decorator)."""
    _GAMES[game_class.name] = game_class
    return game_class


def registered_games() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The class registered under ``name``."""
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(registered_games())
        raise UnknownGameError(f"unknown game {name!r}; registered games: {known}") from None


def load_game(name: str, **options: Any) -> Game:
    """Create the game ``name`` with ``options`` (``players``, ``seed`` and game options).

    An unknown option, or a value of the wrong type or range, raises a ``ValueError``
    subclass that names it.
    """
    return game_class(name)(options)
