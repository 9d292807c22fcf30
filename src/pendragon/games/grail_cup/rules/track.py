"""The board as data: a track file lists every space's kind, from the rearmost start space
to the finish (GC-TRACK-1, GC-RULING-1).

A track file is plain text. ``#`` starts a comment; the rest is a sequence of space kinds
separated by blanks or new lines, each optionally repeated with ``*N``::

    start-9 start-8+7 start-6+5 start-4+3 start-2+1
    trail clover village trail*2 castle church dragon castle-clover trail*8 finish

Kinds: the start spaces first, ``start-`` followed by the numbers the space carries, joined
by ``+`` from the highest (``start-9``, ``start-8+7``); together they carry 1..9 once each,
descending towards the finish, so two knights dealt the numbers of one space start on it
(GC-SETUP-3). Then ``trail``, ``clover``, ``village``, ``castle``, ``castle-clover`` (a castle
with a clover token, one space), ``church``, ``dragon`` (the red trail space where the
dragon starts; exactly one), ``finish`` (exactly one, the last space; it counts as a castle).

The game offers the tracks shipped with it by name (:data:`SHIPPED`, the ``track`` option)
and a file by path only to local callers (the ``track_file`` option). An error about a file
names the line and what was expected there, never the file's own text.

>>> track = standard_track()
>>> track.kinds[0], track.kinds[track.finish], track.start_space(9), track.start_space(1)
('start-9', 'finish', 0, 4)
>>> track.start_space(8) == track.start_space(7)
True
>>> parse_track("start-9 trail*20 finish", "bad.track")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pendragon.games.grail_cup.rules.track.TrackError: bad.track: the start spaces ... 8 is missing
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Final

from pendragon.core.errors import InvalidOptionError
from pendragon.games.grail_cup.rules.data import TOKENS

#: Space kinds, in the order of their codes.
KINDS: Final[tuple[str, ...]] = (
    "start", "trail", "clover", "village", "castle", "castle-clover", "church", "dragon",
    "finish",
)
# (One Final each: mypyc folds them into the code; an unpacked range is a dictionary lookup.)
START: Final = 0
TRAIL: Final = 1
CLOVER: Final = 2
VILLAGE: Final = 3
CASTLE: Final = 4
CASTLE_CLOVER: Final = 5
CHURCH: Final = 6
DRAGON: Final = 7
FINISH: Final = 8
#: Most spaces a track may have (the action catalog names spaces by index).
MAX_SPACES: Final = 100
#: Fewest spaces: the start spaces, the finish, and room for eight knights and the dragon.
MIN_SPACES: Final = 20
#: Longest track file read (bytes).
MAX_FILE: Final = 64 * 1024
STANDARD: Final = "standard.track"
#: The tracks shipped with the game, by the name the ``track`` option takes.
SHIPPED: Final[dict[str, str]] = {"standard": STANDARD}
#: Numbers a start space may carry (GC-SETUP-3).
START_NUMBERS: Final = range(1, 10)


class TrackError(InvalidOptionError):
    """A track file that describes no playable track; the message names the problem."""


@dataclass(frozen=True, slots=True)
class Track:
    """A parsed track: one kind name per space, with the lookups the rules need."""

    kinds: tuple[str, ...]
    codes: tuple[int, ...]
    dragon_start: int
    finish: int
    clover_spaces: tuple[int, ...]
    next_castle: tuple[int, ...]
    next_church: tuple[int, ...]
    source: str
    #: ``starts[number - 1]``: the index of the start space carrying ``number``.
    starts: tuple[int, ...] = tuple(9 - n for n in START_NUMBERS)

    def __len__(self) -> int:
        return len(self.kinds)

    def start_space(self, number: int) -> int:
        """The index of the start space numbered ``number`` (1..9; 9 is the rearmost)."""
        return self.starts[number - 1]

    def is_clover(self, space: int) -> bool:
        """A space holding a clover token (clover, castle with clover)."""
        return self.codes[space] in (CLOVER, CASTLE_CLOVER)

    def is_village(self, space: int) -> bool:
        """A village space."""
        return self.codes[space] == VILLAGE

    def text(self) -> str:
        """The track as a file's text (parses back to an equal track)."""
        return " ".join(self.kinds) + "\n"


def _expand(text: str, source: str) -> list[tuple[str, int]]:
    tokens: list[tuple[str, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for word in line.split("#", 1)[0].split():
            name, star, count = word.partition("*")
            repeat = 1
            if star:
                if not count.isdigit() or not 1 <= int(count) <= MAX_SPACES:
                    raise TrackError(
                        f"{source}:{number}: bad repetition (use kind*N, N from 1 to {MAX_SPACES})"
                    )
                repeat = int(count)
            tokens += [(name, number)] * repeat
            if len(tokens) > MAX_SPACES:
                raise TrackError(f"{source}: more than {MAX_SPACES} spaces")
    return tokens


def parse_track(text: str, source: str = "<track>") -> Track:
    """Parse and check a track file's text; :class:`TrackError` names any problem."""
    if not isinstance(text, str):
        raise TrackError(f"{source}: a track is text")
    tokens = _expand(text, source)
    kinds: list[str] = []
    codes: list[int] = []
    numbers: list[tuple[int, ...]] = []
    for index, (name, line) in enumerate(tokens):
        carried = _start_numbers(name)
        if carried:
            code = START
        elif name in KINDS and name != "start":
            code = KINDS.index(name)
        else:
            # The file's own words are not repeated: a path may name any file (issue 27).
            raise TrackError(
                f"{source}:{line}: unknown space kind at space {index} (expected start-N,"
                f" {', '.join(KINDS[1:])})"
            )
        kinds.append(name)
        codes.append(code)
        numbers.append(carried)
    if len(kinds) < MIN_SPACES:
        raise TrackError(f"{source}: a track needs at least {MIN_SPACES} spaces, not {len(kinds)}")
    starts = _start_spaces(codes, numbers, source)
    if codes.count(FINISH) != 1 or codes[-1] != FINISH:
        raise TrackError(f"{source}: exactly one finish, as the last space")
    if codes.count(DRAGON) != 1:
        raise TrackError(f"{source}: exactly one dragon (red) space, found {codes.count(DRAGON)}")
    clovers = tuple(i for i, c in enumerate(codes) if c in (CLOVER, CASTLE_CLOVER))
    if len(clovers) >= TOKENS:
        raise TrackError(
            f"{source}: {len(clovers)} clover spaces; fewer than the {TOKENS} tokens are needed"
        )
    finish = len(codes) - 1
    next_castle, next_church = landmarks(codes)
    return Track(
        kinds=tuple(kinds),
        codes=tuple(codes),
        dragon_start=codes.index(DRAGON),
        finish=finish,
        clover_spaces=clovers,
        next_castle=tuple(next_castle),
        next_church=tuple(next_church),
        source=source,
        starts=starts,
    )


def code_of(kind: str) -> int:
    """The code of a space kind as a track shows it (``start-N`` spaces are :data:`START`).

    >>> code_of("start-8+7") == START, code_of("castle-clover") == CASTLE_CLOVER
    (True, True)
    """
    return START if kind.startswith("start") else KINDS.index(kind)


def landmarks(codes: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For every space of a track given by its codes, the first castle beyond it (the
    finish, which counts as one, if none: GC-SPACE-3) and the first church beyond it (-1 if
    none).

    >>> landmarks([START, TRAIL, CASTLE, CHURCH, CLOVER, FINISH])
    ((2, 2, 5, 5, 5, 5), (3, 3, 3, -1, -1, -1))
    """
    finish = len(codes) - 1
    next_castle = [finish] * len(codes)
    next_church = [-1] * len(codes)
    castle, church = finish, -1
    for index in range(finish, -1, -1):
        next_castle[index], next_church[index] = castle, church
        if codes[index] in (CASTLE, CASTLE_CLOVER, FINISH):
            castle = index
        if codes[index] == CHURCH:
            church = index
    return tuple(next_castle), tuple(next_church)


def _start_numbers(name: str) -> tuple[int, ...]:
    """The numbers a ``start-N[+M...]`` kind carries; ``()`` for any other word."""
    if not name.startswith("start-"):
        return ()
    parts = name[6:].split("+")
    if not all(len(p) == 1 and p in "123456789" for p in parts):
        return ()
    return tuple(int(p) for p in parts)


def _start_spaces(
    codes: list[int], numbers: list[tuple[int, ...]], source: str
) -> tuple[int, ...]:
    """Where each start number lies: the start spaces come first and carry 9..1 once each,
    descending towards the finish (GC-SETUP-3, GC-RULING-1)."""
    count = 0
    while count < len(codes) and codes[count] == START:
        count += 1
    if START in codes[count:]:
        raise TrackError(f"{source}: start space {codes.index(START, count)} after the starts")
    carried = [number for index in range(count) for number in numbers[index]]
    for want in range(9, 0, -1):
        if want not in carried:
            raise TrackError(
                f"{source}: the start spaces must carry 9 down to 1 first; {want} is missing"
            )
    if len(carried) != 9 or carried != sorted(carried, reverse=True):
        raise TrackError(
            f"{source}: the start spaces must carry each of 9 down to 1 once, in that order"
        )
    where = [0] * 9
    for index in range(count):
        for number in numbers[index]:
            where[number - 1] = index
    return tuple(where)


def load_track(path: str) -> Track:
    """Read and parse the track file at ``path`` (the ``track_file`` option).

    Errors name the path, a line number and what was expected, never the file's text.
    """
    try:
        with open(Path(path), "rb") as handle:
            raw = handle.read(MAX_FILE + 1)
    except OSError as error:
        raise TrackError(f"cannot read track file {path!r}: {error.strerror or error}") from None
    if len(raw) > MAX_FILE:
        raise TrackError(f"{path}: longer than {MAX_FILE} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TrackError(f"{path}: not UTF-8 text") from None
    return parse_track(text, path)


@cache
def shipped_track(name: str) -> Track:
    """A track shipped with the game, by name (:data:`SHIPPED`; GC-RULING-1)."""
    if name not in SHIPPED:
        raise TrackError(f"no track named {name!r}; the game ships {', '.join(SHIPPED)}")
    text = files("pendragon.games.grail_cup.rules").joinpath(SHIPPED[name]).read_text("utf-8")
    return parse_track(text, SHIPPED[name])


def standard_track() -> Track:
    """The standard track shipped with the game (a reconstruction, GC-RULING-1)."""
    return shipped_track("standard")


@cache
def track_for(name: str | None, path: str | None = None) -> Track:
    """The file at ``path`` if given, else the shipped track ``name`` (``None``: standard)."""
    if path is not None:
        return load_track(path)
    return shipped_track(name or "standard")
