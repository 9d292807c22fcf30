"""Shadows over Camelot (Days of Wonder, 2005): the pure rules.

Modules, from the bottom up: ``cards`` (typed card, knight and location data), ``actions``
(the action catalog), ``data`` (the state's fields), ``engine`` (the agenda runner and
primitive moves), ``quests``, ``black_cards``, ``white_cards``, ``turn`` (the rules),
``view`` (observations and narration), ``state`` (copying, storage, determinization) and
``game`` (options and declared facts), then ``fixtures``. Each imports only modules below it,
by their own names, never this package (whose names come from the top): no import cycle.
The rules reference is ``docs/rules/soc.md``.

Version history: 1 — the base game.

>>> import pendragon
>>> state = pendragon.load_game("soc", players=3, seed=11).new_initial_state()
>>> state.play_random_chance()
>>> state.observation(0)["waiting"]["decision"]
'contrib'
"""

from pendragon.games.soc.rules.game import SocGame
from pendragon.games.soc.rules.state import SocState

__all__ = ["SocGame", "SocState"]
