"""Translations are complete in every language, and every narration is translatable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pendragon
from pendragon.bots import bot_names, make_bot
from pendragon.games.soc import actions as A
from pendragon.games.soc.cards import BLACK, KNIGHTS, LOCATION_KEYS, TRAVEL_KEYS, WHITE
from pendragon.web import i18n
from pendragon.web.adapters import adapter_for
from pendragon.web.adapters.soc import SocAdapter

STATIC = Path(i18n.__file__).resolve().parent / "static"
ENGLISH = i18n.load("en")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(language: str) -> None:
    assert i18n.problems(language) == []


@pytest.mark.parametrize("language", ["ru", "cs", "pl"])
def test_translations_are_translated_not_copied(language: str) -> None:
    table = i18n.load(language)
    same = [k for k, v in table.items() if v == ENGLISH[k] and not re.fullmatch(
        r"[{}\w:./ ()-]*|Pendragon|Sir \w+|Merlin|Mordred|Excalibur|Vivien|Merlin's Company", v)]
    # Proper names and pure placeholders may stay; real sentences may not.
    assert len(same) <= 12, same


def test_every_literal_key_the_pages_use_exists() -> None:
    used: set[str] = set()
    for path in STATIC.rglob("*.js"):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\"([a-z_.:-]+)\"", source))
        used |= set(re.findall(r"\btr\(ctx, \"([a-z_.:-]+)\"", source))
    assert len(used) > 80
    assert sorted(used - set(ENGLISH)) == []


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


def test_options_bots_decisions_results_and_errors_have_words() -> None:
    for spec in pendragon.game_class("soc").option_specs:
        if spec.name in ("players", "seed"):
            continue
        assert f"opt.soc.{spec.name}" in ENGLISH and f"opt.soc.{spec.name}.help" in ENGLISH
        for choice in spec.choices or ():
            assert f"opt.soc.{spec.name}.{'null' if choice is None else choice}" in ENGLISH
    for bot in bot_names():
        assert f"bot.{bot}" in ENGLISH
    sources = "".join(p.read_text() for p in (STATIC.parent).glob("*.py"))
    codes = set(re.findall(r"TableError\(\s*\"([a-z_]+)\"", sources))
    codes |= {c.value for c in pendragon.ErrorCode}
    assert sorted(c for c in codes if f"error.{c}" not in ENGLISH and c not in (
        "not_chance_node", "corrupt_state", "bad_fixture")) == []


def _play(seed: int, players: int, options: dict[str, object]) -> list[tuple[str, int | None]]:
    """Every (narration, viewer) of a random game."""
    game = pendragon.load_game("soc", players=players, seed=seed, **options)
    state = game.new_initial_state()
    bot = make_bot("random", seed)
    out: list[tuple[str, int | None]] = []
    while not state.is_terminal():
        player = state.current_player()
        action = state.sample_chance() if player == pendragon.CHANCE else bot.step(state)
        for viewer in [None, *range(len(state.returns()))]:
            out.append((state.describe_action(action, viewer), viewer))
        state.apply_action(action)
    return out


@pytest.mark.parametrize(
    ("seed", "players", "options"),
    [(1, 3, {}), (2, 5, {}), (3, 7, {"share": "random"}), (4, 4, {"no_traitor": True}),
     (5, 6, {"expansion": "merlins-company"}), (6, 8, {"expansion": "merlins-company"})],
)
def test_every_narration_becomes_a_translated_log_line(
    seed: int, players: int, options: dict[str, object]
) -> None:
    known = {spec.name for spec in pendragon.game_class("soc").option_specs}
    if not set(options) <= known:
        pytest.skip(f"the soc game has no option {sorted(set(options) - known)} yet")
    try:
        narrations = _play(seed, players, options)
    except pendragon.InvalidOptionError as error:
        pytest.skip(str(error))
    adapter = SocAdapter()
    unknown = set()
    for text, viewer in narrations:
        line = adapter.narrate(text, viewer, None)
        if "t" in line:
            unknown.add(text)
        else:
            assert f"soc.log.{line['k']}" in ENGLISH, line
    assert sorted(unknown) == []


def test_a_private_line_is_never_given_to_another_seat() -> None:
    adapter = SocAdapter()
    for text, viewer in _play(9, 5, {}):
        line = adapter.narrate(text, viewer, None)
        if line.get("k") in ("draw-white-known", "draw-black-known", "dealt-loyalty-known"):
            assert viewer is not None and line["p"]["seat"] == viewer


def test_a_game_without_an_adapter_keeps_its_own_words() -> None:
    adapter = adapter_for("grail-cup-to-come")
    assert adapter.narrate("Seat 1 rolls a 6", 0, 1) == {"t": "Seat 1 rolls a 6"}
    assert adapter.chat_open(None) is True
