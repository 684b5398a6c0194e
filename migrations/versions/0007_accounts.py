"""Accounts and ownership (issue 13, point 2): a tournament's owner and the users it is given to
(co-arbiters, scorers), disabled accounts and the session generation, failed sign-ins counted in the
database, API tokens for one tournament.

Tournaments made before this revision get no owner: they stay shared by every arbiter, as they were
(docs/accounts.md, « Accounts and ownership, in short »), until one of them takes one over (« Prendre en charge »).

Revision ID: 0007_accounts
Revises: live_clock (0009_position_clock; 0006 when written, main gained 0008 and 0009 meanwhile)
Create Date: 2026-11-23
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = '0007_accounts'
down_revision: Union[str, Sequence[str], None] = 'live_clock'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('sign_in_failure',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('last_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('locked_until', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sign_in_failure')),
    sa.UniqueConstraint('key', name=op.f('uq_sign_in_failure_key'))
    )
    op.create_table('tournament_access',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('granted_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_tournament_access_tournament_id_tournament'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user_account.id'], name=op.f('fk_tournament_access_user_id_user_account'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_access')),
    sa.UniqueConstraint('tournament_id', 'user_id', name=op.f('uq_tournament_access_tournament_id_user_id'))
    )
    with op.batch_alter_table('tournament_access', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_access_tournament_id'), ['tournament_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_tournament_access_user_id'), ['user_id'], unique=False)

    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tournament_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('created_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
        batch_op.create_index(batch_op.f('ix_api_token_tournament_id'), ['tournament_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_api_token_tournament_id_tournament'), 'tournament', ['tournament_id'], ['id'], ondelete='CASCADE')

    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owner_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_tournament_owner_id'), ['owner_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_tournament_owner_id_user_account'), 'user_account', ['owner_id'], ['id'], ondelete='SET NULL')

    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.add_column(sa.Column('active', sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.add_column(sa.Column('session_generation', sa.Integer(), server_default='0', nullable=False))



def downgrade() -> None:
    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
        batch_op.drop_column('active')

    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_tournament_owner_id_user_account'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_tournament_owner_id'))
        batch_op.drop_column('owner_id')

    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_api_token_tournament_id_tournament'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_api_token_tournament_id'))
        batch_op.drop_column('created_by')
        batch_op.drop_column('tournament_id')

    with op.batch_alter_table('tournament_access', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_access_user_id'))
        batch_op.drop_index(batch_op.f('ix_tournament_access_tournament_id'))

    op.drop_table('tournament_access')
    op.drop_table('sign_in_failure')
