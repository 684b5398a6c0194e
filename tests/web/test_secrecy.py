"""Results stay secret during play (SPEC §11, issue 11 point 6): until the arbiter publishes the séance,
every public route — results page, étui page, route-sheet link (HTML and PDF), competition page, the
ranking API — shows the progress only; the arbiter sees everything, always.

The étui 1 of a 5-table individual is scored by hand: +146, +118, +74, −58, −132 (tables in movement
order). Five different scores: the taker notes are 100, 75, 50, 25 and 0 (each table beaten is worth
100 / 4), so « 75,00 » is a note shown only once published; 5 of the 5 × 20 = 100 lines expected by the
movement are in, 95 are missing.
"""

import re
import subprocess

import pytest
from sqlmodel import Session

from duplicate import db, operations
from scoring_helpers import give, publish, ready

SCORES = ("+146", "+118", "+74", "-58", "-132")
SHOWN = ("+146", "+118", "+74", "−58", "−132")  # as pages print them (true minus sign)


def _token(app, role: str) -> str:
    with Session(db.get_engine(app)) as session:
        value = operations.create_token(session, role, "tests")
        session.commit()
        return value


@pytest.fixture
def evening(app, make_user, sign_in):
    """A 5-table individual whose étui 1 only is scored, through the scorers' screen; (id, the private
    token of the taker at the first table of étui 1, that taker's entrant id)."""
    tournament_id = ready(app)
    scorer = app.test_client()
    assert sign_in(scorer, make_user("marqueur", "scorer")).status_code == 302
    give(app, tournament_id, "marqueur")
    page = scorer.get(f"/saisie/tournois/{tournament_id}/etuis/1").get_data(as_text=True)
    keys = re.findall(r'name="score-([0-9]+-[0-9]+)"', page)
    assert len(keys) == 5
    response = scorer.post(f"/saisie/tournois/{tournament_id}/etuis/1",
                           data={f"score-{key}": score for key, score in zip(keys, SCORES)})
    assert response.status_code == 302
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        first = operations.traveller(session, tournament, 1)[0]
        assert first.result.score == 146
        player = next(p for p in operations.players(session, tournament) if p.entrant_id == first.taker)
        return tournament_id, player.token, player.entrant_id


def _text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def _pdf_text(response, tmp_path) -> str:
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    path = tmp_path / "feuille.pdf"
    path.write_bytes(response.data)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _public_views(client, tournament_id: int, token: str, tmp_path) -> dict[str, str]:
    return {
        "results": _text(client.get(f"/tournois/{tournament_id}/")),
        "board": _text(client.get(f"/tournois/{tournament_id}/etuis/1")),
        "route sheet": _text(client.get(f"/feuille/{token}")),
        "route sheet (old address)": _text(client.get(f"/feuille-de-route/{token}")),
        "route sheet PDF": _pdf_text(client.get(f"/feuille/{token}/feuille-de-route.pdf"), tmp_path),
    }


def test_public_pages_show_progress_only_until_published(app, client, evening, tmp_path):
    tournament_id, token, entrant = evening
    for name, page in _public_views(client, tournament_id, token, tmp_path).items():
        for score in SHOWN:
            assert score not in page, (name, score)
        assert not re.search(r"\d,\d\d", page), name  # no note, no percentage
        if "PDF" not in name:
            assert "Classement" not in page, name  # no ranking
    views = _public_views(client, tournament_id, token, tmp_path)
    assert "Étui 1 5 / 5 lignes" in views["results"] and "Étui 2 0 / 5 lignes" in views["results"]
    assert "pas encore publiés" in views["results"]
    assert views["board"].count("Prénom saisie") == 5 and "à saisir" not in views["board"]
    assert entrant in views["route sheet"] and "Preneur" in views["route sheet"]
    assert entrant in views["route sheet PDF"]
    assert "paraîtront quand l’arbitre publiera" in views["route sheet PDF"]
    assert not re.search(r"\b\d+ ÉTUIS?\b", views["route sheet PDF"].upper())  # no « 0 étui » totals before publication

    publish(app, tournament_id)
    views = _public_views(client, tournament_id, token, tmp_path)
    for score in SHOWN:
        assert score in views["board"]
    assert "75,00" in views["board"] and "Classement général" in views["results"]
    assert "+146" in views["route sheet"] and "100,00" in views["route sheet"]
    assert "+146" in views["route sheet PDF"] and re.search(r"\b\d+ ÉTUIS?\b", views["route sheet PDF"].upper())


def test_ranking_api_is_for_the_arbiter_until_published(app, client, evening):
    tournament_id = evening[0]
    url = f"/api/tournaments/{tournament_id}/ranking"
    for headers in ({}, {"Authorization": f"Bearer {_token(app, 'scorer')}"}, {"Authorization": "Bearer faux"}):
        response = client.get(url, headers=headers)
        body = response.get_json()
        assert response.status_code == 403, headers
        assert "pas encore publiés" in body["error"]
        assert body == {"error": body["error"], "complete": False, "missing": 95, "published": False}
        assert "146" not in response.get_data(as_text=True)
    arbiter = client.get(url, headers={"Authorization": f"Bearer {_token(app, 'arbiter')}"})
    assert arbiter.status_code == 200
    body = arbiter.get_json()
    assert (body["complete"], body["missing"], body["published"]) == (False, 95, False)
    assert sorted(r["score"] for r in body["boards"][0]["results"]) == [-132, -58, 74, 118, 146]
    assert sorted(r["taker_note"] for r in body["boards"][0]["results"]) == [0, 25, 50, 75, 100]

    publish(app, tournament_id)
    response = client.get(url)
    assert response.status_code == 200 and response.get_json()["published"] is True
    assert response.get_json()["ranking"] == body["ranking"]


def test_arbiter_sees_everything_and_publishes_from_the_dashboard(app, client, evening, make_user, sign_in,
                                                                  tmp_path):
    tournament_id, token, _ = evening
    arbiter = app.test_client()
    assert sign_in(arbiter, make_user("arbitre")).status_code == 302
    views = _public_views(arbiter, tournament_id, token, tmp_path)
    assert "Classement général" in views["results"] and "75,00" in views["board"]
    for name in ("board", "route sheet", "route sheet PDF"):
        assert "+146" in views[name], name
    assert arbiter.get(f"/api/tournaments/{tournament_id}/ranking").status_code == 200  # signed-in arbiter

    dashboard = arbiter.get(f"/arbitre/tournois/{tournament_id}/").get_data(as_text=True)
    assert "Publier les résultats" in dashboard and "Lignes encore attendues : 95." in dashboard
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', dashboard)
    data = {"publier": "1", **({"csrf_token": csrf.group(1)} if csrf else {})}
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/publication", data=data)
    assert response.status_code == 302
    assert "+146" in _text(client.get(f"/tournois/{tournament_id}/etuis/1"))
    assert "Retirer la publication" in arbiter.get(f"/arbitre/tournois/{tournament_id}/").get_data(as_text=True)

    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/publication", data=dict(data, publier="0"))
    assert response.status_code == 302
    assert "+146" not in _text(client.get(f"/tournois/{tournament_id}/etuis/1"))
    assert client.get(f"/api/tournaments/{tournament_id}/ranking").status_code == 403
    # only an arbiter publishes
    assert client.post(f"/arbitre/tournois/{tournament_id}/publication", data=data).status_code == 302
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        assert not operations.is_published(tournament)
        entries = [(e.action, e.who) for e in operations.journal_entries(session, tournament)]
        assert entries == [("results.publish", "arbitre"), ("results.withdraw", "arbitre")]


def test_competition_page_counts_published_seances_only(app, client, evening, make_user, sign_in):
    tournament_id = evening[0]
    with Session(db.get_engine(app)) as session:
        series = operations.create_series(session, "Championnat du club")
        operations.set_series(session, operations.get_tournament(session, tournament_id), series)
        session.commit()
        series_id = series.id
    page = _text(client.get(f"/competitions/{series_id}"))
    assert "non publiée" in page and "NOM" not in page  # nobody ranked on an unpublished séance
    arbiter = app.test_client()
    assert sign_in(arbiter, make_user("arbitre")).status_code == 302
    assert "NOM" in _text(arbiter.get(f"/competitions/{series_id}"))
    publish(app, tournament_id)
    page = _text(client.get(f"/competitions/{series_id}"))
    assert "non publiée" not in page and "NOM" in page


def test_completeness_counts_the_lines_the_movement_expects(app, evening):
    """100 lines expected; étui 1 in: 95 missing; an annulled deal counts as entered; all in: complete."""
    tournament_id = evening[0]
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        assert operations.completeness(session, tournament) == {"complete": False, "missing": 95}
        result = operations.traveller(session, tournament, 1)[0].result
        operations.annul_result(session, result, version_id=result.version_id, who="arbitre", reason="x")
        assert operations.completeness(session, tournament) == {"complete": False, "missing": 95}
        for line in operations.all_lines(session, tournament):
            if line.result is None:
                operations.record_result(session, tournament, score=56, **line.fields(tournament.kind))
        assert operations.completeness(session, tournament) == {"complete": True, "missing": 0}


def test_without_a_movement_nothing_is_missing(app):
    with Session(db.get_engine(app)) as session:
        tournament = operations.create_tournament(session, name="Sans mouvement", kind="individual")
        assert operations.completeness(session, tournament) == {"complete": False, "missing": 0}
