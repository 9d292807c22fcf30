"""Shadows over Camelot on the web table: its narration as translatable log lines.

``describe_action`` (``games/soc/view.py``) narrates in English; the page speaks four
languages. This adapter recognises each of its sentence forms and turns it into a key with
parameters (seats, card keys), which the page words in the reader's language. Only the
narration text is read, so a line reveals exactly what the narration revealed. A sentence
this module does not know is passed on as text (``{"t": ...}``), never dropped;
``tests/web/test_narration.py`` plays games to check every sentence is recognised.

>>> adapter = SocAdapter()
>>> adapter.narrate("You draw Fight 5", viewer=2, actor=None)
{'k': 'draw-white-known', 'p': {'seat': 2, 'card': 'fight-5'}}
>>> adapter.narrate("Seat 3: play:fight-5", viewer=None, actor=3)
{'k': 'act', 'p': {'seat': 3, 'action': 'play:fight-5'}}
>>> adapter.narrate("Seat 1 draws a black-knight combat card", viewer=0, actor=None)
{'k': 'draw-black-combat', 'p': {'seat': 1, 'quest': 'black-knight'}}
>>> adapter.narrate("Something new happens", viewer=0, actor=None)
{'t': 'Something new happens'}
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from pendragon.core.api import State
from pendragon.games.soc.cards import BLACK, KNIGHTS, LOCATION_KEYS, WHITE
from pendragon.web.adapters.base import GameAdapter, Narration

_WHITE_BY_NAME = {card.name: card.key for card in WHITE}
_BLACK_BY_NAME = {card.name: card.key for card in BLACK}
_KNIGHT_BY_NAME = {knight.name: knight.key for knight in KNIGHTS}
_LOCATIONS = set(LOCATION_KEYS)

_WHO = r"(?P<who>You|Seat (?P<whoseat>\d+))"

Builder = Callable[[re.Match[str], int | None, int | None], Narration | None]


def _seat_of(match: re.Match[str], viewer: int | None, actor: int | None) -> int | None:
    if match.group("who") == "You":
        return actor if actor is not None else viewer
    return int(match.group("whoseat"))


def _line(key: str, **params: Any) -> Narration:
    return {"k": key, "p": params}


def _lookup(table: dict[str, str], name: str) -> str | None:
    return table.get(name)


def _passes(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    return _line("pass-card", seat=_seat_of(m, viewer, actor), to=int(m.group("to")))


def _chooses(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    return _line("choose-card", seat=_seat_of(m, viewer, actor), decision=m.group("decision"))


def _acts(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    return _line("act", seat=_seat_of(m, viewer, actor), action=m.group("action"))


def _dealt_knight(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    knight = _lookup(_KNIGHT_BY_NAME, m.group("name"))
    if knight is None:
        return None
    return _line("dealt-knight", seat=int(m.group("seat")), knight=knight)


def _dealt_loyalty(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    side = "traitor" if m.group("side") == "the traitor" else "loyal"
    return _line("dealt-loyalty-known", seat=viewer, loyalty=side)


def _white(key: str, group: str, seat_group: str | None = None) -> Builder:
    def build(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
        """The log line (``None`` when the sentence names no known card)."""
        card = _lookup(_WHITE_BY_NAME, m.group(group))
        if card is None:
            return None
        seat = int(m.group(seat_group)) if seat_group else viewer
        return _line(key, seat=seat, card=card)

    return build


def _black(key: str, seat_group: str | None) -> Builder:
    def build(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
        """The log line (``None`` when the sentence names no known card)."""
        card = _lookup(_BLACK_BY_NAME, m.group("name"))
        if card is None:
            return None
        seat = int(m.group(seat_group)) if seat_group else viewer
        return _line(key, seat=seat, card=card)

    return build


def _combat(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    quest = m.group("quest")
    if quest not in _LOCATIONS:
        return None
    return _line("draw-black-combat", seat=int(m.group("seat")), quest=quest)


def _simple(key: str, **ints: str) -> Builder:
    def build(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
        """The log line (``None`` when the sentence names no known card)."""
        return _line(key, **{name: int(m.group(group)) for name, group in ints.items()})

    return build


def _takes_known(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    card = _lookup(_WHITE_BY_NAME, m.group("name"))
    if card is None:
        return None
    return _line("take-card-known", seat=int(m.group("thief")), victim=int(m.group("victim")),
                 card=card)


def _chance_text(m: re.Match[str], viewer: int | None, actor: int | None) -> Narration | None:
    return _line("chance", action=m.group("action"))


# Order matters: the first pattern that matches (and builds) wins.
_PATTERNS: tuple[tuple[re.Pattern[str], Builder], ...] = (
    (re.compile(r"^the game is over$"), lambda m, v, a: _line("game-over")),
    (re.compile(rf"^{_WHO} passes a card face down to seat (?P<to>\d+)$"), _passes),
    (re.compile(rf"^{_WHO} chooses a card \((?P<decision>[a-z-]+)\)$"), _chooses),
    (re.compile(r"^You are dealt a loyalty card: you are (?P<side>the traitor|a loyal knight)$"),
     _dealt_loyalty),
    (re.compile(r"^Seat (?P<seat>\d+) is dealt a loyalty card$"),
     _simple("dealt-loyalty", seat="seat")),
    # VAR-NO-TRAITOR: loyalty cards lie face up; the board shows every knight as loyal.
    (re.compile(r"^Seat (?P<seat>\d+) is dealt a loyalty card, face up: .+$"),
     _simple("dealt-loyalty", seat="seat")),
    (re.compile(r"^Seat (?P<seat>\d+) is dealt (?P<name>.+)$"), _dealt_knight),
    (re.compile(r"^A white card is revealed for sharing: (?P<name>.+)$"),
     lambda m, v, a: (
         None if m.group("name") not in _WHITE_BY_NAME
         else _line("reveal-white", card=_WHITE_BY_NAME[m.group("name")])
     )),
    (re.compile(r"^You draw the black card (?P<name>.+)$"), _black("draw-black-known", None)),
    (re.compile(r"^Seat (?P<seat>\d+) draws the black card (?P<name>.+)$"),
     _black("draw-black-public", "seat")),
    (re.compile(r"^Seat (?P<seat>\d+) draws a (?P<quest>[a-z-]+) combat card$"), _combat),
    (re.compile(r"^Seat (?P<seat>\d+) draws a black card$"), _simple("draw-black", seat="seat")),
    (re.compile(r"^You draw (?P<name>.+)$"), _white("draw-white-known", "name")),
    (re.compile(r"^Seat (?P<seat>\d+) draws a white card$"), _simple("draw-white", seat="seat")),
    (re.compile(r"^The siege die shows (?P<n>\d+)$"), _simple("die", value="n")),
    (re.compile(r"^Seat (?P<thief>\d+) takes a random card from seat (?P<victim>\d+)$"),
     _simple("take-card", seat="thief", victim="victim")),
    (re.compile(r"^Seat (?P<thief>\d+) takes (?P<name>.+) from seat (?P<victim>\d+)$"),
     _takes_known),
    (re.compile(r"^The card goes at random to seat (?P<seat>\d+)$"),
     _simple("random-seat", seat="seat")),
    (re.compile(rf"^{_WHO}: (?P<action>[a-z0-9?:-]+)$"), _acts),
    (re.compile(r"^(?P<action>[a-z-]+:[a-z0-9-]+)$"), _chance_text),
)

#: Keys of lines that name a card only its drawer (or a few seats) may know.
REVEALING = frozenset(
    {"draw-white-known", "draw-black-known", "dealt-loyalty-known", "take-card-known", "act"}
)


@functools.lru_cache(maxsize=4096)
def _narrate_cached(text: str, viewer: int | None, actor: int | None) -> Narration:
    for pattern, build in _PATTERNS:
        match = pattern.match(text)
        if match is not None:
            line = build(match, viewer, actor)
            if line is not None:
                return line
    return {"t": text}


class SocAdapter(GameAdapter):
    """Shadows over Camelot's web adapter."""

    def __init__(self) -> None:
        super().__init__("soc")

    def narrate(self, text: str, viewer: int | None, actor: int | None) -> Narration:
        """The log line of ``text`` (see the module docstring).

        The same few sentences come back all game long, so lines are cached; callers copy
        a line before changing it.
        """
        return _narrate_cached(text, viewer, actor)

    def is_revealing(self, line: Narration) -> bool:
        """Whether ``line`` is the informed version of a private event."""
        return line.get("k") in REVEALING

    def chat_open(self, state: State | None) -> bool:
        """The board game never silences the table."""
        return True

    def can_add_seat(self, state: State) -> bool:
        """VAR-JOIN ("joining mid-game", seed 003): whether the rules seat a newcomer now.

        Uses the state's own ``can_join`` (the rules' join operation); a state without it
        never lets anyone join, and newcomers take over a bot's seat instead.
        """
        can_join = getattr(state, "can_join", None)
        return bool(callable(can_join) and can_join())

    def add_seat_action(self, state: State) -> int | None:
        """The ``join`` action of the catalog, if the game has one."""
        try:
            return state.string_to_action("join")
        except ValueError:
            return None
