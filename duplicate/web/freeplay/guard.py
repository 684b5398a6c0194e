"""Free-play tournaments and the duplicate-only pages (SPEC §13).

A free-play tournament shares the registration, dashboard, publication, journal, accounts and export with
the duplicate; the pages that make sense only with étuis and fiches ambulantes (étuis, placement, fiches,
tables, route sheets, « Tout imprimer » and the batch print jobs, live room, the scoring API…) are closed to
it: an arbiter is sent back to the dashboard with a French message, anyone else gets a 404. The free-play
pages (this package's: ``arbiter.free_*``, ``scoring.free_*``) are closed the same way to a duplicate
tournament.

Each page says which it is where it is written, rather than in a list kept here: a view of this package
(`duplicate.web.freeplay`) is free play's; a view marked `serves_free_play` serves both (the printing page
and the ranking API each with its own data); any other view is the duplicate's.
"""

from flask import abort, current_app, flash, g, redirect, request, url_for

from duplicate.core.formats import format_for
from duplicate.db import get_session
from duplicate.models import Tournament

FREE_PLAY_PACKAGE = __name__.rpartition(".")[0]  # duplicate.web.freeplay: the free-play pages


def serves_free_play(view):
    """Mark a view of the duplicate's screens that serves a free-play tournament too (below its route)."""
    view.serves_free_play = True
    return view


def _page_kind(view) -> str:
    """« free » (a view of `FREE_PLAY_PACKAGE`), « both » (`serves_free_play`) or « duplicate »."""
    if view is None:
        return "duplicate"
    if getattr(view, "serves_free_play", False):
        return "both"
    return "free" if view.__module__.startswith(FREE_PLAY_PACKAGE + ".") else "duplicate"


def _closed_to_free_play():
    tournament_id = (request.view_args or {}).get("tournament_id")
    endpoint = request.endpoint or ""
    kind = _page_kind(current_app.view_functions.get(endpoint))
    if tournament_id is None or kind == "both":
        return None
    free_page = kind == "free"
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
