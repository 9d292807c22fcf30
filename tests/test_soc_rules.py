"""Rule tests that need more than a scenario file: the deal, decks running out, the cap.

Each test names the rule IDs of docs/rules/soc.md it checks.
"""

from __future__ import annotations

import json
import random

import pytest

import pendragon
from pendragon.core.errors import BadFixtureError, CorruptStateError
from pendragon.games.soc.rules import actions as A
from pendragon.games.soc.rules.cards import (
    BLACK,
    BLACK_BY_KEY,
    KNIGHTS,
    MERLIN,
    NUM_WHITE,
    WHITE,
    black_counts,
    white_counts,
)
from pendragon.games.soc.rules.engine import MAX_ROUNDS
from pendragon.games.soc.rules.fixtures import load_state
from pendragon.games.soc.rules.state import SocState


def dealt(players: int, seed: int) -> SocState:
    """A new game with every set-up chance node resolved from its own stream."""
    state = pendragon.load_game("soc", players=players, seed=seed).new_initial_state()
    assert isinstance(state, SocState)
    state.play_random_chance()
    return state


def test_components() -> None:
    """SOC-COMP-1, SOC-COMP-2: 84 white and 76 black cards, 8 loyalty cards, typed data."""
    assert sum(white_counts(expansion=False)) == 84
    assert sum(c.base_count for c in WHITE if c.special) == 15
    assert sum(black_counts(expansion=False)) == 76
    assert sum(c.base_count for c in BLACK if c.special) == 12
    assert sum(pendragon.load_game("soc", players=3).loyalty_deck) == 8  # type: ignore[attr-defined]
    assert all(c.combat_value > 0 for c in BLACK[:8])
    assert len([k for k in KNIGHTS if not k.expansion]) == 7


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_deal(players: int) -> None:
    """SOC-SETUP-1, SOC-SETUP-2, SOC-SETUP-3, SOC-SETUP-4, SOC-SETUP-5: the deal."""
    state = dealt(players, seed=players)
    assert state.n == players
    assert len(set(state.knight)) == players and all(k < 7 for k in state.knight)
    assert state.life == [4] * players
    for seat in range(players):
        assert sum(state.hands[seat]) == 6
        assert state.hands[seat][MERLIN] >= 1
        assert state.loyalty[seat] in (0, 1)
    assert sum(state.loyalty) <= 1  # one traitor card among eight
    assert pendragon.load_game("soc", players=players).info.min_players == 3


def test_player_counts_outside_three_to_seven_are_refused() -> None:
    """SOC-SETUP-1."""
    for bad in (2, 8):
        with pytest.raises(pendragon.InvalidOptionError):
            pendragon.load_game("soc", players=bad)


def test_coats_of_arms_are_random() -> None:
    """SOC-SETUP-2: different seeds deal different knights."""
    deals = {tuple(dealt(5, seed).knight) for seed in range(12)}
    assert len(deals) > 6


def test_first_player_is_king_arthur() -> None:
    """SOC-SETUP-7: King Arthur plays first; without him, seat 0."""
    seen_with, seen_without = False, False
    for seed in range(40):
        state = dealt(3, seed)
        arthur = state.knight.index(0) if 0 in state.knight else -1
        assert state.first_seat == (arthur if arthur >= 0 else 0)
        seen_with |= arthur > 0
        seen_without |= arthur < 0
    assert seen_with and seen_without


def test_opening_contributions_are_face_down_then_shared() -> None:
    """SOC-SETUP-6, SOC-RULING-1, SOC-RULING-37: chosen unseen, revealed together, shared."""
    state = dealt(3, seed=4)
    first = state.first_seat
    order = [(first + i) % 3 for i in range(3)]
    for seat in order:
        assert state.current_player() == seat
        assert state.observation(None)["waiting"]["decision"] == "contrib"
        choice = state.legal_actions()[0]
        state.apply_action(choice)
        if seat == order[-1]:
            break  # the last choice turns every card face up at once
        assert state.observation(seat)["you"]["contribution"] == WHITE[choice - A.PLAY].key
        assert seat in state.observation(None)["table"]["contributions_made"]
        for other in range(3):
            own = state.contrib[other]
            expected = WHITE[own].key if own >= 0 else None
            assert state.observation(other)["you"]["contribution"] == expected
        assert state.observation(None)["table"]["offer"] == []
    offer = state.observation(None)["table"]["offer"]
    assert len(offer) == 3
    for _ in range(3):
        assert state.current_player() == first  # the first player gives each card
        state.apply_action(A.SEAT + order[1])
    assert sum(state.hands[order[1]]) == 5 + 3
    assert state.observation(None)["waiting"]["decision"] == "evil"
    assert state.current_player() == first


def test_random_sharing_deals_the_offer_face_down_round_the_table() -> None:
    """SOC-RULING-1, SOC-RULING-77: share="random" shuffles the revealed cards and deals
    them face down from the first player round the table; each knight sees only his own."""
    state = pendragon.load_game("soc", players=3, seed=2, share="random").new_initial_state()
    rng = random.Random(0)
    while state.offer == () or state.current_player() != pendragon.CHANCE:
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            assert state.observation(None)["waiting"]["decision"] == "contrib"
            state.apply_action(rng.choice(state.legal_actions()))
    offered = sorted(state.offer)
    assert len(offered) == 3
    first = state.first_seat
    # The table says the first player deals them face down (not that he hands them out by
    # choice), in the view, the terminal and (board.js) the page.
    from rich.console import Console

    from pendragon.games.soc.terminal import render_soc
    from pendragon.i18n import catalog

    view = state.observation((first + 1) % 3)
    assert view["table"]["offer_dealt"] is True and view["table"]["offer_giver"] == first
    console = Console(width=140, color_system=None, record=True)
    console.print(render_soc(view, catalog("en")))
    text = console.export_text()
    assert "deals them face down" in text and "hands them out" not in text
    dealt: dict[int, int] = {}
    for expected in state.seats_from(first):
        assert state.current_player() == pendragon.CHANCE
        outcomes = dict(state.chance_outcomes())
        remaining = sorted(state.offer)
        assert sorted({a - A.WHITE_CARD for a in outcomes}) == sorted(set(remaining))
        action = state.sample_chance()
        kind = action - A.WHITE_CARD
        for viewer in range(3):
            (told,) = state.narrate(action, viewer)
            if viewer == expected:
                assert told.key == "soc.log.dealt-white-known"
                assert told.params["card"].key == f"soc.white.{WHITE[kind].key}"
            else:
                assert told.key == "soc.log.dealt-white" and "card" not in told.params
        before = sum(state.hands[expected])
        state.apply_action(action)
        assert sum(state.hands[expected]) == before + 1  # one card each, in turn order
        dealt[expected] = kind
    assert sorted(dealt.values()) == offered
    assert state.observation(None)["waiting"]["decision"] == "evil"
    assert state.observation(None)["table"]["offer"] == []
    for viewer in range(3):  # nobody saw another's card: no seat knows a card of another
        assert state.observation(viewer)["you"]["known_hands"] == {}
    assert sum(sum(h) for h in state.hands) == 18


def test_turns_pass_clockwise_skipping_the_dead() -> None:
    """SOC-TURN-1, SOC-TURN-2: Evil then Heroic; the next living seat plays next."""
    state = load_state(
        {"players": 4, "knights": [{}, {"status": "dead"}, {}, {}], "turn": {"seat": 0}}
    )
    assert state.observation(None)["waiting"]["decision"] == "evil"
    state.apply_text("add-siege")
    assert state.observation(None)["waiting"]["decision"] == "heroic"
    state.apply_text("move:grail")
    assert state.current_player() == 2


def test_decks_refill_when_one_runs_out() -> None:
    """SOC-BLACK-5, SOC-RULING-8, SOC-RULING-59: the emptied deck takes back both discards."""
    state = load_state(
        {"players": 3, "white_deck": {"grail": 1}, "turn": {"seat": 0, "phase": "heroic"}}
    )
    discarded = sum(state.white_discard)
    assert sum(state.white_deck) == 1 and discarded > 0
    state.apply_text("draw-white")
    state.apply_text("white-card:grail")
    assert sum(state.white_discard) == 0
    assert sum(state.white_deck) == discarded
    state.check_invariants()


def test_discards_are_face_down() -> None:
    """SOC-BLACK-6: observations give the size of a discard pile, never its cards."""
    state = load_state({"players": 3, "white_deck": {"grail": 5}})
    decks = state.observation(0)["decks"]
    assert isinstance(decks["white_discard"], int) and decks["white_discard"] > 0


def test_a_draw_from_nothing_is_skipped() -> None:
    """SOC-RULING-58: with every white card in hands, drawing draws nothing."""
    state = load_state({"players": 3, "turn": {"seat": 0, "phase": "heroic"}})
    for kind in range(NUM_WHITE):
        state.hands[1][kind] += state.white_deck[kind] + state.white_discard[kind]
        state.white_deck[kind] = state.white_discard[kind] = 0
    state.invalidate_cache()
    state.check_invariants()
    state.apply_text("draw-white")
    assert sum(state.hands[0]) == 0
    # No chance node; with nothing to do after a Camelot draw (no move: SOC-RULING-76) the
    # turn passes on.
    assert not state.is_chance_node() and state.current_player() == 1


def test_the_round_cap_ends_the_game() -> None:
    """SOC-RULING-45: after the last permitted round the game is lost for the knights."""
    state = load_state(
        {"players": 3, "turn": {"seat": 2, "phase": "heroic", "number": MAX_ROUNDS * 3}}
    )
    state.apply_text("move:grail")
    assert state.is_terminal()
    assert state.observation(None)["end_reason"] == "exhausted"
    assert state.returns() == [-1.0, -1.0, -1.0]


def test_variants_are_named_options() -> None:
    """SOC-RULING-64: the variants are options of their own; a misspelt one is refused."""
    assert pendragon.load_game("soc", players=5, squires=True).squires  # type: ignore[attr-defined]
    with pytest.raises(pendragon.UnknownOptionError):
        pendragon.load_game("soc", players=5, sqires=True)


def test_relics_cannot_be_passed() -> None:
    """SOC-RELIC-1: card passing moves white cards only; relics stay with their owner."""
    state = load_state(
        {
            "players": 3,
            "knights": [{"knight": "arthur", "hand": {"fight-1": 1}}, {}, {}],
            "relics": {"excalibur": 0},
            "quests": {"excalibur": {"over": True}},
        }
    )
    for text in ("arthur-exchange", "seat:1", "play:fight-1", "play:fight-1"):
        state.apply_text(text)
    assert state.excalibur_owner == 0
    assert not any(name.startswith("give-relic") for name in A.CATALOG.names)


def _revealed(quest: str, white: list[str], black: list[object], play: str) -> SocState:
    """Sir Kay (seat 0) on ``quest`` plays the knights' last card: the black cards are
    revealed and the quest's end waits on his extra card."""
    side = {"side": "dragon"} if quest == "lancelot" else {}
    knights: list[dict[str, object]] = [
        {"knight": "kay", "location": quest, "hand": {play: 1}},
        {"location": quest} if side else {},
        {},
    ]
    state = load_state(
        {
            "players": 3,
            "knights": knights,
            "quests": {quest: {"white": white, "black": black, **side}},
            "turn": {"seat": 0, "phase": "heroic"},
        }
    )
    state.apply_text(f"play:{play}")
    assert state.observation(None)["waiting"]["decision"] == "kay"
    return state


@pytest.mark.parametrize(
    ("quest", "white", "play", "first", "second"),
    [
        (
            "black-knight", ["fight-2", "fight-2", "fight-3"], "fight-3",
            [{"card": "black-knight-5", "face_down_by": 1}, "black-knight-1",
             {"card": "black-knight-3", "face_down_by": 2}],
            ["black-knight-1", {"card": "black-knight-3", "face_down_by": 1},
             {"card": "black-knight-5", "face_down_by": 2}],
        ),
        (
            "lancelot", ["fight-1"] * 3 + ["fight-2"] * 3 + ["fight-4"] * 2, "fight-4",
            [{"card": "lancelot-7", "face_down_by": 0}, {"card": "lancelot-1", "face_down_by": 1},
             "lancelot-3", {"card": "lancelot-1", "face_down_by": 2}],
            [{"card": "lancelot-1", "face_down_by": 2}, "lancelot-1",
             {"card": "lancelot-3", "face_down_by": 1}, {"card": "lancelot-7", "face_down_by": 0}],
        ),
    ],
)
def test_the_reveal_order_carries_no_information(
    quest: str, white: list[str], play: str, first: list[object], second: list[object]
) -> None:
    """SOC-RULING-34, SOC-BK-2, SOC-QUEST-8: the black cards are shuffled before they are
    turned up (003: "k ochraně identity jednotlivých hráčů"; 002: "Игроки должны перемешать
    черные карты"). The same cards placed in another order, by other knights, give every
    seat the same view of the reveal, in the rules and in the terminal."""
    from rich.console import Console

    from pendragon.games.soc.terminal import render_soc
    from pendragon.i18n import catalog

    one = _revealed(quest, white, first, play)
    two = _revealed(quest, white, second, play)
    values = [entry["value"] for entry in one.observation(None)["quests"][quest]["black"]]
    assert values == sorted(values)
    console = Console(width=120, color_system=None)
    for seat in (0, 1, 2, None):
        assert one.observation(seat) == two.observation(seat), seat
        if seat is not None:
            assert one.observation_tensor(seat) == two.observation_tensor(seat)
        texts = []
        for state in (one, two):
            with console.capture() as capture:
                console.print(render_soc(state.observation(seat), catalog("en")))
            texts.append(capture.get())
        assert texts[0] == texts[1], seat
        assert one.narrate(A.PASS, seat) == two.narrate(A.PASS, seat)


def test_an_accused_knight_shows_his_loyalty_card_to_everyone() -> None:
    """SOC-ACCUSE-2, SOC-ACCUSE-3: the accused shows his card to every player (003:
    "obviněný rytíř musí okamžitě ukázat svou kartu věrnosti všem hráčům"): every seat's
    view, the log and the terminal name it, and a resample keeps it."""
    from rich.console import Console

    from pendragon.games.soc.terminal import render_soc
    from pendragon.i18n import catalog

    state = load_state({
        "players": 4,
        "round_table": {"white": 3, "black": 3},
        "turn": {"seat": 0, "phase": "heroic"},
    })
    accuse = state.string_to_action("accuse:2")
    for viewer in (0, 1, 2, 3, None):
        told = state.describe_action(accuse, viewer)
        assert ("shows his loyalty card to everyone: Loyal knight." if viewer != 2
                else "You show your loyalty card to everyone: Loyal knight.") in told
        # SOC-ACCUSE-2: the false accusation's sword is told after the card.
        assert told.endswith("1 white sword turns black (2 white, 4 black).")
    console = Console(width=140, color_system=None)

    def terminal() -> str:
        with console.capture() as capture:
            console.print(render_soc(state.observation(None), catalog("en")))
        return capture.get()

    assert "Loyal knight" not in terminal()
    state.apply_action(accuse)
    assert terminal().count("Loyal knight") == 1
    for viewer in (0, 1, 3, None):
        assert state.observation(viewer)["knights"][2]["loyalty"] == "loyal"
    assert state.observation(1)["knights"][3]["loyalty"] is None
    for seat in (0, 1, 3):
        resampled = state.resample_hidden(seat, random.Random(seat))
        assert resampled.loyalty[2] == 0
        assert resampled.observation(seat) == state.observation(seat)


def test_percival_looking_at_the_last_black_card_leaves_the_decks_alone() -> None:
    """SOC-KNIGHT-PERCIVAL, SOC-RULING-59, SOC-BLACK-5: Percival «se může podívat na vrchní
    kartu» (may look at the top black card) and puts it back, so the deck is not used up:
    the decks are refilled (the white discards with them) only when that card is drawn."""
    state = load_state({"players": 3, "knights": [{"knight": "percival"}, {}, {}],
                        "turn": {"seat": 0, "phase": "evil"}, "white_deck": {"grail": 2}})
    picts = BLACK_BY_KEY["picts"]
    deck, discard = list(state.black_deck), list(state.black_discard)
    for kind in range(len(deck)):
        discard[kind] += deck[kind]
        deck[kind] = 0
    deck[picts], discard[picts] = 1, discard[picts] - 1
    state.black_deck, state.black_discard = tuple(deck), tuple(discard)
    state.check_invariants()
    white_discard = sum(state.white_discard)
    state.apply_text("peek")
    state.apply_text("black-card:picts")
    assert state.black_deck_size() == 1 and sum(state.white_discard) == white_discard
    assert "peek" not in [state.action_to_string(a) for a in state.legal_actions()]
    state.apply_text("draw-black")  # the card he saw is drawn: now the deck is used up
    assert sum(state.white_discard) == 0 and state.black_deck_size() == sum(discard)
    state.check_invariants()


def test_a_card_taken_unseen_leaves_one_fewer_of_each_known_kind() -> None:
    """SOC-TRAITOR-2: the unmasked traitor takes a card at random, seen by him and his
    victim only. The thief knows exactly which card left; a seat that did not see it can
    still be sure of one fewer of each card it knew of, not of nothing."""
    state = load_state({
        "players": 3,
        "knights": [{"hand": {"merlin": 2, "grail": 1, "fight-3": 1}},
                    {"status": "unmasked", "loyalty": "traitor"}, {}],
        "turn": {"seat": 1, "phase": "evil"},
    })
    grail = WHITE.index(next(c for c in WHITE if c.key == "grail"))
    state.learn(1, 0, grail)
    state.learn(1, 0, MERLIN)
    state.learn(2, 0, MERLIN, 2)
    state.learn(2, 0, grail)
    state.apply_text("seat:0")
    state.apply_text("white-card:grail")
    assert state.observation(1)["you"]["known_hands"] == {"0": {"merlin": 1}}
    assert state.observation(2)["you"]["known_hands"] == {"0": {"merlin": 1}}
    assert sum(state.hands[0]) == 3


def test_heroism_on_a_solo_quest_is_bound_to_whose_leaving_discards_it() -> None:
    """SOC-RULING-72: a fixture names the seat (by default the knight on the quest), a save
    from before the field existed binds it to him, and nothing else is accepted."""
    state = load_state({"players": 3, "knights": [{}, {"location": "lancelot"}, {}],
                        "effects": {"heroism": "lancelot"}})
    assert state.heroism_bound == 1
    data = state.to_dict()
    del data["heroism_bound"]  # a save written before SOC-RULING-72's field
    old = state.game.deserialize_state(json.dumps(data))
    assert old.heroism_bound == 1 and old.serialize() == state.serialize()
    data["heroism_bound"] = 5  # no such seat
    with pytest.raises(CorruptStateError, match="heroism_bound"):
        state.game.deserialize_state(json.dumps(data))
    for effects, message in (
        ({"heroism": "lancelot"}, "nobody is on that solo quest"),
        ({"heroism": "grail", "heroism_by": 0}, "only for Heroism lying on a solo quest"),
        ({"heroism": "black-knight", "heroism_by": 3}, "a seat from 0 to 2"),
    ):
        with pytest.raises(BadFixtureError, match=message):
            load_state({"players": 3, "effects": effects})


def test_the_terminal_says_whose_leaving_discards_heroism_on_a_solo_quest() -> None:
    """SOC-RULING-72: Heroism on a solo quest is lost only if the knight it is bound to
    leaves before the end; the board names him (its own knight's name, for the seat itself
    too); Heroism on a group quest is bound to nobody."""
    from rich.console import Console

    from pendragon.games.soc.terminal import render_soc
    from pendragon.i18n import catalog

    console = Console(width=200, color_system=None)

    def terminal(state: SocState, seat: int) -> str:
        with console.capture() as capture:
            console.print(render_soc(state.observation(seat), catalog("en")))
        return " ".join(capture.get().split())

    solo = load_state({"players": 3, "knights": [{}, {"knight": "kay", "location": "lancelot"},
                                                 {}], "effects": {"heroism": "lancelot"}})
    for seat in (0, 1):
        assert ("Heroism: Quest for Lancelot (Sir Kay): Discarded if Sir Kay leaves the quest"
                " before its end." in terminal(solo, seat))
    group = load_state({"players": 3, "knights": [{}, {"location": "excalibur"}, {}],
                        "effects": {"heroism": "excalibur"}})
    assert group.observation(0)["effects"]["heroism_by"] is None
    assert "Heroism (Excalibur)" in terminal(group, 0)
    assert "Discarded if" not in terminal(group, 0)


@pytest.mark.parametrize("language", ["en", "ru", "cs", "pl"])
def test_the_terminal_says_accusations_are_open_once_six_engines_stood(language: str) -> None:
    """SOC-ACCUSE-1, SOC-RULING-5: accusations stay open once 6 siege engines stood, even
    with fewer standing now; the board says so (the terminal's effects line, the web
    board's badge: the same catalog key), and says nothing before."""
    from rich.console import Console

    from pendragon.games.soc.terminal import render_soc
    from pendragon.i18n import catalog

    words = catalog(language)
    shown = words.text("soc.board.accusations_open")
    console = Console(width=160, color_system=None)

    def terminal(state: SocState) -> str:
        with console.capture() as capture:
            console.print(render_soc(state.observation(0), words))
        return capture.get()

    fixture = {"players": 4, "siege_engines": 4, "turn": {"seat": 0, "phase": "heroic"}}
    closed = load_state(fixture)
    opened = load_state({**fixture, "siege_reached_six": True})
    assert not closed.observation(0)["accusations_open"]
    assert opened.observation(0)["accusations_open"]
    assert shown not in terminal(closed)
    assert shown in terminal(opened)
    assert "accuse:1" in [opened.action_to_string(a) for a in opened.legal_actions()]
