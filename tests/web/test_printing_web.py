"""Printing from the arbiter's screens: direct downloads and background batch jobs."""

import re
import subprocess
import time

import pytest
from sqlmodel import Session

from factories import demo_tournament

from duplicate import db


@pytest.fixture
def demo_id(app):
    with Session(db.get_engine(app)) as session:
        tournament = demo_tournament(session)
        session.commit()
        return tournament.id


def pdf_text(data: bytes, tmp_path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                           check=True).stdout


def test_printing_page_lists_every_document(arbiter, demo_id):
    html = arbiter.get(f"/arbitre/tournois/{demo_id}/impression/").get_data(as_text=True)
    for title in ("Étiquettes des étuis", "Diagrammes", "Fiches ambulantes", "Feuilles de route", "Classements"):
        assert title in html
    assert 'name="csrf_token"' in html


def test_ranking_is_downloaded_at_once(arbiter, demo_id, tmp_path):
    response = arbiter.post(f"/arbitre/tournois/{demo_id}/impression/ranking")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert f'filename="tournoi-{demo_id}-classements.pdf"' in response.headers["Content-Disposition"]
    text = pdf_text(response.data, tmp_path)
    assert "Tournoi de démonstration" in text and re.search(r"\d+,\d\d", text)


def test_route_sheets_run_as_a_job_then_are_served(arbiter, demo_id, tmp_path):
    response = arbiter.post(f"/arbitre/tournois/{demo_id}/impression/route-sheets")
    assert response.status_code == 302
    job_url = response.headers["Location"]
    deadline = time.monotonic() + 120
    while True:
        page = arbiter.get(job_url).get_data(as_text=True)
        if "Le document est prêt" in page or "a échoué" in page or time.monotonic() > deadline:
            break
        assert "Préparation en cours" in page
        time.sleep(0.5)
    assert "Le document est prêt" in page, page
    pdf = arbiter.get(job_url + "/fichier")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    # named after what it holds, whatever dashes the job's random token has
    assert f"tournoi-{demo_id}-feuilles-de-route.pdf" in pdf.headers["Content-Disposition"]
    text = pdf_text(pdf.data, tmp_path)
    assert "FEUILLE DE ROUTE" in text and text.count("\f") == 20  # one sheet per player


def test_printing_is_for_arbiters_only(client, demo_id, make_user, sign_in):
    assert client.get(f"/arbitre/tournois/{demo_id}/impression/").status_code == 302
    sign_in(client, make_user("marqueur", "scorer"))
    assert client.get(f"/arbitre/tournois/{demo_id}/impression/").status_code == 403
    assert client.post(f"/arbitre/tournois/{demo_id}/impression/ranking").status_code == 403


def test_unknown_kind_and_job_are_404(arbiter, demo_id):
    assert arbiter.post(f"/arbitre/tournois/{demo_id}/impression/nothing").status_code == 404
    assert arbiter.get(f"/arbitre/tournois/{demo_id}/impression/travail/../../etc").status_code == 404
    assert arbiter.get(f"/arbitre/tournois/{demo_id}/impression/travail/route-sheets-"
                       "AAAAAAAAAAAAAAAAAAAAAA").status_code == 404


def test_corrected_scores_are_flagged_on_the_scored_fiches(app, arbiter, demo_id, tmp_path):
    from duplicate import operations

    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, demo_id)
        line = operations.results(session, tournament, board=2)[0]
        operations.update_result(session, line, version_id=line.version_id, who="arbitre", score=106)
        session.commit()
    response = arbiter.post(f"/arbitre/tournois/{demo_id}/impression/travellers", data={"scored": "1"})
    text = pdf_text(response.data, tmp_path)
    assert text.count("score corrigé") == 1  # the remark of étui 2's line (it may wrap before « après saisie »)
    # each fiche's sentences say what its lines had (issue 28: no more « corrigée(s) par l’arbitre » counting
    # every flag, a chelem included): étui 2 the arbiter's correction above, étui 14 the demo's adjusted
    # score (changed while done: corrected too), étui 7 the demo's annulled deal
    flat = re.sub(r"\s+", " ", text)
    assert flat.count("1 ligne corrigée après saisie.") == 2
    assert flat.count("1 score rectifié par l’arbitre.") == 1
    assert flat.count("1 donne annulée par l’arbitre.") == 1
    assert "+106" in text


def test_a_job_name_whose_token_holds_dashes_still_names_its_kind():
    from duplicate import printing

    assert printing.kind_of_job("route-sheets-Ab-cD_ef-ghijklmnopq") == "route-sheets"
    assert printing.kind_of_job("labels-abc") == "labels"
    assert printing.kind_of_job("nothing-abc") is None
    assert printing.file_name(12, "route-sheets") == "tournoi-12-feuilles-de-route.pdf"


def _wait_for(arbiter, job_url: str) -> dict:
    """Poll the job's JSON status (as static/js/print-job.js does) until it leaves « running »."""
    deadline = time.monotonic() + 180
    while True:
        state = arbiter.get(job_url + "/etat")
        assert state.status_code == 200 and state.mimetype == "application/json"
        status = state.get_json()
        assert 0 <= status["percent"] <= 100
        if status["state"] != "running" or time.monotonic() > deadline:
            return status
        time.sleep(0.5)


def test_the_printing_page_offers_the_whole_pack(arbiter, demo_id):
    html = arbiter.get(f"/arbitre/tournois/{demo_id}/impression/").get_data(as_text=True)
    assert "Tout imprimer" in html and "Enveloppe d’une table" in html
    assert f'action="/arbitre/tournois/{demo_id}/impression/tout"' in html


def test_a_table_envelope_is_prepared_off_the_request_then_served(arbiter, demo_id, tmp_path):
    response = arbiter.post(f"/arbitre/tournois/{demo_id}/impression/tout", data={"table": "2"})
    assert response.status_code == 302
    job_url = response.headers["Location"]
    page = arbiter.get(job_url).get_data(as_text=True)
    assert "Enveloppe de la table 2" in page
    if "Préparation en cours" in page:  # the progress is driven by a static script, no inline code
        assert "js/print-job.js" in page and "data-status-url" in page and "<script>" not in page
    status = _wait_for(arbiter, job_url)
    assert status["state"] == "done" and status["percent"] == 100, status
    pdf = arbiter.get(status["file"])
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert f"tournoi-{demo_id}-enveloppe-table-2.pdf" in pdf.headers["Content-Disposition"]
    pages = pdf_text(pdf.data, tmp_path).split("\f")
    assert "PRENEUR" in pages[0]                                    # labels first
    assert "FICHE AMBULANTE" in "".join(pages) and "N2" in "".join(pages)


def test_an_unknown_table_is_refused_in_french(arbiter, demo_id):
    response = arbiter.post(f"/arbitre/tournois/{demo_id}/impression/tout", data={"table": "12"},
                            follow_redirects=True)
    assert response.status_code == 200
    assert "La table « 12 » n’existe pas dans le mouvement." in response.get_data(as_text=True)
    response = arbiter.post(f"/arbitre/tournois/{demo_id}/impression/tout", data={"table": "deux"},
                            follow_redirects=True)
    assert "La table « deux » n’existe pas" in response.get_data(as_text=True)


def test_a_pack_job_names_its_kind():
    from duplicate import printing

    assert printing.kind_of_job("pack-Ab-cD_ef-ghijklmnopq") == "pack"
    assert printing.file_name(12, "pack") == "tournoi-12-tout.pdf"
