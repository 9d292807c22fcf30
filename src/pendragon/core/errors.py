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

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownGameError(PendragonError):
    """``load_game`` was given a name no game is registered under."""

    code = ErrorCode.UNKNOWN_GAME


class UnknownOptionError(PendragonError):
    """An option name the game does not define."""

    code = ErrorCode.UNKNOWN_OPTION


class InvalidOptionError(PendragonError):
    """A known option with a value of the wrong type or out of range."""

    code = ErrorCode.INVALID_OPTION


class MalformedActionError(PendragonError):
    """An action that is not an id of the catalog, or text that names no action."""

    code = ErrorCode.MALFORMED_ACTION


class IllegalActionError(PendragonError):
    """A well-formed action that the rules do not allow in this state."""

    code = ErrorCode.ILLEGAL_ACTION


class GameOverError(IllegalActionError):
    """An action applied to a finished game."""

    code = ErrorCode.GAME_OVER


class NotChanceNodeError(PendragonError):
    """``chance_outcomes`` asked of a state where a player, not chance, decides."""

    code = ErrorCode.NOT_CHANCE_NODE


class CorruptStateError(PendragonError):
    """Serialized text or a fixture that does not describe a valid state."""

    code = ErrorCode.CORRUPT_STATE


class BadFixtureError(CorruptStateError):
    """A scenario fixture file that cannot be loaded."""

    code = ErrorCode.BAD_FIXTURE
