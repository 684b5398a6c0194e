"""Bearer tokens for the electronic scoring API (only their SHA-256 is stored).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('api_token',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('role', sa.Enum('arbiter', 'scorer', name='api_token_role', native_enum=False, create_constraint=True, length=20), nullable=False),
    sa.Column('label', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('revoked', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_token')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_api_token_token_hash'))
    )


def downgrade() -> None:
    op.drop_table('api_token')
