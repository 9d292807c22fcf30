"""Where the card game's search stops a rollout, what the position is worth: an *empirical
leaf*, the loyal side's chance to win read off a table fitted to the outcomes of whole
games, where a table was fitted for the game's setup.

The heuristic values its own options by a race model (``heuristic.race_value``), and the
search used to stop its rollouts there too. Set against what happens, that model is too
pessimistic about black swords (docs/bots.md, "How much room is left at 5 players": with
no traitor it says 0.80 where the loyal side wins 0.94). A table fitted to outcomes does not
share the heuristic's errors, and at 5 players the search with it beats the heuristic team
(issue 14). The table is data: ``search_leaf.json`` beside this module, written by ``python
-m bench.soc_card_headroom calibrate --table PATH`` (heuristic games on every seat: at each
position where the search would cut a rollout, the swords, the traitors still hidden or
unmasked, and whether the loyal side won in the end; per class of traitors a logistic fit
on the swords, each cell moved toward its own positions' win rate, made monotone).

A table belongs to one setup (players, the expert variant, the promo cards): the leaf of a
game without one, or a position outside its cells, is the race model's.

>>> table = leaf_table(5, expert=False, promos=False)
>>> table is not None and table.cap
9
>>> leaf_table(3, expert=False, promos=False) is None  # not fitted: the race model
True
>>> no_traitor, one_hidden = table.chance(0, 0, 4, 2), table.chance(1, 0, 4, 2)
>>> 0.0 < one_hidden < no_traitor < 1.0
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import astuple, dataclass
from importlib.resources import files
from typing import Any

from mypy_extensions import mypyc_attr

#: The shipped tables (package data of ``pendragon.games.soc_card``).
LEAF_FILE = "search_leaf.json"

#: (traitors hidden, traitors unmasked, white, black) -> the loyal side's chance to win.
Cells = Mapping[tuple[int, int, int, int], float]


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class LeafTable:
    """One setup's empirical leaf. Swords past ``cap`` of a colour count as ``cap``."""

    players: int
    expert: bool
    promos: bool
    cap: int
    cells: Cells
    #: How the table was made (the command, its seeds and games).
    source: str = ""

    def __reduce__(self) -> tuple[type[LeafTable], tuple[Any, ...]]:
        """Pickled by its constructor (a compiled frozen dataclass cannot set its fields
        back one by one, as unpickling does)."""
        return LeafTable, astuple(self)

    def chance(self, hidden: int, unmasked: int, white: int, black: int) -> float | None:
        """The loyal side's chance to win from here, ``None`` where the table has no cell
        (a class of traitors it never saw)."""
        return self.cells.get((hidden, unmasked, min(white, self.cap), min(black, self.cap)))

    def to_json(self) -> dict[str, Any]:
        """This table as :func:`parse_tables` reads it (probabilities to 4 places).

        >>> table = leaf_table(5, expert=False, promos=False)
        >>> parse_tables({"tables": [table.to_json()]})[(5, False, False)] == table
        True
        """
        return {
            "players": self.players, "expert": self.expert, "promos": self.promos,
            "cap": self.cap, "source": self.source,
            "cells": {",".join(map(str, key)): round(value, 4)
                      for key, value in sorted(self.cells.items())},
        }


def parse_tables(data: object) -> dict[tuple[int, bool, bool], LeafTable]:
    """The tables of a leaf file, by (players, expert, promos); ``ValueError`` saying what is
    wrong with a file that is not one.

    >>> parse_tables({"tables": [{"players": 5, "expert": False, "promos": False, "cap": 1,
    ...     "cells": {"0,0,0,0": 0.5, "0,0,1,0": 0.9}}]})[(5, False, False)].chance(0, 0, 4, 0)
    0.9
    >>> parse_tables({"tables": [{"players": 5, "expert": False, "promos": False, "cap": 1,
    ...     "cells": {"0,0,0": 0.5}}]})
    Traceback (most recent call last):
    ValueError: leaf table 0: cell '0,0,0': four counts 'hidden,unmasked,white,black'
    """
    if not isinstance(data, dict) or not isinstance(data.get("tables"), list):
        raise ValueError("a leaf file is a mapping with a list 'tables'")
    tables: dict[tuple[int, bool, bool], LeafTable] = {}
    for index, entry in enumerate(data["tables"]):
        where = f"leaf table {index}"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: a mapping")
        players, cap = entry.get("players"), entry.get("cap")
        expert, promos = entry.get("expert"), entry.get("promos")
        if not (isinstance(players, int) and not isinstance(players, bool) and 1 <= players <= 7):
            raise ValueError(f"{where}: 'players' is 1 to 7")
        if not (isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1):
            raise ValueError(f"{where}: 'cap' is a count of swords, at least 1")
        if not isinstance(expert, bool) or not isinstance(promos, bool):
            raise ValueError(f"{where}: 'expert' and 'promos' are true or false")
        raw = entry.get("cells")
        if not isinstance(raw, dict) or not raw:
            raise ValueError(f"{where}: 'cells' maps 'hidden,unmasked,white,black' to chances")
        cells: dict[tuple[int, int, int, int], float] = {}
        for text, value in raw.items():
            parts = str(text).split(",")
            if len(parts) != 4 or not all(part.isdigit() for part in parts):
                raise ValueError(f"{where}: cell {text!r}: four counts"
                                 " 'hidden,unmasked,white,black'")
            hidden, unmasked, white, black = (int(part) for part in parts)
            if white > cap or black > cap:
                raise ValueError(f"{where}: cell {text!r}: swords past the cap {cap}")
            if not (isinstance(value, (int, float)) and not isinstance(value, bool)
                    and 0.0 <= value <= 1.0):
                raise ValueError(f"{where}: cell {text!r}: a chance from 0 to 1")
            cells[(hidden, unmasked, white, black)] = float(value)
        key = (players, expert, promos)
        if key in tables:
            raise ValueError(f"{where}: a second table for {players} players, expert {expert},"
                             f" promos {promos}")
        tables[key] = LeafTable(players, expert, promos, cap, cells, str(entry.get("source", "")))
    return tables


@functools.cache
def shipped_tables() -> dict[tuple[int, bool, bool], LeafTable]:
    """The tables of :data:`LEAF_FILE` (read once)."""
    text = files("pendragon.games.soc_card").joinpath(LEAF_FILE).read_text("utf-8")
    return parse_tables(json.loads(text))


def leaf_table(players: int, *, expert: bool, promos: bool) -> LeafTable | None:
    """The shipped table for this setup, or ``None`` (the race model then)."""
    return shipped_tables().get((players, expert, promos))
