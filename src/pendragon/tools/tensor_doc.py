"""The tables of observation-tensor element names in ``docs/research.md``, generated from the
games' own names (``Game.observation_tensor_names()``, issue 40 item 3).

Each table has one row per block of the tensor (the first part of the elements' names): the
index range, the block, and its elements' labels (a block of items with the same fields,
such as the seats, is written once: ``each of a, b: x, y``). ::

    python -m pendragon.tools.tensor_doc            # print the tables
    python -m pendragon.tools.tensor_doc --write    # rewrite them in docs/research.md
    python -m pendragon.tools.tensor_doc --check    # exit 1 if the docs are out of date

>>> print(block_rows(["a.x", "a.y", "b.0.p", "b.0.q", "b.1.p", "b.1.q"])[1])
| 2-5 | `b` | each of 0, 1: p, q |
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import pendragon

#: The setups tabulated: the names of another setup differ only in the per-seat (Grail Cup)
#: and per-space blocks' lengths.
SETUPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("soc", {"players": 5}),
    ("soc-card", {"players": 5}),
    ("grail-cup", {"players": 4}),
)
BEGIN = "<!-- tensor-names:begin (python -m pendragon.tools.tensor_doc --write) -->"
END = "<!-- tensor-names:end -->"
DOC = Path(__file__).resolve().parents[3] / "docs" / "research.md"


def _labels(labels: list[str]) -> str:
    """``labels`` in short: items that share their fields are written once."""
    heads: list[str] = []
    tails: dict[str, list[str]] = {}
    for label in labels:
        head, dot, tail = label.partition(".")
        if not dot:
            return ", ".join(labels)
        if head not in tails:
            heads.append(head)
            tails[head] = []
        tails[head].append(tail)
    fields = tails[heads[0]]
    if len(heads) > 1 and all(tails[head] == fields for head in heads):
        return f"each of {', '.join(heads)}: {_labels(fields)}"
    return ", ".join(labels)


def block_rows(names: list[str]) -> list[str]:
    """One markdown row per block of consecutive names with the same first part."""
    rows: list[str] = []
    start = 0
    while start < len(names):
        block = names[start].partition(".")[0]
        end = start
        while end < len(names) and names[end].partition(".")[0] == block:
            end += 1
        labels = [name.partition(".")[2] for name in names[start:end]]
        rows.append(f"| {start}-{end - 1} | `{block}` | {_labels(labels)} |")
        start = end
    return rows


def tables() -> str:
    """Every tabulated setup's table, as markdown."""
    parts: list[str] = []
    for game_name, options in SETUPS:
        game = pendragon.load_game(game_name, seed=0, **options)
        names = game.observation_tensor_names()
        shown = ", ".join(f"{key}={value}" for key, value in options.items())
        parts += [
            f"**{game.info.long_name}** (`{game_name}`, {shown}: {len(names)} elements)",
            "",
            "| elements | block | labels (element name: `block.label`) |",
            "| --- | --- | --- |",
            *block_rows(names),
            "",
        ]
    return "\n".join(parts).rstrip() + "\n"


def with_tables(text: str) -> str:
    """``text`` (docs/research.md) with its generated section replaced."""
    head, begin, rest = text.partition(BEGIN)
    _old, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the document has no section between {BEGIN!r} and {END!r}")
    return f"{head}{BEGIN}\n{tables()}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite docs/research.md")
    group.add_argument("--check", action="store_true", help="exit 1 if it is out of date")
    args = parser.parse_args(argv)
    if not (args.write or args.check):
        print(tables(), end="")
        return 0
    text = DOC.read_text()
    updated = with_tables(text)
    if args.write:
        DOC.write_text(updated)
        return 0
    if updated != text:
        print(f"{DOC} is out of date: python -m pendragon.tools.tensor_doc --write",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
