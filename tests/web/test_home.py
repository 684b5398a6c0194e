"""The public home page, on SQLite and PostgreSQL."""

import datetime

from sqlmodel import Session

from duplicate import db
from duplicate.models import Tournament, TournamentKind


def test_home_page_is_french_and_empty(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert '<html lang="fr">' in html
    assert "Tournois de tarot duplicate" in html
    assert "Aucun tournoi pour l’instant." in html


def test_home_page_lists_tournaments(app, client):
    with Session(db.get_engine(app)) as session:
        session.add(
            Tournament(
                name="Open de Lyon",
                kind=TournamentKind.triplettes,
                date=datetime.date(2026, 3, 1),
                place="Salle des fêtes",
            )
        )
        session.commit()

    html = client.get("/").get_data(as_text=True)
    assert "Open de Lyon" in html
    assert "1er mars 2026" in html
    assert "Triplettes" in html
    assert "Salle des fêtes" in html
    assert "Aucun tournoi" not in html


def test_stylesheet_is_served(client):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert "@media print" in response.get_data(as_text=True)
    response.close()
