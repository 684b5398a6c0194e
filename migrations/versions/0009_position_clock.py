"""The hall's countdown for the position in play (issue 13, the projector).

Revision ID: live_clock
Revises: 0008_table_scoring
Create Date: 2026-11-23
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = 'live_clock'
down_revision: Union[str, Sequence[str], None] = '0008_table_scoring'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('position_clock',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=True),
    sa.Column('ends_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('paused_remaining', sa.Integer(), nullable=True),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_position_clock_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_position_clock')),
    sa.UniqueConstraint('tournament_id', name=op.f('uq_position_clock_tournament_id'))
    )


def downgrade() -> None:
    op.drop_table('position_clock')
