"""Fuzzing every input that crosses a trust boundary: serialized states, fixtures, action
text and ids, and game options. Whatever comes in, the answer is a value or one of our
``ValueError`` subclasses with a message — never another exception, never a changed state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pendragon
from pendragon.games.soc.rules.fixtures import load_state
from tests.fuzzing import json_values, played, refused_or, refused_or_applied

GAME = pendragon.load_game("soc", players=4, seed=5)


MIDGAME = played(GAME, 60, seed=5)
SERIALIZED = MIDGAME.serialize()


#: A mid-game position of every game: the fuzzing of serialized states all games share.
MIDGAMES = {
    "soc": MIDGAME,
    "soc-card": played(pendragon.load_game("soc-card", players=4, seed=5, knights_relief=True,
                                           promos=True), 25, seed=5),
    "grail-cup": played(pendragon.load_game("grail-cup", players=4, seed=5), 75, seed=75),
}


@pytest.mark.parametrize("name", sorted(MIDGAMES))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_deserialize_random_text(name: str, text: str) -> None:
    """A broken file gets a clear error (CorruptStateError), nothing else, in every game."""
    refused_or(MIDGAMES[name].game.deserialize_state, text)


@pytest.mark.parametrize("name", sorted(MIDGAMES))
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_deserialize_mutated_state(name: str, data: st.DataObject) -> None:
    """Changing one field of a real serialized state: valid and usable (every seat's view
    included), or refused with a message."""
    midgame = MIDGAMES[name]
    parsed: dict[str, Any] = json.loads(midgame.serialize())
    key = data.draw(st.sampled_from(sorted(parsed)))
    parsed[key] = data.draw(json_values)
    state = refused_or(midgame.game.deserialize_state, json.dumps(parsed))
    if state is None:
        return
    state.check_invariants()  # type: ignore[attr-defined]
    state.legal_actions()
    for seat in [None, *range(state.game.num_players())]:
        state.observation(seat)
    state.observation_tensor(0)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fixture_loader(data: Any) -> None:
    """A fixture that describes no real position is refused with BadFixtureError."""
    refused_or(load_state, data)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30), st.integers(-10, 400)))
def test_action_input(value: str | int) -> None:
    """Action text or ids: applied if legal, else refused with the state unchanged."""
    state = MIDGAME.clone()
    refused_or_applied(state, value)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["players", "seed", "share", "expansion", "x"]), json_values)
)
def test_options(options: dict[str, Any]) -> None:
    """Unknown options and bad values are ValueErrors naming the option."""
    refused_or(lambda given: pendragon.load_game("soc", **given), options)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.integers(-3, 90), min_size=4, max_size=4), min_size=1, max_size=4),
    st.sampled_from(["agenda", "limbo", "black_top", "offer", "held", "pledges"]),
)
def test_deserialize_wellformed_but_wrong_lists(tasks: list[list[int]], field: str) -> None:
    """Lists of the right shape but impossible content are refused, never crash later."""
    parsed: dict[str, Any] = json.loads(SERIALIZED)
    value: list[Any] = tasks if field == "agenda" else [t[0] for t in tasks]
    parsed[field] = value
    state = refused_or(GAME.deserialize_state, json.dumps(parsed))
    if state is None:
        return
    state.legal_actions()
    state.observation(0)
    state.observation_tensor(0)
