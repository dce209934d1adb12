"""Alembic's migrations of the lobby's database, run by :func:`mj.lobby.store.migrate` at start-up."""
