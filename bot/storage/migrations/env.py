"""Alembic environment: always given a live connection by bot.storage.migrate."""

from alembic import context

from bot.storage.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
