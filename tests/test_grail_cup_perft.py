"""Grail Cup perft counts: distinct action sequences (chance outcomes included) to a given
depth from seeded positions. Any change to move generation changes a count.

Regenerate after an intended change with ``python -m tests.test_grail_cup_perft --write``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import pendragon

COUNTS = Path(__file__).parent / "perft" / "grail-cup.json"
#: (players, seed, actions into the game from which counting starts, depth)
POSITIONS = [(2, 1, 0, 5), (3, 2, 12, 5), (4, 3, 40, 4), (5, 4, 60, 4), (8, 5, 30, 3)]


def perft(state: pendragon.State, depth: int) -> int:
    """Distinct action sequences of length ``depth`` (shorter where the game ends)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def start(players: int, seed: int, steps: int) -> pendragon.State:
    """The position after ``steps`` actions: seeded random choices and the state's chance."""
    state = pendragon.load_game("grail-cup", players=players, seed=seed).new_initial_state()
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
    return {f"p{p}-s{s}-at{k}-d{d}": perft(start(p, s, k), d) for p, s, k, d in POSITIONS}


@pytest.mark.parametrize("key", sorted(json.loads(COUNTS.read_text())))
def test_perft(key: str) -> None:
    """GC-DRAFT-3, GC-CALL-1: move generation from seeded positions is unchanged."""
    expected = json.loads(COUNTS.read_text())[key]
    players, seed, at, depth = (int(part[1:]) if part[0] in "psd" else int(part[2:])
                                for part in key.split("-"))
    assert perft(start(players, seed, at), depth) == expected


def test_every_position_is_counted() -> None:
    """The data file holds exactly the positions listed here."""
    keys = {f"p{p}-s{s}-at{k}-d{d}" for p, s, k, d in POSITIONS}
    assert set(json.loads(COUNTS.read_text())) == keys


if __name__ == "__main__" and "--write" in sys.argv:
    COUNTS.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    print(COUNTS.read_text())
