"""The arbiter's « Journal » page (on the ``arbiter`` blueprint): every change of the evening, newest
first — who, when, what, before and after (SPEC §11)."""

from flask import render_template

from duplicate import operations
from duplicate.db import get_session
from duplicate.web import tournament_or_404
from duplicate.web.arbiter import bp


@bp.route("/tournois/<int:tournament_id>/journal")
def journal(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    entries = list(reversed(operations.journal_entries(get_session(), tournament)))
    return render_template("arbiter/journal.html", tournament=tournament, entries=entries)
