"""The wrong visitor is refused: arbiter pages (anonymous → sign-in, scorer → 403), printing, scoring
screens, the scoring API (no token, a wrong one, a scorer's token sending an arbiter's field), private
route sheets (unknown, altered or overlong token → 404, nothing leaked). Private links are unguessable:
192 random bits each, all different, unrelated to the ids, absent from every public page, and never
sent away in a Referer header. CSRF: with the protection on (as in production), a form posted without
its token, with another session's token or a forged one is refused in French and changes nothing."""

from __future__ import annotations

import base64
import re

import pytest
from sqlmodel import Session, select

from hostile_data import PASSWORD, census, hostile_tournament

from duplicate import create_app, db, operations
from duplicate.models import TournamentAccess, User

ARBITER_GET = ["/arbitre/", "/arbitre/tournois/{tid}/", "/arbitre/tournois/{tid}/joueurs",
               "/arbitre/tournois/{tid}/feuilles", "/arbitre/tournois/{tid}/export",
               "/arbitre/tournois/{tid}/resultats", "/arbitre/tournois/{tid}/etuis/1/fiche",
               "/arbitre/tournois/{tid}/impression/", "/arbitre/import", "/arbitre/competitions"]
ARBITER_POST = ["/arbitre/tournois/nouveau", "/arbitre/tournois/{tid}/joueurs",
                "/arbitre/tournois/{tid}/placement", "/arbitre/tournois/{tid}/etuis/generer",
                "/arbitre/tournois/{tid}/penalites", "/arbitre/tournois/{tid}/impression/ranking",
                "/arbitre/tournois/{tid}/resultats/1/annul", "/arbitre/import"]
STAFF = ["/saisie/", "/saisie/tournois/{tid}/", "/saisie/tournois/{tid}/etuis/1"]


def _tokens(app, tid):
    with Session(db.get_engine(app)) as session:
        links = operations.private_links(session, operations.get_tournament(session, tid))
    return [link["token"] for link in links]


def test_arbiter_pages_refuse_anonymous_visitors_and_scorers(app, client, make_client):
    tid = hostile_tournament(app)
    scorer = make_client("scorer")
    before = census(app)
    for path in (p.format(tid=tid) for p in ARBITER_GET):
        response = client.get(path)
        assert response.status_code == 302 and "/connexion" in response.location, path
        assert scorer.get(path).status_code == 403, path
    for path in (p.format(tid=tid) for p in ARBITER_POST):
        response = client.post(path, data={"name": "x", "kind": "individual", "count": "4", "points": "3"})
        assert response.status_code == 302 and "/connexion" in response.location, path
        response = scorer.post(path, data={"name": "x", "kind": "individual", "count": "4", "points": "3"})
        assert response.status_code == 403, path
        assert "réservée aux arbitres" in response.get_data(as_text=True)
    assert census(app) == before


def test_scoring_screens_are_for_staff_only(app, client, make_client):
    tid = hostile_tournament(app)
    before = census(app)
    for path in (p.format(tid=tid) for p in STAFF):
        response = client.get(path)
        assert response.status_code == 302 and "/connexion" in response.location
    response = client.post(f"/saisie/tournois/{tid}/etuis/1", data={"score-1-1": "+30"})
    assert response.status_code == 302 and "/connexion" in response.location
    assert census(app) == before
    scorer = make_client("scorer")  # given no tournament: enters none (docs/accounts.md)
    assert scorer.get(f"/saisie/tournois/{tid}/etuis/1").status_code == 403
    with Session(db.get_engine(app)) as session:
        user = session.exec(select(User).where(User.username == "scorer1")).one()
        session.add(TournamentAccess(tournament_id=tid, user_id=user.id, granted_by="tests"))
        session.commit()
    assert scorer.get(f"/saisie/tournois/{tid}/etuis/1").status_code == 200


def test_scoring_api_refuses_missing_wrong_and_underpowered_tokens(app, client):
    tid = hostile_tournament(app)
    with Session(db.get_engine(app)) as session:
        scorer_token = operations.create_token(session, "scorer", "tablette")
        session.commit()
    before = census(app)
    line = [{"board": 1, "table": 1, "position": 1, "taker": "W1", "defenders": ["N1", "S1", "E1"],
             "score": 56, "annulled": True}]
    url = f"/api/tournaments/{tid}/results"
    assert client.post(url, json=line).status_code == 401
    assert client.post(url, json=line, headers={"Authorization": "Bearer " + "A" * 43}).status_code == 401
    assert client.post(url, json=line, headers={"Authorization": "Basic " + scorer_token}).status_code == 401
    assert client.post(url, json=line, headers={"Authorization": "Bearer " + scorer_token[:-1]}).status_code == 401
    response = client.post(url, json=line, headers={"Authorization": "Bearer " + scorer_token})
    assert response.status_code == 403 and "error" in response.get_json()
    assert census(app) == before


def test_route_sheets_refuse_the_wrong_visitor(app, client):
    tid = hostile_tournament(app)
    token = _tokens(app, tid)[0]
    assert client.get(f"/feuille/{token}").status_code == 200
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    for wrong in (flipped, token[:-1], token + "x", token.upper() if token.upper() != token else token.lower(),
                  "0", "1", str(tid), "N1", "A" * 32, "x" * 65, "x" * 5000, "..%2f..%2fetc%2fpasswd",
                  "%00", "' OR '1'='1", token.replace(token[0], "%", 1)):
        if wrong == token:
            continue
        for path in (f"/feuille/{wrong}", f"/feuille-de-route/{wrong}", f"/feuille/{wrong}/qr.svg"):
            response = client.get(path)
            assert response.status_code == 404, (path, response.status_code)
            assert token not in response.get_data(as_text=True)


def test_private_links_are_unguessable(app, client, arbiter):
    tid = hostile_tournament(app)
    other = hostile_tournament(app)
    tokens = _tokens(app, tid) + _tokens(app, other)
    assert len(tokens) == 40 and len(set(tokens)) == 40
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32,64}", token)
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) >= 16  # ≥ 128 random bits
    # no shared prefix or suffix that would betray a counter or a hash of the id
    assert len({t[:6] for t in tokens}) == len(tokens) and len({t[-6:] for t in tokens}) == len(tokens)
    # the tokens appear on no public page, and the route sheet never leaks its address in a Referer
    for path in ("/", f"/tournois/{tid}/", f"/tournois/{tid}/etuis/1", f"/api/tournaments/{tid}/ranking"):
        body = client.get(path).get_data(as_text=True)
        assert not any(token in body for token in tokens), path
    sheet = client.get(f"/feuille/{tokens[0]}")
    assert sheet.headers["Referrer-Policy"] == "no-referrer"
    assert "noindex" in sheet.headers.get("X-Robots-Tag", "")
    # only the arbiter's screen lists them
    links = arbiter.get(f"/arbitre/tournois/{tid}/feuilles").get_data(as_text=True)
    assert all(token in links for token in _tokens(app, tid))


@pytest.fixture
def csrf_app(database_url, migrated):
    app = create_app({"DATABASE_URL": database_url, "WTF_CSRF_ENABLED": True})
    yield app
    db.get_engine(app).dispose()


def _form_token(client, path: str) -> str:
    """The CSRF token of the first form of the page, whatever the order of the input's attributes
    (WTForms writes name before type, the hand-written forms type first)."""
    page = client.get(path).get_data(as_text=True)
    tag = re.search(r'<input[^>]*\bname="csrf_token"[^>]*>', page).group(0)
    token = re.search(r'\bvalue="([^"]+)"', tag).group(1)
    assert token, (path, tag)
    return token


def _csrf_sign_in(app, username: str):
    client = app.test_client()
    token = _form_token(client, "/connexion")
    response = client.post("/connexion", data={"username": username, "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    return client


def test_csrf_is_enforced_on_every_form(csrf_app):
    app = csrf_app
    tid = hostile_tournament(app)
    with Session(db.get_engine(app)) as session:
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        operations.create_user(session, "marqueur", PASSWORD, "scorer")
        session.commit()
    arbiter, scorer = _csrf_sign_in(app, "arbitre"), _csrf_sign_in(app, "marqueur")
    # real tokens, each valid in its own session (checked at the end): each client sends the other's
    scorer_token, arbiter_token = _form_token(scorer, "/saisie/"), _form_token(arbiter, "/arbitre/")
    other_tokens = {id(arbiter): scorer_token, id(scorer): arbiter_token}
    before = census(app)
    posts = [(arbiter, "/arbitre/tournois/nouveau", {"name": "Forgé", "kind": "individual", "sessions": "1"}),
             (arbiter, f"/arbitre/tournois/{tid}/joueurs", {"surname": "FORGÉ", "first_name": "X"}),
             (arbiter, f"/arbitre/tournois/{tid}/penalites", {"entrant_id": "N1", "points": "3", "reason": "x"}),
             (arbiter, f"/arbitre/tournois/{tid}/impression/ranking", {}),
             (arbiter, "/deconnexion", {}),
             (scorer, f"/saisie/tournois/{tid}/etuis/1", {"score-1-1": "+30"}),
             (app.test_client(), "/connexion", {"username": "arbitre", "password": PASSWORD})]
    for client, path, data in posts:
        for token in (None, "", "forged-token", other_tokens.get(id(client), arbiter_token)):
            sent = dict(data) if token is None else dict(data, csrf_token=token)
            response = client.post(path, data=sent)
            assert response.status_code == 400, (path, token, response.status_code)
            assert "Formulaire refusé" in response.get_data(as_text=True)
    assert census(app) == before
    # still signed in: the refused sign-out did nothing
    assert arbiter.get("/arbitre/").status_code == 200
    # the other sessions' tokens were good ones, in their own session: each signs out with its own
    for client, token in ((scorer, scorer_token), (arbiter, arbiter_token)):
        assert client.post("/deconnexion", data={"csrf_token": token}).status_code == 302
        assert client.get("/saisie/").status_code == 302
