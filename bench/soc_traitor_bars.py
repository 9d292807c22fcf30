"""The bars of issue 18 for the Shadows over Camelot bots, measured on paired seeds.

Figures for docs/bots.md; nothing asserts them. 5 players with the traitor deck
(``no_traitor=False``: a traitor in 5 games of 8, SOC-SETUP-5). Game ``i`` of a run uses
the seed ``seed * 1_000_003 + i`` (as ``pendragon simulate`` does) and its bots
``runner.bot_seed(game_seed, seat)``; every traitor of the panel
(:data:`pendragon.games.soc.traitors.TRAITOR_PANEL`) meets the heuristic loyal knights on
the same seeds (:func:`~pendragon.games.soc.traitors.traitor_panel`). Rates carry 95%
Wilson intervals.

1. **Unmasking**, per panel traitor, over the games with a traitor dealt: the share in
   which a loyal knight accused the traitor (SOC-ACCUSE-2). Bar: at least 40% for every
   traitor of the panel.
2. **False accusations**, per panel traitor: the share of games in which a loyal knight
   accused a loyal one (SOC-ACCUSE-3). Bar: at most 10%.
3. **Loyal win rate** with a traitor dealt: against the heuristic traitor (bar: at least
   45%) and against the stealth traitor (bar: at least 35%).
4. **Without a traitor**: the loyal win rate with ``no_traitor=True`` on the same seeds
   (bar: at least 68%, the figure before issue 18), and, for reference, over the games of
   the traitor deck in which no traitor was dealt.
5. **Traitor win rate by policy**. Bar: the heuristic traitor's is above each of the
   others'; the paired counts (games won by one traitor and lost by the other on the same
   seed) are printed with it.
6. **ISMCTS against the heuristic** (``--ismcts-games N``, 0 to skip): on the first ``N``
   seeds, ISMCTS (its defaults) on the loyal seats against the heuristic traitor, beside
   the heuristic loyal knights on the same seeds: the loyal win rates, the games each team
   won alone, the paired difference of the win indicators with its 95% normal interval
   (bar: ``low`` above 0) and the slowest decision (bar: under 1 s; on a machine doing
   nothing else, one game per core).

    python -m bench.soc_traitor_bars [--games 400] [--seed 1] [--workers 1]
        [--ismcts-games 0] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pendragon
from bench.soc_card_bars import Played, paired, play
from pendragon.games.soc.traitors import (
    TRAITOR_PANEL,
    PanelCell,
    PanelMatrix,
    PanelRate,
    panel_bots,
    traitor_dealt,
    traitor_panel,
)
from pendragon.simulate import SimulationConfig, game_seed, simulate

PLAYERS = 5
#: The bars of issue 18 (fractions).
UNMASK_BAR = 0.40
FALSE_ACCUSATION_BAR = 0.10
WIN_BARS = {"heuristic": 0.45, "stealth": 0.35}
NO_TRAITOR_BAR = 0.68


def show(label: str, figure: PanelRate, bar: str = "") -> str:
    """``label: count/games = rate [low, high]`` and the bar it is held to."""
    text = (f"{label}: {figure.count}/{figure.games} = {100 * figure.rate:.1f}% "
            f"[{100 * figure.low:.1f}%, {100 * figure.high:.1f}%]")
    return f"{text}  ({bar})" if bar else text


def paired_wins(matrix: PanelMatrix, first: str, second: str) -> tuple[int, int]:
    """Games (same seed) won by traitor ``first`` and not ``second``, and the reverse."""
    won: dict[str, dict[int, bool]] = {first: {}, second: {}}
    for record in matrix.records:
        if record.loyal == "heuristic" and record.traitor in won:
            won[record.traitor][record.index] = not record.loyal_win
    only_first = sum(w and not won[second].get(i, False) for i, w in won[first].items())
    only_second = sum(w and not won[first].get(i, False) for i, w in won[second].items())
    return only_first, only_second


def measure(games: int, seed: int, workers: int) -> dict[str, Any]:
    """Play the matrix and the no-traitor games; the figures of every bar."""
    matrix = traitor_panel(PLAYERS, games, ("heuristic",), tuple(TRAITOR_PANEL), seed=seed,
                           workers=workers)
    no_traitor = simulate(SimulationConfig(
        "soc", {"players": PLAYERS, "no_traitor": True}, ("heuristic",), games=games,
        seed=seed, workers=workers)).summary["loyal_win"]
    cells: dict[str, PanelCell] = {t: matrix.cell("heuristic", t) for t in TRAITOR_PANEL}
    return {
        "matrix": matrix,
        "cells": cells,
        "no_traitor": PanelRate(int(no_traitor["count"]), int(no_traitor["games"]),
                                float(no_traitor["rate"]), *map(float, no_traitor["ci95"])),
        "no_traitor_dealt": matrix.cell("heuristic", None),
    }


def _pair(seed: int, index: int) -> tuple[Played, Played]:
    """Game ``index``: ISMCTS on the loyal seats, then the heuristic, both against the
    heuristic traitor (when one is dealt)."""
    seed_i = game_seed(seed, index)
    out = []
    for loyal in ("ismcts", "heuristic"):
        game = pendragon.load_game("soc", players=PLAYERS, seed=seed_i)
        record = play(game, panel_bots(loyal, "heuristic", seed_i, PLAYERS))[1]
        record.traitor = traitor_dealt(game)
        out.append(record)
    return out[0], out[1]


def ismcts_bar(games: int, seed: int, workers: int) -> dict[str, Any]:
    """Bar 6: the paired figures of ISMCTS and heuristic loyal knights on ``games`` seeds,
    over every game and over those with a traitor dealt."""
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        pairs = list(pool.map(_pair, [seed] * games, range(games)))
    searched = [s for s, _ in pairs]
    baseline = [h for _, h in pairs]
    dealt = [i for i, (s, _) in enumerate(pairs) if s.traitor]
    return {
        "all": paired(searched, baseline),
        "traitor_dealt": paired([searched[i] for i in dealt], [baseline[i] for i in dealt]),
        "false_accusations": sum(1 for s in searched if any(not hit for hit, _ in s.accusations)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every bar and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.soc_traitor_bars",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400,
                        help="game seeds per cell (a traitor is dealt in about 5/8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--ismcts-games", type=int, default=0,
                        help="seeds for bar 6, ISMCTS against the heuristic (0: skip)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    figures = measure(args.games, args.seed, args.workers)
    cells: dict[str, PanelCell] = figures["cells"]
    matrix: PanelMatrix = figures["matrix"]
    traitor_games = next(iter(cells.values())).games
    print(f"{PLAYERS} players, traitor deck, heuristic loyal knights, {args.games} paired "
          f"seeds (seed {args.seed}); a traitor dealt in {traitor_games}")
    print(f"1. traitor unmasked by a loyal accusation (bar >= {UNMASK_BAR:.0%})")
    for name, cell in cells.items():
        print("   " + show(f"vs {name}", cell.traitor_unmasked))
    print(f"2. games where a loyal knight accused a loyal one (bar <= "
          f"{FALSE_ACCUSATION_BAR:.0%})")
    for name, cell in cells.items():
        print("   " + show(f"vs {name}", cell.false_accusation))
    print("3. loyal win rate with a traitor dealt")
    for name, bar in WIN_BARS.items():
        print("   " + show(f"vs {name}", cells[name].loyal_win, f"bar >= {bar:.0%}"))
    print("4. loyal win rate without a traitor")
    print("   " + show("no_traitor=True, same seeds", figures["no_traitor"],
                        f"bar >= {NO_TRAITOR_BAR:.0%}"))
    print("   " + show("traitor deck, no traitor dealt", figures["no_traitor_dealt"].loyal_win))
    print("5. traitor win rate by policy (bar: the heuristic's highest)")
    for name, cell in cells.items():
        line = "   " + show(name, cell.traitor_win)
        if name != "heuristic":
            only_h, only_other = paired_wins(matrix, "heuristic", name)
            line += f"; won by the heuristic only: {only_h}, by {name} only: {only_other}"
        print(line)
    search: dict[str, Any] | None = None
    if args.ismcts_games > 0:
        search = ismcts_bar(args.ismcts_games, args.seed, args.workers)
        print(f"6. ISMCTS loyal knights against the heuristic ones, {args.ismcts_games} paired "
              f"seeds (bar: the interval above 0; slowest decision under 1 s)")
        for label, part in (("every game", search["all"]),
                            ("games with a traitor dealt", search["traitor_dealt"])):
            diff = part["difference"]
            print(f"   {label}: ISMCTS {part['ismcts']['wins']}/{part['ismcts']['games']}, "
                  f"heuristic {part['heuristic_same_seeds']['wins']}; won by ISMCTS only "
                  f"{part['only_ismcts_won']}, by the heuristic only "
                  f"{part['only_heuristic_won']}; paired difference "
                  f"{100 * diff['mean']:+.1f} points [{100 * diff['low']:+.1f}, "
                  f"{100 * diff['high']:+.1f}]")
        print(f"   slowest decision {search['all']['ismcts_slowest_decision']:.2f} s; "
              f"{search['all']['ismcts_seconds_per_game']:.1f} s per ISMCTS game; games "
              f"with an ISMCTS knight accusing a loyal one: {search['false_accusations']}")
    if args.json is not None:
        out = {
            "players": PLAYERS, "games": args.games, "seed": args.seed,
            "matrix": matrix.to_dict(), "no_traitor": figures["no_traitor"].to_dict(),
            "ismcts": search,
        }
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
