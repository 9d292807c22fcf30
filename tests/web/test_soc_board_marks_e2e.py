"""What the soc board shows of cards the table saw played (Chromium, desktop and phone):

* a "?" Fight card on a quest reads "?4", not a plain 4 (MC-W-FIGHT-ANY): across the
  table it is a "?" card, and it goes to the discard as one;
* a black card laid face down on a combat quest says, in its tip, who laid it: the whole
  table saw him lay it (SOC-BLACK-2, SOC-RULING-34).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pendragon.games.soc.rules.fixtures import load_state
from pendragon.games.soc.rules.game import SocGame
from pendragon.i18n import catalog
from tests.web.browser import choose_action, needs_chromium
from tests.web.test_table_readability_e2e import create, page, seeded_server, shot

pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

pytestmark = needs_chromium

__all__ = ["page"]  # the fixture, at a desktop's and a phone's size

ENGLISH = catalog("en")

ANN_AT_THE_PICTS = {
    "players": 3,
    "options": {"expansion": "merlins-company"},
    "knights": [{"location": "picts", "hand": {"fight-any": 1, "grail": 2}}, {}, {}],
    "quests": {"picts": {"white": ["fight-1"]},
               "black-knight": {"black": [{"card": "black-knight-5", "face_down_by": 1}]}},
    "turn": {"seat": 0, "phase": "heroic"},
}


def slot_labels(page: Any, quest: str) -> list[str]:
    labels: list[str] = page.evaluate(
        """(quest) => [...document.querySelectorAll(`[data-quest=${quest}] .slot.white`)]
             .map((s) => s.querySelector('text').textContent)""", quest)
    return labels


def test_a_wild_fight_card_and_a_face_down_card_show_what_the_table_saw(
    page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SocGame, "new_initial_state", lambda self: load_state(ANN_AT_THE_PICTS))
    with seeded_server(tmp_path, bot_delay=30.0) as server:  # the bots wait: Ann looks
        created = create(server, "soc", [{"kind": "human", "name": "Ann"},
                                         {"kind": "human", "name": "Bob"}, {"kind": "bot"}])
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        hidden = page.locator("[data-quest=black-knight] .slot.hidden title")
        hidden.wait_for(state="attached")
        tip = hidden.text_content()
        assert tip is not None and "Bob" in tip, tip
        assert tip.startswith(ENGLISH.text("soc.board.face_down_by", seat="Bob").split("Bob")[0])
        assert slot_labels(page, "picts") == ["1"]
        for move in ("play:fight-any", "value:4"):
            page.wait_for_selector(f'button[data-testid=action][data-action="{move}"]')
            choose_action(page, move)
        page.wait_for_function(
            "() => document.querySelectorAll('[data-quest=picts] .slot.white').length === 2")
        assert slot_labels(page, "picts") == ["1", "?4"]
        wild = page.locator("[data-quest=picts] .slot.white title")
        assert wild.text_content() == ENGLISH.text("soc.board.any_card", value=4)
        shot(page, "soc-marks")


def test_the_board_says_accusations_are_open_once_six_engines_stood(
    page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SOC-ACCUSE-1, SOC-RULING-5: with 4 engines standing after 6 stood, the realm's
    panel carries an "Accusations open" badge with its reason in the tip, inside the
    panel; the accusation is among Ann's actions."""
    fixture = {"players": 3, "siege_engines": 4, "siege_reached_six": True,
               "turn": {"seat": 0, "phase": "heroic"}}
    monkeypatch.setattr(SocGame, "new_initial_state", lambda self: load_state(fixture))
    with seeded_server(tmp_path, bot_delay=30.0) as server:
        created = create(server, "soc", [{"kind": "human", "name": "Ann"},
                                         {"kind": "human", "name": "Bob"}, {"kind": "bot"}])
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        label = ENGLISH.text("soc.board.accusations_open")
        badge = page.locator(".b-effect", has_text=label)
        badge.wait_for(state="attached")
        assert badge.locator("title").text_content() == ENGLISH.text(
            "soc.board.accusations_open_tip")
        inside: bool = page.evaluate(
            """(label) => {
                 const g = [...document.querySelectorAll('.b-effect')]
                   .find((e) => e.textContent.startsWith(label));
                 const rect = g.querySelector('rect').getBBox();
                 const panel = g.parentNode.getBBox();
                 return rect.x >= panel.x && rect.x + rect.width <= panel.x + panel.width;
               }""", label)
        assert inside
        page.wait_for_selector('button[data-testid=action][data-action="accuse:1"]',
                               state="attached")
        shot(page, "soc-accusations-open")
