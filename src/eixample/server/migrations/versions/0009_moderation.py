"""Moderation: the audit log of moderators' acts, players' reports, blocked address ranges, and
accounts' suspension.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.String(32), nullable=True),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("act", sa.String(32), nullable=False),
        sa.Column("target", sa.String(128), nullable=False),
        sa.Column("details", sa.JSON, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("line_id", sa.Integer, nullable=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("closed_by", sa.String(64), nullable=True),
    )
    op.create_index("ix_reports_game_id", "reports", ["game_id"])
    op.create_index("ix_reports_status", "reports", ["status"])
    op.create_table(
        "blocked_networks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("network", sa.String(64), nullable=False, unique=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
    )
    op.add_column("accounts", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("a revision is not taken back: restore a backup instead")
