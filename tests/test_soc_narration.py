"""Shadows over Camelot's log tells the consequences of every action, not only the action:
quests won and lost, swords laid, siege engines, relics, lives and deaths, the end and the
traitor it reveals.

The rules note each change where it happens (``data`` Notes); the tests check the log
against the public view before and after each action of whole heuristic games (issue 17,
item 6), so every figure a spectator sees change on the board is narrated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import pendragon
from pendragon.bots import make_bot
from pendragon.core.events import Event, Seat, Term
from pendragon.i18n import catalog


def _games() -> list[dict[str, Any]]:
    return [{"players": 4, "seed": 5}, {"players": 5, "seed": 2},
            {"players": 6, "seed": 3, "expansion": "merlins-company"}]


def _params(events: list[Event], key: str) -> list[Mapping[str, Any]]:
    return [e.params for e in events if e.key == key]


@pytest.mark.parametrize("options", _games(), ids=lambda o: f"p{o['players']}-s{o['seed']}")
def test_every_public_change_is_narrated(options: dict[str, Any]) -> None:
    """SOC-QUEST-2 (lives), SOC-EVIL-3 and SOC-SIEGE-1 (engines), SOC-END-1/-2 (the end):
    each change of the public board appears in the log line of the action causing it."""
    game = pendragon.load_game("soc", **options)
    state = game.new_initial_state()
    bots = [make_bot("heuristic", seat) for seat in range(game.num_players())]
    seen = {"quest-won": 0, "quest-lost": 0, "siege-added": 0, "game-result": 0, "shown": 0,
            "swords-turned-black": 0}
    while not state.is_terminal():
        action = (state.sample_chance() if state.is_chance_node()
                  else bots[state.current_player()].step(state))
        before = state.observation(None)
        events = state.narrate(action, None)
        assert events == state.narrate(action, None), "narration is not repeatable"
        state.apply_action(action)
        after = state.observation(None)
        keys = [e.key.removeprefix("soc.log.") for e in events]
        for name in seen:
            seen[name] += keys.count(name)
        turned = _params(events, "soc.log.swords-turned-black")
        for colour, sign in (("white", -1), ("black", 1)):
            change = after["round_table"][colour] - before["round_table"][colour]
            laid = _params(events, f"soc.log.{colour}-swords-laid")
            removed = _params(events, f"soc.log.{colour}-swords-removed")
            told = sum(p["count"] for p in laid) - sum(p["count"] for p in removed)
            assert told + sign * sum(p["count"] for p in turned) == change
            for p in laid + removed + turned:
                assert (p["white"], p["black"]) == (after["round_table"]["white"],
                                                    after["round_table"]["black"])
        engines = after["siege_engines"] - before["siege_engines"]
        added = _params(events, "soc.log.siege-added")
        gone = _params(events, "soc.log.siege-removed")
        assert sum(p["count"] for p in added) - sum(p["count"] for p in gone) == engines
        for old, new in zip(before["knights"], after["knights"], strict=True):
            if new["status"] == "dead" and old["status"] != "dead":
                assert {"seat": Seat(new["seat"])} in _params(events, "soc.log.dies")
            elif new["life"] != old["life"]:
                key = "life-gained" if new["life"] > old["life"] else "life-lost"
                assert {"seat": Seat(new["seat"]), "count": abs(new["life"] - old["life"]),
                        "left": new["life"]} in _params(events, f"soc.log.{key}")
        # SOC-TRAITOR-3: a traitor hidden to the end is named when the game ends.
        hidden = [new["seat"] for old, new in zip(before["knights"], after["knights"],
                                                  strict=True)
                  if old["loyalty"] is None and new["loyalty"] == "traitor"
                  and after["status"] != "running"]
        told = [p["seat"].index for p in _params(events, "soc.log.shown-traitor")]
        assert told == hidden
        seen["shown"] += len(told)
        # SOC-QUEST-3: a quest won lays white swords, one lost black ones, in its line.
        if "quest-won" in keys:
            assert "white-swords-laid" in keys
        if "quest-lost" in keys:
            assert "black-swords-laid" in keys
    final = state.observation(None)
    assert seen["game-result"] == 1
    assert seen["siege-added"] > 0 and seen["quest-won"] + seen["quest-lost"] > 0
    assert final["status"] in ("loyal-win", "evil-win")


def test_a_false_accusation_turns_a_white_sword_black_in_one_line() -> None:
    """SOC-ACCUSE-3: the white sword the accused's loyal card turns black is told as such,
    not as a white sword leaving and a black one laid, in every language."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({"players": 3, "round_table": {"white": 3, "black": 3},
                        "turn": {"seat": 0, "phase": "heroic"}})
    accuse = next(a for a in state.legal_actions()
                  if state.action_to_string(a) == "accuse:1")
    events = state.narrate(accuse, None)
    swords = [e for e in events if "sword" in e.key]
    assert swords == [Event("soc.log.swords-turned-black", {"count": 1, "white": 2, "black": 4})]
    assert catalog("en").render(swords[0]) == "1 white sword turns black (2 white, 4 black)."
    for language in ("ru", "cs", "pl"):
        words = catalog(language).render(swords[0])
        assert "{" not in words and "2" in words and "4" in words
        assert words != catalog("en").render(swords[0])


def test_the_end_is_told_with_its_result_and_reason_in_every_language() -> None:
    """SOC-END-2: the last line says who won and why."""
    result = Event("soc.log.game-result", {"result": Term("soc.result.loyal-win"),
                                           "reason": Term("soc.end.swords")})
    assert catalog("en").render(result) == (
        "The game is over: The loyal knights win: the twelfth sword was laid on the Round Table.")
    for language in ("ru", "cs", "pl"):
        words = catalog(language).render(result)
        assert catalog(language).text("soc.result.loyal-win") in words


def test_evil_wins_alone_when_no_traitor_sat_at_the_table() -> None:
    """SOC-END-1 with VAR-NO-TRAITOR: nobody betrayed the table, so the result names no
    traitor (issue 17, item 8), in the log, the terminal and (board.js) the page."""
    from rich.console import Console

    from pendragon.games.soc.terminal import render_soc

    game = pendragon.load_game("soc", players=3, seed=4, no_traitor=True)
    state = game.new_initial_state()
    bots = [make_bot("random", seat) for seat in range(3)]
    last: list[Event] = []
    while not state.is_terminal():
        action = (state.sample_chance() if state.is_chance_node()
                  else bots[state.current_player()].step(state))
        last = state.narrate(action, None)
        state.apply_action(action)
    view = state.observation(0)
    assert view["status"] == "evil-win"  # random bots lose
    result = [e for e in last if e.key == "soc.log.game-result"][0]
    assert result.params["result"] == Term("soc.result.evil-win-alone")
    console = Console(width=140, color_system=None, record=True)
    console.print(render_soc(view, catalog("en")))
    text = console.export_text()
    assert "Evil wins" in text and "traitor) win" not in text


def test_every_literal_key_of_the_board_module_exists_in_every_language() -> None:
    """soc's board.js words only keys its catalogs hold ("your turn" on one's own badge
    included, issue 17 item 8)."""
    import re
    from pathlib import Path

    from pendragon.i18n import LANGUAGES

    source = (Path(pendragon.__file__).resolve().parent / "games" / "soc" / "board.js").read_text(
        "utf-8")
    literal = set(re.findall(r'"(soc\.[a-z0-9_.-]+[a-z0-9_])"', source))
    assert {"soc.knights.turn", "soc.knights.turn.you"} <= literal
    literal.add("soc.result.evil-win-alone")  # completed at run time
    for language in LANGUAGES:
        words = catalog(language)
        assert sorted(k for k in literal if k not in words) == [], language


def test_a_traitor_hidden_to_the_end_is_named_when_the_game_ends() -> None:
    """SOC-TRAITOR-3: the stealth traitor of the panel often stays hidden to the end; the
    last log line then names him."""
    from pendragon.games.soc.traitors import panel_bots

    named = 0
    for seed in range(12):
        game = pendragon.load_game("soc", players=5, seed=seed)
        state = game.new_initial_state()
        bots = panel_bots("heuristic", "stealth", game.seed, 5)
        while not state.is_terminal():
            action = (state.sample_chance() if state.is_chance_node()
                      else bots[state.current_player()].step(state))
            before = state.observation(None)
            events = state.narrate(action, None)
            state.apply_action(action)
            if state.is_terminal():
                hidden = [k["seat"] for k in before["knights"] if k["loyalty"] is None
                          and state.observation(None)["knights"][k["seat"]]["loyalty"]
                          == "traitor"]
                told = [p["seat"].index for p in _params(events, "soc.log.shown-traitor")]
                assert told == hidden
                named += len(told)
        if named:
            break
    assert named, "no game of the stealth traitor ended with him hidden"


def test_consequences_are_worked_out_once_for_every_viewer() -> None:
    """A table narrates each action to every seat and the spectators: the consequences,
    the same for all, are worked out once per position and action (and again after the
    position is edited in place and its caches invalidated). Read off the position's memo
    (a compiled build's methods cannot be patched to count calls)."""
    state = pendragon.load_game("soc", players=5, seed=2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    action = state.legal_actions()[0]
    told = [state.narrate(action, 0)]
    worked_out = state._narration_memo
    assert worked_out is not None and worked_out[0] == (len(state.history()), action)
    told += [state.narrate(action, viewer) for viewer in (*range(1, 5), None)]
    assert state._narration_memo is worked_out  # the other viewers reused it
    state.invalidate_cache()
    assert state._narration_memo is None
    assert state.narrate(action, None) == told[-1]  # worked out again, the same words
    assert state._narration_memo is not worked_out


@pytest.mark.parametrize(("card", "told"), [
    ("mordred", {"key": "soc.log.draw-black-public", "card": "soc.black.mordred"}),
    ("black-knight-3", {"key": "soc.log.draw-black-combat", "quest": "soc.place.black-knight"}),
])
def test_a_black_card_some_seat_knew_is_named_when_drawn(card: str, told: dict[str, str]) -> None:
    """SOC-EVIL-2, SOC-BLACK-2, SOC-RULING-22: a card on top of the deck that a seat knew
    (here Percival's peek) is drawn without a chance step; it is read out all the same, so
    the draw's log line names it to everyone (a combat card by its quest only) and to the
    drawer in full."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({"players": 3, "knights": [{}, {}, {}], "black_top": [card]})
    assert not state.is_chance_node()
    draw = state.string_to_action("draw-black")
    for viewer in (1, None):
        extra = [e for e in state.narrate(draw, viewer) if e.key.startswith("soc.log.draw-")]
        assert len(extra) == 1 and extra[0].key == told["key"]
        terms = {name: value.key for name, value in extra[0].params.items()
                 if isinstance(value, Term)}
        assert terms == {k: v for k, v in told.items() if k != "key"}
    mine = [e for e in state.narrate(draw, 0) if e.key.startswith("soc.log.draw-")]
    assert [e.key for e in mine] == ["soc.log.draw-black-known"]
    assert mine[0].params["card"] == Term(f"soc.black.{card}")


def test_a_knight_leaving_a_solo_quest_does_not_end_it() -> None:
    """SOC-HERO-4: a knight who leaves the Black Knight before its end loses the cards he
    played there; the quest goes on, so the log tells no quest's end (it used to infer one
    from the emptied board)."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({"players": 3,
                        "knights": [{"location": "black-knight"}, {}, {}],
                        "quests": {"black-knight": {"white": ["fight-2", "fight-3"]}},
                        "turn": {"seat": 0, "phase": "heroic"}})
    move = state.string_to_action("move:camelot")
    assert move in state.legal_actions()
    for viewer in (None, 0, 1):
        keys = [e.key for e in state.narrate(move, viewer)]
        assert not any(key.startswith("soc.log.quest-") for key in keys), keys
    state.apply_action(move)
    assert state.observation(None)["quests"]["black-knight"]["white"] == []


def test_narration_notes_nothing_outside_narration() -> None:
    """The rules note changes only on narration's copy: a state played on (a search bot's
    rollout) carries no log, and neither does its clone."""
    from pendragon.games.soc.rules import SocState

    state = pendragon.load_game("soc", players=4, seed=7).new_initial_state()
    assert isinstance(state, SocState)
    for _ in range(60):
        action = (state.sample_chance() if state.is_chance_node() else state.legal_actions()[0])
        state.narrate(action, None)
        state.apply_action(action)
    assert state.log is None and state.clone().log is None


def test_a_set_made_up_with_question_cards_says_how_many_go() -> None:
    """MC-RULING-4: a heal or Charged! that lays down "?" Fight cards for missing ones is its
    own action, whose menu entry and log line say how many "?" cards go, to every seat alike
    (the cards are laid down face up), in every language; a set of the value's own cards
    keeps the plain words."""
    from pendragon.games.soc.rules.fixtures import load_state

    def knight(hand: dict[str, int]) -> Any:
        return load_state({"players": 3, "options": {"expansion": "merlins-company"},
                           "knights": [{"life": 3, "hand": hand}, {}, {}],
                           "turn": {"seat": 0, "phase": "heroic"}})

    mixed = knight({"fight-3": 2, "fight-any": 1})
    heal = mixed.string_to_action("heal-with-any:fight-3:1")
    event = mixed.action_event(heal)
    assert event.key == "soc.action.heal-with-any"
    assert (event.params["own"], event.params["extra"]) == (2, 1)
    words = mixed.describe_action(heal, 0)
    assert "Fight 3 ×2 and Fight ? ×1" in words
    assert mixed.describe_action(heal, 1) == mixed.describe_action(heal, None) == words.replace(
        "You: ", "Seat 0: ").replace("You gain", "Seat 0 gains")
    for language in ("ru", "cs", "pl"):
        assert "×2" in catalog(language).render(event)
    plain = knight({"fight-3": 3, "fight-any": 1})
    assert plain.action_event(plain.string_to_action("heal:fight-3")).key == "soc.action.heal"
    charged = knight({"fight-4": 1, "fight-any": 1})
    charged.apply_text("move:grail")
    charged.apply_text("travel:charged")
    charge = charged.string_to_action("charge-with-any:fight-4")
    assert "Discard Fight 4 ×1 and Fight ? ×1 and go on" in charged.describe_action(charge, None)


def test_black_cards_laid_face_down_are_told_as_they_are_turned_up() -> None:
    """SOC-RULING-34, SOC-BK-2: at a combat quest's end the face-down black cards are turned
    face up for everyone (003: shuffled «před tím než se otočí lícem vzhůru»; 002: «открыть
    и сравнить сумму»): every seat's log names them, the seat that laid one included."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({
        "players": 3, "turn": {"seat": 0, "phase": "heroic"},
        "knights": [{"location": "black-knight", "hand": {"fight-3": 1}}, {}, {}],
        "quests": {"black-knight": {"white": ["fight-2", "fight-2", "fight-3"], "black": [
            {"card": "black-knight-5", "face_down_by": 1}, "black-knight-1"]}}})
    play = state.string_to_action("play:fight-3")
    turned = Event("soc.log.black-turned-up", {"card": Term("soc.black.black-knight-5")})
    for viewer in (None, 0, 1, 2):
        events = state.narrate(play, viewer)
        assert events.count(turned) == 1, viewer
        assert not any(e.params.get("card") == Term("soc.black.black-knight-1")
                       for e in events if e.key == "soc.log.black-turned-up")


def test_a_lancelot_card_drawn_once_the_dragon_is_over_is_read_out() -> None:
    """SOC-RULING-65, SOC-BLACK-3: a combat card is read out unless laid face down (003
    «nahlas jí přečtěte ... v tom případě je nečtěte nahlas»); once the Dragon is over a
    Lancelot card can never be laid, so every seat is told it, and it lies in the discard
    pile as seen."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({"players": 3, "black_top": ["lancelot-7"],
                        "quests": {"lancelot": {"side": "over"}}})
    draw = state.string_to_action("draw-black")
    for viewer in (None, 1, 2):
        told = state.narrate(draw, viewer)
        assert any(e.key == "soc.log.draw-black-public"
                   and e.params.get("card") == Term("soc.black.lancelot-7") for e in told), told
    state.apply_action(draw)
    assert state.observation(1)["decks"]["black_discard_seen"] == {"lancelot-7": 1}
    assert state.observation(None)["siege_engines"] == 1


@pytest.mark.parametrize("language", ["en", "ru", "cs", "pl"])
def test_percivals_look_is_told_as_a_look_not_a_draw(language: str) -> None:
    """SOC-KNIGHT-PERCIVAL, SOC-RULING-59: Percival «может посмотреть верхнюю черную карту»
    and only then chooses his evil (003: «a teprve poté se rozhodnout, jestli si ji lízne»):
    the look is no draw. He reads the card he looks at; the others read that he looked."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({"players": 3, "knights": [{"knight": "percival"}, {}, {}],
                        "turn": {"seat": 0, "phase": "evil"}})
    state.apply_text("peek")
    assert state.is_chance_node()
    card = state.string_to_action("black-card:morgan-4")
    (mine,) = state.narrate(card, 0)
    (theirs,) = state.narrate(card, 1)
    assert mine.key == "soc.log.look-black-known"
    assert mine.params["card"] == Term("soc.black.morgan-4")
    assert theirs.key == "soc.log.look-black" and "card" not in theirs.params
    words = catalog(language)
    for told, viewer in ((mine, 0), (theirs, 1)):
        text = words.render(told, viewer=viewer)
        assert "{" not in text and text != words.render(
            Event("soc.log.draw-black", {"seat": Seat(0)}), viewer=viewer)
    state.apply_action(card)
    assert "draw-black" in [state.action_to_string(a) for a in state.legal_actions()]


def test_clairvoyances_looks_are_told_as_looks() -> None:
    """SOC-W-CLAIRVOYANCE: «взять из колоды 5 верхних черных карт, и посмотрев их ...
    положить их наверх»: five looks, not five draws; only the card's player reads them."""
    from pendragon.games.soc.rules.fixtures import load_state

    state = load_state({"players": 3, "knights": [{"hand": {"clairvoyance": 1}}, {}, {}],
                        "turn": {"seat": 0, "phase": "heroic"}})
    state.apply_text("special:clairvoyance")
    looks = 0
    while state.is_chance_node():
        action = state.sample_chance()
        assert state.narrate(action, 0)[0].key == "soc.log.look-black-known"
        assert state.narrate(action, 2)[0].key == "soc.log.look-black"
        state.apply_action(action)
        looks += 1
    assert looks == 5
