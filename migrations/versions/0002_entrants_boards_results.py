"""Players, teams, étuis, movement, results and their history, penalties, users; more tournament fields.

The tournament's new NOT NULL columns are added with a server default (for the rows already there),
which is dropped at once so that the schema matches the models exactly. ``date`` becomes optional.
On SQLite, changing a column rebuilds the table (batch mode); the reflected CHECK constraint of ``kind``
is kept.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel  # noqa: F401 -- autogenerate renders sqlmodel.sql.sqltypes.AutoString (alembic#1647)
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0002'
down_revision: Union[str, Sequence[str], None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

def upgrade() -> None:
    """Create the new tables, then extend the tournament table."""
    op.create_table('user_account',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('password_hash', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('role', sa.Enum('arbiter', 'scorer', name='user_role', native_enum=False, create_constraint=True, length=20), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user_account')),
    sa.UniqueConstraint('username', name=op.f('uq_user_account_username'))
    )
    op.create_table('board',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('dealer', sqlmodel.sql.sqltypes.AutoString(length=1), nullable=True),
    sa.Column('taker', sqlmodel.sql.sqltypes.AutoString(length=1), nullable=True),
    sa.Column('hands', sa.JSON(), nullable=True),
    sa.Column('dog', sa.JSON(), nullable=True),
    sa.Column('extra', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_board_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_board')),
    sa.UniqueConstraint('tournament_id', 'number', name=op.f('uq_board_tournament_id_number'))
    )
    op.create_table('movement',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_movement_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_movement')),
    sa.UniqueConstraint('tournament_id', name=op.f('uq_movement_tournament_id'))
    )
    op.create_table('penalty',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
    sa.Column('points', sa.Float(), nullable=False),
    sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
    sa.Column('board', sa.Integer(), nullable=True),
    sa.Column('created_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('extra', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_penalty_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_penalty'))
    )
    with op.batch_alter_table('penalty', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_penalty_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('licence', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('surname', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('first_name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('club', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True),
    sa.Column('line', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('start_table', sa.Integer(), nullable=True),
    sa.Column('token', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('extra', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_player_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player')),
    sa.UniqueConstraint('token', name=op.f('uq_player_token')),
    sa.UniqueConstraint('tournament_id', 'entrant_id', name=op.f('uq_player_tournament_id_entrant_id'))
    )
    op.create_table('result',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('table', sa.Integer(), nullable=False),
    sa.Column('slot', sqlmodel.sql.sqltypes.AutoString(length=30), nullable=False),
    sa.Column('position', sa.Integer(), nullable=True),
    sa.Column('taker', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('defenders', sa.JSON(), nullable=True),
    sa.Column('taker_team', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('defence_team', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('score', sa.Integer(), nullable=True),
    sa.Column('annulled', sa.Boolean(), nullable=False),
    sa.Column('adjusted', sa.Boolean(), nullable=False),
    sa.Column('notes', sa.JSON(), nullable=True),
    sa.Column('chelem', sa.Boolean(), nullable=False),
    sa.Column('contract', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
    sa.Column('quarter', sa.Integer(), nullable=True),
    sa.Column('room', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
    sa.Column('entered_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('extra', sa.JSON(), nullable=True),
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_result_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_result')),
    sa.UniqueConstraint('tournament_id', 'board', 'slot', name=op.f('uq_result_tournament_id_board_slot'))
    )
    op.create_table('team',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('line', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=True),
    sa.Column('start_table', sa.Integer(), nullable=True),
    sa.Column('first_colour', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
    sa.Column('bonus', sa.Float(), nullable=False),
    sa.Column('token', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('extra', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_team_tournament_id_tournament'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_team')),
    sa.UniqueConstraint('token', name=op.f('uq_team_token')),
    sa.UniqueConstraint('tournament_id', 'entrant_id', name=op.f('uq_team_tournament_id_entrant_id'))
    )
    op.create_table('result_history',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('result_id', sa.Integer(), nullable=False),
    sa.Column('who', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['result_id'], ['result.id'], name=op.f('fk_result_history_result_id_result'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_result_history'))
    )
    with op.batch_alter_table('result_history', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_result_history_result_id'), ['result_id'], unique=False)

    op.create_table('team_member',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('order', sa.Integer(), nullable=False),
    sa.Column('badge', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_team_member_player_id_player'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['team_id'], ['team.id'], name=op.f('fk_team_member_team_id_team'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_team_member')),
    sa.UniqueConstraint('team_id', 'player_id', name=op.f('uq_team_member_team_id_player_id'))
    )
    with op.batch_alter_table('team_member', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_team_member_player_id'), ['player_id'], unique=False)

    defaults = {"colour": sa.text("''"), "sessions": sa.text("1"), "settings": sa.text("'{}'"),
                "version_id": sa.text("1")}
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.add_column(sa.Column("colour", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False,
                                      server_default=defaults["colour"]))
        batch_op.add_column(sa.Column("sessions", sa.Integer(), nullable=False, server_default=defaults["sessions"]))
        batch_op.add_column(sa.Column("settings", sa.JSON(), nullable=False, server_default=defaults["settings"]))
        batch_op.add_column(sa.Column("deal_seed", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.add_column(sa.Column("seed_sha256", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(sa.Column("draw_seed", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.add_column(sa.Column("extra", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("version_id", sa.Integer(), nullable=False,
                                      server_default=defaults["version_id"]))
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        for name in defaults:
            batch_op.alter_column(name, server_default=None)
        batch_op.alter_column("date", existing_type=sa.Date(), nullable=True)


def downgrade() -> None:
    """Back to 0001: drop the new tables and columns (a tournament without a date gets today's)."""
    op.execute("UPDATE tournament SET date = CURRENT_DATE WHERE date IS NULL")
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.alter_column("date", existing_type=sa.Date(), nullable=False)
        for name in ("version_id", "extra", "draw_seed", "seed_sha256", "deal_seed", "settings", "sessions",
                     "colour"):
            batch_op.drop_column(name)

    with op.batch_alter_table('team_member', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_team_member_player_id'))

    op.drop_table('team_member')
    with op.batch_alter_table('result_history', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_result_history_result_id'))

    op.drop_table('result_history')
    op.drop_table('team')
    op.drop_table('result')
    op.drop_table('player')
    with op.batch_alter_table('penalty', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_penalty_tournament_id'))

    op.drop_table('penalty')
    op.drop_table('movement')
    op.drop_table('board')
    op.drop_table('user_account')
