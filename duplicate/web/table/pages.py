"""Scoring at the table (SPEC §12): the table API and the table's phone page.

The table's secret is in its link and its QR code (`operations.table_secret`); no cookie, no CSRF token
— the secret authenticates, and only for that table of that tournament.

* ``GET /api/tournaments/<id>/tables`` — to an arbiter of the tournament (``Authorization: Bearer`` arbiter
  token serving it, or a signed-in arbiter who manages it, `operations.can_manage`): ``{"tables": [{"table",
  "secret", "url"}]}``; 401 without a token, 403 for a scorer or another arbiter.
* ``GET /api/table/<secret>`` — the table's position, seats (names), étuis with taker and status
  (`operations.table_view`); ``?position=N`` asks for another position the table plays. Before
  publication the scores are there only at the position in play (the one the arbiter launched); other
  positions show their status only (docs/table-phones.md). 404 unknown link.
* ``POST /api/table/<secret>/results`` — ``{"board", "score"}`` or the deal's facts → ``202 {"status":
  "pending" | "done", "score"}`` (the score sent); 422 (French reason) for an impossible score, an étui the
  table does not play or of a position not launched (journalled once); the same content again is the same
  write (202 again, nothing written); a different score on a done étui → 409, and the arbiter sees it as a
  conflict (the stored score in the answer only where the link may show it).
* ``POST /api/table/<secret>/results/<board>/confirm`` — ``{"seat": "E", "code": "1234"}`` a defender's
  seat and his personal code → ``200 {"status": "done"}``; the taker's seat, a wrong code, the taker's
  code → 422, journalled; locked (422) after 5 refusals at the table for the position; nothing entered
  yet → 404.
* ``GET /api/table/<secret>/boards/<n>`` — the étui's confirmed results at the tables that played it, if
  the arbiter allows it, once this table's line is done and while its position is in play; else 403.
* ``GET /table/<secret>`` — the phone page (HTML, `static/js/table.js`): what the API gives, for people.

Every answer is ``Cache-Control: no-store`` and ``Referrer-Policy: no-referrer`` (the secret is in the
address). Writes are committed before the answer is sent: a 202 is durable.
"""

from flask import abort, current_app, jsonify, make_response, redirect, render_template, request, url_for
from sqlalchemy.exc import OperationalError

from duplicate import operations
from duplicate.db import get_session, reads_first
from duplicate.web.lookups import tournament_or_404
from duplicate.web.public.api import json_body
from duplicate.web.auth import current_user, is_arbiter
from duplicate.web.errors import database_message, json_error
from duplicate.web.links import public_url
from duplicate.web.versioned import tagged, unchanged
from duplicate.web.blueprints import table as bp



@bp.after_request
def _private(response):
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _table(secret: str):
    """The tournament and table of the link, or a JSON 404."""
    try:
        return operations.find_table(get_session(), secret)
    except operations.NotFound as error:
        abort(make_response(json_error(404, error.message)))


@bp.get("/api/tournaments/<int:tournament_id>/tables")
def tables(tournament_id: int):
    """The tables' links, for the arbiter (or a device the arbiter sets up)."""
    session = get_session()
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    api_token = operations.authenticate_token(session, token.strip()) if scheme.lower() == "bearer" else None
    user = current_user()
    if api_token is None and user is None:
        response = jsonify(error="Jeton absent ou invalide : envoyez « Authorization: Bearer <jeton> » d’arbitre.")
        response.headers["WWW-Authenticate"] = 'Bearer realm="arbitre"'
        return response, 401
    tournament = tournament_or_404(tournament_id)
    by_token = is_arbiter(api_token) and operations.token_serves(api_token, tournament)
    if not (by_token or operations.can_manage(session, user, tournament)):  # this tournament's arbiters only
        return json_error(403, "Seul l’arbitre du tournoi obtient les liens des tables.")
    return jsonify(tables=[{"table": link["table"], "secret": link["secret"], "url": public_url(link["path"])}
                           for link in operations.table_links(session, tournament)])


@bp.get("/api/table/<secret>")
def view(secret: str):
    """What the table plays now: position, seats, étuis — or ``304`` when nothing changed since the phone's
    last answer (`web.versioned`, `operations.table_watch`)."""
    tournament, table = _table(secret)
    position = request.args.get("position", type=int)
    session = get_session()
    watch = operations.table_watch(session, tournament, position)
    not_modified = unchanged(watch.version)
    if not_modified is not None:
        return not_modified
    return tagged(jsonify(operations.table_view(session, tournament, table, position, watch)), watch.version)


@bp.post("/api/table/<secret>/results")
@reads_first  # the link, the table's lines: read before the write lock (SQLite)
def enter(secret: str):
    """The North's entry of one étui (pending until a defender confirms)."""
    session = get_session()
    tournament, table = _table(secret)
    payload = json_body()
    for attempt in range(2):
        try:
            entry = operations.record_table_result(session, tournament, table, payload)
            body = {"board": entry.result.board, "status": entry.status, "score": entry.result.score}
            session.commit()  # durable before the table is told so
            return jsonify(body), 202
        except operations.TableConflict as error:
            session.commit()  # keep the conflict flagged to the arbiter; the line itself is untouched
            stored = {} if error.stored is None else {"score": error.stored}
            return json_error(409, error.message, board=error.board, status="done", **stored)
        except operations.RefusedAttempt as error:
            session.commit()  # the journal keeps the refused attempt
            return json_error(422, error.message, field=error.field)
        except operations.SettledLine as error:  # the arbiter has decided the line: nothing written or flagged
            session.rollback()
            stored = {} if error.stored is None else {"score": error.stored}
            return json_error(409, error.message, board=error.board, status="done", **stored)
        except operations.ConflictError as error:  # another phone of the table wrote it meanwhile: look again
            session.rollback()
            if attempt:
                return json_error(409, error.message)
            tournament, table = _table(secret)
        except operations.OperationError as error:
            return json_error(422, error.message, field=error.field)
        except OperationalError as error:  # busy, read-only, full: nothing stored
            session.rollback()
            current_app.logger.warning("table API: %s", error)
            return json_error(503, f"{database_message(error)} Rien n’a été enregistré : le téléphone renverra le score.")
    return json_error(409, "Réessayez.")  # not reached


@bp.post("/api/table/<secret>/results/<int:board>/confirm")
@reads_first
def confirm(secret: str, board: int):
    """A defender confirms the North's line: it then counts."""
    session = get_session()
    tournament, table = _table(secret)
    payload = json_body()
    seat, code = (payload.get("seat"), payload.get("code")) if isinstance(payload, dict) else (None, None)
    try:
        operations.confirm_table_result(session, tournament, table, board, seat, code)
        body = {"board": board, "status": "done"}  # no score: the line may be of a position whose scores are hidden
        session.commit()
    except operations.NotFound as error:
        return json_error(404, error.message)
    except operations.RefusedAttempt as error:
        session.commit()  # the journal keeps who tried what
        return json_error(422, error.message, field=error.field)
    except operations.OperationError as error:
        return json_error(422, error.message, field=error.field)
    except OperationalError as error:
        session.rollback()
        current_app.logger.warning("table API: %s", error)
        return json_error(503, f"{database_message(error)} Rien n’a été enregistré : le téléphone renverra la confirmation.")
    return jsonify(body), 200


@bp.get("/api/table/<secret>/boards/<int:number>")
def board(secret: str, number: int):
    """How the other tables scored an étui this table has played, entered and had confirmed."""
    tournament, table = _table(secret)
    try:
        return jsonify(operations.board_results(get_session(), tournament, table, number))
    except (PermissionError, operations.OperationError) as error:
        return json_error(403, getattr(error, "message", None) or str(error))


@bp.get("/table/<secret>")
def page(secret: str):
    """The table's phone page (390 px first)."""
    try:
        tournament, table = operations.find_table(get_session(), secret)
    except operations.NotFound as error:
        try:  # a free-play table (its QR scanned from another page): its own page
            operations.freeplay_table.find_free_table(get_session(), secret)
        except operations.NotFound:
            return render_template("error.html", title="Lien de table inconnu", message=error.message), 404
        return redirect(url_for("table.free_table_page", secret=secret))
    return render_template("table/page.html", tournament=tournament, table=table, secret=secret)


def init_csrf(csrf) -> None:
    """The table's secret authenticates its requests: no cookie, so no CSRF token."""
    csrf.exempt(enter)
    csrf.exempt(confirm)
