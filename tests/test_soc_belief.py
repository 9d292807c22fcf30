"""The loyal knights' belief about the traitor, its evidence, and search worlds drawn from it
(issue 18, items 1 and 3).

Rules: SOC-SETUP-5 (the loyalty deck), MC-LOYALTY (two traitor cards at 7-8 knights),
SOC-ACCUSE-2/-3 (a shown card settles a seat), SOC-EVIL-1 (the Progression of Evil),
SCG-SETUP-1 (the card game's loyalty deck).
"""

from __future__ import annotations

import random

import pytest

import pendragon
from pendragon.bots.base import sample_world
from pendragon.bots.belief import LoyaltyBelief
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.core.api import CHANCE, State
from pendragon.games.soc.evidence import (
    AT_EXCALIBUR,
    AT_SIEGE,
    AT_SOLO_QUEST,
    Deed,
    SeatRecord,
    likelihood_ratio,
)
from pendragon.games.soc.heuristic import SocHeuristicBot
from pendragon.games.soc.heuristic_record import _READ, _decision_of, _deed
from pendragon.games.soc.rules import actions as A
from pendragon.games.soc.traitors import traitor_dealt
from tests.positions import soc_position


def test_prior_is_the_deal_of_the_unseen_cards() -> None:
    # SOC-SETUP-5: 7 loyal and 1 traitor card for 5 knights: a loyal knight gives each other
    # knight 1/7 and "no traitor" 3/7; the card game (SCG-SETUP-1) 1/6 and 2/6.
    belief = LoyaltyBelief(hidden=(1, 2, 3, 4), loyal=6, traitors=1)
    assert belief.probability(3) == pytest.approx(1 / 7)
    assert belief.none() == pytest.approx(3 / 7)
    card = LoyaltyBelief(hidden=(1, 2, 3, 4), loyal=5, traitors=1)
    assert card.probability(3) == pytest.approx(1 / 6) and card.none() == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="unseen"):
        LoyaltyBelief(hidden=(1, 2, 3), loyal=1, traitors=1)


def test_a_shown_card_is_a_certainty_whatever_the_evidence() -> None:
    # SOC-ACCUSE-2/-3: a false accusation proves the accused loyal; no evidence revives it.
    belief = LoyaltyBelief(hidden=(1, 2, 3, 4), loyal=6, traitors=1)
    belief.weigh(2, 1000.0)
    belief.settle(2, traitor=False)
    belief.weigh(2, 1000.0)
    assert belief.probability(2) == 0.0
    assert sum(belief.probability(s) for s in (1, 3, 4)) + belief.none() == pytest.approx(1.0)


def test_every_deed_is_bounded_evidence() -> None:
    # Issue 18: likelihoods come from families of policies, so no deed alone is proof, and
    # paying evil as the loyal heuristic does (SOC-EVIL-1: life from 4) is no tell.
    for life in range(1, 7):
        for siege in range(0, 12):
            for choice in ("lose-life", "draw-black", "add-siege"):
                ratio = likelihood_ratio(Deed(1, "evil", choice, (life, siege)))
                assert 0.25 < ratio < 8.0
    assert likelihood_ratio(Deed(1, "evil", "lose-life", (4, 2))) < 1.0
    # The old tell (a black card at 2-4 life) weighs far less than the x3 it used to.
    assert likelihood_ratio(Deed(1, "evil", "draw-black", (3, 2))) < 1.5
    # Hard to explain in a loyal knight: the 11th engine, hoarding, a wrong accusation.
    assert likelihood_ratio(Deed(1, "evil", "add-siege", (5, 10))) > 3.0
    assert likelihood_ratio(Deed(1, "share", "self", (0.0, 3.0))) > 2.0
    assert likelihood_ratio(Deed(1, "accused", "loyal", ())) > 4.0
    assert likelihood_ratio(Deed(1, "accused", "traitor", ())) < 0.5
    assert likelihood_ratio(Deed(1, "unknown-decision", "x", ())) == 1.0


def test_deeds_are_read_from_what_every_player_sees() -> None:
    # The evidence of a deed is the same in every world an onlooker cannot tell apart:
    # redealing the hidden cards and loyalty (seen from another seat) changes nothing.
    checked = 0
    for seed in range(3):
        state = pendragon.load_game("soc", players=5, seed=40 + seed).new_initial_state()
        bots = [SocHeuristicBot(s) for s in range(5)]
        bot = SocHeuristicBot(0)
        generator = random.Random(seed)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_chance())
                continue
            action = bots[player].step(state)
            decision = _decision_of(state)
            if decision in _READ:
                text = A.CATALOG.text(action)
                real = _deed(bot, state, player, decision, text)
                observer = (player + 1) % 5
                for _ in range(2):
                    world = state.resample_hidden(observer, generator)
                    assert _deed(bot, world, player, decision, text) == real
                checked += 1
            state.apply_action(action)
    assert checked > 50


def test_with_traitors_deals_the_given_set_and_refuses_the_impossible() -> None:
    # SOC-SETUP-5: one traitor card; a search world may put it on any unseen seat or in the
    # box, never on a seat whose card was seen, and never two of them.
    state = soc_position(5, 30)
    world = state.with_traitors(0, {3}, random.Random(1))
    loyalties = [world.observation(s)["you"]["loyalty"] for s in range(5)]
    assert loyalties == ["loyal", "loyal", "loyal", "traitor", "loyal"]  # seat 0 is loyal
    assert world.observation(0) == state.observation(0)
    assert world.legal_actions() == state.legal_actions()
    none = state.with_traitors(0, set(), random.Random(1))
    assert [none.observation(s)["you"]["loyalty"] for s in range(1, 5)] == ["loyal"] * 4
    with pytest.raises(ValueError, match="cannot make"):
        state.with_traitors(0, {1, 2}, random.Random(1))
    with pytest.raises(ValueError, match="no unseen loyalty card"):
        state.with_traitors(0, {0}, random.Random(1))
    grail = pendragon.load_game("grail-cup", players=3, seed=1).new_initial_state()
    with pytest.raises(NotImplementedError, match="no hidden loyalty"):
        grail.with_traitors(0, set(), random.Random(1))


def test_card_game_with_traitors_keeps_the_deck() -> None:
    # SCG-SETUP-1: players + 1 loyal cards and one traitor card; whatever the set chosen,
    # the unseen cards (seats, set aside) still make up the deck.
    state = pendragon.load_game("soc-card", players=5, seed=2).new_initial_state()
    state.play_random_chance()
    for traitors in (set(), {1}, {4}):
        world = state.with_traitors(0, traitors, random.Random(3))
        dealt = [world.observation(s)["you"]["loyalty"] for s in range(5)]
        assert {s for s in range(1, 5) if dealt[s] == "traitor"} == traitors
        assert world.observation(0) == state.observation(0)
    with pytest.raises(ValueError):
        state.with_traitors(0, {1, 2}, random.Random(3))


def test_sampled_worlds_follow_the_belief() -> None:
    # Issue 18, item 3: worlds come from the posterior, so a seat the belief clears is never
    # the traitor in them, and a strongly suspected seat is the traitor in most.
    state = soc_position(11, 60)
    seat = next(s for s in range(5) if state.observation(s)["you"]["loyalty"] == "loyal")
    bot = SocHeuristicBot(1)
    obs = state.observation(seat)
    bot._follow_record(state)
    belief = bot.belief(obs)
    others = [s for s in range(5) if s != seat and obs["knights"][s]["loyalty"] is None]
    cleared, suspect = others[0], others[1]
    belief.settle(cleared, traitor=False)
    belief.weigh(suspect, 400.0)
    generator = random.Random(7)
    traitor_in_world = []
    for _ in range(60):
        world = bot.sample_world(state, seat, generator)
        assert world.observation(seat) == obs
        loyalties = [world.observation(s)["you"]["loyalty"] for s in range(5)]
        assert loyalties[cleared] == "loyal"
        traitor_in_world.append(loyalties[suspect] == "traitor")
    assert sum(traitor_in_world) >= 50
    # A policy without a belief gets the uniform redeal.
    uniform = sample_world(object(), state, seat, random.Random(7))
    assert uniform.observation(seat) == obs


def test_ismcts_draws_its_worlds_from_its_policy() -> None:
    # ISMCTS asks its policy for each sweep's world (bots.base.WorldSampler).
    state = soc_position(3, 200, no_traitor=True)
    calls: list[int] = []

    class Counting(SocHeuristicBot):
        def sample_world(self, state: State, seat: int, generator: random.Random) -> State:
            calls.append(seat)
            return super().sample_world(state, seat, generator)

    bot = ISMCTSBot(seed=1, iterations=3, min_iterations=2, budget=10**7)
    bot._policy = Counting(1)
    seat = state.current_player()
    bot.search(state, seat, state.legal_actions()[0], 3)
    assert calls and set(calls) == {seat}


def _first_traitor_decision(seed: int) -> tuple[State, int]:
    """The first position of a 5-player game (seed ``seed``) where the traitor acts with a
    real choice, and the traitor's seat."""
    state = pendragon.load_game("soc", players=5, seed=seed).new_initial_state()
    while True:
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        if (state.observation(player)["you"]["loyalty"] == "traitor"
                and len(state.legal_actions()) > 1):
            return state, player
        state.apply_action(state.legal_actions()[0])


def test_a_traitor_s_belief_reads_its_own_card() -> None:
    # SOC-SETUP-5: a knight reads his own loyalty card, and his belief starts from it. In
    # the base game's deck (7 loyal cards, one traitor) the traitor knows every other
    # knight is loyal. (The table's odds for him, an onlooker's belief, went with the
    # hiding traitor's ``exposed_at``, issue 29: no bot reads them.)
    seed = next(s for s in range(30)
                if traitor_dealt(pendragon.load_game("soc", players=5, seed=s)))
    state, seat = _first_traitor_decision(seed)
    bot = SocHeuristicBot(seed=1)
    bot._follow_record(state)
    obs = state.observation(seat)
    assert obs["knights"][seat]["loyalty"] == "traitor"
    belief = bot.belief(obs)
    assert belief.none() == pytest.approx(1.0)
    assert all(belief.probability(s) == 0.0 for s in range(5))


def test_standing_still_where_a_loyal_knight_acts_is_evidence() -> None:
    # Issue 18 item 4: a knight on Excalibur who leaves without moving the sword
    # (SOC-HERO-5), one on a solo combat quest who plays no Fight card (SOC-BK-1), one at
    # Camelot with 9 engines and cards who does not fight (SOC-SIEGE-1).
    leave = likelihood_ratio(Deed(1, "heroic", "move", (AT_EXCALIBUR,)))
    play = likelihood_ratio(Deed(1, "heroic", "play", (AT_EXCALIBUR,)))
    assert leave > 3.0 and play < 0.6
    assert likelihood_ratio(Deed(1, "heroic", "other", (AT_SOLO_QUEST,))) > 2.0
    assert likelihood_ratio(Deed(1, "heroic", "play", (AT_SOLO_QUEST,))) < 0.6
    assert likelihood_ratio(Deed(1, "heroic", "other", (AT_SIEGE,))) > 1.0
    assert likelihood_ratio(Deed(1, "heroic", "play", (AT_SIEGE,))) < 0.6
    for where in (AT_EXCALIBUR, AT_SOLO_QUEST, AT_SIEGE):  # bounded: no deed is proof
        for choice in ("play", "move", "other"):
            assert 0.25 < likelihood_ratio(Deed(1, "heroic", choice, (where,))) < 8.0


def test_a_heroic_deed_is_read_on_the_first_action_of_a_turn_only() -> None:
    # A knight's first heroic action of his turn (SOC-HERO-1) on Excalibur is read; what
    # he does after it (end his turn...) is not.
    state = soc_position(3, 4)
    seen = []
    while not state.is_terminal() and len(seen) < 200:
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        action = SocHeuristicBot(player).step(state)
        if _decision_of(state) == "heroic":
            public = state.observation(None)
            deed = _deed(SocHeuristicBot(0), state, player, "heroic", A.CATALOG.text(action))
            seen.append((bool(public["turn"]["used"]), public["knights"][player]["location"],
                         deed))
        state.apply_action(action)
    assert all(deed is None for used, _loc, deed in seen if used)
    assert any(deed is not None and deed.context == (AT_EXCALIBUR,)
               for used, loc, deed in seen if not used and loc == "excalibur")


def test_a_knight_s_record_is_read_as_one_policy() -> None:
    # Issue 18 item 1: a knight follows one policy for the game. Forty loyal-looking deeds
    # under per-deed ratios would make any traitor impossible (0.49 ** 40); read as one
    # record, a stealthy traitor explains them as well as a loyal knight does, so the
    # ratio stays at the stealth weight, and the belief keeps the traitor possible.
    record = SeatRecord()
    for _ in range(40):
        record.add(Deed(1, "heroic", "play", (AT_EXCALIBUR,)))
    assert record.ratio() == pytest.approx(0.3, abs=0.01)
    belief = LoyaltyBelief(hidden=(1, 2, 3, 4), loyal=6, traitors=1)
    belief.weigh(1, record.ratio())
    assert belief.probability(1) > 0.04
    # A record of open harm points at a traitor (the saboteur's evil, SOC-EVIL-1).
    harm = SeatRecord()
    for _ in range(6):
        harm.add(Deed(1, "evil", "draw-black", (5, 3)))
    assert harm.ratio() > 5.0
    # Accusations still weigh deed by deed (SOC-ACCUSE-3).
    harm.add(Deed(1, "accused", "loyal", ()))
    assert harm.ratio() > 30.0
