"""What a player remembers of clover tokens Merlin rearranged (GC-RULING-11).

Merlin's player lays the tokens he looked at back «на тех же местах» (on the same spaces), in
an order only he knows: a player who had seen some of them knows they lie among those spaces.
A memory (:data:`Recall`) lasts until its tokens are turned; the worlds a search draws for a
seat keep it (``GrailCupState.resample_hidden``).

>>> from pendragon.games.grail_cup.rules.fixtures import load_state
>>> state = load_state({"knights": [{"space": 9}, {"space": 40}], "hands": {0: ["merlin"]},
...                     "clovers": {10: "goblin", 15: "boots", 19: "magnet"},
...                     "clover_known": {10: [1]}, "call": 3})
>>> for text in ("look:10", "look:15", "look:19"):
...     _ = state.apply_text(text)
>>> state.recall  # seat 1 remembers the Goblin (1) among 10, 15 and 19; both seats know it
((1, (10, 15, 19), (1,), 3),)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pendragon.games.grail_cup.rules.state import GrailCupState

#: What a seat remembers of tokens Merlin rearranged: the seat, the spaces (ascending), the
#: kinds (ascending) it knows lie among them, fewer than or as many as the spaces, and who
#: knows which kinds it remembers (a bit per seat, its own among them).
Recall = tuple[int, tuple[int, ...], tuple[int, ...], int]


def merlin_mixes(s: GrailCupState, seat: int) -> None:
    """Merlin's player (``seat``) has looked at his spaces and will lay their tokens back in
    an order only he knows (GC-RULING-11). Any of them may then lie on any of the spaces, so
    the latest laying among them is each one's (for the worlds a search samples:
    ``GrailCupState.fill``), and a player who knew some of them remembers them as lying
    among those spaces."""
    looked = s.merlin_spaces
    recall = list(s.recall)
    fill = list(s.fill)
    everyone = (1 << s.n) - 1
    for p in range(s.n):
        if p == seat:
            continue
        bit = 1 << p
        kinds: list[int] = []
        # Who knows which tokens he remembers: whoever saw them all where he did, and
        # Merlin's player, who sees them now...
        aware = everyone
        for space in looked:
            if s.known[space] & bit:
                kinds.append(s.pin[space])
                aware &= s.known[space] | 1 << seat
        spaces = list(looked)
        kept: list[Recall] = []
        for entry in recall:
            if entry[0] == p and any(space in looked for space in entry[1]):
                # ...and of the tokens he already remembered among spaces Merlin now mixed
                # with others (they lie among them all), whoever knew that too.
                kinds += entry[2]
                spaces += [space for space in entry[1] if space not in looked]
                aware &= entry[3]
            else:
                kept.append(entry)
        if kinds:
            kept.append((p, tuple(sorted(spaces)), tuple(sorted(kinds)), aware))
        recall = kept
    latest = 0
    for space in looked:
        latest = max(latest, fill[space])
    for space in looked:
        s.known[space] = 1 << seat
        fill[space] = latest
    # The spaces of a recall share their latest laying, as the looked ones do (so a world
    # may put any of its tokens on any of them). Rarely, two rearrangements overlap, and a
    # recall joined up from both spreads it further (sound, if less than a player might
    # remember: the worlds keep every real one).
    spread = True
    while spread:
        spread = False
        for entry in recall:
            top = max(fill[space] for space in entry[1])
            for space in entry[1]:
                if fill[space] != top:
                    fill[space] = top
                    spread = True
    s.fill = tuple(fill)
    s.recall = tuple(recall)


def recall_sees(s: GrailCupState, space: int, seat: int) -> None:
    """GC-RULING-11: the token on ``space`` is seen, by ``seat`` alone (Merlin's look) or by
    everyone (``-1``: it is turned). A recall of those seats that holds the space keeps
    the other spaces and the tokens but that one (a token of its kind, if it held one); a
    look of his own leaves him alone knowing what he remembers."""
    if not s.recall:
        return
    kind = s.pin[space]
    kept: list[Recall] = []
    for entry in s.recall:
        who, spaces, kinds, aware = entry
        if space in spaces and (seat < 0 or who == seat):
            spaces = tuple(sp for sp in spaces if sp != space)
            if kind in kinds:
                at = kinds.index(kind)
                kinds = kinds[:at] + kinds[at + 1:]
            if not kinds:
                continue
            entry = (who, spaces, kinds, aware if seat < 0 else 1 << who)
        kept.append(entry)
    s.recall = tuple(kept)


def own_recall(s: GrailCupState, seat: int, generator: random.Random) -> dict[int, int]:
    """For a world drawn for ``seat``: each token it remembers, put on one of its spaces at
    random (space: kind)."""
    fixed: dict[int, int] = {}
    for who, among, kinds, _aware in s.recall:
        if who == seat:
            for space, kind in zip(generator.sample(among, len(kinds)), kinds, strict=False):
                fixed[space] = kind
    return fixed


def redraw_others(s: GrailCupState, seat: int, generator: random.Random) -> None:
    """For a world drawn for ``seat``: what the others remember is drawn again from the
    tokens now among their spaces, unless ``seat`` knows it (and it is still there, as it
    is unless two rearrangements mixed other spaces into his memory and another's)."""
    redrawn: list[Recall] = []
    for who, among, kinds, aware in s.recall:
        lying = [s.pin[space] for space in among]
        if who != seat and not (aware >> seat & 1 and _within(kinds, lying)):
            kinds = tuple(sorted(generator.sample(lying, len(kinds))))
        redrawn.append((who, among, kinds, aware))
    s.recall = tuple(redrawn)


def _within(kinds: tuple[int, ...], lying: list[int]) -> bool:
    """Whether the multiset ``kinds`` is part of ``lying``."""
    rest = lying.copy()
    for kind in kinds:
        if kind not in rest:
            return False
        rest.remove(kind)
    return True
