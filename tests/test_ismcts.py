"""The ISMCTS bot: legal and reproducible on any game, sensible on a small one, and blind
to the hidden information of other seats."""

from __future__ import annotations

import random

import pytest

import pendragon
from pendragon.bots.base import Bot
from pendragon.bots.heuristic import HeuristicBot
from pendragon.bots.ismcts import CanonicalRandom, ISMCTSBot, soc_evaluate
from pendragon.core.api import CHANCE, State
from pendragon.runner import bot_seed
from tests.toygame import ToyGame


def _soc_position(seed: int, decisions: int, **options: object) -> State:
    """A Shadows over Camelot position after ``decisions`` heuristic decisions."""
    game = pendragon.load_game("soc", players=5, seed=seed, **options)
    state = game.new_initial_state()
    bots = [HeuristicBot(bot_seed(game.seed, s)) for s in range(5)]
    done = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        if done >= decisions and len(state.legal_actions()) > 1:
            return state
        state.apply_action(bots[player].step(state))
        done += 1
    raise AssertionError("the game ended before the position was reached")


def test_ismcts_is_legal_and_reproducible() -> None:
    state = _soc_position(3, 40)
    first = ISMCTSBot(seed=7, iterations=30).step(state)
    assert first in state.legal_actions()
    assert ISMCTSBot(seed=7, iterations=30).step(state) == first
    heuristic_rollouts = ISMCTSBot(seed=7, iterations=10, rollout="heuristic").step(state)
    assert heuristic_rollouts in state.legal_actions()


@pytest.mark.parametrize("seed, decisions", [(11, 150), (12, 300), (13, 60), (14, 220)])
def test_decisions_do_not_depend_on_other_seats_hidden_information(
    seed: int, decisions: int
) -> None:
    # Two worlds the acting seat cannot tell apart (same observation, different hands,
    # decks and loyalties of the others): the same bot, seeded alike, chooses alike.
    state = _soc_position(seed, decisions)
    seat = state.current_player()
    one = state.resample_hidden(seat, random.Random(1))
    two = state.resample_hidden(seat, random.Random(2))
    assert one.observation(seat) == two.observation(seat) == state.observation(seat)
    hands = [(one.observation(s)["you"]["hand"], two.observation(s)["you"]["hand"])
             for s in range(5) if s != seat]
    assert any(a != b for a, b in hands), "the two worlds should differ for other seats"
    choice = ISMCTSBot(seed=5, iterations=40).step(one)
    assert ISMCTSBot(seed=5, iterations=40).step(two) == choice
    assert ISMCTSBot(seed=5, iterations=40).step(state) == choice


def test_canonical_determinisation_depends_only_on_the_information_set() -> None:
    state = _soc_position(21, 120)
    seat = state.current_player()
    one = state.resample_hidden(seat, random.Random(1))
    two = state.resample_hidden(seat, random.Random(2))
    assert one.serialize() != two.serialize()
    again_one = one.resample_hidden(seat, CanonicalRandom(9))
    again_two = two.resample_hidden(seat, CanonicalRandom(9))
    assert again_one.serialize() == again_two.serialize()


def _toy_position(toy: type[ToyGame], my_card: int) -> State:
    game = pendragon.load_game("toy", seed=1)
    state = game.new_initial_state()
    cards = list(range(1, game.cards + 1))  # type: ignore[attr-defined]
    others = [c for c in cards if c != my_card]
    deal = [my_card] + others[: game.num_players() - 1]
    for card in deal:
        assert state.current_player() == CHANCE
        state.apply_action(card - 1)
    assert state.current_player() == 0
    return state


def test_ismcts_keeps_the_best_card_and_swaps_the_worst(toy_registered: type[ToyGame]) -> None:
    game = pendragon.load_game("toy", seed=1)
    top = game.cards  # type: ignore[attr-defined]
    keep, swap = game.keep, game.swap  # type: ignore[attr-defined]
    def search() -> ISMCTSBot:  # the search alone, with random rollouts
        return ISMCTSBot(seed=1, iterations=300, rollout="random", prior_margin=None)

    assert search().step(_toy_position(toy_registered, top)) == keep
    assert search().step(_toy_position(toy_registered, 1)) == swap


class _Stubborn:
    """A rollout policy that always plays the highest legal action."""

    def step(self, state: State) -> int:
        return max(state.legal_actions())


class _GuidedBot(ISMCTSBot):
    def _rollout_policy(self, state: State) -> Bot:
        return _Stubborn()


def test_rollout_policy_choice_stands_unless_the_search_clearly_beats_it(
    toy_registered: type[ToyGame],
) -> None:
    # The root keeps the rollout policy's own choice unless another action's mean reward
    # beats it by more than the margin: rewards lie in [-1, 1], so a margin of 2 never
    # lets the search overrule it, and without a margin the search alone decides.
    game = pendragon.load_game("toy", seed=1)
    state = _toy_position(toy_registered, game.cards)  # type: ignore[attr-defined]
    stubborn = max(state.legal_actions())
    assert _GuidedBot(seed=1, iterations=200, prior_margin=2.0).step(state) == stubborn
    searched = _GuidedBot(seed=1, iterations=200, prior_margin=None).step(state)
    assert searched == game.keep  # type: ignore[attr-defined]
    assert searched != stubborn


def test_time_budget_and_bad_arguments() -> None:
    state = _soc_position(4, 30)
    assert ISMCTSBot(seed=1, time_limit=0.05).step(state) in state.legal_actions()
    with pytest.raises(ValueError):
        ISMCTSBot(rollout="clairvoyant")
    with pytest.raises(ValueError):
        ISMCTSBot(iterations=0)


def test_soc_evaluation_sides_with_loyalty() -> None:
    # The traitor's value is the opposite of the loyal knights' (SOC-END-1/-2).
    state = _soc_position(30, 200)
    values = soc_evaluate(state)
    loyalty = [state.observation(s)["you"]["loyalty"] for s in range(5)]
    loyal = [v for v, side in zip(values, loyalty, strict=True) if side == "loyal"]
    assert len(set(loyal)) == 1 and -1.0 <= loyal[0] <= 1.0
    for value, side in zip(values, loyalty, strict=True):
        if side == "traitor":
            assert value == -loyal[0]
