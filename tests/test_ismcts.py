"""The ISMCTS bot: legal and reproducible on any game, sensible on a small one, and blind
to the hidden information of other seats."""

from __future__ import annotations

import math
import random

import pytest

import pendragon
from pendragon.bots.base import Bot
from pendragon.bots.heuristic import HeuristicBot
from pendragon.bots.ismcts import CanonicalRandom, ISMCTSBot, paired_advantage, soc_evaluate
from pendragon.bots.random_bot import RandomBot
from pendragon.core.api import CHANCE, State
from pendragon.runner import bot_seed, play_game
from tests.positions import soc_position
from tests.toygame import ToyGame

#: A budget that pays for a search anywhere (the default searches only near the end).
_ALWAYS = 10**9


def test_ismcts_is_legal_and_reproducible() -> None:
    state = soc_position(3, 300)
    bot = ISMCTSBot(seed=7, iterations=4, min_iterations=2, budget=_ALWAYS)
    first = bot.step(state)
    assert first in state.legal_actions()
    assert bot.last_search is not None and 2 <= bot.last_search[0] <= 4
    assert ISMCTSBot(seed=7, iterations=4, min_iterations=2, budget=_ALWAYS).step(state) == first


@pytest.mark.parametrize("seed, decisions", [(11, 150), (12, 200), (13, 60), (14, 220)])
def test_decisions_do_not_depend_on_other_seats_hidden_information(
    seed: int, decisions: int
) -> None:
    # Two worlds the acting seat cannot tell apart (same observation, different hands,
    # decks and loyalties of the others): the same bot, seeded alike, searches alike and
    # chooses alike.
    state = soc_position(seed, decisions)
    seat = state.current_player()
    one = state.resample_hidden(seat, random.Random(1))
    two = state.resample_hidden(seat, random.Random(2))
    assert one.observation(seat) == two.observation(seat) == state.observation(seat)
    hands = [(one.observation(s)["you"]["hand"], two.observation(s)["you"]["hand"])
             for s in range(5) if s != seat]
    assert any(a != b for a, b in hands), "the two worlds should differ for other seats"

    def searched(world: State) -> tuple[int, tuple[int, bool] | None]:
        bot = ISMCTSBot(seed=5, iterations=3, min_iterations=2, budget=_ALWAYS,
                        prior_margin=None)
        return bot.step(world), bot.last_search

    choice = searched(one)
    assert choice[1] == (3, choice[0] != HeuristicBot(5).step(one))
    assert searched(two) == choice
    # The real position, searched without its past as the worlds are: with its past the
    # rollout policy also remembers the public record, which a world has none of (what it
    # may read of that record: tests/test_honest_histories.py).
    forgotten = state.clone()
    forgotten.forget_past()
    assert searched(forgotten) == choice


def test_a_bot_that_never_overrules_plays_as_its_heuristic() -> None:
    # The search improves on the heuristic rather than replacing it: where it does not
    # overrule (here the budget never pays for a search), the ISMCTS bot plays the very
    # game the heuristic bot with the same seed plays.
    game = pendragon.load_game("soc", players=3, seed=41, no_traitor=True)
    seeds = [bot_seed(game.seed, s) for s in range(3)]
    plain = play_game(game, [HeuristicBot(s) for s in seeds])
    policy_only = play_game(game, [ISMCTSBot(s, budget=1) for s in seeds])
    assert policy_only.history() == plain.history()


def test_the_default_budget_searches_only_where_rollouts_fit() -> None:
    # Early in a game a full rollout is some 500 actions: 16 sweeps of several actions
    # would cost far more than the budget, so the policy plays; near the end, it searches.
    # (The position after 5 decisions: 5 choices, some 425 actions left. After 240, the
    # decision has 4 choices near the end, which make a search affordable.)
    early = soc_position(8, 5)
    bot = ISMCTSBot(seed=2)
    bot.step(early)
    assert bot.last_search is None
    late = soc_position(8, 240)
    # Measured as the bot will: with its policy's worlds (drawn from the belief).
    probe = ISMCTSBot(seed=2)
    probe._policy = probe._make_policy(late.game.name, 2, root=True)
    remaining = probe._expected_length(late, late.current_player())
    legal = len(late.legal_actions())
    bot = ISMCTSBot(seed=2, budget=int(16 * legal * remaining) + 1)
    bot.step(late)
    assert bot.last_search is not None


def test_a_search_stops_at_its_budget_when_rollouts_run_longer_than_measured() -> None:
    # Issue 18 (decision time): the expected rollout length comes from the last measure; a
    # search misled by it (here: told one action remains) still spends no more than its
    # budget, plus at most one sweep's share, instead of all its sweeps.
    state = soc_position(21, 40)
    seat = state.current_player()
    bot = ISMCTSBot(seed=2, budget=3000, prior_margin=None)  # no action dropped early
    bot._policy = bot._make_policy(state.game.name, 2, root=True)
    bot._horizon = (state.game, state.version, 1.0)
    prior = bot._policy.step(state.resample_hidden(seat, CanonicalRandom(state.version)))
    bot.search(state, seat, prior, bot.iterations)
    assert bot.last_search is not None
    sweeps = bot.last_search[0]
    assert 1 <= sweeps < bot.iterations
    length = bot._horizon[2]  # the sweeps' mean rollout length, measured by this search
    legal = len(state.legal_actions())
    assert (sweeps - 1) * legal * length <= bot.budget  # all but the last were affordable


def test_paired_advantage_is_the_mean_and_standard_error_of_differences() -> None:
    mean, error = paired_advantage([1.0, 1.0, 1.0, -1.0], [1.0, -1.0, -1.0, -1.0])
    assert mean == 1.0
    assert error == pytest.approx(math.sqrt((3 * 1.0**2 + 1.0**2) / 3 / 4))
    # Identical results give no evidence either way.
    assert paired_advantage([1.0, -1.0], [1.0, -1.0]) == (0.0, 0.0)


def test_canonical_determinisation_depends_only_on_the_information_set() -> None:
    state = soc_position(21, 120)
    seat = state.current_player()
    one = state.resample_hidden(seat, random.Random(1))
    two = state.resample_hidden(seat, random.Random(2))
    assert one.serialize() != two.serialize()
    again_one = one.resample_hidden(seat, CanonicalRandom(9))
    again_two = two.resample_hidden(seat, CanonicalRandom(9))
    assert again_one.serialize() == again_two.serialize()


def _random_positions(name: str, count: int) -> list[State]:
    """One position of each of ``count`` 5-player games played by random bots (at most 200
    actions), drawn among those where a seat is to decide."""
    positions = []
    for seed in range(1, count + 1):
        state = pendragon.load_game(name, players=5, seed=seed).new_initial_state()
        bot = RandomBot(seed)
        seen: list[State] = []
        while not state.is_terminal() and state.version < 200:
            player = state.current_player()
            if player != CHANCE:
                seen.append(state.clone())
            state.apply_action(state.sample_chance() if player == CHANCE else bot.step(state))
        positions.append(seen[random.Random(seed).randrange(len(seen))])
    return positions


@pytest.mark.parametrize("name", ["soc", "soc-card", "grail-cup"])
def test_every_game_determinises_from_the_information_set_alone(name: str) -> None:
    """The search's worlds cannot follow the truth (``CanonicalRandom``): two states a seat
    cannot tell apart give the same world for the same generator. Caught in soc (another
    knight's private knowledge of a third one's hand was kept) and Grail Cup (hidden allies
    were redealt over their real places in the order of the allies lying there)."""
    checked = 0
    for state in _random_positions(name, 40):
        seat = state.current_player()
        one = state.resample_hidden(seat, random.Random(1))
        two = state.resample_hidden(seat, random.Random(2))
        again_one = one.resample_hidden(seat, CanonicalRandom(9))
        again_two = two.resample_hidden(seat, CanonicalRandom(9))
        assert again_one.serialize() == again_two.serialize(), (name, state.game.seed)
        checked += one.serialize() != two.serialize()
    assert checked >= 10  # enough positions where the two worlds really differ


def _toy_position(toy: type[ToyGame], my_card: int, rounds: int = 2) -> State:
    game = pendragon.load_game("toy", seed=1, rounds=rounds)
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
    """A policy that always plays the highest legal action."""

    def step(self, state: State) -> int:
        return max(state.legal_actions())


class _GuidedBot(ISMCTSBot):
    """The search over a stubborn policy, with random rollouts below the root."""

    def _make_policy(self, game_name: str, seed: int | None, root: bool) -> Bot:
        return _Stubborn() if root else RandomBot(seed)


def test_policy_choice_stands_unless_the_search_beats_it_with_confidence(
    toy_registered: type[ToyGame],
) -> None:
    # One decision each: holding the best card, "swap" (the stubborn policy's highest
    # action) throws the win away. A margin of 2 never lets the search overrule; the
    # default margin and confidence do, on paired sweeps; without a margin the search
    # alone decides.
    state = _toy_position(toy_registered, 6, rounds=1)
    keep, swap = state.game.keep, state.game.swap  # type: ignore[attr-defined]
    assert max(state.legal_actions()) == swap
    assert _GuidedBot(seed=1, iterations=20, prior_margin=2.0).step(state) == swap
    overruled = _GuidedBot(seed=1, iterations=20)
    assert overruled.step(state) == keep
    assert overruled.last_search == (20, True)
    assert _GuidedBot(seed=1, iterations=20, prior_margin=None).step(state) == keep


def test_the_confidence_test_guards_the_policy(toy_registered: type[ToyGame]) -> None:
    # The same clear case: demanding 50 standard errors (more than a few sweeps of
    # differences can show unless every one of them agrees) leaves the policy's choice
    # alone.
    state = _toy_position(toy_registered, 6, rounds=1)
    strict = _GuidedBot(seed=1, iterations=8, min_iterations=8, confidence=50.0)
    assert strict.step(state) == max(state.legal_actions())
    assert strict.last_search == (8, False)


def test_hopeless_actions_are_dropped_and_the_search_stops_early(
    toy_registered: type[ToyGame],
) -> None:
    # Holding the worst card, swapping (the stubborn choice) beats keeping in every sweep
    # where they differ: after the first sweeps "keep" cannot win, so the search ends.
    game = pendragon.load_game("toy", seed=1)
    state = _toy_position(toy_registered, 1)
    bot = _GuidedBot(seed=3, iterations=100, min_iterations=6)
    assert bot.step(state) == game.swap  # type: ignore[attr-defined]
    assert bot.last_search is not None and bot.last_search[0] < 100
    assert bot.last_search[1] is False


def test_time_budget_and_bad_arguments() -> None:
    state = soc_position(4, 30)
    assert ISMCTSBot(seed=1, time_limit=0.05).step(state) in state.legal_actions()
    for bad in ({"rollout": "clairvoyant"}, {"iterations": 0}, {"budget": 0},
                {"min_iterations": 0}, {"iterations": 4, "min_iterations": 5},
                {"rollout_depth": 0}):
        with pytest.raises(ValueError):
            ISMCTSBot(**bad)


def test_cut_rollouts_are_scored_by_the_evaluator() -> None:
    # rollout_depth cuts each rollout and scores the position with soc_evaluate; the
    # search still returns a legal action and counts its sweeps.
    state = soc_position(4, 100)
    bot = ISMCTSBot(seed=1, iterations=3, min_iterations=2, budget=_ALWAYS, rollout_depth=5)
    assert bot.step(state) in state.legal_actions()
    assert bot.last_search is not None


def test_soc_evaluation_sides_with_loyalty() -> None:
    # The traitor's value is the opposite of the loyal knights' (SOC-END-1/-2).
    state = soc_position(30, 200)
    values = soc_evaluate(state)
    loyalty = [state.observation(s)["you"]["loyalty"] for s in range(5)]
    loyal = [v for v, side in zip(values, loyalty, strict=True) if side == "loyal"]
    assert len(set(loyal)) == 1 and -1.0 <= loyal[0] <= 1.0
    for value, side in zip(values, loyalty, strict=True):
        if side == "traitor":
            assert value == -loyal[0]


class _Rogue:
    """A broken policy: it answers with a chance outcome where a seat decides."""

    def step(self, state: State) -> int:
        return 0


class _RogueBot(ISMCTSBot):
    def _make_policy(self, game_name: str, seed: int | None, root: bool) -> Bot:
        return _Rogue()


def test_a_policy_choosing_an_illegal_action_is_a_clear_error(
    toy_registered: type[ToyGame],
) -> None:
    state = _toy_position(toy_registered, 3)
    assert 0 not in state.legal_actions()
    with pytest.raises(ValueError, match="illegal action 0"):
        _RogueBot(seed=1).step(state)


def test_the_confidence_is_a_number_of_standard_errors() -> None:
    assert ISMCTSBot(confidence=1.5).confidence == 1.5
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="confidence"):
            ISMCTSBot(confidence=bad)


class _Tested(ISMCTSBot):
    """Records the standard errors each overrule test of its searches asked for."""

    asked: list[float] = []

    def _decide(self, prior: int, rewards: dict[int, list[float]], done: int,
                confidence: float = 2.0) -> int:
        _Tested.asked.append(confidence)
        return super()._decide(prior, rewards, done, confidence)


@pytest.mark.parametrize(("game", "options", "given", "expected"), [
    ("soc", {"no_traitor": True}, None, 1.0), ("soc", {}, None, 2.0),
    ("grail-cup", {}, None, 2.0), ("soc", {"no_traitor": True}, 3.0, 3.0)])
def test_the_overrule_test_takes_the_games_own_confidence_unless_given_one(
        game: str, options: dict[str, bool], given: float | None, expected: float) -> None:
    """ISSUE-38 (search): a game's heuristic may name the standard errors its search's
    overrule test asks for (``search_confidence(game)``: Shadows over Camelot 1 where no
    traitor can be dealt, VAR-NO-TRAITOR, chosen on dev seeds, else 2: docs/bots.md); a game
    that names none keeps the default 2, and a bot given its own keeps that. The search's
    test is the one that reads it."""
    state = pendragon.load_game(game, players=3, seed=4, **options).new_initial_state()
    state.play_random_chance()
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
        state.play_random_chance()
    bot = _Tested(seed=1, iterations=2, min_iterations=2, budget=10**6, rollout="random",
                  confidence=given)
    assert bot.confidence_for(state.game) == expected
    _Tested.asked = []
    bot.search(state, state.current_player(), state.legal_actions()[0], 2)
    assert _Tested.asked == [expected]
