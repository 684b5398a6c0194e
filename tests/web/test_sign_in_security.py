"""Sign-in and sessions hardened (issue 13): throttled sign-in counted in the database, unknown names as slow
as known ones, the session cookie's flags, sessions ended at sign-out (a copied cookie too), and the
anti-framing and content-security headers on every page."""

import datetime
import re
import statistics
import threading
import time
from pathlib import Path

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import SignInFailure, utcnow

from scoring_helpers import ready

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _post(client, username, password, address="10.0.0.1"):
    return client.post("/connexion", data={"username": username, "password": password},
                       environ_base={"REMOTE_ADDR": address})


# --- throttling ------------------------------------------------------------------------------------------------

def test_lockout_lengths_grow_from_the_fifth_failure():
    """By hand: free up to 4 failures; 30 s at the 5th, then doubled (60, 120, 240, 480 s), 900 s at most."""
    seconds = [operations.lock_after(n).total_seconds() for n in range(1, 12)]
    assert seconds == [0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900]
    assert operations.lock_after(10_000).total_seconds() == 900


def test_forty_wrong_passwords_then_the_right_one_does_not_get_in(client, make_user, password):
    make_user("arbitre")
    for attempt in range(1, 41):
        response = _post(client, "arbitre", f"essai-{attempt}")
        assert response.status_code in (422, 429)
    response = _post(client, "arbitre", password)
    assert response.status_code == 429
    assert "Trop d’essais manqués pour cet identifiant : réessayez dans" in response.get_data(as_text=True)
    assert client.get("/arbitre/").status_code == 302  # not signed in


def test_the_fifth_failure_locks_that_name_from_that_address_only(app, client, make_user, password):
    make_user("arbitre")
    for attempt in range(4):
        assert _post(client, "arbitre", "mauvais-mot").status_code == 422
    response = _post(client, "arbitre", "mauvais-mot")
    assert response.status_code == 422
    assert "réessayez dans 30 secondes" in response.get_data(as_text=True)
    assert _post(client, "arbitre", password).status_code == 429
    # another address, or another name, is not locked
    assert _post(app.test_client(), "arbitre", password, address="10.0.0.2").status_code == 302
    # the lockout over, the right password gets in and the count starts again
    with Session(db.get_engine(app)) as session:
        row = session.exec(select(SignInFailure)).one()
        assert row.failures == 5 and row.key == "arbitre|10.0.0.1"
        row.locked_until = utcnow() - datetime.timedelta(seconds=1)
        session.add(row)
        session.commit()
    assert _post(client, "arbitre", password).status_code == 302
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(SignInFailure)).all() == []


def test_unknown_names_are_counted_and_locked_too(client):
    for attempt in range(5):
        assert _post(client, "personne", "mauvais-mot").status_code == 422
    assert _post(client, "personne", "mauvais-mot").status_code == 429


def test_failures_are_counted_across_servers(app):
    """Eight servers (threads, each its own connection) count one failure each at once: none is lost."""
    engine = db.get_engine(app)
    errors = []

    def fail():
        try:
            with Session(engine) as session:
                operations.record_failure(session, "arbitre|10.0.0.9")
                session.commit()
        except Exception as error:  # pragma: no cover - shown by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=fail) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    with Session(engine) as session:
        assert operations.failures(session, "arbitre|10.0.0.9") == 8
        assert operations.locked_for(session, "arbitre|10.0.0.9") > 0


def test_old_failures_are_forgotten(app):
    key, start = "arbitre|10.0.0.3", utcnow()
    with Session(db.get_engine(app)) as session:
        for minute in range(4):
            operations.record_failure(session, key, now=start + datetime.timedelta(minutes=minute))
        later = start + datetime.timedelta(hours=2)
        assert operations.record_failure(session, key, now=later) == 0  # a 5th failure, but two hours later
        assert operations.failures(session, key) == 1


def test_an_unknown_name_takes_as_long_as_a_known_one(client, make_user):
    """Before: an unknown name answered 14 times faster than a wrong password (no hash checked)."""
    make_user("arbitre")
    _post(client, "inconnu-0", "x", address="10.1.0.0")  # warm up (the dummy hash is made once)
    known, unknown = [], []
    for attempt in range(4):  # fewer than 5 failures per name and address: no lockout skips the check
        start = time.perf_counter()
        assert _post(client, "arbitre", "mauvais-mot", address="10.1.1.1").status_code == 422
        known.append(time.perf_counter() - start)
        start = time.perf_counter()
        assert _post(client, f"inconnu-{attempt + 1}", "mauvais-mot", address="10.1.1.1").status_code == 422
        unknown.append(time.perf_counter() - start)
    ratio = statistics.median(known) / statistics.median(unknown)
    assert 0.5 < ratio < 2, (known, unknown)


# --- sessions --------------------------------------------------------------------------------------------------

def test_the_session_cookie_is_http_only_and_same_site_lax(client, make_user, password):
    make_user("arbitre")
    response = _post(client, "arbitre", password)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_session_copied_before_sign_out_no_longer_works_after(app, client, make_user, password):
    make_user("arbitre")
    assert _post(client, "arbitre", password).status_code == 302
    copied = client.get_cookie("session").value
    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/arbitre/").status_code == 200  # a copy works while the session lasts…
    assert client.post("/deconnexion").status_code == 302
    assert thief.get("/arbitre/").status_code == 302  # …and no longer after sign-out
    assert thief.post("/arbitre/tournois/nouveau", data={"name": "Pirate", "kind": "individual",
                                                          "sessions": 1}).status_code == 302
    with Session(db.get_engine(app)) as session:
        assert operations.list_tournaments(session) == []
    assert _post(client, "arbitre", password).status_code == 302  # signing in again works


# --- headers on every page ---------------------------------------------------------------------------------------

def _pages(app, arbiter_client):
    tid = ready(app)
    token = operations_token(app, tid)
    return [
        (None, "/"), (None, "/connexion"), (None, f"/tournois/{tid}/"), (None, f"/tournois/{tid}/etuis/1"),
        (None, f"/feuille/{token}"), (None, f"/feuille/{token}/qr.svg"), (None, "/page-absente"),
        (None, f"/api/tournaments/{tid}/ranking"), (None, "/static/css/app.css"),
        (arbiter_client, "/arbitre/"), (arbiter_client, f"/arbitre/tournois/{tid}/"),
        (arbiter_client, f"/arbitre/tournois/{tid}/acces"), (arbiter_client, "/arbitre/comptes"),
        (arbiter_client, f"/arbitre/tournois/{tid}/impression/"), (arbiter_client, f"/saisie/tournois/{tid}/etuis/1"),
        (arbiter_client, "/compte/mot-de-passe"),
    ]


def operations_token(app, tid):
    with Session(db.get_engine(app)) as session:
        return operations.private_links(session, operations.get_tournament(session, tid))[0]["token"]


def test_every_page_refuses_to_be_framed_and_has_a_content_security_policy(app, client, arbiter):
    for who, path in _pages(app, arbiter):
        response = (who or client).get(path)
        assert response.status_code < 500, path
        assert response.headers.get("X-Frame-Options") == "DENY", path
        policy = response.headers.get("Content-Security-Policy", "")
        assert "frame-ancestors 'none'" in policy, path
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
        assert "default-src 'self'" in policy and "object-src 'none'" in policy, path
        assert response.headers.get("X-Content-Type-Options") == "nosniff", path
    # the route sheet keeps its own, stricter referrer policy
    token = operations_token(app, ready(app, seed="autre"))
    assert client.get(f"/feuille/{token}").headers["Referrer-Policy"] == "no-referrer"


def test_no_template_has_an_inline_script_or_event_handler():
    """The policy allows scripts from this site's files only: an inline script or onclick would not run."""
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text, flags=re.I):
            assert "src=" in tag, (template, tag)
        assert not re.search(r"\son[a-z]+\s*=", text, flags=re.I), template
        assert "javascript:" not in text.lower(), template


def test_the_json_api_works_without_a_cookie_and_sets_none(app, client):
    tid = ready(app)
    with Session(db.get_engine(app)) as session:
        token = operations.create_token(session, "arbiter", "api")
        session.commit()
    response = client.get(f"/api/tournaments/{tid}/ranking", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200 and response.is_json
    assert "Set-Cookie" not in response.headers
