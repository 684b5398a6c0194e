"""Database tables (SQLModel). Only the tables; use cases live in `duplicate.operations`.

Datetimes are time-zone aware: SQLModel stores them in UTC (``TIMESTAMP WITH TIME ZONE`` on
PostgreSQL, UTC text on SQLite) and returns them in UTC.
"""

import datetime
import enum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


def utcnow() -> datetime.datetime:
    """The current time, aware, in UTC."""
    return datetime.datetime.now(datetime.timezone.utc)


class TournamentKind(str, enum.Enum):
    """The four kinds of duplicate tournament (SPEC §5–§7)."""

    individual = "individual"
    triplettes = "triplettes"
    quadrettes = "quadrettes"
    team_match = "team_match"


class Tournament(SQLModel, table=True):
    """One tournament: a single session for now; sessions, players and étuis come later."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    kind: TournamentKind = Field(
        sa_type=sa.Enum(
            TournamentKind,
            name="tournament_kind",
            native_enum=False,  # a VARCHAR with a CHECK constraint: same schema on SQLite and PostgreSQL
            create_constraint=True,
            length=20,
            values_callable=lambda kinds: [kind.value for kind in kinds],
        ),
    )
    date: datetime.date
    place: str = Field(default="", max_length=200)
    created_at: datetime.datetime = Field(default_factory=utcnow)
