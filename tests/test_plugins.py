"""Games as plugins, and the game-agnostic calls every game gets from the core.

Checks that every installed game's rules are pure (they import nothing but ``pendragon.core``,
their own package and the standard library), that the registry and every layer find a game
through its entry point, that a broken entry point is refused with a clear error, and the
core calls ``supported_player_counts``, ``public_history`` and ``observations``.
"""

from __future__ import annotations

import ast
import importlib
import json
import random
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import pendragon
from pendragon.bots.heuristic import game_policy
from pendragon.core import plugins
from pendragon.core.events import Event
from pendragon.core.plugins import GamePlugin, PluginError, installed_plugins
from pendragon.i18n import catalog

PLUGINS = sorted(installed_plugins())


def _rules_package(plugin: GamePlugin) -> str:
    module = plugin.rules.partition(":")[0]
    return module.rpartition(".")[0]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


@pytest.mark.parametrize("name", PLUGINS)
def test_rules_import_only_the_core_and_the_standard_library(name: str) -> None:
    """STYLE: one pure rules core per game; adapters can be deleted without touching it."""
    package = _rules_package(installed_plugins()[name])
    folder = Path(importlib.import_module(package).__file__ or "").parent
    files = sorted(folder.rglob("*.py"))
    assert files, f"no rules modules found for {name}"
    for path in files:
        for module in _imports(path):
            top = module.split(".")[0]
            allowed = (
                top in sys.stdlib_module_names
                # The compiler's hints (mypyc_attr), which change nothing at run time.
                or module == "mypy_extensions"
                or module == "pendragon.core"
                or module.startswith(("pendragon.core.", package))
            )
            assert allowed, f"{path.name} of {name} imports {module}"


def test_the_purity_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    leaky = tmp_path / "leaky.py"
    leaky.write_text("from pendragon.web.server import create_app\nimport numpy\n")
    assert _imports(leaky) == {"pendragon.web.server", "numpy"}


@pytest.mark.parametrize("name", PLUGINS)
def test_every_piece_a_plugin_names_imports(name: str) -> None:
    plugin = installed_plugins()[name]
    assert pendragon.game_class(name).name == name
    for piece in plugin.pieces():
        if piece == "web_module":
            path = plugin.web_module_path()
            assert path is not None and path.is_file(), path
        elif piece != "environment":
            assert plugin.load(piece) is not None
    assert (plugin.locale_path() / "messages.pot").is_file()
    # The game's title is in every catalog.
    for language in ("en", "ru", "cs", "pl"):
        assert catalog(language).text(f"game.{name}")


def test_soc_is_one_plugin_with_every_piece() -> None:
    plugin = installed_plugins()["soc"]
    assert set(plugin.pieces()) >= {
        "heuristic", "rollout", "terminal", "web_adapter", "web_module", "fixtures",
        "environment",
    }
    assert plugins.plugin_source("soc") == "pendragon"
    factory = game_policy("soc")
    assert factory is not None and type(factory(1)).__name__ == "SocHeuristicBot"


def _fake_entry_points(*points: EntryPoint) -> object:
    def entry_points(group: str) -> tuple[EntryPoint, ...]:
        return points if group == plugins.ENTRY_POINT_GROUP else ()

    return entry_points


def test_a_broken_entry_point_is_an_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = {
        "ghost = no.such.module:PLUGIN": "cannot import no.such.module",
        "wrong = pendragon.games.soc.plugin:NOTHING": "has no 'NOTHING'",
        "other = pendragon.games.soc.plugin:PLUGIN": "declares the game 'soc'",
        "text = pendragon.core.plugins:ENTRY_POINT_GROUP": "is not a GamePlugin",
    }
    for line, message in cases.items():
        name, _, value = (part.strip() for part in line.partition("="))
        point = EntryPoint(name=name, value=value, group=plugins.ENTRY_POINT_GROUP)
        monkeypatch.setattr(plugins, "entry_points", _fake_entry_points(point))
        plugins.installed_plugins.cache_clear()
        try:
            with pytest.raises(PluginError, match=message):
                installed_plugins()
        finally:
            plugins.installed_plugins.cache_clear()


def test_a_plugin_naming_its_package_holds_absolute_paths() -> None:
    """``package=``: a module path starting with a dot and a bare file path are the
    package's, and its catalogs its ``locale`` folder; another package's path stays as is."""
    plugin = GamePlugin(name="toy", package="toy_game", rules=".rules.game:ToyGame",
                        rollout="other.pkg:rollout", bots={"sly": ".bots:Sly"},
                        web_module="static/board.js")
    assert plugin.rules == "toy_game.rules.game:ToyGame"
    assert plugin.rollout == "other.pkg:rollout"
    assert plugin.bots == {"sly": "toy_game.bots:Sly"}
    assert (plugin.locale, plugin.web_module) == ("toy_game:locale", "toy_game:static/board.js")
    parent = GamePlugin(name="toy", package="games.toy", rules="..shared:Game", locale="words")
    assert (parent.rules, parent.locale) == ("games.shared:Game", "games.toy:words")


@pytest.mark.parametrize("pieces", [
    {"rules": ".rules:Game", "locale": "x:locale"},
    {"rules": "x:Game"},
    {"rules": "x:Game", "locale": "x:locale", "bots": {"sly": ".bots:Sly"}},
])
def test_a_relative_path_without_a_package_is_refused(pieces: dict[str, object]) -> None:
    with pytest.raises(PluginError, match="toy"):
        GamePlugin(name="toy", **pieces)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", PLUGINS)
def test_every_installed_plugin_names_its_pieces_absolutely(name: str) -> None:
    plugin = installed_plugins()[name]
    for piece in ["rules", *plugin.pieces()]:
        reference = getattr(plugin, piece)
        if isinstance(reference, str):
            assert not reference.startswith(".") and ":" in reference, (piece, reference)
    assert plugin.locale_path().joinpath("messages.pot").is_file()


def test_a_game_from_another_package_is_loaded_through_its_entry_point(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What ``pip install`` of a game package does: one entry point, and the game loads."""
    package = tmp_path / "extra_game"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from pendragon.core.plugins import GamePlugin\n"
        "from tests.toygame import ToyGame\n"
        "class ExtraGame(ToyGame):\n"
        "    name = 'extra'\n"
        "PLUGIN = GamePlugin(name='extra', rules='extra_game:ExtraGame',"
        " locale='pendragon.games.soc:locale')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    point = EntryPoint(name="extra", value="extra_game:PLUGIN", group=plugins.ENTRY_POINT_GROUP)
    monkeypatch.setattr(plugins, "entry_points", _fake_entry_points(point))
    plugins.installed_plugins.cache_clear()
    try:
        assert "extra" in pendragon.registered_games()
        state = pendragon.load_game("extra", players=2, seed=1).new_initial_state()
        assert state.game.name == "extra"
    finally:
        plugins.installed_plugins.cache_clear()
        pendragon.core.registry._GAMES.pop("extra", None)


# ------------------------------------------------------------------ core calls for every game
def test_supported_player_counts_follow_the_options() -> None:
    """SOC-SETUP-1 (3-7 knights) and MC-SETUP-1 (Merlin's Company seats an eighth)."""
    soc = pendragon.game_class("soc")
    assert soc.supported_player_counts() == [3, 4, 5, 6, 7]
    assert soc.supported_player_counts({"expansion": "merlins-company"})[-1] == 8


def _played(name: str, seed: int, steps: int) -> pendragon.State:
    state = pendragon.load_game(name, seed=seed).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and state.version < steps:
        action = state.sample_chance() if state.is_chance_node() else rng.choice(
            state.legal_actions()
        )
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", PLUGINS)
def test_public_history_is_what_the_spectators_were_told(name: str) -> None:
    state = _played(name, seed=4, steps=150)
    replay = state.game.new_initial_state()
    records = state.public_history()
    assert [r.index for r in records] == list(range(state.version))
    for record, action in zip(records, state.history(), strict=True):
        player = replay.current_player()
        assert record.actor == (player if player >= 0 else None)
        assert list(record.events) == replay.narrate(action, None)
        assert all(isinstance(e, Event) for e in record.events)
        replay.apply_action(action)


def test_public_history_hides_private_draws() -> None:
    """SOC-CAMELOT-2: the white cards a knight draws are known to him only."""
    state = _played("soc", seed=2, steps=60)
    keys = {e.key for r in state.public_history() for e in r.events}
    assert "soc.log.draw-white" in keys or "soc.log.reveal-white" in keys
    assert "soc.log.draw-white-known" not in keys


@pytest.mark.parametrize("name", PLUGINS)
def test_batched_observations_equal_one_by_one(name: str) -> None:
    state = _played(name, seed=9, steps=80)
    seats: list[int | None] = [*range(state.game.num_players()), None]
    batched = state.observations(seats)
    assert [json.dumps(o, sort_keys=True) for o in batched] == [
        json.dumps(state.observation(s), sort_keys=True) for s in seats
    ]
