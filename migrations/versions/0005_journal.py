"""The tournament's journal of changes (``journal_entry``, SPEC §11).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('journal_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('who', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('summary', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_journal_entry_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_journal_entry'))
    )
    with op.batch_alter_table('journal_entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_journal_entry_tournament_id'), ['tournament_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('journal_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_journal_entry_tournament_id'))
    op.drop_table('journal_entry')
