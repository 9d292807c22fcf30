"""A world drawn for a seat's search is marked by a field of its own (issue 41 item 3a).

``State.resample_hidden`` ends with ``forget_past``, which sets ``State._world``: clones,
pickles and stored text keep the mark, the chance counter keeps counting the chance events
played (it no longer doubles as the mark), and a world never passes for a game reached by
play: it has no history, no record can be made of it, and its stored text reads back as a
world or not at all.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

import pendragon
from pendragon.core.api import WORLD_FIELD, NoHistoryError, State
from pendragon.core.errors import CorruptStateError
from pendragon.records import RecordSeat, record_of

GAMES = {"soc": 3, "soc-card": 3, "grail-cup": 3}


def _midgame(name: str, seed: int = 5, moves: int = 40) -> State:
    """A state up to ``moves`` decisions into a seeded game, at a seat's decision."""
    state = pendragon.load_game(name, players=GAMES[name], seed=seed).new_initial_state()
    chooser, last = random.Random(seed), state
    for _ in range(moves):
        state.play_random_chance()
        if state.is_terminal():
            break
        last = state.clone()
        state.apply_action(chooser.choice(state.legal_actions()))
    assert not last.is_terminal() and not last.is_chance_node() and last._chance_count > 0
    return last


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_world_is_marked_by_its_own_field_and_keeps_the_chance_count(name: str) -> None:
    """Issue 41 item 3a: the mark is ``_world``; the world's chance counter is the real
    game's (how many chance events happened is public), not a sentinel."""
    state = _midgame(name)
    count, seed_before, text_before = state._chance_count, state._rng_seed, state.serialize()
    world = state.resample_hidden(state.current_player(), random.Random(3))
    assert world.is_world() and world._world
    assert not state.is_world() and not state._world
    assert 0 < world._chance_count == count <= world.version
    # The real game is not disturbed by drawing a world from it.
    assert (state._chance_count, state._rng_seed, state.serialize()) == (
        count, seed_before, text_before)
    assert WORLD_FIELD not in json.loads(state.serialize())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_real_games_chance_counter_counts_only_its_chance_events(name: str) -> None:
    """Issue 41 item 3a: a real game's counter is its number of chance actions, however many
    worlds a search draws from it on the way."""
    state = pendragon.load_game(name, players=GAMES[name], seed=9).new_initial_state()
    chooser, chance_actions = random.Random(9), 0
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            chance_actions += 1
        else:
            state.resample_hidden(state.current_player(), random.Random(chance_actions))
            state.apply_action(chooser.choice(state.legal_actions()))
        assert state._chance_count == chance_actions and not state.is_world()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_world_stays_a_world_through_clone_pickle_text_and_play(name: str) -> None:
    """Issue 41 item 3a: every copy of a world is a world (with no history), and a world's
    stored text says so (``"world": true``)."""
    state = _midgame(name)
    world = state.resample_hidden(state.current_player(), random.Random(4))
    child = world.clone()
    child.play_random_chance()
    child.apply_action(child.legal_actions()[0])
    copies = [world.clone(), pickle.loads(pickle.dumps(world)),
              state.game.deserialize_state(world.serialize()), child]
    assert json.loads(world.serialize())[WORLD_FIELD] is True
    for other in copies:
        assert other.is_world()
        with pytest.raises(NoHistoryError):
            other.history()
    assert copies[2].serialize() == world.serialize()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_world_never_passes_for_a_real_game(name: str) -> None:
    """Issue 41 item 3a: no record of a world; its stored text with the mark tampered with
    (false, a number, a string) or in the old form (no mark, a chance count of 2**62, more
    chance events than actions) is refused, never read back as a game reached by play."""
    state = _midgame(name)
    world = state.resample_hidden(state.current_player(), random.Random(6))
    seats = [RecordSeat(f"Seat {s}", "random") for s in range(GAMES[name])]
    with pytest.raises(NoHistoryError):
        record_of(world, seats)
    data = json.loads(world.serialize())
    for bad in (False, 1, "true", None):
        with pytest.raises(CorruptStateError, match="world"):
            state.game.deserialize_state(json.dumps({**data, WORLD_FIELD: bad}))
    old = {key: value for key, value in data.items() if key != WORLD_FIELD}
    old["chance_count"] = 1 << 62
    with pytest.raises(CorruptStateError, match="chance stream"):
        state.game.deserialize_state(json.dumps(old))
    real = json.loads(state.serialize())
    with pytest.raises(CorruptStateError, match="chance stream"):
        state.game.deserialize_state(json.dumps({**real, "chance_count": state.version + 1}))
