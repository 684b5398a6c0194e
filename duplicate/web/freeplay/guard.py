"""Free-play tournaments and the duplicate-only pages (SPEC §13).

A free-play tournament shares the registration, dashboard, publication, journal, accounts and export with
the duplicate; the pages that make sense only with étuis and fiches ambulantes (étuis, placement, fiches,
tables, route sheets, « Tout imprimer » and the batch print jobs, live room, the scoring API…) are closed to
it: an arbiter is sent back to the dashboard with a French message, anyone else gets a 404. One list here
rather than a test in every view. The free-play pages (``arbiter.free_*``, ``scoring.free_*``) are closed the
same way to a duplicate tournament. The printing page and the ranking API serve both, each with its own data.
"""

from flask import abort, flash, g, redirect, request, url_for

from duplicate.core.formats import format_for
from duplicate.db import get_session
from duplicate.models import Tournament

#: The pages of a tournament that serve free play too (besides the ``arbiter.free_*`` ones).
FREE_ENDPOINTS = frozenset({
    "arbiter.dashboard", "arbiter.publish", "arbiter.set_timezone", "arbiter.players", "arbiter.import_players",
    "arbiter.edit_player", "arbiter.journal", "arbiter.access", "arbiter.access_grant", "arbiter.access_scorer",
    "arbiter.access_take_over", "arbiter.access_withdraw", "arbiter.export_tournament", "arbiter.archive",
    "arbiter.restore", "arbiter.delete", "web.results", "api.ranking",
    "printing.index", "printing.make",  # the free-play kinds only (`web.printing`): no batch, no pack
    # the team kinds (libre duo, libre par 4) form their teams on the duplicate's team screens
    "arbiter.teams", "arbiter.import_teams", "arbiter.export_teams",
})


def _closed_to_free_play():
    tournament_id = (request.view_args or {}).get("tournament_id")
    endpoint = request.endpoint or ""
    if tournament_id is None or endpoint in FREE_ENDPOINTS:
        return None
    free_page = endpoint.startswith(("arbiter.free_", "scoring.free_"))
    tournament = get_session().get(Tournament, tournament_id)
    if tournament is None:
        return None
    # held for the request: the session's identity map holds it weakly, and the view's `tournament_or_404`
    # would read the row again (a quarter of a millisecond on each of the hall's polls, issue 30)
    g.tournament_loaded = tournament
    if not format_for(tournament.kind).free_play:
        if not free_page:
            return None
        if request.blueprint == "arbiter":  # and the free-play pages are closed to a duplicate tournament
            flash("Cette page sert aux tournois en donnes libres.", "warning")
            return redirect(url_for("arbiter.dashboard", tournament_id=tournament_id))
        abort(404)
    if free_page:
        return None
    if endpoint == "scoring.overview":  # a scorer's way in: the feuilles de marque
        return redirect(url_for("scoring.free_sheets", tournament_id=tournament_id))
    if request.blueprint == "arbiter":
        flash("Cette page sert aux tournois en duplicate : un tournoi en donnes libres n’en a pas l’usage.", "warning")
        return redirect(url_for("arbiter.dashboard", tournament_id=tournament_id))
    abort(404)


def init_app(app) -> None:
    app.before_request(_closed_to_free_play)
