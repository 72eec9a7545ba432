"""llm calls: one row per LLM call (grading, rubric, second check) for the per-user and global budgets

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 17:40:00
"""
from alembic import op
import sqlalchemy as sa

import bot.storage.tables


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('llm_calls',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('tokens', sa.Integer(), nullable=False),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_llm_calls_user_created', 'llm_calls', ['user_id', 'created_at'], unique=False)
    op.create_index('ix_llm_calls_created', 'llm_calls', ['created_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_llm_calls_created', table_name='llm_calls')
    op.drop_index('ix_llm_calls_user_created', table_name='llm_calls')
    op.drop_table('llm_calls')
