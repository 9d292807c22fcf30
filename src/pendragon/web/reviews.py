"""The review of a finished game in the web replay (issue 31, item 3): ``coach.review`` of
a table's game, one at a time per server process, with its progress, kept in memory.

A review takes from seconds (a short Grail Cup race) to a minute or two of CPU (a
5-player Shadows over Camelot game), so it runs in a process of its own at a lower
priority (a thread when the server's bots think in threads), never on the event loop. While
it runs, :meth:`ReviewDesk.status` says how far it is (``{"state": "running", "done",
"total"}``). Reviews asked meanwhile wait in a queue, first come first served, each client
with one review at most running or waiting (another is refused with 429 ``review_busy``
until it is done), so one visitor reviewing game after game cannot keep others waiting
longer than one review (issue 36, item 4); a waiting review says so (``"queued"``: the
reviews before it). A full queue (:data:`REVIEW_QUEUE`) refuses with 503 ``review_busy``.
A finished review is kept in memory for
:data:`REVIEWS_KEPT` tables (it is not stored: the same game, seed and budget give the
same figures, so after a restart it is computed again).

Each reviewed move gets ``seconds``: how long its seat took, from the action log's time of
each write (the move's, less the previous action's; a bot's includes the table's pace).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
import queue as queue_module
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from pendragon.coach import Budget, budget_for
from pendragon.core.api import Game
from pendragon.web.coach_work import review_in_process, review_json
from pendragon.web.errors import TableError
from pendragon.web.settings import Settings
from pendragon.web.storage import Storage
from pendragon.web.storage_schema import actions_table

if TYPE_CHECKING:
    from pendragon.web.table_core import TableCore

log = logging.getLogger("pendragon.web")

#: Finished reviews kept in memory (the least recently asked are forgotten).
REVIEWS_KEPT = 64
#: Reviews that may wait for the one running (one per client at most).
REVIEW_QUEUE = 32
#: The review's seed: fixed, so the web's review of a game is the one ``pendragon review``
#: gives its downloaded record at the same budget.
REVIEW_SEED = 0


@dataclass
class ReviewJob:
    """A review under way: its table and how far it is."""

    table_id: str
    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = None
    process: Any = None
    #: Who asked (one review running or waiting per client), and the game to review.
    client: str | None = None
    game: Game | None = None
    actions: list[int] = field(default_factory=list)


class ReviewDesk:
    """The reviews of one server process: the one running, the ones done."""

    def __init__(self, settings: Settings, storage: Storage) -> None:
        self.settings = settings
        self.storage = storage
        self.done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.failed: dict[str, str] = {}
        self.running: ReviewJob | None = None
        #: Reviews waiting for the running one, first come first served.
        self.waiting: deque[ReviewJob] = deque()

    def budget(self, game: str, players: int | None = None) -> Budget:
        """The review's budget for ``game`` at ``players`` seats: the game's, or the
        server's ``review_budget`` simulated actions per decision."""
        chosen = budget_for(game, players)
        if self.settings.review_budget > 0:
            chosen = replace(chosen, actions=self.settings.review_budget)
        return chosen

    def status(self, table_id: str) -> dict[str, Any]:
        """``{"state": "done", "review"}``, ``{"state": "running", "done", "total"}``,
        ``{"state": "failed", "message"}`` or ``{"state": "none"}`` (never asked)."""
        if table_id in self.done:
            self.done.move_to_end(table_id)
            return {"state": "done", "review": self.done[table_id]}
        job = self.running
        if job is not None and job.table_id == table_id:
            return {"state": "running", "done": job.done, "total": job.total}
        for ahead, waiting in enumerate(self.waiting, start=1):
            if waiting.table_id == table_id:  # the page shows it as starting
                return {"state": "running", "done": 0, "total": 0, "queued": ahead}
        if table_id in self.failed:
            return {"state": "failed", "message": self.failed[table_id]}
        return {"state": "none"}

    def start(self, table: TableCore, client: str | None = None) -> dict[str, Any]:
        """Begin (or queue) the review of ``table``'s finished game unless it is done or
        under way; its status. ``review_busy``: 429 while ``client`` has another review
        running or waiting, 503 when :data:`REVIEW_QUEUE` reviews wait already."""
        status = self.status(table.table_id)
        if status["state"] in ("done", "running"):
            return status
        jobs = [self.running, *self.waiting] if self.running is not None else [*self.waiting]
        if client is not None and any(job.client == client for job in jobs):
            raise TableError("review_busy", "your other review is not done yet; ask for this"
                             " one once it is", 429)
        if len(self.waiting) >= REVIEW_QUEUE:
            raise TableError("review_busy", "too many reviews are waiting on this server;"
                             " try again in a minute", 503)
        self.failed.pop(table.table_id, None)
        self.waiting.append(ReviewJob(table.table_id, client=client, game=table.game,
                                      actions=list(table.state.history())))
        self._next()
        return self.status(table.table_id)

    def _next(self) -> None:
        """Start the first waiting review if none runs."""
        if self.running is not None or not self.waiting:
            return
        job = self.waiting.popleft()
        self.running = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))

    async def _run(self, job: ReviewJob) -> None:
        game, actions = job.game, job.actions
        assert game is not None
        try:
            budget = self.budget(game.name, game.num_players())
            if self.settings.bot_processes and self.settings.bot_threads > 0:
                found = await self._in_process(job, game, actions, budget)
            else:
                def progress(message: tuple[str, int, int]) -> None:
                    """Called in the review's thread after each decision."""
                    job.done, job.total = message[1], message[2]

                found = await asyncio.to_thread(review_json, game, actions, budget,
                                                REVIEW_SEED, progress)
            times = await asyncio.to_thread(action_times, self.storage, job.table_id)
            with_times(found, times)
            self.done[job.table_id] = found
            while len(self.done) > REVIEWS_KEPT:
                self.done.popitem(last=False)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.exception("the review of table %s failed", job.table_id)
            self.failed[job.table_id] = str(error) or type(error).__name__
        finally:
            if self.running is job:
                self.running = None
                self._next()

    async def _in_process(self, job: ReviewJob, game: Game, actions: list[int],
                          budget: Budget) -> dict[str, Any]:
        """The review in a process of its own; its progress read from a queue."""
        context = multiprocessing.get_context("spawn")
        messages = context.Queue()
        process = context.Process(
            target=review_in_process, name="pendragon-review", daemon=True,
            args=(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL), actions, budget,
                  REVIEW_SEED, messages))
        process.start()
        job.process = process
        try:
            while True:
                try:
                    message = await asyncio.to_thread(messages.get, True, 0.25)
                except queue_module.Empty:
                    if not process.is_alive():
                        raise RuntimeError("the review's process stopped") from None
                    continue
                if message[0] == "progress":
                    job.done, job.total = int(message[1]), int(message[2])
                elif message[0] == "done":
                    result: dict[str, Any] = message[1]
                    return result
                else:
                    raise RuntimeError(str(message[1]))
        finally:
            if process.is_alive():
                process.terminate()
            await asyncio.to_thread(process.join, 5.0)
            messages.close()

    async def close(self) -> None:
        """Stop the review under way and forget the waiting ones (the server stops)."""
        self.waiting.clear()
        job = self.running
        if job is None:
            return
        if job.process is not None and job.process.is_alive():
            job.process.terminate()
        if job.task is not None:
            job.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await job.task


def action_times(storage: Storage, table_id: str) -> list[float]:
    """When each action of the table's log was stored (seconds since the epoch), in order."""
    with storage.engine.connect() as conn:
        rows: Sequence[Any] = conn.execute(
            sa.select(actions_table.c.at)
            .where(actions_table.c.table_id == table_id)
            .order_by(actions_table.c.idx)
        ).scalars().all()
    return [float(at) for at in rows]


def with_times(found: dict[str, Any], times: Sequence[float]) -> None:
    """Give each reviewed move of ``found`` its ``seconds``: the time of its write less the
    previous action's (``None`` for the first action, or where the log has no time).

    >>> found = {"moves": [{"index": 0}, {"index": 2}, {"index": 9}]}
    >>> with_times(found, [10.0, 10.0, 13.5])
    >>> [m["seconds"] for m in found["moves"]], found["times"]
    ([None, 3.5, None], True)
    """
    for move in found["moves"]:
        index = move["index"]
        seconds = None
        if 0 < index < len(times):
            seconds = round(max(0.0, times[index] - times[index - 1]), 3)
        move["seconds"] = seconds
    found["times"] = bool(times)
