"""Perft counts: the number of distinct action sequences (chance outcomes included) to a
given depth from seeded positions of each game of this project (``tests.fuzzing.GAMES``,
the games ``test_fuzz.py`` runs over too). Any change to move generation changes a
count. The counts live in ``tests/perft/<game>.json``.

Regenerate after an intended change with ``python -m tests.test_perft --write [GAME ...]``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import pendragon
from pendragon.core.api import State
from tests.fuzzing import GAMES, played

PERFT_DIR = Path(__file__).parent / "perft"
#: Per game: (players, seed, actions into the game from which counting starts, depth, options).
POSITIONS: dict[str, list[tuple[int, int, int, int, dict[str, Any]]]] = {
    "soc": [(3, 1, 0, 4, {}), (5, 2, 40, 4, {}), (7, 3, 90, 3, {}), (4, 4, 120, 4, {})],
    "soc-card": [
        (3, 1, 0, 4, {}),
        (5, 2, 12, 3, {}),
        (7, 3, 20, 3, {}),
        (1, 4, 6, 4, {}),
        (4, 5, 20, 3, {"knights_relief": True}),
        (4, 6, 15, 3, {"knights_relief": True, "promos": True}),
        (3, 8, 33, 3, {}),  # the traitor to act under Morgan #1: 25 announcements
    ],
    "grail-cup": [
        (2, 1, 0, 5, {}), (3, 2, 12, 5, {}), (4, 3, 40, 4, {}), (5, 4, 60, 4, {}),
        (8, 5, 30, 3, {}),
    ],
}
Position = tuple[int, int, int, int, dict[str, Any]]


def perft(state: State, depth: int) -> int:
    """Distinct action sequences of length ``depth`` (shorter where the game ends)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def key(position: Position) -> str:
    players, seed, at, depth, options = position
    extra = "".join(f"-{name}" for name in sorted(options))
    return f"p{players}-s{seed}-at{at}-d{depth}{extra}"


def start(game: str, position: Position) -> State:
    """The position after ``at`` actions: seeded random choices and the state's chance."""
    players, seed, steps, _depth, options = position
    return played(pendragon.load_game(game, players=players, seed=seed, **options), steps, seed)


def counts_file(game: str) -> Path:
    return PERFT_DIR / f"{game}.json"


def compute(game: str) -> dict[str, int]:
    return {key(p): perft(start(game, p), p[3]) for p in POSITIONS[game]}


@pytest.mark.parametrize(
    ("game", "position"),
    [pytest.param(g, p, id=f"{g}-{key(p)}") for g, ps in POSITIONS.items() for p in ps],
)
def test_perft(game: str, position: Position) -> None:
    """Move generation from seeded positions is unchanged: SOC-EVIL-1, SOC-HERO-1 (the
    board game), SCG-TURN-1, SCG-EXPERT-3 (the card game), GC-DRAFT-3, GC-CALL-1 (Grail Cup)."""
    expected = json.loads(counts_file(game).read_text())[key(position)]
    assert perft(start(game, position), position[3]) == expected


def test_every_game_and_position_is_counted() -> None:
    """Every installed game of this project (the games the fuzz suite runs over too) has
    counts, and each file holds exactly the positions listed here."""
    assert set(GAMES) <= set(pendragon.registered_games())
    assert set(POSITIONS) == set(GAMES)
    for game, positions in POSITIONS.items():
        assert set(json.loads(counts_file(game).read_text())) == {key(p) for p in positions}


if __name__ == "__main__" and "--write" in sys.argv:
    for name in [a for a in sys.argv[1:] if a != "--write"] or list(POSITIONS):
        counts_file(name).write_text(json.dumps(compute(name), indent=1, sort_keys=True) + "\n")
        print(name, counts_file(name).read_text())
