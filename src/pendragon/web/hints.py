"""Hints at the table (issue 31, item 2): the coach's move for a seated player who asks at
his turn, where the host allows them.

* **The host decides.** Hints are off unless the host allows them, at creation (the
  lobby's "Allow hints") or during play (``POST /api/table/hints``); each change is an
  announcement in the log (``table.event.hints-on`` / ``-off``), stored with the table's
  announcements, so it survives a restart and every page shows it.
* **Only one's own seat, only at one's turn.** The token's seat is the only seat a hint is
  for (a request names none), while that seat is to decide and a person plays it, the game
  has begun and is not over, at the version the page shows. A spectator's, the host's or
  an invitation's link is refused.
* **One seat's information only.** ``coach.hint`` searches from the seat's own
  observation, as the table's bots do; its seed is the position's version and the seat,
  never the table's seed, so the hint is a function of what the seat knows.
* **Announced, not told.** The log says that the seat asked (``table.event.hint``), to
  everyone; what the coach said goes only to the one who asked, in the answer.
* **Cheap to ask again.** A decision's hint is computed once, in the bot pool (a worker
  process or thread, counted in the table's share of thinking like its bots' moves), and
  asking again at the same decision gives the same answer without a new search or a new
  announcement. HTTP writes are rate-limited per client (``--write-rate``).
* **Never in the way of a game (issue 36, item 1).** A hint search runs in a worker of its
  own (``TableManager.hint_scheduler``: one process at
  :data:`~pendragon.web.limits.HINT_NICE`, below the bots' workers, so it never holds a
  bot's worker nor takes a core a bot's move needs), at
  :data:`~pendragon.web.limits.PRIORITY_HINT`, and waits while its table has used its
  share of thinking time (the bots' and the hints' together); a table
  has one search at most (its decision's), which is cancelled when the decision passes (a
  queued search never starts; the asker gets ``stale_version``); and a client may have
  :attr:`~pendragon.web.limits.Limits.hints_per_client` searches queued or running at
  once (beyond: 429 ``hint_busy``).
"""

from __future__ import annotations

import asyncio
import logging
import pickle
from typing import Any

from pendragon.core.api import State
from pendragon.core.events import Event, Seat
from pendragon.web.access import HOST_ROLE, HUMAN, SEAT_ROLE, Access
from pendragon.web.coach_work import hint_in_worker, hint_json, hint_seed
from pendragon.web.errors import TableError
from pendragon.web.limits import PRIORITY_HINT, dumps_sharing
from pendragon.web.moves import TableMoves, checked_version
from pendragon.web.settings import HINT_ASKED, HINTS_EVENTS

log = logging.getLogger("pendragon.web")


class Hints(TableMoves):
    """The host's hint setting and a seat's request for a hint."""

    async def set_hints(self, access: Access, allowed: bool) -> None:
        """The host allows hints at this table, or turns them off; announced in the log
        (the same setting again changes nothing)."""
        if access.role != HOST_ROLE:
            raise TableError("forbidden", "only the host decides whether hints are allowed",
                             403)
        async with self.lock:
            self.refuse_if_over()
            await self._announce_hints(allowed)

    async def _announce_hints(self, allowed: bool) -> None:
        """Store and push the hint setting if it changes. Call with the lock held."""
        if allowed == self.hints_allowed:
            return
        await self._change_hands([], Event(HINTS_EVENTS[0 if allowed else 1], {}))
        self.push_state()

    async def allow_hints_at_creation(self) -> None:
        """The host chose "Allow hints" when he created the table (or it is the rematch of
        a table that allowed them)."""
        async with self.lock:
            await self._announce_hints(True)

    async def ask_hint(self, access: Access, version: object,
                       client: str | None = None) -> dict[str, Any]:
        """The coach's hint for the token's own seat at the decision of ``version``:
        ``{"version", "seat", "action", "action_text", "chance", "side", "reason",
        "alternatives", ...}`` (``coach.Hint.to_json``).

        Refused with nothing changed: ``forbidden`` (403: not a seat's link),
        ``hints_off``, ``game_over``, ``not_started``, ``stale_version``, ``bot_seat`` (a
        bot plays the seat now), ``not_your_turn`` (409), ``hint_busy`` (429: ``client``
        has as many searches under way as it may). ``stale_version`` also when the
        decision passes before its hint is found (the search is then cancelled).
        """
        if access.role != SEAT_ROLE or access.seat is None:
            raise TableError("forbidden", "only a seated player may ask for a hint, for his"
                             " own seat", 403)
        version = checked_version(version, "decide on")
        seat = access.seat
        async with self.lock:
            self.refuse_if_over()
            if not self.hints_allowed:
                raise TableError("hints_off", "the host does not allow hints at this table")
            if not self.started:
                raise TableError("not_started", "the game has not begun yet")
            if version != self.state.version:
                raise TableError("stale_version", f"the table is at version"
                                 f" {self.state.version}, not {version}")
            if self.seats[seat].controller != HUMAN:
                raise TableError("bot_seat", "a bot is playing this seat; take it back first")
            if self.state.current_player() != seat:
                raise TableError("not_your_turn", "a hint is for your own decision, at your"
                                 " turn")
            key = (version, seat)
            if self.hint_job is None or self.hint_job[0] != key or self.hint_job[1].cancelled():
                searches = self.manager.hint_searches
                cap = self.manager.settings.limits.hints_per_client
                if client is not None and cap > 0 and searches.get(client, 0) >= cap:
                    raise TableError("hint_busy", "your earlier hints are still being"
                                     " searched; ask again when they are found", 429)
                # Announced once per decision, before the search: the table learns that the
                # seat asked, never what it was told.
                await self._change_hands([], Event(HINT_ASKED, {"seat": Seat(seat)}))
                self.push_state()
                task = asyncio.get_running_loop().create_task(self._search_hint(self.state,
                                                                                seat))
                if client is not None:
                    searches[client] = searches.get(client, 0) + 1
                    task.add_done_callback(lambda _done: _release(searches, client))
                self.hint_job = (key, task)
            task = self.hint_job[1]
        try:
            found = await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.cancelled():
                raise  # the request itself was cancelled (its client went away)
            raise TableError("stale_version", "the decision passed before its hint was"
                             " found") from None
        except Exception:
            log.exception("table %s: the hint for seat %d failed", self.table_id, seat)
            if self.hint_job is not None and self.hint_job[1] is task:
                self.hint_job = None  # asked again, it is searched again
            raise TableError("hint_failed", "the coach could not find a hint; try again",
                             503) from None
        return {"version": version, **found}

    async def _search_hint(self, state: State, seat: int) -> dict[str, Any]:
        """``coach.hint`` for ``seat`` in ``state`` in the bot pool (below every bot turn),
        counted in this table's share of thinking time."""
        budget = self.manager.settings.hint_budget
        seed = hint_seed(state, seat)
        scheduler = self.manager.hint_scheduler
        if scheduler.processes:
            game = pickle.dumps(state.game, protocol=pickle.HIGHEST_PROTOCOL)
            payload = dumps_sharing(state, state.game)
            result: dict[str, Any] = await scheduler.run(
                self.table_id, PRIORITY_HINT, hint_in_worker, game, payload, seat, budget,
                seed)
            return result
        found: dict[str, Any] = await scheduler.run(self.table_id, PRIORITY_HINT, hint_json,
                                                    state, seat, budget, seed)
        return found


def _release(searches: dict[str, int], client: str) -> None:
    """One of ``client``'s hint searches ended (found, failed or cancelled)."""
    left = searches.get(client, 0) - 1
    if left > 0:
        searches[client] = left
    else:
        searches.pop(client, None)
