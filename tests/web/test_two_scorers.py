"""Two scorers, one fiche (SPEC §11, issue 11 point 5): nothing is ever overwritten silently. After a 409
the fiche shows, on each line in conflict, the stored score and who entered it next to what this scorer
typed (still in its input); pressing Enter again is refused again; only « Remplacer » replaces, and the
result's history records it (action ``replace``). A save that fails says so once."""

import html as entities
import re

import pytest
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import Result, ResultHistory
from scoring_helpers import browser_form, give_scorers, ready


def _page(response) -> str:
    return response.get_data(as_text=True)


def _text(response) -> str:
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", _page(response))))


@pytest.fixture
def scorers(app, make_user, sign_in):
    """Two scorers' browsers, « alice » and « bruno »."""
    clients = []
    for name in ("alice", "bruno"):
        client = app.test_client()
        assert sign_in(client, make_user(name, "scorer")).status_code == 302
        clients.append(client)
    return clients


def _stored(app, tournament_id) -> dict[tuple[int, int], tuple[int, str]]:
    with Session(db.get_engine(app)) as session:
        rows = session.exec(select(Result).where(Result.tournament_id == tournament_id)).all()
        return {(r.board, r.table): (r.score, r.entered_by) for r in rows}


def _actions(app) -> list[tuple[str, str]]:
    with Session(db.get_engine(app)) as session:
        return list(session.exec(select(ResultHistory.action, ResultHistory.who).order_by(ResultHistory.id)).all())


@pytest.mark.parametrize("screen", ["fiche", "table"])
def test_enter_after_a_conflict_never_overwrites_and_remplacer_does(app, scorers, screen):
    alice, bruno = scorers
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    url = (f"/saisie/tournois/{tournament_id}/etuis/1" if screen == "fiche"
           else f"/saisie/tournois/{tournament_id}/tables/1/1")
    # both open the same empty fiche
    form_a, form_b = browser_form(_page(alice.get(url))), browser_form(_page(bruno.get(url)))
    key = next(name for name in form_a if name.startswith("score-")).removeprefix("score-")
    board, table = map(int, key.split("-"))
    assert alice.post(url, data=dict(form_a, **{f"score-{key}": "+106"})).status_code == 302
    # bruno types another score on the same line and presses Enter
    response = bruno.post(url, data=dict(form_b, **{f"score-{key}": "-42"}))
    assert response.status_code == 409
    shown = _text(response)
    assert "Enregistré : +106 par alice — vous avez tapé : -42" in shown and "Remplacer" in shown
    assert f'name="score-{key}" id="score-{key}" value="-42"' in _page(response)  # what bruno typed, kept
    assert _stored(app, tournament_id) == {(board, table): (106, "alice")}

    # Enter again on the fiche as shown: refused again, nothing overwritten
    again = bruno.post(url, data=browser_form(_page(response)))
    assert again.status_code == 409 and "Enregistré : +106 par alice" in _text(again)
    assert _stored(app, tournament_id) == {(board, table): (106, "alice")}

    # « Remplacer »: the explicit act, recorded
    replaced = bruno.post(url, data=dict(browser_form(_page(again)), replace="1"))
    assert replaced.status_code == 302
    assert _stored(app, tournament_id) == {(board, table): (-42, "bruno")}
    assert _actions(app) == [("create", "alice"), ("replace", "bruno")]
    with Session(db.get_engine(app)) as session:
        entry = session.exec(select(ResultHistory).where(ResultHistory.action == "replace")).one()
        assert (entry.before["score"], entry.after["score"]) == (106, -42)
        tournament = operations.get_tournament(session, tournament_id)
        journal = [(e.action, e.who, e.before["score"], e.after["score"])
                   for e in operations.journal_entries(session, tournament)]
        assert journal == [("result.replace", "bruno", "+106", "−42")]   # as the fiche shows them (true minus)


def test_remplacer_refused_when_the_score_changed_again(app, scorers, make_user, sign_in):
    """« Remplacer » replaces the score bruno has seen, not one entered after it."""
    alice, bruno = scorers
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    url = f"/saisie/tournois/{tournament_id}/etuis/1"
    form_a, form_b = browser_form(_page(alice.get(url))), browser_form(_page(bruno.get(url)))
    key = next(name for name in form_a if name.startswith("score-")).removeprefix("score-")
    assert alice.post(url, data=dict(form_a, **{f"score-{key}": "+106"})).status_code == 302
    conflict = bruno.post(url, data=dict(form_b, **{f"score-{key}": "-42"}))
    assert conflict.status_code == 409
    fresh = browser_form(_page(alice.get(url)))
    assert alice.post(url, data=dict(fresh, **{f"score-{key}": "+108"})).status_code == 302
    response = bruno.post(url, data=dict(browser_form(_page(conflict)), replace="1"))
    assert response.status_code == 409 and "Enregistré : +108 par alice" in _text(response)
    assert [score for score, _ in _stored(app, tournament_id).values()] == [108]


def test_the_same_score_typed_twice_is_no_conflict(app, scorers):
    alice, bruno = scorers
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    url = f"/saisie/tournois/{tournament_id}/etuis/1"
    form_a, form_b = browser_form(_page(alice.get(url))), browser_form(_page(bruno.get(url)))
    keys = [name.removeprefix("score-") for name in form_a if name.startswith("score-")]
    assert alice.post(url, data=dict(form_a, **{f"score-{keys[0]}": "+106"})).status_code == 302
    # bruno typed the same score there, and another line alice left empty
    response = bruno.post(url, data=dict(form_b, **{f"score-{keys[0]}": "+106", f"score-{keys[1]}": "+56"}))
    assert response.status_code == 302
    assert _actions(app) == [("create", "alice"), ("create", "bruno")]


def test_the_api_still_answers_409_on_a_taken_line(app, client):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        line = operations.traveller(session, tournament, 1)[0]
        bearer = operations.create_token(session, "scorer", "tablette")
        fields = line.fields(tournament.kind)
        session.commit()
    headers = {"Authorization": f"Bearer {bearer}"}
    url = f"/api/tournaments/{tournament_id}/results"
    assert client.post(url, json=[dict(fields, score=106)], headers=headers).status_code == 201
    assert client.post(url, json=[dict(fields, score=-42)], headers=headers).status_code == 409
    assert [score for score, _ in _stored(app, tournament_id).values()] == [106]


def test_a_failed_save_says_so_once(app, scorers, monkeypatch):
    """The disk is full when the request commits: the page says « Rien n’a été enregistré », not also
    « 1 score enregistré » (which the view had flashed before the commit failed), then or later."""
    alice, _ = scorers
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    url = f"/saisie/tournois/{tournament_id}/etuis/1"
    form = browser_form(_page(alice.get(url)))
    key = next(name for name in form if name.startswith("score-"))

    def disk_full(self):
        raise OperationalError("COMMIT", {}, Exception("database or disk is full"))

    with monkeypatch.context() as patch:
        patch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)  # as in production: the error handlers answer
        patch.setattr(Session, "commit", disk_full)
        response = alice.post(url, data=dict(form, **{key: "+106"}), follow_redirects=True)
    shown = _text(response)
    assert response.status_code == 503
    assert "Rien n’a été enregistré" in shown and "disque" in shown
    assert "enregistré." not in shown.replace("Rien n’a été enregistré", "")
    assert "score enregistré" not in _text(alice.get(url))
    assert _stored(app, tournament_id) == {}


def test_no_free_database_connection_is_a_french_503_not_a_500(app, scorers, monkeypatch):
    """150 tables sending at once can exhaust the connection pool (SQLAlchemy's TimeoutError after 30 s):
    the API answers 503 « occupée » (the table sends again), never a 500; nothing is stored."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout
    from sqlalchemy.orm import Session as OrmSession

    tournament_id = ready(app)

    give_scorers(app, tournament_id)
    with Session(db.get_engine(app)) as session:
        bearer = operations.create_token(session, "scorer", "table")
        tournament = operations.get_tournament(session, tournament_id)
        fields = next(line for line in operations.all_lines(session, tournament) if line.board == 1).fields(
            tournament.kind)
        session.commit()

    def pool_exhausted(self, *args, **kwargs):  # the first query of the request waits for a connection
        raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00")

    with monkeypatch.context() as patch:
        patch.setitem(app.config, "PROPAGATE_EXCEPTIONS", False)
        patch.setattr(OrmSession, "execute", pool_exhausted)
        response = scorers[0].post(f"/api/tournaments/{tournament_id}/results", json=[dict(fields, score=106)],
                                   headers={"Authorization": f"Bearer {bearer}"})
    assert response.status_code == 503
    assert "occupée" in response.get_json()["error"] and "Rien n’a été enregistré" in response.get_json()["error"]
    assert _stored(app, tournament_id) == {}
