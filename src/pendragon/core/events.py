"""Events: what happened, as a message key and typed parameters, never as a sentence.

The rules of every game narrate through events (``State.narrate(action, viewer)``), and
label their actions and decisions with them (``State.action_event``,
``State.decision_event``). An event names a message of the game's catalog
(``soc.log.draw-white``) and carries parameters of four kinds:

* ``int``: a number (a count, a die, a value); a parameter named ``count`` chooses the
  plural form of a message that has them;
* :class:`Seat`: a seat, worded by the reader's interface (a name, a knight, "you");
* :class:`Term`: another message of the catalog (a card, knight, quest or decision name);
* :class:`Event`: a nested event (an action inside "Seat 3 plays ...").

Whoever reads events (the terminal, the web page, a test) words them in the reader's
language with :mod:`pendragon.i18n`; no layer parses text. The events of a viewer are
computed from what that viewer may know, so an event that reaches a viewer reveals
nothing more than it was entitled to see.

>>> event = Event("soc.log.draw-white-known", {"seat": Seat(2), "card": Term("soc.white.fight-5")})
>>> event.to_json()
{'k': 'soc.log.draw-white-known', 'p': {'seat': {'seat': 2}, 'card': {'term': 'soc.white.fight-5'}}}
>>> Event.from_json(event.to_json()) == event
True
>>> sorted(event.message_keys())
['soc.log.draw-white-known', 'soc.white.fight-5']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Union

#: A key: lowercase words and digits joined by dots, dashes, underscores and colons.
_KEY_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-_:")


def _check_key(key: str) -> str:
    if not isinstance(key, str) or not key or not set(key) <= _KEY_CHARS:
        raise ValueError(f"{key!r} is not a message key")
    return key


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as an event parameter (worded by the reader: a name, a knight, "you")."""

    index: int


@dataclass(frozen=True, slots=True)
class Term:
    """A message of the catalog as an event parameter (a card, a quest, a decision)."""

    key: str

    def __post_init__(self) -> None:
        _check_key(self.key)


Param = Union[int, Seat, Term, "Event"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened (or one action's name): a message key and its parameters."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_key(self.key)
        for name, value in self.params.items():
            if isinstance(value, bool) or not isinstance(value, int | Seat | Term | Event):
                raise TypeError(f"parameter {name!r} of {self.key} is {value!r}, not a Param")

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.params.items(), key=lambda kv: kv[0]))))

    def to_json(self) -> dict[str, Any]:
        """The JSON form sent to pages: ``{"k": key, "p": {name: value}}``."""
        return {"k": self.key, "p": {name: _param_json(v) for name, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """The event of :meth:`to_json`'s output; ``ValueError`` on anything else."""
        if not isinstance(data, dict) or set(data) != {"k", "p"} or not isinstance(
            data["p"], dict
        ):
            raise ValueError(f"{data!r} is not an event")
        return cls(str(data["k"]), {str(k): _param_from_json(v) for k, v in data["p"].items()})

    def message_keys(self) -> Iterator[str]:
        """Every message key this event needs: its own, its terms' and its nested events'."""
        yield self.key
        for value in self.params.values():
            if isinstance(value, Term):
                yield value.key
            elif isinstance(value, Event):
                yield from value.message_keys()

    def seats(self) -> Iterator[int]:
        """Every seat this event names (nested events included)."""
        for value in self.params.values():
            if isinstance(value, Seat):
                yield value.index
            elif isinstance(value, Event):
                yield from value.seats()


def _param_json(value: Param) -> Any:
    if isinstance(value, Seat):
        return {"seat": value.index}
    if isinstance(value, Term):
        return {"term": value.key}
    if isinstance(value, Event):
        return value.to_json()
    return value


def _param_from_json(value: Any) -> Param:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, dict):
        if set(value) == {"seat"} and isinstance(value["seat"], int):
            return Seat(value["seat"])
        if set(value) == {"term"} and isinstance(value["term"], str):
            return Term(value["term"])
        return Event.from_json(value)
    raise ValueError(f"{value!r} is not an event parameter")


def event(key: str, **params: Param) -> Event:
    """Shorthand: ``event("soc.log.die", value=6)``.

    >>> event("soc.log.die", value=6)
    Event(key='soc.log.die', params={'value': 6})
    """
    return Event(key, params)
