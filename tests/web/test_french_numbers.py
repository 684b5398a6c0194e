"""Numbers typed on the arbiter's screens (SPEC §11): text boxes read by `duplicate.french`, never
``<input type="number">`` (Chromium read « 2,5 » as 25 with an English locale)."""

import re

import pytest
from sqlmodel import Session, select

from duplicate import db
from duplicate.models import Penalty, Result
from scoring_helpers import fill_board, give_scorers, ready


@pytest.fixture
def scorer(app, make_user, sign_in):
    client = app.test_client()
    assert sign_in(client, make_user("marqueur", "scorer")).status_code == 302
    return client


def _page(response) -> str:
    return response.get_data(as_text=True)


def _results(app, tournament_id):
    with Session(db.get_engine(app)) as session:
        return list(session.exec(select(Result).where(Result.tournament_id == tournament_id)
                                 .order_by(Result.board, Result.table)))


def test_no_number_input_that_the_browser_reads_in_its_own_locale(app, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    pages = [_page(arbiter.get(f"/arbitre/tournois/{tournament_id}/resultats")),
             _page(arbiter.get("/arbitre/tournois/nouveau"))]
    for page in pages:
        assert page.count('inputmode="') >= 1
        for tag in re.findall(r"<input[^>]*>", page):
            assert 'type="number"' not in tag, tag
    assert re.search(r'<input[^>]*inputmode="decimal"[^>]*name="points"|<input[^>]*name="points"[^>]*inputmode="decimal"',
                     pages[0])


def test_a_penalty_and_a_note_typed_with_a_comma_or_a_minus_sign(app, scorer, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    assert fill_board(scorer, tournament_id, 1).status_code == 302
    result = _results(app, tournament_id)[0]
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/resultats/{result.id}/note", data={
        f"note-{result.id}-taker": "33,3", f"note-{result.id}-defence": " 66,7 ",
        f"note-{result.id}-reason": "Erreur de l’arbitre", f"note-{result.id}-version": "1"})
    assert response.status_code == 302
    stored = _results(app, tournament_id)[0]
    assert stored.notes == {"taker": 33.3, "defence": 66.7}
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/penalites", data={
        "entrant_id": "N1", "points": "2,5", "reason": "Retard", "board": ""}).status_code == 302
    with Session(db.get_engine(app)) as session:
        assert [p.points for p in session.exec(select(Penalty))] == [2.5]


def test_a_refused_number_keeps_what_was_typed_with_a_french_message(app, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/penalites", data={
        "entrant_id": "N1", "points": "deux et demi", "reason": "Retard", "board": "3,5"})
    page = _page(response)
    assert response.status_code == 422
    assert "n’est pas un nombre" in page and "n’est pas un nombre entier" in page
    assert 'value="deux et demi"' in page and 'value="3,5"' in page and 'value="Retard"' in page
    with Session(db.get_engine(app)) as session:
        assert list(session.exec(select(Penalty))) == []


def test_a_negative_number_typed_with_the_true_minus_sign_reaches_the_rule(app, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/penalites", data={
        "entrant_id": "N1", "points": "−2,5", "reason": "Retard", "board": ""})
    # read as −2,5, then refused by the rule (points between 0 and 100), not as « not a number »
    page = _page(response)
    assert response.status_code == 422 and "n’est pas un nombre" not in page
    assert "nombre de points positif" in page and 'value="−2,5"' in page
