"""The tables of the web table's database (SQLAlchemy Core), for
:mod:`pendragon.web.storage`: a table's record, its seats, its
action log, its lobby facts, its openings, its start, its timeouts, who may change its
seats' hands, its passes, its announcements and its chat."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

metadata = sa.MetaData()


def _of_table(name: str, *columns: sa.Column[Any]) -> sa.Table:
    """A table of facts about a game table, keyed by its ``table_id`` (first, or alone)."""
    return sa.Table(name, metadata, sa.Column("table_id", sa.String(32), primary_key=True),
                    *columns)


def _log_of_table(name: str, *columns: sa.Column[Any]) -> sa.Table:
    """A log a game table writes to (its lines numbered by ``id`` across every table, found
    by ``table_id``, each written ``at`` a time): ``columns`` in between."""
    return sa.Table(
        name,
        metadata,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False, index=True),
        *columns,
        sa.Column("at", sa.Float, nullable=False),
    )

tables_table = _of_table(
    "pendragon_tables",
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("spectator_hash", sa.String(64), nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False, default=False),
    sa.Column("version", sa.Integer, nullable=False, default=0),
)

seats_table = _of_table(
    "pendragon_seats",
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("controller", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)

actions_table = _of_table(
    "pendragon_actions",
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("actor", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

# Lobby, rematch and turn timers (issue 17, item 10). Tables of their own, so that a
# database made before them still loads: ``create_all`` adds them, and a table without a
# row here is private, untimed and has no rematch.
lobby_table = _of_table(
    "pendragon_table_lobby",
    sa.Column("listed", sa.Boolean, nullable=False, default=False),
    sa.Column("turn_timer", sa.Integer, nullable=False, default=0),
    sa.Column("rematch_of", sa.String(32), nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
)

#: A row per seat whose link has been opened (or which was taken from the lobby): such a
#: seat is never offered to a stranger again. The primary key makes a claim exclusive.
opened_seats_table = _of_table(
    "pendragon_seats_opened",
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

#: Issue 27, items 2 and 5: the seats the host left open to anyone (the only ones a listed
#: table offers in the lobby; a JSON list) and whether the game has begun (when everyone
#: seated has arrived, or the host started it: until then no bot moves and no turn timer
#: runs). A table without a row here is from before: no open seat, begun.
start_table = _of_table(
    "pendragon_table_start",
    sa.Column("open_seats", sa.Text, nullable=False, default="[]"),
    sa.Column("started", sa.Boolean, nullable=False, default=True),
)

#: The log indices of moves a bot played for a person whose turn timer ran out.
timeouts_table = _of_table(
    "pendragon_timeouts",
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
)

#: The table's host (SHA-256 of the host link's secret; ``None``: a table from before hosts)
#: and whether newcomers may join mid-game with the host's consent.
access_table = _of_table(
    "pendragon_table_access",
    sa.Column("host_hash", sa.String(64), nullable=True),
    sa.Column("join_mid_game", sa.Boolean, nullable=False, default=False),
)

#: The version of the game's rules the table is played under (``Game.rules_version``): a
#: server whose rules are of another version refuses the table rather than replay its moves
#: into another game. A table without a row here is from before: replayed as it stands.
rules_table = _of_table(
    "pendragon_table_rules",
    sa.Column("rules_version", sa.Integer, nullable=False),
)

#: Tokens of a table that are neither a seat's, the spectators' nor the host's: a seat
#: invitation (``seat_invite``, for ``seat``), a join invitation (``join_invite``), or the
#: token of a player who gave his seat up (``retired``: it may never take another seat).
passes_table = _of_table(
    "pendragon_passes",
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
)

#: The table's announcements of seats changing hands: an event (JSON) told to everyone,
#: placed in the log after ``version`` actions.
notices_table = _log_of_table(
    "pendragon_notices",
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("event", sa.Text, nullable=False),
)

chat_table = _log_of_table(
    "pendragon_chat",
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
)
