"""The table's chat: a seated person says a line (spectators only read), within a rate
(:data:`~pendragon.web.settings.CHAT_BURST` lines per
:data:`~pendragon.web.settings.CHAT_WINDOW` seconds), while the game lets people talk
(``GameAdapter.chat_open``); the line is stored, then sent to every page."""

from __future__ import annotations

import time

from pendragon.web.errors import TableError
from pendragon.web.security import MAX_CHAT, InputError, clean_text
from pendragon.web.settings import CHAT_BURST, CHAT_WINDOW
from pendragon.web.storage import AddChat, ChatRecord
from pendragon.web.table_core import TableCore


class Chat(TableCore):
    """The chat of a table."""

    async def say(self, seat: int | None, text: object) -> None:
        """Add a chat line from ``seat`` (spectators only read the chat)."""
        if seat is None:
            raise TableError("forbidden", "spectators may read the chat but not write", 403)
        try:
            clean = clean_text(text, MAX_CHAT, multiline=True)
        except InputError as error:
            raise TableError("bad_request", str(error), 400) from None
        if not clean:
            raise TableError("bad_request", "empty chat line", 400)
        if not self.adapter.chat_open(self.state):
            raise TableError("chat_closed", "the chat is closed at this moment of the game")
        speaker = self.seats[seat]
        now = time.monotonic()
        while speaker.chat_times and now - speaker.chat_times[0] > CHAT_WINDOW:
            speaker.chat_times.popleft()
        if len(speaker.chat_times) >= CHAT_BURST:
            raise TableError("rate_limited", "too many chat lines; wait a few seconds", 429)
        speaker.chat_times.append(now)
        at = time.time()
        line_id = await self.manager.store.add_chat(
            AddChat(self.table_id, seat, speaker.name, clean, at)
        )
        record = ChatRecord(line_id, seat, speaker.name, clean, at)
        self.chat.append(record)
        self.broadcast(self.chat_message([record]))
