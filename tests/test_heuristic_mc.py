"""The heuristic's Merlin's Company policies (``games/soc/heuristic_expansion.py``): positions where
an expansion decision has an obviously right answer, each citing the rule it plays by
(``docs/rules/soc-expansion.md``), and whole expansion games with no decision left to the
fallback."""

from __future__ import annotations

from typing import Any

import pytest

import pendragon
from pendragon.core.api import CHANCE, State
from pendragon.games.soc.heuristic import SocHeuristicBot
from pendragon.games.soc.rules.fixtures import load_state
from pendragon.runner import bot_seed, play_game
from tests.seat_view import SeatView

MC = {"expansion": "merlins-company"}
#: A hand full enough that drawing more cards is not the knight's first need.
_FULL = {"fight-3": 2, "fight-4": 2, "grail": 2}


def _state(knights: list[dict[str, Any]], **extra: Any) -> State:
    """A 3-player expansion position at seat 0's Heroic phase (unless ``turn`` says)."""
    data: dict[str, Any] = {
        "players": len(knights),
        "options": MC,
        "knights": knights,
        "turn": {"seat": 0, "phase": "heroic"},
        **extra,
    }
    return load_state(data)


def _play(state: State, *texts: str) -> State:
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def _choice(state: State, bot: SocHeuristicBot | None = None) -> str:
    bot = bot or SocHeuristicBot(0, track_beliefs=False)
    return state.action_to_string(bot.step(state))


def _decision(state: State) -> str:
    return str(state.observation(None)["waiting"]["decision"])


# ---------------------------------------------------------------------- travel cards
def test_charged_is_paid_with_the_cheapest_pair() -> None:
    # MC-TRAVEL-CHARGED: two identical Fight cards, or a black sword. A loyal knight pays,
    # with the pair he needs least (the 1s, not the 5s).
    state = _play(
        _state([{"hand": {"fight-1": 2, "fight-5": 2}}, {}, {}]), "move:picts", "travel:charged"
    )
    assert _decision(state) == "travel"
    assert _choice(state) == "play:fight-1"


def test_charged_traitor_sometimes_takes_the_black_sword() -> None:
    # MC-TRAVEL-CHARGED as the traitor: the refusal looks like a knight without a pair.
    choices = set()
    for seed in range(12):
        state = _play(
            _state([{"hand": {"fight-2": 2}, "loyalty": "traitor"}, {}, {}]),
            "move:picts",
            "travel:charged",
        )
        choices.add(_choice(state, SocHeuristicBot(seed, track_beliefs=False)))
    assert choices == {"stay", "play:fight-2"}


def _travel_choice(hand: dict[str, int], card: str, life: int = 4) -> str:
    """The bot takes the heroic decision (it sees the engines), then the move is made and
    ``card`` drawn: its answer to the travel card."""
    state = _state([{"hand": hand, "life": life}, {}, {}], siege_engines=3)
    bot = SocHeuristicBot(0, track_beliefs=False)
    bot.step(state)  # looks at the position; the move itself is forced below
    _play(state, "move:saxons", f"travel:{card}")
    assert _decision(state) == "travel"
    return _choice(state, bot)


def test_lost_and_ambushed_are_told_apart() -> None:
    # MC-TRAVEL-LOST: a Grail card finds the way (go). MC-TRAVEL-AMBUSHED: with a lone
    # Fight 1 the new engine would win the fight, so he stays. Both offer stay/go: the
    # bot tells them apart by the engine the Ambush added.
    hand = {"grail": 2, "fight-1": 1}
    assert _travel_choice(hand, "lost") == "go"
    assert _travel_choice(hand, "ambushed") == "stay"


def test_ambushed_is_fought_with_a_strong_hand() -> None:
    # MC-TRAVEL-AMBUSHED: Fight 5+5+4 beats the die 7 times in 8: fight, and arrive.
    assert _travel_choice({"fight-5": 2, "fight-4": 1, "grail": 1}, "ambushed") == "go"
    assert _travel_choice({"fight-2": 1}, "ambushed", life=1) == "stay"


def test_a_captured_knight_is_freed_with_the_cheapest_special_card() -> None:
    # MC-TRAVEL-CAPTURED, MC-RULING-7: freeing him costs a special card and the special
    # action; a captive skips his turns, so it beats drawing cards. New Hope goes,
    # the Merlin stays.
    state = _state(
        [{"hand": {"new-hope": 1, "merlin": 1, "fight-2": 1}}, {"captured": True}, {}]
    )
    assert _choice(state) == "free:1"
    _play(state, "free:1")
    assert _choice(state) == "play:new-hope"


def test_the_traitor_leaves_the_captive_where_he_is() -> None:
    # MC-TRAVEL-CAPTURED as the traitor: a captured knight is one knight fewer.
    state = _state(
        [{"hand": {"new-hope": 1}, "loyalty": "traitor"}, {"captured": True}, {}]
    )
    assert _choice(state) != "free:1"


# ---------------------------------------------------------------------- Merlin
def test_merlins_card_is_taken_first() -> None:
    # MC-MERLIN: on an open quest with the Merlin figure, a free card once a turn (not an
    # action): take it before playing.
    state = _state(
        [{"location": "picts", "hand": {"fight-3": 1}}, {}, {}], effects={"merlin": "picts"}
    )
    assert _choice(state) == "merlin-draw"


def test_merlin_to_the_rescue_goes_where_the_knights_are() -> None:
    # MC-W-MERLIN-RESCUE + MC-MERLIN: the figure gives a card a turn to each knight with him
    # on an open quest and does nothing on a finished one: he goes to the Grail, where two
    # knights stand, not to the finished Excalibur quest.
    state = _state(
        [{"hand": {"merlin-to-the-rescue": 1, **_FULL}}, {"location": "grail"},
         {"location": "grail"}],
        quests={"excalibur": {"over": True}},
    )
    _play(state, "special:merlin-to-the-rescue")
    assert _choice(state) == "target:grail"


# ---------------------------------------------------------------------- white cards
def test_fight_any_takes_the_missing_value_on_a_war() -> None:
    # MC-W-FIGHT-ANY: on the Picts with 1, 2, 3 played and a Fight 5 in hand, the "?"
    # card is the missing 4.
    state = _state(
        [{"location": "picts", "hand": {"fight-any": 1, "fight-5": 1}}, {}, {}],
        quests={"picts": {"white": ["fight-1", "fight-2", "fight-3"], "figures": 2}},
    )
    _play(state, "play:fight-any")
    assert _decision(state) == "value"
    assert _choice(state) == "value:4"


def test_fight_any_is_a_five_in_a_siege_fight() -> None:
    # MC-RULING-4: in a siege fight the "?" card takes a chosen value: the highest.
    state = _state([{"hand": {"fight-any": 1}}, {}, {}], siege_engines=9)
    _play(state, "fight-siege", "play:fight-any")
    assert _decision(state) == "value"
    assert _choice(state) == "value:5"


def test_truce_saves_a_war_about_to_be_lost() -> None:
    # MC-W-TRUCE: three Picts (the fourth loses the war): clear that board.
    state = _state(
        [{"hand": {"truce": 1}}, {}, {}],
        quests={"picts": {"figures": 3}, "saxons": {"figures": 1}},
    )
    assert _choice(state) == "special:truce"
    _play(state, "special:truce")
    assert _choice(state) == "target:picts"


def test_dispel_lifts_the_dark_forest_from_an_open_grail() -> None:
    # MC-W-DISPEL: the Dark Forest stops every Grail play; Morgan's Witch 5 only matters
    # with a traitor.
    state = _state(
        [{"hand": {"dispel": 1, **_FULL}}, {}, {}],
        effects={"dark_forest": True, "witches": [5]},
        quests={"excalibur": {"over": True}},
    )
    assert _choice(state) == "special:dispel"
    _play(state, "special:dispel")
    assert _choice(state) == "choose-black:dark-forest"


def test_tournament_heals_a_dying_knight() -> None:
    # MC-W-TOURNAMENT: two life at 1 life comes before anything else.
    state = _state([{"life": 1, "hand": {"tournament": 1, "fight-2": 1}}, {}, {}])
    assert _choice(state) == "special:tournament"
    _play(state, "special:tournament")
    assert _choice(state) == "self"


def test_call_for_help_is_answered_by_knights_who_can_play_there() -> None:
    # MC-W-CALL-FOR-HELP: seat 0 on the Saxons calls; seat 1 holds the values still
    # missing there and comes (a free move, no travel card); seat 2 holds nothing for it.
    state = _state(
        [
            {"location": "saxons", "hand": {"call-for-help": 1}},
            {"hand": {"fight-4": 1, "fight-5": 1}},
            {"hand": {"grail": 1}},
        ],
        quests={"saxons": {"white": ["fight-1", "fight-2", "fight-3"], "figures": 2}},
    )
    assert _choice(state) == "special:call-for-help"
    _play(state, "special:call-for-help")
    answers = {}
    while _decision(state) == "call":
        seat = state.current_player()
        answers[seat] = _choice(state)
        _play(state, answers[seat])
    assert answers == {1: "answer", 2: "pass"}
    assert state.observation(None)["knights"][1]["location"] == "saxons"


# ---------------------------------------------------------------------- Morgan's Witches
def test_witch_4_costs_a_grail_card_at_low_life_and_a_life_at_full_life() -> None:
    # MC-B-WITCH-4: each knight discards a Grail card or loses a life.
    state = _state(
        [{"life": 2, "hand": {"grail": 1}}, {"life": 6, "hand": {"grail": 1}}, {}],
        turn={"seat": 0, "phase": "evil"},
        black_top=["witch-4"],
    )
    _play(state, "draw-black")
    answers = {}
    while not state.is_terminal() and _decision(state) in ("pool", "witch4"):
        seat = state.current_player()
        text = _choice(state)
        if _decision(state) == "witch4":
            answers[seat] = text
        _play(state, text)
    assert answers[0] == "play:grail"
    assert answers[1] == "lose-life"


# ---------------------------------------------------------------------- knights
def test_lamorak_pays_with_cards_when_life_is_short() -> None:
    # MC-KNIGHT-LAMORAK: Morgan takes a life from everyone (SOC-B-MORGAN-1); at 2 life
    # Sir Lamorak discards 2 cards instead; at 5 life with a thin hand he keeps them.
    for life, hand, expected in ((2, {"fight-1": 2, "grail": 2}, "lamorak-discard"),
                                 (5, {"fight-1": 1, "grail": 1}, "pass")):
        state = _state(
            [{"knight": "lamorak", "life": life, "hand": hand}, {}, {}],
            turn={"seat": 0, "phase": "evil"},
            black_top=["morgan-1"],
        )
        _play(state, "draw-black")
        while _decision(state) == "pool":
            _play(state, "pass")
        assert _decision(state) == "lamorak"
        assert _choice(state) == expected, (life, hand)


def test_geraint_skips_evil_with_two_cheap_cards() -> None:
    # MC-KNIGHT-GERAINT: two white cards instead of the Progression of Evil. Offered by
    # ``expansion_evil`` (the base Evil policy is to ask it first): two spare Fight 1s go;
    # with only precious cards (a Merlin and a Fight 5 pair), no; the traitor never skips.
    bot = SocHeuristicBot(0, track_beliefs=False)
    for hand, loyalty, expected in (
        ({"fight-1": 3, "fight-4": 1}, "loyal", "geraint-skip-evil"),
        ({"merlin": 1, "fight-5": 1, "tournament": 1, "piety": 1}, "loyal", None),
        ({"fight-1": 3, "fight-4": 1}, "traitor", None),
    ):
        state = _state(
            [{"knight": "geraint", "hand": hand, "loyalty": loyalty}, {}, {}],
            turn={"seat": 0, "phase": "evil"},
        )
        texts = {state.action_to_string(a): a for a in state.legal_actions()}
        assert "geraint-skip-evil" in texts
        assert bot.expansion_evil(state.observation(0), texts) == expected, hand


def test_geraint_alone_does_not_stall_the_game() -> None:
    # MC-KNIGHT-GERAINT with SOC-END-4: the last knight in play skipping every Progression of
    # Evil and drawing his cards back would loop until the 400-round cap, a defeat; alone,
    # he lets evil progress (a game found by the simulator: seed 1000671, 5 players).
    hand = {"fight-1": 3, "fight-4": 1}
    state = _state(
        [{"knight": "geraint", "hand": hand, "life": 2},
         {"status": "dead", "life": 0}, {"status": "dead", "life": 0}],
        turn={"seat": 0, "phase": "evil"},
    )
    texts = {state.action_to_string(a): a for a in state.legal_actions()}
    assert "geraint-skip-evil" in texts
    assert SocHeuristicBot(0, track_beliefs=False).expansion_evil(
        state.observation(0), texts) is None


@pytest.mark.parametrize(("bors_hand", "loyalty", "expected"), [
    (0, "loyal", "volunteer"),  # 0 against the winner's 2 + 2: the deal evens the hands
    (3, "loyal", "volunteer"),  # 3 against 4: still smaller
    (4, "loyal", "pass"),  # 4 against 4: all three to the winner
    (6, "traitor", "volunteer"),  # the traitor always takes a card from the winner
])
def test_bors_takes_part_in_the_black_knights_reward_when_it_evens_the_hands(
        bors_hand: int, loyalty: str, expected: str) -> None:
    # MC-KNIGHT-BORS, SOC-RULING-69: Bors may take part in the face-down deal (2 cards to
    # the winner, 1 to him); loyal, when his hand is smaller than the winner's would be
    # after the winner's own 2 cards; the traitor, always.
    state = _state(
        [{"location": "black-knight", "hand": {"fight-3": 1, "grail": 2}}, {},
         {"knight": "bors", "hand": {"fight-1": bors_hand} if bors_hand else {},
          "loyalty": loyalty}],
        quests={"black-knight": {"white": ["fight-2", "fight-2", "fight-3"],
                                 "black": ["black-knight-1", "black-knight-1"]}},
    )
    _play(state, "play:fight-3")
    assert _decision(state) == "bors-deal" and state.current_player() == 2
    assert state.observation(2)["knights"][0]["hand_size"] == 2
    assert _choice(state) == expected


@pytest.mark.parametrize(("bors_hand", "loyalty", "expected"), [
    (1, "loyal", "volunteer"),  # 1 against the winner's 2: the deal evens the hands
    (2, "loyal", "pass"),  # 2 against 2: the cards go to the winner
    (5, "traitor", "volunteer"),  # the traitor always takes a card from the loyal
])
def test_bors_is_dealt_into_a_random_share_when_his_hand_is_the_smallest(
        bors_hand: int, loyalty: str, expected: str) -> None:
    # MC-KNIGHT-BORS, SOC-RULING-77: at a table that deals revealed cards face down, Bors is
    # asked whether he is dealt in; loyal, when his hand is smaller than every entitled
    # knight's; the traitor, always. No decision is left to the fallback.
    state = _state(
        [{"location": "picts", "hand": {"fight-5": 1, "grail": 2}}, {},
         {"knight": "bors", "hand": {"fight-1": bors_hand}, "loyalty": loyalty}],
        options={**MC, "share": "random"},
        quests={"picts": {"white": ["fight-1", "fight-2", "fight-3", "fight-4"]}},
    )
    _play(state, "play:fight-5", *(f"white-card:{k}" for k in ("grail", "merlin", "fight-1",
                                                                  "fight-2")))
    assert _decision(state) == "bors-deal" and state.current_player() == 2
    table = state.observation(2)["table"]
    assert table["face_down_reward"] is None and table["offer_dealt"] is True

    class NoFallback(SocHeuristicBot):
        def _fallback(self, obs: dict[str, Any], texts: dict[str, int]) -> int:
            raise AssertionError(f"fallback at {obs['waiting']['decision']}")

    assert _choice(state, NoFallback(2, track_beliefs=False)) == expected


@pytest.mark.parametrize("phase", ["evil", "heroic"])
def test_merlins_gift_is_taken_first_in_either_phase(phase: str) -> None:
    # MC-MERLIN, MC-RULING-24: the free card once a turn, in the Progression of Evil too
    # (before a black card may end the quest and send the knight home).
    state = _state([{"location": "picts", "hand": dict(_FULL)}, {}, {}],
                   effects={"merlin": "picts"}, turn={"seat": 0, "phase": phase})
    assert "merlin-draw" in [state.action_to_string(a) for a in state.legal_actions()]
    assert _choice(state) == "merlin-draw"


@pytest.mark.parametrize(("life", "expected"), [(6, "caradoc-trade"), (2, "end-turn")])
def test_caradoc_trades_only_a_spare_life(life: int, expected: str) -> None:
    # MC-KNIGHT-CARADOC, MC-RULING-1: a life for two cards, not a heroic action; with
    # nothing else left to do, a knight at full life trades, one at 2 life does not.
    state = _state(
        [{"knight": "caradoc", "life": life}, {}, {}],
        turn={"seat": 0, "phase": "heroic", "actions_left": 0, "used": ["move"]},
    )
    assert "caradoc-trade" in [state.action_to_string(a) for a in state.legal_actions()]
    assert _choice(state) == expected


# ---------------------------------------------------------------------- whole games
def _seen_decisions(players: int, seed: int, traitor: bool) -> set[str]:
    """Decisions met in one expansion game of heuristic bots."""
    seen: set[str] = set()

    def watch(state: State, player: int, _action: int) -> None:
        if player != CHANCE:
            seen.add(str(state.observation(None)["waiting"]["decision"]))

    game = pendragon.load_game("soc", players=players, seed=seed, no_traitor=not traitor, **MC)
    play_game(game, [SocHeuristicBot(bot_seed(game.seed, s)) for s in range(players)], watch)
    return seen


def test_base_game_moves_are_left_to_the_base_policy() -> None:
    # SOC-HERO-3 vs MC-TRAVEL: without the expansion there are no travel cards, so the
    # mixin scores no base-game move (the travel risk only exists with the expansion).
    bot = SocHeuristicBot(0, track_beliefs=False)
    base = load_state({"players": 3, "knights": [{"hand": {"fight-3": 1}}, {}, {}],
                       "turn": {"seat": 0, "phase": "heroic"}})
    texts = {base.action_to_string(a): a for a in base.legal_actions()}
    assert bot.expansion_heroic_score(base.observation(0), "move:picts", texts) is None
    expansion = _state([{"hand": {"fight-3": 1}}, {}, {}])
    texts = {expansion.action_to_string(a): a for a in expansion.legal_actions()}
    assert bot.expansion_heroic_score(expansion.observation(0), "move:picts", texts) is not None


def test_expansion_decisions_all_have_a_policy() -> None:
    # MC-TRAVEL and the expansion's cards and knights: every decision met in expansion games
    # (5, 7 and 8 players, with and without the traitor deck) has its own policy function.
    bot = SocHeuristicBot(0)
    seen: set[str] = set()
    for players, seed, traitor in ((5, 11, False), (5, 12, True), (8, 13, True), (7, 14, False)):
        seen |= _seen_decisions(players, seed, traitor)
    missing = {d for d in seen if not hasattr(bot, "_d_" + d.replace("-", "_"))}
    assert "travel" in seen
    assert not missing


def test_expansion_games_never_reach_the_fallback() -> None:
    # The fallback (cheapest card, or pass) is for positions no policy foresaw; in
    # expansion games every decision is taken by a policy.
    calls: list[str] = []

    class Counting(SocHeuristicBot):
        """The heuristic, noting every decision it leaves to the fallback (a subclass: the
        compiled class cannot be patched)."""

        def _fallback(self, obs: dict[str, Any], texts: dict[str, int]) -> int:
            calls.append(obs["waiting"]["decision"])
            return super()._fallback(obs, texts)

    for players, seed in ((5, 21), (8, 22)):
        game = pendragon.load_game("soc", players=players, seed=seed, **MC)
        final = play_game(game, [Counting(bot_seed(game.seed, s)) for s in range(players)])
        assert final.is_terminal()
    assert calls == []


def test_expansion_policy_reads_only_the_seat_view() -> None:
    # MC-TRAVEL: the travel decision's memory (engines at the seat's last heroic decision)
    # comes from the seat's own observations; given nothing but the seat's view, the bot
    # chooses what it chooses from the full state, travel decisions included.
    game = pendragon.load_game("soc", players=5, seed=3, **MC)
    state = game.new_initial_state()
    twins = [
        (SocHeuristicBot(s, track_beliefs=False), SocHeuristicBot(s, track_beliefs=False))
        for s in range(5)
    ]
    travels = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        full, blind = twins[player]
        travels += _decision(state) == "travel"
        action = full.step(state)
        assert blind.step(SeatView(state)) == action  # type: ignore[arg-type]
        state.apply_action(action)
    assert travels > 0
