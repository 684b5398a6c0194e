"""The evening's changes (SPEC §11): « hors classement » and withdrawn players, substitutes, archived
tournaments.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('substitution',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('from_position', sa.Integer(), nullable=False),
    sa.Column('results_to', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('extra', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_substitution_player_id_player'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_substitution_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_substitution')),
    sa.UniqueConstraint('player_id', name=op.f('uq_substitution_player_id'))
    )
    with op.batch_alter_table('substitution', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_substitution_tournament_id'), ['tournament_id'], unique=False)
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('out_of_ranking', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('withdrawn_from', sa.Integer(), nullable=True))
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('archived_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('archived_at')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('withdrawn_from')
        batch_op.drop_column('out_of_ranking')
    with op.batch_alter_table('substitution', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_substitution_tournament_id'))
    op.drop_table('substitution')
