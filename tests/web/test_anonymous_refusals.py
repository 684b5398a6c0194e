"""Issue 31, point 4: the anonymous 500s left, as fixed vectors. Each input is refused with a status below
500 and a French message, never the « erreur inattendue » page: a table secret with « ² », Arabic-Indic
digits or a non-ASCII character (the duplicate's and the free play's table links); a table-API body with
``"contract": []``, ``"points": "٣٣"``, ``"points": "²"``, 30,000 nested ``[``; the sign-in with a CR or LF
(or a tab) in ``next=``; the séance form posted without its coefficient."""

import json
from urllib.parse import quote

import pytest
from sqlmodel import Session

from duplicate import db, operations
from scoring_helpers import ready
from test_table_api import launch, lines_of, secret_of

FRENCH = ("Lien de table inconnu", "attendu", "inconnu", "Contrat", "Points", "Choisissez", "Rien n’est saisi")


def _french(response) -> str:
    text = response.get_data(as_text=True)
    body = response.get_json(silent=True)
    message = body.get("error", "") if isinstance(body, dict) else text
    assert "erreur inattendue" not in text and "Traceback" not in text
    assert any(word in message for word in FRENCH), message[:400]
    return message


@pytest.fixture
def evening(app):
    tournament_id = ready(app)
    launch(app, tournament_id, 1)
    return tournament_id


def test_table_secrets_with_odd_digits_or_characters_are_unknown_links(app, client, evening):
    good = secret_of(app, evening, 1)
    mac = good.split(".")[2]
    secrets = [f"{evening}.1².{mac}", f"{evening}².1.{mac}", f"{evening}.١.{mac}", f"٣.1.{mac}", f"{evening}.1.é",
               f"{good}é", f"{good[:-1]}é", f"{evening}.1.{mac[:-1]}\u00a0", "²²².²².x"]
    for secret in secrets:
        path = quote(secret)
        for method, address in (("get", f"/api/table/{path}"), ("get", f"/table/{path}"),
                                ("get", f"/api/table/{path}/boards/1"), ("get", f"/table/libre/{path}"),
                                ("get", f"/table/libre/{path}/1/marques"), ("post", f"/table/libre/{path}/1"),
                                ("post", f"/table/libre/{path}/1/confirmer"),
                                ("post", f"/api/table/{path}/results"), ("post", f"/api/table/{path}/results/1/confirm")):
            response = getattr(client, method)(address, json={"board": 1, "score": 56})
            assert response.status_code == 404, (secret, address, response.status_code)
            assert "Lien de table inconnu" in response.get_data(as_text=True) or response.status_code == 404
    assert client.get(f"/api/table/{good}").status_code == 200  # the real link still works


def test_table_api_bodies_that_made_500s(app, client, evening):
    secret = secret_of(app, evening, 1)
    board = min(line.board for line in lines_of(app, evening, table=1, position=1))
    nested = "[" * 30_000 + "]" * 30_000
    bodies = [{"board": board, "contract": [], "score": 56}, {"board": board, "contract": {}, "points": 40, "bouts": 2},
              {"board": board, "points": "٣٣", "bouts": 2}, {"board": board, "points": "²", "bouts": 2},
              {"board": board, "score": "٣٣"}, {"board": board, "score": "²"}, {"board": board, "bouts": "²", "points": 40},
              nested, {"board": board, "score": 56, "x": json.loads("[" * 100 + "]" * 100)}]
    for body in bodies:
        data = body if isinstance(body, str) else json.dumps(body)
        response = client.post(f"/api/table/{secret}/results", data=data, content_type="application/json")
        assert response.status_code == 422, (data[:80], response.status_code, response.get_data(as_text=True)[:300])
        _french(response)
        response = client.post(f"/api/table/{secret}/results/{board}/confirm", data=data,
                               content_type="application/json")
        assert response.status_code in (404, 422), (data[:80], response.status_code)
        _french(response)
    # Arabic-Indic digits are refused, not read as 33 (a link, a score, points: ASCII digits only)
    assert lines_of(app, evening, table=1, board=board)[0].result is None


@pytest.mark.parametrize("target", ["/arbitre/%0D%0ALocation:%20https://evil.example", "/arbitre%0D", "/a%0Ab",
                                    "/%09/evil.example", "/%0A/evil.example", "/x%00y", "/x%7F"])
def test_sign_in_with_a_control_character_in_next_goes_home(app, client, make_user, target):
    username = make_user("arbitre")
    response = client.post(f"/connexion?next={target}", data={"username": username,
                                                                "password": "mot-de-passe-solide"})
    assert response.status_code == 302, response.status_code
    assert response.headers["Location"] == "/arbitre/"
    assert client.get(f"/connexion?next={target}").status_code in (200, 302)


def test_a_seance_form_without_its_coefficient(app, arbiter):
    with Session(db.get_engine(app)) as session:
        tournament = operations.create_tournament(session, name="Séance", kind="individual")
        tournament.coefficient = 1.5
        session.commit()
        tid = tournament.id
    for data in ({}, {"series_id": "0"}, {"series_id": "999"}, {"coefficient": ""}, {"coefficient": "²"}):
        response = arbiter.post(f"/arbitre/tournois/{tid}/competition", data=data)
        assert response.status_code in (302, 422), (data, response.status_code)
        page = arbiter.get(f"/arbitre/tournois/{tid}/competition").get_data(as_text=True) \
            if response.status_code == 302 else response.get_data(as_text=True)
        assert "erreur inattendue" not in page
        if response.status_code == 422:
            assert "Indiquez un nombre" in page or "n’est pas un nombre" in page or "Choix" in page \
                or "compétition" in page.lower(), page[:2000]
    with Session(db.get_engine(app)) as session:
        assert operations.get_tournament(session, tid).coefficient == 1.5  # left out: the coefficient kept


def test_a_method_an_address_does_not_take_is_refused_in_french(client):
    """Found by the corpus (a secret « / » led to a GET-only address, posted): Werkzeug's English 405 page."""
    response = client.post("/table/libre///1")
    assert response.status_code == 405 and "Méthode non permise" in response.get_data(as_text=True)
    assert "GET" in response.headers["Allow"]
    response = client.post("/api/tournaments/1/ranking")
    assert response.status_code == 405 and "méthode non permise" in response.get_json()["error"]
    assert "POST" in client.get("/deconnexion").headers["Allow"]
