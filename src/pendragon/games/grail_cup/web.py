"""Grail Cup at the web table: the server-side hooks.

The log lines are the rules' own events (``GrailCupState.narrate``), worded by the page,
and the board is ``board.js``; what is left for an adapter is table policy. The chat stays
open at every moment: table talk (boasting about one's allies, pleading with the Squire's
player) is part of the game, and the rules never ask for silence. Nobody joins mid-game:
every seat's knight is placed and the allies are dealt and drafted from the first round
(GC-SETUP-3, GC-DRAFT-3), so a newcomer takes over a seat a bot plays instead.

>>> import pendragon
>>> from pendragon.web.adapters import adapter_for
>>> adapter = adapter_for("grail-cup")
>>> state = pendragon.load_game("grail-cup", players=4, seed=1).new_initial_state()
>>> type(adapter).__name__, adapter.chat_open(state), adapter.chat_open(None)
('GrailCupAdapter', True, True)
>>> adapter.can_add_seat(state), adapter.add_seat_action(state)
(False, None)
"""

from __future__ import annotations

from pendragon.core.api import State
from pendragon.web.adapters.base import GameAdapter


class GrailCupAdapter(GameAdapter):
    """Grail Cup's web adapter."""

    def chat_open(self, state: State | None) -> bool:
        """Table talk is allowed at every moment of the race."""
        return True

    def can_add_seat(self, state: State) -> bool:
        """Never: the knights are placed and the allies dealt before the first round."""
        return False
