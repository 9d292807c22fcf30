"""Errors raised by the core API.

Every error a caller can provoke with bad input is a ``ValueError`` subclass carrying an
:class:`ErrorCode`, so adapters (terminal, server, research environments) can map it to a
message or a status code without parsing text.

>>> issubclass(IllegalActionError, ValueError)
True
>>> IllegalActionError("no").code
<ErrorCode.ILLEGAL_ACTION: 'illegal_action'>
"""

from __future__ import annotations

import enum


class ErrorCode(enum.Enum):
    """Machine-readable reason of a :class:`PendragonError`."""

    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_OPTION = "unknown_option"
    INVALID_OPTION = "invalid_option"
    MALFORMED_ACTION = "malformed_action"
    ILLEGAL_ACTION = "illegal_action"
    NOT_CHANCE_NODE = "not_chance_node"
    GAME_OVER = "game_over"
    CORRUPT_STATE = "corrupt_state"
    BAD_FIXTURE = "bad_fixture"


class PendragonError(ValueError):
    """Base class of every error the core raises for bad input."""

    code: ErrorCode = ErrorCode.CORRUPT_STATE

    def __init_subclass__(cls, code: ErrorCode | None = None) -> None:
        """``class X(PendragonError, code=ErrorCode.Y)``: the code of every ``X`` (a
        subclass that names none keeps its parent's)."""
        super().__init_subclass__()
        if code is not None:
            cls.code = code

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownGameError(PendragonError, code=ErrorCode.UNKNOWN_GAME):
    """``load_game`` was given a name no game is registered under."""


class UnknownOptionError(PendragonError, code=ErrorCode.UNKNOWN_OPTION):
    """An option name the game does not define."""


class InvalidOptionError(PendragonError, code=ErrorCode.INVALID_OPTION):
    """A known option with a value of the wrong type or out of range."""


class MalformedActionError(PendragonError, code=ErrorCode.MALFORMED_ACTION):
    """An action that is not an id of the catalog, or text that names no action."""


class IllegalActionError(PendragonError, code=ErrorCode.ILLEGAL_ACTION):
    """A well-formed action that the rules do not allow in this state."""


class GameOverError(IllegalActionError, code=ErrorCode.GAME_OVER):
    """An action applied to a finished game."""


class NotChanceNodeError(PendragonError, code=ErrorCode.NOT_CHANCE_NODE):
    """``chance_outcomes`` asked of a state where a player, not chance, decides."""


class CorruptStateError(PendragonError, code=ErrorCode.CORRUPT_STATE):
    """Serialized text or a fixture that does not describe a valid state."""


class BadFixtureError(CorruptStateError, code=ErrorCode.BAD_FIXTURE):
    """A scenario fixture file that cannot be loaded."""
