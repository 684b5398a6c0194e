"""Backups of the whole database, one command each (docs/backups.md):

* ``flask --app app backup FILE`` — SQLite: the online backup API (`sqlite3.Connection.backup`), a
  consistent copy taken while the server keeps serving; the copy is one self-contained file (rollback
  journal, not WAL), written next to FILE then renamed onto it, mode 0600. PostgreSQL: ``pg_dump
  --format=custom`` (the PostgreSQL client tools must be installed; the command says so when they are
  not), FILE mode 0600 too.
* ``flask --app app restore FILE [--yes]`` — the whole database replaced by FILE. SQLite: FILE is checked
  first (a SQLite database of this application that passes ``PRAGMA integrity_check``), the current
  database is saved beside itself (``….avant-restauration-AAAAMMJJ-HHMMSS``, mode 0600), FILE is copied
  beside it (mode 0600), migrated to the latest revision and marked (below), then copied in with the
  backup API (the running server sees the restored data at its next transaction). PostgreSQL:
  the schema's tables dropped, then ``pg_restore --clean --if-exists --no-owner``, in one transaction (``psql
  --single-transaction``), then migrated: a table added since the backup does not survive it.

A restore is seen by the running servers (issue 31, point 2): every restored tournament is given a new
``data_epoch`` (a random 62-bit number) and its ``data_version`` is raised above every version the replaced
database held (`_marks`), in the same transaction as the restored data (SQLite: the backup is copied,
migrated and marked in a file beside the database, which is then copied in whole; PostgreSQL: the
statement ends the script ``psql`` runs in one transaction). Every kept view, movement text, ETag and
route-sheet PDF is keyed by the epoch (`operations.data_version`), so none of the replaced data matches any
more, in any process, and no kept view of them is served to the public as « a little stale »: views of
another epoch are neither older nor newer. The raised version is for the browsers: the results page and
the projector reload when the version they poll is greater than the one they show.

A tournament's own file (``flask --app app export ID``, SPEC §9) is the other backup: it carries the
tournament with its journal of changes, and moves between clubs; these commands keep everything
(accounts, tokens, every tournament, the history of corrections).
"""

from __future__ import annotations

import datetime
import os
import secrets
import shutil
import sqlite3
import subprocess
import tempfile

import click
from flask import current_app
from flask.cli import with_appcontext

from duplicate.db import PRIVATE_MODE, protect_sqlite_file, sqlite_path, upgrade


class BackupError(Exception):
    """A backup or a restore that cannot be done; the message is French, for the user."""


#: how far above the replaced database's highest data version the restored versions start: commits made
#: between the reading of that version and the restore's taking of the database are counted in it
VERSION_MARGIN = 1000


def _marks(top_version: int | None) -> tuple[int, int]:
    """``(epoch, offset)`` for a restore over a database whose highest data version is ``top_version``: a
    new epoch (random, never 0, the epoch of a database never restored) and what to add to each restored
    version so that it exceeds every version the replaced database served."""
    return secrets.randbits(62) or 1, (top_version or 0) + VERSION_MARGIN


def _mark_statement(epoch: int, offset: int) -> str:
    return f"UPDATE tournament SET data_epoch = {int(epoch)}, data_version = data_version + {int(offset)}"


def upgrade_and_mark(url: str, epoch: int, offset: int) -> None:
    """Migrate the restored database to the head and, in the same transaction, give the tournaments not
    marked yet the restore's epoch and raised version (a backup older than the epoch's column: marked once
    migrated); nothing for those marked with the data."""
    from alembic import command
    from sqlalchemy import text

    from duplicate.db import alembic_config, current_revision, head_revision, migration_connection

    with migration_connection(url) as connection:  # one transaction: Alembic's runs inside it
        if current_revision(connection) != head_revision():
            command.upgrade(alembic_config(connection), "head")
        connection.execute(text(_mark_statement(epoch, offset) + " WHERE data_epoch <> :epoch"),
                           {"epoch": int(epoch)})


# --- SQLite -----------------------------------------------------------------------------------------------

def _private_temporary(folder: str, prefix: str) -> str:
    """A new empty file in `folder`, mode 0600 (mkstemp creates it so), for a copy renamed into place."""
    fd, path = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder or ".")
    os.close(fd)
    os.chmod(path, PRIVATE_MODE)
    return path


def _copy_sqlite(source: sqlite3.Connection, target_path: str) -> None:
    """Copy `source` with the online backup API into the file `target_path` (replaced atomically)."""
    folder = os.path.dirname(os.path.abspath(target_path))
    temporary = _private_temporary(folder, ".sauvegarde-")
    try:
        target = sqlite3.connect(temporary)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            target.close()
        os.replace(temporary, target_path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def backup_sqlite(database: str, out_path: str) -> None:
    """A consistent copy of the SQLite file `database` into `out_path`, while others may write."""
    if not os.path.exists(database):
        raise BackupError(f"la base « {database} » n’existe pas encore : rien à sauvegarder")
    source = sqlite3.connect(database)  # read only in effect; read-write so that WAL's index can be opened
    try:
        source.execute("PRAGMA busy_timeout=30000")
        _copy_sqlite(source, out_path)
    except sqlite3.Error as error:
        raise BackupError(f"sauvegarde impossible : {error}") from None
    finally:
        source.close()


def check_sqlite_backup(path: str) -> None:
    """FILE must be a sound SQLite database of this application (it has Alembic's revision table)."""
    if not os.path.isfile(path):
        raise BackupError(f"le fichier « {path} » n’existe pas")
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        raise BackupError(f"« {path} » n’est pas une base SQLite (ni une sauvegarde de cette application)") from None
    if verdict != "ok":
        raise BackupError(f"« {path} » est endommagé ({verdict}) : restauration refusée")
    if "alembic_version" not in tables or "tournament" not in tables:
        raise BackupError(f"« {path} » n’est pas une sauvegarde de cette application")


def _sqlite_top_version(database: str) -> int | None:
    """The highest data version of the SQLite database `database` (None: no database, no tournament)."""
    if not os.path.exists(database):
        return None
    connection = sqlite3.connect(database)
    try:
        connection.execute("PRAGMA busy_timeout=30000")
        return connection.execute("SELECT max(data_version) FROM tournament").fetchone()[0]
    except sqlite3.OperationalError:  # no tournament table (yet): an empty database
        return None
    finally:
        connection.close()


def restore_sqlite(database: str, backup_path: str) -> str | None:
    """Replace the SQLite database by `backup_path`, migrated and marked (`_marks`) beside the database
    first, so that the running server sees the restored data, at the latest revision and of a new epoch,
    in one step; return where the replaced database was saved."""
    check_sqlite_backup(backup_path)
    saved = None
    if os.path.exists(database):
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        saved = f"{database}.avant-restauration-{stamp}"
        backup_sqlite(database, saved)
    protect_sqlite_file("sqlite:///" + database)
    folder = os.path.dirname(os.path.abspath(database))
    prepared = _private_temporary(folder, ".restauration-")
    try:
        source = sqlite3.connect(f"file:{backup_path}?mode=ro", uri=True)
        try:
            _copy_sqlite(source, prepared)
        finally:
            source.close()
        upgrade("sqlite:///" + prepared)  # a backup of an older version of the application
        epoch, offset = _marks(_sqlite_top_version(database))
        source = sqlite3.connect(prepared)
        target = sqlite3.connect(database)
        try:
            with source:
                source.execute(_mark_statement(epoch, offset))
            target.execute("PRAGMA busy_timeout=30000")
            source.backup(target)  # page by page under the target's write lock: readers see old or new, whole
            target.execute("PRAGMA journal_mode=WAL")  # as the server opens it
        finally:
            target.close()
            source.close()
    except sqlite3.Error as error:
        raise BackupError(f"restauration impossible : {error} ; la base d’avant est dans « {saved} »") from None
    finally:
        for path in (prepared, prepared + "-journal", prepared + "-wal", prepared + "-shm"):
            if os.path.exists(path):
                os.unlink(path)
    return saved


# --- PostgreSQL -------------------------------------------------------------------------------------------

def _pg_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"« {name} » est introuvable : installez les outils clients de PostgreSQL "
                          f"(paquet postgresql-client) pour sauvegarder ou restaurer une base PostgreSQL")
    return path


def _pg_arguments(url: str) -> tuple[list[str], dict[str, str]]:
    """libpq options and environment for `url` (password in PGPASSWORD, never on the command line); a
    ``search_path`` given in the URL's ``options`` limits the dump to that schema."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    arguments = ["--dbname", parsed.database or "postgres"]
    if parsed.host:
        arguments += ["--host", parsed.host]
    if parsed.port:
        arguments += ["--port", str(parsed.port)]
    if parsed.username:
        arguments += ["--username", parsed.username]
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = parsed.password
    options = parsed.query.get("options", "")
    if isinstance(options, tuple):
        options = " ".join(options)
    if "search_path=" in options:
        arguments += ["--schema", options.split("search_path=", 1)[1].split()[0].split(",")[0]]
    return arguments, env


def backup_postgresql(url: str, out_path: str) -> None:
    arguments, env = _pg_arguments(url)
    folder = os.path.dirname(os.path.abspath(out_path))
    temporary = _private_temporary(folder, ".sauvegarde-")
    try:
        done = subprocess.run([_pg_tool("pg_dump"), "--format=custom", "--file", temporary, *arguments],
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupError(f"pg_dump a échoué : {done.stderr.strip()}")
        os.chmod(temporary, PRIVATE_MODE)
        os.replace(temporary, out_path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _pg_top_version(url: str) -> int | None:
    """The highest data version of the PostgreSQL database at `url` (None: no tournament table, none)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import ProgrammingError

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(text("SELECT max(data_version) FROM tournament")).scalar()
    except ProgrammingError:
        return None
    finally:
        engine.dispose()


# the restore's last statement, in its transaction: the restored tournaments marked (`_marks`) when the
# backup has the epoch's column (an older one is marked in its migration's transaction, `upgrade_and_mark`);
# the script of pg_restore empties search_path, RESET gives back the connection's
_PG_MARK = """
RESET search_path;
DO $mark$ BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
             AND table_name = 'tournament' AND column_name = 'data_epoch') THEN
    {statement};
  END IF;
END $mark$;
"""


# the restore's first statement, in its transaction: every table of the schema dropped, so that the database
# is the backup's whole — ``--clean`` drops only the backup's own tables, and a table added since the backup
# was made (a newer migration) would otherwise stay, and its migration fail to create it again
_PG_EMPTY = """
DO $empty$ DECLARE found record; BEGIN
  FOR found IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', found.tablename);
  END LOOP;
END $empty$;
"""


def restore_postgresql(url: str, backup_path: str) -> tuple[int, int]:
    """Replace the database by the dump `backup_path` and mark it (`_marks`), in one transaction; return the
    marks."""
    if not os.path.isfile(backup_path):
        raise BackupError(f"le fichier « {backup_path} » n’existe pas")
    arguments, env = _pg_arguments(url)
    tool = _pg_tool("pg_restore")
    psql = _pg_tool("psql")
    listing = subprocess.run([tool, "--list", backup_path], env=env, capture_output=True, text=True)
    if listing.returncode != 0 or "alembic_version" not in listing.stdout:
        raise BackupError(f"« {backup_path} » n’est pas une sauvegarde pg_dump de cette application")
    connection = list(arguments)  # psql's: the connection; pg_restore's (writing a script): the schema only
    schema = None
    if "--schema" in connection:
        at = connection.index("--schema")
        schema = connection[at + 1]
        del connection[at:at + 2]
    folder = tempfile.mkdtemp(prefix="restauration-")
    try:
        script = os.path.join(folder, "restauration.sql")
        done = subprocess.run([tool, "--clean", "--if-exists", "--no-owner", "--file", script,
                               *(["--schema", schema] if schema is not None else []), backup_path],
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupError(f"pg_restore a échoué (rien n’a changé) : {done.stderr.strip()}")
        epoch, offset = _marks(_pg_top_version(url))
        with open(script, encoding="utf-8") as restoring:
            statements = restoring.read()
        with open(script, "w", encoding="utf-8") as out:
            out.write(_PG_EMPTY + statements + _PG_MARK.format(statement=_mark_statement(epoch, offset)))
        psql_env = dict(env)
        if schema is not None:  # the URL's search_path, for the unqualified names of the marking
            psql_env["PGOPTIONS"] = (psql_env.get("PGOPTIONS", "") + f" -csearch_path={schema}").strip()
        done = subprocess.run([psql, "--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1", "--single-transaction",
                               "--file", script, *connection], env=psql_env, capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupError(f"la restauration a échoué (rien n’a changé) : {done.stderr.strip()}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return epoch, offset


# --- the commands -----------------------------------------------------------------------------------------

def backup_database(url: str, out_path: str) -> None:
    database = sqlite_path(url)
    if database is not None:
        backup_sqlite(database, out_path)
    elif url.startswith("postgresql"):
        backup_postgresql(url, out_path)
    else:
        raise BackupError("sauvegarde possible pour SQLite et PostgreSQL seulement")


def restore_database(url: str, backup_path: str) -> str | None:
    database = sqlite_path(url)
    if database is not None:
        saved = restore_sqlite(database, backup_path)
    elif url.startswith("postgresql"):
        marks = restore_postgresql(url, backup_path)
        upgrade_and_mark(url, *marks)  # a backup of an older version of the application: marked once migrated
        return None
    else:
        raise BackupError("restauration possible pour SQLite et PostgreSQL seulement")
    upgrade(url)  # at the head already (migrated before being copied in)
    return saved


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False))
@with_appcontext
def backup_command(file: str) -> None:
    """Sauvegarde toute la base dans FILE (SQLite : copie à chaud ; PostgreSQL : pg_dump)."""
    try:
        backup_database(current_app.config["DATABASE_URL"], file)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Base sauvegardée dans « {file} » ({os.path.getsize(file)} octets).")


@click.command("restore")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--yes", is_flag=True, help="Ne pas demander de confirmation.")
@with_appcontext
def restore_command(file: str, yes: bool) -> None:
    """Remplace toute la base par la sauvegarde FILE (faite par « backup »)."""
    if not yes:
        click.confirm(f"Remplacer TOUTE la base par « {file} » ?", abort=True)
    try:
        saved = restore_database(current_app.config["DATABASE_URL"], file)
    except BackupError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Base restaurée depuis « {file} ».")
    if saved:
        click.echo(f"La base remplacée est conservée dans « {saved} ».")
