"""Golden playthroughs: every game's seeded transcripts are regenerated and diffed.

A difference means a change of behaviour. If it is intended, regenerate the files with
``make golden`` (the toy game: ``python -m pendragon.tools.golden --write --game-class
tests.toygame:ToyGame``) and review the diff in version control.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import pendragon
from pendragon.tools import golden
from pendragon.tools.golden import GoldenConfig

GOLDEN_DIR = Path(__file__).parent / "golden"
TOY = "toy"
_TOY_HINT = "python -m pendragon.tools.golden --write --game-class tests.toygame:ToyGame"


def _cases() -> list[object]:
    cases = []
    for name in [*pendragon.registered_games(), TOY]:
        # The toy game is registered only inside the tests, after collection.
        configs = (
            (GoldenConfig(2, 1), GoldenConfig(3, 2)) if name == TOY else golden.configs_for(name)
        )
        for config in configs:
            cases.append(pytest.param(name, config, id=f"{name}-{config.label}"))
    return cases


@pytest.fixture(autouse=True)
def _toy(toy_registered: type) -> None:
    """Every test here sees the toy game registered, as the golden tool's users do."""


@pytest.mark.parametrize(("name", "config"), _cases())
def test_transcript_matches_golden_file(name: str, config: GoldenConfig) -> None:
    """The regenerated transcript equals the golden file, byte for byte."""
    assert config in golden.configs_for(name)
    path = golden.golden_path(GOLDEN_DIR, name, config)
    hint = _TOY_HINT if name == TOY else "make golden"
    if not path.exists():
        pytest.fail(f"no golden file {path}; create it with `{hint}`")
    expected = path.read_text(encoding="utf-8")
    actual = golden.transcript(name, config)
    if actual != expected:
        lines = golden.diff(expected, actual, path.name).splitlines()
        shown = "\n".join(lines[:200]) + ("\n..." if len(lines) > 200 else "")
        pytest.fail(
            f"{path.name} is out of date:\n{shown}\n"
            f"If the change is intended, regenerate with `{hint}` and review the diff."
        )


def test_every_registered_game_has_golden_files() -> None:
    """A game without golden playthroughs fails here (toy game included)."""
    names = pendragon.registered_games()
    assert TOY in names
    missing = [
        golden.golden_path(GOLDEN_DIR, name, config).name
        for name in names
        for config in golden.configs_for(name)
        if not golden.golden_path(GOLDEN_DIR, name, config).exists()
    ]
    assert not missing, f"games without golden files: {missing}; run `make golden`"


def test_transcript_lists_every_step_and_summaries() -> None:
    """The transcript format: one numbered line per action, a summary at the end."""
    text = golden.transcript(TOY, GoldenConfig(3, 2))
    lines = text.splitlines()
    steps = [line for line in lines if line[:1].isdigit()]
    assert [int(line.split()[0]) for line in steps] == list(range(1, len(steps) + 1))
    assert all(line.split()[1] in ("chance", "seat") for line in steps)
    assert lines[-2].startswith(f"end {len(steps)}: returns [")
    assert lines[-1].startswith(f"summary {len(steps)}: {{")
    assert text == golden.transcript(TOY, GoldenConfig(3, 2))


def test_summaries_every_period(monkeypatch: pytest.MonkeyPatch) -> None:
    """A summary line follows every SUMMARY_PERIOD-th step."""
    monkeypatch.setattr(golden, "SUMMARY_PERIOD", 3)
    lines = golden.transcript(TOY, GoldenConfig(3, 2)).splitlines()
    steps = sum(1 for line in lines if line[:1].isdigit())
    summaries = [int(line.split()[1].rstrip(":")) for line in lines if line.startswith("summary")]
    # Periodic summaries before the last step, then the final one.
    assert summaries == [*range(3, steps, 3), steps]
    assert len(summaries) >= 3


def test_check_mode_reports_stale_files(tmp_path: Path) -> None:
    """--check exits 1 when a file differs and 0 after --write."""
    args = ["--dir", str(tmp_path), "--game", TOY]
    assert golden.main(["--check", *args]) == 1
    assert golden.main(["--write", *args]) == 0
    assert golden.main(["--check", *args]) == 0
    path = golden.golden_path(tmp_path, TOY, golden.configs_for(TOY)[0])
    path.write_text(path.read_text(encoding="utf-8") + "tampered\n", encoding="utf-8")
    assert golden.main(["--check", *args]) == 1


def test_write_refuses_changed_actions_under_the_same_rules_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A playthrough whose actions changed is not rewritten until the game's rules version
    is raised (records would replay into another game: docs/records.md, "Versions")."""
    toy = type(pendragon.load_game(TOY))
    assert golden.main(["--write", "--game", TOY, "--dir", str(tmp_path)]) == 0
    path = golden.golden_path(tmp_path, TOY, golden.configs_for(TOY)[0])
    written = path.read_text(encoding="utf-8")
    assert golden.rules_version_of(written) == toy.rules_version
    older = written.replace("\n1 ", "\n1 x", 1)  # as if the rules had played another first step
    path.write_text(older, encoding="utf-8")
    assert golden.main(["--write", "--game", TOY, "--dir", str(tmp_path)]) == 1
    assert "refused" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == older
    path.write_text(older.replace("\nsummary ", "\nsummary x", 1), encoding="utf-8")
    monkeypatch.setattr(toy, "rules_version", toy.rules_version + 1)
    assert golden.main(["--write", "--game", TOY, "--dir", str(tmp_path)]) == 0
    assert golden.rules_version_of(path.read_text(encoding="utf-8")) == toy.rules_version
