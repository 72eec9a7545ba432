"""career tools: job descriptions (/jd), notebook entries (/notes, one version number per user and question)
and applications (/apps)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 13:10:00
"""
from alembic import op
import sqlalchemy as sa

import bot.storage.tables


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), 'sqlite')


def upgrade() -> None:
    op.create_table('job_descriptions',
    sa.Column('id', ID, autoincrement=True, nullable=False),
    sa.Column('user_id', ID, nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('active_until', bot.storage.tables.UTCDateTime(), nullable=True),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_job_descriptions_user_id'), 'job_descriptions', ['user_id'], unique=False)
    op.create_table('notebook_entries',
    sa.Column('id', ID, autoincrement=True, nullable=False),
    sa.Column('user_id', ID, nullable=False),
    sa.Column('question_id', sa.String(length=80), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('best', sa.Boolean(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ux_notebook_version', 'notebook_entries', ['user_id', 'question_id', 'version'], unique=True)
    op.create_table('applications',
    sa.Column('id', ID, autoincrement=True, nullable=False),
    sa.Column('user_id', ID, nullable=False),
    sa.Column('company', sa.String(length=200), nullable=False),
    sa.Column('stage', sa.String(length=16), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.Column('updated_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_applications_user_id'), 'applications', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_applications_user_id'), table_name='applications')
    op.drop_table('applications')
    op.drop_index('ux_notebook_version', table_name='notebook_entries')
    op.drop_table('notebook_entries')
    op.drop_index(op.f('ix_job_descriptions_user_id'), table_name='job_descriptions')
    op.drop_table('job_descriptions')
