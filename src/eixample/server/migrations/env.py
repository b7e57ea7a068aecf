"""Alembic's environment: migrations run on the connection the server hands over
(`migrations.upgrade`); from the `alembic` command, on $DATABASE_URL."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from eixample.server.db import Base
from eixample.server.table import TableBase

target_metadata = [Base.metadata, TableBase.metadata]


def run_on(connection: object) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,  # type: ignore[arg-type]
                      render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    engine = create_engine(os.environ["DATABASE_URL"])
    with engine.begin() as own:
        run_on(own)


main()
