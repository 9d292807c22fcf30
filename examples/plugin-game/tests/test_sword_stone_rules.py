"""The rules of The Sword in the Stone, one test per rule, with forced chance.

Chance is forced by applying the outcome wanted (``card:3`` deals a 3), so every scenario
is exact. The conformance of the game to the core API (random playouts checked at every
step) runs in Pendragon's own suite, over every installed game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pendragon
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pendragon import CHANCE, TERMINAL, CorruptStateError, IllegalActionError
from pendragon.i18n import catalog

from pendragon_sword_stone.heuristic import SwordStoneBot
from pendragon_sword_stone.rules import SwordStoneGame, SwordStoneState


def deal(hands: Sequence[Sequence[int]], target: int = 21, seed: int = 1) -> SwordStoneState:
    """A game whose opening deal gives each seat ``hands[seat]`` (three values each)."""
    game = pendragon.load_game("sword-stone", players=len(hands), target=target, seed=seed)
    assert isinstance(game, SwordStoneGame)
    state = game.new_initial_state()
    for round_ in range(3):
        for hand in hands:
            state.apply_text(f"card:{hand[round_]}")
    return state


def texts(state: SwordStoneState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: SwordStoneState, *moves: str) -> None:
    for move in moves:
        state.apply_text(move)


# ---------------------------------------------------------------------- options
@pytest.mark.parametrize("options", [{"players": 1}, {"players": 5}, {"target": 9},
                                     {"target": 41}, {"colour": "red"}])
def test_impossible_options_are_refused_by_name(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(options))):
        pendragon.load_game("sword-stone", **options)


def test_the_declared_facts() -> None:
    info = SwordStoneGame({"players": 4, "seed": 0}).info
    assert (info.min_players, info.max_players, info.num_distinct_actions) == (2, 4, 12)
    assert (info.min_utility, info.max_utility, info.observation_tensor_size) == (-1, 1, 22)
    assert SwordStoneGame.supported_player_counts() == [2, 3, 4]


# ---------------------------------------------------------------------- the deal
def test_the_opening_deal_gives_three_cards_round_robin_from_seat_0() -> None:
    state = SwordStoneGame({"players": 3, "seed": 4}).new_initial_state()
    receivers = []
    while state.current_player() == CHANCE:
        receivers.append(state.observation(None)["receiving"])
        state.apply_action(state.sample_chance())
    assert receivers == [0, 1, 2] * 3
    assert state.current_player() == 0
    assert state.observation(None)["hand_sizes"] == [3, 3, 3]
    assert state.observation(None)["deck"] == 20 - 9


def test_chance_draws_each_value_by_its_count_in_the_deck() -> None:
    state = SwordStoneGame({"players": 2, "seed": 4}).new_initial_state()
    assert state.chance_outcomes() == [(k, 0.2) for k in range(5)]
    play(state, "card:5", "card:5", "card:5", "card:5")
    outcomes = dict(state.chance_outcomes())
    assert 4 not in outcomes and outcomes[0] == pytest.approx(0.25)


# ---------------------------------------------------------------------- pulling
def test_a_pull_lays_the_card_on_the_stone_and_passes_the_turn() -> None:
    state = deal([[1, 2, 3], [4, 4, 5]])
    assert texts(state) == ["pull:1", "pull:2", "pull:3", "draw"]
    play(state, "pull:3")
    view = state.observation(1)
    assert view["stone"] == [3] and view["total"] == 3 and view["to_play"] == 1
    assert state.observation(0)["hand"] == [1, 2]


def test_the_pull_that_makes_the_target_exactly_wins() -> None:
    state = deal([[5, 5, 1], [5, 4, 4]], target=10)
    play(state, "pull:5", "pull:4")  # 9: seat 0 needs a 1
    assert "pull:1" in texts(state)
    play(state, "pull:1")
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.observation(1)["winner"] == 0


def test_a_pull_past_the_target_is_illegal() -> None:
    state = deal([[5, 5, 1], [5, 4, 4]], target=10)
    play(state, "pull:5", "pull:4")  # 9
    assert "pull:5" not in texts(state)
    with pytest.raises(IllegalActionError):
        state.apply_text("pull:5")


# ---------------------------------------------------------------------- drawing
def test_a_draw_is_a_chance_node_for_the_drawer_then_the_turn_passes() -> None:
    state = deal([[1, 2, 3], [4, 4, 5]])
    play(state, "draw")
    assert state.current_player() == CHANCE
    assert state.observation(None)["receiving"] == 0
    play(state, "card:2")
    assert state.current_player() == 1
    assert state.observation(0)["hand"] == [1, 2, 2, 3]


def test_no_draw_with_five_cards_in_hand() -> None:
    state = deal([[1, 1, 1], [2, 2, 2]], target=40)
    play(state, "draw", "card:3", "draw", "card:4", "draw", "card:3", "draw", "card:4")
    assert state.observation(None)["hand_sizes"] == [5, 5]
    assert "draw" not in texts(state)


def test_no_draw_from_an_empty_deck() -> None:
    state = deal([[1, 1, 1], [2, 2, 2]], target=40)
    while state.observation(None)["deck"] or len(state.observation(state.turn)["hand"]) == 5:
        if "draw" in texts(state):
            play(state, "draw")
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(state.legal_actions()[0])  # the smallest pull
    assert not state.is_terminal() and state.observation(None)["deck"] == 0
    assert len(state.observation(state.turn)["hand"]) < 5
    assert "draw" not in texts(state)


# ---------------------------------------------------------------------- passing, stalemate
def stuck_at_nine() -> SwordStoneState:
    """Target 10, total 9, both hands filled with cards above 1 by forced draws."""
    state = deal([[5, 5, 5], [5, 4, 4]], target=10)
    play(state, "pull:5", "pull:4")
    for drawn in (2, 3, 2, 3, 2, 3):
        assert texts(state) == ["draw"], "a knight who can draw may not pass"
        play(state, "draw", f"card:{drawn}")
    return state


def test_pass_only_when_a_knight_can_neither_pull_nor_draw() -> None:
    state = stuck_at_nine()
    assert state.observation(None)["hand_sizes"] == [5, 5]
    assert texts(state) == ["pass"]
    play(state, "pass")
    assert state.current_player() == 1 and state.observation(None)["passes"] == 1


def test_every_knight_passing_in_a_row_is_a_stalemate_worth_zero() -> None:
    state = stuck_at_nine()
    play(state, "pass", "pass")
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    view = state.observation(None)
    assert view["stalemate"] is True and view["winner"] is None


# ---------------------------------------------------------------------- what each seat sees
def test_a_seat_sees_its_own_hand_only_until_the_end() -> None:
    state = deal([[1, 2, 3], [4, 4, 5]], target=10)
    assert state.observation(0)["hand"] == [1, 2, 3]
    assert state.observation(1)["hand"] == [4, 4, 5]
    assert "hand" not in state.observation(None)
    assert all("revealed" not in state.observation(s) for s in (0, 1, None))
    play(state, "pull:3", "pull:5", "pull:2")  # 10: seat 0 wins
    assert state.observation(None)["revealed"] == [[1], [4, 4]]


def test_a_dealt_card_is_named_to_its_receiver_only() -> None:
    state = SwordStoneGame({"players": 2, "seed": 1}).new_initial_state()
    card = state.string_to_action("card:4")
    assert state.describe_action(card, 0) == "You take Strength (4)."
    assert state.describe_action(card, 1) == "Seat 0 takes a card."
    assert state.describe_action(card, None) == "Seat 0 takes a card."
    [event] = state.narrate(card, 1)
    assert catalog("ru").render(event, seat_name=lambda seat: f"S{seat}") == "S0 получает карту."


def test_pulls_are_narrated_with_the_new_total_and_the_win() -> None:
    state = deal([[5, 5, 1], [5, 4, 4]], target=10)
    play(state, "pull:5", "pull:4")
    pull = state.string_to_action("pull:1")
    assert state.describe_action(pull, 1) == (
        "Seat 0 pulls with Faith (1): the stone stands at 10."
        " Seat 0 draws the sword from the stone!"
    )
    assert state.describe_action(pull, 0).endswith("You draw the sword from the stone!")


def test_resampling_redeals_only_what_the_seat_cannot_see() -> None:
    state = deal([[1, 2, 3], [4, 4, 5], [1, 1, 2]])
    generator = random.Random(3)
    hands = set()
    for _ in range(30):
        other = state.resample_hidden(0, generator)
        assert other.observation(0) == state.observation(0)
        assert other.legal_actions() == state.legal_actions()
        other.check_invariants()
        hands.add(tuple(other.observation(1)["hand"]))
    assert len(hands) > 5, "the other hands are really redealt"


def test_the_observation_tensor_is_22_numbers_in_the_unit_interval() -> None:
    state = deal([[1, 2, 3], [4, 4, 5]])
    tensor = state.observation_tensor(0)
    assert len(tensor) == 22 and all(0.0 <= x <= 1.0 for x in tensor)
    assert tensor[:5] == [0.25, 0.25, 0.25, 0.0, 0.0]
    assert tensor[16] == 1.0, "seat +0 (the viewer) is to act"
    assert state.observation_tensor(1)[16:18] == [0.0, 1.0], "seat +1 is to act"


# ---------------------------------------------------------------------- storage
def test_serialize_round_trips_and_garbage_is_refused() -> None:
    state = deal([[1, 2, 3], [4, 4, 5]])
    play(state, "draw", "card:5")
    game = state.game
    copy = game.deserialize_state(state.serialize())
    assert copy.serialize() == state.serialize() and copy.legal_actions() == state.legal_actions()
    data = json.loads(state.serialize())
    data["deck"][0] += 1  # a card too many
    for text in ("", "[]", json.dumps(data), state.serialize().replace('"options":[2,21]',
                                                                       '"options":[3,21]')):
        with pytest.raises(CorruptStateError):
            game.deserialize_state(text)


def test_the_same_seed_and_actions_replay_the_same_game() -> None:
    game = SwordStoneGame({"players": 3, "seed": 11})
    state = game.new_initial_state()
    bots = [SwordStoneBot(seed) for seed in range(3)]
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(state.sample_chance() if player == CHANCE else bots[player].step(state))
    again = game.new_initial_state()
    again.replay(state.history())
    assert again.serialize() == state.serialize()


# ---------------------------------------------------------------------- counts (perft)
def perft(state: SwordStoneState, depth: int) -> int:
    """Distinct action sequences of length ``depth`` (fewer where a game ends)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


@pytest.mark.parametrize(("depth", "count"), [(6, 15500), (8, 207020)])
def test_perft_of_the_opening_deal(depth: int, count: int) -> None:
    """Any change to the deal (or to the first decisions) changes these counts."""
    state = SwordStoneGame({"players": 2, "seed": 0}).new_initial_state()
    assert perft(state, depth) == count


@pytest.mark.parametrize(("depth", "count"), [(4, 165), (6, 2010), (8, 22177)])
def test_perft_after_a_known_deal(depth: int, count: int) -> None:
    """Any change to pulling, drawing or passing changes these counts."""
    assert perft(deal([[1, 2, 3], [4, 4, 5], [2, 5, 5]]), depth) == count


# ---------------------------------------------------------------------- the heuristic
def test_the_heuristic_takes_a_winning_pull() -> None:
    state = deal([[5, 5, 1], [5, 4, 4]], target=10)
    play(state, "pull:5", "pull:4")
    assert state.action_to_string(SwordStoneBot(0).step(state)) == "pull:1"


def test_the_heuristic_avoids_leaving_a_gap_the_others_may_close() -> None:
    # Target 10 from 0: pulling a 5 leaves 5 (two 5s unseen: another knight may hold one);
    # pulling the 3 leaves 7, which no single card closes; so does drawing, but a pull
    # thins a full-sized hand.
    state = deal([[5, 5, 3], [1, 1, 1]], target=10)
    assert state.action_to_string(SwordStoneBot(0).step(state)) == "pull:3"


def test_the_heuristic_draws_rather_than_open_the_stone_to_others() -> None:
    # Target 10, total 3 after seat 0's pull and seat 1's draw: seat 0 holds two 5s
    # (pulling one leaves 2, with four 2s unseen), drawing keeps the gap of 7, out of reach.
    state = deal([[5, 5, 3], [1, 1, 1]], target=10)
    play(state, "pull:3", "draw", "card:4")
    assert texts(state) == ["pull:5", "draw"]
    assert state.action_to_string(SwordStoneBot(0).step(state)) == "draw"


def test_the_heuristic_beats_random_play() -> None:
    wins = 0
    for seed in range(60):
        state = SwordStoneGame({"players": 2, "seed": seed}).new_initial_state()
        bot, rng = SwordStoneBot(seed), random.Random(seed)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_chance())
            elif player == 0:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[0] > 0
    assert wins >= 40, wins


# ---------------------------------------------------------------------- fuzzing the storage
_SEEDED = deal([[1, 2, 3], [4, 4, 5], [2, 5, 5]], seed=9)
_SEEDED.apply_text("draw")
_FIELDS = sorted(json.loads(_SEEDED.serialize()))


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(_FIELDS), value=st.one_of(
    st.integers(-3, 30), st.booleans(), st.none(), st.text(max_size=3),
    st.lists(st.integers(-1, 6), max_size=6),
    st.lists(st.lists(st.integers(-1, 6), max_size=6), max_size=5),
))
def test_a_tampered_state_is_refused_or_fully_usable(field: str, value: object) -> None:
    """Stored text is a trust boundary: a changed field raises CorruptStateError, or the
    state it gives answers every query of the API without another exception."""
    data = json.loads(_SEEDED.serialize())
    data[field] = value
    try:
        state = _SEEDED.game.deserialize_state(json.dumps(data))
    except CorruptStateError:
        return
    for seat in [*range(3), None]:
        json.dumps(state.observation(seat))
    for seat in range(3):
        assert len(state.observation_tensor(seat)) == 22
    legal = state.legal_actions()
    if not state.is_terminal():
        assert legal
        if state.is_chance_node():
            assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        state.apply_action(legal[0])


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_random_text_is_refused(text: str) -> None:
    with pytest.raises(CorruptStateError):
        _SEEDED.game.deserialize_state(text)
