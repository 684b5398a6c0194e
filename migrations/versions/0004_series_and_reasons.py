"""Competitions of several séances (``series``; a tournament's ``series_id`` and ``coefficient``) and the
arbiter's reason on results and on their history.

``coefficient`` is NOT NULL: it is added with a server default of 1 for the tournaments already there,
and the default is dropped at once so that the schema matches the models exactly.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('series',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_series'))
    )
    with op.batch_alter_table('result', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True))

    with op.batch_alter_table('result_history', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True))

    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('series_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('coefficient', sa.Float(), nullable=False, server_default='1'))
        batch_op.create_index(batch_op.f('ix_tournament_series_id'), ['series_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_tournament_series_id_series'), 'series', ['series_id'], ['id'], ondelete='SET NULL')
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.alter_column('coefficient', server_default=None)


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_tournament_series_id_series'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_tournament_series_id'))
        batch_op.drop_column('coefficient')
        batch_op.drop_column('series_id')

    with op.batch_alter_table('result_history', schema=None) as batch_op:
        batch_op.drop_column('reason')

    with op.batch_alter_table('result', schema=None) as batch_op:
        batch_op.drop_column('reason')

    op.drop_table('series')
