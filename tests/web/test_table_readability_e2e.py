"""What a player meets at the table (issue 27, items 6-9), in Chromium at a desktop's
1280 px and a phone's 390 px.

* Item 6: a decision of many numbered choices (the card game's Morgan #2: "Say 1" ... "Say
  63") is one number field holding the legal range, with the buttons folded away; a number
  outside it cannot be sent. The game is found by replaying it offline first (the seed and
  the human's clicking policy of ``tests/test_soc_card_tables.py``), so the decision comes
  at the human's turn.
* Item 7: bots bear a neutral label at the table; the lobby says what each does.
* Item 8: a dead knight's player is told, and offered no hand-over; after the end no turn
  line is left; the Excalibur panel's Russian line stays inside the panel.
* Item 9: the solo card game has no accusation wording and no chat; spectators and the host
  read whose move it is, not "Your move"; the header shows the whole game name at 1280 px;
  the last move is on the board; the bots' pace is chosen on the page and announced.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pendragon.core import registry
from pendragon.games.soc.rules.fixtures import load_state
from pendragon.games.soc.rules.game import SocGame
from pendragon.games.soc_card.rules.game import SocCardGame
from pendragon.i18n import catalog
from pendragon.web.limits import Limits
from pendragon.web.settings import Settings
from tests.test_soc_card_tables import ListenMostly, find_seed
from tests.web.browser import (
    GAME_SECONDS,
    box,
    choose_action,
    needs_chromium,
    settle,
    shot as browser_shot,
    show_tab,
)
from tests.web.support import LiveServer, auth, begin_game, live_server, view, wait_for

playwright_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

pytestmark = needs_chromium

ENGLISH = catalog("en")
RUSSIAN = catalog("ru")
#: The human's clicking policy's seed (as in test_soc_card_e2e.py).
POLICY_SEED = 7
#: The page's last ``pendragon:render`` mark's detail (redraws asked for and made, the state's
#: version drawn), or null before its first redraw.
READ_RENDER_MARK = ("() => { const m = performance.getEntriesByName('pendragon:render');"
                    " return m.length ? m[m.length - 1].detail : null; }")
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@contextmanager
def seeded_server(tmp_path: Path, seed: int = 1,
                  bot_delay: float = 0.0) -> Iterator[LiveServer]:
    """A live server (instant bots unless ``bot_delay``, no limits) whose tables get
    ``seed``."""
    settings = Settings(bot_delay=bot_delay, away_after=3600.0, bot_threads=1, bot_processes=False,
                        seed_source=lambda: seed, limits=Limits.off())
    with live_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", settings) as server:
        yield server


@contextmanager
def opened_page(browser: Any, size: str) -> Iterator[Any]:
    """A page of its own context at ``size`` (``SIZES``), in English; closed afterwards, and
    the test fails if the page raised an error."""
    context = browser.new_context(locale="en-GB", **SIZES[size])
    page = context.new_page()
    page.size = size
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert errors == [], f"the page raised errors: {errors}"


@pytest.fixture(params=list(SIZES))
def page(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page at a desktop's and at a phone's size (each test runs at both)."""
    with opened_page(browser, request.param) as opened:
        yield opened


@pytest.fixture
def desktop_page(browser: Any) -> Iterator[Any]:
    """A page at a desktop's size only."""
    with opened_page(browser, "desktop") as opened:
        yield opened


def shot(page: Any, name: str) -> None:
    browser_shot(page, f"readability-{name}-{page.size}")


def create(server: LiveServer, game: str, seats: list[dict[str, Any]],
           pace: float | None = None) -> dict[str, Any]:
    """A table, begun at once by its host (who first sets the bots' ``pace``, if given)."""
    with server.http() as http:
        response = http.post("/api/tables", json={"game": game, "seats": seats})
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        if pace is not None:
            answer = http.post("/api/table/pace", json={"seconds": pace},
                               headers=auth(created["host"]["token"]))
            assert answer.status_code == 200, answer.text
        begin_game(http, created)
    return created


def page_width(page: Any) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


def numbered(views: list[dict[str, Any]]) -> bool:
    """Seat 0 is asked to say a number (Morgan #2) at one of its turns."""
    return any(sum(t.startswith("count:") for t in v["legal"]) >= 13 for v in views)


def play_until(page: Any, policy: Callable[[list[str]], str],
               stop: Callable[[], bool]) -> None:
    """Click the policy's choice at each of the human's turns until ``stop()``."""
    deadline = page.evaluate("Date.now()") + GAME_SECONDS * 1000
    while not stop():
        assert page.evaluate("Date.now()") < deadline, "the game took too long"
        buttons = page.locator("button[data-testid=action]:not([disabled])")
        texts = buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.action)")
        if not texts:
            page.wait_for_timeout(20)
            continue
        if any(t.startswith("count:") for t in texts):
            return  # the numbered decision: the test looks at it
        try:
            choose_action(page, policy(texts))
        except playwright_api.Error:
            continue  # the page moved on under the pointer


# ------------------------------------------------------------------ item 6
@pytest.mark.parametrize("players", [4, 1])
def test_many_numbered_choices_are_one_number_field_that_refuses_an_illegal_number(
    page: Any, tmp_path: Path, players: int
) -> None:
    """Issue 27, item 6: Morgan #2 showed 63 buttons "Say 1" ... "Say 63" (cut mid-row on a
    phone). Now one number field holds the legal range, the buttons are folded away, a number
    outside the range leaves the play button disabled with the allowed numbers said, and a
    legal number plays exactly that move."""
    seed = find_seed(players, lambda: ListenMostly(POLICY_SEED), numbered)
    policy = ListenMostly(POLICY_SEED)
    with seeded_server(tmp_path, seed) as server:
        created = create(server, "soc-card", [{"kind": "human", "name": "Ann"}]
                         + [{"kind": "bot", "bot": "random"}] * (players - 1))
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        play_until(page, policy, lambda: page.locator("[data-testid=result]").count() > 0)
        assert not page.locator("[data-testid=result]").count(), "the game ended first"
        texts = page.locator("button[data-testid=action]").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.action)")
        numbers = sorted(int(t.split(":")[1]) for t in texts if t.startswith("count:"))
        form = page.locator("[data-testid=number-choice]")
        assert form.is_visible()
        field = form.locator("[data-testid=number-choice-input]")
        assert (field.get_attribute("min"), field.get_attribute("max")) == (
            str(numbers[0]), str(numbers[-1]))
        # The 63 buttons are folded away: none of them shows, the panel stays short.
        folded = "button[data-testid=action][data-action^='count:']:visible"
        assert page.locator(folded).count() == 0
        actions = box(page, "[data-testid=actions]")
        assert actions is not None and actions["height"] < 420, actions
        assert page_width(page) <= SIZES[page.size]["viewport"]["width"]
        shot(page, f"number-field-{players}")
        # A number out of the range cannot be sent, and the page says which are allowed.
        play = form.locator("[data-testid=number-choice-play]")
        hint = form.locator("[data-testid=number-choice-hint]")
        allowed = f"{numbers[0]}–{numbers[-1]}"
        for wrong in (numbers[-1] + 1, numbers[0] - 1, 1000):
            field.fill(str(wrong))
            assert play.is_disabled(), wrong
            assert hint.inner_text() == ENGLISH.text("table.number_choice_refused",
                                                     allowed=allowed)
        field.press("Enter")  # submitting the refused number sends nothing
        assert page.locator("[data-testid=number-choice]").is_visible()
        # A legal number: the button says the move's own words and plays it.
        chosen = numbers[len(numbers) // 2]
        field.fill(str(chosen))
        assert play.inner_text() == ENGLISH.text("soc-card.action.count", number=chosen)
        play.click()
        you_say = ENGLISH.text("soc-card.log.count.you", number=chosen)
        page.wait_for_function(
            "(text) => [...document.querySelectorAll('[data-testid=log] li')]"
            ".some((li) => li.textContent.includes(text))", arg=you_say)


def test_the_generic_board_gets_the_number_field_too(
    page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27, item 6, for every game: the rule is the page's, not a board module's. The
    card game registered without its plugin (the generic board) shows Morgan #2 the same."""

    class PlainSocCard(SocCardGame):
        """The card game without a plugin: no board module, no adapter."""

        name = "plain-soc-card"

    monkeypatch.setitem(registry._GAMES, "plain-soc-card", PlainSocCard)
    seed = find_seed(1, lambda: ListenMostly(POLICY_SEED), numbered)
    policy = ListenMostly(POLICY_SEED)
    with seeded_server(tmp_path, seed) as server:
        created = create(server, "plain-soc-card", [{"kind": "human", "name": "Ann"}])
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] .generic-board", state="attached")
        play_until(page, policy, lambda: page.locator("[data-testid=result]").count() > 0)
        texts = page.locator("button[data-testid=action]").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.action)")
        numbers = sorted(int(t.split(":")[1]) for t in texts if t.startswith("count:"))
        assert len(numbers) >= 13
        field = page.locator("[data-testid=number-choice-input]")
        assert field.is_visible()
        assert (field.get_attribute("min"), field.get_attribute("max")) == (
            str(numbers[0]), str(numbers[-1]))
        folded = "button[data-testid=action][data-action^='count:']:visible"
        assert page.locator(folded).count() == 0
        shot(page, "generic-number-field")


# ------------------------------------------------------------------ item 7
def test_bots_bear_a_neutral_label_and_the_lobby_says_what_each_does(
    page: Any, tmp_path: Path
) -> None:
    """Issue 27, item 7: every bot seat read "Heuristic bot (hides as the traitor)", which a
    player reads as "this bot is the traitor"."""
    with seeded_server(tmp_path) as server:
        page.goto(server.base + "/")
        page.wait_for_selector("[data-testid=game] option", state="attached")
        page.select_option("[data-testid=game]", "soc")
        help_box = page.locator("[data-testid=bots-help]")
        help_box.locator("summary").click()
        stealth = help_box.locator("li[data-bot=stealth]").inner_text()
        assert ENGLISH.text("bot.stealth.help") in stealth
        assert page_width(page) <= SIZES[page.size]["viewport"]["width"]
        created = create(server, "soc", [{"kind": "human", "name": "Ann"}]
                         + [{"kind": "bot", "bot": "stealth"}] * 2
                         + [{"kind": "bot", "bot": "ismcts"}])
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        seats = page.locator("section.panel.seats")
        for seat, label in ((1, "Bot"), (2, "Bot"), (3, "Bot (strong)")):
            assert page.locator(f"[data-testid=seat-{seat}] .seat-status").inner_text() == (
                ENGLISH.text("table.status_bot", bot=label))
        text = seats.inner_text().lower()
        assert "traitor" not in text and "hides" not in text, text
        shot(page, "bot-labels")


# ------------------------------------------------------------------ item 8
DEAD_ANN = {
    "players": 3,
    "knights": [{"knight": "kay", "status": "dead", "life": 0}, {"knight": "arthur"},
                {"knight": "gawain"}],
    "turn": {"seat": 1, "phase": "heroic"},
    # King Arthur holds Excalibur: its panel names him, a long line in Russian.
    "quests": {"excalibur": {"over": True, "position": 4}},
    "relics": {"excalibur": 1},
    "siege_engines": 10,  # a short game: the next engine ends it
}


def test_a_dead_knight_is_told_offered_no_hand_over_and_no_stale_turn_is_left(
    page: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27, item 8: when a knight died the page still offered "Let a bot play for me";
    after the end "Turn 84: Seat 4 plays (1 heroic action(s) left)" stayed; in Russian the
    Excalibur line ran out of its panel."""
    monkeypatch.setattr(SocGame, "new_initial_state", lambda self: load_state(DEAD_ANN))
    with seeded_server(tmp_path, bot_delay=0.4) as server:
        # The bots wait 0.4 s a move (the page must see the game before it ends).
        created = create(server, "soc", [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                         {"kind": "bot"}])
        page.add_init_script("localStorage.setItem('pendragon.lang', 'ru')")
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        notice = page.locator("[data-testid=seat-out]")
        notice.wait_for()
        assert notice.inner_text() == RUSSIAN.text("table.knight_dead")
        for gone in ("give-bot-0", "leave"):
            assert page.locator(f"[data-testid={gone}]").count() == 0, gone
        # Excalibur, held by King Arthur's player: the line stays inside the panel.
        panel, lines = page.evaluate("""() => {
          const quest = document.querySelector('[data-quest=excalibur]');
          const box = quest.querySelector('rect.b-panel').getBoundingClientRect();
          const texts = [...quest.querySelectorAll('.over-mark text')]
            .map((t) => t.getBoundingClientRect());
          return [[box.left, box.right], texts.map((t) => [t.left, t.right])];
        }""")
        assert lines, "Excalibur's holder is written on its panel"
        for left, right in lines:
            assert panel[0] <= left and right <= panel[1], (panel, lines)
        shot(page, "dead-knight")
        # The rest of the game need not be watched move by move: the bots play at once.
        server.manager.settings.bot_delay = 0.0
        page.wait_for_selector("[data-testid=result]", timeout=GAME_SECONDS * 1000)
        assert page.locator("[data-testid=on-table] .turn-line").count() == 0
        assert page.locator("[data-testid=seat-out]").count() == 0  # the result says it all
        shot(page, "dead-knight-end")


# ------------------------------------------------------------------ item 9
def test_the_solo_card_game_has_no_accusation_wording_and_no_chat(
    page: Any, tmp_path: Path
) -> None:
    """Issue 27, item 9: the solo card game's prompt said "or accuse" and showed a chat."""
    with seeded_server(tmp_path) as server:
        created = create(server, "soc-card", [{"kind": "human", "name": "Ann"}])
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        page.wait_for_selector("button[data-testid=action]")
        prompt = page.locator("[data-testid=actions] .prompt").inner_text()
        # A prompt that stands alone begins with a capital (issue 39, item 13).
        words = ENGLISH.text("soc-card.decision.turn-solo")
        assert prompt == words[0].upper() + words[1:]
        assert "accuse" not in page.locator("[data-testid=status]").inner_text()
        assert "accuse" not in page.locator("[data-testid=awaited]").inner_text()
        assert page.locator("section.chat-panel").count() == 0
        assert page.locator("[data-testid=chat-input]").count() == 0
        shot(page, "solo")


def test_spectators_and_the_host_read_whose_move_it_is(page: Any, tmp_path: Path) -> None:
    """Issue 27, item 9: the spectators' and the host's pages were headed "Your move"."""
    with seeded_server(tmp_path) as server:
        created = create(server, "soc", [{"kind": "human", "name": "Ann"}, {"kind": "human"},
                                         {"kind": "human"}])
        for role in ("spectator", "host"):
            page.goto(server.base + created[role]["link"])
            page.wait_for_selector("[data-testid=board] svg", state="attached")
            heading = page.locator("[data-testid=actions-heading]").inner_text()
            assert heading != ENGLISH.text("table.actions"), role
            assert heading.endswith(" to move"), heading
            assert not page.locator("[data-testid=status]").inner_text().startswith("Your")
        shot(page, "host-heading")


def test_the_header_shows_the_whole_game_name(page: Any, tmp_path: Path) -> None:
    """Issue 27, item 9: at 1280 px the header cut "Shadows over Camelot: The Card Ga…"."""
    if page.size != "desktop":
        pytest.skip("the phone's header wraps instead (tested in test_phone_e2e.py)")
    with seeded_server(tmp_path) as server:
        created = create(server, "soc-card", [{"kind": "human", "name": "Ann"},
                                              {"kind": "bot"}, {"kind": "bot"}])
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        name = page.locator("header.top .game-name")
        assert name.inner_text() == ENGLISH.text("game.soc-card")
        assert name.evaluate("(n) => n.scrollWidth <= n.clientWidth"), "the name is cut"


def test_the_last_move_is_on_the_board_and_a_player_slows_the_bots(
    page: Any, tmp_path: Path
) -> None:
    """Issue 27, item 9: bots moved every 0.4 s beside a 260 px log. The board now says the
    last move, and a seated player sets the bots' pace; the log announces it."""
    with seeded_server(tmp_path) as server:
        created = create(server, "soc", [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                         {"kind": "bot"}])
        page.goto(server.base + created["seats"][0]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        show_tab(page, "board")  # a phone's board has a tab of its own (issue 39, item 11)
        page.wait_for_selector("[data-testid=last-move]")
        last_line = page.locator("[data-testid=log] li.log-line").last.inner_text()
        assert page.locator("[data-testid=last-move]").inner_text() == ENGLISH.text(
            "table.last_move", what=last_line)
        assert page.locator("[data-testid=board] [data-testid=last-move]").count() == 1
        pace = page.locator("[data-testid=bot-pace]")
        assert pace.get_attribute("data-pace") == "0"  # this server's own delay, to start
        show_tab(page, "table")
        page.locator("[data-testid='bot-pace-2']").click()
        page.wait_for_selector("[data-testid=bot-pace][data-pace='2']")
        said = ENGLISH.text("table.event.pace.you", pace=ENGLISH.text("table.pace.2000"))
        page.wait_for_function(
            "(text) => [...document.querySelectorAll('[data-testid=log] li')]"
            ".some((li) => li.textContent === text)", arg=said)
        assert page.locator("[data-testid='bot-pace-2']").get_attribute("aria-pressed") == "true"
        shot(page, "pace")


def test_grail_cup_knights_are_large_enough_and_the_seats_say_space_then_place(
    page: Any, tmp_path: Path
) -> None:
    """Issue 27, item 9: Grail Cup's knight markers were tiny (a 12 px disc, even alone on a
    space) and a seat read "Space 23" run into "4 of 4 in the race"."""
    with seeded_server(tmp_path) as server:
        created = create(server, "grail-cup", [{"kind": "human", "name": "Ann"},
                                               {"kind": "bot"}, {"kind": "bot"}])
        page.goto(server.base + created["seats"][0]["link"])
        show_tab(page, "board")
        page.wait_for_selector("[data-testid=board] svg [data-testid=gc-knight]")
        settle(page)  # the knights' walk, if any, is over
        sizes = page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid=gc-knight] circle.gc-knight-disc')]
            .map((c) => c.getBoundingClientRect().width)""")
        assert len(sizes) == 3 and min(sizes) >= 15, sizes
        where = page.locator("[data-testid=seat-0] [data-testid=gc-where]").inner_text()
        assert " · " in where and where.startswith("Space ") and "in the race" in where, where
        shot(page, "grail-cup-knights")


# ------------------------------------------------------------------ issue 41, item 4
def test_a_burst_of_states_is_drawn_in_fewer_redraws_and_ends_on_the_last(
    desktop_page: Any, tmp_path: Path
) -> None:
    """Issue 41, item 4: the table redrew itself whole for every message, so bots playing at
    once (or a slow phone) queued a full redraw per move. Now the redraws asked for before
    the next animation frame are one, of the newest state. The page says how often it drew
    in a User Timing mark (``pendragon:render``: redraws asked for and made, the state's
    version drawn); the states it received are counted off its WebSocket."""
    page = desktop_page
    states: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        def received(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "state":
                states.append(message)
        socket.on("framereceived", received)

    page.on("websocket", watch)
    with seeded_server(tmp_path, bot_delay=1.0) as server:
        # Bots alone, a move a second until the page is open: then at once.
        created = create(server, "soc", [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}])
        page.goto(server.base + created["spectator"]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        before = page.evaluate(READ_RENDER_MARK)
        assert before is not None and before["drawn"] >= 1, before
        received_before = len(states)
        server.manager.settings.bot_delay = 0.0
        # The page's thread is busy for a second (a slow phone) while the bots play.
        page.evaluate("() => { const end = performance.now() + 1000;"
                      " while (performance.now() < end) {} }")
        page.wait_for_selector("[data-testid=result]", timeout=GAME_SECONDS * 1000)
        with server.http() as http:
            final = http.get("/api/table", headers=auth(created["host"]["token"]))
            assert final.status_code == 200, final.text
            last_version = final.json()["state"]["version"]
        page.wait_for_function(f"() => ({READ_RENDER_MARK})().version === {last_version}")
        after = page.evaluate(READ_RENDER_MARK)
        shown_i = int(page.locator("[data-testid=log] [data-i]").last.get_attribute("data-i"))
    burst = len(states) - received_before
    redraws = after["drawn"] - before["drawn"]
    assert burst >= 10, f"only {burst} states came after the page opened"
    # Fewer redraws than states: every state asked for one (asked counts them), and the
    # redraws asked for while the page was busy became one.
    assert after["asked"] - before["asked"] >= burst, (after, before, burst)
    assert redraws < burst, (redraws, burst)
    # The page ends on the last state: the game's last version, and its log's last line.
    assert states[-1]["version"] == last_version
    assert after["version"] == last_version
    last_i = max(entry["i"] for state in states for entry in state["log"] if "i" in entry)
    assert shown_i == last_i, (shown_i, last_i)


def test_a_hidden_tab_draws_the_last_state_without_animation_frames(
    desktop_page: Any, tmp_path: Path
) -> None:
    """Issue 41, item 4: a hidden tab gets no animation frames (and its timers are slowed
    to a second), so it draws what the server pushes behind the messages already queued:
    it still follows the game (its title, the turn notice), in fewer redraws. Headless
    Chromium shows every tab, so the page is told it is hidden and given no frames (its own
    `document.hidden` and `requestAnimationFrame`)."""
    page = desktop_page
    page.add_init_script("""
      Object.defineProperty(Document.prototype, "hidden", { get: () => true });
      window.requestAnimationFrame = () => 0;
    """)
    with seeded_server(tmp_path, bot_delay=1.0) as server:
        created = create(server, "soc", [{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}])
        page.goto(server.base + created["spectator"]["link"])
        page.wait_for_selector("[data-testid=board] svg", state="attached")
        assert page.evaluate("document.hidden") is True
        before = page.evaluate(READ_RENDER_MARK)
        server.manager.settings.bot_delay = 0.0
        # The page's thread is busy for a second while the bots play at once.
        page.evaluate("() => { const end = performance.now() + 1000;"
                      " while (performance.now() < end) {} }")
        with server.http() as http:
            wait_for(http, created["host"]["token"], lambda body: body["state"]["finished"],
                     timeout=GAME_SECONDS)
            last_version = view(http, created["host"]["token"])["state"]["version"]
        # Polled on a timer: the page's own frames are off.
        page.wait_for_function(f"() => ({READ_RENDER_MARK})().version === {last_version}",
                               polling=100)
        after = page.evaluate(READ_RENDER_MARK)
        assert page.locator("[data-testid=result]").count() == 1
    assert after["version"] == last_version
    assert after["drawn"] - before["drawn"] < after["asked"] - before["asked"], (before, after)
