"""The arbiter's « Tables » screen (on the ``arbiter`` blueprint), SPEC §12: each table's link and QR code
(the same as on the printed table card), the tables' settings — show a confirmed étui's other scores,
the position the phones open at — and the conflicts between a paper fiche and a table's entry, each
settled by keeping one score (`operations.resolve_conflict`, journalled). The « Codes de confirmation »
page lists each entrant's personal code (`operations.table_codes`), for the arbiter to tell a player who lost
his card.
"""

from flask import flash, redirect, render_template, request, url_for
from wtforms import BooleanField, SelectField

from duplicate import operations
from duplicate.db import get_session
from duplicate.printing.common import qr_svg
from duplicate.web import form_conflicts, forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import UNPROCESSABLE, act
from duplicate.web.auth import current_user
from duplicate.web.links import public_url


class TableOptionsForm(forms.FrenchForm, form_conflicts.Guarded):
    results_visible = BooleanField("Une fois son score d’un étui confirmé, une table voit les scores des autres "
                                   "tables qui l’ont déjà joué, pendant la position en cours")
    position = SelectField("Position affichée sur les téléphones d’une table qui ne joue pas la position en cours",
                           coerce=str)


def _positions(session, tournament) -> list[int]:
    movement = operations.get_movement(session, tournament)
    rounds = movement.data.get("rounds", []) if movement is not None else []
    return sorted({r["position"] for r in rounds if isinstance(r.get("position"), int)})


def _table_values(tournament) -> dict:
    """What the tables' options form shows of the stored tournament (`form_conflicts.guard`)."""
    settings = tournament.settings or {}
    return {"results_visible": bool(settings.get("table_results")), "position": str(settings.get("table_position") or "")}


@bp.route("/tournois/<int:tournament_id>/tables", methods=["GET", "POST"])
def tables(tournament_id: int):
    """The tables' links with their QR codes, their settings, the open conflicts."""
    session = get_session()
    tournament = tournament_or_404(tournament_id)
    settings = tournament.settings or {}
    form = TableOptionsForm(data={"results_visible": bool(settings.get("table_results")),
                                  "position": str(settings.get("table_position") or "")})
    form.position.choices = [("", "la première position lancée non terminée de chaque table")] + [
        (str(p), f"position {p}") for p in _positions(session, tournament)]
    if form_conflicts.guard(form, tournament, _table_values):
        operations.set_table_options(session, tournament, results_visible=form.results_visible.data,
                                     position=int(form.position.data) if form.position.data else None,
                                     who=current_user().username)
        flash("Réglages des tables enregistrés.", "success")
        return redirect(url_for("arbiter.tables", tournament_id=tournament.id))
    links = [dict(link, url=public_url(link["path"])) for link in operations.table_links(session, tournament)]
    for link in links:
        link["qr"] = qr_svg(link["url"])
    conflicts = [(conflict, operations.conflict_result(session, conflict))
                 for conflict in operations.conflicts(session, tournament)]
    status = form_conflicts.status(form, UNPROCESSABLE if request.method == "POST" else 200)
    return render_template("arbiter/tables.html", tournament=tournament, links=links, form=form,
                           conflicts=conflicts, resolve_form=forms.ActionForm()), status


@bp.route("/tournois/<int:tournament_id>/tables/codes")
def table_codes(tournament_id: int):
    """Every entrant's confirmation code (a substitute's own; a team's in team formats)."""
    session = get_session()
    tournament = tournament_or_404(tournament_id)
    return render_template("arbiter/table_codes.html", tournament=tournament,
                           codes=operations.table_codes(session, tournament))


@bp.route("/tournois/<int:tournament_id>/conflits/<int:conflict_id>", methods=["POST"])
def resolve_conflict(tournament_id: int, conflict_id: int):
    """Keep one of the two scores of a conflict: ``keep`` = ``stored`` or ``entry``."""
    session = get_session()
    tournament = tournament_or_404(tournament_id)
    back = url_for("arbiter.tables", tournament_id=tournament.id)

    def refused(_):
        session.rollback()
        return redirect(back)

    return act(
        lambda: operations.resolve_conflict(session, tournament, conflict_id, keep=request.form.get("keep", ""),
                                            who=current_user().username),
        lambda result: (f"Étui {result.board}, table {result.table} : conflit tranché.", back),
        refused,  # refused, or the form expired: flashed on the tables page
        valid=forms.ActionForm().validate_on_submit(),
    )
