"""Web blueprints, one per role: ``web`` (public pages: results, rankings, route sheets by private link),
``auth`` (sign-in), ``arbiter`` (the arbiter's screens, under ``/arbitre``; adjustments and correction
history in `arbiter_results`), ``scoring`` (the scorers' entry of the fiches, under ``/saisie``) and
``api`` (JSON, under ``/api``: rankings, and the electronic scoring endpoint with bearer tokens), ``table``
(scoring at the table, SPEC §12: the table API and the table's phone page, by the table's secret link).

Views stay thin: parse the request, call an operation, render a template. A view that re-displays a
rejected form answers 422, so that the request's session is rolled back (`duplicate.db`): nothing an
operation flushed before failing is kept.
"""

import datetime

from flask import Blueprint, render_template
from werkzeug.routing import IntegerConverter

from duplicate import french
from duplicate.core.formats import KIND_LABELS

bp = Blueprint("web", __name__)

MONTHS_FR = (
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
)




@bp.app_template_filter("kind_label")
def kind_label(kind) -> str:
    """The French name of a tournament kind (a `TournamentKind` or its value)."""
    value = getattr(kind, "value", kind)
    return KIND_LABELS.get(value, str(value))


@bp.app_template_filter("line_label")
@bp.app_template_filter("place")
def line_label(ident) -> str:
    """A line or starting place as a French player reads it: W → « O », EW3 → « EO3 » (the files keep
    W / EW, SPEC §9); see `duplicate.french.place_label`."""
    return french.place_label(ident)


@bp.app_template_filter("date_fr")
def date_fr(value: datetime.date | None) -> str:
    """A date the French way, e.g. « 1er mars 2026 », without depending on the system locale; None → ""."""
    if value is None:
        return ""
    day = "1er" if value.day == 1 else str(value.day)
    return f"{day} {MONTHS_FR[value.month - 1]} {value.year}"


@bp.app_template_filter("fr_number")
def fr_number(value, decimals: int = 2) -> str:
    """A number with a decimal comma, rounded half away from zero (`duplicate.french.number`, the
    rounding the printouts use too): 58.125 → « 58,13 »; None → « — »."""
    return french.number(value, decimals)


@bp.app_template_filter("signed")
def signed(value) -> str:
    """A score as on a fiche: « +106 », « −42 » (true minus sign), « 0 »; None → « — » (`french.score`)."""
    return french.score(value)


@bp.app_template_filter("signed_number")
def signed_number(value, decimals: int = 3) -> str:
    """PM with their sign and a decimal comma: « +4,000 », « −3,162 »; None → « — »."""
    return french.signed_number(value, decimals)


bp.add_app_template_filter(french.quarter_label, "quarter")  # « 1er quart temps »
bp.add_app_template_filter(french.ranked, "ranked")  # « 2 équipes classées »
bp.add_app_template_filter(french.counted, "counted")  # « 2 lignes refusées », « 1 joueur »
bp.add_app_template_filter(french.unit_word, "unit_word")  # « 0,50 point », « 2,50 points »


@bp.app_template_filter("places_in_text")
def places_in_text(text) -> str:
    """A message written with the files' ids (« W2 ») as a person reads it (« O2 »)."""
    return french.places_in_text(text)


@bp.app_template_filter("local_time")
def local_time(moment, tournament=None, seconds: bool = False) -> str:
    """A stored (UTC) moment in the tournament's time zone, « 14/03/2026 21:05 »."""
    return french.local_time(moment, french.timezone_of(tournament), seconds=seconds)


@bp.app_errorhandler(403)
def forbidden(_error):
    return render_template("error.html", title="Accès refusé",
                           message="Cette page est réservée aux arbitres."), 403


@bp.app_errorhandler(404)
def not_found(_error):
    return render_template("error.html", title="Page introuvable",
                           message="Cette page n’existe pas, ou plus."), 404


@bp.app_errorhandler(405)
def method_not_allowed(error):
    """An address asked with a method it does not take (a form posted to a page, a GET on an API's POST):
    in French, JSON under ``/api``, with the methods it takes (``Allow``) — Werkzeug's page was English."""
    from flask import jsonify, make_response, request

    message = "Cette adresse ne s’ouvre pas de cette façon (méthode non permise)."
    if request.path.startswith("/api/"):
        response = make_response(jsonify(error=message), 405)
    else:
        response = make_response(render_template("error.html", title="Méthode non permise", message=message), 405)
    if getattr(error, "valid_methods", None):
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


def tournament_or_404(tournament_id: int):
    """The tournament with this id, or a 404 page."""
    from flask import abort

    from duplicate import operations
    from duplicate.db import get_session

    try:
        return operations.get_tournament(get_session(), tournament_id)
    except operations.NotFound:
        abort(404)


def entrant_names(session, tournament) -> dict[str, str]:
    """Entrant id → display name: players in the individual, teams otherwise."""
    from sqlmodel import select

    from duplicate.models import Player, Team

    if tournament.format.ranks_players:  # light rows: a page may name 1,200 players
        rows = session.exec(select(Player.entrant_id, Player.surname, Player.first_name).where(
            Player.tournament_id == tournament.id, Player.entrant_id.is_not(None)).order_by(Player.id)).all()
        return {ident: " ".join(part for part in (surname, first) if part) for ident, surname, first in rows}
    return dict(session.exec(select(Team.entrant_id, Team.name).where(
        Team.tournament_id == tournament.id, Team.entrant_id.is_not(None)).order_by(Team.id)).all())


from duplicate.web.public import pages as public  # noqa: E402,F401 -- registers the public views on bp
from duplicate.web.public import api  # noqa: E402,F401
from duplicate.web.arbiter import tournaments as arbiter  # noqa: E402,F401
from duplicate.web.arbiter import journal as arbiter_journal, results as arbiter_results  # noqa: E402,F401
from duplicate.web import auth, errors  # noqa: E402,F401
from duplicate.web.arbiter import printing  # noqa: E402,F401
from duplicate.web.scoring import fiches as scoring  # noqa: E402,F401
from duplicate.web.arbiter import players as arbiter_players  # noqa: E402,F401 -- the evening's changes, on the arbiter blueprint
from duplicate.web.arbiter import accounts  # noqa: E402,F401 -- accounts and access, on the arbiter blueprint
from duplicate.web import headers  # noqa: E402,F401
from duplicate.web.arbiter import live  # noqa: E402,F401 -- the live room (arbiter blueprint) and the projector (public)
from duplicate.web.arbiter import tables as arbiter_tables  # noqa: E402,F401 -- scoring at the table (SPEC §12)
from duplicate.web.table import pages as table  # noqa: E402,F401
from duplicate.web.arbiter import team_match as arbiter_team_match  # noqa: E402,F401 -- team match settings and score sheet (issue 15)
from duplicate.web.arbiter import teams_csv as arbiter_teams_csv  # noqa: E402,F401 -- teams from a CSV list and back (issue 15)
from duplicate.web.freeplay import scoring as scoring_freeplay  # noqa: E402,F401 -- scorers enter free-play feuilles (SPEC §13)
from duplicate.web.freeplay import table as table_freeplay  # noqa: E402,F401 -- free play at the table: phone entry, confirmation
from duplicate.web.arbiter import attackers as arbiter_attackers  # noqa: E402,F401 -- who attacks: triplette badges, quadrette attackers


class DatabaseId(IntegerConverter):
    """``<int:...>`` in every route: at most 2³¹ − 1 (a database integer), so that an oversized id in a URL
    is a 404 and never reaches the database (an overflow there was a 500)."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=2**31 - 1, signed=False):
        super().__init__(url_map, fixed_digits, min, max, signed)
from duplicate.web import expired_forms  # noqa: E402
from duplicate.web.freeplay import guard as free_guard  # noqa: E402


def init_app(app) -> None:
    """Register the web blueprints on `app`."""
    app.url_map.converters["int"] = DatabaseId  # before any rule is added
    app.register_blueprint(bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(arbiter.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(table.bp)
    if "csrf" in app.extensions:
        api.init_csrf(app.extensions["csrf"])
        table.init_csrf(app.extensions["csrf"])
        table_freeplay.init_csrf(app.extensions["csrf"])
    app.register_blueprint(scoring.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(errors.bp)  # database failures: a French page, not a traceback
    headers.init_app(app)  # anti-framing and content-security policy on every response
    expired_forms.init_app(app)  # a CSRF token refused: 400, or the typed values kept when it only expired
    free_guard.init_app(app)  # free-play tournaments: the duplicate-only pages are closed to them
