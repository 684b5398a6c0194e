"""The movement (on the ``arbiter`` blueprint): generated for the registered entrants (previewed with the
validator's report before it is kept) or supplied by the arbiter as a ``tarot-movement/1`` file.
"""

from flask import flash, redirect, render_template, request, url_for

from duplicate import operations
from duplicate.db import get_session
from duplicate.view_models.movement import board_count, movement_statements
from duplicate.web import forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import UNPROCESSABLE, form_status, show_error, submit, uploaded_text


# --- movement ---------------------------------------------------------------------------------------------

def _movement_report(data):
    """The validator's report on a movement (`core.movements.check`): title, errors, warnings, summary."""
    from duplicate.core.movements import Movement as CoreMovement, MovementError, Report, check

    try:
        return check(CoreMovement.from_dict(data))
    except MovementError as error:
        return Report(title="Mouvement illisible", errors=[str(error)])


def _movement_grid(data) -> dict:
    """The movement as a table: one row per position, one column per table, each cell its round."""
    rounds = {(r["position"], r["table"]): r for r in data.get("rounds", [])}
    positions = sorted({p for p, _ in rounds})
    tables = sorted({t for _, t in rounds})
    return {"positions": positions, "tables": tables, "rounds": rounds}


def _render_movement(tournament, form, upload_form=None, preview=None):
    stored = operations.get_movement(get_session(), tournament)
    shown = preview if preview is not None else (stored.data if stored is not None else None)
    report = _movement_report(shown) if shown is not None else None
    return render_template(
        "arbiter/movement.html", tournament=tournament, form=form,
        upload_form=upload_form or forms.UploadForm(formdata=None, prefix="movement"),
        movement=shown, grid=_movement_grid(shown) if shown else None, report=report,
        said=movement_statements(shown, report.counts) if shown is not None else None,
        is_preview=preview is not None, tables=operations.table_count(get_session(), tournament),
    )


@bp.route("/tournois/<int:tournament_id>/mouvement", methods=["GET", "POST"])
def movement(tournament_id: int):
    """Choose the movement: « Aperçu » generates it without keeping it (a savepoint rolled back), with
    the validator's report; « Choisir ce mouvement » generates it again (same input, same movement)
    and keeps it."""
    tournament = tournament_or_404(tournament_id)
    form = forms.MovementForm()
    if not form.validate_on_submit():
        if request.method == "GET" and tournament.format.chooses_quarter_boards:  # as chosen last time
            stored = operations.get_movement(get_session(), tournament)
            per = board_count(stored.data if stored is not None else None, True)["per"]
            form.quarter_boards.data = next((c.value for c in form.quarter_boards.choices if c.value == str(per)),
                                            form.quarter_boards.default)
        status = form_status(form)
        return _render_movement(tournament, form), status
    session = get_session()
    # a team match's étuis per quarter (issue 29 point 10); the other formats keep their generator's default
    per = int(form.quarter_boards.data) if tournament.format.chooses_quarter_boards else None
    try:
        if "accept" in request.form:
            operations.choose_movement(session, tournament, positions=form.positions.data, boards_per_position=per)
            flash("Mouvement choisi.", "success")
            return redirect(url_for("arbiter.movement", tournament_id=tournament.id))
        savepoint = session.begin_nested()
        try:
            preview = dict(operations.choose_movement(session, tournament, positions=form.positions.data,
                                                      boards_per_position=per).data)
        finally:
            savepoint.rollback()
    except operations.OperationError as error:
        show_error(form, error)
        return _render_movement(tournament, form), UNPROCESSABLE
    return _render_movement(tournament, form, preview=preview)


@bp.route("/tournois/<int:tournament_id>/mouvement/importer", methods=["POST"])
def import_movement(tournament_id: int):
    """A movement supplied by the arbiter (``tarot-movement/1``: Howell, Emmanuel 16…), kept if valid."""
    tournament = tournament_or_404(tournament_id)
    upload_form = forms.UploadForm(prefix="movement")
    text = uploaded_text(upload_form) if upload_form.validate_on_submit() else None
    return submit(
        upload_form,
        lambda: operations.set_movement(get_session(), tournament, text),
        lambda _: ("Mouvement enregistré.", url_for("arbiter.movement", tournament_id=tournament.id)),
        lambda status: (_render_movement(tournament, forms.MovementForm(formdata=None), upload_form),
                        status),  # a POST: 422
        valid=text is not None,
    )
