"""Every rule ID a test cites exists in the rules reference, and every rule is tested.

A rule counts as tested when a scenario lists it under ``rules:`` or a test module names
it (in a docstring or comment of the test that checks it).
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest

from pendragon.scenarios import read_scenarios

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\b(?:SOC|MC|VAR|GC|SCG)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
#: Rules references and the prefixes of the IDs they define.
REFERENCES = {"soc": "soc.md", "soc-expansion": "soc-expansion.md", "grail-cup": "grail-cup.md",
              "soc-card": "soc-card.md"}
#: Rules that describe conduct rather than a mechanism the engine could be tested on.
NOT_MECHANICAL = {
    "SOC-TURN-3": "table talk is the players' conduct; the engine has no say in it",
}


def defined_ids(reference: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{reference}.md").read_text(encoding="utf-8")
    return set(re.findall(r"\*\*((?:SOC|MC|VAR|GC|SCG)-[A-Z0-9-]+)\*\*", text))


ALL_DEFINED = set().union(*(defined_ids(name) for name in REFERENCES))


@functools.cache
def cited_ids() -> frozenset[str]:
    """Every rule ID the tests cite (read once: every rule's test asks)."""
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("*.yaml"):
        for scenario in read_scenarios(path):
            cited.update(scenario.get("rules", []))  # type: ignore[arg-type]
    for path in (ROOT / "tests").rglob("*.py"):
        if path.name != Path(__file__).name:
            cited.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return frozenset(cited)


def test_cited_rules_exist() -> None:
    unknown = cited_ids() - ALL_DEFINED
    assert not unknown, f"tests cite rule IDs missing from docs/rules/: {sorted(unknown)}"


@pytest.mark.parametrize("rule", sorted(ALL_DEFINED))
def test_rule_is_tested(rule: str) -> None:
    if rule in NOT_MECHANICAL:
        pytest.skip(NOT_MECHANICAL[rule])
    assert rule in cited_ids(), f"{rule} (docs/rules/) is cited by no test"


def test_rule_ids_are_unique() -> None:
    text = "".join(
        (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
        for name in REFERENCES
    )
    ids = re.findall(r"\*\*((?:SOC|MC|VAR|GC|SCG)-[A-Z0-9-]+)\*\*", text)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"rule IDs defined twice: {duplicates}"


#: References whose rules each end with the seed paragraphs they come from (issue 16):
#: ``*(003 §Heading › Paragraph; 002 §...)*``, ``*(ruling on 000 §...)*`` or ``*(ruling)*``.
SOURCED = ("soc", "soc-expansion")
SOURCE = re.compile(r"\*\((ruling|ruling on (.+)|(00\d §.+))\)\*$")
#: The seeds themselves, when present, so that every reference can be found in its seed.
SEEDS = Path(os.environ.get("PENDRAGON_SEEDS", "/work/shared/seeds"))


def rule_blocks(reference: str) -> dict[str, str]:
    """Each rule of ``reference``: its ID and its text, continuation lines included."""
    text = (ROOT / "docs" / "rules" / f"{reference}.md").read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=- \*\*|\n)", text)
    rules = {}
    for block in blocks:
        match = re.match(r"- \*\*((?:SOC|MC|VAR)-[A-Z0-9-]+)\*\*", block)
        if match:
            rules[match.group(1)] = " ".join(line.strip() for line in block.splitlines())
    return rules


@pytest.mark.parametrize("reference", SOURCED)
def test_every_rule_names_its_seed_paragraph(reference: str) -> None:
    unsourced = [rule for rule, text in rule_blocks(reference).items() if not SOURCE.search(text)]
    assert not unsourced, f"rules of {reference}.md naming no seed paragraph: {unsourced}"


@pytest.mark.parametrize("reference", SOURCED)
def test_seed_paragraphs_named_exist(reference: str) -> None:
    seeds = {path.name[:3]: path.read_text(encoding="utf-8") for path in SEEDS.glob("00?_*.txt")}
    if not seeds:
        pytest.skip(f"the seeds are not at {SEEDS} (set PENDRAGON_SEEDS)")
    missing = []
    for rule, text in rule_blocks(reference).items():
        match = SOURCE.search(text)
        assert match, rule
        for ref in (match.group(2) or match.group(3) or "").split("; "):
            if not ref:
                continue
            seed, _, path = ref.partition(" §")
            position = 0
            for heading in path.split(" › "):  # a paragraph is looked for after its section
                position = seeds.get(seed, "").find(heading, position)
                if position < 0:
                    missing.append(f"{rule}: {ref}")
                    break
    assert not missing, f"seed paragraphs not found in their seed: {missing}"
