"""The trusted fast path for states between the server and its own workers (issue 41 item 3b).

``pendragon.web.limits.dumps_sharing`` pickles a state by its fields (``state_fields``) and
``loads_sharing`` sets them back unchecked; a plain pickle (``State.__reduce__``) still
goes through ``Game.deserialize_state`` with every check, and no request handler of the
server unpickles anything.
"""

from __future__ import annotations

import ast
import pickle
import random
from pathlib import Path

import pytest

import pendragon
from pendragon.core.api import State
from pendragon.core.errors import CorruptStateError
from pendragon.web.limits import dumps_sharing, loads_sharing

GAMES = {"soc": 5, "soc-card": 4, "grail-cup": 5}
#: The example plugin game (examples/plugin-game/, installed by ``make test``): a Python state
#: whose fields are ``__slots__``, which no compiled class's attribute list names.
PLUGIN = {"sword-stone": 2}
WEB = Path(pendragon.__file__).parent / "web"
#: The modules that unpickle what the server's own processes sent (a worker's answer, the
#: game and state a worker receives): none of them handles a request.
WORKER_SIDE = {"limits.py", "manager.py", "coach_work.py"}


def _positions(name: str, seed: int = 2) -> list[State]:
    """Every tenth decision of a seeded random game of ``name``, and a world of each."""
    players = {**GAMES, **PLUGIN}[name]
    state = pendragon.load_game(name, players=players, seed=seed).new_initial_state()
    chooser, found = random.Random(seed), []
    while True:
        state.play_random_chance()
        if state.is_terminal():
            found.append(state.clone())
            return found
        if state.version % 10 < 2:
            found.append(state.clone())
            found.append(state.resample_hidden(state.current_player(), random.Random(seed)))
        state.apply_action(chooser.choice(state.legal_actions()))


def _trip(state: State) -> State:
    back = loads_sharing(dumps_sharing(state, state.game), state.game)
    assert isinstance(back, State)
    return back


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_state_round_trips_identically_over_the_fast_path(name: str) -> None:
    """Issue 41 item 3b: the state back from the fast path is the same state (its text, every
    seat's view, its legal actions, its chance stream, world or not) sharing the same game,
    and it plays on exactly as the original does."""
    for state in _positions(name):
        back = _trip(state)
        assert type(back) is type(state) and back.game is state.game
        assert back.serialize() == state.serialize()
        assert back.is_world() == state.is_world()
        assert (back._chance_count, back._rng_seed) == (state._chance_count, state._rng_seed)
        seats: list[int | None] = [None, *range(state.seat_count())]
        assert back.observations(seats) == state.observations(seats)
        assert back.legal_actions() == state.legal_actions()
        played = state.clone()
        for twin in (played, back):
            for step in range(6):
                twin.play_random_chance()
                if twin.is_terminal():
                    break
                twin.apply_action(twin.legal_actions()[step % len(twin.legal_actions())])
        assert back.serialize() == played.serialize()


@pytest.mark.parametrize("name", sorted(PLUGIN))
def test_a_plugin_states_slots_travel_over_the_fast_path(name: str) -> None:
    """Issue 41 item 3b: a plugin's state that keeps its fields in ``__slots__`` comes back
    whole (its slots were once left behind, and the worker's bot saw a fresh deal)."""
    pytest.importorskip("pendragon_sword_stone")
    test_a_state_round_trips_identically_over_the_fast_path(name)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_untrusted_input_still_goes_through_the_checked_reader(name: str) -> None:
    """Issue 41 item 3b: a state that is not sound (an action outside the catalog in its
    history) is refused by a plain pickle, which reads the text back with every check, and
    by ``Game.deserialize_state``; only the workers' fast path carries fields as they are
    (its states are the server's own)."""
    state = _positions(name)[2]
    state._history.append(state.game.num_distinct_actions() + 7)
    with pytest.raises(CorruptStateError, match="catalog"):
        pickle.loads(pickle.dumps(state))
    with pytest.raises(CorruptStateError, match="catalog"):
        state.game.deserialize_state(state.serialize())
    assert _trip(state)._history == state._history


_WORKER_READERS = ("loads_sharing", "restore_state", "_SharedUnpickler")


def _unpickling_calls(path: Path) -> list[str]:
    """The names of unpickling calls (``pickle.loads``, ``loads_sharing``, an Unpickler)
    in ``path``'s code."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _WORKER_READERS or (
                    name in ("loads", "load", "Unpickler") and "pickle" in ast.unparse(func)):
                found.append(name)
    return found


def test_no_request_handler_reaches_the_fast_path() -> None:
    """Issue 41 item 3b: only the modules that talk to the server's own worker processes
    unpickle anything; the routes, the socket, the middleware, the tables and the readers
    of records and stored games do not (what a client sends is JSON, read by the checked
    paths)."""
    unpickling = {path.name for path in WEB.rglob("*.py") if _unpickling_calls(path)}
    assert unpickling, "the scan finds the workers' own unpickling"
    assert unpickling <= WORKER_SIDE, sorted(unpickling - WORKER_SIDE)
    assert "limits.py" in unpickling and "coach_work.py" in unpickling
