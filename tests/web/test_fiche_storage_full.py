"""A fiche saved when the database cannot store it (issue 31, point 6): disk full, a read-only or busy
database. Nothing is saved, nothing typed is lost — as for an expired form (`web.expired_forms`) the fiche
comes back with every typed score in its input and the database's reason in French (503), without « score
enregistré »; saved again once there is room, it goes through.

The full disk is the database's own error for it, raised on the first write of the request (an engine
event, in this process): SQLite's « database or disk is full » (SQLITE_FULL), PostgreSQL's « could not extend
file … No space left on device ». A real full disk — the live server's files held by ``RLIMIT_FSIZE`` — is
tests/faults/test_storage.py."""

import re

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from duplicate import db
from duplicate.models import Result
from scoring_helpers import fields, give_scorers, ready
from test_expired_forms import app, page_of, signed_in  # noqa: F401 (the fixture: CSRF on, two accounts)

SQLITE_FULL = "database or disk is full"
PG_FULL = "could not extend file \"base/16384/16385\": No space left on device"


def disk_switch(app):
    """``switch(True)``: from now on the database cannot grow; ``switch(False)``: room again."""
    engine = db.get_engine(app)
    state = {"full": False}
    message = SQLITE_FULL if engine.dialect.name == "sqlite" else PG_FULL

    @event.listens_for(engine, "before_cursor_execute")
    def refuse(_conn, _cursor, statement, parameters, _context, _many):
        if state["full"] and statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            raise OperationalError(statement, parameters, Exception(message))

    def switch(full: bool) -> None:
        state["full"] = full

    return switch


@pytest.fixture
def full_disk(app):
    return disk_switch(app)


def _results(app, tid):
    with Session(db.get_engine(app)) as session:
        return {(r.board, r.table): r.score for r in session.exec(select(Result).where(Result.tournament_id == tid))}


@pytest.mark.parametrize("path", ["etuis/1", "tables/1/1"])
def test_a_fiche_saved_on_a_full_disk_comes_back_as_typed(app, full_disk, path):
    tid = ready(app)
    give_scorers(app, tid)
    scorer = signed_in(app, "marqueur")
    address = f"/saisie/tournois/{tid}/{path}"
    page = scorer.get(address).get_data(as_text=True)
    keys = fields(page)
    assert len(keys) >= 2
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    versions = dict(re.findall(r'name="(version-[0-9]+-[0-9]+)" value="([0-9]+)"', page))
    typed = {f"score-{keys[0]}": "+56", f"score-{keys[1]}": "-122"}

    full_disk(True)
    response = scorer.post(address, data={**typed, **versions, "csrf_token": token})
    shown = page_of(response)
    assert response.status_code == 503, shown[:2000]
    assert "disque" in shown and "Rien n’a été enregistré" in shown and "conservé" in shown
    assert "enregistré." not in shown.replace("Rien n’a été enregistré.", "")  # no « 2 scores enregistrés. »
    for mark in ("Traceback", "OperationalError", "sqlalchemy"):
        assert mark not in shown
    for name, value in typed.items():
        assert re.search(rf'name="{name}"[^>]*value="{re.escape(value)}"', shown), name
    assert _results(app, tid) == {}

    full_disk(False)
    fresh = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', shown).group(1)
    again = dict(re.findall(r'name="(version-[0-9]+-[0-9]+)" value="([0-9]+)"', shown))
    saved = scorer.post(address, data={**typed, **again, "csrf_token": fresh})
    assert saved.status_code == 302
    assert sorted(_results(app, tid).values()) == [-122, 56]
