"""Vivien: the order of the exchange (SCG-VIVIEN-1, SCG-RULING-9; rules version 4), and
the unmasked traitor (SCG-VIVIEN-2, SCG-RULING-9; rules version 3).

004, Viviana: «Gracz, który dobrał kartę Viviany natychmiast bierze 1 z dwóch kart
Lojalności odłożonych na bok podczas przygotowania gry, a drugą kartę przekazuje dowolnemu
graczowi, bez podglądania jej treści.» The drawer takes his card face down and names the
receiver before either card is shown; then his card is dealt, then the receiver's.

004, Viviana: «Obaj gracze decydują teraz, czy chcą zachować swoją dotychczasową kartę
Lojalności, czy zamienić ją na nową. [...] Gracze nie zdradzają swojego wyboru innym
graczom.» An unmasked traitor offered Vivien's card is *veiled* until his next turn: his
card is hidden whatever he chose, nobody else's view tells keep from swap (the receiver
deciding after him included), he may be accused like any hidden player, and his next turn
shows a kept traitor card again (his draw-two turn, SCG-ACCUSE-4) or is an ordinary turn.
The worlds another seat imagines (``resample_hidden``, ``with_traitors``) hold both choices.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pendragon.bots import make_bot
from pendragon.core.api import CHANCE, TERMINAL
from pendragon.core.events import Event
from pendragon.games.soc_card.rules import actions as A, loyalty as L
from pendragon.games.soc_card.rules.cards import LOYAL, TRAITOR
from pendragon.games.soc_card.rules.fixtures import load_state
from pendragon.games.soc_card.rules.state import SocCardState
from tests.test_conformance import _check_node

#: Seat 1, the traitor, unmasked by seat 0's accusation, is to draw two (SCG-ACCUSE-4).
UNMASKED: dict[str, Any] = {
    "players": 4, "loyalty": ["loyal", "traitor", "loyal", "loyal"], "revealed": [1],
    "accused": [0], "swords": {"white": 3, "black": 2}, "turn": 1, "pile": ["picts-4"],
}
#: His turn lays Vivien: he hands the other card to seat 3, then both are dealt (both
#: loyal), his first (SCG-RULING-9).
TO_VIVIEN = ["rumor:vivien", "rumor:picts-2", "place:vivien", "give:3", "vivien-card:loyal",
             "vivien-card:loyal"]
#: The three turns before his next: seats 2, 3 and 0 listen.
TO_HIS_TURN = ["listen", "rumor:picts-3", "listen", "rumor:saxons-2", "listen",
               "rumor:saxons-3"]


def _play(state: SocCardState, actions: list[str]) -> SocCardState:
    for text in actions:
        state.apply_text(text)
    return state


#: Four players, Vivien on top of the deck for seat 0's listen.
FOUR: dict[str, Any] = {"players": 4, "deck": {"vivien": 1, "grail-2": 1}}


def _at_give(loyalty: list[str]) -> SocCardState:
    state = _play(load_state({**FOUR, "loyalty": loyalty}), ["listen", "rumor:vivien"])
    assert state.current_player() == 0
    assert state.decision_event().key == "soc-card.decision.vivien-give"
    return state


def test_the_drawer_names_the_receiver_before_seeing_a_card() -> None:
    """SCG-VIVIEN-1, SCG-RULING-9: «bez podglądania jej treści». All four loyal, a loyal and
    the traitor card lie aside; seat 2 the traitor, two loyal cards do. The drawer cannot
    tell the two apart when he names the receiver: no offer in his view, the same view,
    tensor and menu, in his own worlds too."""
    honest, betrayed = _at_give(["loyal"] * 4), _at_give(["loyal", "loyal", "traitor", "loyal"])
    assert honest.loyal_aside == [1, 1] and betrayed.loyal_aside == [2, 0]
    assert honest.offer == betrayed.offer == [-1] * 4
    assert honest.observation(0) == betrayed.observation(0)
    assert honest.observation(0)["you"]["offer"] is None
    assert honest.observation_tensor(0) == betrayed.observation_tensor(0)
    assert honest.legal_actions() == betrayed.legal_actions() == [A.GIVE + s for s in (1, 2, 3)]
    for state in (honest, betrayed):
        for k in range(20):
            world = state.resample_hidden(0, random.Random(k))
            world.check_invariants()
            assert world.legal_actions() == state.legal_actions()
            assert world.observation(0) == state.observation(0)


def test_the_cards_are_dealt_after_the_hand_over_the_drawers_first() -> None:
    """SCG-RULING-9: after ``give`` the drawer's card is dealt (he alone is told), then the
    receiver's; the drawer decides, then the receiver, then play goes on."""
    state = _at_give(["loyal"] * 4)
    state.apply_text("give:2")
    assert state.current_player() == CHANCE and state.offer == [-1] * 4
    told = {seat: state.narrate(state.string_to_action("vivien-card:traitor"), seat)
            for seat in range(4)}
    state.apply_text("vivien-card:traitor")
    assert state.offer == [TRAITOR, -1, -1, -1] and state.current_player() == CHANCE
    assert told[1] == told[2] == told[3] != told[0]
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "vivien-card:loyal"]
    state.apply_text("vivien-card:loyal")
    assert state.offer == [TRAITOR, -1, LOYAL, -1]
    assert state.current_player() == 0
    state.apply_text("keep")
    assert state.current_player() == 2
    state.apply_text("keep")
    assert state.current_player() == 1 and state.decision_event().key.endswith(".turn")
    assert state.loyal_aside == [1, 1] and state.offer == [-1] * 4


def test_a_drawer_already_holding_his_card_is_not_dealt_another() -> None:
    """A position saved while the drawer held his card at the hand-over (rules version 3
    dealt it first): only the receiver is dealt one, and both decide as before."""
    state = _at_give(["loyal"] * 4)
    L.deal_offer(state, 0, 0, A.VIVIEN_CARD + TRAITOR)
    state.invalidate_cache()
    state.check_invariants()
    state.apply_text("give:3")
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "vivien-card:loyal"]
    state.apply_text("vivien-card:loyal")
    assert state.offer == [TRAITOR, -1, -1, LOYAL]
    state.apply_text("swap")
    assert state.current_player() == 3
    state.apply_text("keep")
    assert state.loyalty[0] == TRAITOR and state.loyal_aside == [2, 0]


def _drawer_chose(choice: str) -> tuple[SocCardState, dict[int, list[Event]]]:
    """The traitor (the drawer) has kept his card or swapped it; seat 3 is to decide. With
    what the other seats were told of his choice."""
    state = _play(load_state(UNMASKED), TO_VIVIEN)
    assert state.current_player() == 1
    narrated = {seat: state.narrate(state.string_to_action(choice), seat) for seat in (0, 2, 3)}
    state.apply_text(choice)
    return state, narrated


def _in_the_gap(choice: str) -> SocCardState:
    """Both have decided (seat 3 keeps); seat 2's turn, before the traitor's next."""
    state = _drawer_chose(choice)[0]
    state.apply_text("keep")
    assert state.current_player() == 2
    return state


def test_the_receiver_deciding_after_the_traitor_cannot_tell_his_choice() -> None:
    """SCG-VIVIEN-2, SCG-RULING-9: the receiver decides second, seeing the same in both."""
    (kept, told_kept), (swapped, told_swapped) = _drawer_chose("keep"), _drawer_chose("swap")
    assert kept.veiled[1] == 2 and swapped.veiled[1] == 1
    assert kept.current_player() == swapped.current_player() == 3
    for seat in (0, 2, 3, None):
        assert kept.observation(seat) == swapped.observation(seat), seat
        if seat is not None:
            assert kept.observation_tensor(seat) == swapped.observation_tensor(seat), seat
            assert told_kept[seat] == told_swapped[seat]
    assert kept.legal_actions() == swapped.legal_actions()
    entry = kept.observation(3)["seats"][1]
    assert entry["loyalty"] is None and entry["verified"]  # accused once: SCG-END-2
    # He knows his own card.
    assert kept.observation(1)["you"]["loyalty"] == "traitor"
    assert swapped.observation(1)["you"]["loyalty"] == "loyal"


def test_in_the_gap_no_other_view_tells_keep_from_swap() -> None:
    """SCG-RULING-9: JSON and tensor, every other seat and a spectator, alike."""
    kept, swapped = _in_the_gap("keep"), _in_the_gap("swap")
    for seat in (0, 2, 3, None):
        assert kept.observation(seat) == swapped.observation(seat), seat
        if seat is not None:
            assert kept.observation_tensor(seat) == swapped.observation_tensor(seat), seat
    view = kept.observation(2)
    assert view["seats"][1]["loyalty"] is None
    assert kept.legal_actions() == swapped.legal_actions()
    assert kept.string_to_action("accuse:1") in kept.legal_actions()  # SCG-RULING-14


@pytest.mark.parametrize(("choice", "sword", "loyalty"),
                         [("keep", "white", "traitor"), ("swap", "black", "loyal")])
def test_an_accusation_in_the_gap(choice: str, sword: str, loyalty: str) -> None:
    """SCG-RULING-14, SCG-ACCUSE-2/3: accused in the gap, he shows the card he holds: one
    sword, of its colour; kept, he is the unmasked traitor again (draw-two turn, and no
    second accusation of him), nothing counted twice."""
    state = _in_the_gap(choice)
    swords = dict(state.observation(None)["swords"])
    state.apply_text("accuse:1")
    after = state.observation(None)
    swords[sword] += 1
    assert after["swords"] == swords
    assert after["seats"][1]["loyalty"] == loyalty and after["seats"][1]["verified"]
    assert after["seats"][2]["accused"]
    assert state.veiled == [0, 0, 0, 0] and state.was_accused[1] == 1
    assert state.string_to_action("accuse:1") not in state.legal_actions()
    _play(state, ["listen", "rumor:picts-3", "listen", "rumor:saxons-3"])
    assert state.observation(None)["swords"] == swords
    if choice == "keep":
        assert state.current_player() == CHANCE  # his draw of two (SCG-ACCUSE-4)
        _play(state, ["rumor:dragon-2", "rumor:dragon-3"])
        assert state.current_player() == 1
        assert [state.action_to_string(a) for a in state.legal_actions()] == [
            "place:dragon-2", "place:dragon-3"]
    else:
        assert state.current_player() == 1 and state.decision_event().key.endswith(".turn")


def test_his_next_turn_shows_a_kept_traitor_card_and_draws_two() -> None:
    """SCG-RULING-9, SCG-ACCUSE-4: kept, his next turn shows the card (told in the
    narration) and is a draw-two turn; swapped, an ordinary turn that shows nothing."""
    kept, swapped = _in_the_gap("keep"), _in_the_gap("swap")
    _play(kept, TO_HIS_TURN[:-1])
    _play(swapped, TO_HIS_TURN[:-1])
    last = kept.string_to_action(TO_HIS_TURN[-1])
    told = kept.narrate(last, 2)
    assert any(e.key == "soc-card.log.shown-again" for e in told)
    assert not any(e.key == "soc-card.log.shown-again" for e in swapped.narrate(last, 2))
    kept.apply_action(last)
    swapped.apply_action(last)
    assert kept.observation(None)["seats"][1]["loyalty"] == "traitor"
    assert kept.revealed[1] == 1 and kept.veiled[1] == 0
    assert kept.current_player() == CHANCE
    assert swapped.observation(None)["seats"][1]["loyalty"] is None
    assert swapped.veiled[1] == 0 and swapped.current_player() == 1
    assert swapped.decision_event().key == "soc-card.decision.turn"


def test_an_end_in_the_gap_follows_scg_end_2() -> None:
    """SCG-END-2, SCG-RULING-11: in the gap a veiled card is hidden like any other. One never
    accused (his card shown at an earlier end) shows it at the end: a kept traitor card turns
    a sword; one accused shows nothing and turns nothing (as before the gap existed)."""
    base: dict[str, Any] = {
        "players": 4, "loyalty": ["loyal", "traitor", "loyal", "loyal"],
        "swords": {"white": 6, "black": 5}, "turn": 1, "pile": ["picts-5", "picts-4"]}
    results = {}
    for key in ("shown", "revealed"):
        for choice in ("keep", "swap"):
            data = {**base, key: [1] if key == "revealed" else [0, 1, 2, 3]}
            state = _play(load_state(data), [*TO_VIVIEN, choice, "keep", "listen",
                                             "rumor:picts-3"])
            assert state.current_player() == 3
            state.apply_text("quest:picts")  # 5 + 4 + 3 = 12: a white sword, 7-5
            view = state.observation(None)
            results[key, choice] = (view["swords"]["white"], view["swords"]["black"],
                                    view["status"])
    assert results["shown", "keep"] == (6, 6, "playing")  # he shows the traitor card: a flip
    assert results["shown", "swap"] == (7, 5, "loyal-win")  # he shows a loyal card
    # Accused once: no reveal, no flip, whatever he holds (SCG-RULING-11).
    assert results["revealed", "keep"] == results["revealed", "swap"] == (7, 5, "loyal-win")


def test_worlds_hold_both_choices_consistently() -> None:
    """``resample_hidden`` for another seat: the same view, either choice, cards that add up;
    kept, he holds the traitor card; swapped, it lies aside. His own worlds keep his choice."""
    for choice in ("keep", "swap"):
        state = _in_the_gap(choice)
        for seat in (0, 2, 3):
            seen = set()
            view = state.observation(seat)
            for k in range(40):
                world = state.resample_hidden(seat, random.Random(k))
                world.check_invariants()
                assert world.observation(seat) == view
                assert world.observation_tensor(seat) == state.observation_tensor(seat)
                assert world.veiled[1] in (1, 2)
                if world.veiled[1] == 2:
                    assert world.loyalty[1] == TRAITOR
                else:  # the one traitor card of four players went back aside
                    assert world.loyalty[1] != TRAITOR and world.loyal_aside[TRAITOR] == 1
                assert all(world.loyalty[s] != TRAITOR for s in (0, 2, 3))
                seen.add(world.veiled[1])
            assert seen == {1, 2}, (choice, seat)
        for k in range(10):
            mine = state.resample_hidden(1, random.Random(k))
            assert mine.veiled[1] == state.veiled[1] and mine.loyalty[1] == state.loyalty[1]


def test_worlds_with_chosen_traitors_in_the_gap() -> None:
    """``with_traitors``: the veiled seat in the set kept his card, out of it took the
    new one; the public record allows no other seat the traitor card."""
    state = _in_the_gap("swap")
    rng = random.Random(3)
    kept = state.with_traitors(2, {1}, rng)
    assert kept.veiled[1] == 2 and kept.loyalty[1] == TRAITOR
    swapped = state.with_traitors(2, set(), rng)
    assert swapped.veiled[1] == 1 and swapped.loyalty[1] != TRAITOR
    assert swapped.loyal_aside[TRAITOR] == 1
    for world in (kept, swapped):
        world.check_invariants()
        assert world.observation(2) == state.observation(2)
    with pytest.raises(ValueError):
        state.with_traitors(2, {3}, rng)


def test_veiled_survives_copies_and_old_saves() -> None:
    state = _in_the_gap("keep")
    assert state.clone().veiled == state.veiled == [0, 2, 0, 0]
    copy = state.game.deserialize_state(state.serialize())
    assert copy.veiled == state.veiled and copy.serialize() == state.serialize()
    data = json.loads(state.serialize())
    data["veiled"] = [0, 2, 0, 2]  # seat 3 holds no traitor card to have kept
    with pytest.raises(ValueError):
        state.game.deserialize_state(json.dumps(data))
    fresh = load_state(UNMASKED)
    old = json.loads(fresh.serialize())
    del old["veiled"]  # saved before the field existed
    assert fresh.game.deserialize_state(json.dumps(old)).veiled == [0, 0, 0, 0]


@pytest.mark.parametrize("loyalty", [["loyal"] * 4, ["loyal", "loyal", "traitor", "loyal"]])
def test_conformance_checks_from_the_hand_over(loyalty: list[str]) -> None:
    """Every conformance check (menus alike in the drawer's resampled worlds included) from
    the drawer's choice of receiver through both deals and both decisions on."""
    _walk_checking(_at_give(loyalty), random.Random(5), 40)


@pytest.mark.parametrize("choice", ["keep", "swap"])
def test_conformance_checks_through_the_gap(choice: str) -> None:
    """Every conformance check (the leak checks of views, narration and public decisions
    through resampled worlds) at each step of random play from the drawer's choice on."""
    _walk_checking(_play(load_state(UNMASKED), TO_VIVIEN), random.Random(11), 160, first=choice)


def _walk_checking(state: SocCardState, rng: random.Random, steps: int,
                   first: str | None = None) -> None:
    """Random play from ``state`` (chance by its own stream; ``first``: the first action's
    text), every conformance check at each of ``steps`` steps."""
    for step in range(steps):
        _check_node(state.game, state, rng, len(state.history()))
        player = state.current_player()
        if player == TERMINAL:
            break
        if step == 0 and first is not None:
            state.apply_text(first)
        elif player == CHANCE:
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("choice", ["keep", "swap"])
def test_heuristic_bots_play_on_through_the_gap(choice: str) -> None:
    """The heuristic reads its own observation: a seat that was the unmasked traitor and is
    hidden again neither crashes it nor makes its worlds fall back to a uniform deal."""
    state = _in_the_gap(choice)
    sampler = make_bot("heuristic", seed=5, game="soc-card")
    seen = set()
    for k in range(20):
        world = sampler.sample_world(state, 2, random.Random(k))  # type: ignore[attr-defined]
        world.check_invariants()
        assert world.observation(2) == state.observation(2)
        seen.add(world.veiled[1])
    assert seen == {1, 2}
    bots = {seat: make_bot("heuristic", seed=seat, game="soc-card") for seat in range(4)}
    for _ in range(60):
        player = state.current_player()
        if player == TERMINAL:
            break
        if player == CHANCE:
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(bots[player].step(state))
        state.check_invariants()
