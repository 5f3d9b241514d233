"""Alembic environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context

from citadels.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the alembic command line gets here
    from citadels.server.storage import make_engine

    url = context.config.get_main_option("sqlalchemy.url") or "sqlite:///citadels.sqlite3"
    with make_engine(url).begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
