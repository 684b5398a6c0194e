"""Free-play tournaments and the duplicate-only pages (SPEC §13).

A free-play tournament shares the registration, dashboard, publication, journal, accounts and export with
the duplicate; the pages that make sense only with étuis and fiches ambulantes (étuis, placement, fiches,
tables, route sheets, « Tout imprimer » and the batch print jobs, live room, the scoring API…) are closed to
it: an arbiter is sent back to the dashboard with a French message, anyone else gets a 404. The free-play
pages (this package's: ``arbiter.free_*``, ``scoring.free_*``) are closed the same way to a duplicate
tournament.

Each page says which it is where it is written, rather than in a list kept here: a view of this package
(`duplicate.web.freeplay`) is free play's; a view marked `serves_free_play` serves both, and one marked
`free_play_variant` both at one address, a free-play tournament answered by its free-play view (the
results page, the printing page, the export and the ranking API, each with its own data); any other view
is the duplicate's. The arbiter's menu shows the links of the pages that serve the tournament (`serves`).
"""

import functools

from flask import abort, current_app, flash, g, redirect, request, url_for

from duplicate import operations
from duplicate.core.formats import format_for
from duplicate.db import get_session
from duplicate.web.lookups import tournament_or_404

FREE_PLAY_PACKAGE = __name__.rpartition(".")[0]  # duplicate.web.freeplay: the free-play pages


def serves_free_play(view):
    """Mark a view of the duplicate's screens that serves a free-play tournament too (below its route)."""
    view.serves_free_play = True
    return view


def free_play_variant(free_view):
    """Mark a view of the duplicate's screens whose address a free-play tournament is answered at by
    ``free_view(tournament, **the route's other arguments)`` instead: one page, each kind's own data."""
    def mark(view):
        @functools.wraps(view)
        def answer(tournament_id: int, **arguments):
            tournament = tournament_or_404(tournament_id)
            if _free_play(tournament):
                return free_view(tournament, **arguments)
            return view(tournament_id, **arguments)
        return serves_free_play(answer)
    return mark


def _free_play(tournament) -> bool:
    """Whether ``tournament`` is played in donnes libres (SPEC §13): the one question of this guard."""
    return not format_for(tournament.kind).has_etuis


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
    try:
        tournament = operations.get_tournament(get_session(), tournament_id)
    except operations.NotFound:
        return None  # the view answers 404
    # held for the request: the session's identity map holds it weakly, and the view's `tournament_or_404`
    # would read the row again (a quarter of a millisecond on each of the hall's polls, issue 30)
    g.tournament_loaded = tournament
    if not _free_play(tournament):
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


def serves(endpoint: str, tournament) -> bool:
    """Whether the page ``endpoint`` serves ``tournament`` (the guard lets it through): a page of its
    kind's, or one that serves both."""
    kind = _page_kind(current_app.view_functions.get(endpoint))
    return kind == "both" or (kind == "free") == _free_play(tournament)


def init_app(app) -> None:
    app.before_request(_closed_to_free_play)
