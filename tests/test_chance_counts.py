"""Chance nodes drawn from a pile kept as counts (issue 30, item 4: each game's chance
sampling): ``State._chance_counts`` lets the core sample a card and check a drawn one from
the counts, without the list of ``(outcome, probability)`` pairs. The shortcut must pick
exactly what the list picks, for every value of the stream, or seeded games would change.
"""

from __future__ import annotations

import math
import random

import pytest

import pendragon
from pendragon.core import rng

#: Each game with setups that reach its different piles (the card game's experts and
#: promos, soc's expansion with its travel cards).
SETUPS = (
    ("soc", {"players": 5}),
    ("soc", {"players": 4, "expansion": "merlins-company"}),
    ("soc-card", {"players": 5}),
    ("soc-card", {"players": 3, "knights_relief": True, "promos": True}),
    ("soc-card", {"players": 1, "knights_relief": True}),
    ("soc-card", {"players": 7, "knights_relief": True, "promos": True}),
    ("grail-cup", {"players": 5}),
)


def test_pick_count_lands_where_pick_at_does() -> None:
    generator = random.Random(30)
    for trial in range(3000):
        counts = [generator.choice((0, 0, 1, 2, 3, 7)) for _ in range(generator.randint(1, 43))]
        if not any(counts):
            counts[generator.randrange(len(counts))] = 1
        outcomes = rng.weighted(5, counts)
        seed = generator.getrandbits(64)
        for counter in range(trial % 7, 40, 7):
            u = rng.uniform(seed, counter)
            assert rng.pick_count(5, counts, u) == rng.pick_at(u, outcomes), (
                counts, seed, counter)
            assert rng.pick_count(5, tuple(counts), u) == rng.pick_at(u, outcomes)


def test_the_intervals_edges_are_pick_ats() -> None:
    """The values at an interval's edge (the cumulative sums themselves, and the floats
    just below them) fall in the same interval either way: the sums are the same floats."""
    generator = random.Random(31)
    for _ in range(2000):
        counts = [generator.choice((0, 1, 2, 3, 5, 7, 11)) for _ in range(generator.randint(2, 43))]
        if sum(1 for c in counts if c) < 2:
            counts[:2] = [1, 2]
        outcomes = rng.weighted(0, counts)
        edge = 0.0
        for _action, probability in outcomes[:-1]:
            edge += probability
            for u in (edge, math.nextafter(edge, 0.0)):
                assert rng.pick_count(0, counts, u) == rng.pick_at(u, outcomes)


@pytest.mark.parametrize(("name", "options"), SETUPS)
def test_sampling_and_legality_at_chance_nodes_follow_the_outcome_list(
        name: str, options: dict[str, object]) -> None:
    """At every chance node of seeded random games: the state's own draw is the one the
    list of outcomes gives its stream's value, the legal actions are the listed outcomes,
    and a drawn card is legal exactly when it is among them (every id of the catalog)."""
    generator = random.Random(7)
    game = pendragon.load_game(name, seed=3, **options)
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                drawn = state.sample_chance()
                assert drawn == rng.pick_weighted(state._rng_seed, state._chance_count, outcomes)
                possible = [action for action, _p in outcomes]
                assert state.legal_actions() == possible
                for action in range(game.num_distinct_actions()):
                    assert state.is_legal(action) == (action in possible)
                state.apply_action(drawn)
            else:
                legal = state.legal_actions()
                if name == "soc-card":  # its menus are listed in id order, without a sort
                    assert legal == sorted(set(legal))
                state.apply_action(legal[generator.randrange(len(legal))])
