"""Team free play (issue 16, point 5): the kinds ``free_duo`` (libre duo) and ``free_team4`` (libre par 4).

The ``kind`` column is a VARCHAR with a CHECK constraint (`models._enum`): as `h4_free_sheets`, the constraint
is dropped and made again with the new list (batch mode rebuilds the table on SQLite). The teams are the
existing ``team`` / ``team_member`` rows and the feuilles the ``free_sheet`` rows: no new table. Downgrading
removes the team free-play tournaments first: the old constraint has no room for them.

Revision ID: h5_free_team_kinds
Revises: h4_free_sheets
Create Date: 2026-11-25
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = 'h5_free_team_kinds'
down_revision: Union[str, Sequence[str], None] = 'h4_free_sheets'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# the lists as they are at this revision (not imported: a later kind must not change this migration)
BEFORE = ("individual", "triplettes", "quadrettes", "team_match", "free")
KINDS = BEFORE + ("free_duo", "free_team4")
CONSTRAINT = "ck_tournament_tournament_kind"


def _kinds_check(kinds) -> str:
    return "kind IN (" + ", ".join(f"'{kind}'" for kind in kinds) + ")"


def _set_kinds(kinds) -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_constraint(op.f(CONSTRAINT), type_='check')
        batch_op.create_check_constraint(op.f(CONSTRAINT), _kinds_check(kinds))


def upgrade() -> None:
    _set_kinds(KINDS)


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM tournament WHERE kind NOT IN ("
                       + ", ".join(f"'{kind}'" for kind in BEFORE) + ")"))
    _set_kinds(BEFORE)
