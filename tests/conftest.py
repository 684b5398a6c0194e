"""Fixtures for the tests that need the application or a database (flaskr style).

`database_url` runs a test twice: on a fresh SQLite file and on PostgreSQL at
``postgresql+psycopg://postgres@127.0.0.1:5432/test`` (override with $TEST_POSTGRES_URL). The PostgreSQL
run is skipped when the server does not answer. Each test gets an empty private schema, named after the
test process, that is dropped at the end of the session, so the ``test`` database is left as it was.

`app`, `client` and `runner` build on it. Tests that ask for none of these (tests/core/) touch no database
and import neither Flask nor SQLAlchemy through this file.
"""

import functools
import os

import pytest

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
SCHEMA_PREFIX = "duplicate_test_"
DATABASES = ["sqlite", "postgresql"]


def _admin_engine():
    """A pool-less engine on the PostgreSQL test database, failing fast when the server is away."""
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    return create_engine(POSTGRES_URL, poolclass=NullPool, connect_args={"connect_timeout": 2})


@functools.cache
def postgres_reachable() -> bool:
    """Whether the PostgreSQL test server answers (probed once per test session)."""
    try:
        with _admin_engine().connect():
            return True
    except Exception:
        return False


def _execute(*statements: str) -> None:
    with _admin_engine().begin() as conn:
        for statement in statements:
            conn.exec_driver_sql(statement)


def _drop_stale_schemas() -> None:
    """Drop the schemas left behind by test sessions that were killed (their process is gone)."""
    from sqlalchemy import text

    with _admin_engine().begin() as conn:
        names = conn.execute(
            text("SELECT nspname FROM pg_namespace WHERE nspname LIKE :prefix"),
            {"prefix": SCHEMA_PREFIX + "%"},
        ).scalars()
        for name in list(names):
            pid = name.removeprefix(SCHEMA_PREFIX)
            if pid.isdigit() and not _process_alive(int(pid)):
                conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@pytest.fixture(scope="session")
def postgres_schema():
    """The name of this session's private PostgreSQL schema; dropped when the session ends."""
    if not postgres_reachable():
        from sqlalchemy.engine import make_url

        pytest.skip(f"PostgreSQL is not reachable at {make_url(POSTGRES_URL).render_as_string()}")
    _drop_stale_schemas()
    schema = f"{SCHEMA_PREFIX}{os.getpid()}"
    yield schema
    _execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=DATABASES)
def database_url(request, tmp_path):
    """The URL of an empty database: a SQLite file, or an empty PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    schema = request.getfixturevalue("postgres_schema")
    _execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE', f'CREATE SCHEMA "{schema}"')
    yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    _execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def app(database_url):
    """The application on a fresh, migrated database."""
    from duplicate import create_app, db

    app = create_app({"DATABASE_URL": database_url})
    yield app
    db.get_engine(app).dispose()


@pytest.fixture
def client(app):
    """A test client for `app`."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """A runner for the `flask` commands of `app`."""
    return app.test_cli_runner()


@pytest.fixture(autouse=True)
def _no_kept_views_across_tests():
    """The kept views (`operations._changes.VIEWS`) live in the process, keyed by tournament id and data
    version; every test's database starts again from tournament 1, so a view kept by one test must not meet
    the next: the worker is let finish, then the cache is emptied."""
    yield
    from duplicate.operations._changes import VIEWS

    VIEWS.settle(10)
    VIEWS.clear()
