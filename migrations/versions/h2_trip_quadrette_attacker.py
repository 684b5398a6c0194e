"""The attacker of a quadrette on each line of a fiche (issue 15, point 2).

Revision ID: h2_trip_quadrette_attacker
Revises: 0007_accounts
Create Date: 2026-11-23
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = 'h2_trip_quadrette_attacker'
down_revision: Union[str, Sequence[str], None] = '0007_accounts'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('result', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attacker', sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('result', schema=None) as batch_op:
        batch_op.drop_column('attacker')
