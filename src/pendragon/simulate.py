"""Play many games with bots and answer questions about them: who wins, how, how fast.

Game-agnostic: any registered game, any options, one bot name per seat. Game ``i`` of a
run uses the seed ``base_seed * 1_000_003 + i`` and its bots
:func:`~pendragon.runner.bot_seed` of that seed, so the results of a run are the same for
any number of workers and either backend (local processes or a Ray cluster).

What is measured for every game: the returns, the end reason
(``observation(None)["end_reason"]`` when the game reports one), the length in actions,
and the game's own figures, from its plugin's ``stats`` hook (Shadows over Camelot: whether
the loyal side won, whether there was a traitor, whether it won and whether it was
unmasked, how many knights died; Grail Cup: rounds played, whether the first player won).
The summary gives each rate with a Wilson 95% interval.

A plugin's ``balance`` table (:class:`BalanceTable`) names the designer's questions about
its game: the rows (player counts times variants) and the figures of each cell;
:func:`balance` answers them.

>>> result = simulate(SimulationConfig("soc", {"players": 3}, ("random",), games=4, seed=1))
>>> result.summary["games"]
4
>>> 0.0 <= result.summary["loyal_win"]["rate"] <= 1.0
True
"""

from __future__ import annotations

import csv
import json
import math
import os
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pendragon.bots import Bot, make_bot
from pendragon.core import registry
from pendragon.core.api import Game, State
from pendragon.core.errors import InvalidOptionError
from pendragon.core.plugins import plugin_for
from pendragon.records import RecordSeat, record_of, write_record
from pendragon.runner import bot_seed, play_game

#: Multiplier separating the seeds of successive runs (a prime, so runs do not overlap).
SEED_STRIDE = 1_000_003

#: Makes a bot from its seed (``runner.bot_seed(game seed, seat)``).
BotFactory = Callable[[int], Bot]
#: The bots of a team: one factory per seat, or one factory for every seat.
Panel = Sequence[BotFactory]
Outcome = TypeVar("Outcome")


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``base_seed``.

    >>> game_seed(2, 5)
    2000011
    """
    return base_seed * SEED_STRIDE + index


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% for the default ``z``).

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)

    The interval always holds the observed rate: at 0 or ``trials`` successes rounding
    would otherwise put a bound a hair past it (6 of 6 gave a high of 0.9999999999999999,
    which cost a chart its error bars, issue 40 item 7).

    >>> wilson_interval(6, 6)[1], wilson_interval(0, 11)[0]
    (1.0, 0.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return min(p, max(0.0, centre - margin)), max(p, min(1.0, centre + margin))


def play_paired(
    game_name: str,
    panels: Sequence[Panel],
    games: int | range,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    play: Callable[[Game, list[Bot]], Outcome],
) -> list[list[Outcome]]:
    """Play every game of a run once with each panel of bots, on the same seeds.

    Game ``i`` (each ``i`` of ``games``; a count ``n`` means ``range(n)``) is
    ``game_name`` with ``options`` and the seed :func:`game_seed` ``(seed, i)``; the bot
    on seat ``s`` is made by the panel's factory from ``bot_seed(game seed, s)``. So every
    panel meets the same deals, the same chance stream and the same bot seeds, as
    ``pendragon simulate`` plays them. ``play(game, bots)`` plays one game
    (:func:`~pendragon.runner.play_game` returns the final state); the result is
    ``results[k][p]``: what it returned for the ``k``-th game and panel ``p``. Raises
    ``ValueError`` for a panel that has neither one factory nor one per seat.

    >>> from pendragon.bots import RandomBot
    >>> [[first, again]] = play_paired("grail-cup", [[RandomBot], [RandomBot]], range(3, 4),
    ...                                seed=2, options={"players": 3}, play=play_game)
    >>> first.game.seed == game_seed(2, 3) and first.serialize() == again.serialize()
    True
    """
    results: list[list[Any]] = []
    for index in range(games) if isinstance(games, int) else games:
        game = registry.load_game(
            game_name, **{**dict(options or {}), "seed": game_seed(seed, index)})
        seats = game.num_players()
        row = []
        for panel in panels:
            if len(panel) not in (1, seats):
                raise ValueError(f"{seats} seats need 1 or {seats} bot factories, "
                                 f"got {len(panel)}")
            factories = list(panel) * seats if len(panel) == 1 else list(panel)
            row.append(play(game, [make(bot_seed(game.seed, s))
                                   for s, make in enumerate(factories)]))
        results.append(row)
    return results


# ---------------------------------------------------------------------- per-game figures
def game_stats(game_name: str) -> Callable[[State], dict[str, Any]] | None:
    """The game's own figures of a finished game (``GamePlugin.stats``), if it has any.

    >>> game = registry.load_game("soc", players=3, seed=1)
    >>> final = play_game(game, [make_bot("random", seat) for seat in range(3)])
    >>> sorted(game_stats("soc")(final))[:3]
    ['black_swords', 'deaths', 'loyal_accusations']
    >>> game_stats("no-such-game") is None
    True
    """
    plugin = plugin_for(game_name)
    hook: Callable[[State], dict[str, Any]] | None = (
        plugin.load("stats") if plugin is not None else None)
    return hook


@dataclass(frozen=True, slots=True)
class SimulationConfig:
    """What to simulate. ``bots`` has one name per seat, or one name for every seat."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ("random",)
    games: int = 100
    seed: int = 0
    workers: int = 1
    backend: str = "process"
    ray_address: str | None = None
    #: Where each game's record goes (``<game>-<seed>.json``, written where the game is
    #: played: an absolute path on this machine; :mod:`pendragon.records`), if anywhere.
    records_dir: str | None = None

    def seat_bots(self, seats: int) -> tuple[str, ...]:
        """The bot name of every seat."""
        if len(self.bots) == 1:
            return self.bots * seats
        if len(self.bots) != seats:
            raise ValueError(f"{seats} seats need 1 or {seats} bot names, got {len(self.bots)}")
        return self.bots


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The figures of one simulated game."""

    index: int
    seed: int
    returns: tuple[float, ...]
    end_reason: str
    length: int
    extra: dict[str, Any]

    def row(self) -> dict[str, Any]:
        """A flat dict for the CSV file."""
        row: dict[str, Any] = {
            "index": self.index,
            "seed": self.seed,
            "end_reason": self.end_reason,
            "length": self.length,
        }
        for seat, value in enumerate(self.returns):
            row[f"return_{seat}"] = value
        row.update(self.extra)
        return row


@dataclass(slots=True)
class SimulationResult:
    """Every game's record and the summary."""

    config: SimulationConfig
    records: list[GameRecord]
    summary: dict[str, Any]


def play_one(config: SimulationConfig, index: int) -> GameRecord:
    """Play game ``index`` of ``config`` (deterministic from the config alone)."""
    # One name for every seat, or one per seat (play_paired checks the count).
    panel = [_named_bot(name, config.game) for name in config.bots]
    [[final]] = play_paired(config.game, [panel], range(index, index + 1), config.seed,
                            config.options, play=play_game)
    seed = final.game.seed
    if config.records_dir is not None:
        names = config.seat_bots(final.game.num_players())
        write_record(Path(config.records_dir) / f"{config.game}-{seed}.json",
                     record_of(final, [RecordSeat(name, name) for name in names]))
    public = final.observation(None)
    hook = game_stats(config.game)
    return GameRecord(
        index=index,
        seed=seed,
        returns=tuple(final.returns()),
        end_reason=str(public.get("end_reason", "")),
        length=final.version,
        extra=hook(final) if hook is not None else {},
    )


def _named_bot(name: str, game: str) -> BotFactory:
    """The factory of the bot ``name`` (a :func:`~pendragon.bots.make_bot` name)."""
    return lambda seed: make_bot(name, seed, game)


def play_chunk(config: SimulationConfig, indices: Sequence[int]) -> list[GameRecord]:
    """Play the games ``indices`` of ``config`` one after the other."""
    return [play_one(config, i) for i in indices]


def _chunks(games: int, size: int) -> Iterator[list[int]]:
    for start in range(0, games, size):
        yield list(range(start, min(games, start + size)))


def simulate(
    config: SimulationConfig, on_progress: Callable[[int], None] | None = None
) -> SimulationResult:
    """Play ``config.games`` games and summarise them.

    ``on_progress(n)`` is called as each batch of ``n`` games finishes.
    """
    if config.games < 1:
        raise ValueError("games must be at least 1")
    if config.records_dir is not None and config.backend == "ray" and config.ray_address:
        raise ValueError("records are written where the games are played: not on a Ray "
                         "cluster (use the process backend or a local Ray)")
    # Validate names and options once, before any worker starts.
    probe = registry.load_game(config.game, **{**dict(config.options), "seed": 0})
    for name in set(config.seat_bots(probe.num_players())):
        make_bot(name, 0, config.game)
    size = max(1, min(50, config.games // (max(1, config.workers) * 8) or 1))
    chunks = list(_chunks(config.games, size))
    records: list[GameRecord] = []
    for batch in map_chunks(play_chunk, [(config, chunk) for chunk in chunks],
                            workers=config.workers, backend=config.backend,
                            ray_address=config.ray_address,
                            on_progress=None if on_progress is None else
                            (lambda done: on_progress(len(done)))):
        records += batch
    records.sort(key=lambda r: r.index)
    summary = summarize(records, probe.num_players())
    names = config.seat_bots(probe.num_players())
    if len(set(names)) > 1:
        # Who wins by bot: the share of games won by a seat that bot plays.
        summary["bot_win"] = {
            name: _rate([any(r.returns[s] > 0 for s, n in enumerate(names) if n == name)
                         for r in records])
            for name in dict.fromkeys(names)
        }
    return SimulationResult(config, records, summary)


def map_chunks(
    function: Callable[..., Outcome],
    arguments: Sequence[tuple[Any, ...]],
    workers: int = 1,
    backend: str = "process",
    ray_address: str | None = None,
    on_progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """``[function(*a) for a in arguments]``, in that order, here (one worker), on
    ``workers`` local processes, or on Ray (``backend="ray"``: the cluster at
    ``ray_address``, else a local Ray of ``workers`` CPUs). ``on_progress(result)`` is
    called as each finishes. The simulator's games and the evaluator's training
    (:mod:`pendragon.training`) both run on it; ``function`` must be importable by name.

    >>> map_chunks(pow, [(2, 3), (3, 2)])
    [8, 9]
    """
    if backend == "ray":
        return _run_ray(function, arguments, workers, ray_address, on_progress)
    if backend != "process":
        raise ValueError(f"backend must be 'process' or 'ray', got {backend!r}")
    results: list[Outcome] = []
    if workers <= 1:
        for args in arguments:
            results.append(function(*args))
            if on_progress is not None:
                on_progress(results[-1])
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(function, *zip(*arguments, strict=True)):
            results.append(result)
            if on_progress is not None:
                on_progress(result)
    return results


def _run_ray(
    function: Callable[..., Outcome],
    arguments: Sequence[tuple[Any, ...]],
    workers: int,
    ray_address: str | None,
    on_progress: Callable[[Outcome], None] | None,
) -> list[Outcome]:
    try:
        import ray
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "the Ray backend needs the 'ray' package: pip install 'pendragon[sim]'"
        ) from error
    started = False
    if not ray.is_initialized():
        if ray_address:
            ray.init(address=ray_address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), log_to_driver=False,
                     include_dashboard=False)
        started = True
    try:
        remote = ray.remote(function)
        pending = [remote.remote(*args) for args in arguments]
        order = {ref: position for position, ref in enumerate(pending)}
        done: dict[int, Outcome] = {}
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            result = ray.get(ready[0])
            done[order[ready[0]]] = result
            if on_progress is not None:
                on_progress(result)
        return [done[position] for position in range(len(arguments))]
    finally:
        if started:
            ray.shutdown()


def _rate(flags: Sequence[bool]) -> dict[str, Any]:
    hits = sum(1 for f in flags if f)
    low, high = wilson_interval(hits, len(flags))
    rate = hits / len(flags) if flags else 0.0
    return {"rate": rate, "ci95": [low, high], "count": hits, "games": len(flags)}


def _mean(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "min": 0.0, "max": 0.0}
    return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}


def summarize(records: Sequence[GameRecord], seats: int) -> dict[str, Any]:
    """Rates with Wilson 95% intervals, end reasons and lengths of ``records``."""
    summary: dict[str, Any] = {
        "games": len(records),
        "seat_win": [_rate([r.returns[s] > 0 for r in records]) for s in range(seats)],
        "end_reasons": dict(Counter(r.end_reason for r in records).most_common()),
        "length": _mean([float(r.length) for r in records]),
    }
    keys = sorted({k for r in records for k in r.extra})
    for key in keys:
        values = [r.extra[key] for r in records if key in r.extra]
        if all(isinstance(v, bool) for v in values):
            summary[key] = _rate(values)
        elif all(isinstance(v, int | float) for v in values):
            summary[key] = _mean([float(v) for v in values])
    if "traitor_present" in summary:
        with_traitor = [r for r in records if r.extra.get("traitor_present")]
        summary["traitor_win_given_traitor"] = _rate(
            [bool(r.extra["traitor_win"]) for r in with_traitor])
        summary["traitor_unmasked_given_traitor"] = _rate(
            [bool(r.extra["traitor_unmasked"]) for r in with_traitor])
        # Precision of the loyal knights' accusations, against 1/(n-1) for a random pick.
        made = sum(int(r.extra["loyal_accusations"]) for r in with_traitor)
        hits = sum(int(r.extra["loyal_accusations_correct"]) for r in with_traitor)
        low, high = wilson_interval(hits, made)
        summary["loyal_accusation_precision"] = {
            "rate": hits / made if made else 0.0, "ci95": [low, high], "count": hits,
            "games": made, "random_accuser": 1 / (seats - 1) if seats > 1 else 0.0,
        }
    return summary


# ---------------------------------------------------------------------- output
def write_outputs(result: SimulationResult, out_dir: Path) -> list[Path]:
    """Write ``summary.json``, ``games.csv`` and a chart (PNG, or SVG without matplotlib)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    config = asdict(result.config)
    config["options"] = dict(result.config.options)
    summary_path = out_dir / "summary.json"
    summary_path.write_text(
        json.dumps({"config": config, "summary": result.summary}, indent=2, default=str) + "\n"
    )
    csv_path = out_dir / "games.csv"
    rows = [r.row() for r in result.records]
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    with csv_path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return [summary_path, csv_path, write_chart(result.summary, out_dir)]


def _error_bars(figures: Sequence[tuple[str, float, float, float]]) -> list[list[float]]:
    """The lower and upper error bar lengths of ``figures``, never negative (matplotlib
    refuses a negative one, whatever rounding put the rate a hair outside its interval).

    >>> _error_bars([("x", 1.0, 0.6, 0.9999999999999999)])
    [[0.4], [0.0]]
    """
    return [[max(0.0, rate - low) for _, rate, low, _ in figures],
            [max(0.0, high - rate) for _, rate, _, high in figures]]


def chart_figures(summary: Mapping[str, Any]) -> list[tuple[str, float, float, float]]:
    """The main rates of a summary as (label, rate, low, high)."""
    figures: list[tuple[str, float, float, float]] = []
    named = [
        ("loyal win", "loyal_win"),
        ("traitor win", "traitor_win_given_traitor"),
        ("traitor unmasked", "traitor_unmasked_given_traitor"),
    ]
    for label, key in named:
        entry = summary.get(key)
        if isinstance(entry, dict) and entry.get("games"):
            figures.append((label, entry["rate"], *entry["ci95"]))
    if not figures:
        for seat, entry in enumerate(summary["seat_win"]):
            figures.append((f"seat {seat} win", entry["rate"], *entry["ci95"]))
    games = max(1, int(summary["games"]))
    for reason, count in summary["end_reasons"].items():
        rate = count / games
        low, high = wilson_interval(count, games)
        figures.append((f"end: {reason or 'none'}", rate, low, high))
    return figures


def write_chart(summary: Mapping[str, Any], out_dir: Path) -> Path:
    """A bar chart of the main rates with their intervals: PNG with matplotlib, else SVG.

    A chart never costs the results (issue 40 item 7): the summary and the games are
    written before it, and should matplotlib fail on any figures, the plain SVG chart is
    written instead, with a warning.
    """
    figures = chart_figures(summary)
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        return _write_svg(figures, out_dir / "chart.svg")
    try:
        return _write_png(summary, figures, out_dir / "chart.png")
    except Exception as error:  # noqa: BLE001 - any plotting failure: keep the results
        warnings.warn(f"matplotlib could not draw the chart ({error}); wrote an SVG instead",
                      RuntimeWarning, stacklevel=2)
        return _write_svg(figures, out_dir / "chart.svg")


def _write_png(
    summary: Mapping[str, Any], figures: Sequence[tuple[str, float, float, float]], path: Path
) -> Path:
    import matplotlib.pyplot as plt

    labels = [f[0] for f in figures]
    rates = [f[1] for f in figures]
    errors = _error_bars(figures)
    fig, axis = plt.subplots(figsize=(8, 0.5 * len(figures) + 1.5))
    try:
        axis.barh(labels, rates, xerr=errors, color="#4a6fa5", capsize=3)
        axis.set_xlim(0, 1)
        axis.invert_yaxis()
        axis.set_xlabel(f"rate over {summary['games']} games (95% Wilson interval)")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)
    return path


def _write_svg(figures: Sequence[tuple[str, float, float, float]], path: Path) -> Path:
    width, row, left = 640, 28, 170
    height = row * len(figures) + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">']
    scale = width - left - 20
    for i, (label, rate, low, high) in enumerate(figures):
        y = 10 + i * row
        parts.append(f'<text x="5" y="{y + 16}" font-size="12">{label}</text>')
        parts.append(
            f'<rect x="{left}" y="{y + 4}" width="{rate * scale:.1f}" height="16" fill="#4a6fa5"/>'
        )
        parts.append(
            f'<line x1="{left + low * scale:.1f}" x2="{left + high * scale:.1f}" '
            f'y1="{y + 12}" y2="{y + 12}" stroke="black"/>'
        )
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")
    return path


def default_workers() -> int:
    """One worker per available CPU."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


# ---------------------------------------------------------------------- balance table
@dataclass(frozen=True, slots=True)
class BalanceColumn:
    """One figure of a balance cell: a summary entry of the games played with ``options``.

    ``figure`` names a rate of the summary (``loyal_win``), or ``seat_win.N`` for seat N's
    win rate, or a mean (``rounds``).
    """

    label: str
    figure: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BalanceTable:
    """A game's balance questions: rows of player counts times variants, and columns.

    A cell whose options the game refuses (a player count a variant does not allow) is
    left empty rather than an error.
    """

    title: str
    players: tuple[int, ...]
    columns: tuple[BalanceColumn, ...]
    variants: tuple[tuple[str, Mapping[str, Any]], ...] = (("base", {}),)


@dataclass(frozen=True, slots=True)
class BalanceCell:
    """One figure of one row: a rate with its interval, or a mean (``low == high``)."""

    players: int
    variant: str
    column: str
    value: float
    low: float
    high: float
    games: int
    is_rate: bool = True

    def text(self, compact: bool = False) -> str:
        """``"41.0% [34.4%, 47.9%]"`` for a rate (``"41 [34-48]"`` compact), ``"9.8"`` for a
        mean.

        >>> BalanceCell(4, "base", "seat 1", 0.41, 0.344, 0.479, 200).text(compact=True)
        '41 [34-48]'
        """
        if not self.is_rate:
            return f"{self.value:.1f}"
        if compact:
            return f"{self.value:.0%} [{self.low * 100:.0f}-{self.high * 100:.0f}]".replace(
                "%", "")
        return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}]"


def balance_table(game_name: str) -> BalanceTable | None:
    """The balance table a game's plugin declares (``GamePlugin.balance``), if any.

    >>> balance_table("soc").players
    (3, 4, 5, 6, 7)
    """
    plugin = plugin_for(game_name)
    table: BalanceTable | None = plugin.load("balance") if plugin is not None else None
    return table


def _figure(summary: Mapping[str, Any], figure: str) -> tuple[float, float, float, bool] | None:
    name, _, index = figure.partition(".")
    entry = summary.get(name)
    if index:
        seats = summary.get(name) or []
        entry = seats[int(index)] if int(index) < len(seats) else None
    if not isinstance(entry, dict):
        return None
    if "rate" in entry:
        if not entry.get("games"):
            return None
        low, high = entry["ci95"]
        return float(entry["rate"]), float(low), float(high), True
    mean = float(entry["mean"])
    return mean, mean, mean, False


def balance(
    game_name: str,
    players: Sequence[int] | None,
    games: int,
    bots: tuple[str, ...] = ("heuristic",),
    seed: int = 0,
    workers: int = 1,
    variants: Sequence[str] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[BalanceCell]:
    """Answer game ``game_name``'s balance table: one simulation per row and column options.

    ``players`` and ``variants`` narrow the table's rows (``None``: all of them). Columns
    that share options share their games.

    >>> cells = balance("grail-cup", [3], 2, ("random",))
    >>> [cell.column for cell in cells][:2], cells[0].games
    (['first player', 'seat 1'], 2)
    """
    table = balance_table(game_name)
    if table is None:
        raise ValueError(f"{game_name!r} has no balance table")
    known = [name for name, _ in table.variants]
    for name in variants or ():
        if name not in known:
            raise ValueError(f"unknown variant {name!r}; {game_name} has {', '.join(known)}")
    cells: list[BalanceCell] = []
    for variant, variant_options in table.variants:
        if variants is not None and variant not in variants:
            continue
        for count in players if players is not None else table.players:
            summaries: dict[str, dict[str, Any] | None] = {}
            for column in table.columns:
                options = {**variant_options, **column.options, "players": count}
                key = json.dumps(options, sort_keys=True, default=str)
                if key not in summaries:
                    summaries[key] = _balance_summary(
                        game_name, options, bots, games, seed, workers, on_progress)
                summary = summaries[key]
                found = _figure(summary, column.figure) if summary is not None else None
                if found is not None:
                    value, low, high, is_rate = found
                    cells.append(BalanceCell(
                        count, variant, column.label, value, low, high, games, is_rate))
    return cells


def _balance_summary(
    game_name: str,
    options: dict[str, Any],
    bots: tuple[str, ...],
    games: int,
    seed: int,
    workers: int,
    on_progress: Callable[[int], None] | None,
) -> dict[str, Any] | None:
    try:
        registry.load_game(game_name, **{**options, "seed": 0})
    except InvalidOptionError:
        return None  # this variant does not allow this player count
    config = SimulationConfig(game_name, options, bots, games=games, seed=seed, workers=workers)
    return simulate(config, on_progress).summary
