"""The read-only JSON API, on SQLite and PostgreSQL: ``GET /api/tournaments/<id>/ranking``."""

import json

from sqlmodel import Session

from duplicate import db, interchange, operations


def _tournament_file() -> str:
    players = [{"id": f"{line}{table}", "name": f"J {line}{table}", "line": line}
               for table in (1, 2, 3) for line in "NSEW"]
    results = [{"board": 1, "table": table, "taker": f"N{table}",
                "defenders": [f"S{table}", f"E{table}", f"W{table}"], "score": score}
               for table, score in ((1, 56), (2, 62), (3, -56))]
    return json.dumps({"format": "tarot-tournament/1", "name": "Essai", "kind": "individual",
                       "players": players, "results": results})


def test_ranking_is_the_operations_ranking(app, client):
    with Session(db.get_engine(app)) as session:
        tournament = interchange.import_tournament(session, _tournament_file())
        session.commit()
        tournament_id = tournament.id
        expected = operations.ranking(session, tournament)

        operations.publish(session, tournament, True, "arbitre")
        session.commit()

    response = client.get(f"/api/tournaments/{tournament_id}/ranking")  # published: nobody signed in
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    # imported results without a movement: none expected, so complete as soon as there are results
    assert response.get_json() == dict(json.loads(json.dumps(expected)), complete=True, missing=0, published=True)
    assert [r["taker_note"] for r in response.get_json()["boards"][0]["results"]] == [50.0, 100.0, 0.0]


def test_unknown_tournament_is_404(client):
    response = client.get("/api/tournaments/4242/ranking")
    assert response.status_code == 404


def test_ranking_is_read_only(client):
    assert client.post("/api/tournaments/1/ranking").status_code == 405
