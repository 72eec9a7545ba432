"""ids never reused: every table with a surrogate id is AUTOINCREMENT on SQLite, so the ids of rows deleted by
/forget (the highest ones included) are never handed out again (issue #34 Medium 1). PostgreSQL's sequences never
go back: nothing to do there.

SQLite cannot add AUTOINCREMENT to a table in place: each table is rebuilt (copy, drop, rename) with its rows,
indexes and foreign keys. bot.storage.engine runs migrations with SQLite's foreign keys off (a dropped table's
rows would otherwise cascade to their children) and checks every reference before committing. The new counter
starts at each table's highest id now: ids deleted above it before this revision cannot be known.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07 12:00:00
"""
from alembic import op


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

# Parents before children, as a reader of the file would expect; the order does not matter with foreign keys off.
TABLES = (
    'users', 'cards', 'attempts', 'personal_questions', 'interviews', 'review_items', 'reminders', 'pushes',
    'llm_calls', 'transcriptions', 'mock_sessions', 'job_descriptions', 'notebook_entries', 'applications',
)


def _rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != 'sqlite':
        return
    for table in TABLES:
        with op.batch_alter_table(
            table, recreate='always', table_kwargs={'sqlite_autoincrement': autoincrement}
        ):
            pass


def upgrade() -> None:
    _rebuild(True)


def downgrade() -> None:
    _rebuild(False)
