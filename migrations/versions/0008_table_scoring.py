"""Scoring at the table (SPEC §12, issue 13): a result's status (``done``, or ``pending`` until a defender
confirms it) and origin, the key the tables' links are signed with, and the conflicts between a paper
fiche and a table's entry.

Revision ID: 0008_table_scoring
Revises: 0006
Create Date: 2026-11-23
"""

import secrets
from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = '0008_table_scoring'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('result', schema=None) as batch_op:
        batch_op.add_column(sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), server_default='done',
                                      nullable=False))
        batch_op.add_column(sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True))
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
    tournament = sa.table('tournament', sa.column('id', sa.Integer), sa.column('table_key', sa.String))
    connection = op.get_bind()
    for (ident,) in connection.execute(sa.select(tournament.c.id)).all():
        connection.execute(tournament.update().where(tournament.c.id == ident)
                           .values(table_key=secrets.token_urlsafe(24)))
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.alter_column('table_key', existing_type=sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False)
    op.create_table('result_conflict',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('result_id', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('score', sa.Integer(), nullable=True),
    sa.Column('chelem', sa.Boolean(), nullable=False),
    sa.Column('who', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('kept', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('resolved_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('resolved_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['result_id'], ['result.id'], name=op.f('fk_result_conflict_result_id_result'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_result_conflict_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_result_conflict'))
    )
    with op.batch_alter_table('result_conflict', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_result_conflict_result_id'), ['result_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_result_conflict_tournament_id'), ['tournament_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('result_conflict', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_result_conflict_tournament_id'))
        batch_op.drop_index(batch_op.f('ix_result_conflict_result_id'))
    op.drop_table('result_conflict')
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('table_key')
    with op.batch_alter_table('result', schema=None) as batch_op:
        batch_op.drop_column('origin')
        batch_op.drop_column('status')
