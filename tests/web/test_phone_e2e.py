"""The pages on a phone, and the table's layout faults of issue 17 (items 8 and 9), in a real
browser (Debian's Chromium driven by Playwright).

On a phone (390x844, touch, ``is_mobile``) the lobby fits the screen's width; at each game's
table a player sees his moves within the first screen, his hand before the board, and a
board whose smallest word is drawn at least 9 px high; the replay fits too. On a desktop the
header stays one line when the game's (long) result fills its status, the lasting-effect
badges of "The realm" never cover its relic lines, and no Russian panel title runs into its
subtitle.

Screenshots are saved only when ``PENDRAGON_ARTIFACTS`` names a folder (``tests/web/browser.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

import pendragon
from tests.web.browser import GAME_SECONDS, needs_chromium, settle, shot
from tests.web.support import LiveServer, wait_for

pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

pytestmark = needs_chromium

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1500, "height": 1000}}
#: A small laptop's screen, where a game's result filled more than the header's one line.
LAPTOP = {"viewport": {"width": 1024, "height": 768}}
#: The smallest text a phone player must be able to read on the board, in CSS pixels.
READABLE_PX = 9.0
GAMES = ["soc", "soc-card", "grail-cup"]

#: The smallest font size of the board's SVG words as drawn on the screen (its CSS size
#: times the SVG's scale), and the word itself.
SMALLEST_BOARD_TEXT = """() => {
  let smallest = [Infinity, null];
  for (const text of document.querySelectorAll('[data-testid=board] svg text')) {
    const box = text.getBoundingClientRect();
    if (!box.width || !text.textContent.trim()) continue;
    const scale = Math.abs(text.ownerSVGElement.getScreenCTM().a);
    const px = parseFloat(getComputedStyle(text).fontSize) * scale;
    if (px < smallest[0]) smallest = [px, text.textContent];
  }
  return smallest;
}"""
#: Where an element's top lies on the page (not the screen), or null without one.
PAGE_TOP = """(selector) => {
  const node = document.querySelector(selector);
  return node ? node.getBoundingClientRect().top + window.scrollY : null;
}"""


def _page(browser: Any, device: dict[str, Any], locale: str = "en-GB") -> Iterator[Any]:
    context = browser.new_context(**device, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], f"the page raised errors: {errors}"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _page(browser, PHONE)


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    yield from _page(browser, DESKTOP)


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    yield from _page(browser, LAPTOP)


@pytest.fixture
def desktop_ru(browser: Any) -> Iterator[Any]:
    yield from _page(browser, DESKTOP, locale="ru-RU")


def create(server: LiveServer, game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    response = httpx.post(server.base + "/api/tables", json={"game": game, "seats": seats},
                          trust_env=False, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def page_width(page: Any) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


def finished_table(server: LiveServer, game: str) -> dict[str, Any]:
    """A table of bots only, played to its end (the server's bots move at once)."""
    created = create(server, game, [{"kind": "bot"}] * 3)
    token = created["spectator"]["link"].split("#", 1)[1]
    with server.http() as http:
        wait_for(http, token, lambda body: bool(body["state"]["finished"]),
                 timeout=GAME_SECONDS)
    return created


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> Callable[[str], dict[str, Any]]:
    """A finished game of bots only per game, played once for the module's server: the
    tests that open one only read it (its replay, its spectator's page)."""
    made: dict[str, dict[str, Any]] = {}

    def table(game: str) -> dict[str, Any]:
        if game not in made:
            made[game] = finished_table(server, game)
        return made[game]

    return table


# ------------------------------------------------------------------ phones (issue 17, item 9)
def test_the_lobby_fits_a_phone(phone: Any, server: LiveServer) -> None:
    """Issue 17, item 9: the lobby was 495 px wide on a 390 px phone, cut off."""
    phone.goto(server.base + "/")
    phone.wait_for_selector("[data-testid=game] option", state="attached")
    for game in GAMES:  # each game's options and seats
        phone.select_option("[data-testid=game]", game)
        assert page_width(phone) <= 390, game
    shot(phone, "phone-lobby")
    phone.select_option("[data-testid=game]", "soc")
    phone.click("[data-testid=create]")
    phone.wait_for_selector("[data-testid=link-seat-0]")
    assert page_width(phone) <= 390
    shot(phone, "phone-links")


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_player_sees_his_moves_his_hand_and_a_readable_board(
    phone: Any, server: LiveServer, game: str
) -> None:
    """Issue 17, item 9: the board shrank to 4 px text and the move buttons began 1,359 px
    down the page. Now, on the player's turn: nothing wider than the screen, the moves within
    the first screen, the hand next and above the board, the board's words 9 px or more."""
    created = create(server, game, [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                    {"kind": "bot"}])
    phone.goto(server.base + created["seats"][0]["link"])
    phone.wait_for_selector("[data-testid=board] svg", state="attached")
    phone.wait_for_selector("button[data-testid=action]", timeout=GAME_SECONDS * 1000)
    settle(phone)  # the grail cup's cards have slid in
    shot(phone, f"phone-{game}")
    assert page_width(phone) <= 390
    moves = phone.evaluate(PAGE_TOP, "button[data-testid=action]")
    hand = phone.evaluate(PAGE_TOP, "[data-testid=private]")
    assert moves <= 844, f"the first move button is {moves} px down the page"
    assert hand is not None and moves < hand, (moves, hand)
    assert hand <= 844, f"the hand begins {hand} px down the page"
    # The board has a tab of its own, the hand beneath it (issue 39, item 11).
    assert not phone.locator("[data-testid=board]").is_visible()
    phone.locator("[data-testid=phone-tab-board]").click()
    board = phone.evaluate(PAGE_TOP, "[data-testid=board]")
    hand = phone.evaluate(PAGE_TOP, "[data-testid=private]")
    assert board < hand, (board, hand)
    assert page_width(phone) <= 390
    smallest, word = phone.evaluate(SMALLEST_BOARD_TEXT)
    assert smallest >= READABLE_PX, f"{word!r} is drawn {smallest:.1f} px high"
    phone.locator("[data-testid=phone-tab-play]").click()
    # A move can be made with a tap.
    phone.locator("button[data-testid=action]").first.tap()
    phone.locator("[data-testid=phone-tab-talk]").click()
    phone.wait_for_selector("[data-testid=log] li")


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_fits_a_phone(phone: Any, server: LiveServer, game: str,
                                finished: Callable[[str], dict[str, Any]]) -> None:
    """The replay page on a phone: nothing wider than the screen, a readable board."""
    created = finished(game)
    phone.goto(server.base + created["spectator"]["link"].replace("/table#", "/replay#"))
    phone.wait_for_selector("[data-testid=board] svg")
    phone.wait_for_selector("[data-testid=secrets]")
    shot(phone, f"phone-replay-{game}")
    assert page_width(phone) <= 390
    smallest, word = phone.evaluate(SMALLEST_BOARD_TEXT)
    assert smallest >= READABLE_PX, f"{word!r} is drawn {smallest:.1f} px high"
    controls = phone.evaluate(PAGE_TOP, "[data-testid=replay-next]")
    assert controls <= 844


def test_sir_bors_asked_to_be_dealt_in_sees_the_cards_on_a_phone(
    phone: Any, desktop: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MC-KNIGHT-BORS, SOC-RULING-77: at a table that deals revealed white cards face down,
    Sir Bors is asked whether he is dealt in. The cards lie on the table, which a phone's
    "Play" tab hides: there they stand under the prompt too; a desktop shows them once, on
    its table panel."""
    from tests.test_heuristic_mc import MC, _decision, _play, _state

    state = _state(
        [{"location": "picts", "hand": {"fight-5": 1, "grail": 2}}, {},
         {"knight": "bors", "hand": {"fight-1": 2}}],
        options={**MC, "share": "random"},
        quests={"picts": {"white": ["fight-1", "fight-2", "fight-3", "fight-4"]}},
    )
    _play(state, "play:fight-5", *(f"white-card:{k}" for k in ("grail", "merlin", "fight-1",
                                                                  "fight-2")))
    assert _decision(state) == "bors-deal" and state.current_player() == 2
    monkeypatch.setattr(type(state.game), "new_initial_state", lambda self: state.clone())
    created = create(server, "soc", [{"kind": "bot"}, {"kind": "bot"},
                                     {"kind": "human", "name": "Bors"}])
    offered = ["Grail", "Merlin", "Fight 1", "Fight 2"]
    phone.goto(server.base + created["seats"][2]["link"])
    phone.wait_for_selector("button[data-testid=action]", timeout=GAME_SECONDS * 1000)
    about = phone.locator("[data-testid=decision-context]")
    assert about.is_visible()
    chips = about.locator(".chip.white").all_inner_texts()
    assert sorted(chips) == sorted(offered), chips
    top = phone.evaluate(PAGE_TOP, "[data-testid=decision-context]")
    assert top <= 844 and page_width(phone) <= 390, top
    shot(phone, "phone-bors-deal")
    desktop.goto(server.base + created["seats"][2]["link"])
    desktop.wait_for_selector("button[data-testid=action]", timeout=GAME_SECONDS * 1000)
    assert not desktop.locator("[data-testid=decision-context]").is_visible()
    on_table = desktop.locator("[data-testid=on-table] .chip.white").all_inner_texts()
    assert sorted(on_table) == sorted(offered), on_table
    # Dealt face down by the giver, not handed out by his choice.
    table = desktop.locator("[data-testid=on-table]").inner_text()
    assert "Sir Ector deals them face down." in table, table


def test_a_card_game_player_sees_morgans_announcement_under_his_prompt_on_a_phone(
    phone: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SCG-MORGAN-1: the next player decides whether to go on the quest announced, a card he
    cannot see; the announcement (and Morgan's silence) lie on the table, which a phone's
    "Play" tab hides: they stand under his prompt too."""
    from pendragon.games.soc_card.rules.fixtures import load_state

    state = load_state({"players": 3, "in_force": {"morgan-1": True, "silence": True}})
    for text in ("listen", "rumor:saxons-4", "announce-card:saxons-4"):
        state.apply_action(state.string_to_action(text))
    assert state.current_player() == 1
    monkeypatch.setattr(type(state.game), "new_initial_state", lambda self: state.clone())
    created = create(server, "soc-card", [{"kind": "bot"}, {"kind": "human", "name": "Ann"},
                                          {"kind": "bot"}])
    phone.goto(server.base + created["seats"][1]["link"])
    phone.wait_for_selector("button[data-testid=action]", timeout=GAME_SECONDS * 1000)
    about = phone.locator("[data-testid=decision-context]")
    assert about.is_visible()
    text = about.inner_text()
    assert "Morgan's silence" in text and "announced" in text and "Saxon" in text, text
    # The copies carry no test ids: the table's own rows stay the only ones.
    assert phone.locator("[data-testid=announcement]").count() == 1
    shot(phone, "phone-card-announcement")


def test_a_grail_cup_knight_sees_the_race_under_his_prompt_on_a_phone(
    phone: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GC-ALLY-SORCERESS-1: the Sorceress's holder curses an ally, a choice that hangs on
    who leads the race; the race lies on the table, which a phone's "Play" tab hides: the
    knights in race order stand under his prompt too (not at the draft, whose packet is in
    his hand)."""
    from pendragon.games.grail_cup.rules.fixtures import load_state

    state = load_state({"players": 3, "knights": [{"space": 13}, {"space": 30}, {"space": 5}],
                        "hands": {0: ["sorceress"], 1: ["fairy"]}})
    assert state.observation(None)["waiting"]["decision"] == "curse"
    assert state.current_player() == 0
    monkeypatch.setattr(type(state.game), "new_initial_state", lambda self: state.clone())
    created = create(server, "grail-cup", [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                           {"kind": "bot"}])
    phone.goto(server.base + created["seats"][0]["link"])
    phone.wait_for_selector("button[data-testid=action]", timeout=GAME_SECONDS * 1000)
    about = phone.locator("[data-testid=decision-context]")
    assert about.is_visible()
    cells = about.locator("tbody tr td:nth-child(3)").all_inner_texts()
    assert cells == ["30", "14", "5"], cells  # the race order: spaces from the leader down
    assert phone.locator("[data-testid=gc-knights]").count() == 1  # the copy has no id
    assert page_width(phone) <= 390
    shot(phone, "phone-grail-cup-curse")


# ------------------------------------------------------------------ the desktop (issue 17, item 8)
#: The header's children lie on one line: their vertical centres differ by a few pixels at most.
HEADER_ON_ONE_LINE = """() => {
  const header = document.querySelector('header.top');
  const centres = [...header.children].filter((c) => c.getBoundingClientRect().height > 0)
    .map((c) => { const r = c.getBoundingClientRect(); return r.top + r.height / 2; });
  return [Math.max(...centres) - Math.min(...centres), header.getBoundingClientRect().height];
}"""


@pytest.mark.parametrize("game", GAMES)
def test_the_end_of_the_game_does_not_wrap_the_header(
    laptop: Any, server: LiveServer, game: str, finished: Callable[[str], dict[str, Any]],
) -> None:
    """Issue 17, item 8: the result (a long line in the header's status) wrapped the header
    onto a second line. On a 1024 px screen the header keeps the height it has during a game
    (the result, cut short there, is whole in the actions panel)."""
    desktop = laptop
    running = create(server, game, [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                    {"kind": "bot"}])
    desktop.goto(server.base + running["seats"][0]["link"])
    desktop.wait_for_selector("[data-testid=board] svg")
    spread, height_running = desktop.evaluate(HEADER_ON_ONE_LINE)
    assert spread <= 4
    ended = finished(game)
    desktop.goto("about:blank")  # another table's link differs only in its #fragment
    desktop.goto(server.base + ended["spectator"]["link"])
    desktop.wait_for_selector("[data-testid=result]")
    result = desktop.locator("[data-testid=result]").inner_text()
    assert result and result in desktop.locator("[data-testid=status]").inner_text()
    spread, height_finished = desktop.evaluate(HEADER_ON_ONE_LINE)
    shot(desktop, f"desktop-end-{game}")
    assert spread <= 4, "the header wrapped onto a second line"
    assert abs(height_finished - height_running) <= 1


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] and b["left"] < a["right"]
            and a["top"] < b["bottom"] and b["top"] < a["bottom"])


#: The soc board drawn by its module for a given observation, measured: the realm panel, its
#: relic lines and effect badges, and each panel's title and subtitle.
DRAW_SOC_BOARD = """async ([obs, me]) => {
  const board = await import('/games/soc/board.js');
  const i18n = await import('/static/js/i18n.js');
  const name = (seat) => (seat === me ? i18n.t('table.you')
    : i18n.t('table.seat_n', { n: seat + 1 }));
  const ctx = { t: i18n.t, me, seatName: name, seats: [], obs, finished: false };
  ctx.events = { me, seatName: name };
  const holder = document.createElement('div');
  holder.style.width = '1200px';
  holder.dataset.testid = 'drawn';
  holder.append(board.drawBoard(obs, ctx));
  document.body.append(holder);
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: node.textContent };
  };
  const realm = holder.querySelector('[data-quest=status]');
  const panels = [...holder.querySelectorAll('g.quest')].map((g) => ({
    quest: g.dataset.quest,
    panel: box(g.querySelector('.b-panel')),
    title: box(g.querySelector('.b-title')),
    sub: g.querySelector('.b-sub') ? box(g.querySelector('.b-sub')) : null,
  }));
  const result = {
    realm: box(realm.querySelector('.b-panel')),
    relics: [...realm.querySelectorAll('.b-relic-line')].map(box),
    badges: [...realm.querySelectorAll('.b-effect rect')].map(box),
    panels,
  };
  holder.remove();
  return result;
}"""


def _every_effect_observation() -> dict[str, Any]:
    """Seat 0's observation of a Merlin's Company game with every lasting effect in force
    and every relic placed (the realm's fullest picture)."""
    game = pendragon.load_game("soc", players=6, seed=1, expansion="merlins-company")
    state = game.new_initial_state()
    obs: dict[str, Any] = dict(state.observation(0))
    obs["effects"] = {"vivien": True, "mist": True, "dark_forest": True, "mordred": "picts",
                      "heroism": "grail", "merlin": "black-knight", "witches": [2, 5, 6, 7],
                      "divine_favor": True}
    obs["relics"] = {"excalibur": 0, "grail": 3, "armor": "lost"}
    return obs


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_realms_badges_never_cover_its_relic_lines(
    desktop: Any, server: LiveServer, language: str
) -> None:
    """Issue 17, item 8: the lasting-effect badges covered the relic lines in "The realm".
    With every effect in force (more badges than one row holds), no badge overlaps a relic
    line or another badge, and every badge lies inside the panel."""
    created = create(server, "soc", [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                     {"kind": "bot"}])
    desktop.goto(server.base + created["seats"][0]["link"])
    desktop.wait_for_selector("[data-testid=board] svg")
    if language != "en":
        desktop.select_option("[data-testid=language]", language)
        desktop.wait_for_selector(f"html[lang={language}]", state="attached")
    drawn = desktop.evaluate(DRAW_SOC_BOARD, [_every_effect_observation(), 0])
    relics, badges, realm = drawn["relics"], drawn["badges"], drawn["realm"]
    assert len(relics) == 3 and len(badges) == 11
    assert len({round(b["top"]) for b in badges}) >= 2, "expected more than one row of badges"
    for badge in badges:
        assert not any(_overlaps(badge, line) for line in relics), (badge, relics)
        assert realm["left"] <= badge["left"] and badge["right"] <= realm["right"]
        assert realm["top"] <= badge["top"] and badge["bottom"] <= realm["bottom"]
    for i, one in enumerate(badges):
        assert not any(_overlaps(one, other) for other in badges[i + 1:])
    # The reader's own relic reads "held by you" in its language's own words.
    mine = relics[0]["text"]
    assert mine == {"en": "Excalibur: held by you", "ru": "Экскалибур: у вас"}[language]


def test_russian_panel_titles_do_not_run_into_their_subtitles(
    desktop_ru: Any, server: LiveServer
) -> None:
    """Issue 17, item 8: in Russian a quest's title ran into its subtitle ("одиночное · ...").
    Every panel's title and subtitle are apart and inside their panel."""
    created = create(server, "soc", [{"kind": "human", "name": "Ann"}, {"kind": "bot"},
                                     {"kind": "bot"}])
    desktop_ru.goto(server.base + created["seats"][0]["link"])
    desktop_ru.wait_for_selector("html[lang=ru]", state="attached")
    desktop_ru.wait_for_selector("[data-testid=board] svg")
    drawn = desktop_ru.evaluate(DRAW_SOC_BOARD, [_every_effect_observation(), 0])
    subtitled = [p for p in drawn["panels"] if p["sub"]]
    assert len(subtitled) >= 6
    assert "Чёрный" in " ".join(p["title"]["text"] for p in drawn["panels"])
    for entry in subtitled:
        title, sub, panel = entry["title"], entry["sub"], entry["panel"]
        assert not _overlaps(title, sub), entry
        assert panel["left"] <= sub["left"] and sub["right"] <= panel["right"], entry
        assert panel["left"] <= title["left"] and title["right"] <= panel["right"], entry
