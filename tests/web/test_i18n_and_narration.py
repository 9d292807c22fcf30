"""The pages' words: complete catalogs, every key the pages use, every event wordable; and
the log a seat receives is exactly the rules' narration for that seat."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import pendragon
from pendragon.bots import bot_names, make_bot
from pendragon.core.events import Event, Term
from pendragon.core.plugins import installed_plugins
from pendragon.games.soc.rules import actions as A
from pendragon.games.soc.rules.cards import BLACK, KNIGHTS, LOCATION_KEYS, TRAVEL_KEYS, WHITE
from pendragon.i18n import LANGUAGES, catalog, problems
from pendragon.web import server as web_server
from pendragon.web.adapters import GameAdapter, adapter_for
from tests.web.support import LiveServer, auth

WEB = Path(web_server.__file__).resolve().parent
STATIC = WEB / "static"
ENGLISH = catalog("en")


def page_sources() -> dict[Path, str]:
    """The ES modules of the pages: the framework's and Shadows over Camelot's board.

    (Other plugins check their own board modules' keys.)
    """
    board = installed_plugins()["soc"].web_module_path()
    assert board is not None
    paths = [*STATIC.rglob("*.js"), board]
    return {path: path.read_text(encoding="utf-8") for path in paths}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(language: str) -> None:
    assert problems(language).all() == []


def test_the_pages_get_the_catalog_with_plural_forms_by_category() -> None:
    russian = catalog("ru").for_page()
    assert russian["app.title"] == "Pendragon"
    assert set(russian["core.cards"]) >= {"one", "few", "many"}


def test_every_literal_key_the_pages_use_exists() -> None:
    used: set[str] = set()
    for source in page_sources().values():
        used |= set(re.findall(r"\bt\(\"([a-z_.:-]+)\"", source))
        used |= set(re.findall(r"\btr\(ctx, \"([a-z_.:-]+)\"", source))
    assert len(used) > 80
    assert sorted(used - set(ENGLISH.messages)) == []


def test_the_board_module_words_no_actions_or_log_lines() -> None:
    # Those are events now, worded by the page's one renderer (static/js/i18n.js).
    board = installed_plugins()["soc"].web_module_path()
    assert board is not None
    source = board.read_text(encoding="utf-8")
    for gone in ("actionLabel", "logText", "CARD_KIND", "actionParams"):
        assert gone not in source
    # It may name a log event to leave out a sentence that repeats another (issue 39,
    # item 10: `compactEvents`), but never words one.
    assert not re.search(r"\b(tr|t|say)\(ctx, [\"'`]soc\.log\.", source)
    assert not re.search(r"ctx\.t\([\"'`]soc\.log\.", source)


def test_every_card_knight_place_and_travel_card_has_a_name_and_text() -> None:
    for card in WHITE:
        assert f"soc.white.{card.key}" in ENGLISH and f"soc.white.{card.key}.text" in ENGLISH
    for black in BLACK:
        assert f"soc.black.{black.key}" in ENGLISH and f"soc.black.{black.key}.text" in ENGLISH
    for knight in KNIGHTS:
        assert f"soc.knight.{knight.key}" in ENGLISH
        assert f"soc.knight.{knight.key}.ability" in ENGLISH
    for key in LOCATION_KEYS:
        assert f"soc.place.{key}" in ENGLISH
    for key in TRAVEL_KEYS:
        assert f"soc.travel.{key}" in ENGLISH


def test_every_action_of_the_catalog_has_words() -> None:
    missing = []
    for action in range(A.NUM_ACTIONS):
        text = A.CATALOG.text(action)
        prefix = text.split(":")[0]
        if f"soc.action.{text}" not in ENGLISH and f"soc.action.{prefix}" not in ENGLISH:
            missing.append(text)
    assert missing == []


def test_games_options_bots_and_errors_have_words() -> None:
    for name in pendragon.registered_games():
        assert f"game.{name}" in ENGLISH
    for spec in pendragon.game_class("soc").option_specs:
        if spec.name in ("players", "seed"):
            continue
        assert f"opt.soc.{spec.name}" in ENGLISH and f"opt.soc.{spec.name}.help" in ENGLISH
        for choice in spec.choices or ():
            assert f"opt.soc.{spec.name}.{'null' if choice is None else choice}" in ENGLISH
    for name in pendragon.registered_games():
        for bot in bot_names(name):
            assert f"bot.{bot}" in ENGLISH
    sources = "".join(p.read_text() for p in WEB.glob("*.py"))
    codes = set(re.findall(r"TableError\(\s*\"([a-z_]+)\"", sources))
    codes |= {c.value for c in pendragon.ErrorCode}
    assert sorted(c for c in codes if f"error.{c}" not in ENGLISH and c not in (
        "not_chance_node", "corrupt_state", "bad_fixture")) == []


def _events_of_a_game(seed: int, players: int, options: dict[str, object]) -> list[Event]:
    """Every event a random game narrates, labels or awaits, for every viewer."""
    game = pendragon.load_game("soc", players=players, seed=seed, **options)
    state = game.new_initial_state()
    bot = make_bot("random", seed)
    out: list[Event] = []
    while not state.is_terminal():
        out.append(state.decision_event())
        player = state.current_player()
        if player >= 0:
            out += [state.action_event(a) for a in state.legal_actions()]
        action = state.sample_chance() if player == pendragon.CHANCE else bot.step(state)
        for viewer in [None, *range(players)]:
            out += state.narrate(action, viewer)
        state.apply_action(action)
    return out


@pytest.mark.parametrize(
    ("seed", "players", "options"),
    [(1, 3, {}), (2, 5, {}), (3, 7, {"share": "random"}), (4, 4, {"no_traitor": True}),
     (5, 6, {"expansion": "merlins-company"}), (6, 8, {"expansion": "merlins-company"})],
)
def test_every_event_of_a_game_is_worded_in_every_language(
    seed: int, players: int, options: dict[str, object]
) -> None:
    events = set(_events_of_a_game(seed, players, options))
    keys = {key for event in events for key in event.message_keys()}
    assert sorted(keys - set(ENGLISH.messages)) == []
    for language in LANGUAGES:
        words = catalog(language)
        for event in events:
            for viewer in (None, 0):
                assert "{" not in words.render(event, viewer=viewer), (language, event)


def test_the_table_joins_with_the_rules_own_join_event() -> None:
    state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    state.play_random_chance()
    adapter = adapter_for("soc")
    join = adapter.add_seat_action(state)
    assert join is not None
    assert [e.key for e in state.narrate(join, None)] == ["soc.log.join"]


def test_a_game_without_a_plugin_adapter_gets_the_generic_one() -> None:
    adapter = adapter_for("grail-cup-to-come")
    assert type(adapter) is GameAdapter and adapter.game == "grail-cup-to-come"
    assert adapter.chat_open(None) is True
    assert not hasattr(adapter, "narrate"), "narration comes from the rules, not the adapter"


# ---------------------------------------------------------------------- log lines on the wire
#: Events naming a card (or loyalty) that only some seats know.
PRIVATE_KEYS = {"soc.log.draw-white-known", "soc.log.draw-black-known",
                "soc.log.dealt-loyalty-known", "soc.log.take-card-known"}


def _card_terms(events: list[dict[str, Any]]) -> set[str]:
    terms: set[str] = set()
    for data in events:
        for key in Event.from_json(data).message_keys():
            if key.startswith(("soc.white.", "soc.black.", "soc.loyalty.")):
                terms.add(key)
    return terms


def test_a_seats_log_is_exactly_the_rules_narration_for_that_seat(server: LiveServer) -> None:
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Bo", "Cy")]
    rng = random.Random(8)
    with server.http() as http:
        created = server.create(http, seats)
        tokens = [s["token"] for s in created["seats"]]
        spectator = created["spectator"]["token"]
        actor = http.get("/api/table", headers=auth(spectator)).json()["state"]["to_act"]
        moves = 0
        while actor is not None and moves < 120:
            # The actor's own view: his moves, and (public) who acts after his move.
            state = http.get("/api/table", headers=auth(tokens[actor])).json()["state"]
            if state["to_act"] != actor:
                actor = state["to_act"]
                continue
            move = rng.choice(state["legal"])
            response = http.post("/api/table/move", headers=auth(tokens[actor]),
                                 json={"version": state["version"], "action": move["id"]})
            assert response.status_code == 200, response.text
            moves += 1
        logs = [http.get("/api/table", headers=auth(t)).json()["state"]["log"]
                for t in [*tokens, spectator]]
    table = server.manager.tables[created["table"]]
    # The same game, rebuilt from its seed and history, narrated for each viewer.
    state = pendragon.load_game("soc", players=3, seed=table.seed).new_initial_state()
    viewers: list[int | None] = [0, 1, 2, None]
    private_drawn = 0
    for index, action in enumerate(table.state.history()[: len(logs[0])]):
        expected = [[e.to_json() for e in state.narrate(action, v)] for v in viewers]
        player = state.current_player()
        for viewer, log, events in zip(viewers, logs, expected, strict=True):
            assert log[index] == {"i": index, "s": player if player >= 0 else None,
                                  "events": events}, (viewer, index)
        public = expected[-1]
        assert not {e["k"] for e in public} & PRIVATE_KEYS
        for seat_events in expected[:-1]:
            if seat_events != public:
                # The spectators learn no card that not every seat learns.
                assert _card_terms(public) <= _card_terms(seat_events)
                private_drawn += bool(_card_terms(seat_events) - _card_terms(public))
        state.replay([action])
    assert private_drawn >= 6, "the game drew cards only their drawers know"


def test_the_card_text_of_an_action_is_reachable_through_its_terms() -> None:
    # The page shows a card's text as the tooltip of the action naming it: a term whose
    # key + ".text" exists (static/js/i18n.js eventHint).
    state = pendragon.load_game("soc", players=3, seed=2).new_initial_state()
    state.play_random_chance()
    labels = [state.action_event(a) for a in state.legal_actions()]
    terms = [v for e in labels for v in e.params.values() if isinstance(v, Term)]
    assert any(f"{t.key}.text" in ENGLISH for t in terms)


def test_a_reviewed_move_carries_the_label_events_of_its_moves() -> None:
    """Issue 39, item 6: the review's tooltips showed ``dragon:24`` and ``keep:blacksmith``
    on Russian, Polish and Czech pages. Each reviewed move now carries the label events of
    the move played and the coach's move, as the state then words them (the page renders
    them in its language), and the Russian words of one are not its action text."""
    from pendragon.web.narration import with_move_labels

    game = pendragon.load_game("grail-cup", players=2, seed=5)
    state = game.new_initial_state()
    rng = random.Random(5)
    actions: list[int] = []
    expected: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
    texts: dict[int, str] = {}
    moves = []
    while not state.is_terminal() and len(actions) < 60:
        legal = state.legal_actions()
        action = rng.choice(legal) if state.current_player() >= 0 else state.sample_chance()
        if state.current_player() >= 0 and len(legal) > 1:
            best = legal[0]
            expected[len(actions)] = (state.action_event(action).to_json(),
                                      state.action_event(best).to_json())
            texts[len(actions)] = state.action_to_string(action)
            moves.append({"index": len(actions), "played": action, "best": best})
        actions.append(action)
        state.apply_action(action)
    assert len(moves) > 3
    found: dict[str, Any] = {"moves": moves}
    with_move_labels(game, actions, found)
    russian = catalog("ru")
    for move in found["moves"]:
        assert (move["played_label"], move["best_label"]) == expected[move["index"]]
        worded = russian.render(Event.from_json(move["played_label"]), lambda s: f"Место {s}")
        assert worded and worded != texts[move["index"]] and "{" not in worded, worded
