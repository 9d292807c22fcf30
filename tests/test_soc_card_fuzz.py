"""Fuzzing what crosses a trust boundary in Shadows over Camelot: The Card Game: serialized
states, fixtures, action text and ids, and options. Whatever comes in, the answer is a value
or one of our ``ValueError`` subclasses with a message — never another exception, never a
changed state.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import pendragon
from pendragon.games.soc_card.rules.fixtures import load_state
from tests.fuzzing import json_values, played, refused_or, refused_or_applied

GAME = pendragon.load_game("soc-card", players=4, seed=5, knights_relief=True, promos=True)


MIDGAME = played(GAME, 25, seed=5)
SERIALIZED = MIDGAME.serialize()


def _check(state: pendragon.State) -> None:
    state.check_invariants()  # type: ignore[attr-defined]
    state.legal_actions()
    for seat in [None, *range(4)]:
        state.observation(seat)
    state.observation_tensor(0)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["agenda", "pile", "pile_down", "pile_by", "hold", "known", "known_seen",
                     "hidden_discard", "offer", "loyalty", "knights", "deck", "aside"]),
    st.integers(0, 60),
    st.integers(-3, 1 << 20),
)
def test_deserialize_one_wrong_entry(field: str, index: int, value: int) -> None:
    """One entry of a list changed (or appended): refused or still a playable state."""
    parsed: dict[str, Any] = json.loads(SERIALIZED)
    items = parsed[field]
    if index < len(items):
        items[index] = value
    else:
        items.append(value)
    state = refused_or(GAME.deserialize_state, json.dumps(parsed))
    if state is None:
        return
    _check(state)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fixture_loader(data: Any) -> None:
    """A fixture that describes no real position is refused with BadFixtureError."""
    refused_or(load_state, data)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["players", "pile", "loyalty", "swords", "knights",
                                        "deck", "in_force", "turn", "options", "revealed"]),
                       json_values))
def test_fixture_fields(data: dict[str, Any]) -> None:
    """Known fields with arbitrary values: refused with a message, or a playable state."""
    state = refused_or(load_state, data)
    if state is None:
        return
    state.legal_actions()


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30), st.integers(-10, 600)))
def test_action_input(value: str | int) -> None:
    """Action text or ids: applied if legal, else refused with the state unchanged."""
    state = MIDGAME.clone()
    refused_or_applied(state, value)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["players", "seed", "knights_relief", "promos", "x"]),
                       json_values))
def test_options(options: dict[str, Any]) -> None:
    """Unknown options and bad values are ValueErrors naming the option."""
    refused_or(lambda given: pendragon.load_game("soc-card", **given), options)
