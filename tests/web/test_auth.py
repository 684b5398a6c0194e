"""Sign-in, sign-out, the arbiter guard and CSRF, on SQLite and PostgreSQL."""

import re

import pytest

from duplicate import create_app, db


ARBITER_PAGES = [
    "/arbitre/",
    "/arbitre/tournois/nouveau",
    "/arbitre/import",
    "/arbitre/tournois/1/",
    "/arbitre/tournois/1/joueurs",
    "/arbitre/tournois/1/etuis",
]


def test_nav_shows_sign_in_link_to_anonymous_visitors(client):
    html = client.get("/").get_data(as_text=True)
    assert "Connexion" in html
    assert "Déconnexion" not in html


@pytest.mark.parametrize("path", ARBITER_PAGES)
def test_anonymous_visitor_is_sent_to_sign_in(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/connexion?next=")


def test_anonymous_post_changes_nothing(app, client):
    from sqlmodel import Session, select

    from duplicate import db
    from duplicate.models import Tournament

    response = client.post("/arbitre/tournois/nouveau", data={"name": "Pirate", "kind": "individual", "sessions": 1})
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/connexion?next=")
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(Tournament)).all() == []


@pytest.mark.parametrize("path", ARBITER_PAGES)
def test_scorer_is_refused(client, make_user, sign_in, path):
    sign_in(client, make_user("marqueur", role="scorer"))
    response = client.get(path)
    assert response.status_code == 403
    assert "Accès refusé" in response.get_data(as_text=True)


def test_arbiter_signs_in_and_out(client, make_user, sign_in):
    make_user("arbitre")
    response = sign_in(client, "arbitre")
    assert response.status_code == 302
    assert response.headers["Location"] == "/arbitre/"
    html = client.get("/arbitre/").get_data(as_text=True)
    assert "arbitre" in html and "Déconnexion" in html and "Nouveau tournoi" in html

    response = client.post("/deconnexion")
    assert response.status_code == 302
    assert client.get("/arbitre/").status_code == 302
    assert "Connexion" in client.get("/").get_data(as_text=True)


def test_sign_in_returns_to_the_page_asked_for(client, make_user, password):
    make_user("arbitre")
    location = client.get("/arbitre/import").headers["Location"]
    response = client.post(location, data={"username": "arbitre", "password": password})
    assert response.headers["Location"] == "/arbitre/import"


@pytest.mark.parametrize("target", ["https://example.com/", "//example.com/", "/\\example.com"])
def test_sign_in_never_redirects_off_site(client, make_user, password, target):
    make_user("arbitre")
    response = client.post("/connexion", query_string={"next": target},
                           data={"username": "arbitre", "password": password})
    assert response.headers["Location"] == "/arbitre/"


def test_wrong_password_is_refused_in_french(client, make_user, sign_in):
    make_user("arbitre")
    response = sign_in(client, "arbitre", "mauvais-mot-de-passe")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Identifiant ou mot de passe incorrect." in html
    assert 'value="arbitre"' in html  # what was typed is kept (not the password)
    assert "mauvais-mot-de-passe" not in html
    assert client.get("/arbitre/").status_code == 302


def test_empty_sign_in_form_shows_errors_next_to_fields(client):
    response = client.post("/connexion", data={"username": "", "password": ""})
    assert response.status_code == 422
    assert response.get_data(as_text=True).count("Ce champ est obligatoire.") == 2


@pytest.fixture
def csrf_app(database_url, migrated):
    app = create_app({"DATABASE_URL": database_url, "WTF_CSRF_ENABLED": True})
    yield app
    db.get_engine(app).dispose()


def test_csrf_post_without_token_is_refused(csrf_app, password):
    client = csrf_app.test_client()
    response = client.post("/connexion", data={"username": "arbitre", "password": password})
    assert response.status_code == 400
    assert "jeton" in response.get_data(as_text=True).lower()


def test_csrf_post_with_token_is_accepted(csrf_app, password):
    from sqlmodel import Session

    from duplicate import operations

    with Session(db.get_engine(csrf_app)) as session:
        operations.create_user(session, "arbitre", password, "arbiter")
        session.commit()
    client = csrf_app.test_client()
    html = client.get("/connexion").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    response = client.post("/connexion", data={"username": "arbitre", "password": password, "csrf_token": token})
    assert response.status_code == 302
    # Signed in: the arbiter's form also wants its token.
    response = client.post("/arbitre/tournois/nouveau", data={"name": "Sans jeton", "kind": "individual", "sessions": 1})
    assert response.status_code == 400


def test_every_form_carries_its_csrf_token(csrf_app, password):
    from sqlmodel import Session

    from duplicate import operations

    with Session(db.get_engine(csrf_app)) as session:
        operations.create_user(session, "arbitre", password, "arbiter")
        tournament = operations.create_tournament(session, name="Jetons", kind="triplettes")
        operations.register_player(session, tournament, licence="1", surname="A", first_name="a", club="")
        operations.generate_boards(session, tournament, count=1, seed="s")
        session.commit()
        tournament_id = tournament.id
    client = csrf_app.test_client()
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      client.get("/connexion").get_data(as_text=True)).group(1)
    client.post("/connexion", data={"username": "arbitre", "password": password, "csrf_token": token})
    base = f"/arbitre/tournois/{tournament_id}"
    for path in ["/arbitre/tournois/nouveau", "/arbitre/import", f"{base}/joueurs", f"{base}/joueurs/import",
                 f"{base}/equipes", f"{base}/placement", f"{base}/etuis", f"{base}/etuis/1", f"{base}/mouvement"]:
        page = client.get(path).get_data(as_text=True)
        forms = re.findall(r"<form .*?</form>", page, flags=re.S)
        assert forms, path
        for form in forms:
            if 'method="post"' in form:
                assert re.search(r'name="([\w-]+-)?csrf_token"', form), (path, form[:200])


def test_sign_in_takes_no_write_lock(app, client, make_user, sign_in, database_url):
    """Sign-in only reads: on SQLite it must not wait for a writer's lock (duplicate.db `reads_only`)."""
    import sqlite3
    import time

    if not database_url.startswith("sqlite"):
        pytest.skip("SQLite's write lock")
    make_user("arbitre")
    start = time.perf_counter()  # the floor: the same sign-in with no writer, on this machine, now
    assert sign_in(client, "arbitre").status_code == 302 and client.post("/deconnexion").status_code == 302
    floor = time.perf_counter() - start
    writer = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another request is writing
    try:
        start = time.perf_counter()
        response = sign_in(client, "arbitre")
        elapsed = time.perf_counter() - start
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    # not the 5 s busy timeout: measured against the floor, not against 2 s of wall clock (which a loaded
    # machine exceeded)
    assert response.status_code == 302 and elapsed < floor + 3, (elapsed, floor)
    assert client.post("/deconnexion").status_code == 302
