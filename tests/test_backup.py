"""Backups (issue 13, point 7): ``flask --app app backup FILE`` / ``restore FILE`` of the whole database
(SQLite online backup; pg_dump / pg_restore for PostgreSQL), the SQLite file and its backups readable by
their owner only (0600), and the tournament file carrying the journal of changes, losslessly."""

import json
import os
import shutil
import sqlite3

import pytest
from sqlmodel import Session, select

from duplicate import create_app, db, operations
from duplicate.core.tournament import TournamentError
from duplicate.interchange import export_tournament, import_tournament
from duplicate.models import JournalEntry, Tournament, User


def mode(path) -> int:
    return os.stat(path).st_mode & 0o777


def names(app) -> list[str]:
    with Session(db.get_engine(app)) as session:
        return sorted(t.name for t in session.exec(select(Tournament)))


def add_tournament(app, name: str) -> None:
    with Session(db.get_engine(app)) as session:
        tournament = operations.create_tournament(session, name=name, kind="individual")
        # one player: a tournament file with none is refused on import (issue 14)
        operations.register_player(session, tournament, licence=None, surname="DUPONT", first_name="Jean",
                                   club="TC Lyon")
        session.commit()


@pytest.fixture
def app(database_url):
    app = create_app({"DATABASE_URL": database_url})
    with app.app_context(), Session(db.get_engine(app)) as session:  # the app's PASSWORD_HASH_METHOD
        operations.create_user(session, "arbitre", "mot-de-passe-solide", "arbiter")
        session.commit()
    add_tournament(app, "Mardi")
    yield app
    db.get_engine(app).dispose()


def backup_tools_missing(app) -> bool:
    return not db.get_engine(app).url.get_backend_name() == "sqlite" and shutil.which("pg_dump") is None


def test_backup_then_restore_gives_back_the_whole_database(app, tmp_path):
    if backup_tools_missing(app):
        pytest.skip("pg_dump / pg_restore absents : sauvegarde PostgreSQL impossible ici")
    runner = app.test_cli_runner()
    saved = tmp_path / "sauvegarde.db"
    done = runner.invoke(args=["backup", str(saved)])
    assert done.exit_code == 0, done.output
    assert "sauvegardée" in done.output
    assert mode(saved) == 0o600
    add_tournament(app, "Jeudi")  # after the backup: the restore forgets it
    with Session(db.get_engine(app)) as session:
        session.delete(session.exec(select(Tournament).where(Tournament.name == "Mardi")).one())
        session.commit()
    assert names(app) == ["Jeudi"]

    done = runner.invoke(args=["restore", str(saved), "--yes"])
    assert done.exit_code == 0, done.output
    assert names(app) == ["Mardi"]  # the server's own engine sees the restored data
    with Session(db.get_engine(app)) as session:
        assert [u.username for u in session.exec(select(User))] == ["arbitre"]
    database = db.sqlite_path(app.config["DATABASE_URL"])
    if database:  # the replaced database is kept beside it, private too
        kept = [name for name in os.listdir(os.path.dirname(database)) if ".avant-restauration-" in name]
        assert len(kept) == 1 and mode(os.path.join(os.path.dirname(database), kept[0])) == 0o600
        assert "Jeudi" in [row[0] for row in sqlite3.connect(os.path.join(os.path.dirname(database), kept[0]))
                           .execute("SELECT name FROM tournament")]


def marks(app) -> dict[str, tuple[int, int]]:
    """Tournament name → (data epoch, data version)."""
    with Session(db.get_engine(app)) as session:
        return {t.name: (t.data_epoch, t.data_version) for t in session.exec(select(Tournament))}


def test_a_restore_gives_the_restored_data_a_new_epoch_and_versions_above_the_replaced_ones(app, tmp_path):
    """Issue 31, point 2: nothing a running server kept of the replaced data matches the restored data —
    a new epoch — and the pages open on the replaced data reload — a greater version."""
    if backup_tools_missing(app):
        pytest.skip("pg_dump / pg_restore absents : sauvegarde PostgreSQL impossible ici")
    runner = app.test_cli_runner()
    saved = tmp_path / "sauvegarde.db"
    assert runner.invoke(args=["backup", str(saved)]).exit_code == 0
    before = marks(app)["Mardi"]
    with Session(db.get_engine(app)) as session:  # writes after the backup: the version climbs
        tournament = session.exec(select(Tournament).where(Tournament.name == "Mardi")).one()
        for number in range(3):
            operations.register_player(session, tournament, licence=None, surname=f"NOUVEAU{number}",
                                       first_name="Jean", club="TC Lyon")
            session.commit()
    replaced = marks(app)["Mardi"]
    assert replaced[1] > before[1]
    epochs = {before[0]}
    for _ in range(2):  # restored twice: two epochs, each new
        done = runner.invoke(args=["restore", str(saved), "--yes"])
        assert done.exit_code == 0, done.output
        restored = marks(app)["Mardi"]
        assert restored[0] not in epochs and restored[1] > replaced[1]
        epochs.add(restored[0])
        replaced = restored


def test_a_backup_made_before_the_epoch_existed_is_marked_once_migrated(app, tmp_path):
    if backup_tools_missing(app):
        pytest.skip("pg_dump / pg_restore absents : sauvegarde PostgreSQL impossible ici")
    from alembic import command

    url = app.config["DATABASE_URL"]
    top = marks(app)["Mardi"][1]
    db.get_engine(app).dispose()
    with db.migration_connection(url) as conn:
        command.downgrade(db.alembic_config(conn), "i1_accounts_ownership")
    runner = app.test_cli_runner()
    saved = tmp_path / "ancienne.db"
    assert runner.invoke(args=["backup", str(saved)]).exit_code == 0  # a backup without data_epoch
    db.upgrade(url)
    done = runner.invoke(args=["restore", str(saved), "--yes"])
    assert done.exit_code == 0, done.output
    db.get_engine(app).dispose()
    epoch, version = marks(app)["Mardi"]
    assert epoch != 0 and version > top


def test_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(app, tmp_path):
    if backup_tools_missing(app):
        pytest.skip("pg_dump / pg_restore absents")
    runner = app.test_cli_runner()
    for content in (b"ceci n'est pas une base", b""):
        wrong = tmp_path / "faux.db"
        wrong.write_bytes(content)
        done = runner.invoke(args=["restore", str(wrong), "--yes"])
        assert done.exit_code == 1
        assert "n’est pas" in done.output
    other = tmp_path / "autre.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    done = runner.invoke(args=["restore", str(other), "--yes"])
    assert done.exit_code == 1 and "n’est pas" in done.output
    done = runner.invoke(args=["restore", str(tmp_path / "absent.db"), "--yes"])
    assert done.exit_code == 1 and "n’existe pas" in done.output
    assert names(app) == ["Mardi"]


def test_restore_asks_before_replacing_everything(app, tmp_path):
    if backup_tools_missing(app):
        pytest.skip("pg_dump / pg_restore absents")
    runner = app.test_cli_runner()
    saved = tmp_path / "sauvegarde.db"
    assert runner.invoke(args=["backup", str(saved)]).exit_code == 0
    add_tournament(app, "Jeudi")
    done = runner.invoke(args=["restore", str(saved)], input="n\n")
    assert done.exit_code == 1 and "Remplacer TOUTE la base" in done.output
    assert names(app) == ["Jeudi", "Mardi"]


def test_without_pg_dump_the_postgresql_backup_says_so(app, tmp_path, monkeypatch):
    if db.get_engine(app).url.get_backend_name() == "sqlite":
        pytest.skip("PostgreSQL seulement")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    done = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "x.dump")])
    assert done.exit_code == 1
    assert "pg_dump" in done.output and "postgresql-client" in done.output


# --- the SQLite file is private -------------------------------------------------------------------------------

def test_the_sqlite_database_is_created_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "neuve.sqlite3"
    app = create_app({"DATABASE_URL": f"sqlite:///{path}"})
    add_tournament(app, "Mardi")
    db.get_engine(app).dispose()
    assert mode(path) == 0o600
    for suffix in ("-wal", "-shm"):
        if os.path.exists(f"{path}{suffix}"):
            assert mode(f"{path}{suffix}") == 0o600


def test_an_older_database_readable_by_all_is_made_private(tmp_path):
    path = tmp_path / "ancienne.sqlite3"
    sqlite3.connect(path).close()
    os.chmod(path, 0o644)
    app = create_app({"DATABASE_URL": f"sqlite:///{path}"})
    add_tournament(app, "Mardi")
    db.get_engine(app).dispose()
    assert mode(path) == 0o600


# --- the tournament file carries the journal -----------------------------------------------------------------

def test_the_export_carries_the_journal_and_import_gives_it_back(app):
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = session.exec(select(Tournament)).one()
        operations.journal(session, tournament, action="player.edit", who="arbitre",
                           summary="Joueur « DUPONT Jean » : club « TC Lyon » → « TC Villeurbanne ».",
                           before={"club": "TC Lyon"}, after={"club": "TC Villeurbanne"})
        operations.journal(session, tournament, action="penalty.add", summary="Pénalité de 2,5 points à N1.")
        session.commit()
        entries = list(session.exec(select(JournalEntry).order_by(JournalEntry.id)))
        data = export_tournament(session, tournament)
    first, second = data["journal"]
    assert first == {"at": entries[0].at.replace(tzinfo=None).isoformat() + "Z", "who": "arbitre",
                     "action": "player.edit",
                     "summary": "Joueur « DUPONT Jean » : club « TC Lyon » → « TC Villeurbanne ».",
                     "before": {"club": "TC Lyon"}, "after": {"club": "TC Villeurbanne"}}
    assert set(second) == {"at", "action", "summary"}
    assert first["at"].endswith("Z") and first["at"] <= second["at"]

    with Session(db.get_engine(app), expire_on_commit=False) as session:
        copy = import_tournament(session, json.dumps(data, ensure_ascii=False))
        session.commit()
        again = export_tournament(session, copy)
    assert again == data  # lossless: the journal too, to the microsecond


@pytest.mark.parametrize("entry, named", [
    ({"action": "player.edit"}, "at"),
    ({"at": "hier soir", "action": "player.edit"}, "at"),
    ({"at": "2026-03-14T20:05:00Z"}, "action"),
    ({"at": "2026-03-14T20:05:00Z", "action": "x", "before": "avant"}, "before"),
])
def test_a_faulty_journal_entry_is_refused_by_name(app, entry, named):
    with Session(db.get_engine(app)) as session:
        data = export_tournament(session, session.exec(select(Tournament)).one())
        data["journal"] = [entry]
        with pytest.raises(TournamentError) as raised:
            import_tournament(session, json.dumps(data))
    assert "journal, entrée n° 1" in str(raised.value) and f"« {named} »" in str(raised.value)
