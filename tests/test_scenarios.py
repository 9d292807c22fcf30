"""Run every declarative rule scenario under tests/scenarios/ (format: docs/testing.md).

Each scenario cites the rule IDs it checks; :mod:`tests.test_rules_coverage` checks that
those IDs exist in the rules reference and that every rule that must be covered is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pendragon.scenarios import read_scenarios, run_scenario

SCENARIO_DIR = Path(__file__).parent / "scenarios"


def all_scenarios() -> list[tuple[str, dict[str, object]]]:
    """(test id, scenario) for every scenario file."""
    found = []
    for path in sorted(SCENARIO_DIR.rglob("*.yaml")):
        for index, scenario in enumerate(read_scenarios(path)):
            title = str(scenario.get("title", index))
            found.append((f"{path.stem}: {title}", scenario))
    return found


SCENARIOS = all_scenarios()


@pytest.mark.parametrize("scenario", [s for _, s in SCENARIOS], ids=[i for i, _ in SCENARIOS])
def test_scenario(scenario: dict[str, object]) -> None:
    """Rules: the IDs listed in the scenario's ``rules`` field."""
    run_scenario(scenario, name=str(scenario.get("title")))


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 30
