"""Live tables: one game's position in memory, its seats, bots, watchers and chat.

A :class:`LiveTable` holds one game's state and is changed only under its own asyncio
lock; it is made of one class per concern, each in its module:

=================================  ====================================================
:mod:`~pendragon.web.table_core`   the state, facts, log and what the pages are told
:mod:`~pendragon.web.moves`        moves and announcements (stored, then applied), and
                                   catching up with other server processes
:mod:`~pendragon.web.turn_timer`   the turn timer of a person's decision
:mod:`~pendragon.web.bot_loop`     the bot task and the bots' pace
:mod:`~pendragon.web.seats`        seats that change hands, invitations, joining
:mod:`~pendragon.web.lobby`        arrivals, the game's beginning, the lobby's seats
:mod:`~pendragon.web.rematch`      the rematch of a finished game
:mod:`~pendragon.web.chat`         the chat
:mod:`~pendragon.web.hints`        the host's hint setting and a seat's hint (issue 31)
=================================  ====================================================

Every table of a process is reached through :class:`pendragon.web.manager.TableManager`.
The names other code has imported from here stay importable from here.
"""

from __future__ import annotations

from pendragon.web.chat import Chat
from pendragon.web.hints import Hints
from pendragon.web.lobby import Lobby
from pendragon.web.options import remote_option_names
from pendragon.web.rematch import Rematch
from pendragon.web.settings import Settings

# Imported from here by code outside the web package (tests/test_soc_card_tables.py,
# docs/architecture.md): their homes are pendragon.web.settings and pendragon.web.options.
__all__ = ["LiveTable", "Settings", "remote_option_names"]


class LiveTable(Lobby, Rematch, Chat, Hints):
    """One table in memory, with every concern of a table. Create through
    :class:`~pendragon.web.manager.TableManager`."""
