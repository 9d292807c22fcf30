"""End-to-end (Debian's Chromium driven by Playwright): what players of online board game
sites expect (issue 17, item 10). A host lists a table in the lobby, a second browser sits
at its free seat from the lobby's list and plays; the tab's title says whose turn it is;
the turn timer counts down; what changed is marked; a finished game's "Rematch" leads every
player to his own seat at a new table.

Screenshots are saved only when ``PENDRAGON_ARTIFACTS`` names a folder (``tests/web/browser.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.web.browser import GAME_SECONDS, needs_chromium, shot
from tests.web.support import FAST, LiveServer, auth, live_server

playwright_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

pytestmark = needs_chromium

YOUR_TURN = "● Your turn"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'tables.sqlite3'}"
    with live_server(url, FAST) as running:
        yield running


def new_page(browser: Any, errors: list[str]) -> Any:
    """A page in a browser context of its own (another player's browser)."""
    context = browser.new_context(viewport={"width": 1400, "height": 950}, locale="en-GB")
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def click_a_move(page: Any) -> bool:
    """Click the first enabled move button, if the page shows any."""
    buttons = page.locator("button[data-testid=action]:not([disabled])")
    if buttons.count() == 0:
        return False
    try:
        buttons.first.click(timeout=2000)
    except playwright_api.Error:
        return False  # the page moved on under the pointer
    return True


def test_a_listed_table_is_found_in_the_lobby_and_a_second_browser_sits_and_plays(
    browser: Any, server: LiveServer,
) -> None:
    errors: list[str] = []
    host = new_page(browser, errors)
    host.goto(server.base + "/")
    host.wait_for_selector("[data-testid=game] option", state="attached")
    bots = "os => os.map(o => o.value)"
    # Each game offers the generic bots and its own: soc's stealth traitor, for soc alone.
    host.select_option("[data-testid=game]", "grail-cup")
    assert host.eval_on_selector_all("[data-testid=seat-bot-1] option", bots) == [
        "heuristic", "ismcts", "random"]
    host.select_option("[data-testid=game]", "soc")
    host.select_option("[data-testid=seat-count]", "3")
    assert host.eval_on_selector_all("[data-testid=seat-bot-2] option", bots) == [
        "stealth", "heuristic", "ismcts", "random"]
    assert host.input_value("[data-testid=seat-bot-1]") == "stealth"  # soc's table bot
    host.select_option("[data-testid=seat-bot-2]", "stealth")
    host.fill("[data-testid=seat-name-0]", "Ann")
    # A seat left open to anyone: the only kind the lobby offers (issue 27, item 2).
    host.select_option("[data-testid=seat-kind-1]", "open")
    host.check("[data-testid=listed]")
    host.select_option("[data-testid=turn-timer]", "300")
    host.check("[data-testid=hints]")  # the coach's hints, allowed from the lobby (issue 31)
    host.click("[data-testid=create]")
    ann_link = host.locator("[data-testid=link-seat-0]").input_value()
    table_id = ann_link.split("#", 1)[1].split(".", 1)[0]
    host.goto(ann_link)  # Ann opens her seat: it is hers, no longer free
    host.wait_for_selector("[data-testid=board] svg")
    with server.http() as http:
        seats = http.get("/api/table", headers=auth(ann_link.split("#", 1)[1])).json()
    assert seats["table"]["seats"][2]["bot"] == "stealth"
    assert seats["state"]["hints"] is True
    host.wait_for_selector("[data-testid=hints-status][data-allowed=true]")

    guest = new_page(browser, errors)
    guest.goto(server.base + "/")
    entry = guest.locator(f"[data-testid=open-table][data-table='{table_id}']")
    entry.wait_for()
    assert "Shadows over Camelot" in entry.inner_text()
    assert "300 s per decision" in entry.inner_text()
    assert entry.locator(f"[data-testid=sit-{table_id}-0]").count() == 0, "Ann's seat is hers"
    shot(guest, "lobby-open-tables")
    guest.fill("[data-testid=sitter-name]", "Bob")
    guest.click(f"[data-testid=sit-{table_id}-1]")
    guest.wait_for_selector("[data-testid=board] svg")
    assert "seat 2" in guest.locator("[data-testid=role]").inner_text()
    host.wait_for_function("() => [...document.querySelectorAll('[data-testid=seat-1]')]"
                           ".some(n => n.textContent.includes('Bob'))")

    # They play: the tab's title tells each his turn; the timer counts down.
    bob_moves = 0
    seen_titles = {"host": False, "guest": False}
    deadline = time.monotonic() + GAME_SECONDS
    while bob_moves < 3:
        assert time.monotonic() < deadline, "Bob never got to play three moves"
        for name, page in (("host", host), ("guest", guest)):
            if page.locator("button[data-testid=action]:not([disabled])").count():
                page.wait_for_function(f"() => document.title.startsWith({YOUR_TURN!r})")
                other = guest if page is host else host
                # One seat acts at a time: the other tab leaves "your turn" as soon as its
                # own copy of the move arrives (the two tabs are told one after the other).
                other.wait_for_function(
                    f"() => !document.title.startsWith({YOUR_TURN!r})", timeout=10_000)
                assert page.locator("[data-testid=turn-timer]").inner_text().startswith(
                    "Your time:")
                seen_titles[name] = True
                if click_a_move(page) and page is guest:
                    bob_moves += 1
        guest.wait_for_timeout(30)
    assert seen_titles == {"host": True, "guest": True}
    # What changed is marked for the eye (new log lines glow).
    guest.wait_for_selector("[data-testid=log] .pd-new", state="attached")
    shot(guest, "lobby-guest-plays")
    # The seat Bob took is no longer offered.
    listed = httpx.get(server.base + "/api/lobby", trust_env=False).json()["tables"]
    assert table_id not in [t["table"] for t in listed]
    for page in (host, guest):
        page.context.close()
    assert errors == []


def play_to_the_end_over_http(server: LiveServer, token: str) -> None:
    deadline = time.monotonic() + GAME_SECONDS
    with server.http() as http:
        while time.monotonic() < deadline:
            state = http.get("/api/table", headers=auth(token)).json()["state"]
            if state["finished"]:
                return
            if state["legal"]:
                http.post("/api/table/move", headers=auth(token),
                          json={"version": state["version"], "action": state["legal"][0]["id"]})
            else:
                time.sleep(0.01)
    raise AssertionError("the game did not end")


def test_the_rematch_button_leads_every_player_to_a_new_table(
    browser: Any, server: LiveServer,
) -> None:
    with server.http() as http:
        response = http.post("/api/tables", json={"game": "soc", "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}]})
        assert response.status_code == 201, response.text
        created = response.json()
    ann_token = created["seats"][0]["token"]
    play_to_the_end_over_http(server, ann_token)

    errors: list[str] = []
    ann = new_page(browser, errors)
    watcher = new_page(browser, errors)
    ann.goto(f"{server.base}/table#{ann_token}")
    watcher.goto(server.base + created["spectator"]["link"])
    ann.wait_for_selector("[data-testid=result]")
    assert not ann.title().startswith(YOUR_TURN)
    ann.click("[data-testid=rematch]")
    link = ann.locator("[data-testid=rematch-link]")
    link.wait_for()
    # The spectator's page is told too, and gets the spectators' link of the new table.
    watcher.locator("[data-testid=rematch-link]").wait_for()
    shot(ann, "rematch-offered")
    link.click()
    ann.wait_for_function(f"() => !location.hash.startsWith('#{created['table']}.')")
    ann.wait_for_selector("[data-testid=board] svg")
    new_table = ann.evaluate("() => location.hash.slice(1).split('.')[0]")
    assert new_table != created["table"]
    assert "seat 1" in ann.locator("[data-testid=role]").inner_text()
    assert ann.locator("[data-testid=result]").count() == 0, "a new game"
    with server.http() as http:
        again = http.get("/api/table/rematch", headers=auth(ann_token)).json()
    assert again["table"] == new_table
    for page in (ann, watcher):
        page.context.close()
    assert errors == []


def test_with_reduced_motion_what_changed_is_outlined_and_nothing_moves(
    browser: Any, server: LiveServer,
) -> None:
    # Item 10's animation respects the player's prefers-reduced-motion.
    with server.http() as http:
        response = http.post("/api/tables", json={"game": "soc", "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}]})
        assert response.status_code == 201, response.text
        token = response.json()["seats"][0]["token"]
    context = browser.new_context(viewport={"width": 1400, "height": 950}, locale="en-GB",
                                  reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/table#{token}")
    page.wait_for_selector("[data-testid=board] svg")
    moves = 0
    deadline = time.monotonic() + GAME_SECONDS
    while moves < 4 and page.locator("[data-testid=result]").count() == 0:
        assert time.monotonic() < deadline, "Ann never got to move"
        if click_a_move(page):
            moves += 1
        page.wait_for_timeout(30)
    page.wait_for_selector("[data-testid=log] .pd-new", state="attached")
    assert page.evaluate("() => document.getAnimations().length") == 0
    context.close()
    assert errors == []
