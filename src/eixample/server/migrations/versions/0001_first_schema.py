"""The schema of the first release with migrations: games, seats, actions, bot leases, the tables
around games and their chat lines.

From an empty database it creates everything. A database made by an earlier release (no
alembic_version table) keeps its rows: the tables it lacks are created and the columns added
since the first release (a shown seed, the creator's token, hints, seat claims) are added to
it, as the earlier releases did at start.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

schema = sa.MetaData()
"""The tables as of this revision (later revisions change them by their own operations)."""

sa.Table(
    "games", schema,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("move_count", sa.Integer, nullable=False),
    sa.Column("to_move", sa.Integer, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seed_shown", sa.Boolean, nullable=False),
    sa.Column("creator_hash", sa.String(64), nullable=True),
    sa.Column("hints_allowed", sa.Boolean, nullable=False),
)
sa.Table(
    "seats", schema,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("bot", sa.String(128), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True, index=True),
    sa.Column("joined", sa.Boolean, nullable=False),
    sa.Column("claim_hash", sa.String(64), nullable=True),
)
sa.Table(
    "actions", schema,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(512), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
sa.Table(
    "bot_leases", schema,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("holder", sa.String(64), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
)
sa.Table(
    "game_tables", schema,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("clock_seconds", sa.Integer, nullable=True),
    sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
    sa.Column("deadline_move", sa.Integer, nullable=True),
    sa.Column("stand_ins", sa.JSON, nullable=False),
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Column("rematch_key", sa.String(64), nullable=True),
)
sa.Table(
    "chat_lines", schema,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("text", sa.String(2000), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)

EARLIER_RELEASES_LACKED: dict[str, dict[str, sa.Column[object]]] = {
    "games": {
        "seed_shown": sa.Column("seed_shown", sa.Boolean, nullable=True, server_default=sa.false()),
        "creator_hash": sa.Column("creator_hash", sa.String(64), nullable=True),
        "hints_allowed": sa.Column("hints_allowed", sa.Boolean, nullable=True, server_default=sa.false()),
    },
    "seats": {"claim_hash": sa.Column("claim_hash", sa.String(64), nullable=True)},
}
"""Columns of this revision that a database of an earlier release may lack, as those releases added
them on start (nullable, with a default for the flags: existing rows read as false)."""


def upgrade() -> None:
    bind = op.get_bind()
    schema.create_all(bind, checkfirst=True)
    inspector = sa.inspect(bind)
    for table, columns in EARLIER_RELEASES_LACKED.items():
        present = {column["name"] for column in inspector.get_columns(table)}
        for name, column in columns.items():
            if name not in present:
                op.add_column(table, column)


def downgrade() -> None:
    raise NotImplementedError("the first revision is not taken back: restore a backup instead")
