"""Database plumbing: SQLite pragmas and BEGIN modes, one unit of work per request."""

import datetime

import pytest
from sqlalchemy import event
from sqlmodel import Session, func, select

from duplicate import db
from duplicate.models import Tournament, TournamentKind


def count_tournaments(app):
    with Session(db.get_engine(app)) as session:
        return session.exec(select(func.count()).select_from(Tournament)).one()


def add_tournament(name="Tournoi"):
    db.get_session().add(
        Tournament(name=name, kind=TournamentKind.individual, date=datetime.date(2026, 1, 10))
    )
    db.get_session().flush()


def test_sqlite_pragmas_and_begin_modes(tmp_path):
    engine = db.make_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    statements = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    with engine.begin() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    with engine.execution_options(sqlite_begin="DEFERRED").connect() as conn:
        conn.exec_driver_sql("SELECT 1")
    assert [s for s in statements if s.startswith("BEGIN")] == ["BEGIN IMMEDIATE", "BEGIN DEFERRED"]
    engine.dispose()


@pytest.fixture
def unit_of_work_app(app):
    """The app with three test routes that add a tournament, then succeed, fail or answer 400."""

    @app.post("/test/ok")
    def ok():
        add_tournament()
        return "ok"

    @app.post("/test/boom")
    def boom():
        add_tournament()
        raise RuntimeError("boom")

    @app.post("/test/invalid")
    def invalid():
        add_tournament()
        return "invalid", 400

    return app


def test_request_commits_on_success_only(unit_of_work_app):
    app = unit_of_work_app
    app.config["PROPAGATE_EXCEPTIONS"] = False
    client = app.test_client()
    assert client.post("/test/boom").status_code == 500
    assert client.post("/test/invalid").status_code == 400
    assert count_tournaments(app) == 0
    assert client.post("/test/ok").status_code == 200
    assert count_tournaments(app) == 1


def test_app_context_commits_outside_requests(app):
    with app.app_context():
        add_tournament()
    assert count_tournaments(app) == 1
    with pytest.raises(RuntimeError), app.app_context():
        add_tournament("annulé")
        raise RuntimeError
    assert count_tournaments(app) == 1


def test_sqlite_synchronous_is_opt_in(tmp_path):
    """SQLite's ``synchronous`` under WAL: its own default, FULL (2: every commit waits for the disk),
    unless ``SQLITE_SYNCHRONOUS=NORMAL`` (1: synced at checkpoints) is set; anything else is refused."""
    from duplicate import create_app

    def synchronous(engine):
        with engine.connect() as conn:
            return conn.exec_driver_sql("PRAGMA synchronous").scalar()

    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    assert synchronous(db.make_engine(url)) == 2
    assert synchronous(db.make_engine(url, synchronous="NORMAL")) == 1
    with pytest.raises(ValueError):
        db.make_engine(url, synchronous="OFF")
    app = create_app({"DATABASE_URL": url, "SQLITE_SYNCHRONOUS": "normal", "TESTING": True})
    assert synchronous(db.get_engine(app)) == 1
    db.get_engine(app).dispose()
