"""The bars of the Shadows over Camelot: The Card Game bots, measured on paired seeds.

Figures for docs/bots.md; nothing asserts them. Game ``i`` of a run uses the seed
``seed * 1_000_003 + i`` and its bots ``runner.bot_seed(game_seed, seat)``
(``pendragon.simulate.play_paired``, as ``pendragon simulate`` plays), so every team meets
the same deals and chance streams. Win rates carry 95% Wilson intervals.

1. **Heuristic team against random team**, 5 players with loyalty cards (a traitor in 5
   games of 7, SCG-SETUP-1; the traitor is the team's own bot): loyal-side win rate of each
   team on the same seeds. Bar: the heuristic at least 2x the random team and at least 40%.
2. **Solo** (1 player, SCG-SOLO-1): the heuristic's win rate. Bar: at least 40%.
3. **ISMCTS team against heuristic team**, 5 players, on the first ``--ismcts-games``
   seeds of (1): ISMCTS (``iterations``/``budget`` from the options, the heuristic as its
   policy and rollouts) on every seat, traitor included (so the search sharpens both
   sides); the games each team won alone. Then with ISMCTS on the loyal seats only (each
   bot looks at its own loyalty card and a traitor keeps the heuristic), on the first
   ``--ismcts-loyal-games`` seeds; and on the first ``--ismcts-solo-games`` seeds of (2),
   where there is no traitor.
4. **Unmasking**: over the heuristic games of (1), the loyal players' accusations
   (SCG-ACCUSE-1) that hit a traitor, against a *random accuser*: one that, at the same
   moments, accuses a seat drawn uniformly among the seats it may accuse (the legal
   ``accuse:*`` actions), so hits a traitor with probability (traitors among them) /
   (their number). Also: the share of games with a traitor in which a loyal accusation
   unmasked him, against the chance that the random accuser's same number of accusations
   would have (1 - prod(1 - p) over the game's accusations).

    python -m bench.soc_card_bars [--games 300] [--solo-games 300] [--ismcts-games 40]
        [--ismcts-loyal-games 40] [--ismcts-solo-games 100] [--ismcts-iterations 16]
        [--ismcts-budget 2000]
        [--seed 1] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.run import TimedBot
from pendragon import CHANCE, Game, State
from pendragon.bots.base import Bot, RoleBot
from pendragon.bots.ismcts import ISMCTSBot
from pendragon.bots.random_bot import RandomBot
from pendragon.games.soc_card.heuristic import SocCardHeuristicBot
from pendragon.runner import play_game
from pendragon.simulate import BotFactory, play_paired, wilson_interval

GAME = "soc-card"


@dataclass
class Played:
    """One game's figures (the harness reads the true state; the bots never do)."""

    seed: int
    loyal_win: bool
    traitor: bool
    seconds: float
    decisions: int
    #: The longest decision of the game (any seat), in seconds.
    slowest: float = 0.0
    #: Per loyal accusation: (hit a traitor, the random accuser's chance to hit).
    accusations: list[tuple[bool, float]] = field(default_factory=list)


def play(game: Game, bots: Sequence[Bot]) -> tuple[State, Played]:
    """Play ``game`` with ``bots``, recording the loyal players' accusations."""
    record = Played(game.seed, False, False, 0.0, 0)
    times: list[float] = []

    def watch(state: State, player: int, action: int) -> None:
        if player == CHANCE:
            return
        text = state.action_to_string(action)
        if text.startswith("accuse:") and state.observation(player)["you"]["loyalty"] == "loyal":
            targets = [int(state.action_to_string(a)[7:]) for a in state.legal_actions()
                       if state.action_to_string(a).startswith("accuse:")]
            traitors = [t for t in targets
                        if state.observation(t)["you"]["loyalty"] == "traitor"]
            hit = int(text[7:]) in traitors
            record.accusations.append((hit, len(traitors) / len(targets)))

    start = time.perf_counter()
    state = play_game(game, [TimedBot(bot, times) for bot in bots], watch)
    record.seconds = time.perf_counter() - start
    record.decisions = len(times)
    record.slowest = max(times, default=0.0)
    final = state.observation(None)
    record.loyal_win = final["status"] == "loyal-win"
    record.traitor = "traitor" in (final.get("loyalties") or [])
    return state, record


def loyal_search(seed: int, search: BotFactory,
                 fallback: BotFactory = SocCardHeuristicBot) -> RoleBot:
    """The search for a loyal seat, ``fallback`` (the card game's heuristic unless given) for
    a traitor, by the card the seat reads at every decision (:class:`RoleBot`: a card that
    Vivien changed, SCG-VIVIEN-1, 2, changes the policy)."""
    return RoleBot(search(seed), fallback(seed))


def run(players: int, games: int, seed: int, factory: BotFactory, **options: Any) -> list[Played]:
    """``games`` paired games of ``factory``'s bots on every seat."""
    played = play_paired(GAME, [[factory]], games, seed, {**options, "players": players},
                         play=lambda game, bots: play(game, bots)[1])
    return [record for [record] in played]


def paired(searched: Sequence[Played], baseline: Sequence[Played]) -> dict[str, Any]:
    """Win rates of two teams on the same seeds, the games each won alone, and the paired
    difference of their win indicators (mean, 95% normal interval)."""
    pairs = list(zip(searched, baseline, strict=True))
    return {
        "difference": paired_difference([s.loyal_win - h.loyal_win for s, h in pairs]),
        "ismcts_slowest_decision": max((s.slowest for s, _ in pairs), default=0.0),
        "ismcts": rate(sum(s.loyal_win for s, _ in pairs), len(pairs)),
        "heuristic_same_seeds": rate(sum(h.loyal_win for _, h in pairs), len(pairs)),
        "only_ismcts_won": sum(s.loyal_win and not h.loyal_win for s, h in pairs),
        "only_heuristic_won": sum(h.loyal_win and not s.loyal_win for s, h in pairs),
        "ismcts_seconds_per_game": sum(s.seconds for s, _ in pairs) / max(1, len(pairs)),
    }


def paired_difference(diffs: Sequence[int]) -> dict[str, float]:
    """Mean of per-seed differences of win indicators (each -1, 0 or 1) with its 95%
    normal interval (the bar: ISMCTS beats the heuristic when ``low`` > 0).

    >>> figure = paired_difference([1, 0, 0, 1, 0, -1, 0, 0])
    >>> round(figure["mean"], 3), round(figure["low"], 3), round(figure["high"], 3)
    (0.125, -0.319, 0.569)
    """
    count = len(diffs)
    if count == 0:
        return {"mean": 0.0, "low": 0.0, "high": 0.0, "games": 0}
    mean = sum(diffs) / count
    variance = sum((d - mean) ** 2 for d in diffs) / max(1, count - 1)
    half = 1.96 * (variance / count) ** 0.5
    return {"mean": mean, "low": mean - half, "high": mean + half, "games": count}


def rate(wins: int, games: int) -> dict[str, float]:
    """A win rate with its 95% Wilson interval."""
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "rate": wins / max(1, games), "low": low,
            "high": high}


def show(label: str, figure: dict[str, float]) -> str:
    """``label: wins/games = rate [low, high]``."""
    return (f"{label}: {figure['wins']}/{figure['games']} = {100 * figure['rate']:.1f}% "
            f"[{100 * figure['low']:.1f}%, {100 * figure['high']:.1f}%]")


def unmasking(records: Sequence[Played]) -> dict[str, Any]:
    """Bar 4: loyal accusations against a random accuser at the same moments."""
    accusations = [a for r in records for a in r.accusations]
    hits = sum(hit for hit, _ in accusations)
    expected = sum(p for _, p in accusations)
    traitor_games = [r for r in records if r.traitor]
    unmasked = sum(any(hit for hit, _ in r.accusations) for r in traitor_games)
    random_unmasked = 0.0
    for r in traitor_games:
        miss = 1.0
        for _, p in r.accusations:
            miss *= 1 - p
        random_unmasked += 1 - miss
    return {
        "accusations": len(accusations),
        "hits": rate(hits, len(accusations)),
        "random_hits_expected": expected,
        "random_hit_rate": expected / max(1, len(accusations)),
        "traitor_games": len(traitor_games),
        "unmasked": rate(unmasked, len(traitor_games)),
        "random_unmasked_expected": random_unmasked / max(1, len(traitor_games)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every bar and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.soc_card_bars", description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="5-player games per team")
    parser.add_argument("--solo-games", type=int, default=300)
    parser.add_argument("--ismcts-games", type=int, default=40)
    parser.add_argument("--ismcts-loyal-games", type=int, default=40)
    parser.add_argument("--ismcts-solo-games", type=int, default=100)
    parser.add_argument("--ismcts-iterations", type=int, default=16)
    parser.add_argument("--ismcts-budget", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {"seed": args.seed}

    heuristic = run(5, args.games, args.seed, SocCardHeuristicBot)
    random_team = run(5, args.games, args.seed, RandomBot)
    h_rate = rate(sum(r.loyal_win for r in heuristic), len(heuristic))
    r_rate = rate(sum(r.loyal_win for r in random_team), len(random_team))
    with_traitor = [r for r in heuristic if r.traitor]
    without = [r for r in heuristic if not r.traitor]
    out["bar1"] = {
        "heuristic": h_rate, "random": r_rate,
        "heuristic_with_traitor": rate(sum(r.loyal_win for r in with_traitor),
                                       len(with_traitor)),
        "heuristic_without_traitor": rate(sum(r.loyal_win for r in without), len(without)),
        "heuristic_ms_per_decision": 1000 * sum(r.seconds for r in heuristic) / max(
            1, sum(r.decisions for r in heuristic)),
    }
    print(f"1. 5 players, loyalty cards, {args.games} paired games (seed {args.seed})")
    print("   " + show("heuristic team, loyal side", h_rate))
    print("   " + show("  games with a traitor", out["bar1"]["heuristic_with_traitor"]))
    print("   " + show("  games without", out["bar1"]["heuristic_without_traitor"]))
    print("   " + show("random team, loyal side", r_rate))
    print(f"   heuristic: {out['bar1']['heuristic_ms_per_decision']:.2f} ms per decision "
          "(the five bots' time, all decisions)")

    solo = run(1, args.solo_games, args.seed, SocCardHeuristicBot)
    out["bar2"] = rate(sum(r.loyal_win for r in solo), len(solo))
    print(f"2. solo, {args.solo_games} games")
    print("   " + show("heuristic", out["bar2"]))

    count = min(args.ismcts_games, args.games)

    def ismcts(seed: int) -> Bot:
        return ISMCTSBot(seed, iterations=args.ismcts_iterations, budget=args.ismcts_budget)

    searched = run(5, count, args.seed, ismcts)
    out["bar3"] = paired(searched, heuristic[:count])
    solo_count = min(args.ismcts_solo_games, args.solo_games)
    loyal_count = min(args.ismcts_loyal_games, args.games)
    out["bar3_loyal"] = paired(run(5, loyal_count, args.seed,
                                   lambda seed: loyal_search(seed, ismcts)),
                               heuristic[:loyal_count])
    out["bar3_solo"] = paired(run(1, solo_count, args.seed, ismcts), solo[:solo_count])
    out["bar3"].update(iterations=args.ismcts_iterations, budget=args.ismcts_budget)
    print(f"3. ISMCTS (iterations {args.ismcts_iterations}, budget {args.ismcts_budget}) "
          "against the heuristic on the same seeds")
    for key, label in (("bar3", f"5 players, the first {count} seeds of (1), loyal side"),
                       ("bar3_loyal", f"5 players, ISMCTS on the loyal seats only, the first "
                                      f"{loyal_count} seeds of (1)"),
                       ("bar3_solo", f"solo, the first {solo_count} seeds of (2)")):
        figures = out[key]
        print(f"   {label}")
        print("     " + show("ISMCTS", figures["ismcts"]))
        print("     " + show("heuristic", figures["heuristic_same_seeds"]))
        print(f"     won by ISMCTS only: {figures['only_ismcts_won']}, by the heuristic "
              f"only: {figures['only_heuristic_won']}; "
              f"{figures['ismcts_seconds_per_game']:.1f} s per ISMCTS game")
        diff = figures["difference"]
        print(f"     paired difference (ISMCTS - heuristic): {100 * diff['mean']:+.1f} points "
              f"[{100 * diff['low']:+.1f}, {100 * diff['high']:+.1f}] (95%); slowest "
              f"decision {figures['ismcts_slowest_decision']:.2f} s")

    out["bar4"] = unmasking(heuristic)
    bar4 = out["bar4"]
    print(f"4. unmasking, the heuristic games of (1): {bar4['accusations']} loyal accusations")
    print("   " + show("hit a traitor", bar4["hits"]) +
          f"; a random accuser: {100 * bar4['random_hit_rate']:.1f}% "
          f"({bar4['random_hits_expected']:.1f} expected hits)")
    print("   " + show("traitor games where a loyal accusation unmasked him",
                        bar4["unmasked"]) +
          f"; the random accuser's same accusations: "
          f"{100 * bar4['random_unmasked_expected']:.1f}%")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2, default=asdict) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
