"""Write requests hold SQLite's write lock only for their writes (issue 12, `duplicate.db.reads_first` /
`begin_writing`): who asks, the tournament and the movement are read before, so a refused token or an
unknown table link is answered at once while another writer holds the lock; a valid request waits for
the lock, then stores its lines, and a line stored by someone else in between is a conflict, not a
double."""

import sqlite3
import threading
import time

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import Result
from scoring_helpers import ready, score_for


@pytest.fixture
def sqlite_url(database_url):
    if not database_url.startswith("sqlite"):
        pytest.skip("SQLite's write lock")
    return database_url


def _token(app) -> str:
    with Session(db.get_engine(app)) as session:
        value = operations.create_token(session, "scorer", "tablette")
        session.commit()
        return value


def _first_table_lines(app, tournament_id) -> list[dict]:
    """Table 1's lines of its first position, as SPEC §9 result objects."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        lines = [line for line in operations.all_lines(session, tournament) if line.table == 1]
        first = min(line.position for line in lines)
        return [dict(line.fields(tournament.kind), score=score_for(line.board, line.table))
                for line in lines if line.position == first]


class Writer:
    """Another connection holding SQLite's write lock (``BEGIN IMMEDIATE``) until `release`."""

    def __init__(self, url: str):
        self.connection = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None,
                                          check_same_thread=False)
        self.connection.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.connection.execute("ROLLBACK")
        self.connection.close()


def _post(client, tournament_id, body, bearer):
    return client.post(f"/api/tournaments/{tournament_id}/results", json=body,
                       headers={"Authorization": f"Bearer {bearer}"})


def test_refusals_do_not_wait_for_the_writer(app, client, sqlite_url):
    tournament_id = ready(app)
    body = _first_table_lines(app, tournament_id)

    def refusals():
        start = time.perf_counter()
        bad_token = _post(client, tournament_id, body, "faux")
        bad_link = client.post(f"/api/table/{tournament_id}.1.inconnu/results", json={"board": 1, "score": 56})
        return bad_token, bad_link, time.perf_counter() - start

    *_, floor = refusals()  # the same two refusals with no writer, on this machine, now
    writer = Writer(sqlite_url)
    try:
        bad_token, bad_link, elapsed = refusals()
    finally:
        writer.release()
    # before: the token was read inside the write transaction, which waited 5 s (busy timeout) for the lock;
    # measured against the floor, not against 2 s of wall clock (which a loaded machine exceeded)
    assert bad_token.status_code == 401 and bad_link.status_code == 404
    assert elapsed < floor + 3, (elapsed, floor)


def test_a_write_waits_for_the_lock_then_stores(app, client, sqlite_url):
    tournament_id = ready(app)
    body, bearer = _first_table_lines(app, tournament_id), _token(app)
    writer = Writer(sqlite_url)
    timer = threading.Timer(0.5, writer.release)
    timer.start()
    try:
        start = time.perf_counter()
        response = _post(client, tournament_id, body, bearer)
        elapsed = time.perf_counter() - start
    finally:
        timer.join()
    assert response.status_code == 201, response.get_json()
    assert elapsed >= 0.4  # it did wait for the other writer: the INSERTs are under the lock
    with Session(db.get_engine(app)) as session:
        stored = session.exec(select(Result.board, Result.table).where(Result.tournament_id == tournament_id)).all()
    assert sorted(stored) == sorted((line["board"], line["table"]) for line in body)


def test_a_line_stored_meanwhile_is_a_conflict(app, client, sqlite_url, monkeypatch):
    """The request reads the table's lines before the lock; another scorer stores one of them in between
    (just before the request takes the lock): the request finds it under the lock — 409 naming that line
    (index 1), nothing of its own lines written, no line doubled."""
    from duplicate.operations import _scoring

    tournament_id = ready(app)
    body, bearer = _first_table_lines(app, tournament_id), _token(app)
    assert len(body) >= 2
    begin_writing, done = _scoring.begin_writing, []

    def another_scorer_first(session):
        if done:  # the other scorer's own request
            return begin_writing(session)
        done.append(True)
        with Session(db.get_engine(app)) as other:
            operations.record_api_results(other, operations.get_tournament(other, tournament_id), [body[1]],
                                          who="autre")
            other.commit()
        return begin_writing(session)
    monkeypatch.setattr(_scoring, "begin_writing", another_scorer_first)
    response = _post(client, tournament_id, body, bearer)
    assert response.status_code == 409 and response.get_json()["index"] == 1, response.get_json()
    with Session(db.get_engine(app)) as session:
        stored = session.exec(select(Result.board, Result.table, Result.entered_by)
                              .where(Result.tournament_id == tournament_id)).all()
    assert stored == [(body[1]["board"], body[1]["table"], "autre")]
