"""Shared fixtures: the toy game is registered only for the tests that ask for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pendragon.core import registry
from tests.toygame import ToyGame

#: The modules that hold the suite's longest tests (`pytest --durations`: whole games in a
#: browser, the 8-seat drawings, the learning example, the coach's reviews), longest first.
#: They are run first, each module's tests kept together (its fixtures set up once), so that
#: under `pytest -n 2 --dist worksteal` (`make pytest`) both workers end on short tests: a
#: 35 s test started last would lengthen the pass by as much (issue 41 item 4).
SLOW_FIRST = (
    "tests/test_grail_cup_tables.py",
    "tests/web/test_e2e.py",
    "tests/web/test_grail_cup_e2e.py",
    "tests/web/test_coach_web.py",
    "tests/test_learning_example.py",
    "tests/web/test_soc_card_e2e.py",
    "tests/web/test_lobby_e2e.py",
    "tests/web/test_table_readability_e2e.py",
    "tests/web/test_friends_e2e.py",
    "tests/web/test_phone_e2e.py",
    "tests/web/test_i18n_and_narration.py",
    "tests/web/test_api.py",
    "tests/web/test_lobby.py",
    "tests/test_envs.py",
    "tests/test_simulate.py",
    "tests/test_bench.py",
    "tests/web/test_seats_e2e.py",
    "tests/web/test_coach_e2e.py",
    "tests/test_conformance.py",
)


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixtures
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run :data:`SLOW_FIRST`'s modules first, in its order; every other test keeps its
    place after them (a stable sort: the order within a module does not change)."""
    rank = {name: index for index, name in enumerate(SLOW_FIRST)}

    def key(item: pytest.Item) -> int:
        try:
            name = Path(item.path).relative_to(config.rootpath).as_posix()
        except ValueError:
            return len(SLOW_FIRST)
        return rank.get(name, len(SLOW_FIRST))

    items.sort(key=key)


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[ToyGame]]:
    """Register the toy game for one test; the registry is restored afterwards.

    The registry is swapped for a copy first, so the package's own registry (and the
    doctests that print the list of games) never sees the toy game.
    """
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    registry.register_game(ToyGame)
    yield ToyGame
