"""What the fuzz and perft tests of every game share: JSON-like values, seeded mid-game
positions, the one acceptable answer to bad input (a value, or one of our ``ValueError``
subclasses with a message — never another exception, never a changed state), and the table
of this project's games (:data:`GAMES`, :func:`fuzz_case`) that both suites run over."""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import strategies as st

import pendragon
from pendragon.core.errors import PendragonError
from pendragon.games.grail_cup.rules.fixtures import load_state as grail_cup_fixture
from pendragon.games.soc.rules.fixtures import load_state as soc_fixture
from pendragon.games.soc_card.rules.fixtures import load_state as soc_card_fixture

#: The share of each fuzz test's examples to run (``PENDRAGON_FUZZ_SHARE``, 1 by default):
#: ``make test``'s pure pass runs a tenth, the compiled pass all (docs/testing.md).
FUZZ_SHARE = float(os.environ.get("PENDRAGON_FUZZ_SHARE", "1"))


def examples(count: int) -> int:
    """Hypothesis's ``max_examples`` for a test that draws ``count`` in a full run: that
    times :data:`FUZZ_SHARE`, ten at least.

    >>> examples(300) == max(10, round(300 * FUZZ_SHARE))
    True
    """
    return max(10, round(count * FUZZ_SHARE))


T = TypeVar("T")

#: The games of this project: each has perft counts and a fuzz case.
GAMES = ("soc", "soc-card", "grail-cup")

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


@dataclass(frozen=True, slots=True)
class FuzzCase:
    """What the fuzz suite feeds one game: its seeded positions and its entry points."""

    #: The game every position comes from (4 players, seed 5).
    game: pendragon.Game
    #: Seeded mid-game positions: action text and ids are tried on each.
    midgames: tuple[pendragon.State, ...]
    #: The position whose serialized form is mutated field by field.
    mutated: pendragon.State
    #: The game's fixture loader (``rules/fixtures.py``).
    load_fixture: Callable[[Any], pendragon.State]
    #: Option names given arbitrary JSON values (``"x"``: an unknown one).
    option_names: tuple[str, ...]
    #: Action ids tried run from -10 to this.
    max_action_id: int


@functools.cache
def fuzz_case(name: str) -> FuzzCase:
    """The fuzz case of game ``name`` (one of :data:`GAMES`), built on first use."""
    if name == "soc":
        game = pendragon.load_game("soc", players=4, seed=5)
        midgame = played(game, 60, seed=5)
        return FuzzCase(game, (midgame,), midgame, soc_fixture,
                        ("players", "seed", "share", "expansion", "x"), 400)
    if name == "soc-card":
        game = pendragon.load_game("soc-card", players=4, seed=5, knights_relief=True,
                                   promos=True)
        midgame = played(game, 25, seed=5)
        return FuzzCase(game, (midgame,), midgame, soc_card_fixture,
                        ("players", "seed", "knights_relief", "promos", "x"), 600)
    if name == "grail-cup":
        game = pendragon.load_game("grail-cup", players=4, seed=5)
        midgames = tuple(played(game, steps, seed=steps) for steps in (0, 9, 30, 75, 140))
        return FuzzCase(game, midgames, midgames[3], grail_cup_fixture,
                        ("players", "seed", "track", "x"), 400)
    raise KeyError(f"no fuzz case for {name!r}; the games: {', '.join(GAMES)}")


@functools.cache
def serialized(name: str) -> tuple[str, ...]:
    """The serialized form of each of game ``name``'s :attr:`FuzzCase.midgames`."""
    return tuple(state.serialize() for state in fuzz_case(name).midgames)
