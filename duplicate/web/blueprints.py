"""The blueprints, one per audience, and nothing else: this module imports no view (Indico's
``blueprint.py`` direction). Each view module imports its blueprint from here and adds its routes to it;
`duplicate.web.init_app` imports every view module, then registers the blueprints on the application.

* ``web`` — what everyone sees: results, rankings, route sheets by private link (`web.public`);
* ``auth`` — sign-in and the password (`web.auth`);
* ``arbiter`` — the arbiter's screens, under ``/arbitre`` (`web.arbiter`, and free play's `web.freeplay.arbiter`);
* ``printing`` — the arbiter's printing page of a tournament (`web.arbiter.printing`);
* ``scoring`` — the scorers' entry of the fiches, under ``/saisie`` (`web.scoring`, `web.freeplay.scoring`);
* ``table`` — scoring at the table by its secret link, SPEC §12 (`web.table`, `web.freeplay.table`);
* ``api`` — JSON under ``/api``: rankings, electronic scoring with bearer tokens (`web.public.api`);
* ``errors`` — the French pages of the errors (`web.errors`).
"""

from flask import Blueprint

public = Blueprint("web", __name__)
auth = Blueprint("auth", __name__)
arbiter = Blueprint("arbiter", __name__, url_prefix="/arbitre")
printing = Blueprint("printing", __name__, url_prefix="/arbitre/tournois/<int:tournament_id>/impression")
scoring = Blueprint("scoring", __name__, url_prefix="/saisie")
table = Blueprint("table", __name__)
api = Blueprint("api", __name__, url_prefix="/api")
errors = Blueprint("errors", __name__)
