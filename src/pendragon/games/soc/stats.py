"""Shadows over Camelot's figures for the simulator and its balance table.

``soc_stats`` reads a finished game (loyalty is public at the end) and its record: who won,
whether a traitor was dealt, won, or was unmasked, how many knights died, and the loyal
knights' accusations (SOC-ACCUSE-1) with how many hit a traitor.

>>> import pendragon
>>> from pendragon.runner import random_playout
>>> final = random_playout(pendragon.load_game("soc", players=3, seed=1), seed=1)
>>> figures = soc_stats(final)
>>> figures["deaths"] in range(4), isinstance(figures["loyal_win"], bool)
(True, True)
"""

from __future__ import annotations

from typing import Any

from pendragon.core.api import State
from pendragon.games.soc.rules.actions import ACCUSE
from pendragon.simulate import BalanceColumn, BalanceTable


def soc_stats(final: State) -> dict[str, Any]:
    """Shadows over Camelot figures of a finished game."""
    public = final.observation(None)
    knights = public["knights"]
    traitors = [k["seat"] for k in knights if k["loyalty"] == "traitor"]
    loyal_win = public["status"] == "loyal-win"
    # Accusations (SOC-ACCUSE-1): who accused whom, read back from the record.
    loyal_accusations = correct = traitor_accusations = 0
    replay = final.game.new_initial_state()
    for action in final.history():
        actor = replay.current_player()
        if actor >= 0 and ACCUSE <= action < ACCUSE + len(knights):
            if knights[actor]["loyalty"] == "traitor":
                traitor_accusations += 1
            else:
                loyal_accusations += 1
                correct += action - ACCUSE in traitors
        replay.apply_action(action)
    return {
        "loyal_win": loyal_win,
        "traitor_present": bool(traitors),
        "traitor_win": bool(traitors) and not loyal_win,
        "traitor_unmasked": any(knights[s]["status"] == "unmasked" for s in traitors),
        "deaths": sum(1 for k in knights if k["status"] == "dead"),
        "turns": public["turn"]["number"],
        "white_swords": public["round_table"]["white"],
        "black_swords": public["round_table"]["black"],
        "siege_engines": public["siege_engines"],
        "loyal_accusations": loyal_accusations,
        "loyal_accusations_correct": correct,
        "traitor_accusations": traitor_accusations,
    }


#: The designer's table: the loyal win rate by player count, without and with the traitor
#: card in the loyalty deck, in the base game and with Merlin's Company (8 players only
#: with the expansion; the empty cell is skipped).
BALANCE = BalanceTable(
    title="Shadows over Camelot: loyal win rate",
    players=(3, 4, 5, 6, 7),
    variants=(("base", {}), ("merlins-company", {"expansion": "merlins-company"})),
    columns=(
        BalanceColumn("no traitor", "loyal_win", {"no_traitor": True}),
        BalanceColumn("with traitor", "loyal_win", {"no_traitor": False}),
    ),
)
