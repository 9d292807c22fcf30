"""What the fuzz tests of every game share: JSON-like values, seeded mid-game positions, and
the one acceptable answer to bad input (a value, or one of our ``ValueError`` subclasses
with a message — never another exception, never a changed state)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import strategies as st

import pendragon
from pendragon.core.errors import PendragonError

T = TypeVar("T")

#: Any JSON-like value, nested a little.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def played(game: pendragon.Game, steps: int, seed: int) -> pendragon.State:
    """The position after ``steps`` actions: seeded random choices, the state's own chance."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def refused_or(build: Callable[[Any], T], data: Any) -> T | None:
    """``build(data)``, or ``None`` if it was refused with one of our errors and a message."""
    try:
        return build(data)
    except PendragonError as error:
        assert error.message
        return None


def refused_or_applied(state: pendragon.State, value: str | int) -> None:
    """Apply action text or an id: done if legal, else refused with the state unchanged."""
    before = state.serialize()
    try:
        if isinstance(value, str):
            state.apply_text(value)
        else:
            state.apply_action(value)
    except PendragonError as error:
        assert error.message
        assert state.serialize() == before
