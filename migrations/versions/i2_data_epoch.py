"""The tournament's data epoch (issue 31, point 2): a number that ``flask restore`` rewrites, so that the
views, ETags and files a running server keeps for the data it replaced never match the restored data
(``data_version`` alone starts again from the backup's count: the discarded versions would match).

Revision ID: i2_data_epoch
Revises: i1_accounts_ownership
Create Date: 2026-11-28
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = 'i2_data_epoch'
down_revision: Union[str, Sequence[str], None] = 'i1_accounts_ownership'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('data_epoch', sa.BigInteger(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('data_epoch')
