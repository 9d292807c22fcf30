"""The Shadows over Camelot heuristic's quest plans: positions where the sensible choice is
clear, each citing the rule it plays by (``docs/rules/soc.md``)."""

from __future__ import annotations

from typing import Any

from pendragon.core.api import State
from pendragon.games.soc.heuristic import SocHeuristicBot
from pendragon.games.soc.heuristic_cards import _BK_COMBOS, _best_combo
from pendragon.games.soc.rules.fixtures import load_state

#: Enough life that paying the Progression of Evil or healing is not the question.
_HALE = 5


def _state(knights: list[dict[str, Any]], phase: str = "heroic", **extra: Any) -> State:
    return load_state({
        "players": len(knights),
        "options": {"no_traitor": True},
        "knights": knights,
        "turn": {"seat": 0, "phase": phase},
        **extra,
    })


def _choice(state: State) -> str:
    return state.action_to_string(SocHeuristicBot(0, track_beliefs=False).step(state))


def test_black_knight_play_keeps_the_strongest_two_pairs() -> None:
    # SOC-BK-1: two pairs of different values, one card an action. With 4-4 on the quest
    # and 5-5 and 1-1 in hand, the knight plays a 5 (4-4 + 5-5 = 18), never a 1.
    state = _state(
        [{"life": _HALE, "location": "black-knight", "hand": {"fight-5": 2, "fight-1": 2}},
         {}, {}],
        quests={"black-knight": {"white": ["fight-4", "fight-4"]}},
    )
    assert _choice(state) == "play:fight-5"


def test_best_combo_needs_the_hand_to_complete_a_solo_quest() -> None:
    # SOC-BK-1: 3-3 placed and one 5 in hand cannot make two pairs; two 5s can (16).
    assert _best_combo(_BK_COMBOS, [3, 3], {5: 1}) is None
    assert _best_combo(_BK_COMBOS, [3, 3], {5: 2}) == (16, 2, 2)


def test_knight_stays_on_his_solo_quest_while_he_can_finish_it() -> None:
    # SOC-HERO-4: leaving a solo quest discards the white cards played there; a knight on
    # the Black Knight who still holds his second pair plays it instead of leaving.
    state = _state(
        [{"life": _HALE, "location": "black-knight",
          "hand": {"fight-3": 2, "grail": 3, "fight-2": 1}}, {}, {}],
        quests={"black-knight": {"white": ["fight-4", "fight-4"]}},
    )
    assert _choice(state) == "play:fight-3"


def test_knights_gather_on_a_war_others_are_fighting() -> None:
    # SOC-WAR-3: a war won gives a life to each knight present, so a knight who can add a
    # value joins the war where others already stand rather than an empty one.
    state = _state(
        [{"life": _HALE, "hand": {"fight-2": 1, "fight-4": 1, "merlin": 1, "grail": 3}},
         {"location": "saxons"}, {"location": "saxons"}],
        quests={"picts": {"white": ["fight-1"]}, "saxons": {"white": ["fight-1"]},
                "excalibur": {"over": True}},
    )
    assert _choice(state) == "move:saxons"


def test_siege_fight_spends_the_cheapest_cards_that_should_win() -> None:
    # SOC-SIEGE-1: the total must beat a d8. 4 + 3 = 7 wins three times in four; the 5s
    # are kept for the wars (SOC-WAR-1), where they are the scarcest value.
    state = _state(
        [{"life": _HALE, "hand": {"fight-5": 2, "fight-4": 1, "fight-3": 1}}, {}, {}],
        siege_engines=9,
    )
    state.apply_action(state.string_to_action("fight-siege"))
    bot = SocHeuristicBot(0, track_beliefs=False)
    played = []
    while state.observation(None)["waiting"]["decision"] == "siege":
        text = state.action_to_string(bot.step(state))
        played.append(text)
        state.apply_action(state.string_to_action(text))
        if text == "done":
            break
    assert sorted(played[:-1]) == ["play:fight-3", "play:fight-4"]
    assert played[-1] == "done"


def test_life_pays_evil_one_point_lower_on_a_war_about_to_be_won() -> None:
    # SOC-EVIL-1 / SOC-WAR-3: at 3 life a knight draws a black card rather than lose a
    # life, unless he stands on a war one value from victory, where the life comes back.
    quests = {"picts": {"white": ["fight-1", "fight-2", "fight-3", "fight-4"]}}
    away = _state([{"life": 3}, {}, {}], phase="evil", quests=quests, siege_engines=3)
    there = _state([{"life": 3, "location": "picts"}, {"location": "picts"}, {}],
                   phase="evil", quests=quests, siege_engines=3)
    assert _choice(away) == "draw-black"
    assert _choice(there) == "lose-life"


def test_excalibur_is_sacrificed_against_the_twelfth_engine() -> None:
    # SOC-RELIC-EXCALIBUR-2 / SOC-QUEST-6: with Excalibur's quest over, an Excalibur black
    # card adds an engine; at 11 engines that is the end, so the owner cancels it.
    state = _state(
        [{"life": 3, "hand": {"fight-1": 1}}, {}, {}], phase="evil", siege_engines=11,
        quests={"excalibur": {"over": True}}, relics={"excalibur": 0},
        black_top=["excalibur"],
    )
    state.apply_action(state.string_to_action("draw-black"))
    assert state.observation(None)["waiting"]["decision"] == "excal"
    assert _choice(state) == "sacrifice-excalibur"


def test_grail_is_left_to_evil_unless_the_knight_can_finish_it() -> None:
    # SOC-GRAIL-1, SOC-GRAIL-4: holding the Grail against Despair cost more actions than
    # its swords were worth (docs/bots.md), so a knight with a few Grail cards joins the war
    # instead; one whose hand completes the seven Grail cards still goes to finish it.
    def position(grail_cards: int) -> State:
        return _state(
            [{"life": _HALE,
              "hand": {"grail": 3, "fight-2": 1, "fight-4": 1, "fight-1": 2, "merlin": 1}},
             {"location": "saxons"}, {}],
            quests={"saxons": {"white": ["fight-1"]}, "excalibur": {"over": True},
                    "grail": {"grail_cards": grail_cards, "black": ["despair"] * 3}},
        )

    assert _choice(position(2)) == "move:saxons"
    assert _choice(position(4)) == "move:grail"
