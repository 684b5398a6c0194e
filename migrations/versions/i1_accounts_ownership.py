"""Accounts and ownership, part 2 (issue 28 point 3: no arbiter reaches another's): who made an account
(``user_account.created_by_id``), a competition's owner and co-arbiters (``series.owner_id``,
``series_access``), the account that made an API token (``api_token.user_id``).

Accounts made before this revision have no maker; competitions no owner: they stay shared by every arbiter,
as shared tournaments are (docs/accounts.md). A token made from a tournament's screen before this revision is
tied to the account named in its ``created_by``, when one has that name.

Revision ID: i1_accounts_ownership
Revises: h6_free_table_entry
Create Date: 2026-11-27
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = 'i1_accounts_ownership'
down_revision: Union[str, Sequence[str], None] = 'h6_free_table_entry'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('series_access',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('series_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('granted_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_access_series_id_series'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user_account.id'], name=op.f('fk_series_access_user_id_user_account'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series_access')),
    sa.UniqueConstraint('series_id', 'user_id', name=op.f('uq_series_access_series_id_user_id'))
    )
    with op.batch_alter_table('series_access', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_series_access_series_id'), ['series_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_series_access_user_id'), ['user_id'], unique=False)

    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.add_column(sa.Column('user_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_api_token_user_id'), ['user_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_api_token_user_id_user_account'), 'user_account', ['user_id'], ['id'], ondelete='CASCADE')

    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.add_column(sa.Column('owner_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_series_owner_id'), ['owner_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_series_owner_id_user_account'), 'user_account', ['owner_id'], ['id'], ondelete='SET NULL')

    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.add_column(sa.Column('created_by_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_user_account_created_by_id_user_account'), 'user_account', ['created_by_id'], ['id'], ondelete='SET NULL')

    # the tokens made on a tournament's screen: tied to the account named in ``created_by``
    api_token = sa.table('api_token', sa.column('user_id', sa.Integer), sa.column('created_by', sa.String),
                         sa.column('tournament_id', sa.Integer))
    user_account = sa.table('user_account', sa.column('id', sa.Integer), sa.column('username', sa.String))
    op.execute(api_token.update()
               .where(api_token.c.tournament_id.is_not(None), api_token.c.created_by.is_not(None))
               .values(user_id=sa.select(user_account.c.id)
                       .where(user_account.c.username == api_token.c.created_by).scalar_subquery()))


def downgrade() -> None:
    with op.batch_alter_table('user_account', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_user_account_created_by_id_user_account'), type_='foreignkey')
        batch_op.drop_column('created_by_id')

    with op.batch_alter_table('series', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_series_owner_id_user_account'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_series_owner_id'))
        batch_op.drop_column('owner_id')

    with op.batch_alter_table('api_token', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_api_token_user_id_user_account'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_api_token_user_id'))
        batch_op.drop_column('user_id')

    with op.batch_alter_table('series_access', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_series_access_user_id'))
        batch_op.drop_index(batch_op.f('ix_series_access_series_id'))

    op.drop_table('series_access')
