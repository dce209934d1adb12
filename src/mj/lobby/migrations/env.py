"""Alembic's environment: migrations run on the connection :func:`mj.lobby.store.migrate` hands over."""

from __future__ import annotations

from alembic import context

from mj.lobby.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
