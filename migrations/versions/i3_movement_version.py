"""The tournament's movement version (issue 30): raised only by a commit writing the movement, so that the
movement's text, kept per process by that version, is not read again after every line written
(``data_version`` moves with each line).

Revision ID: i3_movement_version
Revises: i2_data_epoch
Create Date: 2026-11-28
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = 'i3_movement_version'
down_revision: Union[str, Sequence[str], None] = 'i2_data_epoch'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('movement_version', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('movement_version')
