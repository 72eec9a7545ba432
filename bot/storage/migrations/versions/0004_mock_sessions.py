"""mock sessions: one row per mock interview (its plan, answers and summary as JSON); one running per user

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 04:00:00
"""
from alembic import op
import sqlalchemy as sa

import bot.storage.tables


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('mock_sessions',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.Column('finished_at', bot.storage.tables.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_mock_sessions_user_created', 'mock_sessions', ['user_id', 'created_at'], unique=False)
    op.create_index(
        'ux_mock_sessions_running', 'mock_sessions', ['user_id'], unique=True,
        sqlite_where=sa.text("state = 'running'"), postgresql_where=sa.text("state = 'running'"),
    )


def downgrade() -> None:
    op.drop_index('ux_mock_sessions_running', table_name='mock_sessions')
    op.drop_index('ix_mock_sessions_user_created', table_name='mock_sessions')
    op.drop_table('mock_sessions')
