"""Times are shown in the tournament's time zone (SPEC §11): Europe/Paris by default, chosen on the
tournament form, never UTC."""

import datetime

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import ResultHistory, Tournament
from pages import without_tokens
from scoring_helpers import fill_board, give_scorers, ready

MOMENT = datetime.datetime(2026, 3, 14, 20, 5, 7, tzinfo=datetime.timezone.utc)


@pytest.fixture
def scorer(app, make_user, sign_in):
    client = app.test_client()
    assert sign_in(client, make_user("marqueur", "scorer")).status_code == 302
    return client


def _tournament(app, tournament_id) -> Tournament:
    with Session(db.get_engine(app)) as session:
        return session.get(Tournament, tournament_id)


def test_the_history_of_a_fiche_is_in_paris_time_then_in_the_chosen_zone(app, scorer, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    assert fill_board(scorer, tournament_id, 1).status_code == 302
    with Session(db.get_engine(app)) as session:
        for entry in session.exec(select(ResultHistory)):
            entry.at = MOMENT
            session.add(entry)
        session.commit()
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/etuis/1/fiche").get_data(as_text=True)
    assert "14/03/2026 21:05:07" in page and "UTC" not in without_tokens(page)  # Paris in winter: UTC+1
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/fuseau", data={"timezone": "America/Martinique"})
    assert response.status_code == 302
    assert _tournament(app, tournament_id).settings["timezone"] == "America/Martinique"
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/etuis/1/fiche").get_data(as_text=True)
    assert "14/03/2026 16:05:07" in page                               # UTC−4


def test_an_unknown_zone_is_refused_and_nothing_changes(app, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/fuseau", data={"timezone": "Pas/Une_Zone"})
    assert response.status_code == 422 and "pas un choix valide" in response.get_data(as_text=True)
    assert "timezone" not in (_tournament(app, tournament_id).settings or {})


def test_the_zone_is_chosen_when_the_tournament_is_created(app, arbiter):
    page = arbiter.get("/arbitre/tournois/nouveau").get_data(as_text=True)
    assert '<option selected value="Europe/Paris">' in page or 'value="Europe/Paris" selected' in page
    response = arbiter.post("/arbitre/tournois/nouveau", data={
        "name": "Tournoi de la Réunion", "kind": "individual", "sessions": "1", "timezone": "Indian/Reunion"})
    assert response.status_code == 302
    with Session(db.get_engine(app)) as session:
        created = session.exec(select(Tournament).where(Tournament.name == "Tournoi de la Réunion")).one()
        assert created.settings["timezone"] == "Indian/Reunion"


def test_the_operation_refuses_an_unknown_zone(app):
    with Session(db.get_engine(app)) as session:
        tournament = operations.create_tournament(session, name="T", kind="individual")
        with pytest.raises(operations.OperationError, match="Fuseau horaire inconnu"):
            operations.set_timezone(session, tournament, "Mars/Olympus")
        operations.set_timezone(session, tournament, "Europe/Paris")
        assert tournament.settings == {"timezone": "Europe/Paris"}
