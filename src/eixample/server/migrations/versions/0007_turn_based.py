"""Turn-based games (days per move, what running out of time does) and the "your turn" notices
waiting to be sent.

Existing games are real time, as before; no notice is owed for a turn that began before.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("turn_days", sa.Integer, nullable=True))
    op.add_column("game_tables", sa.Column("time_out", sa.String(16), nullable=True))
    op.create_index("ix_game_tables_deadline", "game_tables", ["deadline"])  # the run-out turns' scan
    op.create_table(
        "turn_notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(32), nullable=True),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("game_id", "seat", "move", name="uq_turn_notices_turn"),
    )
    op.create_index("ix_turn_notices_state_due", "turn_notices", ["state", "due_at"])


def downgrade() -> None:
    raise NotImplementedError("a revision is not taken back: restore a backup instead")
