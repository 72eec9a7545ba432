"""usage by platform identity: llm_calls get the identity's one-way key and outlive /forget (user_id SET NULL);
transcribed seconds get a ledger of their own (issue #34: no limit resets itself)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 12:00:00
"""
import hashlib

import sqlalchemy as sa
from alembic import op

import bot.storage.tables


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

NAMING = {"fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s"}  # SQLite's FKs have no name


def _key(platform: str, external_id: str) -> str:
    """bot.kernel.identity.identity_key as of this revision (a migration does not follow later code)."""
    return hashlib.sha256(f"drill-bot identity v1\x00{platform}\x00{external_id}".encode()).hexdigest()[:32]


def _user_fk(ondelete: str) -> None:
    bind = op.get_bind()
    (fk,) = [f for f in sa.inspect(bind).get_foreign_keys('llm_calls') if f['referred_table'] == 'users']
    name = fk['name'] or 'fk_llm_calls_user_id_users'
    with op.batch_alter_table('llm_calls', naming_convention=NAMING) as batch:
        batch.drop_constraint(name, type_='foreignkey')
        batch.create_foreign_key(name, 'users', ['user_id'], ['id'], ondelete=ondelete)


def upgrade() -> None:
    op.add_column('llm_calls', sa.Column('identity', sa.String(length=32), nullable=True))
    op.create_index('ix_llm_calls_identity_created', 'llm_calls', ['identity', 'created_at'], unique=False)
    bind = op.get_bind()
    keys: dict[int, str] = {}
    for user_id, platform, external_id in bind.execute(sa.text('SELECT user_id, platform, external_id FROM identities')):
        key = _key(platform, external_id)
        keys[user_id] = min(key, keys.get(user_id, key))
    if keys:
        bind.execute(
            sa.text('UPDATE llm_calls SET identity = :key WHERE user_id = :user_id'),
            [{'key': k, 'user_id': u} for u, k in keys.items()],
        )
    _user_fk('SET NULL')
    op.create_table('transcriptions',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('user_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=True),
    sa.Column('identity', sa.String(length=32), nullable=True),
    sa.Column('seconds', sa.Float(), nullable=False),
    sa.Column('created_at', bot.storage.tables.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_transcriptions_user', 'transcriptions', ['user_id'], unique=False)
    op.create_index('ix_transcriptions_created', 'transcriptions', ['created_at'], unique=False)
    op.create_index('ix_transcriptions_identity_created', 'transcriptions', ['identity', 'created_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_transcriptions_identity_created', table_name='transcriptions')
    op.drop_index('ix_transcriptions_created', table_name='transcriptions')
    op.drop_index('ix_transcriptions_user', table_name='transcriptions')
    op.drop_table('transcriptions')
    op.execute('DELETE FROM llm_calls WHERE user_id IS NULL')  # forgotten users' rows: the old schema deleted them
    _user_fk('CASCADE')
    op.drop_index('ix_llm_calls_identity_created', table_name='llm_calls')
    with op.batch_alter_table('llm_calls') as batch:
        batch.drop_column('identity')
