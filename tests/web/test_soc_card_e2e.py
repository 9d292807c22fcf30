"""Shadows over Camelot: The Card Game in a real browser (Debian's Chromium via Playwright).

A human seat plays whole games against bots by clicking the page's buttons, as the board
game's browser tests do. The table's seed is chosen (``Settings.seed_source``) by replaying
the same game offline first (``tests.test_soc_card_tables.play_offline``: the bots are
seeded from the table's seed, the human's clicks from a seeded policy), so the game is known
to pass through Morgan's silence and Morgan #1's announcement at the human's turn. At every
one of the human's turns the page is checked against the observation it was sent: the pile's
count and top card, the quests the top card opens, the swords, the loyalty cards shown
(never another seat's hidden one), the chat closed with its reason under the silence
(SCG-MORGAN-0, SCG-RULING-7). The replay then shows every secret.

Screenshots are saved only when ``PENDRAGON_ARTIFACTS`` names a folder (``tests/web/browser.py``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pendragon.i18n import catalog
from pendragon.web.limits import Limits
from pendragon.web.settings import Settings
from tests.test_soc_card_tables import ListenMostly, Policy, find_seed
from tests.web.browser import GAME_SECONDS, choose_action, needs_chromium, shot as browser_shot
from tests.web.support import LiveServer, auth, live_server, play_to_the_end

playwright_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

NAME = "soc-card"
#: The seed of the human's clicking policy.
POLICY_SEED = 7
ENGLISH = catalog("en")

pytestmark = needs_chromium


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page
    context.close()
    assert errors == [], f"the page raised errors: {errors}"


@contextmanager
def seeded_server(tmp_path: Path, seed: int, page: Any) -> Iterator[LiveServer]:
    """A live server (instant bots, no limits: the game played over the API moves faster
    than a client's default write rate) whose tables get ``seed``; ``page`` leaves it before
    it stops (else the page's socket may try to reconnect to the stopped server in time to
    log a refused connection, which the ``page`` fixture counts as the page's error)."""
    settings = Settings(bot_delay=0.0, away_after=3600.0, bot_threads=1, seed_source=lambda: seed,
                        limits=Limits.off())
    with live_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", settings) as server:
        try:
            yield server
        finally:
            page.goto("about:blank")


def create(server: LiveServer, players: int, options: dict[str, Any] | None = None) -> Any:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    with server.http() as http:
        response = http.post("/api/tables", json={"game": NAME, "seats": seats,
                                                  "options": options or {}})
    assert response.status_code == 201, response.text
    return response.json()


def shot(page: Any, name: str) -> None:
    browser_shot(page, f"soc-card-{name}")


class Frames:
    """Every ``state`` message the page received over its WebSocket."""

    def __init__(self, page: Any) -> None:
        self.states: list[dict[str, Any]] = []
        self.raw: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))

    def _received(self, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode()
        self.raw.append(text)
        message = json.loads(text)
        if message.get("type") == "state":
            self.states.append(message)

    def latest(self) -> dict[str, Any] | None:
        return self.states[-1] if self.states else None


def http_replay(server: LiveServer, token: str, version: int) -> Any:
    """Every seat's observation at ``version`` of a finished game."""
    with server.http() as http:
        return http.get(f"/api/replay/{version}", headers=auth(token)).json()


def open_quests(view: dict[str, Any]) -> list[str]:
    from pendragon.games.soc_card.terminal import allowed_quests

    return allowed_quests(view)


def check_page_against(page: Any, state: dict[str, Any], seen: dict[str, int]) -> None:
    """The page shows what the seat's observation holds, and no hidden loyalty."""
    view = state["observation"]
    board = page.locator("[data-testid=board]")
    assert board.locator("[data-testid=pile-count]").text_content() == ENGLISH.text(
        "soc-card.board.pile-count", count=view["pile"]["count"])
    top = view["pile"]["top"]
    slot = board.locator("[data-testid=top-card]")
    if top is None:
        assert slot.get_attribute("data-card") == ""
    elif top.get("face_down"):
        # SCG-MORGAN-1: the card's face is not on the page, only the announcement.
        assert slot.get_attribute("data-face-down") == "true"
        assert slot.get_attribute("data-card") == ""
        assert ENGLISH.text(f"soc-card.quest.{top['announced']}") in page.locator(
            "[data-testid=announcement]").inner_text()
        seen["announcement"] += 1
    else:
        assert slot.get_attribute("data-card") == top["card"]
    opened = [q for q in ("picts", "saxons", "dragon", "excalibur", "grail")
              if board.locator(f"[data-quest={q}][data-open=true]").count()]
    assert opened == open_quests(view)
    for colour in ("white", "black"):
        swords = board.locator(f"[data-testid={colour}-swords]")
        assert int(swords.get_attribute("data-count")) == view["swords"][colour]
        assert swords.locator(f".sword.{colour}").count() == view["swords"][colour]
    # Loyalty cards: the seat's own, and another seat's only once revealed (SCG-ACCUSE-1).
    shown = {int(tag.get_attribute("data-testid").rsplit("-", 1)[1])
             for tag in page.locator("[data-testid^=loyalty-tag-]").all()}
    revealed = {s for s, entry in enumerate(view["seats"]) if entry["loyalty"]}
    assert shown == revealed, (shown, revealed)
    if view["you"]["loyalty"]:
        assert page.locator("[data-testid=private] [data-testid=loyalty]").get_attribute(
            "data-loyalty") == view["you"]["loyalty"]
    # The chat: closed with the game's reason while Morgan's silence holds.
    if view["silence"]:
        closed = page.locator("[data-testid=chat-closed]").inner_text()
        assert closed == ENGLISH.text("table.chat_closed_because",
                                      reason=ENGLISH.text("soc-card.chat.silence"))
        assert page.locator("[data-testid=chat-input]").count() == 0
        assert "Morgan's silence" in page.locator("[data-testid=silence]").inner_text()
        seen["silence"] += 1
    else:
        assert page.locator("[data-testid=chat-input]").count() == 1
        assert page.locator("[data-testid=chat-closed]").count() == 0


def play_through_the_page(page: Any, frames: Frames, policy: Policy,
                          on_turn: Callable[[dict[str, Any]], None],
                          most: int | None = None) -> int:
    """Click the policy's choice at each of the human's turns until the game ends (or
    ``most`` clicks are made); call ``on_turn`` with the state message the page shows
    first. Returns the clicks."""
    clicks = 0
    deadline = time.monotonic() + GAME_SECONDS
    while not page.locator("[data-testid=result]").count() and clicks != most:
        assert time.monotonic() < deadline, "the game took too long"
        buttons = page.locator("button[data-testid=action]:not([disabled])")
        if buttons.count() == 0:
            page.wait_for_timeout(20)
            continue
        state = frames.latest()
        if state is None or not state["legal"] or state["finished"]:
            page.wait_for_timeout(20)
            continue
        texts = buttons.evaluate_all("bs => bs.map((b) => b.dataset.action)")
        assert sorted(texts) == sorted(a["text"] for a in state["legal"])
        on_turn(state)
        choose_action(page, policy(texts))  # "Say N" through the number field
        clicks += 1
    return clicks


def test_a_human_plays_a_whole_game_against_bots_and_the_replay_reveals_everything(
    page: Any, tmp_path: Path
) -> None:
    def wanted(views: list[dict[str, Any]]) -> bool:
        turns = [v for v in views if v["legal"]]
        silent = any(v["silence"] for v in turns)
        announced = any(v["pile"]["top"] and v["pile"]["top"].get("face_down") for v in turns)
        return silent and announced and any(not v["silence"] for v in turns)

    seed = find_seed(4, lambda: ListenMostly(POLICY_SEED), wanted)
    with seeded_server(tmp_path, seed, page) as server:
        created = create(server, 4)
        frames = Frames(page)
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg.soc-card-board")
        page.wait_for_selector("[data-testid=private] [data-testid=loyalty]")
        assert "Threat pile" in page.locator("[data-testid=board]").inner_text()
        shot(page, "start")

        seen = {"silence": 0, "announcement": 0, "turns": 0}

        def on_turn(state: dict[str, Any]) -> None:
            check_page_against(page, state, seen)
            seen["turns"] += 1
            if state["observation"]["silence"] and seen["silence"] == 1:
                shot(page, "silence")
            if seen["announcement"] == 1 and not seen.get("shot"):
                seen["shot"] = 1
                shot(page, "announcement")

        play_through_the_page(page, frames, ListenMostly(POLICY_SEED), on_turn)
        assert seen["silence"] and seen["announcement"], seen
        result = page.locator("[data-testid=result]").inner_text()
        final = frames.states[-1]["observation"]
        assert final["status"] in ("loyal-win", "evil-win")
        assert ENGLISH.text(f"soc-card.result.{final['status']}") in result
        assert page.locator("[data-testid=loyalties] .loyalty-tag").count() == 4
        shot(page, "end")

        # What the page was sent is exactly the seat's observation (nothing of another seat),
        # and never the seed or the raw state.
        spectator = created["spectator"]["token"]
        with server.http() as http:
            for state in frames.states[:: max(1, len(frames.states) // 40)] + frames.states[-1:]:
                truth = http.get(f"/api/replay/{state['version']}", headers=auth(spectator))
                assert state["observation"] == truth.json()["observations"][0]
            face_down = next(s for s in frames.states
                             if (s["observation"]["pile"]["top"] or {}).get("face_down"))
            layer = face_down["observation"]["pile"]["top"]["by"]
            hidden = http.get(f"/api/replay/{face_down['version']}", headers=auth(spectator)) \
                .json()["observations"][layer]["you"]["top_card"]
        assert hidden and all('"seed"' not in f and '"agenda"' not in f for f in frames.raw)

        # The replay: every seat's loyalty card, and the face of the face-down card.
        page.click("[data-testid=replay-link]")
        page.wait_for_selector("[data-testid=secrets]")
        assert page.locator("[data-testid=secrets] [data-testid=loyalty]").count() == 4
        page.evaluate("""(version) => {
            const slider = document.querySelector("[data-testid=replay-slider]");
            slider.value = String(version);
            slider.dispatchEvent(new Event("change"));
        }""", face_down["version"])
        step = face_down["version"]
        page.wait_for_selector(f"[data-testid=replay-step]:has-text('Action {step} ')")
        page.wait_for_selector(f"[data-testid=top-card][data-card='{hidden}']")
        assert page.locator("[data-testid=top-card]").get_attribute("data-face-down") == "true"
        # Every seat's loyalty card is on the table in the replay, hidden or not.
        replayed = http_replay(server, spectator, face_down["version"])
        tags = page.locator("[data-testid=loyalties] .loyalty-tag").all_inner_texts()
        loyalties = [o["you"]["loyalty"] for o in replayed["observations"]]
        assert tags == [f"{name}: {ENGLISH.text('soc-card.loyalty.' + loyalty)}"
                        # The bots bear names (issue 39, item 8).
                        for name, loyalty in zip(["Ann"] + [ENGLISH.text(f"bot.name.{n}")
                                                            for n in (1, 2, 3)],
                                                 loyalties, strict=True)]
        shot(page, "replay")

        # A spectator sees the finished game without a hand of his own.
        page.goto(server.base + created["spectator"]["link"])
        page.reload()
        page.wait_for_selector("[data-testid=result]")
        assert page.locator("[data-testid=private]").count() == 0


def test_a_solo_game_plays_to_the_end_in_polish(page: Any, tmp_path: Path) -> None:
    """SCG-SOLO-1: no loyalty card and no accusation; the page speaks Polish throughout.

    The first turns are clicked on the Polish page (its buttons are the legal moves); the
    rest of the game is played over the API with the same policy (every turn still checked
    for an accusation) while the page follows, to its Polish result. A whole game clicked
    through the page is the four-seat test's."""
    with seeded_server(tmp_path, 11, page) as server:
        created = create(server, 1)
        frames = Frames(page)
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg.soc-card-board")
        page.select_option("[data-testid=language]", "pl")
        page.wait_for_selector("html[lang=pl]", state="attached")
        polish = catalog("pl")
        board = page.locator("[data-testid=board]")
        assert polish.text("soc-card.board.pile") in board.inner_text()
        assert "Threat pile" not in board.inner_text()
        assert page.locator("[data-testid=no-loyalty]").inner_text() == polish.text(
            "soc-card.board.no-loyalty")

        def on_turn(state: dict[str, Any]) -> None:
            assert not any(a["text"].startswith("accuse:") for a in state["legal"])

        policy = ListenMostly(POLICY_SEED)
        clicks = play_through_the_page(page, frames, policy, on_turn, most=8)
        assert clicks == 8

        def choose(state: dict[str, Any]) -> int:
            on_turn(state)
            chosen = policy([a["text"] for a in state["legal"]])
            return int(next(a["id"] for a in state["legal"] if a["text"] == chosen))

        with server.http() as http:
            moves = play_to_the_end(http, created["seats"][0]["token"], choose)
        assert moves > 3
        page.wait_for_selector("[data-testid=result]")
        final = frames.states[-1]["observation"]
        assert polish.text(f"soc-card.result.{final['status']}") in page.locator(
            "[data-testid=result]").inner_text()
        assert polish.text("soc-card.board.pile") in board.inner_text()
        shot(page, "solo-pl")
