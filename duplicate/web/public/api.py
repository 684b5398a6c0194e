"""The JSON API, under ``/api``.

* ``GET /api/tournaments/<id>/ranking`` — the SPEC §9 ranking output with ``complete``, ``missing`` (result
  lines still expected) and ``published`` (SPEC §11): at any time to an arbiter (``Authorization: Bearer``
  with an arbiter's token, or a signed-in arbiter), to anyone else once the séance is published; before,
  403 with a French message and the progress only (``complete``, ``missing``, ``published``). A free-play
  tournament (SPEC §13) answers its ranking output (`core.freeplay.tournament.rank_free`, what ``rank`` gives
  on the exported file: ``kind``, ``results`` with each deal's ``scores``, ``ranking``), ``missing`` counting
  the feuilles de marque still expected; the same secrecy.
* ``POST /api/tournaments/<id>/results`` — electronic scoring: a JSON list of SPEC §9 result objects,
  with ``Authorization: Bearer <token>`` (tokens from ``flask --app app create-token --role scorer``).
  Answers ``201`` with the stored results; ``401`` without a valid token, ``403`` when a scorer's token
  sends an arbiter's field (``annulled``, ``adjusted``, ``notes``); ``422`` for an impossible score, an
  unknown participant, a malformed line, with the reason in French; ``409`` when that étui already has a
  score at that table (or room). A request is stored whole or not at all. This endpoint alone is exempt
  from CSRF (it takes no cookie: the bearer token authenticates it).

A token made for one tournament (on its « Accès » page) serves that tournament only, and only while the
account that made it is active and still has the tournament: else 403 (`operations.token_serves`); a token
made from the command line serves every tournament.

Safe under concurrent clients: one result per étui and table is a unique constraint of the database,
so of two clients sending the same line one gets 201 and the other 409; writes are serialised on SQLite
(``BEGIN IMMEDIATE``). Every acknowledged line survives a crash of the server: the transaction is
committed before the 201 is sent.
"""

from flask import current_app, jsonify, request
from sqlalchemy.exc import IntegrityError, OperationalError

from duplicate import interchange, operations
from duplicate.core.filetext import FileTextError, parse_json
from duplicate.db import get_session, reads_first
from duplicate.web.lookups import tournament_or_404
from duplicate.web.errors import database_message, json_error
from duplicate.web.auth import current_user, is_arbiter
from duplicate.web.public.pages import results_visible, shared_view
from duplicate.web.blueprints import api as bp
from duplicate.web.freeplay.guard import free_play_variant




def _bearer_token(session):
    """The API token of the ``Authorization: Bearer`` header, or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return operations.authenticate_token(session, token.strip()) if scheme.lower() == "bearer" else None


def _free_ranking(tournament):
    """A free-play tournament's ranking by total points (SPEC §13), as `ranking` answers it."""
    return _ranking(tournament, operations.freeplay.free_completeness, operations.freeplay.free_ranking)


@bp.get("/tournaments/<int:tournament_id>/ranking")
@free_play_variant(_free_ranking)
def ranking(tournament_id: int):
    """The tournament's topage and rankings, as `operations.ranking` computes them, with its completeness;
    404 if unknown; 403 (progress only) before publication to anyone but an arbiter. The JSON text is made
    once per version of the tournament's data (`public.shared_view`); who may read it, per request."""
    return _ranking(tournament_or_404(tournament_id), operations.completeness, operations.ranking)


def _ranking(tournament, completeness, ranked):
    """The ranking API's answer: ``completeness(session, tournament)`` and ``ranked(session, tournament)``."""
    session = get_session()
    published = operations.is_published(tournament)
    token = _bearer_token(session)
    staff = token is not None or current_user() is not None
    status = shared_view(tournament, ("completeness", published), lambda session, fresh: dict(
        completeness(session, fresh), published=published), staff=staff)
    arbiter_token = is_arbiter(token) and operations.token_serves(token, tournament)
    if not (arbiter_token or results_visible(tournament)):
        return json_error(403, "Les résultats de ce tournoi ne sont pas encore publiés : seul l’arbitre les voit "
                      "jusqu’à leur publication.", **status)
    body = shared_view(tournament, ("ranking.json", published), lambda session, fresh: jsonify(dict(
        ranked(session, fresh), **completeness(session, fresh), published=published)
    ).get_data(), staff=staff)
    return current_app.response_class(body, mimetype="application/json")


def json_body():
    """The request's JSON within the bounds of `core.filetext` (nesting, numbers, characters), or None when
    it is not JSON or breaks them (30,000 nested ``[`` made Python's reader overflow its stack): the
    operations then refuse it in French (422). The scoring API's and the table API's bodies."""
    if not request.is_json:
        return None
    try:
        return parse_json(request.get_data().decode("utf-8"))
    except (FileTextError, UnicodeDecodeError):
        return None


@bp.post("/tournaments/<int:tournament_id>/results")
@reads_first  # the token, the tournament, the movement: read before the write lock (SQLite)
def post_results(tournament_id: int):
    """Store a list of results sent by an electronic scoring device."""
    session = get_session()
    api_token = _bearer_token(session)
    if api_token is None:
        response = jsonify(error="Jeton absent ou invalide : envoyez « Authorization: Bearer <jeton> ».")
        response.headers["WWW-Authenticate"] = 'Bearer realm="saisie"'
        return response, 401
    tournament = tournament_or_404(tournament_id)
    refusal = operations.token_refusal(api_token, tournament)
    if refusal is not None:
        return json_error(403, refusal)
    items = json_body()
    if items is None:
        return json_error(422, "Corps de requête illisible : une liste JSON de résultats est attendue.")
    who = f"api:{api_token.label or api_token.id}"
    try:
        stored = operations.record_api_results(session, tournament, items, who=who, role=api_token.role)
        body = [dict(interchange.result_to_dict(r), id=r.id) for r in stored]
        session.commit()  # durable before the client is told so
    except PermissionError as error:
        return json_error(403, str(error))
    except operations.ApiLineError as error:
        return json_error(409 if error.conflict else 422, error.message, index=error.index)
    except operations.OperationError as error:
        return json_error(422, error.message)
    except IntegrityError:
        session.rollback()
        return json_error(409, "Un de ces scores vient d’être enregistré par un autre client.")
    except OperationalError as error:  # busy (SQLite lock timeout), read-only or full: nothing stored
        session.rollback()
        current_app.logger.warning("scoring API: %s", error)
        return json_error(503, f"{database_message(error)} Rien n’a été enregistré : renvoyez ces résultats.")
    return jsonify(results=body), 201


def init_csrf(csrf) -> None:
    """Exempt the bearer-token endpoint (and only it) from CSRF."""
    csrf.exempt(post_results)
