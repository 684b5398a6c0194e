"""The web layer: one package of views per audience, each adding its routes to its blueprint
(`blueprints`, which imports no view) —

* `public` (the ``web`` blueprint: results, rankings, route sheets by private link; and ``api``, JSON under
  ``/api``: rankings, the electronic scoring endpoint with bearer tokens);
* `arbiter` (the arbiter's screens, under ``/arbitre``, and ``printing``);
* `scoring` (the scorers' entry of the fiches, under ``/saisie``);
* `table` (scoring at the table, SPEC §12: the table API and the table's phone page, by the table's secret link);
* `freeplay` (free play's pages on those blueprints, SPEC §13, and the guard between free play and duplicate);

and below them, imported by the views and importing none: `auth` (sign-in, the guards), `forms`,
`form_conflicts`, `submit` (a refused form's status and errors), `lookups` (a tournament or a 404), `filters`
(the Jinja filters), `errors`, `expired_forms`, `headers`, `links`, `versioned`.

Views stay thin: parse the request, call an operation, render a template. A view that re-displays a
rejected form answers 422, so that the request's session is rolled back (`duplicate.db`): nothing an
operation flushed before failing is kept. `init_app` imports every view module (in this order: the order
their routes are added), then registers the blueprints.
"""

from werkzeug.routing import IntegerConverter

from duplicate.web import auth, blueprints, errors, expired_forms, filters, headers
from duplicate.web.public import pages as public  # noqa: F401 -- the public views, on the ``web`` blueprint
from duplicate.web.public import api
from duplicate.web.arbiter import tournaments as arbiter  # noqa: F401 -- the arbiter's guards and tournaments
from duplicate.web.arbiter import boards, interchange, movement, registration  # noqa: F401
from duplicate.web.freeplay import arbiter as arbiter_freeplay  # noqa: F401 -- free play (SPEC §13)
from duplicate.web.arbiter import menu  # noqa: F401 -- the tournament menu of every arbiter page
from duplicate.web.arbiter import journal as arbiter_journal, results as arbiter_results  # noqa: F401
from duplicate.web.arbiter import printing  # noqa: F401
from duplicate.web.scoring import fiches as scoring  # noqa: F401
from duplicate.web.arbiter import players as arbiter_players  # noqa: F401 -- the evening's changes
from duplicate.web.arbiter import accounts  # noqa: F401 -- accounts and access, on the arbiter blueprint
from duplicate.web.arbiter import live  # noqa: F401 -- the live room (arbiter blueprint) and the projector (public)
from duplicate.web.arbiter import tables as arbiter_tables  # noqa: F401 -- scoring at the table (SPEC §12)
from duplicate.web.table import pages as table
from duplicate.web.arbiter import team_match as arbiter_team_match  # noqa: F401 -- team match settings and sheet
from duplicate.web.arbiter import teams_csv as arbiter_teams_csv  # noqa: F401 -- teams from a CSV list and back
from duplicate.web.freeplay import scoring as scoring_freeplay  # noqa: F401 -- scorers enter free-play feuilles
from duplicate.web.freeplay import table as table_freeplay  # free play at the table: phone entry, confirmation
from duplicate.web.arbiter import attackers as arbiter_attackers  # noqa: F401 -- who attacks: badges, attackers
from duplicate.web.freeplay import guard as free_guard
from duplicate.web.public import simultaneous  # a simultané's API (issue 33), on the ``api`` blueprint
from duplicate.web.arbiter import simultaneous as arbiter_simultaneous  # noqa: F401 -- a club's file sent


class DatabaseId(IntegerConverter):
    """``<int:...>`` in every route: at most 2³¹ − 1 (a database integer), so that an oversized id in a URL
    is a 404 and never reaches the database (an overflow there was a 500)."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=2**31 - 1, signed=False):
        super().__init__(url_map, fixed_digits, min, max, signed)


def init_app(app) -> None:
    """Register the web blueprints on `app`."""
    app.url_map.converters["int"] = DatabaseId  # before any rule is added
    filters.init_app(app)  # the Jinja filters of every page
    app.register_blueprint(blueprints.public)
    app.register_blueprint(blueprints.auth)
    app.register_blueprint(blueprints.arbiter)
    app.register_blueprint(blueprints.api)
    app.register_blueprint(blueprints.table)
    if "csrf" in app.extensions:
        api.init_csrf(app.extensions["csrf"])
        table.init_csrf(app.extensions["csrf"])
        table_freeplay.init_csrf(app.extensions["csrf"])
        simultaneous.init_csrf(app.extensions["csrf"])
    app.register_blueprint(blueprints.scoring)
    app.register_blueprint(blueprints.printing)
    app.register_blueprint(blueprints.errors)  # database failures: a French page, not a traceback
    headers.init_app(app)  # anti-framing and content-security policy on every response
    expired_forms.init_app(app)  # a CSRF token refused: 400, or the typed values kept when it only expired
    free_guard.init_app(app)  # free-play tournaments: the duplicate-only pages are closed to them
