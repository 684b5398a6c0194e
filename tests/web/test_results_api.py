"""The electronic scoring API (bearer tokens, concurrency), route sheets by private link, competitions of
several séances — on SQLite and PostgreSQL."""

import json
import threading
import urllib.error
import urllib.request

import pytest
from sqlmodel import Session, select
from werkzeug.serving import make_server

from duplicate import db, operations
from duplicate.models import Player, Result, Team
from duplicate.french import place_label
from duplicate.web.filters import fr_number
from scoring_helpers import publish, ready, score_for


def token(app, role="scorer", label="tablette") -> str:
    with Session(db.get_engine(app)) as session:
        value = operations.create_token(session, role, label)
        session.commit()
        return value


def lines(app, tournament_id) -> list[dict]:
    """Every line of every fiche as a SPEC §9 result object (scores from `score_for`)."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return [dict(line.fields(tournament.kind), score=score_for(line.board, line.table))
                for line in operations.all_lines(session, tournament)]


def count(app, tournament_id) -> int:
    with Session(db.get_engine(app)) as session:
        return len(session.exec(select(Result.id).where(Result.tournament_id == tournament_id)).all())


def post(client, tournament_id, body, bearer=None):
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else {}
    return client.post(f"/api/tournaments/{tournament_id}/results", json=body, headers=headers)


def test_api_answers(app, client):
    tournament_id = ready(app)
    scorer, arbiter = token(app), token(app, "arbiter")
    good, other = lines(app, tournament_id)[:2]
    assert post(client, tournament_id, [good]).status_code == 401
    assert post(client, tournament_id, [good], "faux").status_code == 401
    response = post(client, tournament_id, [good], scorer)
    assert response.status_code == 201 and response.get_json()["results"][0]["score"] == good["score"]
    response = post(client, tournament_id, [dict(good, score=good["score"] + 2)], scorer)
    assert response.status_code == 409 and "déjà un score" in response.get_json()["error"]
    response = post(client, tournament_id, [dict(other, score=31)], scorer)
    assert response.status_code == 422 and "Score +31 impossible pour une Garde" in response.get_json()["error"]
    response = post(client, tournament_id, [dict(other, taker="N9")], scorer)
    assert response.status_code == 422 and "inconnu « N9 »" in response.get_json()["error"]
    # the line moved to another table: the movement seats other players there (table 1 already has its
    # score of étui 1, but the seats are checked first)
    response = post(client, tournament_id, [dict(other, table=other["table"] % 5 + 1)], scorer)
    assert response.status_code == 422 and "le mouvement place pour l’étui" in response.get_json()["error"]
    assert count(app, tournament_id) == 1
    response = post(client, tournament_id, [dict(other, score="56")], scorer)
    assert response.status_code == 422 and "nombre entier" in response.get_json()["error"]
    assert post(client, tournament_id, {"board": 1}, scorer).status_code == 422
    response = post(client, tournament_id, [dict(other, annulled=True)], scorer)
    assert response.status_code == 403 and "arbitre" in response.get_json()["error"]
    assert post(client, tournament_id, [dict(other, annulled=True)], arbiter).status_code == 201
    assert count(app, tournament_id) == 2
    # all or nothing: a good line followed by a bad one stores neither
    third, fourth = lines(app, tournament_id)[2:4]
    assert post(client, tournament_id, [third, dict(fourth, score=31)], scorer).status_code == 422
    assert count(app, tournament_id) == 2
    assert post(client, 4242, [third], scorer).status_code == 404


def test_unexpected_table_is_refused(app, client):
    tournament_id = ready(app)
    line = lines(app, tournament_id)[0]
    wrong = next(t for t in range(1, 6) if t != line["table"])
    bearer = token(app)
    response = post(client, tournament_id, [dict(line, table=wrong)], bearer)
    assert response.status_code == 422 and "le mouvement place pour l’étui" in response.get_json()["error"]
    response = post(client, tournament_id, [dict(line, table=6)], bearer)
    assert response.status_code == 422 and "n’envoie pas l’étui" in response.get_json()["error"]
    response = post(client, tournament_id, [dict(line, position=None)], bearer)
    assert response.status_code == 201 and response.get_json()["results"][0]["position"] == line["position"]


def test_concurrent_clients_lose_nothing(app):
    """8 threads post every line of a 5-table individual at once through a real server, each line sent
    by two threads: every line stored exactly once, one 201 and one 409 per line."""
    tournament_id = ready(app)
    bearer = token(app)
    todo = lines(app, tournament_id)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}/api/tournaments/{tournament_id}/results"
    answers: list[tuple[int, int]] = []
    lock = threading.Lock()

    def worker(share: list[dict]):
        for item in share:
            request = urllib.request.Request(url, data=json.dumps([item]).encode(), method="POST", headers={
                "Content-Type": "application/json", "Authorization": f"Bearer {bearer}"})
            for _attempt in range(5):
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        status = response.status
                except urllib.error.HTTPError as error:
                    status = error.code
                if status != 503:
                    break
            with lock:
                answers.append((todo.index(item), status))

    shares = [todo[i::4] for i in range(4)] * 2  # each line in two threads
    threads = [threading.Thread(target=worker, args=(share,)) for share in shares]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        server.shutdown()
        thread.join()
    assert len(answers) == 2 * len(todo)
    for index in range(len(todo)):
        statuses = sorted(status for i, status in answers if i == index)
        assert statuses == [201, 409], (index, statuses)
    with Session(db.get_engine(app)) as session:
        rows = session.exec(select(Result).where(Result.tournament_id == tournament_id)).all()
        assert sorted((r.board, r.table, r.score) for r in rows) == sorted(
            (item["board"], item["table"], item["score"]) for item in todo)


def test_route_sheet_by_private_link_with_qr(app, client):
    tournament_id = ready(app)
    assert post(client, tournament_id, lines(app, tournament_id), token(app)).status_code == 201
    with Session(db.get_engine(app)) as session:
        player = session.exec(select(Player).where(Player.tournament_id == tournament_id,
                                                   Player.entrant_id == "N1")).one()
        secret, name = player.token, player.name
    publish(app, tournament_id)
    ranking = client.get(f"/api/tournaments/{tournament_id}/ranking").get_json()
    row = next(r for r in ranking["ranking"] if r["id"] == "N1")
    response = client.get(f"/feuille/{secret}")
    assert response.status_code == 200 and response.headers["Referrer-Policy"] == "no-referrer"
    page = response.get_data(as_text=True)
    assert name in page and "Preneur" in page and "Défense (" in page
    for value in (row["attack"], row["defence"], row["global"]):
        assert fr_number(value) in page
    assert page.count("<tr class=") == row["attack_boards"] + row["defence_boards"]
    assert client.get(f"/feuille-de-route/{secret}").status_code == 200
    svg = client.get(f"/feuille/{secret}/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert client.get("/feuille/pas-un-jeton").status_code == 404
    assert client.get("/feuille/pas-un-jeton/qr.svg").status_code == 404


def test_team_route_sheet_reached_by_a_member(app, client):
    tournament_id = ready(app, "quadrettes")
    assert post(client, tournament_id, lines(app, tournament_id), token(app)).status_code == 201
    with Session(db.get_engine(app)) as session:
        team = session.exec(select(Team).where(Team.tournament_id == tournament_id, Team.entrant_id == "Q1")).one()
        member = operations.team_members(session, team)[0]
        team_token, member_token = team.token, member.token
    publish(app, tournament_id)
    for secret in (team_token, member_token):
        page = client.get(f"/feuille/{secret}").get_data(as_text=True)
        assert "Q1" in page and "Points de match" in page and "Attaque" in page


def test_competition_of_two_sessions_with_coefficients(app, arbiter):
    first, second = ready(app, seed="un"), ready(app, seed="deux")
    for tournament_id in (first, second):
        assert post(arbiter, tournament_id, lines(app, tournament_id), token(app)).status_code == 201
    assert arbiter.post("/arbitre/competitions", data={"name": "Championnat du club"}).status_code == 302
    with Session(db.get_engine(app)) as session:
        series_id = operations.list_series(session)[0].id
    assert arbiter.post(f"/arbitre/tournois/{first}/competition",
                        data={"series_id": series_id, "coefficient": "1"}).status_code == 302
    assert arbiter.post(f"/arbitre/tournois/{second}/competition",
                        data={"series_id": series_id, "coefficient": "1,5"}).status_code == 302
    rankings = [{r["id"]: r for r in arbiter.get(f"/api/tournaments/{t}/ranking").get_json()["ranking"]}
                for t in (first, second)]
    with Session(db.get_engine(app)) as session:
        result = operations.series_ranking(session, operations.get_series(session, series_id))
        licences = [{p.entrant_id: p.licence for p in operations.players(session, operations.get_tournament(session, t))}
                    for t in (first, second)]
    assert len(result["rows"]) == 20  # the same 20 licences in both séances
    expected = {}
    for coefficient, ranking, licence in zip((1, 1.5), rankings, licences):
        for ident, row in ranking.items():
            expected[licence[ident]] = expected.get(licence[ident], 0) + coefficient * row["global"]
    for row in result["rows"]:
        assert float(row["total"]) == pytest.approx(expected[row["key"].removeprefix("licence:")])
    assert [row["rank"] for row in result["rows"]] == sorted(row["rank"] for row in result["rows"])
    page = arbiter.get(f"/competitions/{series_id}").get_data(as_text=True)
    assert "Championnat du club" in page and "coef. 1,50" in page and fr_number(result["rows"][0]["total"]) in page


def test_route_sheet_pdf_by_private_link_only(app, client, tmp_path):
    import subprocess

    from sqlmodel import Session

    from duplicate import db, operations
    from factories import demo_tournament

    with Session(db.get_engine(app)) as session:
        tournament = demo_tournament(session)
        session.commit()
        player = operations.players(session, tournament)[0]
        token, entrant = player.token, player.entrant_id
    page = client.get(f"/feuille/{token}").get_data(as_text=True)
    assert f"/feuille/{token}/feuille-de-route.pdf" in page
    response = client.get(f"/feuille/{token}/feuille-de-route.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Cache-Control"] == "private, no-store"
    path = tmp_path / "sheet.pdf"
    path.write_bytes(response.data)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert place_label(entrant) in text and "FEUILLE DE ROUTE" in text and text.count("\f") == 1
    assert f'filename="tournoi-{tournament.id}-feuille-de-route-{place_label(entrant)}.pdf"' in \
        response.headers["Content-Disposition"]
    altered = token[:-1] + ("y" if token.endswith("x") else "x")  # a token ending in x stayed itself: 1 in 64
    assert client.get(f"/feuille/{altered}/feuille-de-route.pdf").status_code == 404
