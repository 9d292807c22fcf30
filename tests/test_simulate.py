"""The simulator: deterministic for any worker count and backend, honest statistics,
files a designer can open, and the ``simulate`` / ``balance`` commands."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from pendragon.cli.main import main
from pendragon.simulate import (
    SimulationConfig,
    game_seed,
    simulate,
    summarize,
    wilson_interval,
    write_outputs,
)


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and round(high, 4) == 0.1611
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and round(low, 4) == 0.8389
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_results_are_identical_for_any_number_of_workers() -> None:
    config = SimulationConfig("soc", {"players": 3}, ("random",), games=6, seed=4)
    one = simulate(config)
    two = simulate(SimulationConfig("soc", {"players": 3}, ("random",), games=6, seed=4,
                                    workers=2))
    assert one.records == two.records
    assert one.summary == two.summary
    assert [r.seed for r in one.records] == [game_seed(4, i) for i in range(6)]
    other_seed = simulate(SimulationConfig("soc", {"players": 3}, ("random",), games=6, seed=5))
    assert other_seed.records != one.records


def test_summary_counts_agree_with_the_records() -> None:
    result = simulate(SimulationConfig("soc", {"players": 4}, ("random",), games=8, seed=2))
    summary = result.summary
    assert summary["games"] == 8
    assert sum(summary["end_reasons"].values()) == 8
    wins = sum(1 for r in result.records if r.extra["loyal_win"])
    assert summary["loyal_win"]["count"] == wins
    present = [r for r in result.records if r.extra["traitor_present"]]
    assert summary["traitor_win_given_traitor"]["games"] == len(present)
    for record in result.records:
        # SOC-END-1/-2: the traitor wins exactly when the loyal side loses.
        assert record.extra["traitor_win"] == (
            record.extra["traitor_present"] and not record.extra["loyal_win"])
        if not record.extra["traitor_present"]:
            assert not record.extra["traitor_unmasked"]
        assert record.end_reason in ("swords", "siege", "black-swords", "all-dead", "exhausted")
    assert summarize(result.records, 4) == summary


def test_per_seat_bots_and_validation() -> None:
    config = SimulationConfig(
        "soc", {"players": 3, "no_traitor": True}, ("random", "heuristic", "random"), games=2
    )
    result = simulate(config)
    assert result.summary["traitor_present"]["count"] == 0
    with pytest.raises(ValueError, match="3 seats need 1 or 3 bot names"):
        simulate(SimulationConfig("soc", {"players": 3}, ("random", "random"), games=1))
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(SimulationConfig("soc", {"players": 3}, ("genius",), games=1))
    with pytest.raises(ValueError, match="backend"):
        simulate(SimulationConfig("soc", {"players": 3}, games=1, backend="carrier-pigeon"))


def test_outputs_are_written(tmp_path: Path) -> None:
    result = simulate(SimulationConfig("soc", {"players": 3}, ("random",), games=5, seed=1))
    paths = write_outputs(result, tmp_path)
    names = sorted(p.name for p in paths)
    assert names[0] in ("chart.png", "chart.svg") and names[1:] == ["games.csv", "summary.json"]
    data = json.loads((tmp_path / "summary.json").read_text())
    assert data["summary"]["games"] == 5 and data["config"]["game"] == "soc"
    with (tmp_path / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["index"]) for r in rows] == list(range(5))
    assert {r["end_reason"] for r in rows} <= set(data["summary"]["end_reasons"])
    assert (tmp_path / names[0]).stat().st_size > 200


def test_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main([
        "simulate", "soc", "--players", "3", "--bots", "random,heuristic,random",
        "--games", "3", "--seed", "9", "--no-traitor", "--out", str(out), "--no-progress",
    ])
    assert code == 0
    printed = capsys.readouterr().out
    assert "loyal win" in printed and "summary.json" in printed
    data = json.loads((out / "summary.json").read_text())
    assert data["config"]["options"] == {"players": 3, "no_traitor": True}
    assert data["config"]["bots"] == ["random", "heuristic", "random"]
    assert main(["simulate", "soc", "--players", "3", "--bots", "genius", "--games", "1",
                 "--out", str(out)]) == 2
    assert main(["simulate", "soc", "--players", "3", "--bots", "random,random",
                 "--games", "1", "--out", str(out)]) == 2
    assert main(["simulate", "soc", "--no-such-option", "--out", str(out)]) == 2


def test_balance_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["balance", "soc", "--games", "2", "--players", "3", "--bots", "random",
                 "--no-expansion"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "no traitor" in printed and "with traitor" in printed and "base" in printed
    assert main(["balance", "soc", "--players", "three"]) == 2


def test_ray_backend_gives_the_process_backend_results() -> None:
    ray = pytest.importorskip("ray", reason="the Ray backend needs the optional 'ray' package")
    assert ray is not None
    base = SimulationConfig("soc", {"players": 3}, ("random",), games=4, seed=3, workers=2)
    local = simulate(base)
    remote = simulate(SimulationConfig("soc", {"players": 3}, ("random",), games=4, seed=3,
                                       workers=2, backend="ray"))
    assert remote.records == local.records
