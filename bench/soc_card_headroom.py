"""How much room The Card Game leaves a stronger loyal side at 5 players (issue 14).

Figures for docs/bots.md; nothing asserts them. Three measurements, each on paired seeds
(game ``i`` has the seed ``seed * 1_000_003 + i``, its bots ``runner.bot_seed``), the
harness reading the true state where it says so (never a bot at the table):

* ``oracle``: the heuristic team against the same team whose loyal seats *know* who the
  traitors are (their belief settled by the harness at every decision, Vivien's swaps
  included), the traitor the same heuristic. What reading the table could ever be worth:
  an upper bound on the gain of any loyal policy from a better belief, ISMCTS's included.
* ``calibrate``: the search's leaf (``SocCardHeuristicBot.search_leaf``, the race model)
  against what happens. Heuristic games are played, and at every position where the
  search would cut a rollout (``leaf_position``) the leaf's value is set against the
  game's outcome, by class (traitors still hidden, traitors unmasked) and by swords.
  ``--table PATH`` also writes an *empirical leaf*: per class, a logistic fit of the
  outcome on the swords (white, black, their product and squares), each cell then moved
  toward its own games' win rate (as if the fit were worth 30 games), and made monotone
  (never worse with a white sword more, never better with a black one more). The file is
  in the format of ``pendragon/games/soc_card/search_leaf.json``, the search's leaf at 5
  players since issue 14 (``--games 6000 --seed 77`` wrote it); an existing file keeps its
  tables of other setups. ``--players`` fits another player count's table.
* ``opening``: games with a traitor (``--bot`` on every seat: ``heuristic``, or the
  table's ``stealth``), by how many of the first four swords (the ones laid before
  accusations open, SCG-ACCUSE-1) were black swords of the traitor's own quests, and the
  loyal side's win rate in each group.
* ``cover``: heuristic games at ``--players`` once with each traitor's cover of
  ``--covers`` (``SocCardHeuristicBot.traitor_cover``: how suspect, as a spectator counts
  it, a hidden traitor lets himself become; the heuristic's is 0.3) on the same
  seeds: the loyal side's wins, and in the games with a traitor his wins and unmaskings.
* ``search``: ISMCTS on the loyal seats (the bench's ``loyal_search``, iterations 16,
  budget 2000), against the heuristic team on the same seeds; its rollouts end at the
  game's leaf (the shipped table), at a table of ``--table PATH``, or with ``--race`` at
  the race model (the search before the table). ``--start`` lets
  processes share a run, or carry one on to more seeds: the counts of the parts add up.

    python -m bench.soc_card_headroom oracle [--games 2000] [--seed 1]
    python -m bench.soc_card_headroom calibrate [--games 6000] [--seed 77] [--players 5]
        [--table PATH]
    python -m bench.soc_card_headroom opening [--games 2000] [--seed 1] [--bot heuristic]
    python -m bench.soc_card_headroom cover [--games 400] [--seed 1] [--players 5]
        [--covers 0.3,0.45]
    python -m bench.soc_card_headroom search [--table PATH | --race] [--games 400]
        [--start 0] [--seed 1] [--players 5]
"""

from __future__ import annotations

import argparse
import collections
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench.soc_card_bars import loyal_search, paired, paired_difference, play
from pendragon import CHANCE, Game, State
from pendragon.bots import make_bot
from pendragon.bots.base import Bot
from pendragon.bots.ismcts import ISMCTSBot, Leaf
from pendragon.core import registry
from pendragon.games.soc_card.heuristic import (
    Obs,
    SocCardHeuristicBot,
    TraitorBelief,
)
from pendragon.games.soc_card.leaf import LeafTable, parse_tables
from pendragon.games.soc_card.stats import soc_card_stats
from pendragon.runner import play_game
from pendragon.simulate import play_paired

GAME = "soc-card"
PLAYERS = 5
#: The empirical leaf's cells: swords of each colour up to this (more is counted as this).
CAP = 9
#: How many games' weight the logistic fit has against a cell's own win rate.
PRIOR_GAMES = 30.0

#: The head of a leaf file (``pendragon.games.soc_card.leaf``).
ABOUT = ("The card game's empirical search leaf (pendragon.games.soc_card.leaf): per setup, "
         "the loyal side's chance to win from (traitors hidden, traitors unmasked, white "
         "swords, black swords) at the positions where the search cuts a rollout. Written by "
         "bench/soc_card_headroom.py calibrate --table; docs/bots.md, 'Search'.")


# ---------------------------------------------------------------------- the oracle
class Knowing(SocCardHeuristicBot):
    """The heuristic, its loyal belief settled on the truth: a loyal seat that knows who
    the traitors are. An oracle of this harness, never a bot for a table: at each of its
    decisions it reads who holds a traitor card in the true state (Vivien's swaps
    included)."""

    __slots__ = ("truth",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.truth: set[int] = set()

    def step(self, state: State) -> int:
        """The heuristic's action, the truth read first."""
        self.truth = traitors(state)
        return super().step(state)

    def belief(self, obs: Obs) -> TraitorBelief:
        """The belief, every other seat settled by the truth."""
        belief = super().belief(obs)
        seat = int(obs["seat"])
        for other in range(int(obs["players"])):
            if other != seat:
                belief.settle(other, other in self.truth)
        return belief


def traitors(state: State) -> set[int]:
    """The seats holding a traitor card now (the harness reads the true state)."""
    return {s for s in range(state.game.num_players())
            if state.observation(s)["you"]["loyalty"] == "traitor"}


def oracle(games: int, seed: int) -> dict[str, Any]:
    """The knowing team against the heuristic team, by traitor dealt or not."""
    pairs = play_paired(GAME, [[Knowing], [SocCardHeuristicBot]], games, seed,
                        {"players": PLAYERS}, play=lambda game, bots: play(game, bots)[1])
    out: dict[str, Any] = {}
    for label, keep in (("all", lambda t: True), ("traitor", bool),
                        ("no traitor", lambda t: not t)):
        chosen = [(k.loyal_win, h.loyal_win) for k, h in pairs if keep(k.traitor)]
        out[label] = {
            "games": len(chosen), "knowing": sum(k for k, _ in chosen),
            "heuristic": sum(h for _, h in chosen),
            "only_knowing": sum(k and not h for k, h in chosen),
            "only_heuristic": sum(h and not k for k, h in chosen),
            "difference": paired_difference([int(k) - int(h) for k, h in chosen]),
        }
    return out


# ---------------------------------------------------------------------- the opening
def opening(games: int, seed: int, bot: str = "heuristic") -> dict[int, dict[str, int]]:
    """Games of ``bot`` with a traitor, grouped by the black swords of the traitor's own
    quests among the first four swords: {count: {"games", "won"}}."""
    groups: dict[int, dict[str, int]] = collections.defaultdict(lambda: {"games": 0, "won": 0})

    def count(game: Game, bots: list[Bot]) -> None:
        state = game.new_initial_state()
        dumped = 0
        evil: set[int] = set()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(state.sample_chance())
                continue
            evil |= traitors(state)
            before = state.observation(None)["swords"]
            action = bots[player].step(state)
            quest = state.action_to_string(action).startswith("quest:")
            state.apply_action(action)
            after = state.observation(None)["swords"]
            laid = int(before["white"]) + int(before["black"])
            if quest and player in evil and laid < 4:
                dumped += min(4 - laid, int(after["black"]) - int(before["black"]))
        if evil:
            group = groups[dumped]
            group["games"] += 1
            group["won"] += state.observation(None)["status"] == "loyal-win"

    play_paired(GAME, [[lambda seed: make_bot(bot, seed, GAME)]], games, seed,
                {"players": PLAYERS}, play=count)
    return dict(sorted(groups.items()))


# ---------------------------------------------------------------------- the traitor's cover
def covered(cover: float) -> type[SocCardHeuristicBot]:
    """The heuristic, its hidden traitor's cover ``cover`` (every other choice its own)."""
    return type(f"Cover{cover}", (SocCardHeuristicBot,),
                {"__slots__": (), "traitor_cover": cover})


def cover_figures(games: int, seed: int, players: int,
                  covers: Sequence[float]) -> dict[str, dict[str, int]]:
    """Heuristic games at ``players``, one panel for each cover of ``covers`` on the same
    seeds: {cover: {"games", "loyal_won", "traitor_games", "traitor_won", "unmasked"}},
    the last two counted in the games a traitor held a card at the end."""
    def figures(game: Game, bots: list[Bot]) -> dict[str, Any]:
        return soc_card_stats(play_game(game, bots))

    rows = play_paired(GAME, [[covered(c)] for c in covers], games, seed,
                       {"players": players}, play=figures)
    out: dict[str, dict[str, int]] = {}
    for panel, value in enumerate(covers):
        stats = [row[panel] for row in rows]
        out[str(value)] = {
            "games": len(stats),
            "loyal_won": sum(s["loyal_win"] for s in stats),
            "traitor_games": sum(s["traitor_present"] for s in stats),
            "traitor_won": sum(s["traitor_win"] for s in stats),
            "unmasked": sum(s["traitor_present"] and s["traitor_unmasked"] for s in stats)}
    return out


# ---------------------------------------------------------------------- calibration
def leaf_points(game: Game, bots: Sequence[Bot]) -> list[dict[str, Any]]:
    """Play ``game`` with ``bots`` (the heuristic on every seat); every position where the
    search would cut a rollout (seen from the position before), with the race model's
    chance for the loyal side (``race_leaf``) and, once the game is over, its outcome."""
    state = game.new_initial_state()
    points: list[dict[str, Any]] = []
    before: State | None = None
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        if before is not None:
            position = SocCardHeuristicBot.leaf_position(state, before)
            if position is not None:
                white, black, seats, hidden = position
                # The race model's chance, whatever leaf the search now uses.
                race = SocCardHeuristicBot.race_leaf(white, black, hidden)
                points.append({"hidden": hidden, "unmasked": len(seats) - hidden,
                               "white": white, "black": black, "race": race})
        before = state.clone()
        state.apply_action(bots[player].step(state))
    won = state.observation(None)["status"] == "loyal-win"
    for point in points:
        point["won"] = won
    return points


def features(white: int, black: int) -> list[float]:
    """The logistic fit's inputs for a cell."""
    w, b = float(min(white, CAP)), float(min(black, CAP))
    return [1.0, w, b, w * b, w * w, b * b]


def fit_table(points: Sequence[dict[str, Any]], source: str = "",
              players: int = PLAYERS) -> LeafTable:
    """The empirical leaf (see the module's docstring) of ``players``, default options."""
    table: dict[tuple[int, int, int, int], float] = {}
    classes = sorted({(p["hidden"], p["unmasked"]) for p in points})
    for hidden, unmasked in classes:
        rows = [p for p in points if (p["hidden"], p["unmasked"]) == (hidden, unmasked)]
        x = np.array([features(p["white"], p["black"]) for p in rows])
        y = np.array([float(p["won"]) for p in rows])
        beta = np.zeros(x.shape[1])
        for _ in range(50):  # Newton's method, a little ridge for the rare cells
            chance = 1.0 / (1.0 + np.exp(-x @ beta))
            weight = chance * (1.0 - chance) + 1e-9
            hessian = x.T @ (x * weight[:, None]) + 1e-3 * np.eye(x.shape[1])
            beta += np.linalg.solve(hessian, x.T @ (y - chance) - 1e-3 * beta)
        counts: dict[tuple[int, int], list[int]] = collections.defaultdict(lambda: [0, 0])
        for p in rows:
            cell = counts[(min(p["white"], CAP), min(p["black"], CAP))]
            cell[0] += 1
            cell[1] += int(p["won"])
        grid = [[0.0] * (CAP + 1) for _ in range(CAP + 1)]
        for white in range(CAP + 1):
            for black in range(CAP + 1):
                prior = float(1.0 / (1.0 + np.exp(-np.array(features(white, black)) @ beta)))
                games, wins = counts.get((white, black), [0, 0])
                grid[white][black] = (wins + PRIOR_GAMES * prior) / (games + PRIOR_GAMES)
        for _ in range(CAP + 1):  # monotone: up with white, down with black
            for white in range(1, CAP + 1):
                for black in range(CAP + 1):
                    grid[white][black] = max(grid[white][black], grid[white - 1][black])
            for white in range(CAP + 1):
                for black in range(1, CAP + 1):
                    grid[white][black] = min(grid[white][black], grid[white][black - 1])
        for white in range(CAP + 1):
            for black in range(CAP + 1):
                table[(hidden, unmasked, white, black)] = grid[white][black]
    return LeafTable(players, False, False, CAP, table, source)


def calibrate(games: int, seed: int,
              players: int = PLAYERS) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Leaf points of ``games`` heuristic games, and the race leaf against outcomes."""
    played = play_paired(GAME, [[SocCardHeuristicBot]], games, seed, {"players": players},
                         play=leaf_points)
    points = [p for [game_points] in played for p in game_points]
    by_class: dict[str, Any] = {}
    for hidden, unmasked in sorted({(p["hidden"], p["unmasked"]) for p in points}):
        rows = [p for p in points if (p["hidden"], p["unmasked"]) == (hidden, unmasked)]
        cells: dict[tuple[int, int], list[dict[str, Any]]] = collections.defaultdict(list)
        for p in rows:
            cells[(p["white"], p["black"])].append(p)
        by_class[f"hidden {hidden}, unmasked {unmasked}"] = {
            "points": len(rows),
            "race": sum(p["race"] for p in rows) / len(rows),
            "observed": sum(p["won"] for p in rows) / len(rows),
            "cells": {f"{w}-{b}": {"points": len(c),
                                   "race": sum(p["race"] for p in c) / len(c),
                                   "observed": sum(p["won"] for p in c) / len(c)}
                      for (w, b), c in sorted(cells.items()) if len(c) >= 100},
        }
    return points, by_class


# ---------------------------------------------------------------------- the table leaf
def table_leaf(table: LeafTable | None) -> Leaf:
    """A search leaf that reads ``table`` (the race model where it has no cell; with no
    table, the race model alone: the search's leaf before issue 14's table)."""

    def leaf(world: State, seat: int, root: State) -> float | None:
        position = SocCardHeuristicBot.leaf_position(world, root)
        if position is None:
            return None
        return SocCardHeuristicBot.leaf_value(position, seat, table)

    return leaf


class LeafSearch(ISMCTSBot):
    """The bench's ISMCTS (iterations 16, budget 2000); with a ``leaf``, its rollouts end
    there instead of at the game's own leaf."""

    def __init__(self, seed: int, leaf: Leaf | None) -> None:
        super().__init__(seed, iterations=16, budget=2000)
        self.table_leaf = leaf

    def leaf_for(self, game: Game) -> Leaf | None:
        """The table's leaf, else the game's (the race model)."""
        return self.table_leaf or super().leaf_for(game)


def search(leaf: Leaf | None, start: int, games: int, seed: int,
           players: int = PLAYERS) -> dict[str, Any]:
    """The search on the loyal seats against the heuristic team, same seeds; ``leaf``: its
    rollouts' leaf (``None``: the game's own, ``SocCardHeuristicBot.search_leaf``)."""

    def factory(bot: int) -> Bot:
        return LeafSearch(bot, leaf)

    pairs = play_paired(GAME, [[lambda bot: loyal_search(bot, factory)], [SocCardHeuristicBot]],
                        range(start, start + games), seed, {"players": players},
                        play=lambda game, bots: play(game, bots)[1])
    return paired([s for s, _ in pairs], [h for _, h in pairs])


def read_table(path: Path, players: int = PLAYERS) -> LeafTable:
    """The table for ``players`` (default options) of a leaf file (``calibrate --table``,
    or the shipped one)."""
    tables = parse_tables(json.loads(path.read_text("utf-8")))
    table = tables.get((players, False, False))
    if table is None:
        raise SystemExit(f"{path}: no table for {players} players without expert or promos")
    return table


def write_table(path: Path, table: LeafTable) -> None:
    """Write ``table`` to the leaf file ``path``: a new file, or the file's table for the
    same setup replaced and its others kept."""
    tables = {}
    if path.exists():
        tables = parse_tables(json.loads(path.read_text("utf-8")))
    tables[(table.players, table.expert, table.promos)] = table
    path.write_text(json.dumps({"about": ABOUT, "tables": [
        tables[key].to_json() for key in sorted(tables)]}, indent=1) + "\n", "utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one measurement and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.soc_card_headroom",
                                     description=__doc__)
    parser.add_argument("what", choices=("oracle", "opening", "calibrate", "cover", "search"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--table", type=Path, default=None,
                        help="calibrate: write the fitted leaf here; search: use this leaf")
    parser.add_argument("--players", type=int, default=PLAYERS, choices=range(2, 8),
                        help="calibrate, cover, search: seats (default options); "
                             "oracle and opening are of 5 players")
    parser.add_argument("--race", action="store_true",
                        help="search: the race model's leaf (the search before the table)")
    parser.add_argument("--bot", default="heuristic", help="opening: the bot on every seat")
    parser.add_argument("--covers", default="0.3,0.45",
                        help="cover: the traitor's covers compared, distinct, from 0 to 1 "
                             "(the heuristic's: 0.3)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.race and args.table is not None:
        parser.error("--race and --table are two leaves: choose one")
    out: dict[str, Any]
    if args.what == "oracle":
        out = oracle(args.games or 2000, 1 if args.seed is None else args.seed)
        for label, figure in out.items():
            diff = figure["difference"]
            print(f"{label}: {figure['games']} games; knowing {figure['knowing']}, heuristic "
                  f"{figure['heuristic']}; won by one only: knowing {figure['only_knowing']}, "
                  f"heuristic {figure['only_heuristic']}; {100 * diff['mean']:+.1f} points "
                  f"[{100 * diff['low']:+.1f}, {100 * diff['high']:+.1f}]")
    elif args.what == "opening":
        groups = opening(args.games or 2000, 1 if args.seed is None else args.seed, args.bot)
        out = {str(k): v for k, v in groups.items()}
        total = sum(g["games"] for g in groups.values())
        print(f"{total} games with a traitor, by the black swords of his own quests among "
              "the first four swords:")
        for count, group in groups.items():
            print(f"  {count}: {group['games']} games ({100 * group['games'] / total:.1f}%), "
                  f"loyal side won {group['won']} "
                  f"({100 * group['won'] / max(1, group['games']):.1f}%)")
    elif args.what == "cover":
        try:
            covers = [float(c) for c in args.covers.split(",")]
        except ValueError:
            parser.error(f"--covers: numbers separated by commas, not {args.covers!r}")
        if len(set(covers)) != len(covers) or not all(0.0 <= c <= 1.0 for c in covers):
            parser.error(f"--covers: distinct chances from 0 to 1, not {args.covers!r}")
        out = cover_figures(args.games or 400, 1 if args.seed is None else args.seed,
                            args.players, covers)
        for value, figure in out.items():
            traitor = max(1, figure["traitor_games"])
            print(f"cover {value}: loyal side won {figure['loyal_won']}/{figure['games']}; "
                  f"of {figure['traitor_games']} games with a traitor he won "
                  f"{figure['traitor_won']} ({100 * figure['traitor_won'] / traitor:.1f}%), "
                  f"unmasked {figure['unmasked']} ({100 * figure['unmasked'] / traitor:.1f}%)")
    elif args.what == "calibrate":
        points, out = calibrate(args.games or 6000, 77 if args.seed is None else args.seed,
                                args.players)
        print(f"{len(points)} leaf positions")
        for label, figure in out.items():
            print(f"{label}: {figure['points']} positions, race leaf {figure['race']:.3f}, "
                  f"won {figure['observed']:.3f}")
            for cell, values in figure["cells"].items():
                print(f"  swords {cell}: {values['points']:5d}  race {values['race']:.2f}  "
                      f"won {values['observed']:.2f}")
        if args.table is not None:
            seed = 77 if args.seed is None else args.seed
            more = "" if args.players == PLAYERS else f" --players {args.players}"
            write_table(args.table, fit_table(
                points, f"python -m bench.soc_card_headroom calibrate --games "
                        f"{args.games or 6000} --seed {seed}{more} --table PATH (the heuristic "
                        f"on every seat; {len(points):,} positions; rules version "
                        f"{registry.game_class('soc-card').rules_version})", args.players))
    else:
        leaf = (table_leaf(None) if args.race else None if args.table is None
                else table_leaf(read_table(args.table, args.players)))
        out = search(leaf, args.start, args.games or 400, 1 if args.seed is None else args.seed,
                     args.players)
        diff = out["difference"]
        print(f"games {args.start}-{args.start + diff['games'] - 1}: search "
              f"{out['ismcts']['wins']}, heuristic {out['heuristic_same_seeds']['wins']}; "
              f"won by one only: search {out['only_ismcts_won']}, heuristic "
              f"{out['only_heuristic_won']}; {100 * diff['mean']:+.1f} points "
              f"[{100 * diff['low']:+.1f}, {100 * diff['high']:+.1f}]; slowest decision "
              f"{out['ismcts_slowest_decision']:.2f} s")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
