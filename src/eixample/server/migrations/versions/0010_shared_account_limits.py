"""The account limits' token buckets, in the database so that every server process counts against
the same share (server/throttle.py).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "throttle_buckets",
        sa.Column("bucket", sa.String(96), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_throttle_buckets_at", "throttle_buckets", ["at"])


def downgrade() -> None:
    raise NotImplementedError("a revision is not taken back: restore a backup instead")
