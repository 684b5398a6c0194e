"""A simultané's JSON API (issue 33, `operations._simultaneous`), under ``/api/simultanes/<code>``:

* ``POST …/resultats`` — a club's signed file (``tarot-simultane/1``, docs/simultaneous.md) as the body;
  the signature authenticates it (no cookie, so no CSRF token). ``200`` with ``{"club", "replaced",
  "uploads", "results"}``: stored, replacing the club's previous file; ``422`` with the French reason
  (``error``) when refused, nothing stored; ``413`` beyond the core's file bounds.
* ``GET …/classement`` — the national ranking (`core.simultaneous.national_ranking`, with ``simultane`` and
  ``club_files``): at once to a signed-in arbiter and to a club (``Authorization: Bearer <its key>``), to
  anyone else after the embargo; before it, 403 with the French reason.
* ``GET …/donnes`` — the deals file (hands and dogs), with the same rule; the seed after the embargo.

And the page ``/simultanes/<code>`` (the ``web`` blueprint): the simultané, its published hash, the clubs'
files received, the national general ranking (with the alternated places) and each étui's national
frequencies — to a signed-in arbiter at once (marked « sous embargo »), to everyone after the embargo;
before it, the public reads when the results come out.

Every answer is ``Cache-Control: no-store``: what a club may read before the embargo must not stay in a
shared cache for the public.
"""

from flask import abort, jsonify, make_response, render_template, request
from sqlalchemy.exc import OperationalError

from duplicate import operations
from duplicate.core.filetext import MAX_FILE_BYTES, FileTextError, parse_json
from duplicate.core.ranking import shared_places
from duplicate.db import get_session
from duplicate.web.auth import current_user, is_arbiter
from duplicate.web.blueprints import api as bp
from duplicate.web.blueprints import public
from duplicate.web.errors import database_message, json_error


@bp.after_request
def _no_store(response):
    if request.path.startswith("/api/simultanes/"):
        response.headers["Cache-Control"] = "no-store"
    return response


def _event(code: str):
    """The simultané of the URL, or a JSON 404."""
    try:
        return operations.get_simultaneous(get_session(), code)
    except operations.NotFound as error:
        abort(make_response(json_error(404, error.message)))


def _insider(event) -> bool:
    """A signed-in arbiter, or a club of this simultané by its key."""
    if is_arbiter(current_user()):
        return True
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and operations.club_by_key(get_session(), event, key.strip()) is not None


@bp.post("/simultanes/<code>/resultats")
def simultaneous_upload(code: str):
    """A club's signed file: stored (replacing its previous one) or refused with the reason."""
    event = _event(code)
    raw = request.get_data(cache=False)
    if len(raw) > MAX_FILE_BYTES:
        return json_error(413, f"Fichier trop gros (plus de {MAX_FILE_BYTES // (1024 * 1024)} Mio).")
    try:
        envelope = parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, FileTextError) as error:
        return json_error(422, f"Fichier illisible : {error}")
    session = get_session()
    try:
        club, replaced = operations.receive_club_file(session, event, envelope)
        body = {"club": club.code, "replaced": replaced, "uploads": club.uploads,
                "results": len(envelope["tournament"].get("results", []))}
        session.commit()
    except operations.OperationError as error:
        session.rollback()
        return json_error(422, error.message)
    except OperationalError as error:
        session.rollback()
        return json_error(503, f"{database_message(error)} Rien n’a été enregistré : renvoyez le fichier.")
    return jsonify(body)


@bp.get("/simultanes/<code>/classement")
def simultaneous_ranking(code: str):
    event = _event(code)
    try:
        return jsonify(operations.national_for(get_session(), event, _insider(event)))
    except PermissionError as error:
        return json_error(403, str(error))


@bp.get("/simultanes/<code>/donnes")
def simultaneous_deals(code: str):
    event = _event(code)
    try:
        return jsonify(operations.deals_for(event, _insider(event)))
    except PermissionError as error:
        return json_error(403, str(error))


@public.get("/simultanes/<code>")
def simultaneous_page(code: str):
    """The simultané's page: the national ranking when the reader may see it, else when it comes out."""
    try:
        event = operations.get_simultaneous(get_session(), code)
    except operations.NotFound as error:
        return render_template("error.html", title="Simultané inconnu", message=error.message), 404
    insider = is_arbiter(current_user())
    try:
        national = operations.national_for(get_session(), event, insider)
    except PermissionError as error:
        national, embargo = None, str(error)
    else:
        embargo = None
    members = operations.clubs(get_session(), event)
    ties = shared_places((national or {}).get("ranking", []))
    frequencies = operations.national_frequencies(get_session(), event, insider) if national is not None else []
    response = make_response(render_template(
        "public/simultaneous.html", event=event, national=national, embargo=embargo, ties=ties,
        frequencies=frequencies,
        embargoed=operations.embargoed(event), clubs={club.code: club for club in members},
        received=[club for club in members if club.uploads > 0]))
    response.headers["Cache-Control"] = "no-store"
    return response


def init_csrf(csrf) -> None:
    """The club's signature authenticates its file: no cookie, so no CSRF token."""
    csrf.exempt(simultaneous_upload)
