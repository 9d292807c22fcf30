"""The Sword in the Stone at the web table: the server-side hooks.

The log lines are the rules' own events (``SwordStoneState.narrate``), worded by the page,
and the board is ``board.js``; what is left for an adapter is table policy. Every hand is
dealt before the first turn, so nobody joins mid-game (a newcomer takes over a bot's seat),
and the chat stays open: bluffing about one's hand is part of the game.

>>> from pendragon.web.adapters import adapter_for
>>> adapter = adapter_for("sword-stone")
>>> type(adapter).__name__, adapter.chat_open(None)
('SwordStoneAdapter', True)
"""

from __future__ import annotations

from pendragon.core.api import State
from pendragon.web.adapters.base import GameAdapter


class SwordStoneAdapter(GameAdapter):
    """The Sword in the Stone's web adapter."""

    def chat_open(self, state: State | None) -> bool:
        """Table talk is allowed at every moment (bluffing is part of the game)."""
        return True

    def can_add_seat(self, state: State) -> bool:
        """Never: the hands are dealt before the first turn."""
        return False
