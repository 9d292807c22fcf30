"""A game from another package plugs in like the built-in ones (``examples/plugin-game``).

The example package ``pendragon-sword-stone`` publishes The Sword in the Stone through one
entry point and changes no line of ``pendragon``. These tests play it through every
interface: the registry and ``pendragon games``, the terminal with piped input, the web
table over HTTP and WebSocket and in a browser, PettingZoo's own API test, Gymnasium and
OpenSpiel, and the conformance checker. The example's rules, golden playthroughs and
doctests are tested in its own package (``python -m pytest examples/plugin-game``).
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pendragon
from pendragon.core.plugins import installed_plugins, plugin_source

NAME = "sword-stone"
DISTRIBUTION = "pendragon-sword-stone"
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "plugin-game"
SOURCE = Path(__file__).resolve().parent.parent / "src" / "pendragon"

if NAME not in installed_plugins():
    pytest.skip(
        f"the example plugin {DISTRIBUTION} is not installed "
        f"(pip install --no-deps -e {EXAMPLE.relative_to(EXAMPLE.parent.parent)})",
        allow_module_level=True,
    )


# ---------------------------------------------------------------------- registration
def test_the_game_comes_from_its_own_package_and_nothing_in_pendragon_names_it() -> None:
    """Registered through the other distribution's entry point; pendragon never names it."""
    assert NAME in pendragon.registered_games()
    assert plugin_source(NAME) == DISTRIBUTION
    plugin = installed_plugins()[NAME]
    assert plugin.rules.startswith("pendragon_sword_stone.")
    assert pendragon.game_class(NAME).__module__ == "pendragon_sword_stone.rules.game"
    mentions = [
        str(path.relative_to(SOURCE))
        for path in SOURCE.rglob("*")
        if path.is_file() and path.suffix in {".py", ".js", ".pot", ".po", ".html", ".css"}
        and re.search(r"sword[-_ ]stone|sword in the stone", path.read_text("utf-8"), re.I)
    ]
    assert mentions == [], f"pendragon itself names the example game in {mentions}"


def test_pendragon_games_lists_it_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI's list names the game, its player range, its option and its package."""
    from pendragon.cli.main import main

    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"sword-stone: The Sword in the Stone \(2-4 players\)", out), out
    assert "target" in out and DISTRIBUTION in out


def test_its_catalogs_are_complete_in_every_language() -> None:
    """Its messages join the catalogs; no language lacks or mistranslates one."""
    from pendragon.i18n import LANGUAGES, catalog, problems

    for language in LANGUAGES:
        assert problems(language).all() == [], language
        assert "sword-stone.log.pull" in catalog(language)
    russian = catalog("ru")
    assert [russian.text("sword-stone.board.hand", count=n) for n in (1, 3, 5)] == [
        "1 карта", "3 карты", "5 карт",
    ]


def test_the_heuristic_bot_plays_its_own_policy() -> None:
    """``heuristic`` dispatches to the plugin's policy class."""
    from pendragon.bots.heuristic import game_policy

    policy = game_policy(NAME)
    assert policy is not None and policy.__name__ == "SwordStoneBot"


# ---------------------------------------------------------------------- terminal
def test_a_whole_game_plays_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pendragon play sword-stone``: typing 1 at every prompt finishes the game, drawn
    by the plugin's renderer and narrated from its catalog."""
    from pendragon.cli.main import main

    game = pendragon.load_game(NAME, players=2, seed=7)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * game.max_game_length()))
    monkeypatch.setenv("LANGUAGE", "en")
    code = main(["play", NAME, "--players", "2", "--seat", "0", "--seed", "7",
                 "--bots", "heuristic"])
    out, err = capsys.readouterr()
    assert code == 0, err + out[-2000:]
    assert "Traceback" not in out + err
    assert "The stone:" in out and "Your hand" in out, "the plugin's renderer draws the view"
    assert "You take" in out and "takes a card." in out, "its own narration"
    assert re.search(r"draws the sword|become king|Stalemate", out), out[-2000:]


# ---------------------------------------------------------------------- web table
@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    """A live web server on a fresh SQLite database."""
    for module in ("fastapi", "uvicorn", "httpx", "websockets"):
        pytest.importorskip(module, reason="the web table needs the 'web' extras")
    from tests.web.support import live_server

    with live_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as live:
        yield live


def test_a_whole_game_plays_at_the_web_table(server: Any) -> None:
    """A human over the WebSocket against the heuristic bot, a spectator watching: the
    game ends, nobody is sent another knight's hand, and the replay reveals them."""
    from tests.web.support import Peer, auth, finished, my_turn

    with server.http() as http:
        games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
        assert games[NAME]["min_players"] == 2 and games[NAME]["max_players"] == 4
        assert [o["name"] for o in games[NAME]["options"]] == ["target"]
        board = http.get(f"/games/{NAME}/board.js")
        assert board.status_code == 200
        assert board.text == (EXAMPLE / "src/pendragon_sword_stone/board.js").read_text("utf-8")
        polish = http.get("/i18n/pl.json").json()
        assert polish["sword-stone.action.draw"] == "Dobierz kartę"
        response = http.post("/api/tables", json={
            "game": NAME,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "heuristic"}],
            "options": {"target": 15},
        })
        assert response.status_code == 201, response.text
        created = response.json()

    player = Peer(server.ws_url, created["seats"][0]["token"])
    spectator = Peer(server.ws_url, created["spectator"]["token"])
    try:
        assert player.recv()["type"] == "welcome"
        assert spectator.recv()["type"] == "welcome"
        state = player.until(lambda m: my_turn(m) or finished(m))
        for _ in range(pendragon.load_game(NAME, target=15).max_game_length()):
            if state["finished"]:
                break
            action = state["legal"][0]
            assert action["label"]["k"].startswith("sword-stone.action.")
            version = state["version"]
            player.send({"type": "move", "version": version, "action": action["id"]})

            def answered(message: dict[str, Any], after: int = version) -> bool:
                return (message.get("type") == "state" and message["version"] > after
                        and (my_turn(message) or finished(message)))

            state = player.until(answered)
        else:
            raise AssertionError("the game did not end")
        watched = spectator.until(finished)
    finally:
        player.close()
        spectator.close()

    final = state["observation"]
    assert final["over"] and final["seat"] == 0 and len(final["revealed"]) == 2
    assert state["returns"] in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert "hand" not in watched["observation"], "a spectator has no hand"
    running = [m for m in player.received if m.get("type") == "state" and not m["finished"]]
    assert running and all("revealed" not in m["observation"] for m in running)
    events = [e for m in player.received if m.get("type") == "state" for line in m["log"]
              for e in line["events"]]
    assert {e["k"] for e in events} >= {"sword-stone.log.dealt-known", "sword-stone.log.dealt"}
    assert not any(e["k"] == "sword-stone.log.dealt-known" and e["p"]["seat"] == {"seat": 1}
                   for e in events), "seat 0 was told a card of seat 1"
    with server.http() as http:
        replay = http.get(f"/api/replay/{state['version']}",
                          headers=auth(created["spectator"]["token"])).json()
    assert [o["seat"] for o in replay["observations"]] == [0, 1]


CHROMIUM = "/usr/bin/chromium"


def test_its_board_module_draws_a_whole_game_in_a_browser(server: Any) -> None:
    """The table page imports the plugin's board.js: a game clicked through to the end in
    Chromium, without a page error, and the board speaks Russian when asked."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"needs Debian's Chromium at {CHROMIUM} (scripts/system-deps.sh)")
    with server.http() as http:
        created = http.post("/api/tables", json={
            "game": NAME, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot"}],
        }).json()
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--headless", "--disable-gpu"]
        )
        try:
            page = browser.new_page(locale="en-GB")
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.base + created["seats"][0]["link"])
            page.wait_for_selector("[data-testid=stone-total]")
            assert page.inner_text("[data-testid=hand]").count("(") == 3, "three cards dealt"
            for _ in range(pendragon.load_game(NAME).max_game_length()):
                if page.query_selector("[data-testid=result]"):
                    break
                button = page.query_selector("[data-testid=action]:not([disabled])")
                if button is not None:
                    button.click()
                # The next move of ours, or the end (a click disables the buttons at once).
                page.wait_for_selector(
                    "[data-testid=action]:not([disabled]), [data-testid=result]")
            result = page.inner_text("[data-testid=result]")
            assert re.search(r"draws the sword|become king|Stalemate", result), result
            page.select_option("[data-testid=language]", "ru")
            page.wait_for_selector("text=Камень:")
        finally:
            browser.close()
    assert errors == [], errors


# ---------------------------------------------------------------------- research envs
def test_pettingzoo_api_test_passes() -> None:
    """``pendragon.envs.sword_stone_v1`` exists and passes PettingZoo's own test suites."""
    pytest.importorskip("pettingzoo", reason="the research envs need the 'rl' extras")
    from pettingzoo.test import api_test, seed_test

    import pendragon.envs

    name = installed_plugins()[NAME].pettingzoo_name
    assert name == "sword_stone_v1"
    module = getattr(pendragon.envs, name)  # ``from pendragon.envs import sword_stone_v1``
    with warnings.catch_warnings():
        # PettingZoo's classic card games use Dict observations too.
        warnings.filterwarnings("ignore", message=".*Observation is not a NumPy array.*")
        for players in (2, 4):
            api_test(module.env(players=players), num_cycles=300, verbose_progress=False)
        seed_test(lambda: module.env(players=3), num_cycles=100)


def test_gymnasium_and_openspiel_know_it_by_its_plugin_names() -> None:
    """``pendragon/sword-stone-v1`` passes Gymnasium's checker; pyspiel plays
    ``python_pendragon_sword_stone`` to the end."""
    gymnasium = pytest.importorskip("gymnasium", reason="the research envs need the 'rl' extras")
    pyspiel = pytest.importorskip("pyspiel", reason="the research envs need the 'rl' extras")
    import random

    from gymnasium.utils.env_checker import check_env

    import pendragon.envs.gymnasium_env  # noqa: F401  (registers the Gymnasium ids)
    from pendragon.envs import openspiel

    plugin = installed_plugins()[NAME]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*should be gymnasium.spaces.box.*")
        check_env(gymnasium.make(plugin.gymnasium_id, players=3).unwrapped)
    assert plugin.openspiel_name in openspiel.REGISTERED
    state = pyspiel.load_game(plugin.openspiel_name, {"players": 3}).new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])


# ---------------------------------------------------------------------- conformance
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_pass_the_conformance_checker(players: int) -> None:
    """The checker of ``tests/test_conformance.py`` (which also runs it on every installed
    game) passes on a few seeded games at every table size."""
    from tests.test_conformance import check_random_playout

    for seed in range(3):
        game = pendragon.load_game(NAME, players=players, seed=100 * players + seed)
        assert check_random_playout(game, seed).is_terminal()
