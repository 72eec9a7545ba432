"""scheduling and study servers

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 19:26:57.146650
"""
from alembic import op
import sqlalchemy as sa

import bot.storage.tables


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('guilds',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('channel_id', sa.String(length=32), nullable=False),
    sa.Column('daily_time', sa.String(length=5), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('language', sa.String(length=8), nullable=False),
    sa.Column('enabled', sa.Boolean(), nullable=False),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('pushes',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('key', sa.String(length=128), nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('guild_id', sa.String(length=32), nullable=True),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.Column('claimed_at', bot.storage.tables.UTCDateTime(), nullable=True),
    sa.Column('sent_at', bot.storage.tables.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    with op.batch_alter_table('pushes', schema=None) as batch_op:
        batch_op.create_index('ix_pushes_state_claimed', ['state', 'claimed_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_pushes_user_id'), ['user_id'], unique=False)

    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('source', sa.String(length=64), nullable=True))
        batch_op.create_index('ix_attempts_source_created', ['source', 'created_at'], unique=False)

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('quiet_start', sa.String(length=5), nullable=True))
        batch_op.add_column(sa.Column('quiet_end', sa.String(length=5), nullable=True))
        batch_op.add_column(sa.Column('weekly_day', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('dm_opt_in', sa.Boolean(), server_default=sa.true(), nullable=False))



def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('dm_opt_in')
        batch_op.drop_column('weekly_day')
        batch_op.drop_column('quiet_end')
        batch_op.drop_column('quiet_start')

    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_attempts_source_created')
        batch_op.drop_column('source')

    with op.batch_alter_table('pushes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pushes_user_id'))
        batch_op.drop_index('ix_pushes_state_claimed')

    op.drop_table('pushes')
    op.drop_table('guilds')
