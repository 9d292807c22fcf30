"""Shared fixtures: the toy game is registered only for the tests that ask for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pendragon.core import registry
from tests.toygame import ToyGame


@pytest.fixture
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[ToyGame]]:
    """Register the toy game for one test; the registry is restored afterwards.

    The registry is swapped for a copy first, so the package's own registry (and the
    doctests that print the list of games) never sees the toy game.
    """
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    registry.register_game(ToyGame)
    yield ToyGame
