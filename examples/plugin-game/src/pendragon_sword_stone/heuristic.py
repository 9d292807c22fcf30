"""The hand-written policy of The Sword in the Stone (the ``heuristic`` bot).

It reads only the acting seat's observation and the legal actions' text forms:

1. a pull that brings the stone to the target wins at once: take it;
2. otherwise every option leaves a *gap* (target minus total) to the next knight. A gap
   of 1..5 loses if an opponent holds a card of that value; its risk is the share of
   unseen cards (not on the stone, not in our hand) of that value. A draw or a pass keeps
   the current gap; a pull of ``V`` leaves ``gap - V``;
3. choose the least risky option; among equals prefer a gap we could close ourselves
   next turn, then a draw while the hand is small (more choices later), then pulling the
   value we hold most copies of (keeping the hand varied); a seeded coin breaks ties.

>>> import pendragon
>>> state = pendragon.load_game("sword-stone", players=2, seed=3).new_initial_state()
>>> state.play_random_chance()
>>> SwordStoneBot(seed=1).step(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections import Counter

from pendragon.bots.base import to_act
from pendragon.core.api import CHANCE, State

#: Copies of each value in the deck, the highest value.
COPIES = 4
TOP_VALUE = 5
#: A draw is worth more than a pull of equal risk while the hand is below this size.
SMALL_HAND = 3


class SwordStoneBot:
    """Win now if possible, else leave the gap the opponents are least likely to close."""

    __slots__ = ("seed", "_rng")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"SwordStoneBot(seed={self.seed!r})"

    def step(self, state: State) -> int:
        """The chosen action id for the seat to act."""
        seat, legal = to_act(state)
        if seat == CHANCE:
            return state.sample_chance()
        view = state.observation(seat)
        hand = Counter(int(v) for v in view["hand"])
        gap = int(view["target"]) - int(view["total"])
        seen = Counter(int(v) for v in view["stone"]) + hand
        unseen = {v: COPIES - seen[v] for v in range(1, TOP_VALUE + 1)}
        hidden = max(1, sum(unseen.values()))

        def risk(left: int) -> float:
            return unseen.get(left, 0) / hidden if 1 <= left <= TOP_VALUE else 0.0

        best: tuple[float, float, float, float, float] | None = None
        choice = legal[0]
        for action in legal:
            text = state.action_to_string(action)
            if text.startswith("pull:"):
                value = int(text.partition(":")[2])
                left = gap - value
                if left == 0:
                    return action
                closable = hand[left] - (left == value) > 0
                score = (-risk(left), float(closable), 0.0, float(hand[value]), self._rng.random())
            else:
                drawing = text == "draw" and len(view["hand"]) < SMALL_HAND
                score = (-risk(gap), 0.0, float(drawing), 0.0, self._rng.random())
            if best is None or score > best:
                best, choice = score, action
        return choice


def rollout_bot(seed: int | None = None) -> SwordStoneBot:
    """The policy for search rollouts (the same one: it is cheap)."""
    return SwordStoneBot(seed)
