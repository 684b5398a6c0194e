"""Free play in the database (issue 16): the ``free`` kind and the feuilles de marque (``free_sheet``).

The ``kind`` column is a VARCHAR with a CHECK constraint (`models._enum`): the constraint is dropped and made
again with the new list (batch mode rebuilds the table on SQLite). Downgrading removes the free-play
tournaments first: the old constraint has no room for them.

Revision ID: h4_free_sheets
Revises: h2_trip_quadrette_attacker
Create Date: 2026-11-25
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = 'h4_free_sheets'
down_revision: Union[str, Sequence[str], None] = 'h2_trip_quadrette_attacker'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# the lists as they are at this revision (not imported: a later kind must not change this migration)
DUPLICATE_KINDS = ("individual", "triplettes", "quadrettes", "team_match")
KINDS = DUPLICATE_KINDS + ("free",)
CONSTRAINT = "ck_tournament_tournament_kind"


def _kinds_check(kinds) -> str:
    return "kind IN (" + ", ".join(f"'{kind}'" for kind in kinds) + ")"


def _set_kinds(kinds) -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_constraint(op.f(CONSTRAINT), type_='check')
        batch_op.create_check_constraint(op.f(CONSTRAINT), _kinds_check(kinds))


def upgrade() -> None:
    _set_kinds(KINDS)
    op.create_table('free_sheet',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('deals', sa.JSON(), nullable=False),
    sa.Column('entered_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_free_sheet_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_free_sheet')),
    sa.UniqueConstraint('tournament_id', 'position', 'table', name=op.f('uq_free_sheet_tournament_id_position_table'))
    )
    with op.batch_alter_table('free_sheet', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_free_sheet_tournament_id'), ['tournament_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('free_sheet', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_free_sheet_tournament_id'))
    op.drop_table('free_sheet')
    op.execute(sa.text("DELETE FROM tournament WHERE kind NOT IN ("
                       + ", ".join(f"'{kind}'" for kind in DUPLICATE_KINDS) + ")"))
    _set_kinds(DUPLICATE_KINDS)
