"""Database tables (SQLModel). Only the tables; use cases live in `duplicate.operations`.

Datetimes are time-zone aware: SQLModel stores them in UTC (``TIMESTAMP WITH TIME ZONE`` on
PostgreSQL, UTC text on SQLite) and returns them in UTC.

Terms (SPEC §1): an *entrant* is who is ranked — a player in the individual, a team otherwise — and
its *entrant id* is the id of the interchange files and of the movement (``N1``, ``NS2``, ``Q3``,
``A``): line + starting table, given by the draw (`operations.draw_places`). Results and penalties
name entrants by that id, exactly as the SPEC §9 tournament file does, so that the database maps
one-to-one onto the file that `duplicate.core.tournament` reads.

Rules the schema protects (unique constraints): one entrant id per tournament (players and teams),
one étui number per tournament, one result per étui and table — per étui and room in a team match
(`Result.slot`), one movement per tournament, one user per username.

`extra` columns keep, verbatim, the fields of an imported file that no column holds (fields of
other programs, explicit default values such as ``"annulled": false``), so that import → export
gives back the same file (`duplicate.interchange`).

Optimistic locking: `Tournament` and `Result` carry a ``version_id`` that SQLAlchemy increments on
each UPDATE and checks in its WHERE clause (``version_id_col``); a change made from stale data raises
``sqlalchemy.orm.exc.StaleDataError`` instead of silently overwriting another scorer's entry.
"""

import datetime
import enum
import secrets
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm
from sqlmodel import Field, SQLModel

from duplicate.core.formats import TOURNAMENT_KINDS, Format, format_for

# Deterministic constraint names, identical on SQLite and PostgreSQL, so that migrations can name
# (and batch mode can rebuild) every constraint.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

TOKEN_BYTES = 24


def utcnow() -> datetime.datetime:
    """The current time, aware, in UTC."""
    return datetime.datetime.now(datetime.timezone.utc)


def stored_utc(moment: datetime.datetime | None) -> datetime.datetime | None:
    """A stored moment, aware: SQLite hands them back naive, and they are UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.timezone.utc)
    return moment


def new_token() -> str:
    """An unguessable token for a participant's private URL (route sheet)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def _enum(enum_class, name: str, length: int = 20) -> sa.Enum:
    """A VARCHAR with a CHECK constraint: the same schema on SQLite and PostgreSQL."""
    return sa.Enum(
        enum_class,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=length,
        values_callable=lambda members: [member.value for member in members],
    )


def _json(nullable: bool = True):
    return Field(default=None, sa_type=sa.JSON, nullable=nullable)


#: The kinds of tournament (SPEC §5–§7, §13), for the ``kind`` column: built from the one list of
#: `core.formats` (``TournamentKind.individual``, ``.triplettes``, ``.quadrettes``, ``.team_match``, ``.free``).
TournamentKind = enum.Enum("TournamentKind", [(kind, kind) for kind in TOURNAMENT_KINDS], type=str,
                           module=__name__)


class Role(str, enum.Enum):
    """The two staff roles: the arbiter runs the tournament, a scorer enters fiches ambulantes."""

    arbiter = "arbiter"
    scorer = "scorer"


_tournament_version = sa.Column("version_id", sa.Integer, nullable=False)


class Series(SQLModel, table=True):
    """A competition of several séances (SPEC §5): each séance is a `Tournament` of the series, with its
    ``coefficient``; the total of an entrant is Σ séance global % × coefficient (PM for quadrettes and
    team matches). Entrants are matched across séances by licence (else name) or by team name.

    ``owner_id``: the arbiter who made it, who names its co-arbiters (`SeriesAccess`); None: shared by every
    arbiter (made before ``i1_accounts_ownership``, or from the command line), as a shared tournament is
    (`operations.can_manage_series`, docs/accounts.md)."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    created_at: datetime.datetime = Field(default_factory=utcnow)
    owner_id: int | None = Field(default=None, foreign_key="user_account.id", ondelete="SET NULL", index=True)


#: A tournament's séances: the form's and an imported file's bounds (`operations.create_tournament`,
#: `interchange.FIELD_RULES`).
SESSIONS_RANGE = (1, 20)
#: Minutes per étui of the countdown (``settings["minutes_per_board"]``; `operations.set_minutes_per_board`,
#: `interchange.SETTINGS_RULES`).
MINUTES_PER_BOARD_RANGE = (1, 60)


class Tournament(SQLModel, table=True):
    """One tournament: its kind, when and where, the tournament colour printed on the étuis, the seeds.

    ``deal_seed`` is the seed of the generated deals and ``seed_sha256`` its hash, publishable before
    the event; ``draw_seed`` the seed of the draw of places. ``settings`` holds the arbiter's
    choices (a JSON object).
    """

    __mapper_args__ = {"version_id_col": _tournament_version}

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    kind: TournamentKind = Field(sa_type=_enum(TournamentKind, "tournament_kind"))
    date: datetime.date | None = Field(default=None)
    place: str = Field(default="", max_length=200)
    colour: str = Field(default="", max_length=40)
    sessions: int = Field(default=1)
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    deal_seed: str | None = Field(default=None, max_length=200)
    seed_sha256: str | None = Field(default=None, max_length=64)
    draw_seed: str | None = Field(default=None, max_length=200)
    extra: dict[str, Any] | None = _json()
    series_id: int | None = Field(default=None, foreign_key="series.id", ondelete="SET NULL", index=True)
    coefficient: float = Field(default=1.0)
    version_id: int | None = Field(default=None, sa_column=_tournament_version)
    # every committed write to what the tournament's pages show adds 1 (`operations.data_version`)
    data_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # rewritten by ``flask restore`` (`duplicate.backup`): part of every version, so that what a running server
    # kept of the replaced data never matches the restored data
    data_epoch: int = Field(default=0, sa_type=sa.BigInteger, sa_column_kwargs={"server_default": "0"})
    # every committed write to the tournament's movement adds 1 (`operations._changes`): the movement's text is
    # kept per process by this version (`operations._layout.movement_text`), which the lines' writes leave alone
    movement_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    created_at: datetime.datetime = Field(default_factory=utcnow)
    archived_at: datetime.datetime | None = Field(default=None)  # archived: out of the default list
    # the arbiter who made it (`operations.can_manage`); None: shared by every arbiter (made before
    # accounts had tournaments, or from the command line)
    owner_id: int | None = Field(default=None, foreign_key="user_account.id", ondelete="SET NULL", index=True)
    # the key the tables' links are signed with (`operations.table_secret`): valid for this tournament only
    table_key: str = Field(default_factory=new_token, max_length=64)

    @property
    def format(self) -> Format:
        """What the kind decides (`core.formats`): labels, seats, sizes, PM or %; for code and templates."""
        return format_for(self.kind)


class Player(SQLModel, table=True):
    """A person registered in a tournament; ``entrant_id`` (``N1``…) once the draw has placed them."""

    __table_args__ = (sa.UniqueConstraint("tournament_id", "entrant_id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE")
    entrant_id: str | None = Field(default=None, max_length=40)
    licence: str | None = Field(default=None, max_length=40)
    surname: str = Field(default="", max_length=100)
    first_name: str = Field(default="", max_length=100)
    club: str | None = Field(default=None, max_length=200)
    line: str | None = Field(default=None, max_length=10)
    start_table: int | None = Field(default=None)
    token: str = Field(default_factory=new_token, max_length=64, unique=True)
    extra: dict[str, Any] | None = _json()
    # SPEC §11: a fill-in player or a substitute, ranked « hors classement »; the position during
    # which the player left (withdrawal, ranked last: booklet art. 27)
    out_of_ranking: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    withdrawn_from: int | None = Field(default=None)

    @property
    def name(self) -> str:
        """« DUPONT Jean », as on the rankings."""
        return " ".join(part for part in (self.surname, self.first_name) if part)


class Team(SQLModel, table=True):
    """A triplette, a quadrette or a team of a team match (``NS1``/``EW2``, ``Q3``, ``A``/``B``).

    ``first_colour`` is the badge colour of the first attacker (triplettes); ``bonus`` the PM bonus
    the arbiter grants before a team match.
    """

    __table_args__ = (sa.UniqueConstraint("tournament_id", "entrant_id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE")
    entrant_id: str | None = Field(default=None, max_length=40)
    name: str = Field(default="", max_length=200)
    line: str | None = Field(default=None, max_length=10)
    start_table: int | None = Field(default=None)
    first_colour: str | None = Field(default=None, max_length=20)
    bonus: float = Field(default=0.0)
    token: str = Field(default_factory=new_token, max_length=64, unique=True)
    extra: dict[str, Any] | None = _json()


class TeamMember(SQLModel, table=True):
    """A player in a team, in the team's order; ``badge`` is the triplette badge colour."""

    __tablename__ = "team_member"
    __table_args__ = (sa.UniqueConstraint("team_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    team_id: int = Field(foreign_key="team.id", ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE", index=True)
    order: int = Field(default=0)
    badge: str | None = Field(default=None, max_length=20)


class Board(SQLModel, table=True):
    """An étui: number, dealer and taker seats, and its deal when known (notation of SPEC §2)."""

    __table_args__ = (sa.UniqueConstraint("tournament_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE")
    number: int
    dealer: str | None = Field(default=None, max_length=1)
    taker: str | None = Field(default=None, max_length=1)
    hands: dict[str, list[str]] | None = _json()
    dog: list[str] | None = _json()
    extra: dict[str, Any] | None = _json()


class Movement(SQLModel, table=True):
    """The tournament's movement, as the SPEC §9 ``tarot-movement/1`` dict."""

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", unique=True)
    data: dict[str, Any] = Field(sa_type=sa.JSON)


_result_version = sa.Column("version_id", sa.Integer, nullable=False)


class Result(SQLModel, table=True):
    """One line of a fiche ambulante (SPEC §9 result).

    Individual: ``taker`` and ``defenders`` (player entrant ids); other kinds: ``taker_team`` and
    ``defence_team``. ``board`` is the étui number. ``score`` is the taker's per-defender score
    (``None`` for an annulled deal or an arbitral note); ``notes`` an arbitral note
    ``{"taker": 60, "defence": 40}``; ``reason`` the arbiter's reason for the last adjustment (annulled
    deal, adjusted score, arbitral note), shown with the result. ``slot`` is ``table:3`` or, in a team match, ``room:open``:
    unique per étui, it enforces one result per étui and table (per étui and room in a team match).

    ``status`` (SPEC §12): ``done``, or ``pending`` — entered at the table and awaiting a defender's
    confirmation. A pending line holds its slot but counts nowhere: every ORM query on results leaves
    it out (`_counted_only`) unless it asks for it with ``execution_options(with_pending=True)``.
    ``origin`` is ``table`` for a line entered on the table's phone (None: paper fiche, API, import).
    """

    __mapper_args__ = {"version_id_col": _result_version}
    # a table's lines by its number: the phone's view reads them at every refresh (issue 30)
    __table_args__ = (sa.UniqueConstraint("tournament_id", "board", "slot"),
                      sa.Index("ix_result_tournament_id_table", "tournament_id", "table"))

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE")
    board: int
    table: int
    slot: str = Field(default="", max_length=30)
    position: int | None = Field(default=None)
    taker: str | None = Field(default=None, max_length=40)
    defenders: list[str] | None = _json()
    taker_team: str | None = Field(default=None, max_length=40)
    defence_team: str | None = Field(default=None, max_length=40)
    score: int | None = Field(default=None)
    annulled: bool = Field(default=False)
    adjusted: bool = Field(default=False)
    notes: dict[str, Any] | None = _json()
    chelem: bool = Field(default=False)
    contract: str | None = Field(default=None, max_length=20)
    quarter: int | None = Field(default=None)
    room: str | None = Field(default=None, max_length=20)
    # quadrettes: the attacking quadrette's player who took (a player id of the file), recorded at entry
    attacker: str | None = Field(default=None, max_length=40)
    entered_by: str | None = Field(default=None, max_length=100)
    reason: str | None = Field(default=None, max_length=500)
    extra: dict[str, Any] | None = _json()
    status: str = Field(default="done", max_length=10, sa_column_kwargs={"server_default": "done"})
    origin: str | None = Field(default=None, max_length=10)
    version_id: int | None = Field(default=None, sa_column=_result_version)
    updated_at: datetime.datetime = Field(default_factory=utcnow)


def result_slot(table: int, room: str | None) -> str:
    """The key that makes a result unique on its étui: the room in a team match, else the table."""
    return f"room:{room}" if room is not None else f"table:{table}"


DONE, PENDING = "done", "pending"
WITH_PENDING = "with_pending"  # execution option: this query also sees the pending lines


# built once (immutable, its cache key the same for every statement): building it cost ≈ 20 µs per ORM
# statement, a tenth of a phone's write's statements' building (issue 30)
_DONE_ONLY = orm.with_loader_criteria(Result, Result.status == DONE, include_aliases=True)


@sa.event.listens_for(orm.Session, "do_orm_execute")
def _counted_only(state: orm.ORMExecuteState) -> None:
    """A line awaiting confirmation counts nowhere (SPEC §12): every ORM SELECT touching `Result` —
    rankings, topage, completeness, exports, public pages, printing — sees only ``done`` lines, unless
    it says ``execution_options(with_pending=True)`` (the table's own page, the duplicate checks, the
    arbiter's view). Attribute refreshes of an object already loaded are left alone."""
    if state.is_select and not state.is_column_load and not state.execution_options.get(WITH_PENDING):
        state.statement = state.statement.options(_DONE_ONLY)


@sa.event.listens_for(Result, "before_insert")
@sa.event.listens_for(Result, "before_update")
def _set_slot(_mapper, _connection, result: Result) -> None:
    result.slot = result_slot(result.table, result.room)


class ResultHistory(SQLModel, table=True):
    """One change to a result: who, when, what (``create``, ``update``, ``annul``…), before and after."""

    __tablename__ = "result_history"

    id: int | None = Field(default=None, primary_key=True)
    result_id: int = Field(foreign_key="result.id", ondelete="CASCADE", index=True)
    who: str | None = Field(default=None, max_length=100)
    at: datetime.datetime = Field(default_factory=utcnow)
    action: str = Field(max_length=20)
    reason: str | None = Field(default=None, max_length=500)
    before: dict[str, Any] | None = _json()
    after: dict[str, Any] | None = _json()


class ResultConflict(SQLModel, table=True):
    """An entry that disagrees with a stored line (SPEC §12, issue 13): a paper fiche's score against a
    line entered at the table, or the table's against a line already done. Never merged: it waits for
    the arbiter, who keeps one (``kept``: ``stored`` or ``entry``) — ``resolved_at`` set then.
    ``source`` is where the disagreeing entry came from (``paper`` or ``table``)."""

    __tablename__ = "result_conflict"

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    result_id: int = Field(foreign_key="result.id", ondelete="CASCADE", index=True)
    board: int
    table: int
    source: str = Field(max_length=10)
    score: int | None = Field(default=None)
    chelem: bool = Field(default=False)
    who: str | None = Field(default=None, max_length=100)
    at: datetime.datetime = Field(default_factory=utcnow)
    kept: str | None = Field(default=None, max_length=10)
    resolved_by: str | None = Field(default=None, max_length=100)
    resolved_at: datetime.datetime | None = Field(default=None)


class JournalEntry(SQLModel, table=True):
    """One change made to a tournament during the evening (SPEC §11): who, when, what (``action``, a
    short English key such as ``player.edit``), a French ``summary`` for the arbiter, and the values
    ``before`` and ``after`` when there are some. Kept with the tournament; never edited."""

    __tablename__ = "journal_entry"
    # the entries of one action (the refused codes a phone's view counts at every refresh, issue 30): an
    # evening on the phones journals each entry and confirmation, thousands of rows
    __table_args__ = (sa.Index("ix_journal_entry_tournament_id_action", "tournament_id", "action"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    at: datetime.datetime = Field(default_factory=utcnow)
    who: str | None = Field(default=None, max_length=100)
    action: str = Field(max_length=40)
    summary: str = Field(default="", max_length=500)
    before: dict[str, Any] | None = _json()
    after: dict[str, Any] | None = _json()


class Substitution(SQLModel, table=True):
    """A substitute from a position on (SPEC §11, `core.evening.Substitution`): ``player_id`` sits at
    entrant ``seat``'s place from ``from_position``; ``results_to`` says who keeps the seat's results
    from then on (``player`` or ``substitute``)."""

    __table_args__ = (sa.UniqueConstraint("player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    seat: str = Field(max_length=40)
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE")
    from_position: int
    results_to: str = Field(default="player", max_length=20)
    extra: dict[str, Any] | None = _json()


class Penalty(SQLModel, table=True):
    """Percentage points (or PM) taken off an entrant, off one étui's note when ``board`` is given."""

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    entrant_id: str = Field(max_length=40)
    points: float
    reason: str | None = Field(default=None, max_length=500)
    board: int | None = Field(default=None)
    created_by: str | None = Field(default=None, max_length=100)
    created_at: datetime.datetime = Field(default_factory=utcnow)
    extra: dict[str, Any] | None = _json()


class User(SQLModel, table=True):
    """A staff account; the password is stored as a werkzeug hash, never in clear.

    A disabled account (``active`` false) cannot sign in and its sessions end. ``session_generation``
    is copied into the session cookie at sign-in and checked on every request: signing out, a new
    password or disabling the account increments it, which ends every session opened before."""

    __tablename__ = "user_account"

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(max_length=100, unique=True)
    password_hash: str = Field(max_length=300)
    role: Role = Field(sa_type=_enum(Role, "user_role"))
    created_at: datetime.datetime = Field(default_factory=utcnow)
    active: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})
    session_generation: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # the arbiter who made the account (a scorer made from a tournament's « Accès » page); None: made from
    # the command line or before ``i1_accounts_ownership`` (`operations.managed_scorers`, docs/accounts.md)
    created_by_id: int | None = Field(default=None, foreign_key="user_account.id", ondelete="SET NULL")


class TournamentAccess(SQLModel, table=True):
    """A user given a tournament by its arbiter: an arbiter account is a co-arbiter of it (sees and
    changes everything but who else has access), a scorer account enters its fiches (and nothing else)."""

    __tablename__ = "tournament_access"
    __table_args__ = (sa.UniqueConstraint("tournament_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    user_id: int = Field(foreign_key="user_account.id", ondelete="CASCADE", index=True)
    granted_by: str | None = Field(default=None, max_length=100)
    created_at: datetime.datetime = Field(default_factory=utcnow)


class SeriesAccess(SQLModel, table=True):
    """An arbiter account given a competition by its owner: a co-arbiter of the competition (adds his own
    séances to it, sets their coefficients, takes séances out), as `TournamentAccess` is for a tournament."""

    __tablename__ = "series_access"
    __table_args__ = (sa.UniqueConstraint("series_id", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    series_id: int = Field(foreign_key="series.id", ondelete="CASCADE", index=True)
    user_id: int = Field(foreign_key="user_account.id", ondelete="CASCADE", index=True)
    granted_by: str | None = Field(default=None, max_length=100)
    created_at: datetime.datetime = Field(default_factory=utcnow)


class SignInFailure(SQLModel, table=True):
    """Consecutive failed sign-ins for one user name from one address (``key``), kept in the database
    so that every thread and process of the server counts them together (`operations.sign_in`)."""

    __tablename__ = "sign_in_failure"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=200, unique=True)
    failures: int = Field(default=0)
    last_at: datetime.datetime = Field(default_factory=utcnow)
    locked_until: datetime.datetime | None = Field(default=None)


class ApiToken(SQLModel, table=True):
    """A bearer token for the electronic scoring API; only its SHA-256 is stored. A token made from a
    tournament's screen serves that tournament only (``tournament_id``) and is tied to the account that made
    it (``user_id``): it stops working when that account loses the tournament or is disabled
    (`operations.token_serves`). One made from the command line (``tournament_id`` and ``user_id`` None)
    serves every tournament and is listed and revoked on the command line only (docs/accounts.md)."""

    __tablename__ = "api_token"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    role: Role = Field(sa_type=_enum(Role, "api_token_role"))
    label: str | None = Field(default=None, max_length=100)
    created_at: datetime.datetime = Field(default_factory=utcnow)
    revoked: bool = Field(default=False)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id", ondelete="CASCADE", index=True)
    created_by: str | None = Field(default=None, max_length=100)
    user_id: int | None = Field(default=None, foreign_key="user_account.id", ondelete="CASCADE", index=True)


_sheet_version = sa.Column("version_id", sa.Integer, nullable=False)


class FreeSheet(SQLModel, table=True):
    """A feuille de marque of free play (SPEC §13): one table at one position, its deals in order.

    ``deals`` holds each deal as the SPEC §13 result without ``table`` and ``position`` (the row's):
    ``{"deal": 1, "taker": "N2", "partner": null, "contract": "garde", "points": 49, "bouts": 2,
    "poignees": [], "petit_au_bout": null, "chelem": null}`` or ``{"deal": 2, "passed": true}``; players are
    the movement's ids. The marks are never stored: the core computes them from these facts. The sheet is
    saved as a whole; ``version_id`` (as `Result`'s) refuses a save built from a stale sheet."""

    __tablename__ = "free_sheet"
    __mapper_args__ = {"version_id_col": _sheet_version}
    __table_args__ = (sa.UniqueConstraint("tournament_id", "position", "table"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    position: int
    table: int
    deals: list[dict[str, Any]] = Field(default_factory=list, sa_type=sa.JSON)
    entered_by: str | None = Field(default=None, max_length=100)
    updated_at: datetime.datetime = Field(default_factory=utcnow)
    version_id: int | None = Field(default=None, sa_column=_sheet_version)


class FreeTableEntry(SQLModel, table=True):
    """A feuille de marque typed on the table's phone (free play), waiting for another player of the table
    to confirm it with his code; it counts only then, as a `FreeSheet`. ``deals`` as `FreeSheet.deals`."""

    __tablename__ = "free_table_entry"
    __table_args__ = (sa.UniqueConstraint("tournament_id", "position", "table"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", index=True)
    position: int
    table: int
    deals: list[dict[str, Any]] = Field(default_factory=list, sa_type=sa.JSON)
    entered_at: datetime.datetime = Field(default_factory=utcnow)


class PositionClock(SQLModel, table=True):
    """The hall's countdown for the position in play (the projector, `operations.clock_state`): one per
    tournament. Running: ``ends_at`` is when time is up; paused: ``paused_remaining`` seconds are left;
    neither: not started. Every screen computes the remaining time from these, so all show the same clock."""

    __tablename__ = "position_clock"

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", ondelete="CASCADE", unique=True)
    position: int | None = Field(default=None)
    ends_at: datetime.datetime | None = Field(default=None)
    paused_remaining: int | None = Field(default=None)
    updated_at: datetime.datetime = Field(default_factory=utcnow)


class Simultaneous(SQLModel, table=True):
    """A simultané (issue 33, `core.simultaneous`): the same étuis played in several clubs, one national
    topage. ``deals``: the SPEC §9 deals file the clubs print their étuis from, without its seed until the
    embargo ends; ``seed_sha256`` published before the evening; nothing of the national results is public
    before ``embargo_at`` (aware, UTC)."""

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=20, unique=True)
    name: str = Field(max_length=200)
    kind: str = Field(max_length=20)
    deals: dict = _json(nullable=False)
    seed: str = Field(max_length=200)
    seed_sha256: str = Field(max_length=64)
    embargo_at: datetime.datetime
    created_at: datetime.datetime = Field(default_factory=utcnow)


class SimultaneousClub(SQLModel, table=True):
    """A club of a simultané: its ``code`` and ``key`` (the HMAC key its files are signed with), and its
    last accepted file (``envelope``, replaced by each new one: sending again replaces)."""

    __tablename__ = "simultaneous_club"
    __table_args__ = (sa.UniqueConstraint("simultaneous_id", "code"),)

    id: int | None = Field(default=None, primary_key=True)
    simultaneous_id: int = Field(foreign_key="simultaneous.id", ondelete="CASCADE", index=True)
    code: str = Field(max_length=8)
    name: str = Field(max_length=200)
    key: str = Field(max_length=64)
    envelope: dict | None = _json()
    uploaded_at: datetime.datetime | None = Field(default=None)
    uploads: int = Field(default=0)
