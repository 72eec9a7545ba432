"""replica claims: processed_events.done, so an update claimed by a replica that died is taken over on
redelivery; attempts.claimed_at, so a regrade claimed by a replica that died is requeued

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 13:40:00
"""
from alembic import op
import sqlalchemy as sa

import bot.storage.tables


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('processed_events') as batch:
        batch.add_column(sa.Column('done', sa.Boolean(), server_default=sa.true(), nullable=False))
    with op.batch_alter_table('attempts') as batch:
        batch.add_column(sa.Column('claimed_at', bot.storage.tables.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('attempts') as batch:
        batch.drop_column('claimed_at')
    with op.batch_alter_table('processed_events') as batch:
        batch.drop_column('done')
