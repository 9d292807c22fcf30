"""The ``pendragon`` command.

``pendragon games`` lists the installed games (plugins), their pieces and options;
``pendragon play GAME`` plays one in the terminal against bots;
``pendragon simulate GAME`` plays many games between bots and reports the figures;
``pendragon replay FILE`` steps through a game record (``--record``/``--records`` of the
two above write them; the format: docs/records.md);
``pendragon review FILE`` the coach's review of a recorded game (docs/bots.md, "Coach");
``pendragon train GAME`` trains a game's learned evaluator (docs/bots.md, "Evaluator");
``pendragon balance <game>`` prints the designer's table of a game (win rates by player
count and variant); ``pendragon balance soc --traitor-panel`` the loyal-policy x
traitor-policy matrix of Shadows over Camelot (docs/bots.md, "Traitor panel").

>>> main(["play", "no-such-game"])
2
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import pendragon
from pendragon import build as pendragon_build
from pendragon.bots import Bot, bot_names, check_bot, make_bot, table_bot
from pendragon.cli import review_cli, train_cli
from pendragon.cli.records_cli import check_record_path, play_and_record
from pendragon.cli.terminal import play_in_terminal
from pendragon.core.api import Game
from pendragon.core.errors import PendragonError
from pendragon.core.options import OptionSpec, OptionValue
from pendragon.core.plugins import plugin_for, plugin_source
from pendragon.i18n import LANGUAGES, catalog, default_language
from pendragon.runner import bot_seed

#: Exit code for a bad command line (as argparse uses).
EXIT_USAGE = 2

# Options with their own command-line flag; ``--option`` may not set them.
_FLAG_OPTIONS = {"players": "--players", "seed": "--seed"}


class UsageError(ValueError):
    """A command line that names a game, option, seat or bot that does not exist."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``pendragon`` command."""
    parser = argparse.ArgumentParser(
        prog="pendragon", description="Play Arthurian board games in the terminal."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("games", help="list the games and their options")
    # The server parses its own options (pendragon serve --help).
    commands.add_parser(
        "serve", help="start the online table (see `pendragon serve --help`)", add_help=False
    )
    play = commands.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("game", help="registered game name (see `pendragon games`)")
    play.add_argument("--players", type=int, default=None, help="number of seats")
    play.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    play.add_argument(
        "--bots", default=None,
        help=f"bot on the other seats: {', '.join(bot_names())}, or the game's own "
        "(`pendragon games`); default: the game's table bot, as at the online table "
        "(`pendragon games` names it)",
    )
    play.add_argument("--seed", type=int, default=None, help="seed (default: a random one)")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable; see `pendragon games`)",
    )
    play.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default_language(),
        help="language of the game's words (default: from your locale, else en)",
    )
    play.add_argument(
        "--record", default=None, metavar="FILE",
        help="write the game's record to FILE when it ends or you leave (docs/records.md)",
    )
    play.add_argument("--name", default="Player",
                      help="your name in the record (default Player)")
    simulate = commands.add_parser(
        "simulate", help="play many games between bots and report win rates"
    )
    simulate.add_argument("game", help="registered game name (see `pendragon games`)")
    simulate.add_argument("--players", type=int, default=None, help="number of seats")
    simulate.add_argument(
        "--bots",
        default="heuristic",
        help=f"one bot for every seat, or one per seat separated by commas: "
        f"{', '.join(bot_names())}, or the game's own (`pendragon games`)",
    )
    simulate.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    simulate.add_argument("--seed", type=int, default=0, help="base seed of the run (default 0)")
    simulate.add_argument("--workers", type=int, default=1, help="parallel workers (default 1)")
    simulate.add_argument(
        "--backend", choices=("process", "ray"), default="process", help="where games run"
    )
    simulate.add_argument(
        "--ray-address", default=None, help="Ray cluster address (default: a local Ray)"
    )
    simulate.add_argument(
        "--out", default="simulation", help="directory for summary.json, games.csv, the chart"
    )
    simulate.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option (repeatable; see `pendragon games`)",
    )
    simulate.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    simulate.add_argument(
        "--records", default=None, metavar="DIR",
        help="also write each game's record to DIR as GAME-SEED.json (docs/records.md; "
        "not with --ray-address: the records are written where the games are played)",
    )
    replay = commands.add_parser(
        "replay", help="step through a game record (docs/records.md)",
        description="Step through a game record: Enter the next action, b back, a number "
        "to that action, q to quit. When the input is not a terminal, print the whole "
        "game's narration, then the board.",
    )
    replay.add_argument("file", help="the record (written by play --record, simulate "
                        "--records or the web replay's download)")
    replay.add_argument("--seat", type=int, default=None,
                        help="see the game as this seat saw it (default: a spectator)")
    replay.add_argument("--to", type=int, default=None, metavar="N",
                        help="start at (or, not in a terminal, stop at) action N")
    replay.add_argument(
        "--lang", choices=LANGUAGES, default=default_language(),
        help="language of the game's words (default: from your locale, else en)",
    )
    review_cli.add_parser(commands)
    train_cli.add_parser(commands)
    balance = commands.add_parser(
        "balance", help="the designer's table of a game: win rates by player count and variant"
    )
    balance.add_argument("game", help="the game (any game with a balance table)")
    balance.add_argument("--games", type=int, default=200, help="games per cell (default 200)")
    balance.add_argument("--bots", default="heuristic", help="bot on every seat")
    balance.add_argument(
        "--players", default=None, help="player counts, e.g. 3,5,7 (default: the game's)"
    )
    balance.add_argument(
        "--variants", default=None,
        help="rows to play, e.g. base (default: all; soc: base,merlins-company)",
    )
    balance.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    balance.add_argument("--workers", type=int, default=1, help="parallel workers (default 1)")
    panel = balance.add_argument_group(
        "traitor panel (soc only)",
        "--traitor-panel prints the loyal-policy x traitor-policy matrix instead, with the "
        "traitor deck: per cell, over the games in which a traitor was dealt, the loyal win "
        "rate, the traitor unmasked by a loyal accusation, and games where a loyal knight "
        "accused a loyal one (95% intervals; paired seeds). See docs/bots.md.",
    )
    panel.add_argument("--traitor-panel", action="store_true",
                       help="play the loyal x traitor matrix (--players is one count, default 5)")
    panel.add_argument("--loyal", default="heuristic",
                       help=f"loyal policies, any bots: {', '.join(bot_names('soc'))} "
                            "(comma-separated, default heuristic)")
    panel.add_argument("--traitors", default=None,
                       help="traitor policies of the panel: heuristic, stealth, saboteur, "
                            "random (comma-separated, default all)")
    panel.add_argument("--json", default=None, metavar="PATH",
                       help="also write the matrix as JSON to PATH")
    return parser


def parse_options(game_name: str, pairs: Sequence[str]) -> dict[str, OptionValue]:
    """``["key=value", ...]`` as a dict; the game validates the values.

    ``none``/``null`` is ``None`` for an option that allows it. Unknown keys are left for the
    game to reject, with its own message.
    """
    specs = {spec.name: spec for spec in pendragon.game_class(game_name).option_specs}
    options: dict[str, OptionValue] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--option expects KEY=VALUE, got {pair!r}")
        if key in _FLAG_OPTIONS:
            raise UsageError(f"set {key!r} with {_FLAG_OPTIONS[key]}, not --option")
        if key in options:
            raise UsageError(f"option {key!r} given twice")
        spec = specs.get(key)
        if spec is not None and spec.nullable and value.strip().lower() in ("none", "null"):
            options[key] = None
        else:
            options[key] = value.strip()
    return options


def parse_option_flags(game_name: str, tokens: Sequence[str]) -> dict[str, OptionValue]:
    """Game options given as their own flags: ``--expansion merlins-company``,
    ``--squires`` (a true/false option alone means true), ``--three-brave-knights=false``.

    >>> parse_option_flags("soc", ["--expansion", "merlins-company", "--squires"])
    {'expansion': 'merlins-company', 'squires': True}
    """
    specs = {spec.name: spec for spec in pendragon.game_class(game_name).option_specs}
    options: dict[str, OptionValue] = {}
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not token.startswith("--"):
            raise UsageError(f"unexpected argument {token!r}")
        key, has_value, value = token[2:].partition("=")
        key = key.replace("-", "_")
        spec = specs.get(key)
        if spec is None or key in _FLAG_OPTIONS:
            known = ", ".join("--" + n.replace("_", "-") for n in specs if n not in _FLAG_OPTIONS)
            raise UsageError(f"unknown option {token!r} for {game_name}; its options: {known}")
        if not has_value:
            if spec.type is bool:
                options[key] = True
                continue
            if index >= len(tokens):
                raise UsageError(f"{token} needs a value")
            value = tokens[index]
            index += 1
        options[key] = None if value.lower() in ("none", "null") and spec.nullable else value
    return options


def _describe_allowed(spec: OptionSpec) -> str:
    if spec.choices is not None:
        return ", ".join("none" if c is None else str(c) for c in spec.choices)
    if spec.minimum is not None or spec.maximum is not None:
        low = "" if spec.minimum is None else str(spec.minimum)
        high = "" if spec.maximum is None else str(spec.maximum)
        return f"{low}..{high}"
    if spec.type is bool:
        return "true, false"
    return ""


def _plugin_line(name: str) -> str:
    """Where a game comes from and which of its pieces are installed."""
    plugin = plugin_for(name)
    if plugin is None:
        return f"  {name}: registered directly (no plugin)"
    counts = pendragon.game_class(name).supported_player_counts()
    seats = f"{counts[0]}-{counts[-1]}" if counts else "none"
    parts = [f"  package {plugin_source(name)}", f"players {seats}"]
    parts.append("pieces: " + ", ".join(plugin.pieces()))
    if plugin.bots:
        parts.append("own bots: " + ", ".join(sorted(plugin.bots)))
    parts.append(f"table bot: {table_bot(name)}")
    if plugin.environment is not None:
        parts.append(
            f"environments: {plugin.pettingzoo_name}, {plugin.gymnasium_id}, "
            f"{plugin.openspiel_name}"
        )
    return escape("; ".join(parts))


def list_games(console: Console) -> int:
    """Print every registered game with its options."""
    names = pendragon.registered_games()
    if not names:
        console.print("No games are registered.")
        return 0
    for name in names:
        cls = pendragon.game_class(name)
        title = name
        try:
            info = cls({}).info
            title = f"{name}: {info.long_name} ({info.min_players}-{info.max_players} players)"
        except PendragonError:
            pass  # a game without defaults for every option: show its name only
        table = Table(title=escape(title), title_justify="left", box=box.SIMPLE_HEAD)
        # Names and values are what a user types: never cut them; the meaning may wrap.
        table.add_column("option", no_wrap=True, style="bold")
        table.add_column("values", no_wrap=True)
        table.add_column("meaning", ratio=1)
        for spec in cls.option_specs:
            allowed = _describe_allowed(spec) or spec.type.__name__
            default = "none" if spec.default is None else str(spec.default).lower()
            table.add_row(
                escape(spec.name),
                f"{escape(allowed)}\n[dim]default {escape(default)}[/dim]",
                escape(spec.help),
            )
        console.print(table)
        console.print(_plugin_line(name), highlight=False)
    console.print(
        "Set players and seed with --players/--seed, the others as flags"
        " (--expansion merlins-company, --squires) or with --option KEY=VALUE."
    )
    console.print(f"Rules and core: {escape(pendragon_build.describe())}.", highlight=False)
    return 0


def prepare_play(args: argparse.Namespace) -> tuple[Game, dict[int, Bot]]:
    """The game and the bots of the other seats for the ``play`` command.

    Raises ``ValueError`` (a usage error) for anything wrong on the command line.
    """
    options = _game_options(args)
    if args.seed is not None:
        options["seed"] = args.seed
    game = pendragon.load_game(args.game, **options)
    seats = game.num_players()
    if not 0 <= args.seat < seats:
        raise UsageError(f"--seat must be between 0 and {seats - 1}, got {args.seat}")
    name = check_bot(args.bots if args.bots is not None else table_bot(args.game), args.game,
                     people=True)
    bots = {
        seat: make_bot(name, bot_seed(game.seed, seat), args.game)
        for seat in range(seats)
        if seat != args.seat
    }
    return game, bots


def _game_options(args: argparse.Namespace) -> dict[str, OptionValue]:
    options = parse_options(args.game, args.option)
    for key, value in parse_option_flags(args.game, getattr(args, "extra", [])).items():
        if key in options:
            raise UsageError(f"option {key!r} given twice")
        options[key] = value
    if args.players is not None:
        options["players"] = args.players
    return options


def run_simulate(args: argparse.Namespace, console: Console) -> int:
    """The ``simulate`` command: play, print the summary, write the files."""
    from pathlib import Path

    from rich.progress import Progress

    from pendragon.cli.records_cli import records_dir
    from pendragon.simulate import SimulationConfig, simulate, write_outputs

    options = _game_options(args)
    bots = tuple(name.strip() for name in args.bots.split(",") if name.strip())
    for name in bots:
        check_bot(name, args.game)
    if args.games < 1 or args.workers < 1:
        raise UsageError("--games and --workers must be at least 1")
    config = SimulationConfig(
        args.game, options, bots, games=args.games, seed=args.seed, workers=args.workers,
        backend=args.backend, ray_address=args.ray_address,
        records_dir=records_dir(args.records, args.backend, args.ray_address),
    )
    with Progress(console=console, disable=args.no_progress, transient=True) as progress:
        task = progress.add_task(f"{args.game}: {args.games} games", total=args.games)
        result = simulate(config, lambda n: progress.advance(task, n))
    console.print(summary_table(result.summary, escape(f"{args.game} {options} bots={args.bots}")))
    for path in write_outputs(result, Path(args.out)):
        console.print(f"wrote {path}")
    if config.records_dir is not None:
        console.print(f"wrote {args.games} records to {config.records_dir}")
    return 0


def _percent(entry: dict[str, Any]) -> str:
    low, high = entry["ci95"]
    return f"{entry['rate']:.1%}  [{low:.1%}, {high:.1%}]"


def summary_table(summary: dict[str, Any], title: str) -> Table:
    """The figures of a simulation summary as a Rich table."""
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("figure", no_wrap=True, style="bold")
    table.add_column("value (95% interval)")
    table.add_row("games", str(summary["games"]))
    for key in ("loyal_win", "traitor_present", "traitor_win_given_traitor",
                "traitor_unmasked_given_traitor"):
        entry = summary.get(key)
        if isinstance(entry, dict) and entry.get("games"):
            table.add_row(key.replace("_", " "), _percent(entry))
    precision = summary.get("loyal_accusation_precision")
    if isinstance(precision, dict) and precision.get("games"):
        table.add_row(
            "loyal accusations on target",
            f"{_percent(precision)} of {precision['games']}"
            f" (random pick: {precision['random_accuser']:.1%})",
        )
    for seat, entry in enumerate(summary["seat_win"]):
        table.add_row(f"seat {seat} wins", _percent(entry))
    for name, entry in summary.get("bot_win", {}).items():
        table.add_row(f"a {name} bot wins", _percent(entry))
    reasons = summary["end_reasons"]
    games = max(1, int(summary["games"]))
    for reason, count in reasons.items():
        table.add_row(f"end: {reason or 'none'}", f"{count / games:.1%} ({count})")
    shown = {"games", "seat_win", "bot_win", "end_reasons", "loyal_win", "traitor_present",
             "traitor_win_given_traitor", "traitor_unmasked_given_traitor",
             "loyal_accusation_precision"}
    # The game's own figures (its plugin's stats): rates with intervals, then means.
    for key, entry in summary.items():
        if key not in shown and isinstance(entry, dict) and "rate" in entry:
            table.add_row(key.replace("_", " "), _percent(entry))
    for key, entry in summary.items():
        if key not in shown and isinstance(entry, dict) and "mean" in entry:
            table.add_row(f"{key.replace('_', ' ')} (mean)",
                          f"{entry['mean']:.1f}  (min {entry['min']:g}, max {entry['max']:g})")
    return table


def run_balance(args: argparse.Namespace, console: Console) -> int:
    """The ``balance`` command: the game's balance table (``GamePlugin.balance``)."""
    from rich.progress import Progress

    if args.traitor_panel:
        return run_traitor_panel(args, console)
    if args.json is not None or args.traitors is not None or args.loyal != "heuristic":
        raise UsageError("--loyal, --traitors and --json go with --traitor-panel")

    from pendragon.simulate import balance, balance_table

    table_spec = balance_table(args.game)
    if table_spec is None:
        having = [name for name in pendragon.registered_games() if balance_table(name) is not None]
        raise UsageError(
            f"{args.game!r} has no balance table; games with one: {', '.join(having)}")
    try:
        counts = (None if args.players is None
                  else [int(p) for p in args.players.split(",") if p.strip()])
    except ValueError:
        raise UsageError(
            f"--players expects numbers separated by commas, got {args.players!r}"
        ) from None
    variants = (None if args.variants is None
                else [v.strip() for v in args.variants.split(",") if v.strip()])
    check_bot(args.bots, args.game)
    if args.games < 1 or args.workers < 1:
        raise UsageError("--games and --workers must be at least 1")
    rows = len(variants or table_spec.variants) * len(counts or table_spec.players)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("balance", total=None)
        cells = balance(
            args.game, counts, args.games, (args.bots,), seed=args.seed, workers=args.workers,
            variants=variants, on_progress=lambda n: progress.advance(task, n),
        )
    columns = [c.label for c in table_spec.columns
               if any(cell.column == c.label for cell in cells)]
    # Many figures per row (a seat each): percentages without decimals, so a row fits.
    compact = len(columns) > 4
    table = Table(
        title=f"{table_spec.title}; {args.bots} bots, {args.games} games per cell, "
              f"{'percent, ' if compact else ''}95% intervals ({rows} rows)",
        title_justify="left", box=box.SIMPLE_HEAD,
    )
    several = len(table_spec.variants) > 1
    for column in ("players", *(["variant"] if several else []), *columns):
        table.add_column(column, no_wrap=True)
    for variant, _ in table_spec.variants:
        for count in counts or table_spec.players:
            row = {c.column: c.text(compact) for c in cells
                   if c.players == count and c.variant == variant}
            if row:
                table.add_row(str(count), *([variant] if several else []),
                              *(row.get(c, "—") for c in columns))
    # A wide table is printed whole (a pipe or a narrow terminal scrolls, never truncates).
    needed = 12 + (16 if several else 0) + sum(
        3 + max(len(label), *(len(c.text(compact)) for c in cells if c.column == label))
        for label in columns)
    if console.width < needed:
        console = Console(highlight=False, width=needed, file=console.file)
    console.print(table)
    return 0


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def run_traitor_panel(args: argparse.Namespace, console: Console) -> int:
    """``balance soc --traitor-panel``: the loyal x traitor matrix (issue 18), printed as
    one block of rows per loyal policy and one column per panel traitor, plus the games of
    the same seeds in which no traitor was dealt."""
    import json
    from pathlib import Path

    from rich.progress import Progress

    if args.game != "soc":
        raise UsageError(f"--traitor-panel is for soc only, not {args.game!r}")
    if args.variants is not None or args.bots != "heuristic":
        raise UsageError("--traitor-panel takes --loyal and --traitors, not --bots or --variants")
    from pendragon.games.soc.traitors import TRAITOR_PANEL, traitor_panel

    try:
        players = 5 if args.players is None else int(args.players)
    except ValueError:
        raise UsageError(
            f"--players with --traitor-panel is one number, got {args.players!r}") from None
    loyal = _names(args.loyal)
    traitors = list(TRAITOR_PANEL) if args.traitors is None else _names(args.traitors)
    if args.json is not None and not Path(args.json).parent.is_dir():
        raise UsageError(f"--json: no directory {str(Path(args.json).parent)!r}")
    with Progress(console=console, transient=True) as progress:
        # Games without a traitor dealt are played once per loyal policy: no fixed total.
        task = progress.add_task("traitor panel", total=None)
        matrix = traitor_panel(
            players, args.games, loyal, traitors, seed=args.seed, workers=args.workers,
            on_progress=lambda n: progress.advance(task, n),
        )
    if args.json is not None:
        Path(args.json).write_text(json.dumps(matrix.to_dict(), indent=2) + "\n")
    table = Table(
        title=f"soc, {players} players, traitor deck: loyal x traitor policy, "
              f"{args.games} paired seeds per cell (seed {args.seed}), 95% intervals",
        title_justify="left", box=box.SIMPLE_HEAD,
    )
    table.add_column("loyal", no_wrap=True, style="bold")
    table.add_column("figure", no_wrap=True)
    for name in traitors:
        table.add_column(f"vs {name}", no_wrap=True)
    table.add_column("no traitor dealt", no_wrap=True)
    for name in loyal:
        cells = [matrix.cell(name, t) for t in traitors]
        reference = matrix.cell(name, None)
        table.add_row(name, "games", *(str(c.games) for c in cells), str(reference.games))
        table.add_row("", "loyal win", *(c.loyal_win.text() for c in cells),
                      reference.loyal_win.text())
        table.add_row("", "traitor unmasked", *(c.traitor_unmasked.text() for c in cells), "—")
        table.add_row("", "accused a loyal", *(c.false_accusation.text() for c in cells),
                      reference.false_accusation.text(), end_section=True)
    needed = 40 + 20 * (len(traitors) + 1)
    if console.width < needed:
        console = Console(highlight=False, width=needed, file=console.file)
    console.print(table)
    console.print(
        "traitor unmasked: a loyal knight accused the traitor (SOC-ACCUSE-2); accused a "
        "loyal: a loyal knight accused a loyal one (SOC-ACCUSE-3); rates over the games "
        "with a traitor dealt, the last column over those without.")
    if args.json is not None:
        console.print(f"wrote {args.json}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``pendragon`` command with ``argv`` (default: the process arguments)."""
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["serve"]:
        from pendragon.web.server import serve_main  # the web stack loads only when asked

        return serve_main(arguments[1:])
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and args.command not in ("play", "simulate"):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.extra = extra
    except SystemExit as exit_:  # argparse reports usage errors (and --help) this way
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    console = Console(highlight=False)
    if args.command == "games":
        return list_games(console)
    if args.command == "replay":
        from pendragon.cli.records_cli import run_replay

        try:
            return run_replay(args.file, args.seat, args.to, args.lang, console)
        except ValueError as error:  # a bad record (RecordError) or --seat/--to
            print(f"pendragon: error: {error}", file=sys.stderr)
            return EXIT_USAGE
    if args.command == "review":
        try:
            return review_cli.run_review(args, console)
        except (ValueError, OSError) as error:  # a bad record (RecordError), --chart, a file
            print(f"pendragon: error: {error}", file=sys.stderr)
            return EXIT_USAGE
    if args.command == "train":
        try:
            return train_cli.run_train(args, console, arguments)
        except (ValueError, OSError) as error:
            print(f"pendragon: error: {error}", file=sys.stderr)
            return EXIT_USAGE
    if args.command in ("simulate", "balance"):
        try:
            if args.command == "simulate":
                return run_simulate(args, console)
            return run_balance(args, console)
        except ValueError as error:
            print(f"pendragon: error: {error}", file=sys.stderr)
            return EXIT_USAGE
    try:
        game, bots = prepare_play(args)
        words = catalog(args.lang)
        record = None if args.record is None else check_record_path(args.record)
    except ValueError as error:
        # Bad names and option values from the command line (the core's errors are
        # ValueErrors too; so is a catalog that cannot be read): a message and exit code
        # 2, never a traceback.
        print(f"pendragon: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    console.print(escape(words.text("term.seed", seed=game.seed)))
    if record is not None:
        bot = args.bots if args.bots is not None else table_bot(args.game)
        return play_and_record(game, args.seat, bots, console, words, record, args.name, bot)
    return play_in_terminal(game, args.seat, bots, console, catalog=words)


if __name__ == "__main__":
    sys.exit(main())
