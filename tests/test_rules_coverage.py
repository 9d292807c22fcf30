"""Every rule ID a test cites exists in the rules reference, and every rule is tested.

A rule counts as tested when a scenario lists it under ``rules:`` or a test module names
it (in a docstring or comment of the test that checks it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pendragon.scenarios import read_scenarios

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\b(?:SOC|MC)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
#: Rules that describe conduct rather than a mechanism the engine could be tested on.
NOT_MECHANICAL = {
    "SOC-TURN-3": "table talk is the players' conduct; the engine has no say in it",
}


def defined_ids(game: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return set(re.findall(r"\*\*((?:SOC|MC)-[A-Z0-9-]+)\*\*", text))


def cited_ids() -> set[str]:
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("*.yaml"):
        for scenario in read_scenarios(path):
            cited.update(scenario.get("rules", []))  # type: ignore[arg-type]
    for path in (ROOT / "tests").rglob("*.py"):
        if path.name != Path(__file__).name:
            cited.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return cited


def test_cited_rules_exist() -> None:
    unknown = {i for i in cited_ids() if i.startswith("SOC-")} - defined_ids("soc")
    assert not unknown, f"tests cite rule IDs missing from docs/rules/soc.md: {sorted(unknown)}"


@pytest.mark.parametrize("rule", sorted(defined_ids("soc")))
def test_rule_is_tested(rule: str) -> None:
    if rule in NOT_MECHANICAL:
        pytest.skip(NOT_MECHANICAL[rule])
    assert rule in cited_ids(), f"{rule} (docs/rules/soc.md) is cited by no test"


def test_rule_ids_are_unique() -> None:
    text = (ROOT / "docs" / "rules" / "soc.md").read_text(encoding="utf-8")
    ids = re.findall(r"\*\*((?:SOC|MC)-[A-Z0-9-]+)\*\*", text)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"rule IDs defined twice: {duplicates}"
