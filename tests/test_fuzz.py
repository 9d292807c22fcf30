"""Fuzzing every input that crosses a trust boundary, in every game of this project:
serialized states, fixtures, action text and ids, and game options (and Grail Cup's track
files). Whatever comes in, the answer is a value or one of our ``ValueError`` subclasses
with a message — never another exception, never a changed state.

The first part runs over every game (:data:`tests.fuzzing.GAMES`, their positions and entry
points in :func:`tests.fuzzing.fuzz_case`); the last part holds the checks that know one
game's storage (its field names and shapes).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import pendragon
from pendragon.core.errors import PendragonError
from pendragon.games.grail_cup.rules.state import LISTS, SCALARS
from pendragon.games.grail_cup.rules.track import KINDS, parse_track
from tests.fuzzing import (
    GAMES,
    examples,
    fuzz_case,
    json_values,
    refused_or,
    refused_or_applied,
    serialized,
)

every_game = pytest.mark.parametrize("name", GAMES)


def test_every_game_has_a_fuzz_case() -> None:
    """Every installed game of this project is fuzzed here."""
    assert set(GAMES) <= set(pendragon.registered_games())
    for name in GAMES:
        case = fuzz_case(name)
        assert case.game.name == name
        assert all(state.game is case.game for state in case.midgames)


# ---------------------------------------------------------------------- every game
@every_game
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_deserialize_random_text(name: str, text: str) -> None:
    """A broken file gets a clear error (CorruptStateError), nothing else, in every game."""
    refused_or(fuzz_case(name).game.deserialize_state, text)


@every_game
@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_deserialize_mutated_state(name: str, data: st.DataObject) -> None:
    """Changing one field of a real serialized state: valid and usable (every seat's view
    included), or refused with a message."""
    midgame = fuzz_case(name).mutated
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


@every_game
@settings(max_examples=examples(300), deadline=None)
@given(json_values)
def test_fixture_loader(name: str, data: Any) -> None:
    """A fixture that describes no real position is refused with BadFixtureError."""
    refused_or(fuzz_case(name).load_fixture, data)


@every_game
@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_action_input(name: str, data: st.DataObject) -> None:
    """Action text or ids, at each seeded position: applied if legal, else refused with the
    state unchanged."""
    case = fuzz_case(name)
    which = data.draw(st.sampled_from(range(len(case.midgames))))
    value = data.draw(st.one_of(st.text(max_size=30), st.integers(-10, case.max_action_id)))
    refused_or_applied(case.midgames[which].clone(), value)


@every_game
@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_options(name: str, data: st.DataObject) -> None:
    """Unknown options and bad values are ValueErrors naming the option."""
    names = fuzz_case(name).option_names
    options = data.draw(st.dictionaries(st.sampled_from(names), json_values))
    refused_or(lambda given: pendragon.load_game(name, **given), options)


# ---------------------------------------------------------------------- Shadows over Camelot
@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.lists(st.integers(-3, 90), min_size=4, max_size=4), min_size=1, max_size=4),
    st.sampled_from(["agenda", "limbo", "black_top", "offer", "held", "pledges"]),
)
def test_soc_deserialize_wellformed_but_wrong_lists(tasks: list[list[int]], field: str) -> None:
    """Lists of the right shape but impossible content are refused, never crash later."""
    case = fuzz_case("soc")
    parsed: dict[str, Any] = json.loads(serialized("soc")[0])
    # The agenda holds tasks of four numbers; the other fields hold numbers.
    firsts: list[int] = [task[0] for task in tasks]
    parsed[field] = tasks if field == "agenda" else firsts
    state = refused_or(case.game.deserialize_state, json.dumps(parsed))
    if state is None:
        return
    state.legal_actions()
    state.observation(0)
    state.observation_tensor(0)


# ---------------------------------------------------------------------- The Card Game
@settings(max_examples=examples(400), deadline=None)
@given(
    st.sampled_from(["agenda", "pile", "pile_down", "pile_by", "hold", "known", "known_seen",
                     "hidden_discard", "offer", "loyalty", "knights", "deck", "aside"]),
    st.integers(0, 60),
    st.integers(-3, 1 << 20),
)
def test_soc_card_deserialize_one_wrong_entry(field: str, index: int, value: int) -> None:
    """One entry of a list changed (or appended): refused or still a playable state."""
    case = fuzz_case("soc-card")
    parsed: dict[str, Any] = json.loads(serialized("soc-card")[0])
    items = parsed[field]
    if index < len(items):
        items[index] = value
    else:
        items.append(value)
    state = refused_or(case.game.deserialize_state, json.dumps(parsed))
    if state is None:
        return
    state.check_invariants()  # type: ignore[attr-defined]
    state.legal_actions()
    for seat in [None, *range(4)]:
        state.observation(seat)
    state.observation_tensor(0)


@settings(max_examples=examples(200), deadline=None)
@given(st.dictionaries(st.sampled_from(["players", "pile", "loyalty", "swords", "knights",
                                        "deck", "in_force", "turn", "options", "revealed",
                                        "shown", "verified"]),
                       json_values))
def test_soc_card_fixture_fields(data: dict[str, Any]) -> None:
    """Known fields with arbitrary values: refused with a message, or a playable state."""
    state = refused_or(fuzz_case("soc-card").load_fixture, data)
    if state is None:
        return
    state.legal_actions()


# ---------------------------------------------------------------------- Grail Cup
small_ints = st.integers(-3, 60)


@settings(max_examples=examples(400), deadline=None)
@given(st.data())
def test_grail_cup_deserialize_mutated_entries(data: st.DataObject) -> None:
    """Changing one entry of a list, a scalar or a task of a real serialized state (beside
    the whole-field mutation of every game above): valid and playable, or refused."""
    case = fuzz_case("grail-cup")
    parsed: dict[str, Any] = json.loads(data.draw(st.sampled_from(serialized("grail-cup"))))
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
    state = refused_or(case.game.deserialize_state, json.dumps(parsed))
    if state is None:
        return
    state.check_invariants()  # type: ignore[attr-defined]
    for _ in range(30):  # the accepted state plays on without crashing
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal
        state.apply_action(state.sample_chance() if state.is_chance_node() else legal[0])


@settings(max_examples=examples(300), deadline=None)
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
def test_grail_cup_fixture_loader_near_misses(data: dict[str, Any]) -> None:
    """Well-shaped fixtures with wrong values: a usable state or BadFixtureError."""
    state = refused_or(fuzz_case("grail-cup").load_fixture, data)
    if state is None:
        return
    state.check_invariants()  # type: ignore[attr-defined]
    assert state.is_terminal() or state.legal_actions()


tokens = st.sampled_from([*KINDS[1:], *(f"start-{n}" for n in range(1, 10)), "swamp", "#",
                          "trail*3", "clover*0", "\n", "castle*x"])


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(tokens, max_size=70), st.booleans())
def test_grail_cup_track_files(words: list[str], with_starts: bool) -> None:
    """Any track text is a valid track or a TrackError naming the problem (the track file
    of GC-RULING-1, GC-TRACK-1)."""
    prefix = "start-9 start-8 start-7 start-6 start-5 start-4 start-3 start-2 start-1 "
    text = (prefix if with_starts else "") + " ".join(words)
    try:
        track = parse_track(text, "fuzz.track")
    except PendragonError as error:
        assert error.message.startswith("fuzz.track")
        return
    assert track.kinds[-1] == "finish" and len(track.clover_spaces) < 18
    assert track.finish == len(track) - 1


@settings(max_examples=examples(100), deadline=None)
@given(st.text(max_size=200))
def test_grail_cup_track_random_text(text: str) -> None:
    """Arbitrary text as a track: a TrackError, never anything else (GC-RULING-1)."""
    refused_or(lambda given: parse_track(given, "random.track"), text)
