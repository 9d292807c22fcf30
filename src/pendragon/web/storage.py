"""Event-sourced storage of tables: options, seed, seats, the action log and the chat.

A table is stored as what created it (game, options, seed) plus the log of every action
applied to it, chance outcomes included; its position is rebuilt by replaying the log. The
seats (who controls each, the hash of its owner's token) and the chat are stored beside it,
and so is who may change a seat's hands: the host's token, the table's join option, the
invitations the host issued and the tokens that gave their seat up
(``pendragon_table_access``, ``pendragon_passes``), with the table's announcements of every
change of hands (``pendragon_notices``). A database made by an older version gets these
three tables at start (``create_all``); its tables then have no host and joining off.

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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from pendragon.web.storage_schema import (
    access_table,
    actions_table,
    chat_table,
    lobby_table,
    metadata,
    notices_table,
    opened_seats_table,
    passes_table,
    rules_table,
    seats_table,
    start_table,
    tables_table,
    timeouts_table,
)

#: PostgreSQL channel on which writers announce ``"<instance>:<table id>,<table id>..."``.
NOTIFY_CHANNEL = "pendragon_tables"


class StorageError(RuntimeError):
    """The database refused or failed a write."""


class StaleLogError(StorageError):
    """An append whose first index is already taken: another writer moved the table on."""


class SeatClaimedError(StorageError):
    """A seat offered in the lobby had already been opened (by its link or another claim)."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat: who controls it and the SHA-256 of its token (``None``: no token)."""

    seat: int
    name: str
    controller: str  # "human" or "bot"
    bot: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class PassRecord:
    """A token that is no seat's, the spectators' or the host's (see ``passes_table``)."""

    token_hash: str
    kind: str  # "seat_invite", "join_invite" or "retired"
    seat: int | None


@dataclass(frozen=True, slots=True)
class NoticeRecord:
    """An announcement to the table (an event's JSON) after ``version`` actions."""

    id: int
    version: int
    event: dict[str, Any]
    at: float


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
    #: Shown in the lobby's list of open tables (otherwise reached by its links only).
    listed: bool = False
    #: Seconds a person has for each decision (0: no timer).
    turn_timer: int = 0
    #: The finished table this one is the rematch of, and this one's own rematch.
    rematch_of: str | None = None
    rematch: str | None = None
    #: Seats whose link has been opened (never offered in the lobby).
    opened: frozenset[int] = frozenset()
    #: Seats the host left open to anyone: the only ones the lobby may offer.
    open_seats: frozenset[int] = frozenset()
    #: Whether the game has begun (everyone seated arrived, or the host started it).
    started: bool = True
    #: ``(log index, seat)`` of every move a bot played when a person's time ran out.
    timeouts: tuple[tuple[int, int], ...] = ()
    #: SHA-256 of the host link's secret (``None``: no host, a table from an older version).
    host_hash: str | None = None
    #: Whether newcomers may join mid-game (with the host's consent).
    join_mid_game: bool = False
    #: Invitations pending and tokens retired (see ``passes_table``).
    passes: tuple[PassRecord, ...] = ()
    #: The announcements of seats changing hands, oldest first.
    notices: tuple[NoticeRecord, ...] = ()
    #: The version of the game's rules the table is played under (``Game.rules_version``;
    #: ``None``: a table stored before tables named it).
    rules_version: int | None = None


@dataclass(frozen=True, slots=True)
class TableHands:
    """Who holds what at a table, as stored now (read by other server processes)."""

    seats: tuple[SeatRecord, ...]
    passes: tuple[PassRecord, ...]
    notices: tuple[NoticeRecord, ...]


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """A listed table as the lobby's list shows it (from the database, not from memory)."""

    table_id: str
    game: str
    options: dict[str, Any]
    created_at: float
    turn_timer: int
    seats: tuple[SeatRecord, ...]
    opened: frozenset[int]
    open_seats: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class TableWrite:
    """A write to the stored facts of the table ``table_id`` (the base of most writes)."""

    table_id: str


@dataclass(frozen=True, slots=True)
class AppendActions(TableWrite):
    """Append ``actions`` (applied by ``actors``, -1 for chance) at index ``start``."""

    start: int
    actions: Sequence[int]
    actors: Sequence[int]
    finished: bool


@dataclass(frozen=True, slots=True)
class PutSeat(TableWrite):
    """Replace one seat's record."""

    record: SeatRecord


@dataclass(frozen=True, slots=True)
class ChangeHands(TableWrite):
    """Seats changing hands, in one atomic write: the seats' new records, passes issued
    and withdrawn (by token hash), and the announcement told to the table (an event's JSON,
    after ``version`` actions). The write's result is the notice's id (``None``: none)."""

    seats: tuple[SeatRecord, ...] = ()
    add_passes: tuple[PassRecord, ...] = ()
    drop_passes: tuple[str, ...] = ()
    notice: dict[str, Any] | None = None
    version: int = 0
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class _WithAppend:
    """A write that appends to a table's log and records more facts in the same
    transaction."""

    append: AppendActions

    @property
    def table_id(self) -> str:
        """The table written to."""
        return self.append.table_id


@dataclass(frozen=True, slots=True)
class AddSeat(_WithAppend):
    """A newcomer's seat, with the log entries that seated him (one atomic write), and
    the passes and announcement of his arrival (``change``, whose seats are ignored)."""

    record: SeatRecord
    change: ChangeHands | None = None


@dataclass(frozen=True, slots=True)
class ClaimSeat(TableWrite):
    """A seat is opened: its link used for the first time, or taken from the lobby (then
    with its new ``record``). Fails with :class:`SeatClaimedError` if it was opened before."""

    seat: int
    record: SeatRecord | None = None


@dataclass(frozen=True, slots=True)
class TimedOutMove(_WithAppend):
    """A move a bot played because ``seat``'s time ran out: the append and the note, at once."""

    seat: int


@dataclass(frozen=True, slots=True)
class SetRematch(TableWrite):
    """Record the rematch ``rematch`` of the finished table ``table_id``."""

    rematch: str


@dataclass(frozen=True, slots=True)
class StartTable(TableWrite):
    """The game of ``table_id`` begins (issue 27, item 5)."""


@dataclass(frozen=True, slots=True)
class AddChat(TableWrite):
    """Add one chat line; the write's result is the line's id."""

    seat: int | None
    name: str
    text: str
    at: float


@dataclass(frozen=True, slots=True)
class CreateTable:
    """Store a new table (through the one writer, like every other write)."""

    record: TableRecord

    @property
    def table_id(self) -> str:
        """The new table."""
        return self.record.table_id


WriteOp = (
    AppendActions | PutSeat | AddSeat | AddChat | ChangeHands | ClaimSeat | TimedOutMove
    | SetRematch | StartTable | CreateTable
)


def _open_seats(stored: str | None) -> frozenset[int]:
    """The open seats of a ``start_table`` row (none for a table without a row)."""
    if not stored:
        return frozenset()
    return frozenset(int(seat) for seat in json.loads(stored))


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
    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction: on SQLite ``BEGIN IMMEDIATE``, which takes the write lock at
        once (waiting up to the busy timeout for another writer), so that a transaction
        that reads before it writes can never fail with "database is locked" at its first
        write, as a deferred one does when another connection committed meanwhile."""
        with self.engine.connect() as conn:
            conn.execution_options(pendragon_write=True)
            with conn.begin():
                yield conn

    def create_table(self, record: TableRecord) -> None:
        """Store a new table with its seats (and its log, if it has one)."""
        with self._writing() as conn:
            self._create(conn, record)

    def _create(self, conn: Connection, record: TableRecord) -> None:
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
        conn.execute(
            lobby_table.insert().values(
                table_id=record.table_id,
                listed=record.listed,
                turn_timer=record.turn_timer,
                rematch_of=record.rematch_of,
                rematch=record.rematch,
            )
        )
        conn.execute(
            access_table.insert().values(
                table_id=record.table_id,
                host_hash=record.host_hash,
                join_mid_game=record.join_mid_game,
            )
        )
        conn.execute(
            start_table.insert().values(
                table_id=record.table_id,
                open_seats=json.dumps(sorted(record.open_seats)),
                started=record.started,
            )
        )
        if record.rules_version is not None:
            conn.execute(rules_table.insert().values(table_id=record.table_id,
                                                     rules_version=record.rules_version))
        if record.passes:
            conn.execute(
                passes_table.insert(),
                [_pass_row(record.table_id, p) for p in record.passes],
            )
        if record.opened:
            now = time.time()
            conn.execute(
                opened_seats_table.insert(),
                [{"table_id": record.table_id, "seat": seat, "at": now}
                 for seat in sorted(record.opened)],
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
                with self._writing() as conn:
                    self._append_all(conn, appends)
                    results = [
                        None if isinstance(op, AppendActions) else self._write_isolated(conn, op)
                        for op in ops
                    ]
                    self._notify(conn, ops, results)
                return results
            except (IntegrityError, StaleLogError):
                pass  # someone else wrote to one of these tables: find out which
        with self._writing() as conn:
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
        if isinstance(op, ClaimSeat):
            return self._claim_seat(conn, op)
        if isinstance(op, CreateTable):
            self._create(conn, op.record)
            return None
        if isinstance(op, TimedOutMove):
            self._write(conn, op.append)
            conn.execute(timeouts_table.insert().values(
                table_id=op.table_id, idx=op.append.start, seat=op.seat))
            return None
        if isinstance(op, SetRematch):
            self._put_lobby(conn, op.table_id, rematch=op.rematch)
            return None
        if isinstance(op, StartTable):
            conn.execute(start_table.update().where(start_table.c.table_id == op.table_id)
                         .values(started=True))
            return None
        if isinstance(op, AddSeat):
            self._write(conn, op.append)
            conn.execute(seats_table.insert(), [_seat_row(op.table_id, op.record)])
            if op.change is not None:
                return self._change_hands(conn, op.change)
            return None
        if isinstance(op, PutSeat):
            self._put_seat(conn, op.table_id, op.record)
            return None
        if isinstance(op, ChangeHands):
            for record in op.seats:
                self._put_seat(conn, op.table_id, record)
            return self._change_hands(conn, op)
        inserted = conn.execute(
            chat_table.insert().values(
                table_id=op.table_id, seat=op.seat, name=op.name, text=op.text, at=op.at
            )
        )
        key = inserted.inserted_primary_key
        return int(key[0]) if key is not None else None

    def _claim_seat(self, conn: Connection, op: ClaimSeat) -> None:
        taken = conn.execute(
            sa.select(opened_seats_table.c.seat)
            .where(opened_seats_table.c.table_id == op.table_id)
            .where(opened_seats_table.c.seat == op.seat)
        ).first()
        if taken is not None:
            raise SeatClaimedError(f"seat {op.seat} of table {op.table_id} was opened before")
        try:
            # Two processes claiming at once: the primary key lets one of them through.
            conn.execute(opened_seats_table.insert().values(
                table_id=op.table_id, seat=op.seat, at=time.time()))
        except IntegrityError:
            raise SeatClaimedError(
                f"seat {op.seat} of table {op.table_id} was opened before") from None
        if op.record is not None:
            self._write(conn, PutSeat(op.table_id, op.record))

    def _put_lobby(self, conn: Connection, table_id: str, **values: Any) -> None:
        updated = conn.execute(
            lobby_table.update().where(lobby_table.c.table_id == table_id).values(**values)
        )
        if updated.rowcount == 0:  # a table made before the lobby existed
            conn.execute(lobby_table.insert().values(
                table_id=table_id, listed=False, turn_timer=0, **values))

    def _put_seat(self, conn: Connection, table_id: str, record: SeatRecord) -> None:
        conn.execute(
            seats_table.update()
            .where(seats_table.c.table_id == table_id)
            .where(seats_table.c.seat == record.seat)
            .values(
                name=record.name,
                controller=record.controller,
                bot=record.bot,
                token_hash=record.token_hash,
            )
        )

    def _change_hands(self, conn: Connection, op: ChangeHands) -> int | None:
        """Passes and notice of ``op`` (its seats are written by the caller)."""
        if op.drop_passes:
            conn.execute(
                passes_table.delete()
                .where(passes_table.c.table_id == op.table_id)
                .where(passes_table.c.token_hash.in_(op.drop_passes))
            )
        if op.add_passes:
            conn.execute(passes_table.insert(),
                         [_pass_row(op.table_id, p) for p in op.add_passes])
        if op.notice is None:
            return None
        inserted = conn.execute(
            notices_table.insert().values(
                table_id=op.table_id, version=op.version,
                event=json.dumps(op.notice, sort_keys=True), at=op.at,
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
            lobby = self._load_lobby(conn, table_id)
            access = conn.execute(
                access_table.select().where(access_table.c.table_id == table_id)
            ).first()
            passes = self._passes(conn, table_id)
            notices = self._notices(conn, table_id, 0)
            rules = conn.execute(
                sa.select(rules_table.c.rules_version).where(rules_table.c.table_id == table_id)
            ).scalar()
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
            **lobby,
            host_hash=access.host_hash if access is not None else None,
            join_mid_game=bool(access.join_mid_game) if access is not None else False,
            passes=passes,
            notices=notices,
            rules_version=None if rules is None else int(rules),
        )

    def load_hands(self, table_id: str, after_notice: int) -> TableHands:
        """The table's seats and passes as stored now, and its notices after id
        ``after_notice`` (for another server process catching up)."""
        with self.engine.connect() as conn:
            passes = self._passes(conn, table_id)
            notices = self._notices(conn, table_id, after_notice)
        return TableHands(self.load_seats(table_id), passes, notices)

    @staticmethod
    def _passes(conn: Connection, table_id: str) -> tuple[PassRecord, ...]:
        rows = conn.execute(
            passes_table.select().where(passes_table.c.table_id == table_id)
        ).all()
        return tuple(PassRecord(r.token_hash, r.kind, r.seat) for r in rows)

    @staticmethod
    def _notices(conn: Connection, table_id: str, after: int) -> tuple[NoticeRecord, ...]:
        rows = conn.execute(
            notices_table.select()
            .where(notices_table.c.table_id == table_id)
            .where(notices_table.c.id > after)
            .order_by(notices_table.c.id)
        ).all()
        return tuple(
            NoticeRecord(int(r.id), int(r.version), json.loads(r.event), float(r.at))
            for r in rows
        )

    def load_lobby(self, table_id: str) -> dict[str, Any]:
        """The table's lobby facts as :class:`TableRecord` fields (``listed``,
        ``turn_timer``, ``rematch_of``, ``rematch``, ``opened``, ``timeouts``)."""
        with self.engine.connect() as conn:
            return self._load_lobby(conn, table_id)

    def _load_lobby(self, conn: Connection, table_id: str) -> dict[str, Any]:
        row = conn.execute(
            lobby_table.select().where(lobby_table.c.table_id == table_id)
        ).first()
        opened: Sequence[Any] = conn.execute(
            sa.select(opened_seats_table.c.seat)
            .where(opened_seats_table.c.table_id == table_id)
        ).scalars().all()
        start = conn.execute(
            start_table.select().where(start_table.c.table_id == table_id)
        ).first()
        timeouts = conn.execute(
            sa.select(timeouts_table.c.idx, timeouts_table.c.seat)
            .where(timeouts_table.c.table_id == table_id)
            .order_by(timeouts_table.c.idx)
        ).all()
        return {
            "listed": bool(row.listed) if row is not None else False,
            "turn_timer": int(row.turn_timer) if row is not None else 0,
            "rematch_of": row.rematch_of if row is not None else None,
            "rematch": row.rematch if row is not None else None,
            "opened": frozenset(int(s) for s in opened),
            "open_seats": _open_seats(start.open_seats if start is not None else None),
            "started": bool(start.started) if start is not None else True,
            "timeouts": tuple((int(r.idx), int(r.seat)) for r in timeouts),
        }

    def listed_tables(self, limit: int) -> list[LobbyEntry]:
        """The newest ``limit`` listed tables whose game is not over, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_table.c.table_id, tables_table.c.game,
                          tables_table.c.options, tables_table.c.created_at,
                          lobby_table.c.turn_timer, start_table.c.open_seats)
                .join(lobby_table, lobby_table.c.table_id == tables_table.c.table_id)
                .outerjoin(start_table, start_table.c.table_id == tables_table.c.table_id)
                .where(lobby_table.c.listed == sa.true())
                .where(tables_table.c.finished == sa.false())
                .order_by(tables_table.c.created_at.desc())
                .limit(limit)
            ).all()
            ids = [r.table_id for r in rows]
            if not ids:
                return []
            seats: dict[str, list[SeatRecord]] = {i: [] for i in ids}
            for s in conn.execute(
                seats_table.select().where(seats_table.c.table_id.in_(ids))
                .order_by(seats_table.c.table_id, seats_table.c.seat)
            ).all():
                seats[s.table_id].append(
                    SeatRecord(s.seat, s.name, s.controller, s.bot, s.token_hash))
            opened: dict[str, set[int]] = {i: set() for i in ids}
            for o in conn.execute(
                sa.select(opened_seats_table.c.table_id, opened_seats_table.c.seat)
                .where(opened_seats_table.c.table_id.in_(ids))
            ).all():
                opened[o.table_id].add(int(o.seat))
        return [
            LobbyEntry(r.table_id, r.game, json.loads(r.options), float(r.created_at),
                       int(r.turn_timer), tuple(seats[r.table_id]),
                       frozenset(opened[r.table_id]), _open_seats(r.open_seats))
            for r in rows
        ]

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


def _pass_row(table_id: str, record: PassRecord) -> dict[str, Any]:
    return {"table_id": table_id, "token_hash": record.token_hash, "kind": record.kind,
            "seat": record.seat}


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
        # Reads begin deferred (WAL: they never wait for the writer); writes take the
        # write lock at once (Storage._writing).
        writing = conn.get_execution_options().get("pendragon_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")
