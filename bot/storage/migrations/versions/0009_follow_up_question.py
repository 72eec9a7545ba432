"""attempts: the follow-up question a follow-up answer answered (so an export shows it beside the answer)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05 12:00:00
"""
import sqlalchemy as sa
from alembic import op


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('attempts', sa.Column('follow_up_question', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('attempts') as batch:
        batch.drop_column('follow_up_question')
