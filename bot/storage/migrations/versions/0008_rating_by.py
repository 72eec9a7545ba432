"""attempts: where the rating came from (an LLM grade, an unconfirmed suggestion, the user) and the checklist's ticks

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05 09:00:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('attempts', sa.Column('rating_by', sa.String(length=12), nullable=True))
    op.add_column('attempts', sa.Column('ticked', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('attempts') as batch:
        batch.drop_column('ticked')
        batch.drop_column('rating_by')
