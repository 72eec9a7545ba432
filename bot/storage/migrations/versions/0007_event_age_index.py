"""processed_events by age: the hourly housekeeping deletes old ids through an index, not a table scan

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 18:30:00
"""
from alembic import op


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_processed_events_created', 'processed_events', ['created_at'])


def downgrade() -> None:
    op.drop_index('ix_processed_events_created', table_name='processed_events')
