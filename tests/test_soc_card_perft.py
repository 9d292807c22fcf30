"""Perft counts of Shadows over Camelot: The Card Game: distinct action sequences (chance
outcomes included) to a given depth from seeded positions. Any change to move generation
changes a count.

Regenerate after an intended change with ``python -m tests.test_soc_card_perft --write``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import pendragon
from pendragon.core.api import State
from tests.test_perft import perft

COUNTS = Path(__file__).parent / "perft" / "soc-card.json"
#: (players, seed, actions into the game from which counting starts, depth, options)
POSITIONS: list[tuple[int, int, int, int, dict[str, Any]]] = [
    (3, 1, 0, 4, {}),
    (5, 2, 12, 3, {}),
    (7, 3, 20, 3, {}),
    (1, 4, 6, 4, {}),
    (4, 5, 20, 3, {"knights_relief": True}),
    (4, 6, 15, 3, {"knights_relief": True, "promos": True}),
]


def _key(players: int, seed: int, at: int, depth: int, options: dict[str, Any]) -> str:
    extra = "".join(f"-{k}" for k in sorted(options))
    return f"p{players}-s{seed}-at{at}-d{depth}{extra}"


def start(players: int, seed: int, steps: int, options: dict[str, Any]) -> State:
    """The position after ``steps`` actions: seeded random choices and the state's chance."""
    game = pendragon.load_game("soc-card", players=players, seed=seed, **options)
    state = game.new_initial_state()
    chooser = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
    return state


def compute() -> dict[str, int]:
    return {_key(*p): perft(start(p[0], p[1], p[2], p[4]), p[3]) for p in POSITIONS}


@pytest.mark.parametrize("position", POSITIONS, ids=[_key(*p) for p in POSITIONS])
def test_perft(position: tuple[int, int, int, int, dict[str, Any]]) -> None:
    """SCG-TURN-1, SCG-EXPERT-3: move generation from seeded positions is unchanged."""
    expected = json.loads(COUNTS.read_text())[_key(*position)]
    players, seed, at, depth, options = position
    assert perft(start(players, seed, at, options), depth) == expected


if __name__ == "__main__" and "--write" in sys.argv:
    COUNTS.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    print(COUNTS.read_text())
