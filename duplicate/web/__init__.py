"""Web blueprints, one per role (public for now; arbiter, scoring and api later).

Views stay thin: parse the request, call an operation, render a template.
"""

import datetime

from flask import Blueprint

bp = Blueprint("web", __name__)

MONTHS_FR = (
    "janvier", "février", "mars", "avril", "mai", "juin",
    "juillet", "août", "septembre", "octobre", "novembre", "décembre",
)


@bp.app_template_filter("date_fr")
def date_fr(value: datetime.date) -> str:
    """A date the French way, e.g. « 1er mars 2026 », without depending on the system locale."""
    day = "1er" if value.day == 1 else str(value.day)
    return f"{day} {MONTHS_FR[value.month - 1]} {value.year}"


from duplicate.web import public  # noqa: E402,F401 -- registers the public views on bp


def init_app(app) -> None:
    """Register the web blueprint on `app`."""
    app.register_blueprint(bp)
