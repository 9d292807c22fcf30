"""Merlin's Company set-up and the optional rules that act on the deal or the table.

Each test names the rule IDs of docs/rules/soc-expansion.md it checks.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import pendragon
from pendragon.core.events import Event, Seat, Term
from pendragon.games.soc.rules.cards import KNIGHTS, MERLIN
from pendragon.games.soc.rules.state import SocState

MC = "merlins-company"


def dealt(**options: Any) -> SocState:
    state = pendragon.load_game("soc", **options).new_initial_state()
    assert isinstance(state, SocState)
    state.play_random_chance()
    return state


def underway(**options: Any) -> SocState:
    """A game past its set-up and opening contribution: its first turn has begun."""
    state = dealt(**options)
    play_until(state, lambda s: s.turn_seat >= 0)
    return state


def play_until(state: SocState, condition: Any, seed: int = 0, limit: int = 5000) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        if condition(state) or state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_eight_knights_from_fifteen_coats_of_arms() -> None:
    """MC-SETUP-1: 3-8 players, coats of arms from all 15 knights."""
    seen: set[int] = set()
    for seed in range(20):
        state = dealt(players=8, expansion=MC, seed=seed)
        assert len(set(state.knight)) == 8
        seen.update(state.knight)
    assert len(seen) == 15
    assert pendragon.load_game("soc", players=8, expansion=MC).info.max_players == 8


def test_expansion_card_counts() -> None:
    """MC-CARDS: 23 white and 14 black cards more."""
    game = pendragon.load_game("soc", players=5, expansion=MC)
    assert sum(game.white_total) == 84 + 23  # type: ignore[attr-defined]
    assert sum(game.black_total) == 76 + 14  # type: ignore[attr-defined]


@pytest.mark.parametrize(("players", "traitors"), [(5, 1), (6, 1), (7, 2), (8, 2)])
def test_second_traitor_only_with_seven_or_eight(players: int, traitors: int) -> None:
    """MC-LOYALTY, MC-RULING-16: the new deck, made for 8 players, holds 8 loyal cards and 2
    traitors, the second only with 7-8 players; the cards outnumber the players, so even at 8
    a game may have no traitor (000: «существует вероятность, что Изменника ... может и не
    оказаться»)."""
    game = pendragon.load_game("soc", players=players, expansion=MC)
    assert game.loyalty_deck == (8, traitors)  # type: ignore[attr-defined]
    counts = [sum(dealt(players=players, expansion=MC, seed=s).loyalty) for s in range(120)]
    assert max(counts) == traitors
    if players == 8:  # of 10 cards, 8 dealt: none 1/45, one 16/45, two 28/45
        assert 0 < counts.count(1) < counts.count(2)


def test_traitor_in_our_midst() -> None:
    """VAR-MIDST: as many loyal cards as players plus the traitor(s)."""
    assert pendragon.load_game(
        "soc", players=4, traitor_in_our_midst=True
    ).loyalty_deck == (4, 1)  # type: ignore[attr-defined]
    assert pendragon.load_game(
        "soc", players=7, expansion=MC, traitor_in_our_midst=True
    ).loyalty_deck == (7, 2)  # type: ignore[attr-defined]
    # MC-RULING-21: the expansion's deck has a loyal card for each of 8 players.
    assert pendragon.load_game(
        "soc", players=8, expansion=MC, traitor_in_our_midst=True
    ).loyalty_deck == (8, 2)  # type: ignore[attr-defined]
    assert dealt(players=8, expansion=MC, no_traitor=True, seed=1).loyalty == [0] * 8
    # with 4 loyal + 1 traitor for 4 seats, a traitor is dealt 4 times in 5
    traitors = sum(sum(dealt(players=4, traitor_in_our_midst=True, seed=s).loyalty)
                   for s in range(200))
    assert 120 < traitors < 200


def test_no_traitor_lays_loyalty_face_up() -> None:
    """VAR-NO-TRAITOR: every card loyal and visible to all."""
    state = dealt(players=5, no_traitor=True, seed=3)
    assert state.loyalty == [0] * 5
    assert [k["loyalty"] for k in state.observation(None)["knights"]] == ["loyal"] * 5
    fresh = pendragon.load_game("soc", players=5, no_traitor=True, seed=3).new_initial_state()
    while fresh.observation(None)["waiting"]["decision"] != "chance-loyalty":
        fresh.apply_action(fresh.sample_chance())
    deal = fresh.sample_chance()
    face_up = Event(
        "soc.log.dealt-loyalty-known", {"seat": Seat(0), "loyalty": Term("soc.loyalty.loyal")}
    )
    assert fresh.narrate(deal, 1) == fresh.narrate(deal, None) == [face_up]
    assert fresh.describe_action(deal, 1) == (
        "Seat 0 is dealt a loyalty card, face up: Loyal knight."
    )
    assert fresh.describe_action(deal, 0) == "Your loyalty card: Loyal knight."


def test_three_brave_knights_hide_loyalty_until_six_swords() -> None:
    """VAR-THREE: not even its owner sees a loyalty card before 6 swords."""
    for seed in range(60):
        state = dealt(players=3, three_brave_knights=True, seed=seed)
        if 1 in state.loyalty:
            break
    traitor = state.loyalty.index(1)
    assert state.observation(traitor)["you"]["loyalty"] is None
    assert state.observation_tensor(traitor) == state.resample_hidden(
        traitor, random.Random(1)
    ).observation_tensor(traitor)
    play_until(state, lambda s: s.white_swords + s.black_swords >= 6, seed=seed)
    if not state.is_terminal():
        assert state.observation(traitor)["you"]["loyalty"] == "traitor"


def test_squires_start_without_arms() -> None:
    """VAR-SQUIRES: no coats of arms; a Merlin and 5 cards, life 4."""
    state = dealt(players=4, squires=True, seed=2)
    assert state.knight == [-1] * 4 and state.life == [4] * 4
    assert all(sum(h) == 6 and h[MERLIN] >= 1 for h in state.hands)


@pytest.mark.parametrize(
    ("options", "life", "cards"),
    [
        ({"squires_hard": True}, 3, 5),  # 003: three lives...
        ({"squires_cards": 3}, 4, 3),  # ...or fewer white cards
        ({"squires_hard": True, "squires_cards": 2}, 3, 2),  # 000: three lives and fewer
        ({"squires_cards": 0}, 4, 0),
    ],
)
def test_harder_squires_take_a_life_or_cards_or_both(
    options: dict[str, Any], life: int, cards: int
) -> None:
    """VAR-SQUIRES, MC-RULING-12: 003 "se třemi životy nebo s menším počtem bílých karet",
    000 "с 3-мя очками здоровья и меньшим количеством карт"; neither says how many fewer,
    so the table chooses both the life and the number of cards (besides the Merlin)."""
    state = dealt(players=4, squires=True, seed=2, **options)  # before the contributions
    assert state.life == [life] * 4
    assert all(sum(h) == cards + 1 and h[MERLIN] >= 1 for h in state.hands)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 9},
        {"players": 8},
        {"players": 5, "squires_hard": True},
        {"players": 5, "squires_cards": 3},
        {"players": 5, "squires": True, "squires_cards": 6},
        {"players": 5, "no_traitor": True, "traitor_in_our_midst": True},
        {"players": 4, "three_brave_knights": True},
        {"players": 3, "three_brave_knights": True, "no_traitor": True},
        {"players": 5, "expansion": "merlin"},
        {"players": 5, "squire": True},
    ],
)
def test_impossible_combinations_are_refused(options: dict[str, Any]) -> None:
    """VAR-OPTIONS: a clear error naming the problem."""
    with pytest.raises(ValueError) as raised:
        pendragon.load_game("soc", **options)
    assert isinstance(raised.value, pendragon.PendragonError)
    assert raised.value.message


def test_a_newcomer_joins_left_of_arthur() -> None:
    """VAR-JOIN, MC-RULING-10: 4 life, 5 cards, a free coat of arms and a loyalty card."""
    for seed in range(50):
        state = underway(players=4, seed=seed)
        if 0 in state.knight:
            break
    arthur = state.knight.index(0)
    version = state.version
    seat = state.join()
    assert seat == 4 and state.n == 5 and state.version == version + 1
    state.play_random_chance()
    assert state.knight[seat] >= 0 and state.knight.count(state.knight[seat]) == 1
    assert state.life[seat] == 4 and sum(state.hands[seat]) == 5
    assert state.loyalty[seat] in (0, 1)
    order = state.seat_order
    assert order[(order.index(arthur) + 1) % 5] == seat
    state.check_invariants()
    # the history replays the join exactly
    replay = pendragon.load_game("soc", players=4, seed=seed).new_initial_state()
    replay.replay(state.history())
    assert replay.serialize() == state.serialize()
    with pytest.raises(pendragon.IllegalActionError):  # a table operation is not a move
        replay.apply_action(state.history()[version])
    assert state.history()[version] not in state.legal_actions()
    assert state.game.deserialize_state(state.serialize()).n == 5


def test_a_three_brave_knights_table_takes_no_newcomer() -> None:
    """MC-RULING-20, VAR-THREE, VAR-JOIN: the variant is the three-player game's; a join is
    refused by name and leaves the state as it was, while the same table without the
    variant seats a fourth knight."""
    state = dealt(players=3, three_brave_knights=True, seed=4)
    assert not state.can_join()
    before = state.serialize()
    with pytest.raises(pendragon.IllegalActionError, match="not possible"):
        state.join()
    assert state.serialize() == before
    plain = underway(players=3, seed=4)
    assert plain.can_join() and plain.join() == 3


def test_a_newcomer_joins_a_game_without_a_traitor() -> None:
    """VAR-NO-TRAITOR, VAR-JOIN: the first game takes the traitor card out and deals each
    player a loyal card (003 «stačí odstranit kartu věrnosti znázorňující zrádce ze hry»),
    so the loyal cards left let a newcomer join, loyal and face up; the 7 loyal cards run
    out at the 8th knight without the expansion's."""
    state = underway(players=4, no_traitor=True, seed=2)
    seat = state.join()
    state.play_random_chance()
    assert state.loyalty[seat] == 0
    assert state.observation(None)["knights"][seat]["loyalty"] == "loyal"
    state.check_invariants()
    full = underway(players=7, no_traitor=True, seed=2)
    assert full.game.loyalty_deck == (7, 0) and not full.can_join()


def test_a_newcomer_under_traitor_in_our_midst_adds_a_loyal_card_first() -> None:
    """VAR-MIDST, VAR-JOIN, MC-RULING-26: 003 «použijte pouze tolik loajálních karet
    věrnosti, kolik je hráčů a přidejte kartu zrádce ... ale jistotu hráči mít nemohou»: a
    newcomer is a player, so the deck gains a loyal card before he draws. Whatever the table
    was dealt, he may be dealt either card, and one card stays undealt."""
    import pendragon.games.soc.rules.actions as A

    cases = set()
    for seed in range(40):
        state = underway(players=4, traitor_in_our_midst=True, seed=seed)
        dealt_traitors = state.loyalty.count(1)
        assert state.loyalty_left() == ((0, 1) if dealt_traitors == 0 else (1, 0))
        seat = state.join()
        state.apply_action(state.chance_outcomes()[0][0])  # his coat of arms
        outcomes = dict(state.chance_outcomes())
        assert outcomes == ({A.DEAL_LOYAL: 0.5, A.DEAL_TRAITOR: 0.5} if dealt_traitors == 0
                            else {A.DEAL_LOYAL: 1.0}), (seed, outcomes)
        state.play_random_chance()
        assert sum(state.loyalty_left()) == 1 and state.loyalty[seat] in (0, 1)
        state.check_invariants()
        cases.add(dealt_traitors)
        if cases == {0, 1}:
            break
    assert cases == {0, 1}  # a table dealt the traitor, and one dealt none


def test_a_stored_newcomers_seat_is_shown_before_the_state_is_accepted() -> None:
    """VAR-JOIN: a stored state is refused unless every seat it has, a newcomer's too, can
    be shown (``core.storage.check_playable`` with the state's own seat count). The
    newcomer's loyalty card, out of range, is in his own view only: a check of the game's
    first four seats and the spectator would let it through."""
    state = underway(players=4, seed=1)
    seat = state.join()
    state.play_random_chance()
    data = json.loads(state.serialize())
    data["loyalty"][seat] = 5
    with pytest.raises(pendragon.CorruptStateError, match="cannot be played"):
        state.game.deserialize_state(json.dumps(data))


def test_no_join_beyond_the_table() -> None:
    """VAR-JOIN: no eighth seat in the base game."""
    state = dealt(players=7, seed=1)
    assert not state.can_join()
    with pytest.raises(pendragon.IllegalActionError):
        state.join()


def test_a_player_who_leaves_is_treated_as_dead() -> None:
    """VAR-JOIN: his knight dies; his loyalty stays secret."""
    state = dealt(players=4, seed=5)
    play_until(state, lambda s: s.observation(None)["waiting"]["decision"] == "evil")
    state.leave(2)
    assert state.observation(None)["knights"][2]["status"] == "dead"
    assert state.observation(None)["knights"][2]["loyalty"] is None
    assert sum(state.hands[2]) == 0
    with pytest.raises(pendragon.IllegalActionError):
        state.leave(2)
    state.check_invariants()


def test_expansion_knights_have_rule_ids() -> None:
    """MC-SETUP-1: every knight's power has a rule ID in the references."""
    assert [k.rule_id for k in KNIGHTS if k.expansion] == [
        "MC-KNIGHT-GAHERIS", "MC-KNIGHT-GARETH", "MC-KNIGHT-GERAINT", "MC-KNIGHT-LAMORAK",
        "MC-KNIGHT-OWAIN", "MC-KNIGHT-BEDIVERE", "MC-KNIGHT-BORS", "MC-KNIGHT-CARADOC",
    ]


def test_played_black_cards_is_an_option_on_by_default_with_the_expansion() -> None:
    """MC-PLAYED-BLACK: an optional rule of its own (000: "Правило отыгранных чёрных
    карт"), "auto" by default (on with the expansion only), offered where options are
    chosen: `pendragon games`, `--option`, the flags and the lobby's option list."""
    from rich.console import Console

    from pendragon.cli.main import list_games, parse_option_flags, parse_options

    def played(**options: Any) -> bool:
        return bool(pendragon.load_game("soc", **options).played_black)  # type: ignore[attr-defined]

    assert not played(players=5) and played(players=5, expansion=MC)
    assert played(players=5, played_black="on")
    assert not played(players=5, expansion=MC, played_black="off")
    with pytest.raises(pendragon.InvalidOptionError):
        pendragon.load_game("soc", players=5, played_black="yes")
    assert parse_options("soc", ["played_black=off"]) == {"played_black": "off"}
    assert parse_option_flags("soc", ["--played-black", "on"]) == {"played_black": "on"}
    console = Console(width=200, color_system=None)
    with console.capture() as capture:
        list_games(console)
    assert "played_black" in capture.get() and "auto, on, off" in capture.get()
    # A state saved before the option existed still loads, at the option's default.
    state = dealt(players=3, expansion=MC, seed=4)
    data = state.to_dict()
    del data["options"]["played_black"]
    assert state.game.deserialize_state(json.dumps(data)).serialize() == state.serialize()


def test_a_world_drawn_during_gaheris_search_keeps_his_merlin_in_the_discard() -> None:
    """MC-KNIGHT-GAHERIS, MC-RULING-11: the others do not know how many Merlins the discard
    holds, but while his search is under way (three discards, then the Merlin) they know
    one is there; a world drawn for them must not take it away, or he would come back
    empty-handed in it where he does not in the real game (a count the table sees)."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({
        "players": 3, "options": {"expansion": "merlins-company"},
        "knights": [{"knight": "gaheris", "hand": {"fight-2": 3}}, {}, {}],
        "turn": {"seat": 0, "phase": "heroic"},  # his power's phase (MC-RULING-1)
    })
    state.white_deck[MERLIN] -= 1
    state.white_discard[MERLIN] += 1  # the one Merlin in a discard pile of one card
    state.invalidate_cache()
    state.apply_action(state.string_to_action("gaheris-merlin"))
    assert state.observation(None)["waiting"]["decision"] == "discard"
    for index in range(40):
        world = state.resample_hidden(1, random.Random(index))
        assert world.white_discard[MERLIN] == 1, index
        for _ in range(3):  # his hand is redealt in her world: any three cards
            world.apply_action(world.legal_actions()[0])
        assert world.observation(None)["knights"][0]["hand_size"] == 1


def test_no_newcomer_before_the_first_turn() -> None:
    """VAR-JOIN, SOC-SETUP-6: a newcomer joins «v průběhu hry» and only draws his cards and
    waits for his turn: while the opening cards are being laid he cannot sit down (he would
    share cards he gave nothing to); once the first turn has begun he can."""
    state = dealt(players=4, seed=3)
    assert state.observation(None)["waiting"]["decision"] == "contrib"
    assert not state.can_join()
    before = state.serialize()
    with pytest.raises(pendragon.IllegalActionError):
        state.join()
    assert state.serialize() == before
    play_until(state, lambda s: s.turn_seat >= 0)
    assert state.can_join() and state.join() == 4


def test_three_brave_knights_is_chosen_not_imposed_at_three() -> None:
    """MC-RULING-22, VAR-THREE: 003 lists the no-look rule among the variants for bold
    players; at 3 players a knight reads his loyalty card unless the table chose it."""
    plain = dealt(players=3, seed=5)
    assert plain.observation(0)["you"]["loyalty"] in ("loyal", "traitor")
    brave = dealt(players=3, seed=5, three_brave_knights=True)
    assert brave.observation(0)["you"]["loyalty"] is None
