"""Shadows over Camelot: The Card Game: rules that need a whole deal or a direct check.

Scenarios (tests/scenarios/soc-card/) test each rule from a position; these tests check the
deck data, the set-up, quest resolution as a pure function, results, the views (no running
totals, no leaks through resampling) and the words of every event in every language.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import pendragon
import pendragon.core.plugins
from pendragon import CHANCE
from pendragon.core.events import Event
from pendragon.games.soc_card.rules import actions as A
from pendragon.games.soc_card.rules.cards import (
    CARDS,
    KIND,
    MORGAN_KINDS,
    QUEST_KINDS,
    QUEST_SWORDS,
    QUESTS,
    deck_counts,
)
from pendragon.games.soc_card.rules.fixtures import load_state
from pendragon.games.soc_card.rules.game import SocCardGame
from pendragon.games.soc_card.rules.quests import resolve
from pendragon.games.soc_card.rules.state import SocCardState
from pendragon.i18n import LANGUAGES, catalog, problems

GAME = "soc-card"


def _play(players: int, seed: int, steps: int = 10_000, **options: Any) -> SocCardState:
    state = pendragon.load_game(GAME, players=players, seed=seed, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        player = state.current_player()
        action = state.sample_chance() if player == CHANCE else rng.choice(state.legal_actions())
        state.apply_action(action)
    assert isinstance(state, SocCardState)
    return state


def _kinds(*names: str) -> list[int]:
    return [KIND[name] for name in names]


# ---------------------------------------------------------------------- the deck
def test_rumor_deck_composition() -> None:
    """SCG-COMP-2, SCG-COMP-3, SCG-RULING-1, SCG-RULING-4, SCG-RULING-31, SCG-RULING-32: 62
    cards; per quest four ?, 2, 3, 4, 4, 5; the swords of each quest; the copies the seed does
    not count."""
    counts = deck_counts(promos=(False, False))
    assert sum(counts) == 62
    for quest, name in enumerate(QUESTS):
        values: Counter[int] = Counter()
        for kind in QUEST_KINDS:
            if CARDS[kind].quest == quest:
                values[CARDS[kind].value] += counts[kind]
        assert values == Counter({0: 4, 2: 1, 3: 1, 4: 2, 5: 1}), name
    assert sum(counts[k] for k in MORGAN_KINDS) == 9
    assert sum(counts[k] for k in range(len(CARDS)) if CARDS[k].kind == "merlin") == 5
    assert counts[KIND["mordred"]] + counts[KIND["vivien"]] == 3
    # Przykład 1 gives Picts 1 and Excalibur 2; the rest is SCG-RULING-31.
    assert [QUEST_SWORDS[q] for q in range(5)] == [1, 1, 2, 2, 3]
    assert (counts[KIND["mordred"]], counts[KIND["vivien"]]) == (2, 1)  # SCG-RULING-32
    assert sum(counts[KIND[k]] for k in ("morgan-4-1", "morgan-4-2", "morgan-4-3")) == 3
    # The choices the seed leaves open (SCG-RULING-4), read from the one data file.
    assert [CARDS[KIND[k]].bonus for k in ("morgan-4-1", "morgan-4-2", "morgan-4-3")] == [1, 2, 3]
    assert CARDS[KIND["morgan-7"]].allows == (0, 1, 2, 3, 4)
    assert CARDS[KIND["mordred"]].allows == (0, 1)
    assert all(CARDS[k].allows == (CARDS[k].quest,) for k in QUEST_KINDS)


def test_promo_cards_join_only_with_the_option() -> None:
    """SCG-PROMO-1, SCG-PROMO-2, SCG-RULING-26: 64 cards, ten Morgans, four set aside."""
    plain = SocCardGame({"players": 3, "seed": 1})
    promo = SocCardGame({"players": 3, "seed": 1, "promos": True})
    assert sum(plain.rumor_counts) == 62 and sum(promo.rumor_counts) == 64
    assert (plain.morgans_aside, promo.morgans_aside) == (3, 4)
    state = _play(3, 1, steps=0, promos=True)
    state.play_random_chance()
    assert state.observation(None)["morgans_aside"] == 4 and state.observation(None)["deck"] == 60


# ---------------------------------------------------------------------- set-up
@pytest.mark.parametrize(
    ("players", "deck"), [(1, (0, 0)), (2, (3, 1)), (4, (5, 1)), (6, (7, 1)), (7, (7, 2))]
)
def test_loyalty_deck_and_deal(players: int, deck: tuple[int, int]) -> None:
    """SCG-SETUP-1, SCG-SETUP-2, SCG-SOLO-1, SCG-RULING-28: the loyalty cards in play,
    one to each player and two set aside."""
    game = SocCardGame({"players": players, "seed": players})
    assert game.loyalty_deck == deck
    state = game.new_initial_state()
    assert isinstance(state, SocCardState)
    state.play_random_chance()
    if players == 1:
        assert state.loyalty == [-1] and state.loyal_aside == [0, 0]
        return
    assert all(v in (0, 1) for v in state.loyalty)
    assert sum(state.loyal_aside) == 2
    held = Counter(state.loyalty)
    assert (held[0] + state.loyal_aside[0], held[1] + state.loyal_aside[1]) == deck
    for seat in range(players):
        view = state.observation(seat)
        assert view["you"]["loyalty"] in ("loyal", "traitor")
        assert all(s["loyalty"] is None for s in view["seats"])


def test_setup_sets_three_morgans_aside_and_seat_zero_starts() -> None:
    """SCG-SETUP-3, SCG-SETUP-4, SCG-SETUP-5, SCG-RULING-27."""
    state = _play(5, 3, steps=0)
    state.play_random_chance()
    view = state.observation(None)
    assert view["morgans_aside"] == 3 and view["deck"] == 59
    assert sum(state.aside[k] for k in MORGAN_KINDS) == 3
    assert sum(state.deck[k] for k in MORGAN_KINDS) == 6
    assert state.current_player() == 0 and view["swords"] == {"white": 0, "black": 0}


def test_player_counts() -> None:
    """SCG-RULING-28: one to seven players."""
    assert pendragon.game_class(GAME).supported_player_counts() == [1, 2, 3, 4, 5, 6, 7]
    with pytest.raises(pendragon.InvalidOptionError):
        pendragon.load_game(GAME, players=8)


# ---------------------------------------------------------------------- resolution
def test_resolution_examples_of_the_seed() -> None:
    """SCG-QUEST-9, SCG-MORDRED-1, SCG-QUEST-4: the worked examples, valued directly."""
    one = resolve(_kinds("excalibur-5", "excalibur-3", "excalibur-q", "excalibur-q", "grail-3",
                         "grail-q", "picts-5", "picts-3", "picts-2", "picts-q", "picts-q"), 3)
    assert one.totals == {0: 14, 3: 12, 4: 4} and (one.white, one.black) == (2, 1)
    two = resolve(_kinds("excalibur-3", "excalibur-q", "excalibur-q", "grail-3", "grail-q",
                         "picts-5", "picts-3", "picts-2", "picts-q"), 3)
    assert two.totals[3] == 7 and two.totals[0] == 11 and (two.white, two.black) == (0, 1)
    mordred = resolve(_kinds("picts-5", "picts-q", "picts-q", "saxons-4", "mordred"), 0)
    assert mordred.totals == {0: 12, 1: 5}


def test_resolution_order_of_removals_and_additions() -> None:
    """SCG-RULING-2, SCG-RULING-3, SCG-MERLIN-4: Merlins remove numbered cards first; the
    ? values and Mordred count what is left; Merlin #4's token names its quest."""
    result = resolve(_kinds("merlin-2", "merlin-3", "grail-5", "grail-4", "grail-q", "mordred",
                            "morgan-4-1"), 4)
    assert sorted(result.removed) == _kinds("grail-4", "grail-5")
    assert result.totals == {4: 1 + 1}  # one ? worth 1, plus Morgan #4's +1
    token = resolve(_kinds("merlin-4", "dragon-5", "dragon-4"), 2, merlin_4_quest=2)
    assert token.removed == _kinds("dragon-5") and token.totals == {2: 4}


# ---------------------------------------------------------------------- results
def test_returns_follow_the_final_loyalty() -> None:
    """SCG-GOAL-1, SCG-END-6, SCG-RULING-15: loyal +1/-1 with the loyal side, traitors the
    opposite."""
    seen = set()
    for seed in range(40):
        state = _play(5, seed)
        assert state.is_terminal()
        returns = state.returns()
        loyal = 1.0 if state.observation(None)["status"] == "loyal-win" else -1.0
        for seat, value in enumerate(returns):
            assert value == (-loyal if state.loyalty[seat] == 1 else loyal)
        seen.add(loyal)
    assert -1.0 in seen  # random play mostly loses; a loyal win with a traitor:
    state = load_state({"players": 3, "loyalty": ["loyal", "traitor", "loyal"],
                        "swords": {"white": 6, "black": 1},
                        "pile": ["grail-q", "grail-4", "grail-q", "grail-5"]})
    state.apply_text("quest:grail")
    assert state.returns() == [1.0, -1.0, 1.0]
    assert state.observation(None)["swords"] == {"white": 8, "black": 2}


# ---------------------------------------------------------------------- views
_FORBIDDEN = ("total", "sum", "value", "remembered", "history")


def _keys(data: object) -> set[str]:
    if isinstance(data, dict):
        return set(map(str, data)) | set().union(*(_keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_keys(v) for v in data)) if data else set()
    return set()


def test_observations_keep_no_running_totals() -> None:
    """SCG-RULING-8: the pile shows its count and top card only; no totals anywhere."""
    for seed in range(6):
        state = _play(4, seed, steps=0)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in (None, 0, 1, 2, 3):
                view = state.observation(seat)
                assert set(view["pile"]) == {"count", "top"}
                assert not {k for k in _keys(view) if any(f in k for f in _FORBIDDEN)}
            player = state.current_player()
            state.apply_action(state.sample_chance() if player == CHANCE
                               else rng.choice(state.legal_actions()))


def test_resample_keeps_the_revealed_pile_and_redeals_face_down_cards() -> None:
    """SCG-RULING-21, SCG-RULING-6: the revealed pile is public; another seat's Morgan #1
    card is redealt among quest cards — the very card announced when its layer is loyal in
    the new deal (the loyal tell the truth), any quest card when he is a traitor —; one's
    own is kept."""
    state = load_state({
        "players": 3, "in_force": {"morgan-1": True},
        "pile": ["grail-5", {"card": "picts-4", "face_down": "picts-4", "by": 1}, "mordred"],
    })
    redealt = set()
    for seed in range(60):
        other = state.resample_hidden(0, random.Random(seed))
        assert other.observation(0) == state.observation(0)
        assert other.pile[0] == KIND["grail-5"] and other.pile[2] == KIND["mordred"]
        assert CARDS[other.pile[1]].kind == "quest"
        if other.loyalty[1] == 0:
            assert other.pile[1] == KIND["picts-4"]
        redealt.add(other.pile[1])
        mine = state.resample_hidden(1, random.Random(seed))
        assert mine.pile == state.pile
        other.check_invariants()
    assert len(redealt) > 1


def test_resample_keeps_what_galahad_saw() -> None:
    """SCG-RULING-21, SCG-EXPERT-8: a seen loyalty card stays what it was."""
    state = load_state({"players": 5, "options": {"knights_relief": True},
                        "loyalty": ["loyal", "loyal", "traitor", "loyal", "loyal"],
                        "knights": {0: {"galahad": 1}}})
    state.apply_text("galahad:2")
    for seed in range(20):
        other = state.resample_hidden(0, random.Random(seed))
        assert other.loyalty[2] == 1 and other.observation(0) == state.observation(0)


# ---------------------------------------------------------------------- words
def _events_of_random_games() -> list[Event]:
    found: list[Event] = []
    configs: list[tuple[int, dict[str, Any]]] = [
        (1, {}), (3, {}), (5, {"knights_relief": True}), (7, {"promos": True}),
        (4, {"knights_relief": True, "promos": True}),
    ]
    for players, options in configs:
        for seed in range(4):
            state = pendragon.load_game(GAME, players=players, seed=seed, **options)
            current = state.new_initial_state()
            rng = random.Random(seed)
            while not current.is_terminal():
                player = current.current_player()
                action = (current.sample_chance() if player == CHANCE
                          else rng.choice(current.legal_actions()))
                for viewer in [None, *range(players)]:
                    found += current.narrate(action, viewer)
                found.append(current.action_event(action))
                found.append(current.decision_event())
                current.apply_action(action)
            found.append(current.decision_event())
    return found


EVENTS = _events_of_random_games()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_event_is_worded_in_every_language(language: str) -> None:
    """Every event the rules emit renders, and the catalogs are complete."""
    words = catalog(language)
    keys = {e.key for e in EVENTS}
    assert len(keys) > 60
    for event in set(EVENTS):
        assert words.render(event, viewer=0).strip()
    assert [p for p in problems(language).all() if "soc-card" in p] == []


def test_every_action_and_card_has_words() -> None:
    """The catalog's actions, cards, quests and knights all have names (and card texts)."""
    english = catalog("en")
    state = pendragon.load_game(GAME, players=3, seed=0).new_initial_state()
    for action in range(A.NUM_ACTIONS):
        assert english.render(state.action_event(action)).strip()
    for card in CARDS:
        assert f"soc-card.card.{card.key}" in english
        assert f"soc-card.card.{card.key}.text" in english
    for name in ("arthur", "tristan", "gawain", "galahad", "percival"):
        assert f"soc-card.knight.{name}.text" in english
    assert "game.soc-card" in english


def test_private_events_stay_private() -> None:
    """A card seen in secret never reaches another seat's narration."""
    state = load_state({"players": 3, "in_force": {"morgan-1": True}})
    state.apply_text("listen")
    draw = state.string_to_action("rumor:grail-5")
    mine = state.narrate(draw, 0)
    theirs = state.narrate(draw, 1)
    spectator = state.narrate(draw, None)
    assert any(e.key == "soc-card.log.draw-secret-known" for e in mine)
    for events in (theirs, spectator):
        assert all("grail" not in json.dumps(e.to_json()) for e in events)


def test_face_down_cards_are_named_but_not_paired_with_their_announcements() -> None:
    """SCG-MORGAN-1, SCG-RULING-6: at the resolution the pile is sorted and the face-down
    cards are named in card order, so the engine never tells who lied."""
    state = load_state({
        "players": 3, "loyalty": ["loyal", "traitor", "loyal"], "in_force": {"morgan-1": True},
        "pile": [{"card": "grail-5", "face_down": "dragon-4", "by": 1},
                 {"card": "dragon-2", "face_down": "dragon-2", "by": 0}],
    })
    quest = state.string_to_action("quest:dragon")
    events = [e for e in state.narrate(quest, None) if e.key == "soc-card.log.face-down-was"]
    assert [set(e.params) for e in events] == [{"card"}, {"card"}]
    named = [e.params["card"] for e in events]
    assert [getattr(t, "key", None) for t in named] == [
        "soc-card.card.dragon-2", "soc-card.card.grail-5"]  # card order, not pile order
    state.apply_action(quest)
    assert state.observation(None)["last_resolution"]["cards"] == ["dragon-2", "grail-5"]


def test_tristan_look_is_private() -> None:
    """SCG-EXPERT-4, SCG-RULING-20: only the Tristan player learns the deck's order."""
    state = load_state({"players": 3, "options": {"knights_relief": True},
                        "knights": {0: {"tristan": 1}}, "deck": {"grail-5": 1, "picts-4": 1}})
    state.apply_text("play:tristan")
    outcome = state.string_to_action("rumor:grail-5")
    assert any("grail-5" in json.dumps(e.to_json()) for e in state.narrate(outcome, 0))
    for viewer in (1, 2, None):
        assert all("grail" not in json.dumps(e.to_json()) for e in state.narrate(outcome, viewer))


def test_a_deck_that_runs_out_is_rebuilt_at_once_and_tristan_sees_it() -> None:
    """SCG-QUEST-10 («Jeśli talia Pogłosek się wyczerpie, potasujcie odrzucone karty»),
    SCG-RULING-34, SCG-EXPERT-4: the deck is rebuilt when its last card is drawn, not at
    the next draw, so Tristan played before that draw looks through the whole new deck (he
    saw nothing and lost the card while the rebuilding waited for a draw)."""
    state = load_state({"players": 3, "options": {"knights_relief": True},
                        "knights": {1: {"tristan": 1}}, "pile": ["picts-4"],
                        "deck": {"grail-2": 1}})
    discarded = state.observation(None)["discard"]
    state.apply_text("listen")
    state.apply_text("rumor:grail-2")
    view = state.observation(None)
    assert (view["deck"], view["discard"]) == (discarded, 0)
    assert state.current_player() == 1
    state.apply_text("play:tristan")
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    assert len(state.observation(1)["you"]["deck_seen"]) == discarded
    state.check_invariants()


def test_cards_merlins_set_aside_stay_out_of_a_deck_rebuilt_during_the_quest() -> None:
    """SCG-MERLIN-0 («należy odłożyć na bok wszystkie karty Merlina»), SCG-QUEST-10,
    SCG-RULING-3, SCG-RULING-34: the Merlins and the cards they take lie aside until the
    pile is cleared, so a deck rebuilt during Gawain's draws cannot hold them (one Merlin #1
    could act twice in one quest); at the clean-up they go to the discard pile with it."""
    state = load_state({"players": 3, "options": {"knights_relief": True},
                        "knights": {2: {"gawain": 1}}, "deck": {"grail-2": 1, "dragon-2": 1},
                        "pile": ["picts-5", "picts-4", "merlin-1", "picts-q"]})
    state.apply_text("listen")
    state.apply_text("rumor:grail-2")
    state.apply_text("quest:grail")
    state.apply_text("pass")  # Arthur's question (seat 2 holds a Knight card)
    before = state.observation(None)["discard"]
    state.apply_text("play:gawain")
    state.check_invariants()  # the cards set aside are counted while the pile resolves
    state.apply_text("rumor:dragon-2")  # the deck's last card: the discards become the deck
    assert state.observation(None)["deck"] == before
    drawable = {state.action_to_string(a) for a, _ in state.chance_outcomes()}
    assert "rumor:grail-5" in drawable
    assert "rumor:merlin-1" not in drawable and "rumor:picts-5" not in drawable
    for card in ("rumor:grail-5", "rumor:saxons-3"):
        state.apply_text(card)
    state.apply_text("gawain:grail-5")
    view = state.observation(None)
    assert sorted(view["last_resolution"]["cards"]) == sorted(
        ["picts-5", "merlin-1", "picts-4", "picts-q", "grail-2", "grail-5"])
    # Cleared: the pile, the Merlin and the card it took on the discard pile, beside
    # Gawain's two other cards face down.
    assert view["discard"] == 6 + 2
    state.check_invariants()


def test_observation_tensor_stays_within_the_declared_bounds() -> None:
    """The plugin declares every tensor entry in [0, 1] (SCG-RULING-8: counts, not totals)."""
    plugin = pendragon.core.plugins.installed_plugins()[GAME]
    assert plugin.environment is not None
    low, high = plugin.environment.observation_low, plugin.environment.observation_high
    size = pendragon.load_game(GAME, players=3, seed=0).info.observation_tensor_size
    for players, options in ((1, {}), (7, {"knights_relief": True, "promos": True})):
        for seed in range(5):
            state = _play(players, seed, steps=0, **options)
            rng = random.Random(seed)
            while not state.is_terminal():
                for seat in range(players):
                    tensor = state.observation_tensor(seat)
                    assert len(tensor) == size and all(low <= x <= high for x in tensor)
                player = state.current_player()
                state.apply_action(state.sample_chance() if player == CHANCE
                                   else rng.choice(state.legal_actions()))


def _named(state: SocCardState, seat: int) -> dict[str, float]:
    """``seat``'s tensor by element name."""
    names = state.game.observation_tensor_names()
    tensor = state.observation_tensor(seat)
    assert len(names) == len(tensor)
    return dict(zip(names, tensor, strict=True))


def _known_block(state: SocCardState, seat: int) -> dict[str, float]:
    """The nonzero entries of ``seat``'s ``known`` block, by name."""
    return {name: value for name, value in _named(state, seat).items()
            if name.startswith("known.") and value}


def _part(name: str) -> str:
    """The part of the ``known`` block an element belongs to (``deck.top``, ``loyalty``...)."""
    part = name.split(".")
    return f"deck.{part[2].split('+')[0]}" if part[1] == "deck" else part[1]


def _known_from_json(you: dict[str, Any]) -> dict[str, float]:
    """The ``known`` block's nonzero entries as the JSON ``you`` says they should read (what
    Tristan showed lies at the top of the deck: cards are drawn from there, and he sees the
    whole deck)."""
    expected: dict[str, float] = {}
    if you["merlin_4_token"] is not None:
        expected[f"known.merlin_4_token.{you['merlin_4_token']}"] = 1.0
    for target, loyalty in you["known_loyalties"].items():
        expected[f"known.loyalty.{target}.{loyalty}"] = 1.0
    for index, card in enumerate(you["deck_seen"][:3]):
        expected[f"known.deck.top+{index}.{card}"] = 1.0
    for card, count in Counter(you["deck_seen"]).items():
        expected[f"known.deck.count.{card}"] = count / 4
    return expected


def test_the_tensors_known_block_reads_the_token_galahad_and_tristan() -> None:
    """Audit s34 finding 4 (SCG-RULING-8, SCG-RULING-16, SCG-EXPERT-8, SCG-RULING-20): the
    tensor's last block, ``known``, shows what the JSON view's ``you`` shows, to that seat
    alone."""
    grail = load_state({"players": 3, "merlin_4": {"quest": "grail", "by": 0}})
    picts = load_state({"players": 3, "merlin_4": {"quest": "picts", "by": 0}})
    assert _known_block(grail, 0) == {"known.merlin_4_token.grail": 1.0}
    assert _known_block(picts, 0) == {"known.merlin_4_token.picts": 1.0}
    assert grail.observation_tensor(0) != picts.observation_tensor(0)  # the audit's t9 pair
    for seat in (1, 2):  # the others know there is a token, not its quest
        assert grail.observation_tensor(seat) == picts.observation_tensor(seat)
        assert _known_block(grail, seat) == {}
    # The evaluator reads neither: the layout before the block is the same.
    assert grail.evaluation_tensor(0) == picts.evaluation_tensor(0)

    looked = load_state({"players": 3, "options": {"knights_relief": True},
                         "loyalty": ["loyal", "traitor", "loyal"], "knights": {0: {"galahad": 1}}})
    looked.apply_text("galahad:1")
    assert looked.observation(0)["you"]["known_loyalties"] == {"1": "traitor"}
    assert _known_block(looked, 0) == {"known.loyalty.1.traitor": 1.0}
    assert _known_block(looked, 1) == _known_block(looked, 2) == {}

    tristan = load_state({"players": 3, "options": {"knights_relief": True},
                          "knights": {0: {"tristan": 1}},
                          "deck": {"grail-5": 1, "picts-4": 1, "mordred": 1, "picts-q": 1}})
    for text in ("play:tristan", "rumor:mordred", "rumor:picts-q", "rumor:grail-5",
                 "rumor:picts-4"):
        tristan.apply_text(text)
    assert tristan.observation(0)["you"]["deck_seen"] == ["mordred", "picts-q", "grail-5",
                                                          "picts-4"]
    assert _known_block(tristan, 0) == {
        "known.deck.top+0.mordred": 1.0, "known.deck.top+1.picts-q": 1.0,
        "known.deck.top+2.grail-5": 1.0, "known.deck.count.mordred": 0.25,
        "known.deck.count.picts-q": 0.25, "known.deck.count.grail-5": 0.25,
        "known.deck.count.picts-4": 0.25}
    assert _known_block(tristan, 1) == {}
    tristan.apply_text("listen")  # the Mordred is drawn: the next cards move up
    assert _known_block(tristan, 0) == {
        "known.deck.top+0.picts-q": 1.0, "known.deck.top+1.grail-5": 1.0,
        "known.deck.top+2.picts-4": 1.0, "known.deck.count.picts-q": 0.25,
        "known.deck.count.grail-5": 0.25, "known.deck.count.picts-4": 0.25}


def test_the_evaluator_reads_the_tensor_before_the_known_block() -> None:
    """The shipped network knows the 175 entries before the ``known`` block: the evaluator's
    view is exactly them, at every table (tests/test_evaluator.py checks their hash)."""
    from pendragon.games.soc_card.rules.view import EVALUATION_SIZE, TENSOR_NAMES

    assert EVALUATION_SIZE == 175
    assert all(name.startswith("known.") for name in TENSOR_NAMES[EVALUATION_SIZE:])
    assert not any(name.startswith("known.") for name in TENSOR_NAMES[:EVALUATION_SIZE])
    for players, options in ((1, {}), (5, {"knights_relief": True, "promos": True})):
        state = _play(players, 3, steps=0, **options)
        assert state.game.evaluation_tensor_size() == EVALUATION_SIZE
        rng = random.Random(3)
        for _ in range(150):
            if state.is_terminal():
                break
            for seat in range(players):
                assert state.evaluation_tensor(seat) == (
                    state.observation_tensor(seat)[:EVALUATION_SIZE])
            player = state.current_player()
            state.apply_action(state.sample_chance() if player == CHANCE
                               else rng.choice(state.legal_actions()))


def test_no_seat_tells_a_world_from_the_real_game_by_its_tensor() -> None:
    """Audit s34 finding 4: the ``known`` block shows only what the seat saw, so in a world
    ``resample_hidden(seat)`` draws, every seat's whole tensor is what it is in the real
    game, at every step of random expert games (Knight cards dealt at the start, so that
    Tristan, Galahad and Merlin #4's token come up), and it reads what the JSON view's
    ``you`` says."""
    shown: Counter[str] = Counter()
    for players, seed in ((3, 1), (4, 2), (5, 3), (7, 4)):
        state = load_state({"players": players, "options": {"knights_relief": True},
                            "knights": {s: {"tristan": 1, "galahad": 1} if s % 2 else
                                        {"tristan": 1, "gawain": 1} for s in range(2)}})
        state.play_random_chance()
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            player = state.current_player()
            if player != CHANCE:
                for seat in range(players):
                    tensor = state.observation_tensor(seat)
                    known = _known_block(state, seat)
                    assert known == _known_from_json(state.observation(seat)["you"])
                    shown.update(_part(name) for name in known)
                    world = state.resample_hidden(seat, random.Random(rng.random()))
                    assert world.observation_tensor(seat) == tensor, (players, seat)
                    assert world.evaluation_tensor(seat) == state.evaluation_tensor(seat)
            state.apply_action(state.sample_chance() if player == CHANCE
                               else rng.choice(state.legal_actions()))
    assert set(shown) == {"merlin_4_token", "loyalty", "deck.top", "deck.count"}, shown


@pytest.mark.parametrize(("change", "message"), [
    ({"history": [A.NUM_ACTIONS]}, "outside the catalog"),
    ({"rng_seed": -5}, "chance stream"),
    ({"deck": "12"}, "list of whole numbers"),
    ({"turn": 1.5}, "whole number"),
    ({"options": [9, False, False]}, "other options"),
])
def test_a_tampered_stored_state_is_refused(change: dict[str, Any], message: str) -> None:
    state = pendragon.load_game("soc-card", players=3, seed=2).new_initial_state()
    state.play_random_chance()
    data = json.loads(state.serialize())
    data.update(change)
    with pytest.raises(pendragon.CorruptStateError, match=message):
        state.game.deserialize_state(json.dumps(data))
    assert state.game.deserialize_state(state.serialize()).serialize() == state.serialize()
