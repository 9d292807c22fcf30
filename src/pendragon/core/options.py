"""Declared game options and their validation.

Each game declares its options as :class:`OptionSpec` records; :func:`resolve_options` turns
the keyword arguments of ``load_game`` into a complete, validated mapping, or raises a clear
error naming the option.

>>> specs = (OptionSpec("players", int, 5, minimum=3, maximum=7, help="number of seats"),
...          OptionSpec("share", str, "choice", choices=("choice", "random"), help="sharing"))
>>> resolve_options(specs, {"players": 4})
{'players': 4, 'share': 'choice'}
>>> resolve_options(specs, {"player": 4})
Traceback (most recent call last):
...
pendragon.core.errors.UnknownOptionError: unknown option 'player'; known options: players, share
>>> resolve_options(specs, {"players": 9})
Traceback (most recent call last):
...
pendragon.core.errors.InvalidOptionError: option 'players' must be between 3 and 7, got 9
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pendragon.core.errors import InvalidOptionError, UnknownOptionError

OptionValue = int | str | bool | None


#: Longest part of a refused value an error message repeats (a remote client's value is
#: bounded only by the request's size).
SHOWN: Final = 40


def _shown(value: Any) -> str:
    """``repr(value)``, cut to :data:`SHOWN` characters.

    >>> _shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
    """
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game: its name, type, default and allowed values."""

    name: str
    type: type
    default: OptionValue
    help: str = ""
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    #: Whether a remote client (the web table, over the network) may set this option. An
    #: option that names anything on the server's own machine (a file path, a module) is
    #: ``False``: it is for the engine's callers and the terminal only, and the web refuses
    #: it whatever its value (issue 27's file read through Grail Cup's ``track``).
    remote: bool = True

    def validate(self, value: Any) -> OptionValue:
        """Return ``value`` checked (and, for text from a command line, converted)."""
        if value is None and self.nullable:
            return None
        if self.type is bool:
            if isinstance(value, str) and value.lower() in ("true", "yes", "1", "false", "no", "0"):
                value = value.lower() in ("true", "yes", "1")
            if not isinstance(value, bool):
                raise InvalidOptionError(
                    f"option {self.name!r} must be true or false, got {_shown(value)}"
                )
        elif self.type is int:
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise InvalidOptionError(
                        f"option {self.name!r} must be a whole number, got {_shown(value)}"
                    ) from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptionError(
                    f"option {self.name!r} must be a whole number, got {_shown(value)}"
                )
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise InvalidOptionError(
                    f"option {self.name!r} must be between {self.minimum} and {self.maximum},"
                    f" got {value}"
                )
        elif self.type is str:
            if not isinstance(value, str):
                raise InvalidOptionError(f"option {self.name!r} must be text, got {_shown(value)}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptionError(
                f"option {self.name!r} must be one of {allowed}, got {_shown(value)}"
            )
        result: OptionValue = value
        return result


#: The ``seed`` option every game declares: the seed of its chance stream (``None``: a
#: fresh one from the system). Its meaning is the core's (:class:`~pendragon.core.api.Game`).
SEED_OPTION: Final = OptionSpec("seed", int, None, "seed of the game's chance stream",
                                nullable=True)


def remote_specs(specs: Sequence[OptionSpec]) -> tuple[OptionSpec, ...]:
    """The options a remote client may set (``remote``), in their declared order.

    >>> specs = (OptionSpec("rules", str, "std", help="rule set"),
    ...          OptionSpec("rules_file", str, None, nullable=True, remote=False))
    >>> [spec.name for spec in remote_specs(specs)]
    ['rules']
    """
    return tuple(spec for spec in specs if spec.remote)


def resolve_options(
    specs: Sequence[OptionSpec], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Validate ``given`` against ``specs`` and fill in defaults."""
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name))
            raise UnknownOptionError(f"unknown option {name!r}; known options: {known}")
    return {
        spec.name: spec.validate(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }
