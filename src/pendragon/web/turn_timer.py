"""The turn timer (issue 17, item 10): a host may give each decision of a person a number of
seconds; when they run out, the game's table bot plays that decision for him and the log
says so (:data:`~pendragon.web.narration.TIMED_OUT`). No clock runs before the game has
begun, and a table loaded again (a restart) starts the running decision's clock afresh."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import Any

from pendragon.bots import make_bot, table_bot, table_bots
from pendragon.bots.base import Bot
from pendragon.core.api import State
from pendragon.runner import bot_seed
from pendragon.web.access import HUMAN
from pendragon.web.errors import TableError
from pendragon.web.limits import PRIORITY_BOTS_ONLY
from pendragon.web.moves import TableMoves
from pendragon.web.narration import with_timeout_note

log = logging.getLogger("pendragon.web")


def timeout_bot(chosen: str | None, game: str) -> str:
    """The bot that plays a timed-out turn at a table of ``game``: the server's choice
    (``Settings.timeout_bot``) where the game's tables seat it, else the game's table bot.

    >>> timeout_bot("stealth", "soc"), timeout_bot("stealth", "grail-cup")
    ('stealth', 'heuristic')
    >>> timeout_bot(None, "soc")
    'stealth'
    """
    return chosen if chosen is not None and chosen in table_bots(game) else table_bot(game)


class TurnTimer(TableMoves):
    """The turn timer of a table's persons' decisions."""

    async def _ask_bot(self, bot: Bot, snapshot: State, who: str, *, inline: bool = False,
                       priority: int = PRIORITY_BOTS_ONLY) -> tuple[int, float | None]:
        """``bot``'s move on ``snapshot`` and the CPU seconds it took (``None``: it failed).

        A bot that fails or answers an illegal move is logged (``who`` names it) and
        replaced by the first legal move, so a table never stalls.
        """
        took: float | None = None
        try:
            action, took = await self.manager.run_bot(bot, snapshot, inline=inline,
                                                      table=self.table_id, priority=priority)
        except Exception:
            log.exception("%s failed at table %s", who, self.table_id)
            action = snapshot.legal_actions()[0]
        if not snapshot.is_legal(action):
            log.error("%s chose an illegal action at table %s", who, self.table_id)
            action = snapshot.legal_actions()[0]
        return action, took

    def _timer_decision(self) -> tuple[int, int] | None:
        """The (version, seat) of the person's decision the timer runs for, if any: none
        before the game has begun (a person's clock runs only once it has, for him)."""
        if not self.turn_timer or self.finished or not self.started:
            return None
        player = self.state.current_player()
        if player < 0 or player >= len(self.seats) or self.seats[player].controller != HUMAN:
            return None
        return (self.state.version, player)

    def arm_timer(self) -> None:
        """Start the turn timer of a person's new decision; stop it when none is due.

        Idempotent: called after every change (and by ``state_message``, so a push always
        carries the current deadline). A table loaded again (a restart) starts afresh.
        """
        decision = self._timer_decision()
        if decision == self._timer_for:
            return
        if self._timer_handle is not None:
            self._timer_handle.cancel()
            self._timer_handle = None
        self._timer_for, self.deadline = decision, None
        if decision is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a synchronous caller: armed by the next call on the loop
            self._timer_for = None
            return
        self.deadline = time.monotonic() + self.turn_timer
        self._timer_handle = loop.call_later(self.turn_timer, self._time_out, decision)

    def timer_view(self) -> dict[str, Any] | None:
        """The state message's ``timer``: ``{"seconds", "remaining", "seat"}`` or None."""
        self.arm_timer()
        if self.deadline is None or self._timer_for is None:
            return None
        remaining = max(0.0, self.deadline - time.monotonic())
        return {"seconds": self.turn_timer, "remaining": round(remaining, 1),
                "seat": self._timer_for[1]}

    def _time_out(self, decision: tuple[int, int]) -> None:
        # An unloaded table (idle) must not move: it resumes its timer when loaded again.
        if (decision != self._timer_for or self.manager.closing
                or self.manager.tables.get(self.table_id) is not self):
            return
        self._timeout_task = asyncio.get_running_loop().create_task(
            self._play_timed_out(decision))

    async def _play_timed_out(self, decision: tuple[int, int]) -> None:
        """The game's heuristic bot plays the decision whose time ran out."""
        version, seat = decision
        snapshot = self.state
        if snapshot.version != version or self._timer_decision() != decision:
            return
        bot = self._timeout_bots.get(seat)
        if bot is None:
            name = timeout_bot(self.manager.settings.timeout_bot, self.game_name)
            bot = make_bot(name, bot_seed(self.seed, seat), self.game_name)
            self._timeout_bots[seat] = bot
        action, _took = await self._ask_bot(bot, snapshot, "the timeout bot")
        try:
            await self.submit(seat, version, action, timed_out=True)
        except TableError as error:
            # The person moved (or left the seat to a bot) while the bot thought.
            if error.code not in ("stale_version", "not_your_turn", "bot_seat", "game_over"):
                log.error("timed-out move refused at table %s: %s", self.table_id,
                          error.message)

    def note_timeouts(self, timeouts: Iterable[tuple[int, int]]) -> None:
        """Add the log's note to stored moves a bot played when a person's time ran out."""
        for index, seat in timeouts:
            if 0 <= index < len(self.lines):
                self.lines[index] = with_timeout_note(self.lines[index], seat)

    def stop_timer(self) -> None:
        """Cancel the turn timer (the server is closing)."""
        if self._timer_handle is not None:
            self._timer_handle.cancel()
        if self._timeout_task is not None:
            self._timeout_task.cancel()
