"""The simultané (issue 33): the event and its clubs, each club's last accepted file.

Revision ID: j1_simultaneous
Revises: i4_read_indexes
Create Date: 2026-11-28
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- the UTCDateTime columns (aware datetimes), as the models declare them
from alembic import op

revision: str = 'j1_simultaneous'
down_revision: Union[str, Sequence[str], None] = 'i4_read_indexes'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'simultaneous',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('code', sa.String(length=20), nullable=False),
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('deals', sa.JSON(), nullable=False),
        sa.Column('seed', sa.String(length=200), nullable=False),
        sa.Column('seed_sha256', sa.String(length=64), nullable=False),
        sa.Column('embargo_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_simultaneous')),
        sa.UniqueConstraint('code', name=op.f('uq_simultaneous_code')),
    )
    op.create_table(
        'simultaneous_club',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('simultaneous_id', sa.Integer(), nullable=False),
        sa.Column('code', sa.String(length=8), nullable=False),
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('envelope', sa.JSON(), nullable=True),
        sa.Column('uploaded_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('uploads', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['simultaneous_id'], ['simultaneous.id'],
                                name=op.f('fk_simultaneous_club_simultaneous_id_simultaneous'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_simultaneous_club')),
        sa.UniqueConstraint('simultaneous_id', 'code', name=op.f('uq_simultaneous_club_simultaneous_id_code')),
    )
    op.create_index(op.f('ix_simultaneous_club_simultaneous_id'), 'simultaneous_club', ['simultaneous_id'],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_simultaneous_club_simultaneous_id'), table_name='simultaneous_club')
    op.drop_table('simultaneous_club')
    op.drop_table('simultaneous')
