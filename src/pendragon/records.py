"""Game records: one JSON file per game, for all three games (issue 31 item 1, "our PGN").

A record names the game, the version of its rules it was played under
(:attr:`~pendragon.core.api.Game.rules_version`), its options as resolved (players and seed
among them), who sat
where (a name and the bot of each seat, ``None`` for a person), every action by its text
(:meth:`~pendragon.core.api.State.action_to_string`, chance outcomes and table operations
included, in order), the result (returns per seat and the end reason, or ``None`` while
the game is unfinished) and, optionally, the seconds each action took. The format is
documented field by field in ``docs/records.md``; its JSON Schema is
``docs/records.schema.json``.

A record file may come from anyone, so reading one checks everything before it hands back
a :class:`GameRecord`: the size, the JSON, the format's name and version, every field's
type, the game and its options, and every action, replayed from the first to the last,
legal where it stands; the stored result must be the replayed one. A record played under
another version of the game's rules is refused by name: its actions may still be legal and
mean another game. Anything wrong is a :class:`RecordError` that says what, and nothing is
half-read.

>>> import pendragon
>>> from pendragon.runner import random_playout
>>> final = random_playout(pendragon.load_game("grail-cup", players=3, seed=7), seed=1)
>>> record = record_of(final, [RecordSeat("Ann", None), RecordSeat("Seat 1", "random"),
...                            RecordSeat("Seat 2", "random")])
>>> again = loads(dumps(record))
>>> again == record
True
>>> replay_record(again).final.serialize() == final.serialize()
True
>>> loads('{"format": "chess-pgn"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pendragon.records.RecordError: not a pendragon game record (its format is 'chess-pgn', ...)
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pendragon.core import registry
from pendragon.core.api import Game, State
from pendragon.core.errors import PendragonError
from pendragon.core.options import OptionValue, _shown

#: The ``format`` of every record: what tells a record from any other JSON file.
FORMAT = "pendragon-record"
#: The version of the format this module writes and the newest it reads (2 added
#: ``rules_version``; a record of format 1 names none and is replayed as it stands).
FORMAT_VERSION = 2
#: Largest record file read (bytes): the longest real games take a few hundred kilobytes.
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: Longest action text, seat name, bot name, end reason or version string accepted.
MAX_TEXT = 200
#: The fields of a record, in the order they are written.
FIELDS = ("format", "format_version", "pendragon_version", "game", "rules_version", "options",
          "seats", "actions", "result", "seconds", "date")
_REQUIRED = frozenset(FIELDS) - {"seconds", "date", "rules_version"}
#: The seed a record without one is replayed with: every chance outcome is among its
#: actions, so the seed changes nothing that is replayed (only the stream a continuation
#: would draw from).
WITHHELD_SEED_REPLAY = 0


class RecordError(PendragonError):
    """A record that cannot be read: broken, foreign, from a newer format, of an unknown
    game or other rules, with a bad option or an illegal action, or whose result is not the
    game's."""


@dataclass(frozen=True, slots=True)
class RecordSeat:
    """One seat of a record: the name people read and the bot that played it (``None``:
    a person)."""

    name: str
    bot: str | None


@dataclass(frozen=True, slots=True)
class RecordResult:
    """How a finished game ended: each seat's return and the game's end reason (``None``
    for a game that reports none, e.g. Grail Cup)."""

    returns: tuple[float, ...]
    end_reason: str | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as a record file holds it (``docs/records.md`` describes each field).

    ``rules_version`` is the version of the game's rules it was played under
    (:attr:`~pendragon.core.api.Game.rules_version`; ``None`` in a record of format 1, which
    named none); ``options`` the game's options as resolved (``players`` and ``seed`` among them;
    ``seed`` is ``None`` where it was withheld, as for a game of the web table);
    ``actions`` the text of every action in order; ``result`` ``None`` for an unfinished
    game; ``seconds`` (optional) how long each action took, one per action; ``date``
    (optional) when the game began, ISO 8601 in UTC.
    """

    game: str
    options: Mapping[str, OptionValue]
    seats: tuple[RecordSeat, ...]
    actions: tuple[str, ...]
    result: RecordResult | None
    seconds: tuple[float, ...] | None = None
    date: str | None = None
    rules_version: int | None = None
    pendragon_version: str = field(default_factory=lambda: pendragon_version())
    format: str = FORMAT
    format_version: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        """The record as JSON data, fields in the documented order."""
        data: dict[str, Any] = {
            "format": self.format,
            "format_version": self.format_version,
            "pendragon_version": self.pendragon_version,
            "game": self.game,
        }
        if self.rules_version is not None:
            data["rules_version"] = self.rules_version
        data |= {
            "options": dict(self.options),
            "seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
            "actions": list(self.actions),
            "result": None if self.result is None else {
                "returns": list(self.result.returns), "end_reason": self.result.end_reason},
        }
        if self.seconds is not None:
            data["seconds"] = list(self.seconds)
        if self.date is not None:
            data["date"] = self.date
        return data


@dataclass(frozen=True, slots=True)
class ReplayedRecord:
    """A record rebuilt: the game, the action ids in order and the final position.

    What a reader of records (the terminal's ``pendragon replay``, the review) starts
    from; :meth:`state_at` rebuilds any earlier position.
    """

    record: GameRecord
    game: Game
    actions: tuple[int, ...]
    final: State

    def state_at(self, version: int) -> State:
        """The position after the first ``version`` actions (0: the initial state)."""
        if not 0 <= version <= len(self.actions):
            raise ValueError(f"version must be between 0 and {len(self.actions)}")
        state = self.game.new_initial_state()
        for action in self.actions[:version]:
            state.apply_recorded(action)
        return state

    def positions(self) -> Iterator[tuple[State, int]]:
        """Each position before an action, with that action: ``(state, action)``. The
        state is the same object throughout (copy it to keep one)."""
        state = self.game.new_initial_state()
        for action in self.actions:
            yield state, action
            state.apply_recorded(action)


def pendragon_version() -> str:
    """The installed pendragon's version (``"unknown"`` when run from a bare checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pendragon")
    except PackageNotFoundError:  # pragma: no cover - depends on the installation
        return "unknown"


def result_of(state: State) -> RecordResult | None:
    """The result of ``state`` if it is over, else ``None``."""
    if not state.is_terminal():
        return None
    reason = state.observation(None).get("end_reason")
    return RecordResult(tuple(float(r) for r in state.returns()),
                        str(reason) if reason else None)


def record_of(
    state: State,
    seats: Sequence[RecordSeat],
    *,
    seconds: Sequence[float] | None = None,
    date: str | None = None,
    withhold_seed: bool = False,
) -> GameRecord:
    """The record of the game played to ``state`` (finished or not) by ``seats``.

    ``withhold_seed``: write ``seed`` as ``None`` (the web table never shows its seed;
    the actions carry every chance outcome, so the record replays the same).
    """
    history = state.history()
    if len(seats) != state.seat_count():
        raise ValueError(f"{state.seat_count()} seats need as many names, got {len(seats)}")
    if seconds is not None and len(seconds) != len(history):
        raise ValueError(f"{len(history)} actions need as many durations, got {len(seconds)}")
    options = dict(state.game.options)
    if withhold_seed:
        options["seed"] = None
    return GameRecord(
        game=state.game.name,
        options=options,
        seats=tuple(seats),
        actions=tuple(state.action_to_string(a) for a in history),
        result=result_of(state),
        seconds=None if seconds is None else tuple(float(s) for s in seconds),
        date=date,
        rules_version=state.game.rules_version,
    )


def dumps(record: GameRecord) -> str:
    """The record as the text of a record file: JSON, a field a line, a seat and an action
    a line (so that two records of one game compare line by line)."""
    lines = []
    for key, value in record.to_json().items():
        if key in ("seats", "actions") and value:
            items = ",\n  ".join(_compact(item) for item in value)
            text = f"[\n  {items}\n ]"
        else:
            text = _compact(value)
        lines.append(f" {_compact(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def write_record(path: str | Path, record: GameRecord) -> Path:
    """Write ``record`` to ``path`` (UTF-8); returns the path."""
    target = Path(path)
    target.write_text(dumps(record), encoding="utf-8")
    return target


def read_record(path: str | Path, *, local_options: bool = False) -> GameRecord:
    """The record in the file ``path``, checked as :func:`loads` checks it.

    A file larger than :data:`MAX_RECORD_BYTES` is refused before it is read.
    """
    target = Path(path)
    try:
        with target.open("rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(f"cannot read the record {str(target)!r}: {error.strerror}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is at most {MAX_RECORD_BYTES} bytes; "
                          f"{str(target)!r} is larger")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("a record is UTF-8 text") from None
    return loads(text, local_options=local_options)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str | bytes, *, local_options: bool = False) -> GameRecord:
    """The record in ``text``, checked field by field and replayed to its end.

    ``local_options``: accept options that name something on this machine (Grail Cup's
    ``track_file``: a path), refused by default since a record may come from anyone.
    Raises :class:`RecordError` for anything that is not a valid record.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("a record is UTF-8 text") from None
    if not isinstance(text, str):
        raise RecordError("a record is text")
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is at most {MAX_RECORD_BYTES} bytes")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"not a record: broken JSON ({_cut(str(error))})") from None
    record = from_json(data, local_options=local_options)
    replay_record(record, local_options=local_options)
    return record


def from_json(data: Any, *, local_options: bool = False) -> GameRecord:
    """A :class:`GameRecord` from JSON data, every field checked (but not replayed: see
    :func:`loads`)."""
    if not isinstance(data, dict):
        raise RecordError("not a pendragon game record (not a JSON object)")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a pendragon game record (its format is "
                          f"{_shown(data.get('format'))}, not {FORMAT!r})")
    version = data.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise RecordError(f"format_version must be a whole number from 1, not {_shown(version)}")
    if version > FORMAT_VERSION:
        raise RecordError(f"the record is of format version {version}, newer than this "
                          f"pendragon reads ({FORMAT_VERSION}): upgrade pendragon")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise RecordError(f"unknown field(s) {', '.join(_shown(k) for k in unknown[:5])}")
    missing = sorted(_REQUIRED - set(data) | ({"rules_version"} - set(data) if version >= 2
                                              else set()))
    if missing:
        raise RecordError(f"the record has no {', '.join(missing)}")
    seats = data["seats"]
    if not isinstance(seats, list) or not seats or len(seats) > 64:
        raise RecordError("seats must be a list of 1 to 64 seats")
    result = data["result"]
    return GameRecord(
        game=_text(data["game"], "game"),
        options=_options(data["options"]),
        seats=tuple(_seat(seat, index) for index, seat in enumerate(seats)),
        actions=_texts(data["actions"], "actions"),
        result=None if result is None else _result(result),
        seconds=_seconds(data.get("seconds")),
        date=None if data.get("date") is None else _text(data["date"], "date"),
        rules_version=_rules_version(data, version),
        pendragon_version=_text(data["pendragon_version"], "pendragon_version"),
        format_version=version,
    )


def load_record_game(record: GameRecord, *, local_options: bool = False) -> Game:
    """The game a record was played with; :class:`RecordError` for an unknown game, rules of
    another version than this pendragon's, or options the game refuses (or, without
    ``local_options``, one naming a local file)."""
    try:
        cls = registry.game_class(record.game)
    except PendragonError:
        known = ", ".join(registry.registered_games())
        raise RecordError(f"unknown game {_shown(record.game)}; this pendragon has {known}"
                          ) from None
    other = other_rules(cls, record.rules_version)
    if other is not None:
        raise RecordError(f"the record was {other}, where its actions may make another game "
                          f"(pendragon {_shown(record.pendragon_version)} wrote it; what "
                          f"changed: docs/rules, \"Rules versions\")")
    specs = {spec.name: spec for spec in cls.option_specs}
    options = dict(record.options)
    for name, value in options.items():
        spec = specs.get(name)
        if spec is not None and not spec.remote and not local_options and value != spec.default:
            raise RecordError(f"option {name!r} names something on the machine that wrote the "
                              "record; it is not read from a record")
    if options.get("seed") is None:
        options["seed"] = WITHHELD_SEED_REPLAY
    try:
        game = registry.load_game(record.game, **options)
    except PendragonError as error:
        raise RecordError(f"bad option: {error.message}") from None
    for name, value in record.options.items():
        resolved = game.options.get(name)
        if name != "seed" and (type(resolved) is not type(value) or resolved != value):
            raise RecordError(f"bad option: {name!r} is stored as {_shown(value)}, "
                              f"which is not a {specs[name].type.__name__} value")
    return game


def other_rules(cls: type[Game], version: int | None) -> str | None:
    """Why a game of ``cls`` stored under its rules version ``version`` (a record's, a web
    table's) is not replayed here: played under another version than the installed one
    (``None``: the same version, or a game stored before games named one).

    >>> import pendragon
    >>> other_rules(pendragon.game_class("grail-cup"), 1)
    "played under version 1 of grail-cup's rules; this pendragon plays version 3"
    >>> other_rules(pendragon.game_class("grail-cup"), None) is None
    True
    """
    if version is None or version == cls.rules_version:
        return None
    return (f"played under version {version} of {cls.name}'s rules; this pendragon plays "
            f"version {cls.rules_version}")


def replay_record(record: GameRecord, *, local_options: bool = False) -> ReplayedRecord:
    """Rebuild the game of ``record`` action by action and check its stored result.

    :class:`RecordError` names the first action that is not one of the game's or is not
    legal where it stands, a record longer than the game's hard cap (``length_cap()``: a
    game past the research bound ``max_game_length()`` replays), seats that
    are not the game's, or a result that is not the replayed one.
    """
    game = load_record_game(record, local_options=local_options)
    limit = game.length_cap()
    if len(record.actions) > limit:
        raise RecordError(f"{len(record.actions)} actions: more than a game of "
                          f"{record.game} can have ({limit})")
    if record.seconds is not None and len(record.seconds) != len(record.actions):
        raise RecordError(f"seconds has {len(record.seconds)} entries for "
                          f"{len(record.actions)} actions")
    state = game.new_initial_state()
    ids: list[int] = []
    for index, text in enumerate(record.actions):
        try:
            action = state.string_to_action(text)
            state.apply_recorded(action)
        except PendragonError as error:
            raise RecordError(f"action {index} ({_shown(text)}): {error.message}") from None
        ids.append(action)
    if len(record.seats) != state.seat_count():
        raise RecordError(f"the record names {len(record.seats)} seats; the game has "
                          f"{state.seat_count()}")
    replayed = result_of(state)
    if record.result is None and replayed is not None:
        raise RecordError("the record says the game is unfinished, but its actions end it")
    if record.result is not None and replayed is None:
        raise RecordError("the record gives a result, but its actions do not end the game")
    if record.result != replayed:
        assert replayed is not None and record.result is not None
        raise RecordError(f"the stored result {_result_text(record.result)} is not the "
                          f"game's: {_result_text(replayed)}")
    return ReplayedRecord(record, game, tuple(ids), state)


# ---------------------------------------------------------------------- field checks
def _cut(text: str) -> str:
    return text if len(text) <= 80 else text[:79] + "…"


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise RecordError(f"{name} must be text of 1 to {MAX_TEXT} characters, "
                          f"not {_shown(value)}")
    return value


def _texts(value: Any, name: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{name} must be a list of texts")
    for index, item in enumerate(value):
        if not isinstance(item, str) or not 0 < len(item) <= MAX_TEXT:
            raise RecordError(f"{name}[{index}] must be text of 1 to {MAX_TEXT} characters, "
                              f"not {_shown(item)}")
    return tuple(value)


def _rules_version(data: Mapping[str, Any], version: int) -> int | None:
    """A record's ``rules_version``: a whole number from 1 in format 2, absent in format 1."""
    if version < 2:
        if "rules_version" in data:
            raise RecordError("a record of format version 1 has no rules_version")
        return None
    value = data["rules_version"]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1_000_000:
        raise RecordError(f"rules_version must be a whole number from 1, not {_shown(value)}")
    return int(value)


def _options(value: Any) -> dict[str, OptionValue]:
    if not isinstance(value, dict) or len(value) > 64:
        raise RecordError("options must be a mapping of option names to values")
    for name, item in value.items():
        if not 0 < len(name) <= MAX_TEXT or not (
                item is None or isinstance(item, bool | int | str)):
            raise RecordError(f"bad option: {_shown(name)} must be a number, text, "
                              f"true/false or null, not {_shown(item)}")
    return dict(value)


def _seat(value: Any, index: int) -> RecordSeat:
    if not isinstance(value, dict) or set(value) != {"name", "bot"}:
        raise RecordError(f"seats[{index}] must be an object with a name and a bot")
    bot = value["bot"]
    return RecordSeat(_text(value["name"], f"seats[{index}].name"),
                      None if bot is None else _text(bot, f"seats[{index}].bot"))


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RecordError(f"{name} must be a number, not {_shown(value)}")
    return float(value)


def _result(value: Any) -> RecordResult:
    if not isinstance(value, dict) or set(value) != {"returns", "end_reason"}:
        raise RecordError("result must be null or an object with returns and end_reason")
    returns = value["returns"]
    if not isinstance(returns, list) or len(returns) > 64:
        raise RecordError("result.returns must be a list of numbers, one per seat")
    reason = value["end_reason"]
    return RecordResult(
        tuple(_number(r, f"result.returns[{i}]") for i, r in enumerate(returns)),
        None if reason is None else _text(reason, "result.end_reason"),
    )


def _seconds(value: Any) -> tuple[float, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise RecordError("seconds must be null or a list of numbers, one per action")
    seconds = tuple(_number(s, f"seconds[{i}]") for i, s in enumerate(value))
    if any(s < 0 for s in seconds):
        raise RecordError("seconds must not be negative")
    return seconds


def _result_text(result: RecordResult) -> str:
    returns = "/".join(f"{r:+g}" for r in result.returns)
    return f"{returns} ({result.end_reason})" if result.end_reason else returns
