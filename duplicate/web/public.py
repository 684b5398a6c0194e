"""Public pages, open to everyone: the home page with the list of tournaments."""

from flask import render_template
from sqlmodel import select

from duplicate.db import get_session
from duplicate.models import Tournament, TournamentKind
from duplicate.web import bp

KIND_LABELS = {
    TournamentKind.individual: "Individuel",
    TournamentKind.triplettes: "Triplettes",
    TournamentKind.quadrettes: "Quadrettes",
    TournamentKind.team_match: "Match par équipes",
}


@bp.route("/")
def home():
    """Home page: what the software does and the tournaments in the database, most recent first."""
    tournaments = get_session().exec(
        select(Tournament).order_by(Tournament.date.desc(), Tournament.id.desc())
    ).all()
    return render_template("public/home.html", tournaments=tournaments, kind_labels=KIND_LABELS)
