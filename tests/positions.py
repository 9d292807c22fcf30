"""Positions of real games, reached by heuristic play, for tests."""

from __future__ import annotations

import pendragon
from pendragon.bots.heuristic import HeuristicBot
from pendragon.core.api import CHANCE, State
from pendragon.runner import bot_seed


def position(name: str, seed: int, decisions: int, **options: object) -> State:
    """The first position with a real choice after ``decisions`` heuristic decisions of a
    5-player game of ``name`` (``options`` as for ``load_game``); ``AssertionError`` if the
    game ends first."""
    game = pendragon.load_game(name, players=5, seed=seed, **options)
    state = game.new_initial_state()
    bots = [HeuristicBot(bot_seed(game.seed, s)) for s in range(5)]
    done = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        if done >= decisions and len(state.legal_actions()) > 1:
            return state
        state.apply_action(bots[player].step(state))
        done += 1
    raise AssertionError("the game ended before the position was reached")


def soc_position(seed: int, decisions: int, **options: object) -> State:
    """:func:`position` in a game of Shadows over Camelot."""
    return position("soc", seed, decisions, **options)
