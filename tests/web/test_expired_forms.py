"""A form left open past its CSRF token's life (issue 13, point 6): nothing saved, nothing lost — the fiche
comes back with the typed scores and a fresh token, any other form with its values kept; a missing or
forged token is still refused (400), on SQLite and PostgreSQL. The clock is moved two hours on, past
Flask-WTF's one-hour limit (``WTF_CSRF_TIME_LIMIT``), as for a fiche left open through a long position."""

import html as entities
import re

import pytest
from itsdangerous import TimestampSigner
from sqlmodel import Session, select

from duplicate import create_app, db, operations
from duplicate.models import Result, Tournament
from scoring_helpers import fields, give_scorers, ready

PASSWORD = "mot-de-passe-solide"
TWO_HOURS = 2 * 3600


@pytest.fixture
def app(database_url):
    app = create_app({"DATABASE_URL": database_url, "WTF_CSRF_ENABLED": True})
    with app.app_context(), Session(db.get_engine(app)) as session:  # the app's PASSWORD_HASH_METHOD
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        operations.create_user(session, "marqueur", PASSWORD, "scorer")
        session.commit()
    yield app
    db.get_engine(app).dispose()


@pytest.fixture
def later(monkeypatch):
    """``later()``: from now on, every token is read (and made) two hours later."""
    real = TimestampSigner.get_timestamp

    def move():
        monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: real(self) + TWO_HOURS)
    return move


def token_of(page: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"',
                     page).group(1)


def page_of(response) -> str:
    return entities.unescape(response.get_data(as_text=True))


def signed_in(app, username: str):
    client = app.test_client()
    token = token_of(client.get("/connexion").get_data(as_text=True))
    response = client.post("/connexion", data={"username": username, "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    return client


def results(app, tournament_id: int) -> dict[tuple[int, int], int]:
    with Session(db.get_engine(app)) as session:
        rows = session.exec(select(Result).where(Result.tournament_id == tournament_id)).all()
        return {(row.board, row.table): row.score for row in rows}


def test_an_expired_fiche_comes_back_with_the_typed_scores_then_saves(app, later):
    tid = ready(app)
    give_scorers(app, tid)
    scorer = signed_in(app, "marqueur")
    address = f"/saisie/tournois/{tid}/etuis/1"
    page = scorer.get(address).get_data(as_text=True)
    keys = fields(page)
    assert len(keys) >= 2
    typed = {f"score-{keys[0]}": "+56", f"score-{keys[1]}": "-122"}  # Garde (×2): made by 3 → (25 + 3) × 2; failed by 36 → −(25 + 36) × 2
    old_token = token_of(page)

    later()
    response = scorer.post(address, data={**typed, "csrf_token": old_token})

    assert response.status_code == 422
    shown = page_of(response)
    assert "Le formulaire a expiré : enregistrez de nouveau." in shown
    for name, value in typed.items():
        assert re.search(rf'name="{name}"[^>]*value="{re.escape(value)}"', shown), name
    assert results(app, tid) == {}
    fresh = token_of(shown)
    assert fresh != old_token

    saved = scorer.post(address, data={**typed, "csrf_token": fresh})
    assert saved.status_code == 302
    board, first = map(int, keys[0].split("-"))
    _, second = map(int, keys[1].split("-"))
    assert results(app, tid) == {(board, first): 56, (board, second): -122}


def test_a_missing_or_forged_token_on_a_fiche_is_still_refused_and_nothing_echoed(app):
    tid = ready(app)
    give_scorers(app, tid)
    scorer = signed_in(app, "marqueur")
    address = f"/saisie/tournois/{tid}/etuis/1"
    key = fields(scorer.get(address).get_data(as_text=True))[0]
    other = token_of(app.test_client().get("/connexion").get_data(as_text=True))  # another session's
    for token in (None, "forged-token", other):
        data = {f"score-{key}": "+56"} | ({} if token is None else {"csrf_token": token})
        response = scorer.post(address, data=data)
        assert response.status_code == 400
        assert "Formulaire refusé" in page_of(response)
        assert 'value="+56"' not in page_of(response)
    assert results(app, tid) == {}


def test_any_other_form_keeps_its_values_and_posts_them_again_with_a_fresh_token(app, later):
    arbiter = signed_in(app, "arbitre")
    address = "/arbitre/tournois/nouveau"
    old_token = token_of(arbiter.get(address).get_data(as_text=True))
    typed = {"name": "Tournoi du « vendredi »", "kind": "individual", "place": "Salle des fêtes", "sessions": "1",
             "timezone": "Europe/Paris"}

    later()
    response = arbiter.post(address, data={**typed, "csrf_token": old_token})

    assert response.status_code == 400
    shown = page_of(response)
    assert "Formulaire expiré" in shown and "enregistrez de nouveau" in shown
    form = shown[shown.index('<form method="post" action="/arbitre/tournois/nouveau"'):]
    kept = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    fresh = kept.pop("csrf_token")
    assert fresh != old_token
    assert kept == typed
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(Tournament)).all() == []

    again = arbiter.post(address, data={**kept, "csrf_token": fresh})
    assert again.status_code == 302
    with Session(db.get_engine(app)) as session:
        assert [(t.name, t.place) for t in session.exec(select(Tournament))] == [
            ("Tournoi du « vendredi »", "Salle des fêtes")]


def test_an_expired_sign_in_never_sends_the_password_back(app, later):
    client = app.test_client()
    old_token = token_of(client.get("/connexion").get_data(as_text=True))
    later()
    response = client.post("/connexion", data={"username": "arbitre", "password": PASSWORD, "csrf_token": old_token})
    shown = page_of(response)
    assert response.status_code == 400
    assert PASSWORD not in shown
    assert 'type="password" name="password"' in shown and 'value="arbitre"' in shown
