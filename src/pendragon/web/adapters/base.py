"""The generic web adapter: the table's hooks a game may customise on the server side.

Narration is not here: log lines are the events of ``state.narrate(action, viewer)``,
worded by the page. An adapter only says what the rules' API cannot: whether the chat is
open (and, when a rule of the game closes it, why), and how a newcomer is seated mid-game.

>>> adapter = GameAdapter("chess")
>>> adapter.chat_open(None), adapter.chat_closed_reason(None)
(True, None)
"""

from __future__ import annotations

from pendragon.core.api import State
from pendragon.core.events import Event


class GameAdapter:
    """Hooks of one game; the defaults suit any game.

    A plugin names its subclass (``GamePlugin.web_adapter``); the server instantiates it
    with the game's name.
    """

    def __init__(self, game: str) -> None:
        self.game = game

    def chat_open(self, state: State | None) -> bool:
        """Whether the table chat is open in ``state`` (a game may silence it)."""
        return True

    def chat_closed_reason(self, state: State | None) -> Event | None:
        """Why the chat is closed in ``state``: an event of the game's catalog, worded by the
        page like any other (``None``: no reason given; the page says only that it is closed).

        Asked only while :meth:`chat_open` is false.
        """
        return None

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
