"""Shadows over Camelot's copy-saving shapes keep clones independent, both ways.

A clone shares the state's tuples (replaced on change) and its hands' lists (copied on the
first change, ``SocData.own_hand``): whichever of the two moves on, the other must not see
it. The conformance suite checks that playing a clone leaves its original alone; this also
plays the original after a clone, and draws worlds from both.
"""

from __future__ import annotations

import random

import pytest

import pendragon
from pendragon.core.api import State


def _step(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(state.sample_chance())
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    ("players", "options"),
    [(5, {}), (3, {"expansion": "merlins-company"}), (7, {"expansion": "merlins-company"})],
)
def test_a_clone_and_its_original_never_share_a_change(
    players: int, options: dict[str, str]
) -> None:
    rng = random.Random(players)
    for seed in range(4):
        game = pendragon.load_game("soc", players=players, seed=seed, **options)
        state = game.new_initial_state()
        while not state.is_terminal():
            twin = state.clone()
            before = state.serialize()
            for _ in range(3):  # the clone moves on: the original stays
                if not twin.is_terminal():
                    _step(twin, rng)
            assert state.serialize() == before
            twin_now = twin.serialize()
            _step(state, rng)  # the original moves on: the clone stays
            assert twin.serialize() == twin_now
            if not state.is_terminal() and not state.is_chance_node():
                seat = state.current_player()
                now = state.serialize()
                world = state.resample_hidden(seat, random.Random(seed))
                assert state.serialize() == now
                while not world.is_terminal():
                    _step(world, rng)
                assert state.serialize() == now
