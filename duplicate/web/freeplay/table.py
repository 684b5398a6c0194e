"""Free play at the table (issue 16): the table's phone page and the arbiter's links and codes.

* ``GET /table/libre/<secret>[?position=N]`` — the table's feuille for a position it plays (its first one
  not stored by default): the entry form (the arbiter's, `arbiter/_free_sheet_body.html`, cards under 40rem),
  or the typed feuille waiting for confirmation with the confirmation form, or « enregistrée ».
* ``POST /table/libre/<secret>/<position>`` — the North sends the feuille: 422 with what was typed and the
  French message, else stored pending (`operations.freeplay_table.enter_sheet`); 503 with what was typed
  when the database cannot store it (disk full, read-only, busy).
* ``POST /table/libre/<secret>/<position>/confirmer`` — another player's seat and code: the feuille counts
  (`confirm_sheet`); 422 with a French message for a wrong seat or code.
* ``GET /table/libre/<secret>/<position>/marques`` — the live marks while typing (`freeplay.preview_sheet`).
* ``GET /arbitre/tournois/<id>/libre/tables`` — the arbiter's list: each table's link and QR code, each
  player's code.

The secret authenticates (no cookie, no CSRF token), as the duplicate's table page; answers are ``no-store``
and ``no-referrer`` (the `table` blueprint's `after_request`).
"""

from flask import abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy.exc import OperationalError

from duplicate import operations
from duplicate.db import get_session
from duplicate.operations import freeplay
from duplicate.printing.common import qr_svg
from duplicate.web import forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.submit import UNPROCESSABLE
from duplicate.web.blueprints import arbiter as arbiter_bp
from duplicate.web.freeplay.arbiter import EXTRA_ROWS, FIRST_ROWS, _typed_rows
from duplicate.web.errors import database_message
from duplicate.web.links import public_url
from duplicate.web.scoring.fiches import NOT_SAVED, UNAVAILABLE
from duplicate.web.blueprints import table as bp

free_table = operations.freeplay_table


def _table(secret: str):
    try:
        return free_table.find_free_table(get_session(), secret)
    except operations.NotFound as error:
        abort(404, error.message)


def _page(secret: str, tournament, table: int, position: int | None, *, rows=None, message=None, errors=None,
          confirm_message=None, status: int = 200):
    session = get_session()
    state = free_table.table_state(session, tournament, table, position)
    position, seats = state["position"], state["seats"]
    people = [p for p in seats.values() if p]
    if rows is None and state["entry"] is not None:  # the North corrects the pending feuille
        rows = freeplay.sheet_rows(state["entry"].deals) + [{}] * EXTRA_ROWS
    elif rows is None:
        rows = [{}] * max(FIRST_ROWS, EXTRA_ROWS)
    return render_template(
        "table/free_page.html", tournament=tournament, table=table, secret=secret, state=state,
        position=position, seats=seats, people=people, names=state["names"], rows=rows,
        form=forms.ActionForm(), message=message, errors=errors or {}, version=None, view=None, conflict=None,
        conflict_view=None, live=freeplay.preview_sheet(rows, people), next_sheet=None, sheet_endpoint=None,
        sheets_endpoint=None, submit_label="Envoyer pour confirmation", confirm_message=confirm_message,
        contracts=freeplay.CONTRACT_LABELS, chelems=freeplay.CHELEM_LABELS, petits=freeplay.PETIT_LABELS,
        seat_names=free_table.SEAT_NAMES,
        marks_url=url_for("table.free_table_marks", secret=secret, position=position) if position else "",
        action=url_for("table.free_table_enter", secret=secret, position=position) if position else "",
    ), status


@bp.get("/table/libre/<secret>")
def free_table_page(secret: str):
    """The table's phone page (390 px first)."""
    try:
        tournament, table = free_table.find_free_table(get_session(), secret)
    except operations.NotFound as error:
        return render_template("error.html", title="Lien de table inconnu", message=error.message), 404
    return _page(secret, tournament, table, request.args.get("position", type=int))


@bp.post("/table/libre/<secret>/<int:position>")
def free_table_enter(secret: str, position: int):
    """The North sends the feuille: pending until another player confirms it."""
    session = get_session()
    tournament, table = _table(secret)
    rows = _typed_rows()
    try:
        free_table.enter_sheet(session, tournament, table, position, rows)
        session.commit()
    except operations.NotFound:
        abort(404)
    except freeplay.SheetError as error:
        return _page(secret, tournament, table, position, rows=rows, message=error.message, errors=error.errors,
                     status=UNPROCESSABLE)
    except operations.OperationError as error:
        return _page(secret, tournament, table, position, rows=rows, message=error.message, status=UNPROCESSABLE)
    except OperationalError as error:  # disk full, read-only, busy: the feuille again, as typed (issue 31)
        session.rollback()
        current_app.logger.error("table sheet not saved on %s: %s", request.path, error)
        return _page(secret, tournament, table, position, rows=rows, message=f"{database_message(error)} {NOT_SAVED}",
                     status=UNAVAILABLE)
    flash("Feuille envoyée : un autre joueur de la table la confirme avec son code.", "success")
    return redirect(url_for("table.free_table_page", secret=secret, position=position))


@bp.post("/table/libre/<secret>/<int:position>/confirmer")
def free_table_confirm(secret: str, position: int):
    """Another player of the table confirms the pending feuille with his code."""
    session = get_session()
    tournament, table = _table(secret)
    try:
        free_table.confirm_sheet(session, tournament, table, position, request.form.get("seat", ""),
                                 request.form.get("code", ""))
    except operations.NotFound as error:
        return _page(secret, tournament, table, position, confirm_message=error.message, status=404)
    except freeplay.SheetError as error:  # not expected: the pending feuille was read when entered
        session.rollback()
        return _page(secret, tournament, table, position, confirm_message=error.message, status=UNPROCESSABLE)
    except operations.OperationError as error:
        if error.field in ("code", "superseded"):
            session.commit()  # the refused code stays in the journal; a superseded entry stays dropped
        else:
            session.rollback()
        return _page(secret, tournament, table, position, confirm_message=error.message, status=UNPROCESSABLE)
    session.commit()
    flash(f"Feuille de la table {table}, position {position} confirmée : elle compte.", "success")
    return redirect(url_for("table.free_table_page", secret=secret))


@bp.get("/table/libre/<secret>/<int:position>/marques")
def free_table_marks(secret: str, position: int):
    """The live marks of the typed feuille, nothing stored."""
    tournament, table = _table(secret)
    try:
        seats = freeplay.table_seats(get_session(), tournament, position, table)
    except operations.NotFound:
        abort(404)
    return jsonify(freeplay.preview_sheet(_typed_rows(request.args), [p for p in seats.values() if p]))


@arbiter_bp.route("/tournois/<int:tournament_id>/libre/tables")
def free_tables(tournament_id: int):
    """Each table's link and QR code, and each player's confirmation code, for the arbiter to hand out."""
    session = get_session()
    tournament = tournament_or_404(tournament_id)
    links = [dict(link, url=public_url(link["path"])) for link in free_table.table_links(session, tournament)]
    for link in links:
        link["qr"] = qr_svg(link["url"])
    return render_template("arbiter/free_tables.html", tournament=tournament, links=links,
                           codes=free_table.player_codes(session, tournament),
                           pending=free_table.pending_sheets(session, tournament))


def init_csrf(csrf) -> None:
    """The table's secret authenticates its requests: no cookie, so no CSRF token."""
    csrf.exempt(free_table_enter)
    csrf.exempt(free_table_confirm)
