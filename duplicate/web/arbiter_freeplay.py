"""The arbiter's free-play screens (« donnes libres », SPEC §13), on the ``arbiter`` blueprint: the FFT movement
and the seating, the feuilles de marque (list and entry), the ranking with lateness and withdrawals.

The registration, the dashboard, publication, journal, accounts and export are the duplicate's own screens
(`arbiter`, `arbiter_registration`, `arbiter_interchange`); the duplicate-only screens (étuis, fiches,
placement, printing…) are closed to a free-play tournament by `free_guard`.

The feuille de marque is one form, a row per deal, keyboard-first: Tab goes across a row (preneur, contrat,
points, bouts, poignées, petit au bout, chelem, passe), Enter saves. A refused sheet comes back with what was
typed and the French reason next to the faulty deal (422); a sheet saved meanwhile by someone else comes back
with the stored sheet beside the typed one (409), and only « Remplacer » overwrites it — as the duplicate
fiches (`duplicate.web.scoring`).
"""

from flask import Response, abort, flash, redirect, render_template, request, url_for
from wtforms import SelectField
from wtforms.validators import InputRequired

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.operations import freeplay
from duplicate.web import forms, tournament_or_404
from duplicate.web.arbiter import UNPROCESSABLE, _show_error, _status, bp
from duplicate.web.auth import current_user

CONFLICT = 409  # as the duplicate fiches (`duplicate.web.scoring`)
EXTRA_ROWS = 3   # blank rows offered below the stored deals
FIRST_ROWS = 6   # rows of a new sheet
WHOLE = "Indiquez un nombre entier."


class FreeMovementForm(forms.FrenchForm):
    positions = forms.NumberField("Nombre de positions", whole=True,
                                  description="Laissez vide pour le maximum sans que deux joueurs se rencontrent deux fois.")
    seed = forms.StringField("Graine du placement", validators=[forms.Optional(), forms.length(200)],
                             description="Laissez vide pour un placement au hasard.")


class FreeLatenessForm(forms.FrenchForm):
    entrant_id = SelectField("Joueur", validators=[InputRequired(message=forms.REQUIRED)])
    minutes = forms.NumberField("Retard (minutes)", whole=True, validators=[InputRequired(message=WHOLE)],
                                description="100 points par tranche de 5 minutes commencée (art. 26).")


class FreeWithdrawalForm(forms.FrenchForm):
    player_id = SelectField("Joueur", coerce=int, validators=[InputRequired(message=forms.REQUIRED)])
    position = forms.NumberField("Position où il quitte le tournoi", whole=True, validators=[InputRequired(message=WHOLE)])


def _who() -> str:
    return current_user().username


# --- movement and seating -------------------------------------------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/libre/mouvement", methods=["GET", "POST"])
def free_movement(tournament_id: int):
    """The FFT free-play movement for the registered players, and their starting seats."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    form = FreeMovementForm()
    if form.validate_on_submit():
        try:
            freeplay.seat_free_players(session, tournament, seed=form.seed.data or None,
                                       positions=form.positions.data, who=_who())
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash("Mouvement fait et joueurs placés.", "success")
            return redirect(url_for("arbiter.free_movement", tournament_id=tournament.id))
    return render_template("arbiter/free_movement.html", tournament=tournament, form=form,
                           plan=freeplay.free_plan(session, tournament),
                           registered=len(operations.players(session, tournament))), _status(form)


# --- feuilles de marque ---------------------------------------------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/libre/feuilles")
def free_sheets(tournament_id: int):
    """Every feuille the movement expects, position by position: entered or not, with its link."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    state = freeplay.progress(session, tournament)
    by_position: dict[int, list] = {}
    for position, table in state["expected"]:
        by_position.setdefault(position, []).append((table, state["entered"].get((position, table))))
    return render_template("arbiter/free_sheets.html", tournament=tournament, by_position=by_position,
                           missing=state["missing"])


def _typed_rows() -> list[dict]:
    """The rows the form sent (``<field>-<n>`` for n = 0, 1, … up to ``rows``)."""
    try:
        count = min(int(request.form.get("rows", "0")), freeplay.MAX_DEALS + 1)
    except ValueError:
        count = 0
    return [{name: request.form.get(f"{name}-{index}", "") for name in freeplay.ROW_FIELDS}
            for index in range(max(count, 0))]


def _version(name: str) -> int | None:
    value = request.form.get(name, "").strip()
    return int(value) if value.isdigit() and len(value) < 10 else None


@bp.route("/tournois/<int:tournament_id>/libre/feuilles/<int:position>/<int:table>", methods=["GET", "POST"])
def free_sheet(tournament_id: int, position: int, table: int):
    """The feuille de marque of one table at one position (module docstring)."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    try:
        seats = freeplay.table_seats(session, tournament, position, table)
    except operations.NotFound:
        abort(404)
    form = forms.ActionForm()
    stored = freeplay.get_sheet(session, tournament, position, table)
    status, message, errors, conflict = 200, None, {}, None
    version = stored.version_id if stored is not None else None
    if request.method == "POST":
        rows = _typed_rows()
        version = _version("version")
        if form.validate_on_submit():
            replace = _version("replace_version") if request.form.get("replace") == "1" else None
            try:
                freeplay.save_sheet(session, tournament, position, table, rows, version=version, replace=replace,
                                    who=_who())
            except freeplay.SheetConflict as error:
                message, status, conflict = error.message, CONFLICT, error.stored
            except freeplay.SheetError as error:
                message, errors, status = error.message, error.errors, UNPROCESSABLE
            else:
                flash(f"Feuille de la table {table}, position {position} enregistrée.", "success")
                return redirect(url_for("arbiter.free_sheet", tournament_id=tournament.id, position=position,
                                        table=table))
        else:
            message, status = "Le formulaire a expiré : enregistrez de nouveau.", UNPROCESSABLE
    else:
        rows = freeplay.sheet_rows(stored.deals) if stored is not None else []
    rows = rows + [{}] * max(EXTRA_ROWS, FIRST_ROWS - len(rows), 0) if request.method == "GET" else rows
    view = freeplay.sheet_view(seats, stored.deals) if stored is not None else None
    names = freeplay.player_names(session, tournament)
    return render_template(
        "arbiter/free_sheet.html", tournament=tournament, position=position, table=table, seats=seats,
        people=[p for p in seats.values() if p], names=names, rows=rows, form=form, message=message, errors=errors,
        version=version, view=view, conflict=conflict,
        conflict_view=freeplay.sheet_view(seats, conflict.deals) if conflict is not None else None,
        contracts=freeplay.CONTRACT_LABELS, chelems=freeplay.CHELEM_LABELS, petits=freeplay.PETIT_LABELS,
        next_sheet=_next_sheet(session, tournament, position, table),
    ), status


def _next_sheet(session, tournament, position: int, table: int):
    """The next feuille still to enter after this one (position, table), else None."""
    state = freeplay.progress(session, tournament)
    later = [key for key in state["expected"] if key not in state["entered"] and key > (position, table)]
    return later[0] if later else None


# --- ranking, lateness, withdrawals ---------------------------------------------------------------------------

def _ranking_page(tournament, lateness_form=None, withdrawal_form=None, status: int = 200):
    session = get_session()
    output = freeplay.free_ranking(session, tournament)
    placed = [p for p in operations.players(session, tournament) if p.entrant_id]
    lateness_form = lateness_form or FreeLatenessForm(formdata=None)
    withdrawal_form = withdrawal_form or FreeWithdrawalForm(formdata=None)
    lateness_form.entrant_id.choices = [forms.SelectChoice(p.entrant_id, f"{p.name} ({p.entrant_id})") for p in placed]
    withdrawal_form.player_id.choices = [forms.SelectChoice(p.id, f"{p.name} ({p.entrant_id})") for p in placed
                                         if p.withdrawn_from is None]
    return render_template(
        "arbiter/free_ranking.html", tournament=tournament, output=output, names=freeplay.player_names(session, tournament),
        lateness_form=lateness_form, withdrawal_form=withdrawal_form, penalties=operations.penalties(session, tournament),
        withdrawn=[p for p in placed if p.withdrawn_from is not None], remove_form=forms.ActionForm(prefix="remove"),
        published=operations.is_published(tournament), publish_form=forms.ActionForm(),
        progress=freeplay.progress(session, tournament), pcn_levels=freeplay.PCN_LEVELS,
    ), status


@bp.route("/tournois/<int:tournament_id>/libre/classement")
def free_ranking(tournament_id: int):
    """The ranking by total points (art. 29 ties), as the public will see it once published."""
    return _ranking_page(tournament_or_404(tournament_id))


@bp.route("/tournois/<int:tournament_id>/libre/retard", methods=["POST"])
def free_lateness(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    form = FreeLatenessForm()
    form.entrant_id.choices = [forms.SelectChoice(p.entrant_id, p.name)
                               for p in operations.players(get_session(), tournament) if p.entrant_id]
    if form.validate_on_submit():
        try:
            freeplay.free_lateness(get_session(), tournament, entrant_id=form.entrant_id.data,
                                   minutes=form.minutes.data, who=_who())
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash("Pénalité de retard enregistrée.", "success")
            return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    return _ranking_page(tournament, lateness_form=form, status=UNPROCESSABLE)


@bp.route("/tournois/<int:tournament_id>/libre/forfait", methods=["POST"])
def free_withdraw(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    form = FreeWithdrawalForm()
    form.player_id.choices = [forms.SelectChoice(p.id, p.name) for p in operations.players(session, tournament)
                              if p.entrant_id]
    if form.validate_on_submit():
        try:
            player = operations.get_player(session, tournament, form.player_id.data)
            operations.withdraw_player(session, tournament, player, position=form.position.data, who=_who())
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"{player.name} a quitté le tournoi à la position {player.withdrawn_from} : il est classé dernier.",
                  "success")
            return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    return _ranking_page(tournament, withdrawal_form=form, status=UNPROCESSABLE)


@bp.route("/tournois/<int:tournament_id>/libre/penalites/<int:penalty_id>/supprimer", methods=["POST"])
def free_remove_penalty(tournament_id: int, penalty_id: int):
    tournament = tournament_or_404(tournament_id)
    if not forms.ActionForm(prefix="remove").validate_on_submit():
        flash("Le formulaire a expiré : recommencez.", "error")
        return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    try:
        operations.remove_penalty(get_session(), tournament, penalty_id, who=_who())
    except operations.NotFound:
        abort(404)
    flash("Pénalité retirée.", "success")
    return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))


@bp.route("/tournois/<int:tournament_id>/libre/annuler-forfait/<int:player_id>", methods=["POST"])
def free_cancel_withdrawal(tournament_id: int, player_id: int):
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    if not forms.ActionForm(prefix="remove").validate_on_submit():
        flash("Le formulaire a expiré : recommencez.", "error")
        return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    try:
        player = operations.get_player(session, tournament, player_id)
        operations.cancel_withdrawal(session, tournament, player, who=_who())
    except operations.NotFound:
        abort(404)
    except operations.OperationError as error:
        flash(error.message, "error")
        return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    flash(f"Forfait de {player.name} annulé.", "success")
    return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))


@bp.route("/tournois/<int:tournament_id>/libre/pcn.csv")
def free_pcn_file(tournament_id: int):
    """The federation's PCN file (CSV ``Licence;Nom;Place;PCN;PP``, `core.freeplay.tournament.federation_csv`,
    what ``pcn --file`` prints), for the level (``championnat``) and, for several sessions, the tables
    (``tables``) chosen on the ranking page; an event that awards no PCN, or a bad choice, goes back to the
    page with the French reason."""
    from duplicate.core.freeplay.tournament import federation_csv

    tournament = tournament_or_404(tournament_id)
    back = redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    tables = None
    if request.args.get("tables", "").strip():
        try:
            tables = french.parse_whole_number(request.args["tables"])
        except french.NumberError:
            flash("Le nombre de tables est un nombre entier.", "error")
            return back
    try:
        data, answer = freeplay.free_pcn(get_session(), tournament, championship=request.args.get("championnat", ""),
                                         tables=tables)
    except operations.OperationError as error:
        flash(error.message, "error")
        return back
    if "pcn_refused" in answer:
        flash(f"Pas de PCN pour ce tournoi : {answer['pcn_refused']}.", "error")
        return back
    name = f"tournoi-{tournament.id}-pcn.csv"
    return Response(federation_csv(data, answer), mimetype="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
