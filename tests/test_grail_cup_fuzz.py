"""Fuzzing Grail Cup's inputs from outside: serialized states, fixtures, track files, action
text and ids, options. Whatever comes in, the answer is a value or one of our ``ValueError``
subclasses with a message — never another exception, never a changed state.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import pendragon
from pendragon.core.errors import PendragonError
from pendragon.games.grail_cup.rules.fixtures import load_state
from pendragon.games.grail_cup.rules.state import LISTS, SCALARS
from pendragon.games.grail_cup.rules.track import KINDS, parse_track
from tests.fuzzing import json_values, played, refused_or, refused_or_applied

GAME = pendragon.load_game("grail-cup", players=4, seed=5)


MIDGAMES = [played(GAME, steps, seed=steps) for steps in (0, 9, 30, 75, 140)]
SERIALIZED = [state.serialize() for state in MIDGAMES]
small_ints = st.integers(-3, 60)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_deserialize_mutated_entries(data: st.DataObject) -> None:
    """Changing one entry of a list, a scalar or a task of a real serialized state (beside
    the whole-field mutation every game gets in test_fuzz.py): valid and playable, or
    refused."""
    parsed: dict[str, Any] = json.loads(data.draw(st.sampled_from(SERIALIZED)))
    key = data.draw(st.sampled_from(sorted(parsed)))
    if key in LISTS and parsed[key] and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(parsed[key]) - 1))
        parsed[key][index] = data.draw(small_ints)
    elif key in SCALARS and data.draw(st.booleans()):
        parsed[key] = data.draw(small_ints)
    elif key == "agenda" and parsed[key]:
        task = data.draw(st.integers(0, len(parsed[key]) - 1))
        parsed[key][task][data.draw(st.integers(0, 3))] = data.draw(small_ints)
    else:
        parsed[key] = data.draw(json_values)
    state = refused_or(GAME.deserialize_state, json.dumps(parsed))
    if state is None:
        return
    state.check_invariants()  # type: ignore[attr-defined]
    for _ in range(30):  # the accepted state plays on without crashing
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal
        state.apply_action(state.sample_chance() if state.is_chance_node() else legal[0])


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fixture_loader(data: Any) -> None:
    """A fixture that describes no real position is refused with BadFixtureError."""
    refused_or(load_state, data)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "players": st.integers(1, 9), "phase": st.sampled_from(["setup", "draft", "call", "x"]),
    "knights": st.lists(st.fixed_dictionaries({}, optional={
        "space": small_ints, "spears": st.integers(-1, 13)}), max_size=4),
    "dragon": small_ints, "clovers": st.dictionaries(small_ints, st.sampled_from(
        ["boots", "goblin", "magnet", "nope"]), max_size=4),
    "hands": st.dictionaries(st.integers(-1, 4), st.lists(st.sampled_from(
        ["sorceress", "squire", "merlin", "fairy", "unicorn", "x"]), max_size=3), max_size=3),
    "call": st.integers(0, 11), "round": st.integers(0, 61), "seal": st.integers(-2, 4),
}))
def test_fixture_loader_near_misses(data: dict[str, Any]) -> None:
    """Well-shaped fixtures with wrong values: a usable state or BadFixtureError."""
    state = refused_or(load_state, data)
    if state is None:
        return
    state.check_invariants()
    assert state.is_terminal() or state.legal_actions()


tokens = st.sampled_from([*KINDS[1:], *(f"start-{n}" for n in range(1, 10)), "swamp", "#",
                          "trail*3", "clover*0", "\n", "castle*x"])


@settings(max_examples=400, deadline=None)
@given(st.lists(tokens, max_size=70), st.booleans())
def test_track_files(words: list[str], with_starts: bool) -> None:
    """Any track text is a valid track or a TrackError naming the problem."""
    prefix = "start-9 start-8 start-7 start-6 start-5 start-4 start-3 start-2 start-1 "
    text = (prefix if with_starts else "") + " ".join(words)
    try:
        track = parse_track(text, "fuzz.track")
    except PendragonError as error:
        assert error.message.startswith("fuzz.track")
        return
    assert track.kinds[-1] == "finish" and len(track.clover_spaces) < 18
    assert track.finish == len(track) - 1


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_track_random_text(text: str) -> None:
    """Arbitrary text as a track: a TrackError, never anything else."""
    refused_or(lambda given: parse_track(given, "random.track"), text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(MIDGAMES))), st.one_of(st.text(max_size=30),
                                                     st.integers(-10, 400)))
def test_action_input(which: int, value: str | int) -> None:
    """Action text or ids: applied if legal, else refused with the state unchanged."""
    state = MIDGAMES[which].clone()
    refused_or_applied(state, value)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["players", "seed", "track", "x"]), json_values))
def test_options(options: dict[str, Any]) -> None:
    """Unknown options and bad values are ValueErrors naming the option."""
    refused_or(lambda given: pendragon.load_game("grail-cup", **given), options)
