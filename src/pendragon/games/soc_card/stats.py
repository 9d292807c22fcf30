"""Shadows over Camelot: The Card Game's figures for the simulator and its balance table.

``soc_card_stats`` reads a finished game (every loyalty card is public at the end,
SCG-END-2) and its record: who won, whether a traitor holds a card at the end (Vivien swaps
cards, SCG-VIVIEN-2), won, or was unmasked by an accusation (SCG-ACCUSE-3), the loyal
players' accusations and how many hit a traitor, the swords and the turns.

>>> import pendragon
>>> from pendragon.runner import random_playout
>>> final = random_playout(pendragon.load_game("soc-card", players=4, seed=1), seed=1)
>>> figures = soc_card_stats(final)
>>> isinstance(figures["loyal_win"], bool), figures["white_swords"] >= 0
(True, True)
"""

from __future__ import annotations

from typing import Any

from pendragon.core.api import State
from pendragon.games.soc_card.rules.actions import ACCUSE, MAX_SEATS
from pendragon.simulate import BalanceColumn, BalanceTable


def soc_card_stats(final: State) -> dict[str, Any]:
    """The card game's figures of a finished game."""
    public = final.observation(None)
    loyalties: list[str] = public.get("loyalties") or []
    traitors = [seat for seat, loyalty in enumerate(loyalties) if loyalty == "traitor"]
    loyal_win = public["status"] == "loyal-win"
    loyal_accusations = correct = traitor_accusations = 0
    unmasked = False
    replay = final.game.new_initial_state()
    for action in final.history():
        actor = replay.current_player()
        if actor >= 0 and ACCUSE <= action < ACCUSE + MAX_SEATS:
            # Loyalties as they stood at the accusation (Vivien may swap cards later).
            accuser = replay.observation(actor)["you"]["loyalty"]
            accused = replay.observation(action - ACCUSE)["you"]["loyalty"]
            unmasked = unmasked or accused == "traitor"
            if accuser == "traitor":
                traitor_accusations += 1
            else:
                loyal_accusations += 1
                correct += accused == "traitor"
        replay.apply_action(action)
    return {
        "loyal_win": loyal_win,
        "traitor_present": bool(traitors),
        "traitor_win": bool(traitors) and not loyal_win,
        # A seat's "accused" flag says it has made its accusation; a traitor is unmasked
        # when an accusation names him (SCG-ACCUSE-3).
        "traitor_unmasked": unmasked,
        "turns": public["turn"],
        "white_swords": public["swords"]["white"],
        "black_swords": public["swords"]["black"],
        "loyal_accusations": loyal_accusations,
        "loyal_accusations_correct": correct,
        "traitor_accusations": traitor_accusations,
    }


#: The designer's table: loyal win rate by player count (1 = solo) in the base game, the
#: expert variant (Knights' relief), with the promo cards, and both; with the traitor's win
#: and unmask rates in the games a traitor was dealt.
BALANCE = BalanceTable(
    title="Shadows over Camelot: The Card Game: loyal win rate, traitor win and unmask rates",
    players=(1, 2, 3, 4, 5, 6, 7),
    variants=(
        ("base", {}),
        ("expert", {"knights_relief": True}),
        ("promos", {"promos": True}),
        ("expert+promos", {"knights_relief": True, "promos": True}),
    ),
    columns=(
        BalanceColumn("loyal win", "loyal_win"),
        BalanceColumn("traitor win", "traitor_win_given_traitor"),
        BalanceColumn("traitor unmasked", "traitor_unmasked_given_traitor"),
    ),
)
