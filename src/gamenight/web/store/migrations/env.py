"""Alembic's environment: migrate the connection the store hands over (``SqlStore`` runs this
inside its own transaction and lock); without one (a developer's ``alembic`` command), the
database at ``sqlalchemy.url``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from gamenight.web.store.sql import Base


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is not None:
    run(given)
else:
    engine = create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as connection:
        run(connection)
    engine.dispose()
