"""Shadows over Camelot: The Card Game at the web table: the hooks that are not narration.

The log is the rules' own events (``SocCardState.narrate``), worded by the page, and the
board is ``board.js``. What is left is table policy: Morgan's silence is a rule of the game,
not of manners (SCG-MORGAN-0, SCG-RULING-7), so the table closes its chat while the silence
holds and tells the page why; and nobody joins mid-game (the loyalty cards are dealt before
the first turn), so a newcomer takes over a bot's seat instead.

>>> import pendragon
>>> from pendragon.web.adapters import adapter_for
>>> from pendragon.games.soc_card.rules.fixtures import load_state
>>> adapter = adapter_for("soc-card")
>>> type(adapter).__name__, adapter.chat_open(None), adapter.chat_closed_reason(None)
('SocCardAdapter', True, None)
>>> silent = load_state({"players": 3, "pile": ["morgan-2"], "in_force": {"silence": True}})
>>> adapter.chat_open(silent), adapter.chat_closed_reason(silent).key
(False, 'soc-card.chat.silence')
>>> state = pendragon.load_game("soc-card", players=3, seed=1).new_initial_state()
>>> adapter.chat_open(state), adapter.chat_closed_reason(state), adapter.can_add_seat(state)
(True, None, False)
"""

from __future__ import annotations

from pendragon.core.api import State
from pendragon.core.events import Event
from pendragon.games.soc_card.rules.state import SocCardState
from pendragon.web.adapters.base import GameAdapter

#: Why the chat is closed while Morgan's silence holds (a message of the game's catalog).
SILENCE = Event("soc-card.chat.silence")


def _silenced(state: State | None) -> bool:
    """Whether Morgan's silence holds in ``state`` (SCG-MORGAN-0, SCG-RULING-7)."""
    return isinstance(state, SocCardState) and bool(state.silence)


class SocCardAdapter(GameAdapter):
    """The card game's web adapter: the chat closes under Morgan's silence."""

    def chat_open(self, state: State | None) -> bool:
        """Open except while Morgan's silence holds (from a Morgan's reveal until a Merlin's
        reveal or a quest declaration, SCG-MORGAN-0, SCG-MERLIN-0, SCG-RULING-7)."""
        return not _silenced(state)

    def chat_closed_reason(self, state: State | None) -> Event | None:
        """:data:`SILENCE` while the silence holds."""
        return SILENCE if _silenced(state) else None

    def can_add_seat(self, state: State) -> bool:
        """Never: the loyalty cards are dealt before the first turn (SCG-SETUP-2)."""
        return False
