"""Shadows over Camelot's observation tensor (``soc_v2``): its ``known`` block, what the seat's
JSON view shows of the black cards in play, the black deck positions it knows, accusations,
Sir Bors's decision and the reward it is about; the learned
evaluator's view, the layout before that block; and that the whole tensor depends on nothing
the seat may not see."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import pendragon
from pendragon.games.soc.rules.cards import BLACK, LOCATION_KEYS
from pendragon.games.soc.rules.fixtures import load_state
from pendragon.games.soc.rules.state import SocState
from pendragon.games.soc.rules.view import (
    EVALUATION_SIZE,
    KNOWN_DEPTH,
    TENSOR_LAYOUT,
    TENSOR_NAMES,
    TENSOR_SIZE,
)

MC = {"expansion": "merlins-company"}
#: Random games of these setups for the leak check: the base game and Merlin's Company,
#: a random share (Bors is then asked at every reward), and VAR-THREE's hidden loyalty.
LEAK_SETUPS: list[tuple[int, dict[str, Any]]] = [
    (3, {}), (5, {}), (4, MC), (6, {**MC, "share": "random"}),
    (3, {"three_brave_knights": True}),
]


def _named(state: SocState, seat: int) -> dict[str, float]:
    return dict(zip(TENSOR_NAMES, state.observation_tensor(seat), strict=True))


def _known(state: SocState, seat: int) -> dict[str, float]:
    """The ``known`` block's non-zero elements of ``seat``'s tensor, by name."""
    tensor = state.observation_tensor(seat)
    return {TENSOR_NAMES[i]: tensor[i] for i in range(EVALUATION_SIZE, TENSOR_SIZE) if tensor[i]}


def _differing(one: SocState, two: SocState, seat: int) -> set[str]:
    """The names of the elements where ``seat``'s tensors in ``one`` and ``two`` differ."""
    return {name for name, a, b in zip(TENSOR_NAMES, one.observation_tensor(seat),
                                       two.observation_tensor(seat), strict=True) if a != b}


def _play(state: SocState, *texts: str) -> SocState:
    for text in texts:
        state.apply_text(text)
    return state


def _assert_blind(state: SocState, worlds: random.Random, tries: int = 3) -> None:
    """Every seat's tensor is the same in worlds it cannot tell from ``state``."""
    for seat in range(state.n):
        tensor = state.observation_tensor(seat)
        for _ in range(tries):
            world = state.resample_hidden(seat, worlds)
            assert world.observation(seat) == state.observation(seat)
            assert world.observation_tensor(seat) == tensor, (
                seat, state.decision_summary(),
                [name for name, a, b in zip(TENSOR_NAMES, tensor,
                                            world.observation_tensor(seat), strict=True)
                 if a != b])


def _assert_reads_the_view(state: SocState, seat: int) -> None:
    """The ``known`` block holds what ``seat``'s JSON view shows, and nothing else."""
    view = state.observation(seat)
    expected: Counter[str] = Counter()
    for entry in view["table"]["black_in_play"]:
        if entry.get("hidden"):
            expected[f"known.in_play.hidden.{entry['quest']}"] += 1
        else:
            expected[f"known.in_play.{entry['card']}"] += 1
    bottom: Counter[str] = Counter()
    for entry in view["you"]["black_deck_known"]:
        if entry["from"] == "top":
            assert entry["depth"] < KNOWN_DEPTH, entry  # no play makes one known deeper
            expected[f"known.deck.top+{entry['depth']}.{entry['card']}"] = 1
        else:
            bottom[f"known.deck.bottom.{entry['card']}"] += 1
    expected.update({name: 0.2 * count for name, count in bottom.items()})
    if view["accusations_open"]:
        expected["known.accusations_open"] = 1
    if view["waiting"]["decision"] == "bors-deal":
        expected["known.bors_deal"] = 1
    reward = view["table"]["face_down_reward"]
    if reward is not None:
        expected["known.reward.count"] = reward["cards"] / 3
        expected[f"known.reward.winner.seat+{(reward['winner'] - seat) % state.n}"] = 1
    known = _known(state, seat)
    assert known == pytest.approx(dict(expected)), (seat, state.decision_summary())


# ---------------------------------------------------------------------- the layout
def test_the_known_block_ends_the_tensor_and_the_evaluator_reads_what_came_before() -> None:
    """The block is the tensor's last; the learned evaluator's view is the 542 entries before
    it (the shipped network's layout, tests/test_evaluator.py), written without it."""
    # Cards in play and hidden by quest, 5 top positions and the bottom per card; the
    # accusations, Bors and the reward's count; its winner per seat.
    assert TENSOR_LAYOUT[-1] == ("known", len(BLACK) * (KNOWN_DEPTH + 2) + 2 + 3 + 8)
    assert TENSOR_LAYOUT[-2][0] == "ordered"
    assert len(TENSOR_NAMES) - TENSOR_LAYOUT[-1][1] == EVALUATION_SIZE == 542
    assert len(TENSOR_NAMES) == TENSOR_SIZE == 772
    assert all(name.startswith("known.") for name in TENSOR_NAMES[EVALUATION_SIZE:])
    assert not any(name.startswith("known.") for name in TENSOR_NAMES[:EVALUATION_SIZE])
    for players, options in ((3, {}), (8, MC)):
        game = pendragon.load_game("soc", players=players, seed=1, **options)
        assert game.evaluation_tensor_size() == EVALUATION_SIZE
        assert game.info.observation_tensor_size == TENSOR_SIZE
    assert "known.in_play.hidden.black-knight" in TENSOR_NAMES
    assert [LOCATION_KEYS[BLACK[k].quest] for k in range(len(BLACK)) if BLACK[k].combat_value
            ] == ["black-knight"] * 4 + ["lancelot"] * 4


# ---------------------------------------------------------------------- leaks
def test_random_games_meet_the_known_block_and_the_evaluator_reads_what_came_before() -> None:
    """Random games of these setups meet the ``known`` block (cards in play, known deck
    positions, accusations open), and the evaluator's view is the tensor's first entries at
    every step. (That a seat's tensor is the same in every world ``resample_hidden(seat)``
    draws is the conformance suite's check, over its own games, and ``_assert_blind``'s
    below, on positions built for it.)"""
    exercised: Counter[str] = Counter()
    for players, options in LEAK_SETUPS:
        for seed in range(2):
            game = pendragon.load_game("soc", players=players, seed=seed, **options)
            state = game.new_initial_state()
            chooser = random.Random(seed)
            while not state.is_terminal():
                for seat in range(players):
                    tensor = state.observation_tensor(seat)
                    assert state.evaluation_tensor(seat) == tensor[:EVALUATION_SIZE]
                    exercised.update(TENSOR_NAMES[i].split(".")[1]
                                     for i in range(EVALUATION_SIZE, TENSOR_SIZE) if tensor[i])
                if state.is_chance_node():
                    state.apply_action(state.sample_chance())
                else:
                    state.apply_action(chooser.choice(state.legal_actions()))
    # The games met black cards in play and known deck positions, so the check saw them.
    assert exercised["in_play"] and exercised["deck"] and exercised["accusations_open"]


def test_the_known_names_read_the_right_values() -> None:
    """Issue 40 item 3 for the ``known`` block: over random games each seat's elements hold
    what its JSON view shows (``table.black_in_play``, ``you.black_deck_known``,
    ``accusations_open``, ``waiting.decision``, ``table.face_down_reward``)."""
    for players, options in LEAK_SETUPS[:4]:
        state = pendragon.load_game("soc", players=players, seed=3, **options).new_initial_state()
        assert isinstance(state, SocState)
        chooser = random.Random(3)
        while not state.is_terminal():
            for seat in range(players):
                _assert_reads_the_view(state, seat)
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
            else:
                state.apply_action(chooser.choice(state.legal_actions()))


# ---------------------------------------------------------------------- scenarios
def test_percivals_peek_is_in_his_tensor_only() -> None:
    """SOC-KNIGHT-PERCIVAL, SOC-RULING-22: he looks at the top black card; only he learns it.
    Two positions that differ only in that card give him tensors that differ exactly there
    (``known.deck.top+0``), and the others the same tensor. The shipped evaluator's view
    (the layout before ``known``) does not see it."""
    peeked = {}
    for top in ("picts", "mist-of-avalon"):
        state = load_state({"players": 3, "knights": [{"knight": "percival"}, {}, {}],
                            "black_top": [top]})
        assert not _known(state, 0)
        peeked[top] = _play(state, "peek")
        assert _known(state, 0) == {f"known.deck.top+0.{top}": 1.0}
        assert state.observation(0)["you"]["black_deck_known"] == [
            {"from": "top", "depth": 0, "card": top}]
        _assert_blind(state, random.Random(1))
        for seat in range(3):
            _assert_reads_the_view(state, seat)
    one, two = peeked["picts"], peeked["mist-of-avalon"]
    assert _differing(one, two, 0) == {"known.deck.top+0.picts", "known.deck.top+0.mist-of-avalon"}
    assert _differing(one, two, 1) == _differing(one, two, 2) == set()
    assert one.evaluation_tensor(0) == two.evaluation_tensor(0)


def test_the_card_a_face_down_choice_is_about_is_in_the_drawers_tensor() -> None:
    """SOC-BLACK-2: a combat card drawn may be laid face down; only the drawer knows it.
    Drawn Black Knight 1 and Black Knight 7 give the drawer different tensors
    (``known.in_play.<card>``); every other seat sees only that a Black Knight card is in
    play (``known.in_play.hidden.black-knight``), the same in both."""
    drawn = {}
    for card in ("black-knight-1", "black-knight-7"):
        state = _play(load_state({"players": 3, "black_top": [card]}), "draw-black")
        assert state.observation(None)["waiting"]["decision"] == "face"
        drawn[card] = state
        assert _known(state, 0) == {f"known.in_play.{card}": 1.0}
        assert _known(state, 1) == _known(state, 2) == {"known.in_play.hidden.black-knight": 1.0}
        _assert_blind(state, random.Random(2))
    one, two = drawn["black-knight-1"], drawn["black-knight-7"]
    assert _differing(one, two, 0) == {"known.in_play.black-knight-1",
                                       "known.in_play.black-knight-7"}
    assert _differing(one, two, 1) == _differing(one, two, 2) == set()


def test_the_special_card_the_merlins_are_pooled_against_is_in_every_tensor() -> None:
    """SOC-BLACK-4: a special black card is read out, and the Merlins are pooled against it
    at once; every seat's tensor names it (Morgan 4 or Guinevere), as its view does."""
    pooled = {}
    for card in ("morgan-4", "guinevere"):
        state = load_state({"players": 3, "black_top": [card], "knights": [
            {"hand": {"merlin": 1}}, {"hand": {"merlin": 1}}, {"hand": {"merlin": 1}}]})
        pooled[card] = _play(state, "draw-black")
        assert state.observation(None)["waiting"]["decision"] == "pool"
        for seat in range(3):
            assert _known(state, seat) == {f"known.in_play.{card}": 1.0}
        _assert_blind(state, random.Random(3))
    for seat in range(3):
        assert _differing(pooled["morgan-4"], pooled["guinevere"], seat) == {
            "known.in_play.morgan-4", "known.in_play.guinevere"}


def test_accusations_open_from_six_siege_engines_reached_alone() -> None:
    """SOC-ACCUSE-1: accusations open for good once 6 swords or 6 siege engines have been
    reached; with 3 engines standing now, only ``siege_reached_six`` tells them apart, and
    ``known.accusations_open`` is the one element that differs."""
    states = {reached: load_state({"players": 3, "siege_engines": 3,
                                   "siege_reached_six": reached})
              for reached in (False, True)}
    for seat in range(3):
        assert _differing(states[False], states[True], seat) == {"known.accusations_open"}
        for reached, state in states.items():
            assert state.observation(seat)["accusations_open"] is reached
            assert _named(state, seat)["known.accusations_open"] == float(reached)


def test_armors_card_put_under_the_deck_is_known_to_its_owner() -> None:
    """SOC-RELIC-ARMOR-1, SOC-RULING-21: the Armor's owner draws two black cards, plays one
    and puts the other under the deck, known to him only (``known.deck.bottom``)."""
    state = load_state({"players": 3, "relics": {"armor": 0},
                        "black_top": ["picts", "morgan-4"]})
    _play(state, "draw-black", "choose-black:picts")
    assert _known(state, 0) == {"known.deck.bottom.morgan-4": 0.2}
    assert _known(state, 1) == _known(state, 2) == {}
    _assert_blind(state, random.Random(4))


def test_clairvoyances_order_is_known_position_by_position() -> None:
    """SOC-W-CLAIRVOYANCE, SOC-RULING-43: the top 5 black cards go back in the order chosen,
    the first chosen on top; its player's tensor has each at its depth."""
    state = load_state({"players": 3, "knights": [{"hand": {"clairvoyance": 1}}, {}, {}],
                        "turn": {"seat": 0, "phase": "heroic"},
                        "black_top": ["picts", "saxons", "vivien", "despair", "mordred"]})
    _play(state, "special:clairvoyance", *(f"choose-black:{card}" for card in (
        "mordred", "vivien", "picts", "despair")))
    assert _known(state, 0) == {
        f"known.deck.top+{depth}.{card}": 1.0
        for depth, card in enumerate(("mordred", "vivien", "picts", "despair", "saxons"))}
    assert _known(state, 1) == {}
    _assert_blind(state, random.Random(5))


def test_a_stored_known_card_deeper_than_the_block_or_known_to_no_seat_is_refused() -> None:
    """SOC-W-CLAIRVOYANCE, SOC-RULING-21: a card becomes known no deeper than the top
    :data:`KNOWN_DEPTH`, the ``known`` block's slots, so a stored state with one deeper, or
    known to a seat the table does not have, is refused whole (``check_invariants``)."""
    state = load_state({"players": 3, "knights": [{"hand": {"clairvoyance": 1}}, {}, {}],
                        "turn": {"seat": 0, "phase": "heroic"},
                        "black_top": ["picts", "saxons", "vivien", "despair", "mordred",
                                      "saxons"]})
    _play(state, "special:clairvoyance", *(f"choose-black:{card}" for card in (
        "mordred", "vivien", "picts", "despair")))
    data = state.to_dict()
    top = data["black_top"]  # its last entry is the top card
    assert [code // 64 for code in top] == [0] + [1] * KNOWN_DEPTH
    state.game.deserialize_state(json.dumps(data))  # as stored: accepted
    for index, code in ((0, top[0] + 64), (-1, top[-1] + 64 * 8)):
        tampered = {**data, "black_top": [*top[:index % len(top)], code,
                                          *top[index % len(top) + 1:]]}
        with pytest.raises(pendragon.CorruptStateError, match="no seat or lies too deep"):
            state.game.deserialize_state(json.dumps(tampered))


def _black_knight_won(**options: Any) -> SocState:
    """Seat 0 wins the Black Knight alone with Sir Bors (seat 2) at the table."""
    return _play(load_state({
        "players": 3, "options": {**MC, **options}, "turn": {"seat": 0, "phase": "heroic"},
        "knights": [{"location": "black-knight", "hand": {"fight-3": 1, "grail": 2}}, {},
                    {"knight": "bors"}],
        "quests": {"black-knight": {"white": ["fight-2", "fight-2", "fight-3"],
                                    "black": ["black-knight-1", "black-knight-1"]}},
    }), "play:fight-3")


def test_bors_deal_and_the_reward_it_is_about_are_flagged() -> None:
    """MC-KNIGHT-BORS, SOC-RULING-69: the Black Knight's 3 reward cards are dealt face down
    to their lone winner, Sir Bors taking part if he chooses. The ``bors-deal`` decision has
    no slot of its own in the ``decision`` block (it reads as ``none`` with Bors to act);
    ``known.bors_deal`` names it, and the reward's count and winner are seat-relative."""
    state = _black_knight_won()
    assert state.observation(None)["waiting"]["decision"] == "bors-deal"
    assert state.current_player() == 2
    for seat in range(3):
        named = _named(state, seat)
        assert named["decision.none"] == 1.0
        assert named[f"seats.seat+{(2 - seat) % 3}.to_act"] == 1.0
        assert named["known.bors_deal"] == 1.0
        assert named["known.reward.count"] == 1.0
        winner = [name for name, value in named.items()
                  if name.startswith("known.reward.winner.") and value]
        assert winner == [f"known.reward.winner.seat+{(0 - seat) % 3}"]
        _assert_reads_the_view(state, seat)
    _assert_blind(state, random.Random(6))
    state.apply_text("pass")
    assert not any(_named(state, 2)[name] for name in (
        "known.bors_deal", "known.reward.count", "known.reward.winner.seat+1"))


def test_bors_asked_into_a_random_share_has_no_face_down_reward() -> None:
    """MC-KNIGHT-BORS, SOC-RULING-77: with ``share="random"`` Bors is asked whether he is
    dealt in once the cards are on show (``table.offer``): ``known.bors_deal`` with no
    reward (the view's ``face_down_reward`` is none)."""
    state = load_state({
        "players": 3, "options": {**MC, "share": "random"},
        "turn": {"seat": 0, "phase": "heroic"},
        "knights": [{"location": "picts", "hand": {"fight-5": 1, "grail": 2}}, {},
                    {"knight": "bors", "hand": {"fight-1": 1}}],
        "quests": {"picts": {"white": ["fight-1", "fight-2", "fight-3", "fight-4"]}},
    })
    _play(state, "play:fight-5", *(f"white-card:{k}" for k in ("grail", "merlin", "fight-1",
                                                                  "fight-2")))
    assert state.observation(None)["waiting"]["decision"] == "bors-deal"
    assert state.observation(2)["table"]["face_down_reward"] is None
    for seat in range(3):
        known = _known(state, seat)
        assert known["known.bors_deal"] == 1.0
        assert not any(name.startswith("known.reward.") for name in known)
        _assert_reads_the_view(state, seat)
