"""The board as data: a track file lists every space's kind, from the rearmost start space
to the finish (GC-TRACK-1, GC-RULING-1).

A track file is plain text. ``#`` starts a comment; the rest is a sequence of space kinds
separated by blanks or new lines, each optionally repeated with ``*N``::

    start-9 start-8 start-7 start-6 start-5 start-4 start-3 start-2 start-1
    trail clover village trail*2 castle church dragon castle-clover finish

Kinds: ``start-1`` .. ``start-9`` (exactly these nine first, 9 the rearmost), ``trail``,
``clover``, ``village``, ``castle``, ``castle-clover`` (a castle with a clover token, one
space), ``church``, ``dragon`` (the red trail space where the dragon starts; exactly one),
``finish`` (exactly one, the last space; it counts as a castle).

>>> track = standard_track()
>>> track.kinds[0], track.kinds[track.finish], track.start_space(9), track.start_space(1)
('start-9', 'finish', 0, 8)
>>> parse_track("start-9 trail*20 finish", "bad.track")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pendragon.games.grail_cup.rules.track.TrackError: bad.track: the track must begin ... not 'start-8')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path

from pendragon.core.errors import InvalidOptionError
from pendragon.games.grail_cup.rules.data import TOKENS

#: Space kinds, in the order of their codes.
KINDS: tuple[str, ...] = (
    "start", "trail", "clover", "village", "castle", "castle-clover", "church", "dragon",
    "finish",
)
START, TRAIL, CLOVER, VILLAGE, CASTLE, CASTLE_CLOVER, CHURCH, DRAGON, FINISH = range(9)
#: Most spaces a track may have (the action catalog names spaces by index).
MAX_SPACES = 100
#: Fewest spaces: nine starts, the finish, and room for eight knights and the dragon.
MIN_SPACES = 20
#: Longest track file read (bytes).
MAX_FILE = 64 * 1024
STANDARD = "standard.track"


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

    def __len__(self) -> int:
        return len(self.kinds)

    def start_space(self, number: int) -> int:
        """The index of start space ``number`` (1..9; 9 is the rearmost, index 0)."""
        return 9 - number

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
                    raise TrackError(f"{source}:{number}: bad repetition {word!r} (use kind*N)")
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
    for index, (name, line) in enumerate(tokens):
        if name.startswith("start-") and name[6:] in tuple("123456789"):
            code = START
        elif name in KINDS and name != "start":
            code = KINDS.index(name)
        else:
            raise TrackError(f"{source}:{line}: unknown space kind {name!r} (space {index})")
        kinds.append(name)
        codes.append(code)
    if len(kinds) < MIN_SPACES:
        raise TrackError(f"{source}: a track needs at least {MIN_SPACES} spaces, not {len(kinds)}")
    for index in range(9):
        want = f"start-{9 - index}"
        if kinds[index] != want:
            raise TrackError(
                f"{source}: the track must begin with start-9 start-8 ... start-1"
                f" (space {index} is {kinds[index]!r}, not {want!r})"
            )
    if START in codes[9:]:
        raise TrackError(f"{source}: start space {kinds[codes.index(START, 9)]!r} after the starts")
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
    next_castle = [finish] * len(codes)
    next_church = [-1] * len(codes)
    castle, church = finish, -1
    for index in range(finish, -1, -1):
        next_castle[index], next_church[index] = castle, church
        if codes[index] in (CASTLE, CASTLE_CLOVER, FINISH):
            castle = index
        if codes[index] == CHURCH:
            church = index
    return Track(
        kinds=tuple(kinds),
        codes=tuple(codes),
        dragon_start=codes.index(DRAGON),
        finish=finish,
        clover_spaces=clovers,
        next_castle=tuple(next_castle),
        next_church=tuple(next_church),
        source=source,
    )


def load_track(path: str) -> Track:
    """Read and parse the track file at ``path`` (the ``track`` option)."""
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
def standard_track() -> Track:
    """The standard track shipped with the game (a reconstruction, GC-RULING-1)."""
    text = files("pendragon.games.grail_cup.rules").joinpath(STANDARD).read_text("utf-8")
    return parse_track(text, STANDARD)


@cache
def track_for(path: str | None) -> Track:
    """The standard track for ``None``, else the file at ``path``."""
    return standard_track() if path is None else load_track(path)
