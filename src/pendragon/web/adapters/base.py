"""The generic web adapter: what a game may customise on the table page's server side.

>>> adapter = GameAdapter("chess")
>>> adapter.narrate("Seat 1 resigns", viewer=0, actor=1)
{'t': 'Seat 1 resigns'}
>>> adapter.chat_open(None)
True
"""

from __future__ import annotations

from typing import Any

from pendragon.core.api import State

#: One line of the game log as sent to a page: ``{"k": key, "p": params}`` (words chosen
#: by the page in its language) or ``{"t": text}`` (the game's own English narration).
Narration = dict[str, Any]


class GameAdapter:
    """Hooks of one game; the defaults suit any game."""

    def __init__(self, game: str) -> None:
        self.game = game

    def narrate(self, text: str, viewer: int | None, actor: int | None) -> Narration:
        """Turn ``state.describe_action(action, viewer)`` into a log line.

        ``actor`` is the seat that decided (``None`` for chance). The result must be a
        function of ``text``, ``viewer`` and ``actor`` only, so it reveals nothing the
        narration did not. The default keeps the text as it is.
        """
        return {"t": text}

    def is_revealing(self, line: Narration) -> bool:
        """Whether ``line`` names a card only some seats may know (used by the replay)."""
        return False

    def chat_open(self, state: State | None) -> bool:
        """Whether the table chat is open in ``state`` (a game may silence it)."""
        return True

    def can_add_seat(self, state: State) -> bool:
        """Hook: whether a new player may join ``state`` now with a new seat of his own.

        A game whose rules let a player join mid-game (Shadows over Camelot's VAR-JOIN)
        answers here and names the action in :meth:`add_seat_action`; otherwise a newcomer
        can only take over a free seat (one a bot plays). See ``LiveTable.join_new_seat``.
        """
        return False

    def add_seat_action(self, state: State) -> int | None:
        """The action id that seats a newcomer (recorded in the log like any action)."""
        return None

    def join_line(self, seat: int) -> Narration:
        """The log line of a newcomer taking seat ``seat``."""
        return {"k": "join", "p": {"seat": seat}}
