"""Reading stored states and fixtures back: the checks every game makes at the trust boundary.

A serialised state or a scenario fixture comes from outside (a database, a file, a client),
so each game checks it field by field before a rule sees it. The checks that do not depend
on the game are here once: JSON text, whole numbers, the options a state was played with,
the translation of a stray ``KeyError`` into :class:`CorruptStateError`, and the last look
that a rebuilt position can be played and shown. The game's own fields stay the game's.

>>> read_json('{"pos": [3, 9]}')
{'pos': [3, 9]}
>>> whole_numbers([3, 9], "pos")
[3, 9]
>>> whole_number(True, "round")
Traceback (most recent call last):
...
pendragon.core.errors.CorruptStateError: round must be a whole number, not True
>>> with reading("Grail Cup state"):
...     {"pos": []}["round"]
Traceback (most recent call last):
...
pendragon.core.errors.CorruptStateError: not a valid Grail Cup state: KeyError('round')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Container, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, TypeVar

from pendragon.core.errors import BadFixtureError, CorruptStateError, PendragonError
from pendragon.core.options import _shown

if TYPE_CHECKING:
    from pendragon.core.api import Game, State

#: Longest list a stored field may hold (a history of a long game is far shorter): bounds
#: the work a hostile text can ask for.
MAX_LIST: Final = 100_000
#: What a malformed structure raises when a reader indexes into it.
_LOOKUP_ERRORS: Final = (KeyError, TypeError, ValueError, IndexError, AttributeError)

S = TypeVar("S")


def read_json(text: object) -> Any:
    """The JSON value of a serialised state; :class:`CorruptStateError` for anything else.

    >>> read_json(b"{}")
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: a serialized state is text
    >>> read_json("[" * 100_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: not JSON: ...
    """
    if not isinstance(text, str):
        raise CorruptStateError("a serialized state is text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise CorruptStateError(f"not JSON: {error}") from None


def whole_number(value: Any, name: str) -> int:
    """``value`` if it is an ``int`` within 64 bits (not a ``bool``), else
    :class:`CorruptStateError` naming the field ``name``.

    >>> whole_number(2 ** 64, "seed")
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: seed is out of range
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptStateError(f"{name} must be a whole number, not {value!r}")
    if not -(1 << 64) <= value < 1 << 64:
        raise CorruptStateError(f"{name} is out of range")
    return int(value)


def whole_numbers(value: Any, name: str) -> list[int]:
    """A new list of the whole numbers in the list ``value`` (at most :data:`MAX_LIST`).

    >>> whole_numbers((1, 2), "pos")
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: pos must be a list of whole numbers
    """
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise CorruptStateError(f"{name} must be a list of whole numbers")
    # Plain ints in range (all of JSON's) are checked without a call each: histories are long.
    if all(type(item) is int and -(1 << 64) <= item < 1 << 64 for item in value):
        return value.copy()
    return [whole_number(item, name) for item in value]


@contextmanager
def reading(what: str) -> Iterator[None]:
    """Turn the errors of indexing into malformed data (a missing key, a string where a list
    was due) into :class:`CorruptStateError`: ``not a valid <what>: ...``. A
    :class:`CorruptStateError` raised inside passes unchanged (see the module's example)."""
    try:
        yield
    except CorruptStateError:
        raise
    except _LOOKUP_ERRORS as error:
        raise CorruptStateError(f"not a valid {what}: {error!r}") from None


def read_state(game: Game, text: object, what: str, marker: object, version: int,
               from_dict: Callable[[Any, dict[str, Any]], S]) -> S:
    """A state of ``game`` from its serialised ``text`` (a game's ``deserialize_state``):
    the JSON value (:func:`read_json`) checked as a stored state of ``game``
    (:func:`read_stored_state`: format ``marker`` at ``version``, the game's options), then
    the game's own fields rebuilt by ``from_dict``, all inside :func:`reading` (``what``: the
    game's name in an error).

    >>> import pendragon
    >>> game = pendragon.load_game("grail-cup", players=3, seed=7)
    >>> read_state(game, '{"format": "gc"}', "Grail Cup", "gc", 1, lambda g, data: data)
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: unsupported Grail Cup state format None
    >>> text = '{"format": "gc", "format_version": 1, "options": {"players": 3}}'
    >>> read_state(game, text, "Grail Cup", "gc", 1, lambda g, data: data["pos"])
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: not a valid Grail Cup state: KeyError('pos')
    """
    with reading(f"{what} state"):
        return from_dict(game, read_stored_state(game, read_json(text), what, marker, version))


def stored_format(data: Any, what: str, marker: object, version: int | None = None,
                  ) -> dict[str, Any]:
    """``data`` if it is a stored state's mapping with the format ``marker`` (and, when
    given, ``format_version``), else :class:`CorruptStateError` naming ``what`` it is not.

    >>> stored_format({"format": "grail-cup", "format_version": 1}, "Grail Cup", "grail-cup", 2)
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: unsupported Grail Cup state format 1
    >>> stored_format([], "coin-toss", 1)
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: not a coin-toss state (missing format marker)
    """
    if not isinstance(data, dict) or data.get("format") != marker:
        raise CorruptStateError(f"not a {what} state (missing format marker)")
    if version is not None and data.get("format_version") != version:
        raise CorruptStateError(
            f"unsupported {what} state format {_shown(data.get('format_version'))}"
        )
    return data


def read_stored_state(game: Game, data: Any, what: str, marker: object,
                      version: int) -> dict[str, Any]:
    """``data`` checked as a stored state of ``game`` (``what``: the game's name in an
    error): the format ``marker`` at ``version`` (:func:`stored_format`) and the game's
    options (:func:`check_stored_options`)."""
    stored = stored_format(data, what, marker, version)
    check_stored_options(game, stored["options"])
    return stored


def read_agenda(tasks: Any, codes: Container[int] | None = None) -> list[tuple[int, int, int, int]]:
    """A stored agenda: a list of tasks ``[code, a, b, c]``, four whole numbers each (the code
    one of ``codes``, when given); else :class:`CorruptStateError`.

    >>> read_agenda([[3, 0, 1, 0]], codes=range(4))
    [(3, 0, 1, 0)]
    >>> read_agenda([[9, 0, 0, 0]], codes=range(4))
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: bad agenda task [9, 0, 0, 0]
    """
    if not isinstance(tasks, list):
        raise CorruptStateError("agenda must be a list")
    agenda = []
    for task in tasks:
        parts = whole_numbers(task, "agenda task")
        if len(parts) != 4 or (codes is not None and parts[0] not in codes):
            raise CorruptStateError(f"bad agenda task {task!r}")
        agenda.append((parts[0], parts[1], parts[2], parts[3]))
    return agenda


def stored_options(game: Game) -> dict[str, Any]:
    """The options a state of ``game`` stores, to be checked when it is read back: all but
    the seed (a state carries its own chance stream).

    >>> import pendragon
    >>> stored_options(pendragon.load_game("grail-cup", players=3, seed=7))
    {'players': 3, 'track': 'standard', 'track_file': None}
    """
    return {name: value for name, value in game.options.items() if name != "seed"}


def check_stored_options(game: Game, saved: Any) -> None:
    """:class:`CorruptStateError` unless ``saved`` (a state's :func:`stored_options`) are the
    options of ``game``. An option missing from ``saved`` (added to the game after the state
    was stored) counts as its default, at which that state was played; a stored ``seed``
    is ignored.

    >>> import pendragon
    >>> game = pendragon.load_game("grail-cup", players=3, seed=7)
    >>> check_stored_options(game, {"players": 3})
    >>> check_stored_options(game, {"players": 3, "seed": 1})
    >>> check_stored_options(game, {"players": 4})
    Traceback (most recent call last):
    ...
    pendragon.core.errors.CorruptStateError: state options {'players': 4, 'track': 'standard', \
'track_file': None} differ from the game's {'players': 3, 'track': 'standard', 'track_file': None}
    """
    if not isinstance(saved, Mapping):
        raise CorruptStateError("a state's options are a mapping")
    options = {spec.name: spec.default for spec in game.option_specs}
    options.update(saved)
    options.pop("seed", None)  # a state stored with its game's seed: its stream is its own
    mine = stored_options(game)
    if options != mine:
        raise CorruptStateError(f"state options {options} differ from the game's {mine}")


def check_playable(state: State, seats: int | None = None) -> None:
    """The last look at a state rebuilt from outside: it offers a choice unless it is over,
    its chance outcomes add up to 1, and it shows itself to every seat and to a spectator
    (``seats``: how many the state has, the game's count unless a game lets players join
    mid-game).
    Whatever fails becomes :class:`CorruptStateError` (a rule tripping on an impossible
    position raises a ``LookupError`` or worse, which must not reach a server's caller).

    >>> import pendragon
    >>> check_playable(pendragon.load_game("grail-cup", players=3, seed=7).new_initial_state())
    """
    try:
        if not state.is_terminal() and not state.legal_actions():
            raise CorruptStateError("the state's pending decision has no legal action")
        if state.is_chance_node() and abs(sum(p for _, p in state.chance_outcomes()) - 1.0) > 1e-9:
            raise CorruptStateError("the state's chance outcomes do not add up to 1")
        state.observation(None)
        for seat in range(state.game.num_players() if seats is None else seats):
            state.observation(seat)
            state.observation_tensor(seat)
    except CorruptStateError:
        raise
    except (ArithmeticError, LookupError, TypeError, ValueError, AssertionError) as error:
        raise CorruptStateError(f"the state cannot be played: {error!r}") from None


def fixture_fields(data: Any, keys: set[str] | frozenset[str], where: str = "fixture",
                   prefix: str = "") -> dict[str, Any]:
    """A scenario fixture's mapping (``None`` is the empty one), checked to use only
    ``keys``; :class:`BadFixtureError` otherwise. ``prefix`` starts every message.

    >>> fixture_fields(None, {"players"})
    {}
    >>> fixture_fields({"players": 3, "colour": "red"}, {"players"}, prefix="fixture: ")
    Traceback (most recent call last):
    ...
    pendragon.core.errors.BadFixtureError: fixture: unknown field(s) ['colour']
    """
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise BadFixtureError(f"{prefix}a {where} is a mapping")
    unknown = set(data) - set(keys)
    if unknown:
        raise BadFixtureError(f"{prefix}unknown field(s) {sorted(map(str, unknown))}")
    return dict(data)


def fixture_options(data: Mapping[str, Any], allowed: set[str] | frozenset[str] | None = None,
                    prefix: str = "") -> dict[str, Any]:
    """The ``options`` mapping of a fixture (``{}`` when absent): option names only, never
    ``players`` or ``seed`` (a fixture gives them at its top level), and only ``allowed``
    ones when given; :class:`BadFixtureError` otherwise.

    >>> fixture_options({"options": {"promos": True}})
    {'promos': True}
    >>> fixture_options({"options": {"seed": 3}})
    Traceback (most recent call last):
    ...
    pendragon.core.errors.BadFixtureError: options: give players and seed at the top level
    >>> fixture_options({"options": {"promos": True}}, {"track"}, prefix="fixture: ")
    Traceback (most recent call last):
    ...
    pendragon.core.errors.BadFixtureError: fixture: options may only set track
    """
    options = data.get("options", {})
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise BadFixtureError(f"{prefix}options: a mapping of option names")
    if "players" in options or "seed" in options:
        raise BadFixtureError(f"{prefix}options: give players and seed at the top level")
    if allowed is not None and set(options) - set(allowed):
        raise BadFixtureError(f"{prefix}options may only set {' or '.join(sorted(allowed))}")
    return dict(options)


@contextmanager
def fixture_errors(prefix: str = "", lookups: bool = False) -> Iterator[None]:
    """Around a fixture loader: any :class:`PendragonError` raised inside (an impossible
    option, a state the invariants refuse) becomes :class:`BadFixtureError` with ``prefix``
    before its message; with ``lookups``, so do the errors of indexing into malformed data.
    A :class:`BadFixtureError` passes unchanged.

    >>> import pendragon
    >>> with fixture_errors("fixture: "):
    ...     pendragon.load_game("grail-cup", players=9)
    Traceback (most recent call last):
    ...
    pendragon.core.errors.BadFixtureError: fixture: option 'players' must be between 2 and 8, got 9
    """
    try:
        yield
    except BadFixtureError:
        raise
    except PendragonError as error:
        raise BadFixtureError(f"{prefix}{error.message}") from None
    except _LOOKUP_ERRORS as error:
        if not lookups:
            raise
        raise BadFixtureError(f"{prefix}{error!r}") from None
