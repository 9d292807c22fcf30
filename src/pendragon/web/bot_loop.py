"""The bots at a table: one bot task per table that waits the table's pace, asks the seat's
bot for a move and submits it like any player, with the version it saw.

The pace is the table's own (:attr:`~pendragon.web.table_core.TableCore.pace`: the server's
``bot_delay`` until a seated person or the host chooses one of
:data:`~pendragon.web.settings.BOT_PACES`, issue 27, item 9). The wait is slept a second at
most at a time, so a quicker pace chosen meanwhile counts at once; a slower pace announced
while the bot thought counts for its move too (the loop waits the rest before submitting).
The bot thinks in the bot pool (:class:`pendragon.web.limits.BotScheduler`, through
``TableManager.run_bot``) unless it is known to answer at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from asyncio import sleep

from pendragon.bots import bot_names, check_bot, make_bot, table_bot, table_bots
from pendragon.bots.base import Bot
from pendragon.bots.random_bot import RandomBot
from pendragon.core.api import State
from pendragon.core.events import Event, Seat, Term
from pendragon.runner import bot_seed
from pendragon.web.access import BOT, HOST_ROLE, SEAT_ROLE, Access, SeatState
from pendragon.web.errors import TableError
from pendragon.web.limits import PRIORITY_BOTS_ONLY, PRIORITY_PEOPLE
from pendragon.web.settings import BOT_PACES, PACE_EVENTS
from pendragon.web.turn_timer import TurnTimer

log = logging.getLogger("pendragon.web")

#: A bot whose last FAST_BOT_RUN moves each took under FAST_BOT seconds plays on the event
#: loop (a thread hop would cost more than its move); one slow move sends it back to the
#: thread pool.
FAST_BOT = 0.001
FAST_BOT_RUN = 5
#: The longest single sleep of the pace's wait (a quicker pace chosen meanwhile counts
#: after at most this long).
PACE_STEP = 1.0


class BotLoop(TurnTimer):
    """A table's bot task, its pace and the bots of its seats."""

    def schedule_bot(self) -> None:
        """Start the bot task if a bot is to act and none is running (and the turn timer
        if a person is to act) — once the game has begun."""
        self.arm_timer()
        if not self.started:
            return
        if self.finished or (self.bot_task is not None and not self.bot_task.done()):
            return
        if self.manager.closing or not self.bots_may_play():
            return
        player = self.state.current_player()
        if player < 0 or self.seats[player].controller != BOT:
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    def stop(self) -> None:
        """Stop the bot task and timers (the table is being unloaded)."""
        task = self.bot_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        if self._away_timer is not None:
            self._away_timer.cancel()
        if self.hint_job is not None:
            self.hint_job[1].cancel()
            self.hint_job = None
        self.stop_timer()

    async def set_pace(self, access: Access, seconds: object) -> None:
        """A seated person or the host sets the bots' pace (one of :data:`BOT_PACES`);
        the change is announced in the log and pushed to every page."""
        if access.role not in (SEAT_ROLE, HOST_ROLE):
            raise TableError("forbidden", "only a seated player or the host sets the bots' pace",
                             403)
        if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
                or float(seconds) not in BOT_PACES):
            allowed = ", ".join(f"{p:g}" for p in BOT_PACES)
            raise TableError("bad_pace", f"the bots' pace is one of {allowed} seconds", 400)
        pace = float(seconds)
        async with self.lock:
            self.refuse_if_over()
            if pace == self.pace:
                return
            shown = Term(f"table.pace.{round(pace * 1000)}")
            if access.role == SEAT_ROLE and access.seat is not None:
                event = Event(PACE_EVENTS[0], {"pace": shown, "seat": Seat(access.seat)})
            else:
                event = Event(PACE_EVENTS[1], {"pace": shown})
            await self._change_hands([], event)
            self.push_state()

    async def _settled_pace(self) -> float:
        """The pace once any change being stored is applied (a pace is announced under the
        table's lock, and applied only once its write is committed)."""
        async with self.lock:
            return self.pace

    async def _wait_pace(self, waited: float = 0.0) -> float:
        """Sleep until ``waited`` seconds reach the table's pace, :data:`PACE_STEP` at most
        at a time (the pace is read again after each); returns the seconds waited."""
        while waited < (pace := await self._settled_pace()):
            step = min(PACE_STEP, pace - waited)
            await sleep(step)
            waited += step
        return waited

    def _bot_for(self, seat: SeatState) -> Bot:
        if seat.bot_player is None:
            # A record from before bots were named plays the game's table bot.
            name = seat.bot or table_bot(self.game_name)
            # This server's bound on one move's thinking (simulated actions; 0: none).
            budget = self.manager.settings.limits.ismcts_budget
            bot = make_bot(name, bot_seed(self.seed, seat.seat), self.game_name,
                           max_budget=budget if budget > 0 else None)
            if isinstance(bot, RandomBot):
                # Known to answer at once: a trip to a worker would cost more than its move.
                seat.bot_fast_steps = max(seat.bot_fast_steps, FAST_BOT_RUN)
            seat.bot_player = bot
        return seat.bot_player

    async def _bot_loop(self) -> None:
        while not self.finished and not self.manager.closing:
            player = self.state.current_player()
            if player < 0 or self.seats[player].controller != BOT or not self.bots_may_play():
                return
            # The table's own pace, chosen by its people (issue 27, item 9).
            waited = await self._wait_pace()
            if waited > 0 and (self.state.current_player() != player
                               or self.seats[player].controller != BOT):
                continue
            # A table never changes a state object in place (a move is applied to a copy
            # that then replaces it), so the bot may read this one while the table moves on.
            snapshot = self.state
            seat = self.seats[player]
            bot = self._bot_for(seat)
            action, took = await self._ask_bot(
                bot, snapshot, f"bot {bot!r}", inline=seat.bot_fast_steps >= FAST_BOT_RUN,
                priority=PRIORITY_PEOPLE if self.people_connected() else PRIORITY_BOTS_ONLY,
            )
            if took is not None:
                seat.bot_fast_steps = seat.bot_fast_steps + 1 if took < FAST_BOT else 0
            # A slower pace announced while the bot thought (or just before it began to
            # wait: the request whose link begins the game) counts for this move too.
            await self._wait_pace(waited)
            try:
                await self.submit(player, snapshot.version, action, by_bot=True)
            except TableError as error:
                if error.code not in ("stale_version", "bot_seat", "not_your_turn"):
                    log.error("bot move refused at table %s: %s", self.table_id, error.message)
                    return


def timed_step(bot: Bot, state: State) -> tuple[int, float]:
    """``bot.step(state)`` and the CPU seconds it took."""
    # CPU time of this thread: waiting for the interpreter lock does not count.
    started = time.thread_time()
    action = bot.step(state)
    return action, time.thread_time() - started


def bot_name(bot: object, game: str, where: str = "") -> str:
    """``bot`` if it names a bot a table of ``game`` seats (``bots.check_bot`` with people:
    not a bot that plays only among bots), else ``TableError`` (400, its message after
    ``where``);
    no choice (``None``, ``""``) is the game's table bot (``bots.table_bot``), the one the
    lobby offers first, a seat handed over is given, and a timed-out turn is played by.

    >>> bot_name(None, "soc"), bot_name("random", "soc")
    ('stealth', 'random')
    """
    seated = table_bots(game)
    try:
        return check_bot(bot or seated[0], game, people=True)
    except ValueError:  # its message quotes the name: never echoed
        known = isinstance(bot, str) and bot in bot_names(game)  # one that plays among bots
        raise TableError("bad_request", f"{where}" + (
            "that bot plays only where every seat is a bot; this table's bots:" if known
            else "unknown bot; known bots:") + f" {', '.join(seated)}", 400) from None
