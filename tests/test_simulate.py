"""The simulator: deterministic for any worker count and backend, honest statistics,
files a designer can open, and the ``simulate`` / ``balance`` commands."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

import pendragon
from pendragon.bots import RandomBot, make_bot
from pendragon.cli.main import main
from pendragon.games.grail_cup.heuristic import GrailCupBot
from pendragon.games.grail_cup.stats import first_player, grail_cup_stats
from pendragon.runner import bot_seed, play_game
from pendragon.simulate import (
    SimulationConfig,
    balance,
    game_seed,
    play_one,
    play_paired,
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
                 "--variants", "base"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "no traitor" in printed and "with traitor" in printed and "base" in printed
    assert "merlins-company" not in printed
    assert main(["balance", "soc", "--players", "three"]) == 2
    assert main(["balance", "soc", "--variants", "no-such-variant"]) == 2
    assert main(["balance", "no-such-game"]) == 2
    assert "games with one: grail-cup, soc, soc-card" in capsys.readouterr().err


def test_balance_of_the_card_game_has_its_variants_and_traitor_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SCG-SOLO-1: a solo table has no traitor, so its traitor figures are empty."""
    assert main(["balance", "soc-card", "--games", "3", "--players", "1,5", "--bots", "random",
                 "--variants", "base,expert"]) == 0
    printed = capsys.readouterr().out
    for column in ("loyal win", "traitor win", "traitor unmasked", "expert"):
        assert column in printed
    solo = next(line for line in printed.splitlines() if line.strip().startswith("1 "))
    assert solo.count("—") == 2


def test_balance_cells_skip_player_counts_a_variant_refuses() -> None:
    """Eight knights only with Merlin's Company (MC-SETUP-1, VAR-OPTIONS): the base game's cell
    is left empty; the expansion's deck has 8 loyal cards (MC-RULING-21), so a game without a
    traitor seats eight too."""
    cells = balance("soc", [8], 1, ("random",))
    assert {cell.variant for cell in cells} == {"merlins-company"}
    assert {cell.column for cell in cells} == {"with traitor", "no traitor"}


def test_balance_of_grail_cup_gives_every_seat_of_each_table_and_the_rounds() -> None:
    cells = balance("grail-cup", [2, 3], 4, ("random",))
    by_count = {n: {c.column: c for c in cells if c.players == n} for n in (2, 3)}
    assert set(by_count[2]) == {"first player", "seat 1", "seat 2", "rounds"}
    assert "seat 3" in by_count[3] and "seat 4" not in by_count[3]
    # A race has exactly one winner: the seats' win rates add up to one.
    assert sum(by_count[3][f"seat {s}"].value for s in (1, 2, 3)) == pytest.approx(1.0)
    assert not by_count[3]["rounds"].is_rate and by_count[3]["rounds"].value >= 1


def test_grail_cup_figures_name_the_first_player_and_the_rounds() -> None:
    """GC-SETUP-7: the rearmost knight holds the seal, so he is the first round's first player."""
    game = pendragon.load_game("grail-cup", players=4, seed=3)
    final = play_game(game, [make_bot("random", s) for s in range(4)])
    public = final.observation(None)
    start = game.new_initial_state()
    while start.current_player() < 0:
        start.apply_action(start.sample_chance())
    knights = start.observation(None)["knights"]
    rearmost = min(range(4), key=lambda seat: knights[seat]["space"])
    assert first_player(final) == rearmost == start.observation(None)["first_player"]
    figures = grail_cup_stats(final)
    assert figures["rounds"] == public["round"]
    assert figures["first_player_win"] == (public["winner"] == rearmost)


def test_card_game_figures_follow_the_accusations_and_the_reveal() -> None:
    """SCG-ACCUSE-1 (once per player), SCG-END-2 (loyalties shown), SCG-END-6 (who wins)."""
    result = simulate(SimulationConfig("soc-card", {"players": 5}, ("random",), games=12,
                                       seed=3))
    for record in result.records:
        extra = record.extra
        assert extra["traitor_win"] == (extra["traitor_present"] and not extra["loyal_win"])
        assert extra["loyal_accusations"] + extra["traitor_accusations"] <= 5
        assert 0 <= extra["loyal_accusations_correct"] <= extra["loyal_accusations"]
        if extra["traitor_unmasked"]:
            assert extra["traitor_present"]
        # SCG-ACCUSE-3: a loyal accusation that hits a traitor unmasks him.
        if extra["loyal_accusations_correct"]:
            assert extra["traitor_unmasked"]
    assert any(r.extra["loyal_accusations"] for r in result.records)
    solo = simulate(SimulationConfig("soc-card", {"players": 1}, ("random",), games=3, seed=3))
    assert not any(r.extra["traitor_present"] for r in solo.records)


def test_a_run_with_different_bots_reports_who_wins_by_bot() -> None:
    config = SimulationConfig("grail-cup", {"players": 3}, ("random", "heuristic", "random"),
                              games=6, seed=2)
    result = simulate(config)
    by_bot = result.summary["bot_win"]
    assert list(by_bot) == ["random", "heuristic"]
    heuristic_wins = sum(1 for r in result.records if r.returns[1] > 0)
    assert by_bot["heuristic"]["count"] == heuristic_wins
    assert by_bot["random"]["count"] == 6 - heuristic_wins


def test_ray_backend_gives_the_process_backend_results() -> None:
    ray = pytest.importorskip("ray", reason="the Ray backend needs the optional 'ray' package")
    assert ray is not None
    base = SimulationConfig("soc", {"players": 3}, ("random",), games=4, seed=3, workers=2)
    local = simulate(base)
    remote = simulate(SimulationConfig("soc", {"players": 3}, ("random",), games=4, seed=3,
                                       workers=2, backend="ray"))
    assert remote.records == local.records


def test_play_paired_gives_every_panel_the_same_deals_and_seeds() -> None:
    """``play_paired``: every panel plays game ``game_seed(seed, i)`` with its bot on seat
    ``s`` seeded ``bot_seed(game seed, s)``, so a panel that differs on one seat only plays
    the same game up to that seat's first choice; the simulator's records are those games."""
    seen: list[tuple[int, list[int]]] = []

    def record(game: pendragon.Game, bots: list[Any]) -> str:
        seen.append((game.seed, [bot.seed for bot in bots]))
        return play_game(game, bots).serialize()

    panels: list[list[Any]] = [[RandomBot], [RandomBot], [GrailCupBot, RandomBot, RandomBot]]
    rows = play_paired("grail-cup", panels, range(2, 4), seed=7, options={"players": 3},
                       play=record)
    assert [s for s, _ in seen] == [game_seed(7, 2)] * 3 + [game_seed(7, 3)] * 3
    assert all(seeds == [bot_seed(s, seat) for seat in range(3)] for s, seeds in seen)
    assert [len(row) for row in rows] == [3, 3]
    assert all(row[0] == row[1] for row in rows)  # the same panel twice: the same game
    assert any(row[0] != row[2] for row in rows)  # another bot on seat 0: another game
    config = SimulationConfig("grail-cup", {"players": 3}, ("random",), games=4, seed=7)
    final = play_game(pendragon.load_game("grail-cup", players=3, seed=game_seed(7, 2)),
                      [make_bot("random", bot_seed(game_seed(7, 2), s)) for s in range(3)])
    assert play_one(config, 2).length == final.version
    with pytest.raises(ValueError, match="3 seats need 1 or 3 bot factories, got 2"):
        play_paired("grail-cup", [[RandomBot, RandomBot]], 1, options={"players": 3},
                    play=play_game)


# ---------------------------------------------------------------- small and degenerate runs
#: Small runs of every game; their rates are often 0 or 1, where a Wilson bound used to
#: land a hair beyond the rate and matplotlib refused the negative error bar.
SMALL_RUNS = [("soc", 3), ("soc-card", 1), ("soc-card", 4), ("grail-cup", 4)]


def _chart_png_only(result: Any, out: Path) -> list[Path]:
    """write_outputs with every warning an error: the PNG must come without the fallback."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return write_outputs(result, out)


def test_the_reported_small_run_writes_its_chart(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 40 item 7: `simulate grail-cup --players 4 --games 6 --seed 1` crashed while
    drawing ('xerr' must not contain negative values); now it writes all three files."""
    out = tmp_path / "run"
    assert main(["simulate", "grail-cup", "--players", "4", "--games", "6", "--seed", "1",
                 "--out", str(out), "--no-progress"]) == 0
    printed = "".join(capsys.readouterr().out.split())  # Rich wraps long paths anywhere
    assert "chart.png" in printed and "summary.json" in printed
    assert json.loads((out / "summary.json").read_text())["summary"]["games"] == 6
    assert (out / "chart.png").stat().st_size > 200


@pytest.mark.parametrize(("game", "players"), SMALL_RUNS)
def test_small_and_degenerate_runs_keep_their_results_and_chart(
    game: str, players: int, tmp_path: Path
) -> None:
    """Issue 40 item 7: one game; every game won; no game won — for every game, each with
    its summary, its games and a PNG chart (no warning, so not the fallback)."""
    one = simulate(SimulationConfig(game, {"players": players}, ("random",), games=1, seed=3))
    names = sorted(p.name for p in _chart_png_only(one, tmp_path / "one"))
    assert names == ["chart.png", "games.csv", "summary.json"]
    run = simulate(SimulationConfig(game, {"players": players}, ("random",), games=8, seed=5))
    seats = players

    def won(record: Any) -> bool:
        # The figure a chart shows first: the loyal side's win, else seat 0's.
        return bool(record.extra["loyal_win"]) if "loyal_win" in record.extra else (
            record.returns[0] > 0)

    def as_won(record: Any, flag: bool) -> Any:
        # A game of the other kind, where random bots give none (soc's loyal knights
        # seldom win): only the figures the summary reads change.
        extra = dict(record.extra)
        if "loyal_win" in extra:
            extra["loyal_win"] = flag
        returns = (1.0 if flag else -1.0,) + record.returns[1:]
        return dataclasses.replace(record, returns=returns, extra=extra)

    groups = {"all": [r for r in run.records if won(r)],
              "none": [r for r in run.records if not won(r)]}
    for label, records in groups.items():
        if not records:
            records = [as_won(r, label == "all") for r in run.records[:3]]
        summary = summarize(records, seats)
        first = summary.get("loyal_win") or summary["seat_win"][0]
        assert first["rate"] == (1.0 if label == "all" else 0.0)
        low, high = first["ci95"]
        assert low <= first["rate"] <= high
        result = type(run)(run.config, records, summary)
        out = tmp_path / label
        _chart_png_only(result, out)
        data = json.loads((out / "summary.json").read_text())
        assert data["summary"]["games"] == len(records)
        assert (out / "chart.png").stat().st_size > 200


def test_a_chart_that_fails_never_costs_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40 item 7: whatever matplotlib raises, summary.json and games.csv are
    written and the chart falls back to the SVG, with a warning."""
    import pendragon.simulate as simulate_module

    def broken(*_args: Any) -> Path:
        raise ValueError("'xerr' must not contain negative values")

    monkeypatch.setattr(simulate_module, "_write_png", broken)
    result = simulate(SimulationConfig("grail-cup", {"players": 3}, ("random",), games=2))
    with pytest.warns(RuntimeWarning, match="xerr"):
        paths = write_outputs(result, tmp_path)
    assert sorted(p.name for p in paths) == ["chart.svg", "games.csv", "summary.json"]
    assert json.loads((tmp_path / "summary.json").read_text())["summary"]["games"] == 2


def test_wilson_bounds_hold_the_rate_at_the_extremes() -> None:
    """Issue 40 item 7: at 0 or n successes the interval holds the rate exactly."""
    for trials in range(1, 200):
        for hits in (0, trials):
            low, high = wilson_interval(hits, trials)
            assert 0.0 <= low <= hits / trials <= high <= 1.0
