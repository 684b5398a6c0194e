"""What the visitor sees when the database fails: a French page (JSON under ``/api``), never a traceback.

* `OperationalError` — the database cannot write or answer: disk full, disk I/O error, a read-only file,
  a lock held too long, PostgreSQL away. 503, with what happened and « rien n'a été enregistré » (the
  request's transaction is rolled back, `duplicate.db`).
* `sqlalchemy.exc.TimeoutError` — every connection of the pool is busy (many tables sending at once):
  503 « occupée », like a lock held too long; the client sends again.
* `DataError` — the database refused a value the checks let through (a NUL character, which PostgreSQL
  cannot store in text; a number out of its column's range). 422: the input is refused, nothing kept.
* `StaleDataError` — a row changed by another request between this one's read and its write (the version
  counters of `Tournament`, `Result`, `FreeSheet`): 409 « Enregistré entre-temps », never a 500 (issue 31,
  point 3). A form's values are kept, in a form posted again to the same address (the page of the expired
  forms, `expired_forms`), for the arbiter to look at the page again or to save them again — an explicit
  act. The arbiter's settings forms do not get here: they lock the row before reading it
  (`operations.lock_row`) and compare the values shown (`form_conflicts`).
* Any other unexpected error: a French 500 page.

A NUL character in a posted form field is refused before any view runs, on every database (422
« Données refusées »): PostgreSQL cannot store one and SQLite would keep it inside a name.

The commit happens after the view (`duplicate.db._finish_request`), so a failed commit reaches Flask as
an internal server error whose `original_exception` is the database's: the 500 handler looks there.
By then the view may have flashed its success (« 1 score enregistré »): the messages flashed during a
failed request are dropped, so that the page says one thing — what failed (`_render`).
"""

from __future__ import annotations

from flask import current_app, g, jsonify, make_response, render_template, request
from flask import session as cookie_session
from sqlalchemy.exc import DataError, OperationalError, TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import InternalServerError, RequestEntityTooLarge

from duplicate.web.blueprints import errors as bp


NOTHING_SAVED = "Rien n’a été enregistré : réessayez une fois le problème réglé, ou prévenez l’arbitre."


def json_error(code: int, message: str, /, **extra):
    """A JSON API's refusal: ``{"error": <the French message>, …extra}`` with the HTTP status ``code`` (its
    fields may say ``status`` too: the line's, for a table's phone)."""
    return jsonify(error=message, **extra), code


def database_message(error: OperationalError) -> str:
    """What went wrong with the database, in French: read-only, disk full, busy, or unreachable."""
    text = str(getattr(error, "orig", error)).lower()
    if "readonly" in text or "read-only" in text or "read only" in text:
        return "La base de données est en lecture seule : le serveur ne peut pas y écrire."
    if "disk is full" in text or "disk i/o" in text or "no space" in text or "file too large" in text:
        return "Le disque du serveur est plein ou en erreur : la base de données ne peut pas être écrite."
    if "locked" in text or "busy" in text:
        return "La base de données est occupée par une autre saisie."
    return "La base de données ne répond pas."


@bp.before_app_request
def _remember_flashes():
    """The messages waiting to be shown when the request began (`_render` puts them back)."""
    g.flashes_before = list(cookie_session.get("_flashes", []))


@bp.before_app_request
def _refuse_nul_characters():
    """A form field holding a NUL character: 422, nothing read, nothing written (both databases alike)."""
    if request.method == "POST" and request.mimetype in ("application/x-www-form-urlencoded",
                                                         "multipart/form-data"):
        if any("\x00" in value for values in request.form.listvalues() for value in values):
            return _render(422, "Données refusées", "Un champ du formulaire contient un caractère nul : "
                                                    "rien n’a été lu.")
    return None


def _drop_new_flashes() -> None:
    """Forget what this failed request flashed (its success was rolled back); keep earlier messages."""
    before = g.get("flashes_before", [])
    if cookie_session.get("_flashes", []) != before:
        if before:
            cookie_session["_flashes"] = before
        else:
            cookie_session.pop("_flashes", None)


def _render(status: int, title: str, message: str):
    _drop_new_flashes()
    session = g.get("db_session")
    if session is not None:
        session.rollback()  # the failed transaction first, so that the page itself can read (current_user)
    if "current_user" not in g:
        g.current_user = None  # the database failed while reading the user: do not ask it again
    if request.path.startswith("/api/"):
        return json_error(status, f"{message} {NOTHING_SAVED if status == 503 else ''}".strip())
    return render_template("error.html", title=title, message=message + " " + NOTHING_SAVED), status


@bp.app_errorhandler(OperationalError)
def database_unavailable(error: OperationalError):
    current_app.logger.error("database error on %s %s: %s", request.method, request.path, error)
    return _render(503, "Base de données indisponible", database_message(error))


@bp.app_errorhandler(PoolTimeout)
def database_busy(error: PoolTimeout):
    current_app.logger.error("no database connection free on %s %s: %s", request.method, request.path, error)
    return _render(503, "Base de données indisponible", "La base de données est occupée par d’autres saisies.")


@bp.app_errorhandler(DataError)
def data_refused(error: DataError):
    current_app.logger.warning("value refused by the database on %s %s: %s", request.method, request.path, error)
    return _render(422, "Données refusées",
                   "La base de données refuse une des valeurs envoyées (caractère nul, nombre trop grand…).")


WRITTEN_MEANWHILE = ("Quelqu’un d’autre (un autre arbitre, un marqueur ou une table) a enregistré une "
                     "modification de ces données pendant que vous remplissiez ce formulaire : rien n’a été "
                     "enregistré, pour ne pas effacer sa modification sans que vous l’ayez vue.")


@bp.app_errorhandler(StaleDataError)
def written_meanwhile(error: StaleDataError):
    """409: another request changed the row first (its version counter moved); this one's values kept."""
    from duplicate.web.expired_forms import _kept_fields

    current_app.logger.warning("row changed meanwhile on %s %s: %s", request.method, request.path, error)
    _drop_new_flashes()
    session = g.get("db_session")
    if session is not None:
        session.rollback()
    if "current_user" not in g:
        g.current_user = None
    if request.path.startswith("/api/"):
        return json_error(409, WRITTEN_MEANWHILE + " Relisez et envoyez de nouveau.")
    if request.method != "POST":
        return render_template("error.html", title="Enregistré entre-temps",
                               message=WRITTEN_MEANWHILE + " Rechargez la page."), 409
    kept, secret, files = _kept_fields()
    action = request.full_path.rstrip("?")
    referrer = request.referrer or ""
    back = referrer if referrer.startswith(request.host_url) else None  # the form's page (a POST-only address: 405)
    return render_template(
        "form_expired.html", title="Enregistré entre-temps", action=action, back=back, kept=kept, secret=secret,
        files=files, message=WRITTEN_MEANWHILE + " Ce que vous avez saisi est conservé ci-dessous : rouvrez le "
        "formulaire pour voir ce qui est enregistré maintenant, ou enregistrez de nouveau vos valeurs pour "
        "les remplacer.", visible=[(name, value) for name, value in kept if value.strip()]), 409


@bp.app_errorhandler(RequestEntityTooLarge)
def too_large(_error):
    """A body over ``MAX_CONTENT_LENGTH`` (`config.MAX_REQUEST_BYTES`), refused before it is read."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return _render(413, "Envoi trop gros", f"Ce qui a été envoyé dépasse la taille permise "
                   f"({limit // (1024 * 1024)} Mio).")


@bp.app_errorhandler(InternalServerError)
def internal_error(error: InternalServerError):
    original = getattr(error, "original_exception", None)
    if isinstance(original, OperationalError):
        return database_unavailable(original)
    if isinstance(original, PoolTimeout):
        return database_busy(original)
    if isinstance(original, DataError):
        return data_refused(original)
    if isinstance(original, StaleDataError):
        return written_meanwhile(original)
    return _render(500, "Erreur interne", "Le serveur a rencontré une erreur inattendue.")


# --- the pages of the HTTP errors, in French ---------------------------------------------------------------

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
    message = "Cette adresse ne s’ouvre pas de cette façon (méthode non permise)."
    if request.path.startswith("/api/"):
        response = make_response(json_error(405, message))
    else:
        response = make_response(render_template("error.html", title="Méthode non permise", message=message), 405)
    if getattr(error, "valid_methods", None):
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response
