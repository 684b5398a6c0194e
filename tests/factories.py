"""Data for the tests that are not about the forms, built through `duplicate.operations` (Indico's
``create_event(**kwargs)`` in ``testing/fixtures/event.py``; ARCHITECTURE habit 17): one session, one commit,
no HTTP request, no form, no redirect — issue 32: a test's set-up posting 22 players' forms one by one
spent seconds before its first assertion. `demo_tournament` gives the demonstration tournament
(`duplicate.demo`), built once per test process and engine, then copied.

The tests of the forms themselves keep posting them (tests/web/conftest.py `_new_tournament`, `_register`,
and the form tests of tests/web/test_arbiter.py); what is built here is what those forms build: the same
fields, the same owner, the same players.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools

import sqlalchemy as sa
from sqlmodel import Session, SQLModel, select

from duplicate import db, models, operations
from duplicate.demo import build_demo
from duplicate.models import Tournament, User, utcnow


def register_players(session: Session, tournament, count: int) -> None:
    """``count`` players as the tests' form posts register them: licences L0000, L0001…, surnames NOM00,
    NOM01…, first name « Prénom », club « Club »."""
    for i in range(count):
        operations.register_player(session, tournament, licence=f"L{i:04d}", surname=f"NOM{i:02d}",
                                   first_name="Prénom", club="Club")


def create_tournament(app, kind: str = "individual", players: int = 0, *, name: str = "Tournoi",
                      date: str = "2026-11-24", place: str = "Club", owner: str | None = None) -> int:
    """A tournament as the arbiter's « Nouveau tournoi » form creates it (one séance, Europe/Paris, no
    colour, not a championship), owned by the account ``owner`` (a username; None: shared), with
    ``players`` players registered as `register_players` does; its id."""
    with app.app_context(), Session(db.get_engine(app)) as session:
        user = session.exec(select(User).where(User.username == owner)).one() if owner else None
        tournament = operations.create_tournament(
            session, name=name, kind=kind, date=datetime.date.fromisoformat(date), place=place, colour="",
            sessions=1, timezone="Europe/Paris", owner=user, championship=False)
        register_players(session, tournament, players)
        session.commit()
        return tournament.id


# --- the demonstration tournament, built once per test process and engine (issue 32, fourth pass) ----------

#: dialect name → what `build_demo` wrote the first time in this process on that engine (`_DemoRows`).
_DEMO: dict[str, _DemoRows] = {}


@dataclasses.dataclass
class _DemoRows:
    """What the first build wrote, read back from the database."""

    tournament_id: int
    tables: list  # the tables `build_demo` wrote, in their foreign keys' order
    rows: dict  # table name → its rows, as read back after the build
    sequences: dict  # PostgreSQL: table name → its id sequence's (last value, called) before the build, after it
    latest: datetime.datetime  # the latest clock value among the rows


def demo_tournament(session: Session):
    """`duplicate.demo.build_demo(session)` (flushed, not committed), built once per test process and engine
    and copied afterwards: its rows are inserted again as they were (same ids, same deals, same scores: the
    demonstration is deterministic), in the caller's transaction.

    What differs between two builds is made again as a build would: the clock columns (``created_at``,
    ``at``, ``updated_at``…) are moved to now, their spacing kept, so that the copy's latest equals now, and
    the tokens (the players' route-sheet tokens, the tournament's ``table_key``) are drawn anew. A tournament
    is thus never the same twice for the caches keyed by its creation time (`operations._changes`).

    A build costs 0.3–1.7 s of CPU (100 results through `operations`); the copy, a few milliseconds. It is
    copied only where a build would give those very ids: the tables it writes are empty, and on PostgreSQL
    their sequences stand where they stood before the first build (a rolled-back build moves them on);
    elsewhere (a second demonstration in one database) it is built."""
    connection = session.connection()
    kept = _DEMO.get(connection.dialect.name)
    if kept is not None:
        if not _demo_fits(connection, kept):
            return build_demo(session)
        now = utcnow()
        for table in kept.tables:
            rows = [_made_again(table.name, row, now - kept.latest) for row in kept.rows[table.name]]
            session.execute(sa.insert(table), rows)  # through the session: `operations._changes` notes the writes
        for name, (sequence, _) in _sequences(connection, list(kept.sequences)).items():
            last, called = kept.sequences[name][1]
            connection.exec_driver_sql("SELECT setval(%(name)s, %(value)s, %(called)s)",
                                       {"name": sequence, "value": last, "called": called})
        return session.get(Tournament, kept.tournament_id)

    before = _counts(connection)
    sequences_before = _sequences(connection, [name for name, count in before.items() if count == 0])
    tournament = build_demo(session)
    session.flush()
    after = _counts(connection)
    written = [table for table in SQLModel.metadata.sorted_tables if after[table.name] != before[table.name]]
    rows = {table.name: [dict(row._mapping) for row in
                         connection.execute(sa.select(table).order_by(*table.primary_key.columns))]
            for table in written}
    if all(before[table.name] == 0 for table in written) and not _points_outside(written, rows):
        clock = [value for table_rows in rows.values() for row in table_rows for value in row.values()
                 if isinstance(value, datetime.datetime)]
        sequences_after = _sequences(connection, [table.name for table in written])
        _DEMO[connection.dialect.name] = _DemoRows(
            tournament.id, written, rows,
            {name: (sequences_before[name][1], state) for name, (_, state) in sequences_after.items()},
            max(clock))
    return tournament


def _counts(connection) -> dict[str, int]:
    return {table.name: connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
            for table in SQLModel.metadata.sorted_tables}


def _sequences(connection, names: list[str]) -> dict[str, tuple[str, tuple]]:
    """table name → (its ``id`` sequence in the current schema, (last value, called)) on PostgreSQL;
    nothing on SQLite (no AUTOINCREMENT table there: an empty table numbers its rows from 1)."""
    if connection.dialect.name != "postgresql":
        return {}
    found = connection.exec_driver_sql(
        "SELECT name, pg_get_serial_sequence(name, 'id') FROM unnest(%(names)s::text[]) AS name",
        {"names": [name for name in names if "id" in SQLModel.metadata.tables[name].c]}).all()
    found = [(name, sequence) for name, sequence in found if sequence]
    if not found:
        return {}
    states = connection.exec_driver_sql(" UNION ALL ".join(
        f"SELECT {i}, last_value, is_called FROM {sequence}" for i, (_, sequence) in enumerate(found))).all()
    return {found[i][0]: (found[i][1], (last, called)) for i, last, called in states}


def _points_outside(tables: list, rows: dict) -> bool:
    """Whether a row the build wrote refers to a row it did not write (an id a copy would not carry
    along: an owner, a user); the demonstration's do not (no owner)."""
    names = {table.name for table in tables}
    return any(row[key.parent.name] is not None for table in tables for key in table.foreign_keys
               if key.column.table.name not in names for row in rows[table.name])


def _demo_fits(connection, kept: _DemoRows) -> bool:
    """Whether a build here would give the kept rows' ids: the tables it writes are empty and, on
    PostgreSQL, their sequences stand where they stood before the first build."""
    if any(connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one() for table in kept.tables):
        return False
    states = _sequences(connection, list(kept.sequences))
    return all(states[name][1] == before for name, (before, _) in kept.sequences.items())


@functools.cache
def _token_columns() -> dict[str, set[str]]:
    """table name → its columns drawn by `models.new_token` (random at each build)."""
    columns = {}
    for mapper in SQLModel._sa_registry.mappers:
        for name, field in getattr(mapper.class_, "model_fields", {}).items():
            if field.default_factory is models.new_token:
                columns.setdefault(mapper.local_table.name, set()).add(name)
    return columns


def _made_again(table: str, row: dict, shift: datetime.timedelta) -> dict:
    """A kept row as a new build would write it: its clock moved by ``shift``, its tokens drawn anew."""
    tokens = _token_columns().get(table, ())
    return {name: models.new_token() if name in tokens
            else value + shift if isinstance(value, datetime.datetime) else value
            for name, value in row.items()}


def club_evening(scores: dict[int, dict[int, int]], takers: dict[int, str]) -> dict:
    """A simultané club's individual evening (issue 33) as its SPEC §9 file: table t seats N<t>, S<t>, E<t>,
    W<t> and plays the étuis of ``scores[t]`` (étui → score) at position 1; the taker sits at the étui's
    taker seat (``takers``: étui → seat)."""
    players, results = [], []
    for table, boards in sorted(scores.items()):
        seated = {seat: f"{seat}{table}" for seat in "NSEW"}
        players += [{"id": ident, "name": f"JOUEUR {ident}", "line": seat} for seat, ident in seated.items()]
        for board, score in sorted(boards.items()):
            taker = seated[takers[board]]
            results.append({"board": board, "table": table, "position": 1, "taker": taker,
                            "defenders": [ident for ident in seated.values() if ident != taker], "score": score})
    return {"format": "tarot-tournament/1", "name": "Soirée du club", "kind": "individual", "players": players,
            "boards": [{"number": n, "taker": t} for n, t in takers.items()], "results": results}
