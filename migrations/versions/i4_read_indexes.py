"""Two indexes for the phone's refresh (issue 30): a table's lines by its number, and the journal's
entries of one action (the refused codes the view counts). Without them SQLite read every result and
every journal entry of the tournament at each refresh.

Revision ID: i4_read_indexes
Revises: i3_movement_version
Create Date: 2026-11-28
"""

from typing import Sequence, Union

from alembic import op

revision: str = 'i4_read_indexes'
down_revision: Union[str, Sequence[str], None] = 'i3_movement_version'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index('ix_result_tournament_id_table', 'result', ['tournament_id', 'table'], unique=False)
    op.create_index('ix_journal_entry_tournament_id_action', 'journal_entry', ['tournament_id', 'action'],
                    unique=False)


def downgrade() -> None:
    op.drop_index('ix_journal_entry_tournament_id_action', table_name='journal_entry')
    op.drop_index('ix_result_tournament_id_table', table_name='result')
