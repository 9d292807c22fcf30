"""The asynchronous face of :class:`~pendragon.web.storage.Storage`: one writer.

Every write goes through :meth:`AsyncStore.write` (on SQLite on the event loop itself, on
PostgreSQL in the database thread), so two writes of this process never race; reads run
in one dedicated thread, so the event loop never waits on them.
Writes that arrive while a transaction is being committed are gathered and committed
together in the next one ("group commit"): under load, many tables' moves share one
commit, and each caller still resumes only once its own write is durable.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pendragon.web.storage import (
    AddChat,
    AddSeat,
    AppendActions,
    ChatRecord,
    CreateTable,
    LobbyEntry,
    PutSeat,
    SeatRecord,
    Storage,
    TableHands,
    TableRecord,
    WriteOp,
)

R = TypeVar("R")


class AsyncStore:
    """Storage calls as coroutines, with batched writes."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pendragon-db")
        self._pending: list[tuple[WriteOp, asyncio.Future[Any]]] = []
        self._flushing = False
        #: Write on the event loop itself (see :class:`AsyncStore`).
        self.inline_writes = storage.is_sqlite
        #: Number of transactions committed and of writes in them (for the benchmark).
        self.commits = 0
        self.writes = 0

    async def _call(self, function: Callable[..., R], *args: Any) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, *args)

    async def write(self, op: WriteOp) -> Any:
        """Commit ``op`` (batched with concurrent writes); raise what it raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((op, future))
        if not self._flushing:
            self._flushing = True
            loop.create_task(self._flush())
        result = await future
        if isinstance(result, BaseException):
            raise result
        return result

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    if self.inline_writes:
                        results = self.storage.write_batch([op for op, _ in batch])
                    else:
                        results = await self._call(
                            self.storage.write_batch, [op for op, _ in batch]
                        )
                except Exception as error:  # the whole transaction failed
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                self.commits += 1
                self.writes += len(batch)
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
        finally:
            self._flushing = False

    async def append(self, op: AppendActions) -> None:
        """Append actions to a table's log (``StaleLogError`` if another writer won)."""
        await self.write(op)

    async def join(self, append: AppendActions, record: SeatRecord) -> None:
        """Store a newcomer's seat and the actions that seated him, atomically."""
        await self.write(AddSeat(append, record))

    async def put_seat(self, table_id: str, record: SeatRecord) -> None:
        """Store a seat's new controller, name or token."""
        await self.write(PutSeat(table_id, record))

    async def add_chat(self, op: AddChat) -> int:
        """Store a chat line; returns its id."""
        result = await self.write(op)
        return int(result)

    async def create_table(self, record: TableRecord) -> None:
        """Store a new table (through the one writer: on SQLite no two writes ever race,
        issue 36 item 3)."""
        await self.write(CreateTable(record))

    async def load_table(self, table_id: str) -> TableRecord | None:
        """A table's record and log."""
        return await self._call(self.storage.load_table, table_id)

    async def load_seats(self, table_id: str) -> tuple[SeatRecord, ...]:
        """A table's seats as stored now."""
        return await self._call(self.storage.load_seats, table_id)

    async def load_hands(self, table_id: str, after_notice: int) -> TableHands:
        """A table's seats and passes as stored now, and its notices after ``after_notice``."""
        return await self._call(self.storage.load_hands, table_id, after_notice)

    async def actions_since(self, table_id: str, start: int) -> list[int]:
        """A table's actions from ``start`` on."""
        return await self._call(self.storage.actions_since, table_id, start)

    async def chat_since(self, table_id: str, after_id: int, limit: int) -> list[ChatRecord]:
        """Chat lines after ``after_id`` (the last ``limit``)."""
        return await self._call(self.storage.chat_since, table_id, after_id, limit)

    async def listed_tables(self, limit: int) -> list[LobbyEntry]:
        """The newest listed tables whose game is not over (the lobby's list)."""
        return await self._call(self.storage.listed_tables, limit)

    async def load_lobby(self, table_id: str) -> dict[str, Any]:
        """A table's lobby facts as stored now (rematch, opened seats, timeouts...)."""
        return await self._call(self.storage.load_lobby, table_id)

    async def unfinished_table_ids(self) -> list[str]:
        """Tables whose game is not over."""
        return await self._call(self.storage.unfinished_table_ids)

    async def close(self) -> None:
        """Finish pending writes and release the database."""
        while self._flushing or self._pending:
            await asyncio.sleep(0.01)
        await self._call(self.storage.close)
        self._executor.shutdown(wait=True)
