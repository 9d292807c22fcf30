"""Issue 37 item 7, measured: the card game's bots now take a face-down card (Morgan #1) to
be the card its layer named, value and all, and an unmasked traitor plays Tristan.

Figures for docs/bots.md; nothing asserts them. Paired seeds (``play_paired``: game ``i``
seeded ``seed * 1_000_003 + i``, the same deals, chance streams and bot seeds for both
panels), on a seed no tuning used (default 37). Each seat's policy is chosen by the loyalty
card it holds at its first decision (a seat handed another card by Vivien keeps it).

1. **The value announced**, 5 players: the loyal seats are the heuristic with
   ``use_told`` (new) against the same seeds with it off (the old bot); the traitor, an
   opponent the heuristic was not tuned on, is the random bot in one run and the stealth
   traitor in another (both with ``use_told`` off, so only the loyal side changes).
   Figure: the loyal side's win rate of each panel (95% Wilson) and the paired difference
   (95% normal interval), and how many games had a card laid under Morgan #1.
2. **Tristan for the unmasked traitor**, 5 players with Knights' relief: the traitor is
   the old heuristic with ``traitor_tristan`` on (new) against it off; the loyal seats are
   the old heuristic (so the two panels differ only there). Figure: evil's win rate of
   each panel and the paired difference, and in how many games an unmasked traitor played
   Tristan.

    python -m bench.soc_card_told [--games 400] [--seed 37] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.run import RESULTS_DIR, machine_info
from bench.soc_card_bars import paired_difference, rate
from pendragon import Game, State
from pendragon.bots.base import Bot
from pendragon.bots.random_bot import RandomBot
from pendragon.games.soc_card.heuristic import SocCardHeuristicBot, SocCardStealthBot
from pendragon.runner import play_game
from pendragon.simulate import play_paired

GAME = "soc-card"


class OldHeuristic(SocCardHeuristicBot):
    """The heuristic as it was before issue 37 item 7."""

    use_told = False
    traitor_tristan = False


class TristanOnly(OldHeuristic):
    """The old heuristic with only the unmasked traitor's Tristan of item 7."""

    traitor_tristan = True


class OldStealth(SocCardStealthBot):
    """The stealth traitor as it was before issue 37 item 7."""

    use_told = False
    traitor_tristan = False


class BySide:
    """A seat played by ``loyal(seed)`` or ``traitor(seed)`` by the loyalty card it holds at
    its first decision."""

    def __init__(self, seed: int, loyal: Callable[[int], Bot],
                 traitor: Callable[[int], Bot]) -> None:
        self.seed = seed
        self.loyal = loyal
        self.traitor = traitor
        self.delegate: Bot | None = None

    def step(self, state: State) -> int:
        """The delegate's action."""
        if self.delegate is None:
            seat = state.current_player()
            is_traitor = state.observation(seat)["you"]["loyalty"] == "traitor"
            self.delegate = (self.traitor if is_traitor else self.loyal)(self.seed)
        return self.delegate.step(state)


def _play(game: Game, bots: list[Bot]) -> dict[str, Any]:
    """One game: who won, whether a card went face down, whether a traitor's Tristan was
    played (read from the true history by the harness; the bots never see it)."""
    state = game.new_initial_state()
    face_down = tristan = False
    final = play_game(game, bots)
    for action in final.history():
        text = state.action_to_string(action)
        if text.startswith("announce-card:"):
            face_down = True
        if text == "play:tristan" and state.observation(None)["decision"] == "traitor-tristan":
            tristan = True
        state.apply_action(action)
    return {"loyal_win": final.observation(None)["status"] == "loyal-win",
            "face_down": face_down, "traitor_tristan": tristan}


def _panel(loyal: Callable[[int], Bot], traitor: Callable[[int], Bot]) -> list[Any]:
    return [lambda seed: BySide(seed, loyal, traitor)]


def compare(games: int, seed: int, new: list[Any], old: list[Any], side: str,
            **options: Any) -> dict[str, Any]:
    """Play both panels on the same seeds; ``side``'s win rates and paired difference."""
    rows = play_paired(GAME, [new, old], games, seed, {"players": 5, **options}, play=_play)
    def won(row: dict[str, Any]) -> int:
        return int(row["loyal_win"] if side == "loyal" else not row["loyal_win"])
    return {
        "new": rate(sum(won(n) for n, _ in rows), len(rows)),
        "old": rate(sum(won(o) for _, o in rows), len(rows)),
        "difference": paired_difference([won(n) - won(o) for n, o in rows]),
        "games_with_face_down_cards": sum(n["face_down"] for n, _ in rows),
        "games_with_traitor_tristan": sum(n["traitor_tristan"] for n, _ in rows),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparisons, print them and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--json", type=Path, default=RESULTS_DIR / "soc_card_told.json")
    args = parser.parse_args(argv)
    results = {
        "told_vs_random_traitor": compare(
            args.games, args.seed, _panel(SocCardHeuristicBot, RandomBot),
            _panel(OldHeuristic, RandomBot), "loyal"),
        "told_vs_stealth_traitor": compare(
            args.games, args.seed, _panel(SocCardHeuristicBot, OldStealth),
            _panel(OldHeuristic, OldStealth), "loyal"),
        "traitor_tristan": compare(
            args.games, args.seed, _panel(OldHeuristic, TristanOnly),
            _panel(OldHeuristic, OldHeuristic), "evil", knights_relief=True),
    }
    for name, figure in results.items():
        new, old, diff = figure["new"], figure["old"], figure["difference"]
        print(f"{name}: new {new['wins']}/{new['games']} = {100 * new['rate']:.1f}%"
              f" [{100 * new['low']:.1f}, {100 * new['high']:.1f}], old {old['wins']}"
              f" = {100 * old['rate']:.1f}%; paired {100 * diff['mean']:+.1f} points"
              f" [{100 * diff['low']:+.1f}, {100 * diff['high']:+.1f}];"
              f" face-down games {figure['games_with_face_down_cards']},"
              f" traitor Tristan games {figure['games_with_traitor_tristan']}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"machine": machine_info(None), "seed": args.seed,
                                     "games": args.games, **results}, indent=2) + "\n",
                         encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
