"""``pendragon train GAME``: train the learned evaluator of a game (issue 38).

Plays games of the project's bots across the game's setups, records positions, fits the
model and writes it with its metadata (:mod:`pendragon.training`). The default ``--out``
is the game's shipped model (``<game package>/evaluator.json`` in this source tree); the
same arguments give the same file. Needs numpy (``pip install 'pendragon[rl]'``); ``--backend
ray`` needs the ``sim`` extra.
"""

from __future__ import annotations

import argparse
import shlex
import time
from collections.abc import Sequence

from rich.console import Console


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``train`` subcommand's arguments."""
    parser = commands.add_parser(
        "train", help="train a game's learned evaluator (docs/bots.md, Evaluator)",
        description="Generate positions from games of the project's bots across the "
        "game's setups, fit the win-chance model and write it with its metadata.")
    parser.add_argument("game", help="registered game name (see `pendragon games`)")
    parser.add_argument("--players", default=None,
                        help="player counts, e.g. 3,5,8 (default: every count the game allows)")
    parser.add_argument("--games", type=int, default=2000, help="games to play (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="parallel workers (default 1)")
    parser.add_argument("--backend", choices=("process", "ray"), default="process",
                        help="where the games run (ray: the `sim` extra)")
    parser.add_argument("--ray-address", default=None,
                        help="Ray cluster address (default: a local Ray)")
    parser.add_argument("--positions", type=int, default=8,
                        help="positions recorded a game (default 8)")
    parser.add_argument("--seats", type=int, default=2,
                        help="seats' views recorded a position (default 2)")
    parser.add_argument("--decisions", type=int, default=0,
                        help="decisions a game recorded besides, from the deciding seat, on"
                             " which each setup's own calibration is fitted (default 0)")
    parser.add_argument("--explore", type=float, default=0.0,
                        help="chance that a training game's decision is played at random,"
                             " the mover's view right after recorded (default 0)")
    parser.add_argument("--setup-calibration-games", choices=("heuristic", "all"),
                        default="heuristic",
                        help="games whose decisions fit each setup's calibration: the"
                             " heuristic's (default) or all, the table bot's too (a setup"
                             " with --calibration-games keeps to the heuristic's)")
    parser.add_argument("--calibration-games", type=int, default=0,
                        help="games played besides at each base setup of"
                             " --calibration-players, by the heuristic (a search seat in"
                             " --search-share), only to fit and measure those setups' own"
                             " calibration (default 0)")
    parser.add_argument("--calibration-players", default=None,
                        help="player counts whose base setups get --calibration-games, e.g."
                             " 5,4,6, played in that order (a count added last leaves the"
                             " others' games as they were; default: every count trained)")
    parser.add_argument("--calibration-map", choices=("platt", "isotonic", "anchored"),
                        default="platt",
                        help="a setup with calibration games: its logit scaled and shifted"
                             " (platt, default), or that and then a monotone map of its"
                             " chance fitted on them (isotonic), its ends drawn on to 0 and"
                             " 1 (anchored)")
    parser.add_argument("--tail-prior", type=float, default=0.0,
                        help="anchored maps: the weight of their tails' slope ridge toward 1"
                             " (default 0, none; 4: a slope of 1 give or take 0.5)")
    parser.add_argument("--hidden", type=int, default=32,
                        help="hidden units (default 32; 0: a logistic regression)")
    parser.add_argument("--epochs", type=int, default=12, help="passes of the fit (default 12)")
    parser.add_argument("--search-share", type=float, default=0.1,
                        help="share of games with one seat played by the search bot (0.1)")
    parser.add_argument("--remap", action="store_true",
                        help="fit again only the chance maps of --calibration-players' base"
                             " setups, on --calibration-games new games of --seed, on the"
                             " model at --base (its networks kept; --games is not played)")
    parser.add_argument("--base", default=None, metavar="PATH",
                        help="--remap: the model to start from (default: the shipped one)")
    parser.add_argument("--out", default=None, metavar="PATH",
                        help="where to write the model (default: the game's shipped model)")


def _players(text: str | None, flag: str = "--players") -> tuple[int, ...] | None:
    if text is None:
        return None
    try:
        counts = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise ValueError(f"{flag}: player counts separated by commas, got {text!r}") from None
    if not counts:
        raise ValueError(f"{flag}: at least one player count")
    return counts


def run_train(args: argparse.Namespace, console: Console,
              argv: Sequence[str] | None = None) -> int:
    """Run ``pendragon train`` with parsed ``args``."""
    import pendragon
    from pendragon.training import (
        TrainConfig,
        calibration_plans,
        default_out,
        setups_for,
        train,
        write_model,
    )

    pendragon.game_class(args.game)  # an unknown game: a clear error before any work
    if args.base is not None and not args.remap:
        raise ValueError("--base: only with --remap")
    if not 0.0 <= args.search_share <= 1.0:
        raise ValueError("--search-share: a share from 0 to 1")
    if args.tail_prior < 0:
        raise ValueError("--tail-prior: a weight, 0 or more")
    if args.remap:
        return _run_remap(args, console, argv)
    if args.games < 20:
        raise ValueError("--games: at least 20 (a tenth of the games is held out)")
    if args.positions < 1 or args.seats < 1 or args.hidden < 0 or args.epochs < 1:
        raise ValueError("--positions, --seats and --epochs are at least 1, --hidden 0")
    if args.decisions < 0:
        raise ValueError("--decisions: at least 0")
    if not 0.0 <= args.explore < 1.0:
        raise ValueError("--explore: a chance from 0 to below 1")
    if args.calibration_games < 0:
        raise ValueError("--calibration-games: at least 0")
    if args.calibration_games and not args.decisions:
        raise ValueError("--calibration-games records decisions: give --decisions too")
    config = TrainConfig(
        game=args.game, players=_players(args.players), games=args.games, seed=args.seed,
        workers=args.workers, backend=args.backend, ray_address=args.ray_address,
        positions=args.positions, seats=args.seats, decisions=args.decisions,
        setup_calibration_games=args.setup_calibration_games,
        calibration_games=args.calibration_games,
        calibration_players=_players(args.calibration_players, "--calibration-players"),
        calibration_map=args.calibration_map, tail_prior=args.tail_prior,
        hidden=args.hidden, epochs=args.epochs, explore=args.explore,
        search_share=args.search_share)
    out = default_out(args.game) if args.out is None else args.out
    command = _recorded(argv)
    started = time.perf_counter()
    done = [0]
    # The games to play: the run's, then its calibration games.
    total = config.games + len(calibration_plans(
        config, setups_for(config.game, config.players, config.options)))

    def progress(count: int) -> None:
        done[0] += count
        console.print(f"  {done[0]}/{total} games", end="\r")

    model = train(config, command=command.strip(), on_progress=progress)
    path = write_model(model, out)
    figures = model.metadata["validation"]["all"]
    console.print(
        f"wrote {path}: {model.metadata['positions']} positions from {config.games} games, "
        f"held-out calibration error {100 * figures['calibration_error']:.1f} points, "
        f"Brier {figures['brier']:.3f} ({time.perf_counter() - started:.0f} s)")
    return 0


def _recorded(argv: Sequence[str] | None) -> str:
    """The command as the metadata records it (without ``--out`` and ``--base``: where
    it was written or read is not what it is, and the same run gives the same file
    wherever it goes)."""
    shown = list(argv or [])
    for flag in ("--out", "--base"):
        if flag in shown:
            at = shown.index(flag)
            del shown[at:at + 2]
        shown = [a for a in shown if not a.startswith(flag + "=")]
    return ("pendragon " + " ".join(shlex.quote(a) for a in shown)).strip()


def _run_remap(args: argparse.Namespace, console: Console,
               argv: Sequence[str] | None) -> int:
    """``pendragon train GAME --remap``: the chance maps of some setups fitted again."""
    from pendragon.bots.evaluator import load_model, shipped_model
    from pendragon.training import TrainConfig, default_out, remap, write_model

    if args.calibration_games < 1 or args.decisions < 1:
        raise ValueError("--remap: give --calibration-games and --decisions")
    if args.calibration_players is None:
        raise ValueError("--remap: name the setups' --calibration-players")
    base = load_model(args.base) if args.base is not None else shipped_model(args.game)
    if base is None:
        raise ValueError(f"{args.game} ships no model to start from: give --base")
    config = TrainConfig(
        game=args.game, players=_players(args.players), games=0, seed=args.seed,
        workers=args.workers, backend=args.backend, ray_address=args.ray_address,
        decisions=args.decisions, calibration_games=args.calibration_games,
        calibration_players=_players(args.calibration_players, "--calibration-players"),
        calibration_map=args.calibration_map, tail_prior=args.tail_prior,
        search_share=args.search_share)
    started = time.perf_counter()
    model = remap(config, base, command=_recorded(argv))
    path = write_model(model, default_out(args.game) if args.out is None else args.out)
    for key, found in model.metadata["remaps"][-1]["setups"].items():
        figures = found["validation"]
        console.print(f"{key}: {found['games']} games, the map "
                      f"{'fitted again' if found['mapped'] else 'kept (too few decisions)'}, "
                      f"measured {100 * figures['calibration_error']:.1f} points")
    console.print(f"wrote {path} ({time.perf_counter() - started:.0f} s)")
    return 0
