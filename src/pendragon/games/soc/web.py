"""Shadows over Camelot on the web table: the hooks that are not narration.

The log is the rules' own events (``SocState.narrate``), worded by the page; this adapter
only seats a newcomer mid-game where the rules allow it (VAR-JOIN).

>>> from pendragon.web.adapters import adapter_for
>>> adapter = adapter_for("soc")
>>> import pendragon
>>> state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
>>> adapter.add_seat_action(state) == state.string_to_action("join")
True
"""

from __future__ import annotations

from pendragon.core.api import State
from pendragon.web.adapters.base import GameAdapter


class SocAdapter(GameAdapter):
    """Shadows over Camelot's web adapter."""

    def chat_open(self, state: State | None) -> bool:
        """The board game never silences the table."""
        return True

    def can_add_seat(self, state: State) -> bool:
        """VAR-JOIN ("joining mid-game", seed 003): whether the rules seat a newcomer now.

        Uses the state's own ``can_join`` (the rules' join operation); a state without it
        never lets anyone join, and newcomers take over a bot's seat instead.
        """
        can_join = getattr(state, "can_join", None)
        return bool(callable(can_join) and can_join())

    def add_seat_action(self, state: State) -> int | None:
        """The ``join`` action of the catalog, if the game has one."""
        try:
            return state.string_to_action("join")
        except ValueError:
            return None
