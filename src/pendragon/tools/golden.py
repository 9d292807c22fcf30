"""Golden playthroughs: seeded games written out as text, regenerated and diffed by the tests.

Each registered game has a fixed list of configurations (:data:`CONFIGS`; a game without an
entry gets :func:`default_configs`). A configuration is played with random bots (the bot of
seat ``s`` is seeded ``bot_seed(seed, s)``) and chance from the state's own stream. The
transcript lists every step (number, who acted, action text) and, every
:data:`SUMMARY_PERIOD` steps and at the end, the public view ``observation(None)`` as one line
of sorted JSON.

Regenerate the files after an intended change of the rules::

    python -m pendragon.tools.golden --write          # or: make golden
    python -m pendragon.tools.golden --check          # exit 1 if any file is out of date

A transcript names the game's rules version (:attr:`~pendragon.core.api.Game.rules_version`).
``--write`` refuses to rewrite a playthrough whose actions changed while that version stayed
the same: records of the game would replay into another game, so the version must be raised
first (a change of the public summaries alone is written).

``--game-class module:Class`` registers an extra game first (the tests' toy game lives in
``tests.toygame:ToyGame``).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pendragon
from pendragon.bots.random_bot import RandomBot
from pendragon.core.api import CHANCE, Game, State
from pendragon.runner import bot_seed, play_game, supported_player_counts

#: Steps between two public summaries in a transcript.
SUMMARY_PERIOD = 20

#: Where the golden files live when the package runs from a checkout (``src/`` layout).
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "tests" / "golden"


@dataclass(frozen=True, slots=True)
class GoldenConfig:
    """One seeded game to record: ``players`` seats, game ``seed``, extra ``options``."""

    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """File-name label, e.g. ``p5-s2``.

        >>> GoldenConfig(5, 2).label
        'p5-s2'
        """
        extra = "".join(f"-{k}={v}" for k, v in sorted(self.options.items()))
        return f"p{self.players}-s{self.seed}{extra}"


CONFIGS: dict[str, tuple[GoldenConfig, ...]] = {
    "soc": (
        GoldenConfig(3, 1),
        GoldenConfig(5, 2),
        GoldenConfig(7, 3),
        GoldenConfig(8, 4, {"expansion": "merlins-company"}),
        GoldenConfig(5, 5, {"expansion": "merlins-company", "squires": True}),
        GoldenConfig(3, 6, {"three_brave_knights": True}),
    ),
    "soc-card": (
        GoldenConfig(1, 1),
        GoldenConfig(4, 2),
        GoldenConfig(7, 3),
        GoldenConfig(5, 4, {"knights_relief": True}),
        GoldenConfig(3, 5, {"knights_relief": True, "promos": True}),
    ),
    "grail-cup": (GoldenConfig(2, 1), GoldenConfig(3, 2), GoldenConfig(5, 3), GoldenConfig(8, 4)),
}


def default_configs(game_name: str) -> tuple[GoldenConfig, ...]:
    """Smallest and largest table of a game without an entry in :data:`CONFIGS`."""
    counts = supported_player_counts(game_name)
    return (GoldenConfig(counts[0], 1), GoldenConfig(counts[-1], 2))


def configs_for(game_name: str) -> tuple[GoldenConfig, ...]:
    """The configurations recorded for ``game_name``."""
    return CONFIGS.get(game_name) or default_configs(game_name)


def golden_path(directory: Path, game_name: str, config: GoldenConfig) -> Path:
    """``<directory>/<game>-<label>.txt``."""
    return directory / f"{game_name}-{config.label}.txt"


def _summary(state: State) -> str:
    return json.dumps(state.observation(None), sort_keys=True, separators=(",", ":"))


def transcript(game_name: str, config: GoldenConfig) -> str:
    """Play ``config`` of ``game_name`` and return its transcript."""
    game: Game = pendragon.load_game(
        game_name, players=config.players, seed=config.seed, **config.options
    )
    bots = [RandomBot(bot_seed(config.seed, seat)) for seat in range(game.num_players())]
    options = ", ".join(f"{k}={v!r}" for k, v in sorted(game.options.items()))
    lines = [
        f"# golden playthrough of {game_name} ({options})",
        f"# rules version {game.rules_version}",
        "# bots: random, seat s seeded bot_seed(seed, s); chance: the state's own stream",
        "# regenerate with: make golden",
    ]

    def record(state: State, player: int, action: int) -> None:
        # Called before each action: state.version steps are done so far.
        if state.version and state.version % SUMMARY_PERIOD == 0:
            lines.append(f"summary {state.version}: {_summary(state)}")
        who = "chance" if player == CHANCE else f"seat {player}"
        lines.append(f"{state.version + 1} {who} {state.action_to_string(action)}")

    final = play_game(game, bots, on_event=record)
    lines.append(f"end {final.version}: returns {final.returns()}")
    lines.append(f"summary {final.version}: {_summary(final)}")
    return "\n".join(lines) + "\n"


def rules_version_of(text: str) -> int | None:
    """The rules version a transcript names (``None``: a transcript from before they had one).

    >>> rules_version_of("# golden playthrough of x ()\\n# rules version 3\\n1 seat 0 go\\n")
    3
    >>> rules_version_of("# golden playthrough of x ()\\n1 seat 0 go\\n") is None
    True
    """
    for line in text.splitlines():
        if line.startswith("# rules version "):
            return int(line.removeprefix("# rules version "))
        if not line.startswith("#"):
            break
    return None


def steps_of(text: str) -> list[str]:
    """A transcript's actions and end, without its header and public summaries: what a
    record of the game would replay.

    >>> steps_of("# header\\n1 seat 0 go\\nsummary 1: {}\\nend 1: returns [1.0]\\n")
    ['1 seat 0 go', 'end 1: returns [1.0]']
    """
    return [line for line in text.splitlines()
            if line and not line.startswith(("#", "summary "))]


def refusal(old: str | None, new: str, version: int) -> str | None:
    """Why ``new`` may not replace the golden transcript ``old`` of a game whose rules are
    at ``version``: its actions changed while the version stayed (``None``: it may).

    >>> old = "# rules version 1\\n1 seat 0 go\\nend 1: returns [1.0]\\n"
    >>> print(refusal(old, old.replace("go", "stop"), 1))
    its actions changed under rules version 1: raise the game's rules_version first
    >>> refusal(old, old.replace("version 1", "version 2").replace("go", "stop"), 2) is None
    True
    >>> refusal(old, old + "summary 1: {}\\n", 1) is None
    True
    """
    if old is None or rules_version_of(old) != version or steps_of(old) == steps_of(new):
        return None
    return (f"its actions changed under rules version {version}: raise the game's "
            "rules_version first")


def diff(expected: str, actual: str, path: str) -> str:
    """Unified diff between a golden file's text and a regenerated transcript."""
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{path} (file)",
            tofile=f"{path} (regenerated)",
        )
    )


def register_extra(spec: str) -> None:
    """Import ``module:Class`` and register the class as a game."""
    module_name, _, class_name = spec.partition(":")
    if not class_name:
        raise ValueError(f"--game-class expects module:Class, got {spec!r}")
    game_class = getattr(importlib.import_module(module_name), class_name)
    pendragon.register_game(game_class)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (``--write``) or check (``--check``) the golden files of every registered game."""
    parser = argparse.ArgumentParser(prog="python -m pendragon.tools.golden", description=__doc__)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="regenerate the golden files")
    mode.add_argument("--check", action="store_true", help="exit 1 if a file is out of date")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="golden directory")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--game-class", action="append", default=[], metavar="MODULE:CLASS",
        help="register an extra game class first (repeatable)",
    )
    args = parser.parse_args(argv)
    for spec in args.game_class:
        register_extra(spec)
    names = args.game or pendragon.registered_games()
    stale = 0
    for name in names:
        version = pendragon.game_class(name).rules_version
        for config in configs_for(name):
            path = golden_path(args.dir, name, config)
            text = transcript(name, config)
            if args.write:
                path.parent.mkdir(parents=True, exist_ok=True)
                old = path.read_text(encoding="utf-8") if path.exists() else None
                why = refusal(old, text, version)
                if why is not None:
                    stale += 1
                    print(f"refused: {path}: {why}")
                    continue
                path.write_text(text, encoding="utf-8")
                print(f"{'unchanged' if old == text else 'wrote'} {path}")
            elif not path.exists() or path.read_text(encoding="utf-8") != text:
                stale += 1
                print(f"out of date: {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
