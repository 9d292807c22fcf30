"""Pendragon: rules engines and tables for Shadows over Camelot, its card game and Grail Cup.

>>> import pendragon
>>> game = pendragon.load_game("soc", players=5, seed=7)
>>> state = game.new_initial_state()
>>> state.play_random_chance()
>>> state.current_player() in range(5)
True
"""

# First: whether the compiled build of the rules and the core runs, or the pure one.
from pendragon import build  # noqa: F401
from pendragon.core.api import CHANCE, TERMINAL, Game, GameInfo, State
from pendragon.core.errors import (
    CorruptStateError,
    ErrorCode,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    NotChanceNodeError,
    PendragonError,
    UnknownGameError,
    UnknownOptionError,
)
from pendragon.core.registry import game_class, load_game, register_game, registered_games

__all__ = [
    "CHANCE",
    "TERMINAL",
    "CorruptStateError",
    "ErrorCode",
    "Game",
    "GameInfo",
    "GameOverError",
    "IllegalActionError",
    "InvalidOptionError",
    "MalformedActionError",
    "NotChanceNodeError",
    "PendragonError",
    "State",
    "UnknownGameError",
    "UnknownOptionError",
    "game_class",
    "load_game",
    "register_game",
    "registered_games",
]
