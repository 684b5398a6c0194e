"""Issue 28 points 4 and 6 (docs/settled-and-corrected.md): a line the arbiter has settled is changed by his
acts only — the table's phone (409), a scorer's fiche (refused, what was typed kept) and the results API
refuse it; every entry path checks the score before anything becomes a conflict (+31 is refused, never
flagged); « corrigé » only where a done score was changed afterwards, the same set on the public étui page,
the route sheet, the printed fiche and the marked export. Expected values by hand."""

import html as entities
import re
import subprocess

import pytest
from sqlmodel import Session, select

from duplicate import db, operations, printing
from duplicate.models import JournalEntry, Result, ResultConflict
from duplicate.printing.commands import tournament_data
from scoring_helpers import give, publish, ready
from test_results_api import token
from test_table_api import defence, launch


def text_of(response) -> str:
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def pdf_text(data: bytes, tmp_path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(data)
    raw = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", " ", raw)


@pytest.fixture
def scorer(app, make_user, sign_in, evening):
    """A scorer the arbiter gave the evening's tournament (docs/accounts.md), signed in."""
    client = app.test_client()
    assert sign_in(client, make_user("marqueur", "scorer")).status_code == 302
    give(app, evening, "marqueur")
    return client


@pytest.fixture
def evening(app):
    """An individual tournament of 5 tables (20 players), no result yet."""
    return ready(app)


def first_line(app, tournament_id, board=1):
    """The line of étui ``board`` played first (position order), as the movement lays it out."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        lines = operations.all_lines(session, tournament, boards={board}, pending=True)
        return sorted(lines, key=lambda line: (line.position, line.table))[0]


def secret_of(app, tournament_id, table):
    with Session(db.get_engine(app)) as session:
        return operations.table_secret(operations.get_tournament(session, tournament_id), table)


def stored(app, tournament_id, board, table) -> Result:
    with Session(db.get_engine(app)) as session:
        return session.exec(select(Result).where(Result.tournament_id == tournament_id, Result.board == board,
                                                 Result.table == table).execution_options(with_pending=True)).first()


def table_enters(client, app, tournament_id, line, *scores, confirm=True):
    """The table's phone at the line's position (launched by the arbiter): the North enters ``scores`` in
    turn, a defender confirms with his seat and code."""
    launch(app, tournament_id, line.position)
    url = f"/api/table/{secret_of(app, tournament_id, line.table)}/results"
    for score in scores:
        assert client.post(url, json={"board": line.board, "score": score}).status_code == 202
    if confirm:
        response = client.post(f"{url}/{line.board}/confirm", json=defence(app, tournament_id, line))
        assert response.status_code == 200


def journal_actions(app, tournament_id):
    with Session(db.get_engine(app)) as session:
        return [e.action for e in session.exec(select(JournalEntry).where(JournalEntry.tournament_id == tournament_id)
                                              .order_by(JournalEntry.id))]


def conflict_rows(app, tournament_id):
    with Session(db.get_engine(app)) as session:
        return session.exec(select(ResultConflict).where(ResultConflict.tournament_id == tournament_id)).all()


def private_token(app, tournament_id, entrant_id):
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return next(row["token"] for row in operations.private_links(session, tournament) if row["id"] == entrant_id)


def everywhere(app, client, tournament_id, line, tmp_path) -> dict:
    """What each consumer says of étui ``line.board``: the ids `corrected_ids` decides, the marked export's
    line, the public étui page, the taker's route sheet (page and paper), the printed scored fiche."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        ids = operations.corrected_ids(session, tournament)
        export, ranking, _tokens = tournament_data(session, tournament_id)
    exported = next(r for r in export["results"] if (r["board"], r["table"]) == (line.board, line.table))
    fiche = pdf_text(printing.render_kind("travellers", export, ranking, scored=True, boards=[line.board]), tmp_path)
    route_pdf = pdf_text(printing.render_kind("route-sheets", export, ranking, entrants=[line.taker]), tmp_path)
    page = client.get(f"/tournois/{tournament_id}/etuis/{line.board}")
    sheet = client.get(f"/feuille/{private_token(app, tournament_id, line.taker)}")
    return {"ids": ids, "export": exported, "fiche": fiche, "route_pdf": route_pdf,
            "page_html": page.get_data(as_text=True), "page": text_of(page),
            "sheet_html": sheet.get_data(as_text=True), "sheet": text_of(sheet)}


# --- point 6: « corrigé » -----------------------------------------------------------------------------------

def test_a_table_line_entered_corrected_while_pending_and_confirmed_is_not_corrected(app, client, evening, tmp_path):
    line = first_line(app, evening)
    table_enters(client, app, evening, line, 56, 62)  # +56, corrected to +62 before confirmation, confirmed
    result = stored(app, evening, line.board, line.table)
    assert (result.score, result.status) == (62, "done")
    publish(app, evening)
    seen = everywhere(app, client, evening, line, tmp_path)
    assert seen["ids"] == set()
    assert "corrected" not in seen["export"]
    assert "corrigé" not in seen["page"] and "flag-corrected" not in seen["page_html"]
    assert "+62" in seen["page"]
    assert "corrig" not in seen["sheet"] and 'class="corrected' not in seen["sheet_html"]
    assert "corrig" not in seen["route_pdf"]
    assert "corrig" not in seen["fiche"] and "Aucune correction." in seen["fiche"] and "+62" in seen["fiche"]


def test_a_done_line_adjusted_by_the_arbiter_is_corrected_everywhere_and_settled(app, client, scorer, evening,
                                                                                 tmp_path):
    line = first_line(app, evening)
    table_enters(client, app, evening, line, 56)
    result_id = stored(app, evening, line.board, line.table).id
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        result = operations.get_result(session, tournament, result_id)
        operations.adjust_score(session, result, score=60, version_id=result.version_id, who="arbitre",
                                reason="erreur de décompte")
        session.commit()
    publish(app, evening)
    seen = everywhere(app, client, evening, line, tmp_path)
    assert seen["ids"] == {result_id}
    assert seen["export"]["corrected"] is True and seen["export"]["score"] == 60
    assert "corrigé" in seen["page"] and "score ajusté" in seen["page"]
    assert "score rectifié par l’arbitre" in seen["sheet"] and 'class="corrected' in seen["sheet_html"]
    assert "score rectifié par l’arbitre" in seen["route_pdf"]
    assert "1 ligne corrigée après saisie." in seen["fiche"]
    assert "1 score rectifié par l’arbitre." in seen["fiche"] and "Aucune correction" not in seen["fiche"]

    # point 4: settled — the table's later POST is 409 (neither its old score nor another is flagged)
    url = f"/api/table/{secret_of(app, evening, line.table)}/results"
    for score in (56, 62):
        response = client.post(url, json={"board": line.board, "score": score})
        assert response.status_code == 409
        body = response.get_json()
        assert "L’arbitre a tranché cette ligne" in body["error"] and body["score"] == 60 and body["status"] == "done"
    # the same score as the arbiter's is no change: 202, nothing written
    assert client.post(url, json={"board": line.board, "score": 60}).status_code == 202
    assert conflict_rows(app, evening) == [] and "result.conflict" not in journal_actions(app, evening)
    # a scorer's fiche: refused (409), what he typed kept, no « Remplacer »
    fiche_url = f"/saisie/tournois/{evening}/etuis/{line.board}"
    page = scorer.get(fiche_url).get_data(as_text=True)
    key = f"{line.board}-{line.table}"
    version = re.search(rf'name="version-{key}" value="(\d+)"', page).group(1)
    response = scorer.post(fiche_url, data={f"score-{key}": "+64", f"version-{key}": version})
    assert response.status_code == 409
    shown = response.get_data(as_text=True)
    assert "L’arbitre a tranché cette ligne" in text_of(response) and 'value="+64"' in shown
    assert "Un autre marqueur" not in text_of(response) and 'name="replace"' not in shown
    # the results API: refused (409), with the reason
    response = client.post(f"/api/tournaments/{evening}/results", headers={"Authorization": f"Bearer {token(app)}"},
                           json=[dict(board=line.board, table=line.table, position=line.position, taker=line.taker,
                                      defenders=line.defence, score=64)])
    assert response.status_code == 409 and "L’arbitre a tranché cette ligne" in response.get_json()["error"]
    assert stored(app, evening, line.board, line.table).score == 60
    # the arbiter's own acts still work: adjust again, then annul
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        result = operations.get_result(session, tournament, result_id)
        operations.adjust_score(session, result, score=58, version_id=result.version_id, who="arbitre", reason="revu")
        operations.annul_result(session, result, version_id=result.version_id, who="arbitre", reason="donne faussée")
        session.commit()
    assert (stored(app, evening, line.board, line.table).score, stored(app, evening, line.board, line.table).annulled) \
        == (58, True)


def test_an_annulled_line_is_annulled_not_corrected(app, client, scorer, evening, tmp_path):
    line = first_line(app, evening)
    key = f"{line.board}-{line.table}"
    assert scorer.post(f"/saisie/tournois/{evening}/etuis/{line.board}", data={f"score-{key}": "+56"}).status_code == 302
    result_id = stored(app, evening, line.board, line.table).id
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        result = operations.get_result(session, tournament, result_id)
        operations.annul_result(session, result, version_id=result.version_id, who="arbitre", reason="cartes mêlées")
        session.commit()
    publish(app, evening)
    seen = everywhere(app, client, evening, line, tmp_path)
    assert seen["ids"] == set() and "corrected" not in seen["export"]
    assert "donne annulée" in seen["page"] and "corrigé" not in seen["page"]
    assert "donne annulée" in seen["sheet"] and "corrig" not in seen["sheet"] and "corrig" not in seen["route_pdf"]
    assert "1 donne annulée par l’arbitre." in seen["fiche"] and "corrig" not in seen["fiche"]


def test_a_scorers_replace_of_a_done_line_is_corrected_not_by_the_arbiter(app, client, scorer, evening, tmp_path):
    """A scorer corrects a done paper line (+56 → +62): corrected everywhere, and the printed fiche does not
    say the arbiter did it."""
    line = first_line(app, evening)
    key = f"{line.board}-{line.table}"
    url = f"/saisie/tournois/{evening}/etuis/{line.board}"
    assert scorer.post(url, data={f"score-{key}": "+56"}).status_code == 302
    version = re.search(rf'name="version-{key}" value="(\d+)"', scorer.get(url).get_data(as_text=True)).group(1)
    assert scorer.post(url, data={f"score-{key}": "+62", f"version-{key}": version}).status_code == 302
    publish(app, evening)
    seen = everywhere(app, client, evening, line, tmp_path)
    assert seen["ids"] == {stored(app, evening, line.board, line.table).id} and seen["export"]["corrected"] is True
    assert "corrigé" in seen["page"] and "score corrigé après saisie" in seen["sheet"]
    assert "1 ligne corrigée après saisie." in seen["fiche"] and "par l’arbitre" not in seen["fiche"]


# --- point 4: settled lines, one score check before any conflict ----------------------------------------------

def test_an_arbiters_adjustment_of_a_pending_line_settles_it(app, client, scorer, evening):
    """The reported bug: the phone replaced the arbiter's adjustment of a pending line, which kept « score
    ajusté » and his reason. Now the act makes the line done and the phone is refused."""
    line = first_line(app, evening)
    table_enters(client, app, evening, line, 56, confirm=False)
    result_id = stored(app, evening, line.board, line.table).id
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        result = operations.get_result(session, tournament, result_id)
        operations.adjust_score(session, result, score=60, version_id=result.version_id, who="arbitre", reason="vu")
        session.commit()
    assert (stored(app, evening, line.board, line.table).status, stored(app, evening, line.board, line.table).score) \
        == ("done", 60)
    url = f"/api/table/{secret_of(app, evening, line.table)}/results"
    response = client.post(url, json={"board": line.board, "score": 62})
    assert response.status_code == 409 and "L’arbitre a tranché cette ligne" in response.get_json()["error"]
    confirmation = client.post(f"{url}/{line.board}/confirm", json=defence(app, evening, line))
    assert confirmation.status_code == 200  # already done: nothing changes
    kept = stored(app, evening, line.board, line.table)
    assert (kept.score, kept.adjusted, kept.reason) == (60, True, "vu")
    # adjusted on a pending line: not a done score changed, so not « corrigé » (it is « score ajusté »)
    with Session(db.get_engine(app)) as session:
        assert operations.corrected_ids(session, operations.get_tournament(session, evening)) == set()


def test_a_restored_line_stays_settled_for_the_scorers(app, scorer, evening):
    line = first_line(app, evening)
    key = f"{line.board}-{line.table}"
    url = f"/saisie/tournois/{evening}/etuis/{line.board}"
    assert scorer.post(url, data={f"score-{key}": "+56"}).status_code == 302
    result_id = stored(app, evening, line.board, line.table).id
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        result = operations.get_result(session, tournament, result_id)
        operations.annul_result(session, result, version_id=result.version_id, who="arbitre", reason="x")
        operations.annul_result(session, result, version_id=result.version_id, who="arbitre", annulled=False)
        session.commit()
    result = stored(app, evening, line.board, line.table)
    assert not result.annulled and not result.adjusted and result.notes is None  # no mark left: the history tells
    response = scorer.post(url, data={f"score-{key}": "+62", f"version-{key}": str(result.version_id)})
    assert response.status_code == 409 and "L’arbitre a tranché cette ligne" in text_of(response)
    assert "donne rétablie" in text_of(response) and stored(app, evening, line.board, line.table).score == 56


@pytest.mark.parametrize("confirmed", [False, True])
def test_an_impossible_paper_score_over_a_table_line_is_refused_not_a_conflict(app, client, scorer, evening,
                                                                              confirmed):
    line = first_line(app, evening)
    table_enters(client, app, evening, line, 56, confirm=confirmed)
    key = f"{line.board}-{line.table}"
    url = f"/saisie/tournois/{evening}/etuis/{line.board}"
    version = re.search(rf'name="version-{key}" value="(\d+)"', scorer.get(url).get_data(as_text=True)).group(1)
    response = scorer.post(url, data={f"score-{key}": "+31", f"version-{key}": version}, follow_redirects=True)
    assert response.status_code == 422
    shown = text_of(response)
    assert "Score +31 impossible pour une Garde" in shown and 'value="+31"' in response.get_data(as_text=True)
    assert "ne dit pas comme la table" not in shown and "arbitre est prévenu" not in shown  # one message only
    assert conflict_rows(app, evening) == [] and "result.conflict" not in journal_actions(app, evening)
    assert stored(app, evening, line.board, line.table).score == 56
    # the table's phone: the same check, the same message
    response = client.post(f"/api/table/{secret_of(app, evening, line.table)}/results",
                           json={"board": line.board, "score": 31})
    assert response.status_code == 422 and "Score +31 impossible pour une Garde" in response.get_json()["error"]
    assert conflict_rows(app, evening) == []


def test_a_possible_paper_score_over_a_pending_table_line_is_still_a_conflict(app, client, scorer, evening):
    line = first_line(app, evening)
    table_enters(client, app, evening, line, 56, confirm=False)
    key = f"{line.board}-{line.table}"
    url = f"/saisie/tournois/{evening}/etuis/{line.board}"
    version = re.search(rf'name="version-{key}" value="(\d+)"', scorer.get(url).get_data(as_text=True)).group(1)
    response = scorer.post(url, data={f"score-{key}": "+60", f"version-{key}": version}, follow_redirects=True)
    assert response.status_code == 200
    assert "la fiche papier (+60) ne dit pas comme la table (+56)" in text_of(response)
    assert [(c.source, c.score) for c in conflict_rows(app, evening)] == [("paper", 60)]
    assert journal_actions(app, evening).count("result.conflict") == 1
    kept = stored(app, evening, line.board, line.table)
    assert (kept.score, kept.status) == (56, "pending")
