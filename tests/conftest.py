"""Fixtures for the tests that need the application or a database (flaskr style).

`database_url` runs a test twice: on a fresh SQLite file and on PostgreSQL at
``postgresql+psycopg://postgres@127.0.0.1:5432/test`` (override with $TEST_POSTGRES_URL). The PostgreSQL
run is skipped when the server does not answer. Each test gets a private schema, named after the test
process, that is dropped at the end of the session, so the ``test`` database is left as it was.

A test that asks for `database_url` alone gets an empty database (tests/test_migrations.py migrates it from
nothing). A test that asks for `app` (directly or through `client`, `runner`…) gets what `create_app` makes
of an empty database, made faster (issue 32: running the 15 migrations took two thirds of a test): the
SQLite file is a copy of a template migrated once per test process, and the PostgreSQL schema, migrated
once per process, is kept and emptied before each test (`postgres_migrated`: what TRUNCATE … RESTART
IDENTITY does, so ids start at 1 again as in a new database); a test that changed its tables (a downgrade)
leaves a schema made again from empty for the next one. `create_app` then finds the database at the head and migrates nothing (`db.upgrade`).

`app`, `client` and `runner` build on it. Tests that ask for none of these (tests/core/) touch no database
and import neither Flask nor SQLAlchemy through this file.

Issue 32, the second pass (28 November 2026; figures in docs/testing.md):

- A fixture that builds its own application on `database_url` with another configuration (CSRF on, behind a
  proxy) asks for `migrated` and gets the migrated database too; one that builds a SQLite application of
  its own asks for `sqlite_copy(name)`, a copy of the migrated template, and so do the e2e servers (third
  pass). Only tests/test_migrations.py and the faults' servers (and a test asking for `database_url` alone)
  migrate from empty.
- `share_compiled_code`: the URL rules' builders and the Jinja templates are compiled once per test
  process, not once per application (the same code, compiled once).
- Data for the tests that are not about the forms: `factories.create_tournament` (through the operations,
  Indico's ``create_event``), used by tests/web's `tournament_factory`; the form posts stay in the tests of
  the forms and when a factory is given a client.
- Text checks that a random token could satisfy or break read `pages.visible_text(page)` (what a person
  sees) or `pages.without_tokens(page)` (the HTML with the CSRF inputs' values blanked).
"""

import functools
import os
import shutil

import pytest
from hypothesis import settings

# Hypothesis fails an example that takes more than 200 ms of wall clock (its default deadline): on the shared,
# loaded machine an example slowed by other jobs failed so at random (issue 32: no test may fail on a loaded
# machine). Without the deadline the same examples run and every assertion stays.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

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


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite file migrated to the head once per test process, copied by the tests that ask for `app`."""
    import sqlite3

    from duplicate import db

    path = tmp_path_factory.mktemp("template") / "migrated.sqlite3"
    url = f"sqlite:///{path}"
    db.protect_sqlite_file(url)
    db.upgrade(url)
    connection = sqlite3.connect(path)  # every page in the file itself: nothing left in a -wal beside it
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    for suffix in ("-wal", "-shm"):
        if os.path.exists(f"{path}{suffix}"):
            os.remove(f"{path}{suffix}")
    return path


def _schema_url(schema: str) -> str:
    return f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"


# The shape of a schema: its columns (type, nullability, default), indexes and constraints, as one digest.
_SHAPE = """
    SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
        SELECT concat_ws(' ', c.relname, c.relkind::text, a.attname, format_type(a.atttypid, a.atttypmod),
                         a.attnotnull::text, pg_get_expr(d.adbin, d.adrelid)) AS x
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE n.nspname = :schema AND a.attnum > 0 AND NOT a.attisdropped
        UNION ALL SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = :schema
        UNION ALL SELECT concat_ws(' ', t.relname, k.conname, pg_get_constraintdef(k.oid)) FROM pg_constraint k
        JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = k.connamespace
        WHERE n.nspname = :schema) shape"""


def _schema_state(conn, schema: str) -> tuple[str | None, str | None]:
    """(the digest of `schema`'s shape, the revision it is at)."""
    from sqlalchemy import text

    shape = conn.execute(text(_SHAPE), {"schema": schema}).scalar()
    has_version = conn.execute(text("SELECT 1 FROM pg_tables WHERE schemaname = :schema "
                                    "AND tablename = 'alembic_version'"), {"schema": schema}).first()
    revision = None
    if has_version:
        revision = conn.exec_driver_sql(f'SELECT version_num FROM "{schema}".alembic_version').scalar()
    return shape, revision


@pytest.fixture(scope="session")
def postgres_migrated(postgres_schema):
    """``ready()``: this process's schema migrated to the head, its tables emptied, ids from 1 again.

    The schema is migrated once and its shape (columns, indexes, constraints) noted; before each test it is
    compared to that shape (tens of milliseconds, against 0.6–1 s for the migrations): unchanged, every
    table but ``alembic_version`` is emptied and every sequence restarted — as TRUNCATE … RESTART IDENTITY
    would, but DELETE with the foreign-key triggers off (``session_replication_role``, a superuser's
    setting; TRUNCATE otherwise) costs a few milliseconds where TRUNCATE's new files cost tens; changed (a
    test downgraded it, or asked for an empty database), the schema is made again from empty."""
    from duplicate import db

    noted = {}

    def ready() -> None:
        with _admin_engine().begin() as conn:
            conn.exec_driver_sql("SET LOCAL lock_timeout = '20s'")  # a connection left open fails, not hangs
            if noted and _schema_state(conn, postgres_schema) == (noted["shape"], db.head_revision()):
                conn.exec_driver_sql(noted["empty"])
                return
        _execute(f'DROP SCHEMA IF EXISTS "{postgres_schema}" CASCADE', f'CREATE SCHEMA "{postgres_schema}"')
        db.upgrade(_schema_url(postgres_schema))
        with _admin_engine().begin() as conn:
            shape, revision = _schema_state(conn, postgres_schema)
            tables = [f'"{postgres_schema}"."{name}"' for name in conn.exec_driver_sql(
                f"SELECT tablename FROM pg_tables WHERE schemaname = '{postgres_schema}' "
                "AND tablename <> 'alembic_version' ORDER BY 1").scalars()]
            superuser = conn.exec_driver_sql("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").scalar()
        assert revision == db.head_revision() and tables
        if superuser:
            empty = "SET LOCAL session_replication_role = replica; " + " ".join(f"DELETE FROM {t};" for t in tables)
            empty += (" SELECT setval(quote_ident(schemaname) || '.' || quote_ident(sequencename), start_value, false)"
                      f" FROM pg_sequences WHERE schemaname = '{postgres_schema}'")
        else:
            empty = f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"
        noted.update(shape=shape, empty=empty)

    return ready


@pytest.fixture
def migrated():
    """Asked for by a fixture that builds its own application on `database_url` (another configuration than
    `app`'s: CSRF on, behind a proxy…): its database comes migrated to the head, as `app`'s does."""


@pytest.fixture
def sqlite_copy(sqlite_template, tmp_path):
    """``sqlite_copy(name)``: the URL of a new SQLite file ``tmp_path / name``, a copy of the migrated
    template — for a fixture that builds its own SQLite application."""

    def copy(name: str) -> str:
        shutil.copy(sqlite_template, tmp_path / name)
        return f"sqlite:///{tmp_path / name}"

    return copy


@pytest.fixture(params=DATABASES)
def database_url(request, tmp_path):
    """The URL of an empty database: a SQLite file, or an empty PostgreSQL schema; for a test that asks for
    `app`, an empty database already migrated to the head (see the module's docstring)."""
    migrated = "app" in request.fixturenames or "migrated" in request.fixturenames
    if request.param == "sqlite":
        path = tmp_path / "test.sqlite3"
        if migrated:
            shutil.copy(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    schema = request.getfixturevalue("postgres_schema")
    if migrated:
        request.getfixturevalue("postgres_migrated")()
        yield _schema_url(schema)  # emptied before the next test
        return
    _execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE', f'CREATE SCHEMA "{schema}"')
    yield _schema_url(schema)
    _execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@functools.cache
def share_compiled_code() -> None:
    """Compile once per test process what every new application compiles again (issue 32: a test's
    application spent ≈ 0.25 s compiling its 126 URL rules' builders and ≈ 0.2 s its first templates).

    - Jinja: every `Flask` application gets one shared bytecode cache (`Flask.jinja_options`), so a
      template is parsed and compiled once per process, not once per test; the cache keys a template by its
      name and file, with its source's checksum, so an edited template is compiled again.
    - Werkzeug: a URL rule's builder (`Rule._compile_builder`, Python source generated and compiled for each
      rule of each application) is kept by what shapes it — the rule's text, host or subdomain, its parsed
      parts and defaults — and reused by the next application's same rule (it reads the rule it builds for
      from its ``.self`` argument, never from its closure).
    Nothing of the application's behaviour changes: the same code runs, compiled once."""
    import jinja2
    from flask import Flask
    from werkzeug.routing import rules

    class Compiled(jinja2.BytecodeCache):
        def __init__(self):
            self.codes = {}

        def load_bytecode(self, bucket):
            checksum, code = self.codes.get(bucket.key, (None, None))
            if checksum == bucket.checksum:  # the template's source has not changed since
                bucket.code = code

        def dump_bytecode(self, bucket):
            self.codes[bucket.key] = (bucket.checksum, bucket.code)

    Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": Compiled()}
    compile_builder, builders = rules.Rule._compile_builder, {}

    def kept_builder(self, append_unknown=True):
        key = (self.rule, self.map.host_matching, self.host, self.subdomain, self.merge_slashes,
               tuple(self._trace), repr(sorted((self.defaults or {}).items())), append_unknown)
        if key not in builders:
            builders[key] = compile_builder(self, append_unknown)
        return builders[key]

    rules.Rule._compile_builder = kept_builder


def pytest_collection_finish(session):
    """The test modules imported Flask (not those of tests/core): share its compiled code from the start."""
    import sys

    if "flask" in sys.modules and "werkzeug.routing" in sys.modules:
        share_compiled_code()


@pytest.fixture
def app(database_url):
    """The application on a fresh, migrated database (`database_url`: a copy of the migrated template, or the
    emptied migrated schema; `create_app` finds it at the head)."""
    from duplicate import create_app, db

    share_compiled_code()
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
