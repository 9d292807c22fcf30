"""``pendragon review FILE``: the coach's review of a recorded game in the terminal.

Reads a game record (:mod:`pendragon.records`, refused whole with a clear error if broken
or foreign), reviews it with :func:`pendragon.coach.review` under a progress bar, and
prints a table of the decisions (seat, move played, the search's move, the chance before
and after, the mark), a sparkline of the win chance and how sure the figures are.
``--json OUT`` writes the figures, ``--chart FILE.png|FILE.svg`` a chart (matplotlib,
from the ``sim`` extra).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pendragon.coach import Budget, Review, budget_for, percent, review
from pendragon.core.events import Event
from pendragon.i18n import LANGUAGES, Catalog, catalog, default_language

if TYPE_CHECKING:
    from pendragon.records import ReplayedRecord

#: Exit codes: done, and a file or command line that cannot be reviewed.
EXIT_DONE = 0
EXIT_USAGE = 2
_BLOCKS = "▁▂▃▄▅▆▇█"
_MARK_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


class ReviewError(ValueError):
    """A review that cannot be made (an unfinished game, a chart format not known)."""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``review`` subcommand's arguments."""
    parser = commands.add_parser(
        "review", help="the coach's review of a recorded game (docs/bots.md, Coach)",
        description="Review a finished game from its record: for every decision, the "
        "deciding seat's estimated chance of winning before it, after the move played and "
        "after the search's move, with inaccuracies, mistakes and blunders marked.")
    parser.add_argument("file", help="the game record (pendragon play --record, simulate "
                        "--records, or the web replay's download)")
    parser.add_argument("--json", default=None, metavar="OUT", help="write the figures as JSON")
    parser.add_argument("--chart", default=None, metavar="FILE",
                        help="write a chart of the win chance: FILE.png or FILE.svg (matplotlib)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the search (default 0: the same review every time)")
    parser.add_argument("--budget", type=int, default=None, metavar="ACTIONS",
                        help="simulated actions per decision (default: the game's, docs/bots.md)")
    parser.add_argument("--lang", choices=LANGUAGES, default=default_language(),
                        help="language of the words (default: from your locale, else en)")


def sparkline(values: Sequence[float], width: int = 60) -> str:
    """``values`` (each in [0, 1]) as a line of block characters, at most ``width`` long.

    >>> sparkline([0.0, 0.5, 1.0])
    '▁▅█'
    >>> len(sparkline([0.5] * 200, width=50))
    50
    """
    if not values:
        return ""
    if len(values) > width:
        step = len(values) / width
        values = [values[int(i * step)] for i in range(width)]
    top = len(_BLOCKS) - 1
    return "".join(_BLOCKS[max(0, min(top, round(v * top)))] for v in values)


def run_review(args: argparse.Namespace, console: Console) -> int:
    """Run ``pendragon review`` with parsed ``args``."""
    from pendragon.records import read_record, replay_record

    words = catalog(args.lang)
    chart_path = None if args.chart is None else Path(args.chart)
    if chart_path is not None and chart_path.suffix.lower() not in (".png", ".svg"):
        raise ReviewError(f"--chart writes a .png or .svg file, not {chart_path.name!r}")
    replayed = replay_record(read_record(args.file))
    if not replayed.final.is_terminal():
        raise ReviewError(f"{args.file}: the game is unfinished; only a finished game is reviewed")
    budget = budget_for(replayed.game.name, replayed.game.num_players())
    if args.budget is not None:
        if args.budget < 1:
            raise ReviewError("--budget must be at least 1")
        budget = Budget(args.budget, budget.min_sweeps, budget.max_sweeps)
    with Progress(TextColumn(escape(words.text("review.progress"))), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  transient=True) as bar:
        task = bar.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review(replayed.game, replayed.actions, advance, seed=args.seed, budget=budget)
    names = [seat.name for seat in replayed.record.seats]
    _show(result, names, words, console)
    found = _ending(replayed)
    ending = "" if found is None else words.text(
        "review.ending", event=words.render(found, lambda seat: _seat_name(names, seat, words)))
    if ending:  # the game's own last line: who won, and how
        console.print(escape(ending))
    if args.json is not None:
        data = result.to_json()
        data["record"] = {"file": str(args.file), "seats": names,
                          "actions": list(replayed.record.actions)}
        Path(args.json).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                                   encoding="utf-8")
        console.print(escape(words.text("review.wrote_json", path=str(args.json))))
    if chart_path is not None:
        write_chart(result, chart_path, words, names, ending)
        console.print(escape(words.text("review.wrote_chart", path=str(chart_path))))
    return EXIT_DONE


def _ending(replayed: ReplayedRecord) -> Event | None:
    """The last event the game narrates for its final action (in the bundled games, the
    result: "The loyal knights win."), or None if it narrates none."""
    if not replayed.actions:
        return None
    before = replayed.state_at(len(replayed.actions) - 1)
    events = before.narrate(replayed.actions[-1], None)
    return events[-1] if events else None


def _seat_name(names: Sequence[str], seat: int, words: Catalog) -> str:
    """"Seat 2 (Ann)" with the record's name of the seat, else "Seat 2"."""
    if 0 <= seat < len(names) and names[seat]:
        return words.text("term.seat.named", n=seat, name=names[seat])
    return words.text("core.seat", n=seat)


def _series_name(name: str, names: Sequence[str], words: Catalog) -> str:
    if name == "loyal":
        return words.text("review.chart.loyal")
    return _seat_name(names, int(name.split()[-1]), words)


def _show(result: Review, names: Sequence[str], words: Catalog, console: Console) -> None:
    game_key = f"game.{result.game}"
    game = words.text(game_key) if game_key in words else result.game
    table = Table(box=box.SIMPLE_HEAD, title=escape(words.text("review.title", game=game)))
    for key, justify in (("move", "right"), ("seat", "left"), ("played", "left"),
                         ("best", "left"), ("before", "right"), ("after", "right"),
                         ("mark", "left")):
        table.add_column(escape(words.text(f"review.col.{key}")), justify=justify,  # type: ignore[arg-type]
                         overflow="fold")
    for move in result.moves:
        mark = ""
        if move.mark is not None:
            style = _MARK_STYLE[move.mark]
            mark = f"[{style}]{escape(words.text(f'coach.mark.{move.mark}'))}[/{style}]"
        best = "" if move.best == move.played else escape(move.best_text)
        table.add_row(str(move.index), escape(_seat_name(names, move.seat, words)),
                      escape(move.played_text), best, f"{percent(move.before)}%",
                      f"{percent(move.after)}%", mark)
    console.print(table)
    title = "review.chart.loyal" if "loyal" in result.chart else "review.chart.knights"
    console.print(escape(words.text(title)))
    label_width = max(len(_series_name(n, names, words)) for n in result.chart)
    for name, points in result.chart.items():
        label = _series_name(name, names, words).ljust(label_width)
        line = sparkline([c for _, c in points], width=max(10, console.width - label_width - 3))
        console.print(f"{escape(label)}  {line}")
    if result.marks:
        marks = ", ".join(f"{words.text(f'coach.mark.{m}')} {n}"
                          for m, n in sorted(result.marks.items()))
        console.print(escape(words.text("review.marks", marks=marks)))
    else:
        console.print(escape(words.text("review.no_marks")))
    console.print(escape(words.text("review.error", error=f"{100 * result.mean_error:.1f}")))
    if result.calibration_error is not None:
        console.print(escape(words.text(
            "review.calibration", calibration=f"{100 * result.calibration_error:.1f}")))


def write_chart(result: Review, path: Path, words: Catalog,
                names: Sequence[str] = (), ending: str = "") -> None:
    """A line chart of the win chance per decision (``path``: .png or .svg, its words kept
    as text) with the marked moves shown (on the loyal side's line, or on the deciding
    knight's) and ``ending`` (how the game ended) under the title; :class:`ReviewError`
    without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        raise ReviewError("--chart needs matplotlib: pip install 'pendragon[sim]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # An SVG's words stay words (searchable, read aloud); the setting only for this chart.
    with plt.rc_context({"svg.fonttype": "none"}):
        figure, axes = plt.subplots(figsize=(10, 4))
        for name, points in result.chart.items():
            label = _series_name(name, names, words)
            axes.plot([i for i, _ in points], [100 * c for _, c in points], label=label,
                      linewidth=1.2)
        colours = {"inaccuracy": "gold", "mistake": "darkorange", "blunder": "red"}
        for move in result.moves:
            if move.mark is not None:  # on the line it was read on: the loyal side's, his own
                value = move.loyal_before if move.loyal_before is not None else move.before
                axes.scatter([move.index], [100 * value], color=colours[move.mark],
                             zorder=3, s=18)
        axes.set_ylim(0, 100)
        axes.set_ylabel("%")
        axes.set_xlabel(words.text("review.col.move"))
        title = "review.chart.loyal" if "loyal" in result.chart else "review.chart.knights"
        if ending:
            figure.suptitle(words.text(title))
            axes.set_title(ending, fontsize="small")
        else:
            axes.set_title(words.text(title))
        if len(result.chart) > 1:
            axes.legend(loc="best", fontsize="small")
        figure.tight_layout()
        figure.savefig(path)
        plt.close(figure)
