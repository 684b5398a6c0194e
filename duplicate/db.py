"""Database access: one engine per application, one session per request, migrations at start-up.

SQLite (the default) is tuned for several scorers entering results at once: every connection sets
``journal_mode=WAL`` (readers never block the writer), ``busy_timeout=5000`` (wait up to 5 s for a lock
instead of failing) and ``foreign_keys=ON``. SQLAlchemy emits BEGIN itself (the pysqlite recipe of the
SQLAlchemy documentation) so that write transactions start with ``BEGIN IMMEDIATE``: the write lock is
taken at the start, and two writers queue instead of one failing with "database is locked" when it
upgrades a read lock. Within one process (the waitress server's threads) the writers also queue on a
Python lock taken before ``BEGIN IMMEDIATE`` and released when the transaction ends: SQLite's busy
handler polls with growing sleeps (up to 100 ms) and is unfair — under 20 scorers at once some waited
its whole 5 s and got « base occupée » (503) while others passed — whereas the lock hands the database
to the next writer as soon as the last one commits (`WRITE_LOCK_WAIT` at most, then the same 503).
``synchronous`` stays SQLite's default, FULL: every commit waits for the disk (fsync of the WAL),
so an acknowledged line survives a power cut too. ``SQLITE_SYNCHRONOUS=NORMAL`` (opt-in) syncs at
checkpoints only: a commit then costs no fsync, a killed process loses nothing either, but a power cut
or an OS crash may lose the last commits (docs/serving.md).
``busy_timeout`` still arbitrates between processes (a command run beside the server). Requests with a safe method (GET, HEAD, OPTIONS) only read and use a deferred BEGIN,
and so do the views marked `reads_only` (sign-in and sign-out: a POST that writes nothing in the database),
so that reads and sign-in never wait for a writer nor make one wait. Views marked `reads_first` (the
scoring API, the table API, the entry screens' save) begin the same way, read who asks, the tournament and
the movement, then call `begin_writing`: only what their writes are checked against and the writes hold
the lock (issue 12).

Unit of work: views and operations call `get_session()`, add and flush, never commit. The request commits
once when its response status is below 400 and rolls back otherwise (an unhandled exception gives a 500).
Outside a request (a CLI command in an application context) the session is committed when the context
ends without an exception.

The database is opened on first use, not when the application is built: the first `get_database` (a
request, or a command that needs the database) upgrades it to the latest Alembic revision (so a new user
never runs a migration by hand), then creates the engines, once per process under a lock. Commands that
never touch the database (``deal``, ``score``, ``rank``, ``movement``, ``--help``) start without it and
without importing Alembic.
"""

import functools
import os
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass

from flask import current_app, g, has_request_context, request
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool
from sqlmodel import Session

from duplicate.config import pool_size, threads_from
from duplicate.paths import REPO_ROOT

MIGRATIONS_DIR = os.path.join(REPO_ROOT, "migrations")
EXTENSION_KEY = "duplicate.db"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
BEGIN_OPTION = "sqlite_begin"  # execution option read by the SQLite 'begin' listener
BEGIN_MODES = frozenset({"DEFERRED", "IMMEDIATE", "EXCLUSIVE"})
MIGRATION_LOCK_ID = 0x7A707D  # PostgreSQL advisory lock held while migrating
WRITE_LOCK_WAIT = 30.0  # seconds a writer queues for the process's SQLite write lock before a 503
_HOLDS_WRITE_LOCK = "duplicate.holds_write_lock"  # key of a pooled connection's info
_ENGINES = "duplicate.database"  # key of a request session's info: its application's `Database`


@dataclass(frozen=True)
class Database:
    """The engines of one application: `engine` writes (BEGIN IMMEDIATE on SQLite), `reader` reads."""

    engine: Engine
    reader: Engine


SYNCHRONOUS_MODES = ("FULL", "NORMAL")  # SQLite's ``synchronous`` under WAL: FULL (SQLite's default) or NORMAL


def make_engine(url: str, *, foreign_keys: bool = True, synchronous: str | None = None, **kwargs) -> Engine:
    """Create an engine; on SQLite, install the pragmas and the BEGIN handling described above
    (``synchronous``: `SYNCHRONOUS_MODES`, the ``SQLITE_SYNCHRONOUS`` setting; None: SQLite's default)."""
    if synchronous is not None and synchronous not in SYNCHRONOUS_MODES:
        raise ValueError(f"SQLITE_SYNCHRONOUS: {synchronous!r} is not one of {', '.join(SYNCHRONOUS_MODES)}")
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, foreign_keys, synchronous)
    return engine


def _configure_sqlite(engine: Engine, foreign_keys: bool, synchronous: str | None = None) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _connection_record):
        dbapi_connection.isolation_level = None  # the driver no longer emits BEGIN; on_begin does
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA foreign_keys=" + ("ON" if foreign_keys else "OFF"))
        if synchronous is not None:
            cursor.execute("PRAGMA synchronous=" + synchronous)
        cursor.close()

    write_lock = threading.Lock()

    def release(info) -> None:
        if info.pop(_HOLDS_WRITE_LOCK, False):
            write_lock.release()

    @event.listens_for(engine, "begin")
    def on_begin(conn):
        mode = conn.get_execution_options().get(BEGIN_OPTION, "IMMEDIATE")
        if mode not in BEGIN_MODES:
            raise ValueError(f"unknown SQLite BEGIN mode {mode!r}")
        if mode != "DEFERRED":
            if not write_lock.acquire(timeout=WRITE_LOCK_WAIT):
                raise OperationalError("BEGIN " + mode, None, sqlite3.OperationalError("database is locked"))
            conn.info[_HOLDS_WRITE_LOCK] = True
        try:
            conn.exec_driver_sql("BEGIN " + mode)
        except BaseException:
            release(conn.info)
            raise

    # The transaction's end, however it comes: commit, rollback, or the connection given back or lost.
    @event.listens_for(engine, "commit")
    @event.listens_for(engine, "rollback")
    def on_end(conn):
        release(conn.info)

    @event.listens_for(engine.pool, "checkin")
    @event.listens_for(engine.pool, "close")
    def on_given_back(_dbapi_connection, record):
        release(record.info)

    @event.listens_for(engine.pool, "invalidate")
    @event.listens_for(engine.pool, "reset")
    def on_lost(_dbapi_connection, record, _detail):
        release(record.info)


class _DatabaseSlot:
    """The `Database` of one application, opened on first use: migrated (``MIGRATE_ON_START``), then engines."""

    def __init__(self, config):
        self.config = config  # read again at opening: `serving.serve` sets THREADS before
        self.url = config["DATABASE_URL"]
        self.migrate = config.get("MIGRATE_ON_START", True)
        self.echo = config.get("SQLALCHEMY_ECHO", False)
        self.lock = threading.Lock()
        self.database: Database | None = None

    def get(self) -> Database:
        if self.database is None:
            with self.lock:
                if self.database is None:
                    self.database = self.open()
        return self.database

    def open(self) -> Database:
        protect_sqlite_file(self.url)
        if self.migrate:
            upgrade(self.url)
        options = {"echo": self.echo, "synchronous": str(self.config.get("SQLITE_SYNCHRONOUS") or "").strip().upper() or None}
        if not self.url.startswith("sqlite"):
            options["pool_pre_ping"] = True
        if ":memory:" not in self.url and self.url not in ("sqlite://", "sqlite:///"):
            options.update(pool_options(self.config))
        engine = make_engine(self.url, **options)
        return Database(engine=engine, reader=engine.execution_options(**{BEGIN_OPTION: "DEFERRED"}))


PRIVATE_MODE = 0o600  # read and written by the server's user only


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL, None for another database or an in-memory one."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:" \
            or parsed.database.startswith("file:"):
        return None
    return parsed.database


def protect_sqlite_file(url: str) -> None:
    """The SQLite database file is readable by the server's user only (mode 0600: it holds password
    hashes, tokens and secret scores): created so before SQLite opens it, and an older file left readable
    by others loses the group's and others' rights. SQLite gives its ``-wal`` and ``-shm`` files the database file's mode."""
    path = sqlite_path(url)
    if path is None or os.name != "posix":
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE))
    except FileExistsError:
        pass
    except OSError:
        return  # a missing folder: SQLite reports it with its own message
    for suffix in ("", "-wal", "-shm"):
        try:
            mode = os.stat(path + suffix).st_mode
            if mode & 0o077:
                os.chmod(path + suffix, mode & 0o700)  # the owner's rights stay (a read-only file stays so)
        except OSError:
            pass


def pool_options(config) -> dict:
    """The connection pool sized with the server (`duplicate.serving`): one connection per worker thread
    and a few spare, so that no request waits for a connection; a short overflow for bursts from
    threads outside the server (CLI, background jobs)."""
    return {"pool_size": pool_size(threads_from(config)), "max_overflow": 8, "pool_timeout": 30}


def get_database(app=None) -> Database:
    """The engines of `app` (default: the current application), the database opened on first use."""
    return (app or current_app).extensions[EXTENSION_KEY].get()


def get_engine(app=None) -> Engine:
    """The read-write engine of `app` (default: the current application)."""
    return get_database(app).engine


def reads_only(view):
    """Mark a view whose every method only reads the database (a POST that writes nothing, e.g. sign-in):
    its session begins DEFERRED and takes no write lock on SQLite."""
    view.reads_only = True
    return view


def reads_first(view):
    """Mark a view that reads what it needs (who asks, the tournament, the movement) before it writes: its
    session begins DEFERRED like a read, and the view calls `begin_writing` just before the reads its
    writes depend on (the results it checks against) — on SQLite only that part, and the writes, hold
    the write lock."""
    view.reads_first = True
    return view


def get_session() -> Session:
    """The session of the current request or application context, created on first use."""
    if "db_session" not in g:
        database = get_database()
        view = current_app.view_functions.get(request.endpoint) if has_request_context() else None
        read_only = has_request_context() and (
            request.method in SAFE_METHODS or getattr(view, "reads_only", False) or getattr(view, "reads_first", False))
        g.db_session = Session(database.reader if read_only else database.engine)
        g.db_session.info[_ENGINES] = database
    return g.db_session


def read_columns(session: Session, statement, params: dict | None = None):
    """The rows of a read of plain columns, run on the session's connection past the ORM's execution layer —
    a third of what `Session.execute` costs for a few rows (issue 30: a phone's write reads a handful of such
    columns; ≈ 0.1 ms each through the ORM). Only for statements that select no entity, and no column of
    `models.Result` unless the lines awaiting confirmation are wanted too: the ORM's criteria
    (`models._counted_only`: pending lines count nowhere) are not applied here. What the session holds
    unwritten is flushed first, as the ORM's autoflush would."""
    if session.autoflush:
        session.flush()
    return session.connection().execute(statement, params or {})


def begin_writing(session: Session) -> bool:
    """From here on the request writes (see `reads_first`): on SQLite, end the read transaction — the
    objects read stay loaded, not expired — so that the next statement begins the write transaction
    (``BEGIN IMMEDIATE``, the process's write lock) on the writing engine. What the request checks its
    writes against must be read after this call. Elsewhere (PostgreSQL: no write lock to wait for, each
    statement sees the latest commits) nothing changes. Idempotent. Whether a read transaction ended
    (what was read before may have changed since)."""
    database = session.info.get(_ENGINES)
    if database is None or session.bind is not database.reader or database.engine.dialect.name != "sqlite":
        return False
    transaction = session.get_transaction()
    if transaction is not None:  # nothing written yet: ends the read transaction, the objects kept loaded
        expire, session.expire_on_commit = session.expire_on_commit, False
        try:
            transaction.commit()
        finally:
            session.expire_on_commit = expire
    session.bind = database.engine
    return True


def end_writing(session: Session, *, commit: bool = True) -> None:
    """The request's writes are done: commit them (durable, the write lock released) — or roll them back
    (``commit`` false: refused) — and read the rest of the request (what its answer shows) in a read
    transaction, on SQLite without the write lock."""
    if commit:
        session.commit()
    else:
        session.rollback()
    database = session.info.get(_ENGINES)
    if database is not None and database.engine.dialect.name == "sqlite":
        session.bind = database.reader


def _finish_request(response):
    """Commit the request's session when the response is a success or a redirect, else roll back."""
    session = g.get("db_session")
    if session is not None:
        if response.status_code < 400:
            session.commit()
        else:
            session.rollback()
    return response


def _close_session(exc=None) -> None:
    """End the session with the application context: commit if no exception, else roll back."""
    session = g.pop("db_session", None)
    if session is None:
        return
    try:
        if exc is None:
            if session.in_transaction():  # else nothing to commit (the request committed, or rolled back)
                session.commit()
        else:
            session.rollback()
    finally:
        session.close()


def alembic_config(connection: Connection | None = None):
    """Alembic configuration for `migrations/`; `connection` is used by env.py when given."""
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig(os.path.join(MIGRATIONS_DIR, "alembic.ini"))
    cfg.attributes["connection"] = connection
    return cfg


@contextmanager
def migration_connection(url: str):
    """A connection inside a transaction for running Alembic against `url`.

    No pool; on SQLite, foreign keys off, since batch migrations copy and drop tables; on PostgreSQL, an
    advisory lock so that two processes starting together migrate one after the other (on SQLite,
    BEGIN IMMEDIATE does that).
    """
    engine = make_engine(url, foreign_keys=False, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_ID})")
            yield conn
    finally:
        engine.dispose()


@functools.cache
def head_revision() -> str | None:
    """The latest revision of `migrations/` (read once per process: the scripts do not change under it)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(conn: Connection) -> str | None:
    """The revision the database of `conn` is at, None for a database never migrated."""
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at `url` to `revision`. A database already at the head is left at once: Alembic
    would do nothing either, but only after loading its environment and every migration script (tens of
    milliseconds at each start of the application)."""
    from alembic import command

    with migration_connection(url) as conn:
        if revision == "head" and current_revision(conn) == head_revision() is not None:
            return
        command.upgrade(alembic_config(conn), revision)


def init_app(app) -> None:
    """Install the database (opened on first use, see `get_database`) and the session-per-request hooks."""
    app.extensions[EXTENSION_KEY] = _DatabaseSlot(app.config)
    app.after_request(_finish_request)
    app.teardown_appcontext(_close_session)
