"""Event-sourced storage of tables: options, seed, seats, the action log and the chat.

A table is stored as what created it (game, options, seed) plus the log of every action
applied to it, chance outcomes included; its position is rebuilt by replaying the log. The
seats (who controls each, the hash of its token) and the chat are stored beside it.

Two back ends through SQLAlchemy Core: SQLite (the default, one server process) and
PostgreSQL (``postgresql://...``, for several server processes sharing one database). The
primary key ``(table_id, idx)`` of the action log makes an append that lost a race with
another process fail instead of forking the game (:class:`StaleLogError`); on PostgreSQL a
``NOTIFY`` after each write tells the other processes to catch up.

Everything here is synchronous and meant to run in one writer thread
(:class:`pendragon.web.store.AsyncStore`), which also batches concurrent writes into one
transaction ("group commit").

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "t.sqlite3")
>>> storage = Storage(f"sqlite:///{path}")
>>> storage.create_table(TableRecord("t1", "soc", {"players": 3}, 7, 0.0, "h",
...     (SeatRecord(0, "Ann", "human", None, "x"), SeatRecord(1, "", "bot", "random", None),
...      SeatRecord(2, "", "bot", "random", None)), (), False))
>>> storage.write_batch([AppendActions("t1", 0, (5, 6), (-1, -1), False)])
[None]
>>> storage.write_batch([AppendActions("t1", 0, (9,), (-1,), False)])[0].__class__.__name__
'StaleLogError'
>>> storage.load_table("t1").actions
(5, 6)
>>> storage.close()
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

#: PostgreSQL channel on which writers announce ``"<instance>:<table id>,<table id>..."``.
NOTIFY_CHANNEL = "pendragon_tables"

metadata = sa.MetaData()

tables_table = sa.Table(
    "pendragon_tables",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("spectator_hash", sa.String(64), nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    sa.Column("version", sa.Integer, nullable=False, default=0),
)

seats_table = sa.Table(
    "pendragon_seats",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("controller", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)

actions_table = sa.Table(
    "pendragon_actions",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("actor", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

chat_table = sa.Table(
    "pendragon_chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


class StorageError(RuntimeError):
    """The database refused or failed a write."""


class StaleLogError(StorageError):
    """An append whose first index is already taken: another writer moved the table on."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat: who controls it and the SHA-256 of its token (``None``: no token)."""

    seat: int
    name: str
    controller: str  # "human" or "bot"
    bot: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class ChatRecord:
    """One chat line; ``seat`` is ``None`` for a line of the table itself."""

    id: int
    seat: int | None
    name: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class TableRecord:
    """Everything that defines a table: its creation and its action log."""

    table_id: str
    game: str
    options: dict[str, Any]
    seed: int
    created_at: float
    spectator_hash: str
    seats: tuple[SeatRecord, ...]
    actions: tuple[int, ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class AppendActions:
    """Append ``actions`` (applied by ``actors``, -1 for chance) at index ``start``."""

    table_id: str
    start: int
    actions: Sequence[int]
    actors: Sequence[int]
    finished: bool


@dataclass(frozen=True, slots=True)
class PutSeat:
    """Replace one seat's record."""

    table_id: str
    record: SeatRecord


@dataclass(frozen=True, slots=True)
class AddSeat:
    """A newcomer's seat, with the log entries that seated him (one atomic write)."""

    append: AppendActions
    record: SeatRecord

    @property
    def table_id(self) -> str:
        """The table the seat belongs to."""
        return self.append.table_id


@dataclass(frozen=True, slots=True)
class AddChat:
    """Add one chat line; the write's result is the line's id."""

    table_id: str
    seat: int | None
    name: str
    text: str
    at: float


WriteOp = AppendActions | PutSeat | AddSeat | AddChat


def normalize_url(url: str) -> str:
    """Accept ``postgresql://`` / ``postgres://`` URLs and select the psycopg 3 driver.

    >>> normalize_url("postgresql://u:p@h/db")
    'postgresql+psycopg://u:p@h/db'
    >>> normalize_url("sqlite:///x.db")
    'sqlite:///x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def check_url(url: str) -> str:
    """``url`` normalised; ``ValueError`` if it names no supported database.

    >>> check_url("mysql://x")
    Traceback (most recent call last):
    ...
    ValueError: unsupported database URL 'mysql://x': use sqlite:///PATH or postgresql://...
    """
    normalized = normalize_url(url)
    if not (normalized.startswith("sqlite:") or normalized.startswith("postgresql+psycopg://")):
        raise ValueError(
            f"unsupported database URL {url!r}: use sqlite:///PATH or postgresql://..."
        )
    return normalized


class Storage:
    """Synchronous access to the tables' database (SQLite or PostgreSQL)."""

    def __init__(self, url: str, instance: str = "") -> None:
        self.url = check_url(url)
        #: Identifies this process in PostgreSQL notifications (so it ignores its own).
        self.instance = instance
        self.engine: Engine = sa.create_engine(self.url, future=True)
        if self.is_sqlite:
            _configure_sqlite(self.engine)
        metadata.create_all(self.engine)

    @property
    def is_sqlite(self) -> bool:
        """Whether the back end is SQLite."""
        return self.engine.dialect.name == "sqlite"

    @property
    def is_postgresql(self) -> bool:
        """Whether the back end is PostgreSQL."""
        return self.engine.dialect.name == "postgresql"

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def create_table(self, record: TableRecord) -> None:
        """Store a new table with its seats (and its log, if it has one)."""
        with self.engine.begin() as conn:
            conn.execute(
                tables_table.insert().values(
                    table_id=record.table_id,
                    game=record.game,
                    options=json.dumps(record.options, sort_keys=True),
                    seed=record.seed,
                    created_at=record.created_at,
                    spectator_hash=record.spectator_hash,
                    finished=record.finished,
                    version=len(record.actions),
                )
            )
            conn.execute(
                seats_table.insert(),
                [_seat_row(record.table_id, seat) for seat in record.seats],
            )
            if record.actions:
                now = time.time()
                conn.execute(
                    actions_table.insert(),
                    [
                        {"table_id": record.table_id, "idx": i, "action": a, "actor": -1,
                         "at": now}
                        for i, a in enumerate(record.actions)
                    ],
                )

    def write_batch(self, ops: Sequence[WriteOp]) -> list[Any]:
        """Apply ``ops`` in one transaction.

        Returns one result per op: ``None``, a chat line's id, or the exception that op
        raised (:class:`StaleLogError` for an append that lost a race); one failing op
        does not undo the others. A failure of the whole transaction raises.

        The usual batch (appends to distinct tables, no race) is written with three
        statements whatever its size; only if that fails is each op retried in its own
        savepoint, to find the ones that lost a race.
        """
        appends = [op for op in ops if isinstance(op, AppendActions) and op.actions]
        if appends and len({op.table_id for op in appends}) == len(appends):
            try:
                with self.engine.begin() as conn:
                    self._append_all(conn, appends)
                    results = [
                        None if isinstance(op, AppendActions) else self._write_isolated(conn, op)
                        for op in ops
                    ]
                    self._notify(conn, ops, results)
                return results
            except (IntegrityError, StaleLogError):
                pass  # someone else wrote to one of these tables: find out which
        with self.engine.begin() as conn:
            results = [self._write_isolated(conn, op) for op in ops]
            self._notify(conn, ops, results)
        return results

    def _write_isolated(self, conn: Connection, op: WriteOp) -> Any:
        try:
            with conn.begin_nested():
                return self._write(conn, op)
        except StorageError as error:
            return error
        except IntegrityError:
            return StaleLogError(f"table {op.table_id} has moved on")

    def _append_all(self, conn: Connection, appends: Sequence[AppendActions]) -> None:
        # The hot path of a busy server: plain driver statements, no SQL compilation; on
        # PostgreSQL multi-row statements, one round trip each.
        now = time.time()
        rows = [
            (op.table_id, op.start + i, action, actor, now)
            for op in appends
            for i, (action, actor) in enumerate(zip(op.actions, op.actors, strict=True))
        ]
        versions = [
            (op.table_id, op.start, op.start + len(op.actions), op.finished) for op in appends
        ]
        insert = f"INSERT INTO {actions_table.name} (table_id, idx, action, actor, at) VALUES "
        if self.is_sqlite:
            conn.exec_driver_sql(insert + "(?, ?, ?, ?, ?)", rows)
            conn.exec_driver_sql(
                f"UPDATE {tables_table.name} SET version = ?, finished = ?"
                " WHERE table_id = ? AND version = ?",
                [(new, finished, table_id, start) for table_id, start, new, finished in versions],
            )
            mark = "?"
        else:
            for first in range(0, len(rows), 2000):
                chunk = rows[first:first + 2000]
                conn.exec_driver_sql(
                    insert + ", ".join(["(%s, %s, %s, %s, %s)"] * len(chunk)),
                    tuple(value for row in chunk for value in row),
                )
            for first in range(0, len(versions), 2000):
                chunk_versions = versions[first:first + 2000]
                conn.exec_driver_sql(
                    f"UPDATE {tables_table.name} AS t SET version = v.new, finished = v.finished"
                    " FROM (VALUES "
                    + ", ".join(["(%s, %s::integer, %s::integer, %s::boolean)"]
                                * len(chunk_versions))
                    + ") AS v(table_id, start, new, finished)"
                    " WHERE t.table_id = v.table_id AND t.version = v.start",
                    tuple(value for row in chunk_versions for value in row),
                )
            mark = "%s"
        expected = {op.table_id: op.start + len(op.actions) for op in appends}
        found = {
            str(row[0]): int(row[1])
            for row in conn.exec_driver_sql(
                f"SELECT table_id, version FROM {tables_table.name}"
                f" WHERE table_id IN ({', '.join([mark] * len(expected))})",
                tuple(expected),
            ).all()
        }
        if found != expected:
            raise StaleLogError("a table has moved on")

    def _notify(self, conn: Connection, ops: Sequence[WriteOp], results: list[Any]) -> None:
        if not self.is_postgresql:
            return
        touched = sorted(
            {op.table_id for op, result in zip(ops, results, strict=True)
             if not isinstance(result, Exception)}
        )
        # One notification per few hundred tables (a payload holds up to 8000 bytes).
        for first in range(0, len(touched), 300):
            conn.execute(
                sa.text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL,
                 "payload": f"{self.instance}:{','.join(touched[first:first + 300])}"},
            )

    def _write(self, conn: Connection, op: WriteOp) -> Any:
        if isinstance(op, AppendActions):
            if not op.actions:
                return None
            now = time.time()
            conn.execute(
                actions_table.insert(),
                [
                    {"table_id": op.table_id, "idx": op.start + i, "action": action,
                     "actor": actor, "at": now}
                    for i, (action, actor) in enumerate(zip(op.actions, op.actors, strict=True))
                ],
            )
            updated = conn.execute(
                tables_table.update()
                .where(tables_table.c.table_id == op.table_id)
                .where(tables_table.c.version == op.start)
                .values(version=op.start + len(op.actions), finished=op.finished)
            )
            if updated.rowcount != 1:
                raise StaleLogError(f"table {op.table_id} has moved on")
            return None
        if isinstance(op, AddSeat):
            self._write(conn, op.append)
            conn.execute(seats_table.insert(), [_seat_row(op.table_id, op.record)])
            return None
        if isinstance(op, PutSeat):
            conn.execute(
                seats_table.update()
                .where(seats_table.c.table_id == op.table_id)
                .where(seats_table.c.seat == op.record.seat)
                .values(
                    name=op.record.name,
                    controller=op.record.controller,
                    bot=op.record.bot,
                    token_hash=op.record.token_hash,
                )
            )
            return None
        inserted = conn.execute(
            chat_table.insert().values(
                table_id=op.table_id, seat=op.seat, name=op.name, text=op.text, at=op.at
            )
        )
        key = inserted.inserted_primary_key
        return int(key[0]) if key is not None else None

    # ------------------------------------------------------------------ reads
    def load_table(self, table_id: str) -> TableRecord | None:
        """The table's record with its whole log, or ``None`` if there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(
                tables_table.select().where(tables_table.c.table_id == table_id)
            ).first()
            if row is None:
                return None
            seats = conn.execute(
                seats_table.select()
                .where(seats_table.c.table_id == table_id)
                .order_by(seats_table.c.seat)
            ).all()
            actions: Sequence[Any] = conn.execute(
                sa.select(actions_table.c.action)
                .where(actions_table.c.table_id == table_id)
                .order_by(actions_table.c.idx)
            ).scalars().all()
        return TableRecord(
            table_id=row.table_id,
            game=row.game,
            options=json.loads(row.options),
            seed=int(row.seed),
            created_at=float(row.created_at),
            spectator_hash=row.spectator_hash,
            seats=tuple(
                SeatRecord(s.seat, s.name, s.controller, s.bot, s.token_hash) for s in seats
            ),
            actions=tuple(int(a) for a in actions),
            finished=bool(row.finished),
        )

    def load_seats(self, table_id: str) -> tuple[SeatRecord, ...]:
        """The table's seats as stored now."""
        with self.engine.connect() as conn:
            seats = conn.execute(
                seats_table.select()
                .where(seats_table.c.table_id == table_id)
                .order_by(seats_table.c.seat)
            ).all()
        return tuple(SeatRecord(s.seat, s.name, s.controller, s.bot, s.token_hash) for s in seats)

    def actions_since(self, table_id: str, start: int) -> list[int]:
        """The table's actions from index ``start`` on."""
        with self.engine.connect() as conn:
            rows: Sequence[Any] = conn.execute(
                sa.select(actions_table.c.action)
                .where(actions_table.c.table_id == table_id)
                .where(actions_table.c.idx >= start)
                .order_by(actions_table.c.idx)
            ).scalars().all()
        return [int(a) for a in rows]

    def chat_since(self, table_id: str, after_id: int, limit: int) -> list[ChatRecord]:
        """Chat lines with an id above ``after_id``; the last ``limit`` of them."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                chat_table.select()
                .where(chat_table.c.table_id == table_id)
                .where(chat_table.c.id > after_id)
                .order_by(chat_table.c.id.desc())
                .limit(limit)
            ).all()
        return [ChatRecord(r.id, r.seat, r.name, r.text, float(r.at)) for r in reversed(rows)]

    def unfinished_table_ids(self) -> list[str]:
        """Ids of every table whose game is not over (resumed when a server starts)."""
        with self.engine.connect() as conn:
            rows: Sequence[Any] = conn.execute(
                sa.select(tables_table.c.table_id)
                .where(tables_table.c.finished == sa.false())
                .order_by(tables_table.c.created_at)
            ).scalars().all()
        return [str(r) for r in rows]

    # ------------------------------------------------------------------ notifications
    def listen(self, callback: Callable[[str], None], stop: threading.Event) -> None:
        """Call ``callback(table_id)`` for every write another process announces.

        Blocks until ``stop`` is set (run it in a thread). Only PostgreSQL has
        notifications; with SQLite (one process) it returns at once.
        """
        if not self.is_postgresql:
            return
        import psycopg

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            while not stop.is_set():
                for note in conn.notifies(timeout=0.5):
                    instance, _, table_ids = note.payload.partition(":")
                    if instance != self.instance:
                        for table_id in table_ids.split(","):
                            callback(table_id)
                    if stop.is_set():
                        break


def _seat_row(table_id: str, seat: SeatRecord) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": seat.seat,
        "name": seat.name,
        "controller": seat.controller,
        "bot": seat.bot,
        "token_hash": seat.token_hash,
    }


def _configure_sqlite(engine: Engine) -> None:
    # pysqlite's own transaction handling breaks SAVEPOINT; take it over (SQLAlchemy's
    # documented recipe). WAL lets readers run beside the writer; synchronous=NORMAL
    # keeps every committed move across a crash of the server process.
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")
