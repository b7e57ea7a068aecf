"""Alembic's environment: the revisions run on the connection handed over by
`migrations.upgrade` or `migrations.draft` (there is no alembic.ini)."""

from __future__ import annotations

from alembic import context

from eixample.server.db import Base
from eixample.server.ratings import RatingsBase
from eixample.server.table import TableBase

target_metadata = [Base.metadata, TableBase.metadata, RatingsBase.metadata]
"""Every table the code maps: what `draft` compares the newest revision with."""


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("the migrations run through eixample.server.migrations (upgrade, draft)")
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


main()
