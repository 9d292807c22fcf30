"""The shortcuts soc-card's rules take for speed give what the general forms give.

A random playout samples each chance node from the pile's counts (``engine.sample``) and
checks a chance outcome by its count (``SocCardState.is_legal``) instead of building the
list of ``(outcome, probability)`` pairs; these tests hold the shortcuts to the list.
"""

from __future__ import annotations

import random

import pendragon
from pendragon.core import rng
from pendragon.games.soc_card.rules.common import pick_count, weighted


def test_pick_count_lands_where_pick_at_does() -> None:
    generator = random.Random(30)
    for trial in range(3000):
        counts = [generator.choice((0, 0, 1, 2, 3, 7)) for _ in range(generator.randint(1, 43))]
        if not any(counts):
            counts[generator.randrange(len(counts))] = 1
        outcomes = weighted(5, counts)
        seed = generator.getrandbits(64)
        for counter in range(trial % 7, 40, 7):
            u = rng.uniform(seed, counter)
            assert pick_count(5, counts, sum(counts), u) == rng.pick_at(u, outcomes), (
                counts, seed, counter)


def test_the_cumulative_sums_are_pick_ats() -> None:
    """The interval edges ``pick_count`` compares the uniform value with are ``pick_at``'s
    bit for bit (``float(c) / float(total)`` is ``c / total``, added in the same order), so
    no value of the stream, however close to an edge, can fall differently."""
    generator = random.Random(31)
    for _ in range(2000):
        counts = [generator.choice((0, 1, 2, 3, 5, 7, 11)) for _ in range(generator.randint(2, 43))]
        if sum(1 for c in counts if c) < 2:
            counts[:2] = [1, 2]
        total = sum(counts)
        acc = 0.0
        edges = []
        for count in counts:
            if count:
                acc += float(count) / float(total)
                edges.append(acc)
        outcomes = weighted(0, counts)
        check = 0.0
        for (_action, probability), edge in zip(outcomes, edges, strict=True):
            check += probability
            assert check == edge


def test_sampling_and_legality_at_chance_nodes_follow_the_outcome_list() -> None:
    generator = random.Random(7)
    for players, expert, promos in ((5, False, False), (3, True, True), (1, True, False),
                                    (7, True, True)):
        game = pendragon.load_game("soc-card", players=players, seed=players,
                                   knights_relief=expert, promos=promos)
        for _ in range(15):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    drawn = state.sample_chance()
                    assert drawn == rng.pick_weighted(state._rng_seed, state._chance_count,
                                                      outcomes)
                    possible = {action for action, _p in outcomes}
                    assert state.legal_actions() == [action for action, _p in outcomes]
                    for action in range(game.num_distinct_actions()):
                        assert state.is_legal(action) == (action in possible)
                    state.apply_action(drawn)
                else:
                    legal = state.legal_actions()
                    assert legal == sorted(set(legal))  # listed in id order, no sort
                    state.apply_action(legal[generator.randrange(len(legal))])
