"""Issue 14, point 7: no input makes a 500. Every route of the application is walked, as an anonymous
visitor, a scorer and an arbiter, with hostile values in each path segment (an id of 30 digits, 2³¹,
0, a NUL, 5,000 characters, a lone surrogate's bytes, markup, a header injection), in the query string
and in every form field, and JSON bodies nested, huge or not JSON at all. The requests are counted in the
corpus (`corpus`)."""

from __future__ import annotations

import io
import json
import re

from sqlmodel import Session

from corpus import record
from factories import demo_tournament
from hostile_data import integrity

from duplicate import db

HOSTILE_INTS = ["9" * 30, str(2**31), "0"]
HOSTILE_TEXT = ["x" * 5000, "%00", "%ED%A0%80", "..%2F..%2Fetc%2Fpasswd", "N1%0D%0AX-Evil:%201", "1e308"]
FIELD_VALUES = ["", "9" * 30, "1e308", "NaN", "-Infinity", "x" * 5000, "\x00", "<b>x</b>", "−2,5", "[" * 2000,
                "N1\r\nX-Evil: 1", "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace")]
FIELDS = ["name", "kind", "date", "place", "colour", "sessions", "licence", "surname", "first_name", "club", "seed",
          "count", "text", "entrant_id", "points", "reason", "board", "taker", "defence", "score", "version",
          "positions", "minutes", "player_id", "seat", "from_position", "results_to", "timezone", "series_id",
          "coefficient", "username", "password", "confirm", "place-1", "score-1-1", "chelem-1-1", "contract-1-1",
          "generate-count", "deals-text", "movement-text", "columns", "rows", "restore", "position", "table",
          "line", "player_ids", "preview", "accept", "expected"]
#: Routes that end the walk's session or its tournament: walked last.
LAST = ("/deconnexion", "supprimer", "archiver", "restaurer")


def _paths(rule, tid: int, ids_only: bool = False) -> list[str]:
    """The rule's path with valid ids, then with each hostile value in each argument (in the ids only
    when ``ids_only``)."""
    names = re.findall(r"<(?:(\w+):)?(\w+)>", rule.rule)

    def build(values: dict) -> str:
        path = rule.rule
        for converter, name in names:
            path = re.sub(r"<(?:\w+:)?%s>" % name, values[name], path, count=1)
        return path

    valid = {name: (str(tid) if name == "tournament_id" else "1") if converter == "int" else "ranking"
             for converter, name in names}
    paths = [build(valid)]
    for converter, name in names:
        for value in (HOSTILE_INTS if converter == "int" else [] if ids_only else HOSTILE_TEXT):
            paths.append(build(dict(valid, **{name: value})))
    return paths


def _form(step: int) -> dict:
    return {name: FIELD_VALUES[(step + i) % len(FIELD_VALUES)] for i, name in enumerate(FIELDS)}


def test_every_route_with_hostile_values_answers_without_a_500(app, client, make_client):
    with Session(db.get_engine(app)) as session:
        tid = demo_tournament(session).id
        session.commit()
    visitors = {"anonymous": client, "scorer": make_client("scorer"), "arbiter": make_client("arbiter")}
    rules = sorted(app.url_map.iter_rules(), key=lambda r: (any(word in r.rule for word in LAST), r.rule))
    # PostgreSQL differs from SQLite on what reaches the database: the ids; the texts are walked on SQLite
    ids_only = db.get_engine(app).dialect.name == "postgresql"
    step = 0
    for rule in rules:
        if rule.endpoint == "static":
            continue
        for number, path in enumerate(_paths(rule, tid, ids_only)):
            for who, visitor in visitors.items():
                if who == "arbiter" and any(word in rule.rule for word in LAST) and number:
                    continue
                if who != "arbiter" and (number > 1 or ids_only):
                    continue  # the doors refuse them first: the valid path and one hostile value are enough
                query = "?" + "&".join(f"{k}={v}" for k, v in (("etui", HOSTILE_INTS[step % 3]),
                                                                  ("score", HOSTILE_TEXT[step % 6]),
                                                                  ("contract", "x" * 300), ("chelem", "1")))
                if "GET" in rule.methods:
                    response = visitor.get(path + query)
                    assert response.status_code < 500, (who, "GET", path, response.status_code)
                    record("routes (GET)", response.status_code < 400)
                if "POST" in rule.methods:
                    step += 1
                    response = visitor.post(path, data=_form(step))
                    assert response.status_code < 500, (who, "POST", path, response.status_code)
                    record("routes (POST forms)", response.status_code < 400)
    integrity(app)


def test_hostile_json_bodies_and_uploads_answer_without_a_500(app, arbiter):
    """The scoring API and the import page with JSON nested 100,000 deep, numbers of 5,000 digits, NaN,
    1e999, a lone surrogate, not UTF-8; and a body over the size cap (a French 413, before reading)."""
    from duplicate import operations

    with Session(db.get_engine(app)) as session:
        tid = demo_tournament(session).id
        token = operations.create_token(session, "arbiter", "corpus")
        session.commit()
    bodies = [b"[" * 100_000 + b"]" * 100_000, b'[{"board": 1' + b"0" * 5000 + b"}]", b'[{"score": NaN}]',
              b'[{"score": 1e999}]', b'[{"taker": "\\ud800"}]', b"\xff\xfe[]", b'{"a": Infinity}', b"", b"null",
              b'[{"board": 1, "table": 1, "taker": "N1", "defenders": ["S1", "E1", "W1"], "score": 1e308}]']
    headers = {"Authorization": f"Bearer {token}"}
    for body in bodies:
        response = arbiter.post(f"/api/tournaments/{tid}/results", data=body, content_type="application/json",
                                headers=headers)
        assert response.status_code in (409, 422), (body[:40], response.status_code)
        assert "error" in response.get_json()
        record("API bodies", False)
        for form in ({"text": body.decode("utf-8", "replace")},
                     {"file": (io.BytesIO(body), "tournoi.json")}):
            response = arbiter.post("/arbitre/import", data=form, content_type="multipart/form-data")
            assert response.status_code == 422, (body[:40], response.status_code)
            record("import page bodies", False)
    cap = app.config["MAX_CONTENT_LENGTH"]
    assert cap == 10 * 1024 * 1024
    response = arbiter.post("/arbitre/import", data={"file": (io.BytesIO(b" " * (cap + 1)), "t.json")},
                            content_type="multipart/form-data")
    assert response.status_code == 413 and "Envoi trop gros" in response.get_data(as_text=True)
    response = arbiter.post(f"/api/tournaments/{tid}/results", data=b" " * (cap + 1),
                            content_type="application/json", headers=headers)
    assert response.status_code == 413 and "taille permise" in response.get_json()["error"]


def test_an_imported_penalty_of_1e308_is_refused_and_pages_stay_up(app, arbiter, client):
    """Was: imported, then the public results page answered 500 (an overflow in the ranking)."""
    from duplicate import interchange

    with Session(db.get_engine(app)) as session:
        data = interchange.export_tournament(session, demo_tournament(session))
        session.rollback()
    data = json.loads(json.dumps(data))
    data["penalties"] = [{"player": "N1", "points": 1e308, "reason": "x"}, {"player": "N1", "points": 1e308}]
    response = arbiter.post("/arbitre/import", data={"text": json.dumps(data)})
    assert response.status_code == 422
    assert "« points » doit être un nombre entre −100 et 100" in response.get_data(as_text=True)
    data["penalties"] = []
    data["players"][0]["id"] = 'N1"\r\nContent-Type: text/html'
    response = arbiter.post("/arbitre/import", data={"text": json.dumps(data)})
    assert response.status_code == 422 and "invalide" in response.get_data(as_text=True)
