"""Grail Cup's figures for the simulator and its balance table.

``grail_cup_stats`` reads a finished race: how many rounds it lasted and whether the first
player of the first round (the seal's holder, the rearmost knight, GC-SETUP-*) won.

>>> import pendragon
>>> from pendragon.runner import random_playout
>>> final = random_playout(pendragon.load_game("grail-cup", players=4, seed=1), seed=1)
>>> figures = grail_cup_stats(final)
>>> figures["rounds"] >= 1, isinstance(figures["first_player_win"], bool)
(True, True)
"""

from __future__ import annotations

from typing import Any

from pendragon.core.api import State
from pendragon.simulate import BalanceColumn, BalanceTable

#: Most seats of a Grail Cup table.
MAX_PLAYERS = 8


def first_player(final: State) -> int:
    """The first player of the first round: replay the set-up to the first decision."""
    replay = final.game.new_initial_state()
    for action in final.history():
        if replay.current_player() >= 0:
            break
        replay.apply_action(action)
    seat = replay.observation(None)["first_player"]
    return int(seat) if seat is not None else -1


def grail_cup_stats(final: State) -> dict[str, Any]:
    """Grail Cup figures of a finished game."""
    public = final.observation(None)
    return {
        "rounds": public["round"],
        "first_player_win": public["winner"] == first_player(final),
    }


#: The designer's table: by player count, the first player's win rate and each seat's.
BALANCE = BalanceTable(
    title="Grail Cup: first-player and seat win rates",
    players=(2, 3, 4, 5, 6, 7, 8),
    columns=(
        BalanceColumn("first player", "first_player_win"),
        *(BalanceColumn(f"seat {seat + 1}", f"seat_win.{seat}") for seat in range(MAX_PLAYERS)),
        BalanceColumn("rounds", "rounds"),
    ),
)
