"""The attacks of issue 17 (items 1-3, "who may sit where") as a user would try them in a
real browser (Debian's Chromium driven by Playwright), each refused: in the page, which
does not offer the move, and at the API the page talks to, which refuses it when the user
sends it by hand. docs/web.md, "Seats that change hands".

Screenshots are saved only when ``PENDRAGON_ARTIFACTS`` names a folder (``tests/web/browser.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pendragon.i18n import catalog
from tests.web.browser import needs_chromium, shot
from tests.web.support import ServerProcess

pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

pytestmark = needs_chromium

ENGLISH = catalog("en")
ANN_BOB_AND_TWO_BOTS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"},
                        {"kind": "bot"}, {"kind": "bot"}]


@pytest.fixture(scope="module")
def server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server process for the module's tests, each at tables of its own (issue 41 item
    4: a server process per test cost a start each)."""
    database = tmp_path_factory.mktemp("tables") / "tables.sqlite3"
    process = ServerProcess(f"sqlite:///{database}").start()
    yield process
    process.stop()


class Person:
    """One person: a browser context of his own (his storage, his links), one page, and
    every WebSocket frame the page received."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000},
                                           locale="en-GB")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.frames.append(str(payload))))

    def open(self, base: str, link: str) -> Any:
        """Open a table link and wait for the board."""
        # A link may differ from the last only in its fragment: the page would load it by
        # itself (issue 39, item 4); a blank page between keeps it one plain load.
        self.page.goto("about:blank")
        self.page.goto(base + link if link.startswith("/") else link)
        self.page.wait_for_selector("[data-testid=board] svg")
        return self.page

    def post(self, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
        """What the user could send by hand from his page (the browser's fetch): the
        status and the error code."""
        return self.page.evaluate(
            """async ([path, token, body]) => {
                 const response = await fetch(path, { method: "POST",
                   headers: { "Content-Type": "application/json",
                              Authorization: `Bearer ${token}` },
                   body: JSON.stringify(body) });
                 const answer = await response.json();
                 return [response.status, answer.error ? answer.error.code : null];
               }""",
            [path, token, body or {}],
        )

    def observed_seats(self) -> set[Any]:
        """The seats whose observations the page received (None: the spectators')."""
        seats = set()
        for frame in self.frames:
            message = json.loads(frame)
            if message.get("type") == "state":
                seats.add(message["observation"].get("seat"))
        return seats

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], f"the page raised errors: {self.errors}"


@pytest.fixture
def people(browser: Any) -> Iterator[Any]:
    made: list[Person] = []

    def person() -> Person:
        made.append(Person(browser))
        return made[-1]

    yield person
    for each in made:
        each.close()


def create(base: str, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    response = httpx.post(base + "/api/tables", json={"game": "soc", "seats": seats, **fields},
                          trust_env=False, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def seat_text(page: Any, seat: int) -> str:
    text: str = page.locator(f"[data-testid=seat-{seat}]").inner_text()
    return text


def test_item_1_the_spectator_link_cannot_take_a_bot_seat_to_read_it(
    people: Any, server_process: ServerProcess
) -> None:
    base = server_process.base
    created = create(base, ANN_BOB_AND_TWO_BOTS)
    spectator = created["spectator"]["token"]
    watcher = people()
    page = watcher.open(base, created["spectator"]["link"])
    assert page.locator("[data-testid=role]").inner_text() == ENGLISH.text("table.spectating")
    # The page offers no seat to a spectator...
    assert page.locator("[data-testid^=take-], [data-testid^=invite-]").count() == 0
    # ...and the request sent by hand is refused, with nothing changed.
    assert watcher.post("/api/table/seats/2/take", spectator, {"name": "Mordred"}) \
        == [403, "forbidden"]
    assert watcher.post("/api/table/seats/2/invite", spectator) == [403, "forbidden"]
    page.reload()
    page.wait_for_selector("[data-testid=board] svg")
    assert "Mordred" not in seat_text(page, 2)
    assert page.locator("[data-testid=role]").inner_text() == ENGLISH.text("table.spectating")
    shot(page, "seats-item1-spectator")
    # The host link, given to the creator, is no way in either: it sees what spectators see.
    host = people()
    hosted = host.open(base, created["host"]["link"])
    assert hosted.locator("[data-testid=role]").inner_text() == ENGLISH.text("table.hosting")
    assert hosted.locator("[data-testid=invite-2]").count() == 1
    assert watcher.observed_seats() == {None} and host.observed_seats() == {None}


def test_item_2_a_seat_handed_to_a_bot_stays_its_owners_and_nobody_holds_two(
    people: Any, server_process: ServerProcess
) -> None:
    base = server_process.base
    created = create(base, ANN_BOB_AND_TWO_BOTS)
    ann_token, bob_token = created["seats"][0]["token"], created["seats"][1]["token"]
    host_token = created["host"]["token"]
    bob = people()
    bob_page = bob.open(base, created["seats"][1]["link"])
    bob_page.click("[data-testid=give-bot-1]")
    # The page names no bot, so the server seats the game's table bot (soc: stealth), the
    # first of the game's list.
    games = httpx.get(base + "/api/games", trust_env=False).json()["games"]
    first_bot = next(g for g in games if g["name"] == "soc")["bots"][0]
    assert first_bot == "stealth"
    bot_name = ENGLISH.text(f"bot.{first_bot}")
    kept = ENGLISH.text("table.status_kept", bot=bot_name)
    bob_page.wait_for_function(
        "text => document.querySelector('[data-testid=seat-1]').innerText.includes(text)", arg=kept)
    # A spectator sees the seat kept for Bob, with nothing to take; by hand: refused.
    spectator = people()
    seen = spectator.open(base, created["spectator"]["link"])
    assert kept in seat_text(seen, 1) and seen.locator("[data-testid=take-1]").count() == 0
    assert spectator.post("/api/table/seats/1/take", created["spectator"]["token"]) \
        == [403, "forbidden"]
    # The host may seat people at the free bot seats, never at Bob's.
    host = people()
    hosted = host.open(base, created["host"]["link"])
    assert hosted.locator("[data-testid=invite-1]").count() == 0
    assert hosted.locator("[data-testid=invite-2]").count() == 1
    assert host.post("/api/table/seats/1/take", host_token) == [409, "seat_owned"]
    # Ann (who plays seat 0 in her browser) opens an invitation to seat 2 there: refused.
    ann = people()
    ann.open(base, created["seats"][0]["link"])
    hosted.click("[data-testid=invite-2]")
    invitation = hosted.locator("[data-testid=invite-link-2]").input_value()
    ann_page = ann.open(base, invitation)
    ann_page.wait_for_selector("[data-testid=one-seat-only]")
    assert ann_page.locator("[data-testid=take-confirm]").count() == 0
    invitation_token = invitation.split("#", 1)[1]
    assert ann.post("/api/table/seats/2/take", invitation_token, {"held": [ann_token]}) \
        == [403, "holds_seat"]
    assert ann.post("/api/table/seats/2/take", ann_token) == [403, "holds_seat"]
    shot(ann_page, "seats-item2-one-seat-only")
    # Bob's own link takes his seat back; the table was told of both changes of hands.
    bob_page.click("[data-testid=reclaim]")
    bob_page.wait_for_function(
        "text => !document.querySelector('[data-testid=seat-1]').innerText.includes(text)",
        arg=kept)
    # The seat row and the log line are separate messages: wait for the line, do not read
    # the log the moment the row changes.
    reclaimed = ENGLISH.text("table.event.reclaim.you")
    bob_page.wait_for_function(
        "text => document.querySelector('[data-testid=log]').innerText.includes(text)",
        arg=reclaimed)
    log = bob_page.locator("[data-testid=log]").inner_text()
    assert ENGLISH.text("table.event.to-bot.you", bot=bot_name) in log
    assert reclaimed in log
    shot(bob_page, "seats-item2-reclaimed")
    assert bob.observed_seats() == {1} and spectator.observed_seats() == {None}
    assert ann.observed_seats() <= {0, None}
    assert bob_token != ann_token


def test_item_3_joining_mid_game_is_off_by_default_and_needs_the_host(
    people: Any, server_process: ServerProcess
) -> None:
    base = server_process.base
    creator = people()
    lobby = creator.page
    lobby.goto(base + "/")
    lobby.wait_for_selector("[data-testid=game] option", state="attached")
    lobby.select_option("[data-testid=game]", "soc")
    # The lobby's option, off by default...
    assert lobby.locator("[data-testid=join-mid-game]").is_checked() is False
    lobby.select_option("[data-testid=seat-count]", "3")
    lobby.click("[data-testid=create]")
    host_link = lobby.locator("[data-testid=link-host]").input_value()
    spectator_link = lobby.locator("[data-testid=link-spectator]").input_value()
    shot(lobby, "seats-item3-lobby-links")
    # ...so nobody joins: the spectator page offers no join, and by hand it is refused.
    stranger = people()
    page = stranger.open(base, spectator_link)
    assert page.locator("[data-testid=join-name]").count() == 0
    spectator = spectator_link.split("#", 1)[1]
    assert stranger.post("/api/table/join", spectator, {"name": "Mordred"}) == [403, "forbidden"]
    host = creator
    hosted = host.open(base, host_link)
    assert hosted.locator("[data-testid=join-name], [data-testid=invite-join]").count() == 0
    host_token = host_link.split("#", 1)[1]
    assert host.post("/api/table/join", host_token) == [409, "join_off"]
    assert host.post("/api/table/join/invite", host_token) == [409, "join_off"]
    hosted.reload()
    hosted.wait_for_selector("[data-testid=board] svg")
    assert hosted.locator("[data-testid^=seat-]").count() == 3
    # A game that seats nobody mid-game does not offer the option at all.
    lobby = people().page
    lobby.goto(base + "/")
    lobby.wait_for_selector("[data-testid=game] option", state="attached")
    lobby.select_option("[data-testid=game]", "soc-card")
    assert lobby.locator("[data-testid=join-mid-game]").count() == 0


def test_item_2_a_seat_given_up_in_the_page_goes_to_the_games_table_bot(
    people: Any, server_process: ServerProcess
) -> None:
    """"Give up my seat" names no bot: the server seats the game's table bot (soc: the
    stealth traitor), the seat is nobody's, and the link is retired."""
    base = server_process.base
    created = create(base, ANN_BOB_AND_TWO_BOTS)
    ann_token, spectator = created["seats"][0]["token"], created["spectator"]["token"]
    ann = people()
    page = ann.open(base, created["seats"][0]["link"])
    page.click("[data-testid=leave]")
    page.click("[data-testid=leave-confirm]")
    gone = ENGLISH.text("error.seat_left")
    page.wait_for_function("text => document.body.innerText.includes(text)", arg=gone)
    table = httpx.get(base + "/api/table", headers={"Authorization": f"Bearer {spectator}"},
                      trust_env=False, timeout=10).json()["table"]
    assert {k: table["seats"][0][k] for k in ("controller", "bot", "owned")} == {
        "controller": "bot", "bot": "stealth", "owned": False}
    retired = httpx.get(base + "/api/table", headers={"Authorization": f"Bearer {ann_token}"},
                        trust_env=False, timeout=10)
    assert retired.status_code == 401 and retired.json()["error"]["code"] == "seat_left"
