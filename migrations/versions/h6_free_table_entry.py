"""Free play at the table (issue 16): ``free_table_entry``, a feuille de marque typed on the table's phone and
waiting for another player's confirmation (it becomes a ``free_sheet`` row then).

Revision ID: h6_free_table_entry
Revises: h5_free_team_kinds
Create Date: 2026-11-25
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = 'h6_free_table_entry'
down_revision: Union[str, Sequence[str], None] = 'h5_free_team_kinds'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('free_table_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('deals', sa.JSON(), nullable=False),
    sa.Column('entered_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_free_table_entry_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_free_table_entry')),
    sa.UniqueConstraint('tournament_id', 'position', 'table', name=op.f('uq_free_table_entry_tournament_id_position_table'))
    )
    with op.batch_alter_table('free_table_entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_free_table_entry_tournament_id'), ['tournament_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('free_table_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_free_table_entry_tournament_id'))
    op.drop_table('free_table_entry')
