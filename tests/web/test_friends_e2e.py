"""A table a group of friends enjoys (issue 39), in a real browser at desktop and phone size
(Debian's Chromium driven by Playwright): the live waiting room, a table started without
someone that stays alive, redraws that never raise, a tab that follows its link, the end that
speaks to you, bots with names, a confirmation before an irreversible move.

Screenshots are saved only when ``PENDRAGON_ARTIFACTS`` names a folder (``tests/web/browser.py``).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import pendragon
from pendragon.core.api import CHANCE
from pendragon.i18n import catalog
from pendragon.web.limits import Limits
from pendragon.web.options import table_options
from pendragon.web.settings import Settings
from tests.web.browser import DEVICES, GAME_SECONDS, box, needs_chromium, shot, show_tab
from tests.web.support import LiveServer, auth, begin_game, live_server, view, wait_for

pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

pytestmark = needs_chromium

#: A player is "away" after two seconds here, so that the hand-over to a bot is offered soon.
AWAY = 2.0
#: A seat for a random bot.
RANDOM = {"kind": "bot", "bot": "random"}
#: Longest a whole game may take, in Playwright's milliseconds.
GAME_MS = GAME_SECONDS * 1000


def person(name: str) -> dict[str, str]:
    """A seat kept for a person named ``name``."""
    return {"kind": "human", "name": name}


class Seeds:
    """The test server's table seeds: random, unless a test fixes the next table's
    (``Settings.seed_source``; a page never sees a seed)."""

    def __init__(self) -> None:
        self.next: int | None = None

    def __call__(self) -> int:
        seed, self.next = self.next, None
        return secrets.randbits(63) if seed is None else seed


#: The seeds of the tables of :func:`friends`.
SEEDS = Seeds()


def soc_seed_where_seat_moves_first(seats: int, seat: int) -> tuple[int, str]:
    """The smallest seed whose Shadows over Camelot of ``seats`` seats (the lobby's default
    options) begins with ``seat`` to act after the deal (the server's own deal: chance
    sampled from the seeded state), found by the rules themselves; with the knight that
    seat was dealt."""
    options = table_options("soc", {}, seats)
    for seed in range(1000):
        state = pendragon.load_game("soc", seed=seed, **options).new_initial_state()
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance())
        if state.current_player() == seat:
            knights = state.observation(None)["knights"]
            return seed, next(k["knight"] for k in knights if k["seat"] == seat)
    raise AssertionError(f"no seed of the first thousand has seat {seat} first")


@pytest.fixture(scope="module")
def friends(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with instant bots and a short away time (SQLite)."""
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('db')) / 'tables.sqlite3'}"
    settings = Settings(bot_delay=0.0, away_after=AWAY, bot_threads=1, limits=Limits.off(),
                        seed_source=SEEDS)
    with live_server(url, settings) as running:
        yield running


def create(server: LiveServer, game: str, seats: list[dict[str, Any]],
           **extra: Any) -> dict[str, Any]:
    response = httpx.post(server.base + "/api/tables", json={"game": game, "seats": seats, **extra},
                          trust_env=False, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


@pytest.fixture
def context(browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Any, list[str]]]:
    params = request.node.callspec.params if hasattr(request.node, "callspec") else {}
    device = params.get("device", "desktop")
    language = params.get("language", "en-GB")
    made = browser.new_context(**DEVICES[device], locale=language)
    errors: list[str] = []
    made.on("page", lambda page: page.on("pageerror", lambda error: errors.append(str(error))))
    try:
        yield made, errors
    finally:
        made.close()
    assert errors == [], f"the pages raised errors: {errors}"


def opened(context: Any, server: LiveServer, link: str) -> Any:
    page = context.new_page()
    page.goto(server.base + link)
    page.locator("[data-testid=actions]").wait_for()
    return page


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_the_waiting_room_drops_a_friend_as_he_arrives(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], device: str,
) -> None:
    """Issue 39, item 1: a friend who opens his link leaves every page's "Waiting for" at
    once, not when the game starts."""
    pages, _ = context
    created = create(friends, "soc", [person("Ann"), person("Bob"), person("Cid")])
    ann = opened(pages, friends, created["seats"][0]["link"])
    box = ann.locator("[data-testid=start-box]")
    assert "Bob" in box.inner_text() and "Cid" in box.inner_text()
    opened(pages, friends, created["seats"][1]["link"])
    ann.wait_for_function(
        "() => !document.querySelector('[data-testid=start-box]').innerText.includes('Bob')")
    assert "Cid" in box.inner_text()
    seat = ann.locator("[data-testid=seat-1] .seat-status").inner_text()
    assert seat == "here", seat
    shot(ann, f"friends-waiting-room-{device}")


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_a_table_started_without_someone_stays_alive(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], device: str,
) -> None:
    """Issue 39, item 2: after "Start the game now", while the absent person is to act, the
    pages say whose move it is (not "not begun"), and once he has been away the others are
    offered to let a bot play his seat, without reloading."""
    pages, _ = context
    # The table's seed has Bob, who never comes, first to act (soc's first player is drawn).
    SEEDS.next, knight = soc_seed_where_seat_moves_first(3, 0)
    created = create(friends, "soc", [person("Bob"), person("Ann"), RANDOM])
    ann = opened(pages, friends, created["seats"][1]["link"])
    host = opened(pages, friends, created["host"]["link"])
    assert ann.locator("[data-testid=actions-heading]").inner_text() == "The game has not begun yet"
    host.locator("[data-testid=start-now]").click()
    ann.locator("[data-testid=start-box]").wait_for(state="detached")
    heading = ann.locator("[data-testid=actions-heading]")
    ann.wait_for_function(
        "() => document.querySelector('[data-testid=actions-heading]').innerText"
        " !== 'The game has not begun yet'")
    english = catalog("en")
    bob = f"Bob ({english.text(f'soc.knight.{knight}')})"
    assert heading.inner_text() == english.text("table.moves_of", who=bob)
    assert "not begun" not in ann.locator("header").inner_text()
    # No reload: the seat list learns by itself that Bob is away (on a phone its tab is
    # marked: the button is there).
    if device == "phone":
        ann.locator("[data-testid=tab-dot-table]").wait_for(timeout=(AWAY + 10) * 1000)
    show_tab(ann, "table")
    ann.locator("[data-testid=give-bot-0]").wait_for(timeout=(AWAY + 10) * 1000)
    shot(ann, f"friends-started-without-bob-{device}")
    ann.locator("[data-testid=give-bot-0]").click()
    ann.locator("[data-testid=seat-0] .seat-status").filter(has_text="bot").wait_for()


def test_a_redraw_with_a_checkbox_focused_raises_nothing(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]],
) -> None:
    """Issue 39, item 3: a redraw while a checkbox has the focus raised
    ``setSelectionRange`` errors (the context fixture fails the test on any page error)."""
    pages, _ = context
    created = create(friends, "soc", [person("Ann"), person("Bob"), RANDOM])
    ann = opened(pages, friends, created["seats"][0]["link"])
    bob = opened(pages, friends, created["seats"][1]["link"])
    ann.locator("[data-testid=turn-notice]").focus()
    for text in ("one", "two", "three"):
        bob.locator("[data-testid=chat-input]").fill(text)
        bob.locator("[data-testid=chat-send]").click()
        ann.locator("[data-testid=chat]").filter(has_text=text).wait_for()
    focused = ann.evaluate("() => document.activeElement && document.activeElement.dataset.testid")
    assert focused == "turn-notice"


#: What the table page last drew: how many redraws were asked for and made (``table.js``).
RENDERED = "() => performance.getEntriesByName('pendragon:render').at(-1).detail"
#: press.js's HOLD_MS: the longest a press holds a redraw back.
HOLD_MS = 1000
#: Notes at the release how many redraws the page had made (``drawn``), and how long after
#: the press the last of them came (``drawnAfter``, ms), in ``window.pressProbe``.
PRESS_PROBE = """() => {
  const mark = () => performance.getEntriesByName("pendragon:render").at(-1);
  let down = null;
  document.addEventListener("pointerdown", () => { down = performance.now(); },
    { capture: true, once: true });
  document.addEventListener("pointerup", () => {
    window.pressProbe = { drawn: mark().detail.drawn, drawnAfter: mark().startTime - down };
  }, { capture: true, once: true });
}"""


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_a_push_waits_for_the_release_of_a_press(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], device: str,
) -> None:
    """A click is a press and a release on one element. A push drawn between the two (a
    chat line, a bot's move, a seat coming back) replaced the pressed element, and the browser
    dropped the click: a tab tapped as a push came stayed unchosen. A push's redraw now waits
    for the release: the click lands, then the push is drawn."""
    pages, _ = context
    created = create(friends, "soc", [person("Ann"), person("Bob"), RANDOM])
    ann = opened(pages, friends, created["seats"][0]["link"])
    bob = opened(pages, friends, created["seats"][1]["link"])
    ann.bring_to_front()
    # What Ann presses: the Board tab on a phone; "Leave" (which asks first) on a desktop.
    where = box(ann, "[data-testid=phone-tab-board]" if device == "phone"
                else "[data-testid=leave]")
    assert where is not None
    ann.mouse.move(where["x"] + where["width"] / 2, where["y"] + where["height"] / 2)
    before = ann.evaluate(RENDERED)
    ann.evaluate(PRESS_PROBE)
    ann.mouse.down()
    # Bob's page is behind Ann's and gets no frames: his chat line is sent by script.
    bob.evaluate("""() => {
      const input = document.querySelector("[data-testid=chat-input]");
      input.value = "now";
      input.form.requestSubmit();
    }""")
    ann.wait_for_function(f"() => ({RENDERED})().asked > {before['asked']}")
    ann.mouse.up()
    press = ann.evaluate("window.pressProbe")
    if press["drawn"] != before["drawn"]:
        # A press holds a redraw back 1 s at most (press.js, a long touch); a redraw sooner
        # is the fault this test is for. A machine too loaded to release within the second
        # cannot check the click (2026-12-01: once in a make test at load 6 on 2 cores).
        assert press["drawnAfter"] >= HOLD_MS, f"a push redrew under the press: {press}"
        pytest.skip(f"the press outlasted its {HOLD_MS} ms hold on this loaded machine")
    clicked = "[data-testid=board]" if device == "phone" else "[data-testid=leave-confirm]"
    ann.locator(clicked).wait_for(timeout=2000)
    ann.locator("[data-testid=chat]").filter(has_text="now").wait_for(state="attached")


#: How many positions the replay page has fetched (``GET /api/replay/N``).
FETCHED = """() => performance.getEntriesByType("resource")
  .filter((entry) => /\\/api\\/replay\\/\\d+$/.test(entry.name)).length"""


def test_pause_pressed_as_the_replay_steps_on_pauses_it(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]],
) -> None:
    """A replay playing on its own drew each step whole: a Pause pressed as a step came was
    dropped, and the replay played on. A step waits for the press, as a push does."""
    pages, _ = context
    created = create(friends, "soc", [RANDOM, RANDOM, RANDOM])
    spectator = created["spectator"]["token"]
    with httpx.Client(base_url=friends.base, trust_env=False, timeout=10) as http:
        wait_for(http, spectator, lambda body: body["state"]["finished"], timeout=60)
    page = pages.new_page()
    page.goto(f"{friends.base}/replay#{spectator}")
    page.locator("[data-testid=replay-first]").click()
    play = page.locator("[data-testid=replay-play]")
    play.click()
    words = catalog("en")
    play.filter(has_text=words.text("replay.pause")).wait_for()
    where = box(page, "[data-testid=replay-play]")
    assert where is not None
    page.mouse.move(where["x"] + where["width"] / 2, where["y"] + where["height"] / 2)
    fetched = page.evaluate(FETCHED)
    page.mouse.down()
    # The next step arrives while the button is down (one more task lets the page take it).
    page.wait_for_function(f"() => ({FETCHED})() > {fetched}")
    page.evaluate("() => new Promise((done) => setTimeout(done, 0))")
    page.mouse.up()
    play.filter(has_text=words.text("replay.play")).wait_for(timeout=2000)


def test_a_new_token_in_the_address_opens_its_table(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]],
) -> None:
    """Issue 39, item 4: changing only the ``#token`` of an open tab shows that table."""
    pages, _ = context
    first = create(friends, "soc", [person("Ann"), RANDOM, RANDOM])
    second = create(friends, "grail-cup", [person("Zoe"), RANDOM])
    page = opened(pages, friends, first["seats"][0]["link"])
    assert "Shadows over Camelot" in page.locator("header .game-name").inner_text()
    hash_only = second["seats"][0]["link"].split("#", 1)[1]
    page.evaluate("(hash) => { location.hash = hash; }", hash_only)
    page.locator("header .game-name").filter(has_text="Grail").wait_for()
    page.locator("[data-testid=seat-0] .seat-name").filter(has_text="Zoe").wait_for()


def finished_for(page: Any, server: LiveServer, link: str) -> None:
    """Open ``link`` (a seat's), let a bot play the seat, and wait for the game's end."""
    # The tab in front: a page behind another of its browser gets no animation frames, so a
    # click (which waits for its button to hold still over two frames) waited seconds.
    page.bring_to_front()
    page.goto(server.base + link)
    page.locator("[data-testid=actions]").wait_for()
    page.locator("[data-testid=start-box]").wait_for(state="detached")
    show_tab(page, "table")  # the seats, on a phone
    page.locator("[data-testid^=give-bot-]").first.click()
    show_tab(page, "play")
    page.locator("[data-testid=result]").wait_for(timeout=GAME_MS)


@pytest.mark.parametrize(("device", "language"), [("desktop", "en-GB"), ("phone", "ru-RU")])
def test_the_end_says_what_it_means_for_you(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], device: str,
    language: str,
) -> None:
    """Issue 39, item 7: before the full result, the end says whether you (your side) won,
    and why the game ended; a spectator's page says nothing of "you"."""
    pages, _ = context
    created = create(friends, "grail-cup", [person("Ann"), RANDOM])
    page = pages.new_page()
    finished_for(page, friends, created["seats"][0]["link"])
    verdict = page.locator("[data-testid=verdict]")
    won = verdict.get_attribute("data-won") == "true"
    words = catalog(language[:2])
    assert verdict.inner_text() == words.text(f"table.verdict.alone-{'won' if won else 'lost'}")
    # The verdict comes before the full result.
    assert page.evaluate(
        "() => document.querySelector('[data-testid=verdict]').compareDocumentPosition("
        "document.querySelector('[data-testid=result]')) & Node.DOCUMENT_POSITION_FOLLOWING")
    spectator = pages.new_page()
    spectator.goto(friends.base + created["spectator"]["link"])
    spectator.locator("[data-testid=result]").wait_for()
    assert spectator.locator("[data-testid=verdict]").count() == 0
    shot(page, f"friends-verdict-{device}-{language[:2]}")

    # The card game: a side, and the reason the game ended.
    created = create(friends, "soc-card", [person("Ann"), RANDOM, RANDOM])
    finished_for(page, friends, created["seats"][0]["link"])
    verdict = page.locator("[data-testid=verdict]")
    key = verdict.get_attribute("data-won") == "true"
    outcome = "won" if key else "lost"
    expected = {words.text(f"table.verdict.{side}-{outcome}") for side in ("side", "traitor")}
    assert verdict.inner_text() in expected
    reason = page.locator("[data-testid=verdict-reason]").inner_text()
    prefix = str(words.messages["table.verdict.why"]).split("{reason}")[0]
    assert reason.startswith(prefix) and len(reason) > len(prefix) + 2, reason
    shot(page, f"friends-verdict-card-{device}-{language[:2]}")


@pytest.mark.parametrize(("device", "language"), [("desktop", "en-GB"), ("phone", "pl-PL")])
def test_bots_bear_names(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], device: str, language: str,
) -> None:
    """Issue 39, item 8: a bot's seat bears a name: its knight's in Shadows over Camelot,
    its colour's knight in Grail Cup, a knight of the Round Table in the card game; never
    "Seat 3 (bot)"."""
    pages, _ = context
    words = catalog(language[:2])
    created = create(friends, "grail-cup", [person("Ann"), RANDOM, RANDOM])
    page = opened(pages, friends, created["seats"][0]["link"])
    for seat, colour in ((1, "blue"), (2, "green")):
        name = page.locator(f"[data-testid=seat-{seat}] .seat-name").inner_text()
        assert name == words.text(f"bot.knight.{colour}")
    created = create(friends, "soc-card", [person("Ann"), RANDOM, RANDOM])
    page = opened(pages, friends, created["seats"][0]["link"])
    assert page.locator("[data-testid=seat-1] .seat-name").inner_text() == words.text("bot.name.1")
    created = create(friends, "soc", [person("Ann"), RANDOM, RANDOM])
    page = opened(pages, friends, created["seats"][0]["link"])
    page.locator("[data-testid=seat-1] .knight-name").wait_for(state="attached")
    for seat in (1, 2):
        row = page.locator(f"[data-testid=seat-{seat}]")
        assert row.locator(".seat-name").inner_text() == row.locator(".knight-name").inner_text()
    assert "(bot)" not in page.locator("[data-testid=log]").inner_text()
    shot(page, f"friends-bot-names-{device}-{language[:2]}")


def accusation_ready(server: LiveServer) -> dict[str, Any]:
    """A card game table where Ann (seat 0) may accuse seat 1: her seat played over the API
    (listening or questing, never accusing) until the swords on the table allow it
    (SCG-ACCUSE-1)."""
    for _ in range(20):
        created = create(server, "soc-card", [person("Ann"), RANDOM, RANDOM])
        token = created["seats"][0]["token"]
        with server.http() as http:
            begin_game(http, created)
            for _ in range(400):
                state = view(http, token)["state"]
                if state["finished"]:
                    break
                texts = {a["text"]: a["id"] for a in state["legal"]}
                if "accuse:1" in texts:
                    return created
                if not texts:
                    time.sleep(0.01)
                    continue
                choice = next(i for text, i in sorted(texts.items())
                              if not text.startswith("accuse:"))
                http.post("/api/table/move", headers=auth(token),
                          json={"version": state["version"], "action": choice})
    raise AssertionError("no game let Ann accuse")


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_an_accusation_asks_first(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], device: str,
) -> None:
    """Issue 39, item 9: an accusation (it cannot be taken back) goes through only after
    "Yes"; "No" leaves everything as it was."""
    pages, _ = context
    created = accusation_ready(friends)
    page = opened(pages, friends, created["seats"][0]["link"])
    accuse = page.locator('button[data-testid=action][data-action="accuse:1"]')
    accuse.wait_for()
    token = auth(created["seats"][0]["token"])
    with friends.http() as http:
        version = http.get("/api/table", headers=token).json()["state"]["version"]
    accuse.click()
    box = page.locator("[data-testid=confirm-box]")
    box.wait_for()
    assert "cannot be taken back" in box.inner_text()
    shot(page, f"friends-confirm-{device}")
    page.locator("[data-testid=confirm-no]").click()
    box.wait_for(state="detached")
    with friends.http() as http:
        assert http.get("/api/table", headers=token).json()["state"]["version"] == version
    accuse.click()
    page.locator("[data-testid=confirm-yes]").click()
    with friends.http() as http:
        wait_for(http, created["seats"][0]["token"], lambda b: b["state"]["version"] > version)


@pytest.mark.parametrize("language", ["en-GB", "ru-RU"])
def test_the_log_folds_runs_and_long_lines(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], language: str,
) -> None:
    """Issue 39, item 10: a run of the same line, or of the same sentence within a line, is
    one sentence with its count in words ("draws 6 white cards", the plural form the
    language asks for); an event without such words is said once with "(3 times)"; a run
    of lines of one kind is one line with the rest folded, a line of many sentences shows
    its first; and Shadows over Camelot's "You: Lose 1 life." before "You lose 1 life." is
    said once. A redraw words only new lines while the wording (language, reader, names)
    holds, and every line again when it changes."""
    pages, _ = context
    page = pages.new_page()
    page.goto(friends.base + "/")
    page.locator("[data-testid=game]").wait_for()
    folded = page.evaluate("""async () => {
      const { compactLog } = await import('/static/js/log.js');
      const soc = await import('/games/soc/board.js');
      let asked = 0;
      const names = { me: 0, seatName: (s) => { asked += 1; return `Seat ${s + 1}`; }, key: 'a' };
      const draw = { k: 'soc.log.draw-white', p: { seat: { seat: 1 } } };
      const known = (card) => ({ k: 'soc.log.draw-white-known',
                                 p: { seat: { seat: 1 }, card: { term: `soc.white.${card}` } } });
      const entries = [
        ...[0, 1, 2, 3, 4, 5].map((i) => ({ i, s: null, events: [draw] })),
        { i: 6, s: null, events: [known('merlin')] }, { i: 7, s: null, events: [known('piety')] },
        { i: 8, s: 0, events: [draw, draw, draw, draw, draw] },
        { i: 9, s: 0, events: [{ k: 'soc.log.act',
                                 p: { seat: { seat: 0 },
                                      action: { k: 'soc.action.lose-life', p: {} } } },
                                { k: 'soc.log.life-lost',
                                  p: { seat: { seat: 0 }, count: 1, left: 3 } }] },
        { i: 10, s: 0, events: [{ k: 'soc.log.draw-white', p: { seat: { seat: 0 } } }] },
        { i: 11, s: 0, events: [{ k: 'soc.log.draw-white', p: { seat: { seat: 0 } } }] },
        ...[12, 13, 14].map((i) => ({ i, s: null, events: [known('merlin')] })),
      ];
      const items = compactLog(entries, names, soc);
      // A redraw in the same wording (its key) words no line again; a new one words all.
      asked = 0;
      const again = compactLog(entries, names, soc).map((li) => li.textContent).join('|');
      const sameWording = { asked, same: again === items.map((li) => li.textContent).join('|') };
      const renamed = compactLog(entries, { ...names, seatName: (s) => `Knight ${s + 1}`,
                                            key: 'b' }, soc);
      return { sameWording, renamed: renamed[0].textContent,
               rows: items.map((li) => ({ i: li.dataset.i, text: li.textContent,
                                          details: li.querySelectorAll('details').length,
                                          count: li.querySelector('[data-testid=log-count]')
                                                 ?.textContent || '' })) };
    }""")
    assert folded["sameWording"] == {"asked": 0, "same": True}, folded["sameWording"]
    renamed, folded = folded["renamed"], folded["rows"]
    assert [row["i"] for row in folded] == ["5", "7", "8", "9", "11", "14"], folded
    words = catalog(language[:2])
    assert folded[0]["text"] == words.text("soc.log.draw-white.times", seat="Seat 2", count=6)
    assert renamed == words.text("soc.log.draw-white.times", seat="Knight 2", count=6)
    assert folded[1]["details"] == 1
    # Five draws in one line: one sentence, no fold.
    assert folded[2] == {"i": "8", "details": 0, "count": "",
                         "text": words.text("soc.log.draw-white.times", seat="Seat 2", count=5)}
    lost = words.text("soc.log.life-lost.you", count=1, left=3)
    assert folded[3]["text"] == lost, folded[3]
    # The reader's own draws: "You draw 2 white cards."
    assert folded[4]["text"] == words.text("soc.log.draw-white.times.you", count=2)
    # An event without words for a count: said once, "(3 times)".
    merlin = words.text("soc.log.draw-white-known", seat="Seat 2",
                        card=words.text("soc.white.merlin"))
    times = words.text("table.log.times", count=3)
    assert folded[5]["text"] == f"{merlin} {times}", folded[5]
    if language.startswith("ru"):
        assert "6 белых карт" in folded[0]["text"] and "5 белых карт" in folded[2]["text"]
        assert "2 белые карты" in folded[4]["text"] and times == "(3 раза)"


@pytest.mark.parametrize("language", ["en-GB", "cs-CZ"])
def test_a_phone_table_is_tabs_with_the_hand_at_hand(
    browser: Any, friends: LiveServer, language: str,
) -> None:
    """Issue 39, item 11: on a 390 px phone the Shadows over Camelot table was one column of
    about 4,300 CSS px. Now it is tabs: "Play" holds the moves and the hand within about a
    screen or two, "Board" the board with the hand beneath it; a tap on the board shows a
    space's text."""
    made = browser.new_context(**DEVICES["phone"], locale=language)
    errors: list[str] = []
    made.on("page", lambda page: page.on("pageerror", lambda error: errors.append(str(error))))
    try:
        created = create(friends, "soc", [person("Ann"), RANDOM, RANDOM])
        page = opened(made, friends, created["seats"][0]["link"])
        page.locator("button[data-testid=action]").first.wait_for(timeout=GAME_MS)
        tabs = page.locator("[data-testid=phone-tabs]")
        assert tabs.is_visible()
        height = page.evaluate("document.documentElement.scrollHeight")
        assert page.locator("[data-testid=private]").is_visible()
        assert not page.locator("[data-testid=board]").is_visible()
        assert height < 2 * 844, f"the Play tab is {height} px high"
        shot(page, f"friends-phone-play-{language[:2]}")
        page.locator("[data-testid=phone-tab-board]").click()
        assert page.locator("[data-testid=board]").is_visible()
        assert page.locator("[data-testid=private]").is_visible()
        assert not page.locator("[data-testid=actions]").is_visible()
        board = box(page, "[data-testid=board]")
        hand = box(page, "[data-testid=private]")
        assert board and hand and hand["y"] > board["y"], "the hand lies beneath the board"
        shot(page, f"friends-phone-board-{language[:2]}")
        # A tap on a space of the board (its <title> is the tooltip a mouse would show).
        target = page.locator("[data-testid=board] svg g:has(> title)").first
        said = (target.locator("> title").text_content() or "").strip()
        target.tap()
        tip = page.locator("[data-testid=tap-tip]")
        tip.wait_for()
        assert said and tip.inner_text().strip() == said
        # What the screen shows (a full page would draw the pinned strip mid-page).
        shot(page, f"friends-phone-tap-{language[:2]}", full_page=False)
        page.mouse.click(5, 400)  # the next tap hides it
        tip.wait_for(state="detached")
        # The hand is a strip pinned under the board: on screen with it, its cards by name,
        # a card's text a tap away.
        strip = box(page, "[data-testid=private]")
        assert strip is not None and strip["y"] + strip["height"] <= 844 + 1, strip
        card = page.locator("[data-testid=private] .card:not(.loyalty)").first
        name = card.locator(".card-name").inner_text()
        card.tap()
        tip.wait_for()
        assert tip.inner_text().startswith(name + ":"), tip.inner_text()
        page.mouse.click(5, 400)
        page.locator("[data-testid=phone-tab-talk]").click()
        assert page.locator("[data-testid=log]").is_visible()
        assert not page.locator("[data-testid=board]").is_visible()
        page.locator("[data-testid=phone-tab-table]").click()
        assert page.locator(".panel.seats").is_visible()
        shot(page, f"friends-phone-table-{language[:2]}")
    finally:
        made.close()
    assert errors == []


@pytest.mark.parametrize(("device", "language"),
                         [("desktop", "ru-RU"), ("phone", "ru-RU"), ("phone", "cs-CZ")])
def test_the_rules_are_a_tap_away(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]], device: str, language: str,
) -> None:
    """Issue 39, item 12: the rules link at the table opens the game's players' rules page
    in the table's language (docs/rules/play/, served from the package), which links to the
    full reference (English, with its note in the page's language)."""
    pages, _ = context
    code = language[:2]
    words = catalog(code)
    created = create(friends, "soc", [person("Ann"), RANDOM, RANDOM])
    page = opened(pages, friends, created["seats"][0]["link"])
    link = page.locator("[data-testid=rules-link]")
    assert link.inner_text() == words.text("table.rules")
    assert link.get_attribute("href") == f"/rules/soc?lang={code}"
    with pages.expect_page() as opening:
        link.click()
    rules = opening.value
    rules.wait_for_load_state()
    assert rules.evaluate("document.documentElement.lang") == code
    heading = rules.locator("main.rules h1").inner_text()
    assert heading.startswith(words.text("game.soc") + " — "), heading
    assert rules.title() == words.text("rules.play_title", game=words.text("game.soc"))
    body = rules.locator("[data-testid=rules]").inner_text()
    # The table's words: its options as the lobby names them.
    assert words.text("opt.soc.three_brave_knights") in body
    assert rules.locator("main.rules h2").count() >= 5
    width = rules.evaluate("document.documentElement.scrollWidth")
    assert width <= DEVICES[device]["viewport"]["width"]
    shot(rules, f"friends-rules-{device}-{code}")
    # The full reference, a link away: English, its note in the page's language.
    rules.locator("[data-testid=rules-other]").click()
    rules.locator("[data-testid=rules-note]").wait_for()
    assert rules.locator("[data-testid=rules-note]").inner_text() == words.text("rules.note")
    assert "SOC-HERO-1" in rules.locator("[data-testid=rules]").inner_text()
    with friends.http() as http:  # a name that is not a game is refused, never read
        assert http.get("/rules/..%2Fsoc").status_code == 404
        assert http.get("/rules/nothing").status_code == 404


@pytest.mark.parametrize("language", ["en-GB", "cs-CZ"])
def test_the_lobby_shows_an_option_only_where_it_applies(
    browser: Any, friends: LiveServer, language: str,
) -> None:
    """Issue 39, item 13: the lobby showed every option of a game at once (the squires'
    settings without the Squire's Challenge, the played-black-cards rule without Merlin's
    Company); and Grail Cup's track "standard" untranslated."""
    made = browser.new_context(**DEVICES["desktop"], locale=language)
    try:
        page = made.new_page()
        page.goto(friends.base + "/")
        page.select_option("[data-testid=game]", "soc")
        squires_hard = page.locator("[data-testid=option-squires_hard]")
        assert squires_hard.count() == 0
        assert page.locator("[data-testid=option-played_black]").count() == 0
        page.locator("[data-testid=option-squires]").check()
        squires_hard.wait_for()
        page.select_option("[data-testid=option-expansion]", "merlins-company")
        page.locator("[data-testid=option-played_black]").wait_for()
        shot(page, f"friends-lobby-options-{language[:2]}")
        page.select_option("[data-testid=game]", "grail-cup")
        track = page.locator("[data-testid=option-track] option").first.inner_text()
        assert track == catalog(language[:2]).text("opt.grail-cup.track.standard")
    finally:
        made.close()


def test_merlins_company_tokens_never_share_their_letters(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]],
) -> None:
    """Issue 39, item 14: Merlin's Company's knights' tokens repeated initials (two "G" for
    Gaheris and Gareth, two "B" for Bors and Bedivere)."""
    pages, _ = context
    created = create(friends, "soc", [person("Ann")] + [RANDOM] * 7,
                     options={"expansion": "merlins-company"})
    page = opened(pages, friends, created["seats"][0]["link"])
    page.locator("[data-testid=board] .b-token-label").first.wait_for(state="attached")
    labels = page.evaluate("""() => {
      const seen = {};
      for (const token of document.querySelectorAll('[data-testid=board] .token[data-seat]')) {
        seen[token.dataset.seat] = token.querySelector('.b-token-label').textContent;
      }
      return seen;
    }""")
    assert len(labels) == 8, labels
    assert len(set(labels.values())) == 8, labels


def test_english_names_a_title_mid_sentence_with_a_small_article(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]],
) -> None:
    """Issue 39, item 13: the move read "Go to The Black Knight"; and a decision's prompt
    that stands alone begins with a capital (checked in test_table_readability_e2e)."""
    pages, _ = context
    page = pages.new_page()
    page.goto(friends.base + "/")
    page.locator("[data-testid=game]").wait_for()
    worded = page.evaluate("""async () => {
      const { renderEvent } = await import('/static/js/i18n.js');
      const names = { me: null, seatName: (s) => `Seat ${s + 1}` };
      const move = { k: 'soc.action.move', p: { place: { term: 'soc.place.black-knight' } } };
      return renderEvent(move, names);
    }""")
    assert worded == "Go to the Black Knight"


def test_small_things_of_the_board_and_the_result(
    browser: Any, friends: LiveServer, context: tuple[Any, list[str]],
) -> None:
    """Issue 39, item 14: the Pict war with Mordred drew "1 2 3 4 5 5" with nothing saying
    whose the sixth slot is; after every knight died the end said "white swords: 0, black:
    0" (the card game's words; Shadows over Camelot's the same)."""
    pages, _ = context
    created = create(friends, "soc", [RANDOM, RANDOM, RANDOM])
    with friends.http() as http:
        obs = view(http, created["spectator"]["token"])["state"]["observation"]
    page = pages.new_page()
    page.goto(friends.base + "/")
    page.locator("[data-testid=game]").wait_for()
    found = page.evaluate("""async (obs) => {
      const { t } = await import('/static/js/i18n.js');
      const soc = await import('/games/soc/board.js');
      const card = await import('/games/soc-card/board.js');
      const name = (s) => `Seat ${s + 1}`;
      const ctx = { t, me: null, seatName: name, seatColor: () => 'red', seats: [], obs,
                    finished: false, events: { me: null, seatName: name } };
      obs.quests.picts.mordred = true;
      const board = soc.drawBoard(obs, ctx);
      const slot = board.querySelector('[data-quest=picts] .slot .b-card.mordred');
      const tip = slot ? slot.parentNode.querySelector('title').textContent : null;
      const dead = { ...obs, status: 'evil-win', end_reason: 'all-dead',
                     round_table: { white: 0, black: 0 } };
      const cardEnd = { status: 'evil-win', end_reason: 'swords', swords: { white: 0, black: 0 } };
      return [tip, soc.resultText(dead, ctx), card.resultText(cardEnd, ctx)];
    }""", obs)
    english = catalog("en")
    tip, soc_end, card_end = found
    assert tip == english.text("soc.board.mordred_slot", name=english.text("soc.black.mordred"))
    assert "0" not in soc_end and english.text("soc.end.all-dead") in soc_end, soc_end
    assert "0" not in card_end, card_end
