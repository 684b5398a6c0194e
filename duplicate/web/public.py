"""Public pages, open to everyone: the home page with the list of tournaments."""

from flask import render_template

from duplicate import operations
from duplicate.db import get_session
from duplicate.web import bp


@bp.route("/")
def home():
    """Home page: what the software does and the tournaments in the database, most recent first."""
    return render_template("public/home.html", tournaments=operations.list_tournaments(get_session()))
