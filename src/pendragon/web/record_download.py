"""The record of a finished web game (``GET /api/replay/record``; the format:
``docs/records.md``).

It shows what the replay of the finished game shows and, of what nobody saw, only the
chance outcomes the game needs to be replayed (Morgans set aside, clover tokens never
turned: the record's ruling in ``docs/records.md``); never the seed. Seats carry the names
people chose, and the bot of each seat no person owns.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pendragon.records import RecordSeat, dumps, record_of
from pendragon.web.table_core import TableCore


def record_text(table: TableCore) -> str:
    """The record file of ``table``'s game (finished: the route checks it)."""
    seats = []
    for seat in table.seats:
        # A seat a person owns is his even if a bot finished the game for him.
        bot = seat.bot if seat.token_hash is None and seat.bot else None
        # An unnamed seat is named as the terminal names it: after its bot, else its number.
        seats.append(RecordSeat(seat.name or bot or f"Seat {seat.seat}", bot))
    date = datetime.fromtimestamp(table.created_at, UTC).replace(microsecond=0)
    record = record_of(table.state, seats, withhold_seed=True,
                       date=date.isoformat().replace("+00:00", "Z"))
    return dumps(record)


def file_name(table: TableCore) -> str:
    """The download's file name: ``<game>-<table id>.json``."""
    safe = "".join(c for c in table.table_id if c.isalnum() or c in "-_")[:40]
    return f"{table.game_name}-{safe}.json"
