"""Declarative rule scenarios: a position, steps to play, and what must then be true.

A scenario is a mapping (usually a YAML file under ``tests/scenarios/``)::

    title: The Black Knight falls to two pairs
    game: soc
    rules: [SOC-BK-1, SOC-BK-3]          # rule IDs of docs/rules/<game>.md it checks
    state: {...}                          # the game's fixture format (docs/testing.md)
    steps:
      - play: play:fight-5                # an action's text (a chance outcome forces chance)
        by: 0                             # optional: who must be acting
      - illegal: play:fight-1             # must be refused, leaving the state unchanged
      - legal: [play:fight-1, end-turn]   # exactly these are legal now
      - legal_includes: [draw-white]
      - legal_excludes: [fight-siege]
      - expect: {round_table.white: 1, "@0.you.hand.grail": 2, returns: [1, 1, 1]}

``expect`` paths are dotted paths into ``observation(None)``; a first segment ``@N`` reads
``observation(N)`` instead. ``returns``, ``current_player`` and ``terminal`` read the
state's API directly.

>>> _ = run_scenario({
...     "game": "soc", "rules": ["SOC-CAMELOT-2"],
...     "state": {"players": 3, "turn": {"seat": 0, "phase": "heroic"}},
...     "steps": [{"play": "draw-white"}, {"play": "white-card:grail"},
...               {"play": "white-card:grail"}, {"expect": {"@0.you.hand.grail": 2}}],
... })
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from pendragon.core.api import State
from pendragon.core.errors import BadFixtureError, IllegalActionError

FixtureLoader = Callable[[Any], State]
_LOADERS: dict[str, FixtureLoader] = {}
_SCENARIO_KEYS = {"title", "game", "rules", "state", "steps"}
_STEP_KEYS = {
    "play", "table", "by", "illegal", "legal", "legal_includes", "legal_excludes", "expect",
}


class ScenarioFailure(AssertionError):
    """A scenario's expectation did not hold."""


def register_fixture_loader(game: str, loader: FixtureLoader) -> None:
    """Make ``state:`` descriptions of ``game`` loadable."""
    _LOADERS[game] = loader


def load_fixture(game: str, data: Any) -> State:
    """Build a state of ``game`` from its fixture description."""
    if game not in _LOADERS:
        _import_loaders()
    if game not in _LOADERS:
        raise BadFixtureError(f"no fixture format for game {game!r}")
    return _LOADERS[game](data)


def _import_loaders() -> None:
    from pendragon.core.plugins import installed_plugins

    for name, plugin in installed_plugins().items():
        loader = plugin.load("fixtures")
        if loader is not None:
            _LOADERS.setdefault(name, loader)


def read_scenarios(path: Path) -> list[dict[str, Any]]:
    """Parse a scenario file: one scenario, or ``scenarios:`` (a list sharing ``game``)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise BadFixtureError(f"{path}: not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise BadFixtureError(f"{path}: a scenario file must be a mapping")
    if "scenarios" not in data:
        return [data]
    game = data.get("game", "soc")
    scenarios = data["scenarios"]
    if not isinstance(scenarios, list) or not all(isinstance(s, dict) for s in scenarios):
        raise BadFixtureError(f"{path}: 'scenarios' must be a list of mappings")
    return [{"game": game, **scenario} for scenario in scenarios]


def _lookup(state: State, path: str) -> Any:
    if path == "returns":
        return state.returns()
    if path == "current_player":
        return state.current_player()
    if path == "terminal":
        return state.is_terminal()
    parts = path.split(".")
    seat = None
    if parts[0].startswith("@"):
        seat = int(parts[0][1:])
        parts = parts[1:]
    value: Any = state.observation(seat)
    walked = []
    for part in parts:
        walked.append(part)
        if isinstance(value, list):
            try:
                value = value[int(part)]
            except (ValueError, IndexError):
                raise ScenarioFailure(f"no item {'.'.join(walked)!r} in the observation") from None
        elif isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, dict) and len(walked) >= 2 and walked[-2] == "hand":
            value = 0  # a hand lists only the cards it holds
        elif isinstance(value, dict):
            raise ScenarioFailure(f"no field {'.'.join(walked)!r} in the observation")
        else:
            raise ScenarioFailure(f"{'.'.join(walked[:-1])!r} has no field {part!r}")
    return value


def run_scenario(data: dict[str, Any], name: str = "scenario") -> State:
    """Play a scenario; raise :class:`ScenarioFailure` at the first unmet expectation."""
    if not set(data) <= _SCENARIO_KEYS:
        raise BadFixtureError(f"{name}: unknown field(s) {sorted(set(data) - _SCENARIO_KEYS)}")
    if not data.get("rules"):
        raise BadFixtureError(f"{name}: a scenario must cite the rule IDs it checks")
    state = load_fixture(data.get("game", "soc"), data.get("state", {}))
    for index, step in enumerate(data.get("steps", [])):
        where = f"{name}, step {index + 1}"
        if not isinstance(step, dict) or not set(step) <= _STEP_KEYS:
            raise BadFixtureError(f"{where}: a step uses only {sorted(_STEP_KEYS)}")
        if "by" in step and state.current_player() != step["by"]:
            raise ScenarioFailure(
                f"{where}: expected seat {step['by']} to act, but {state.decision_summary()}"
            )
        if "play" in step:
            text = step["play"]
            try:
                state.apply_text(text)
            except IllegalActionError as error:
                legal = [state.action_to_string(a) for a in state.legal_actions()]
                raise ScenarioFailure(f"{where}: {error.message}; legal: {legal}") from None
        if "table" in step:  # a table operation (a player joins or leaves), outside the turn
            text = step["table"]
            try:
                state.apply_table_operation(state.string_to_action(text))
            except IllegalActionError as error:
                raise ScenarioFailure(f"{where}: {error.message}") from None
        if "illegal" in step:
            before = state.serialize()
            try:
                state.apply_text(step["illegal"])
            except IllegalActionError:
                if state.serialize() != before:
                    raise ScenarioFailure(f"{where}: a refused action changed the state") from None
            else:
                raise ScenarioFailure(f"{where}: {step['illegal']!r} was accepted")
        legal_now = {state.action_to_string(a) for a in state.legal_actions()}
        if "legal" in step and legal_now != set(step["legal"]):
            raise ScenarioFailure(f"{where}: legal actions are {sorted(legal_now)}")
        missing = set(step.get("legal_includes", [])) - legal_now
        if missing:
            raise ScenarioFailure(
                f"{where}: {sorted(missing)} not legal; legal: {sorted(legal_now)}"
            )
        present = set(step.get("legal_excludes", [])) & legal_now
        if present:
            raise ScenarioFailure(f"{where}: {sorted(present)} should not be legal")
        for path, expected in step.get("expect", {}).items():
            actual = _lookup(state, path)
            if actual != expected:
                raise ScenarioFailure(f"{where}: {path} is {actual!r}, expected {expected!r}")
        check = getattr(state, "check_invariants", None)
        if check is not None:
            check()
    return state
