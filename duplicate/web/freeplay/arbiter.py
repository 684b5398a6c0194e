"""The arbiter's free-play screens (« donnes libres », SPEC §13), on the ``arbiter`` blueprint: the FFT movement
and the seating, the feuilles de marque (list and entry), the ranking with lateness and withdrawals.

The registration, the dashboard, publication, journal, accounts and export are the duplicate's own screens
(`web.arbiter.tournaments`, `.registration`, `.interchange`); the duplicate-only screens (étuis, fiches,
placement, printing…) are closed to a free-play tournament by `guard`.

The feuille de marque is one form, a row per deal, keyboard-first: Tab goes across a row (preneur, contrat,
points, bouts, poignées, petit au bout, chelem, passe), Enter saves. A refused sheet comes back with what was
typed and the French reason next to the faulty deal (422); a sheet saved meanwhile by someone else comes back
with the stored sheet beside the typed one (409), and only « Remplacer » overwrites it — as the duplicate
fiches (`duplicate.web.scoring.fiches`).
"""

import json

from flask import Response, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy.exc import OperationalError
from wtforms import BooleanField, SelectField
from wtforms.validators import InputRequired

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.operations import freeplay
from duplicate.web import form_conflicts, forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import UNPROCESSABLE, act, submit
from duplicate.web.auth import current_user
from duplicate.web.errors import database_message
from duplicate.web.form_conflicts import Guarded
from duplicate.web.scoring.fiches import NOT_SAVED, UNAVAILABLE

CONFLICT = 409  # as the duplicate fiches (`duplicate.web.scoring.fiches`)
EXTRA_ROWS = 3   # blank rows offered below the stored deals
FIRST_ROWS = 6   # rows of a new sheet
WHOLE = "Indiquez un nombre entier."
FAULT_PREFIX = "faute"  # the fault form's fields (« faute-entrant_id »…): the lateness form has its own ids


class FreeMovementForm(forms.FrenchForm):
    positions = forms.NumberField("Nombre de positions", whole=True,
                                  description="Laissez vide pour le maximum sans que deux joueurs se rencontrent deux fois.")
    seed = forms.StringField("Graine du placement", validators=[forms.Optional(), forms.length(200)],
                             description="Laissez vide pour un placement au hasard.")
    # libre par 4 only (the template shows it there); checked by the operation
    mode = SelectField("Mouvement", choices=[forms.SelectChoice("same_table", "Équipes à la même table"),
                                             forms.SelectChoice("parallel", "4 tournois en parallèle")],
                       default="same_table", validate_choice=False)


class FreeLatenessForm(forms.FrenchForm):
    entrant_id = SelectField("Joueur", validators=[InputRequired(message=forms.REQUIRED)])
    minutes = forms.NumberField("Retard (minutes)", whole=True, validators=[InputRequired(message=WHOLE)],
                                description="100 points par tranche de 5 minutes commencée (art. 26).")


class FreeCoefficientForm(forms.FrenchForm, Guarded):
    """Adds or replaces the coefficient of a position. Its ``valeurs_lues`` holds the coefficients listed on the
    page, by position (`_shown_coefficients`); on save, those of the position typed are compared
    (`form_conflicts.guard`, `free_coefficient`)."""

    position = forms.NumberField("À partir de la position", whole=True, validators=[InputRequired(message=WHOLE)])
    coefficient = forms.StringField("Coefficient", validators=[InputRequired(message=forms.REQUIRED), forms.length(20)],
                                    description="Par exemple 1,15 (art. 3 : 10 % éliminés → 1,10 ; 20 % → 1,15 ; "
                                                "30 % → 1,20 ; 40 % → 1,25 ; 50 % → 1,30).")
    eliminated = forms.NumberField("Joueurs éliminés avant cette position", whole=True,
                                   validators=[InputRequired(message=WHOLE)])


class FreeFinalSquareForm(forms.FrenchForm):
    finalists = SelectField("Finalistes", choices=forms.choices({"12": "12 meilleurs (3 tables)", "16": "16 meilleurs (4 tables)",
                                                             "20": "20 meilleurs (5 tables)"}), default="16",
                            validators=[InputRequired(message=forms.REQUIRED)])
    one_deal_positions = BooleanField("20 finalistes : 5 positions d’une donne (mouvement S +1, E +2, O −2)")


class FreeFaultForm(forms.FrenchForm):
    """A fault of the arbitration code (booklet chapter 4) or another penalty, given to a player."""

    entrant_id = SelectField("Joueur", validators=[InputRequired(message=forms.REQUIRED)])
    fault = SelectField("Faute (code d’arbitrage)", validators=[InputRequired(message=forms.REQUIRED)])
    points = forms.NumberField("Points (si le code n’en fixe pas)", whole=True,
                               description="Seulement pour fumer, l’éthique ou une autre pénalité.")
    reason = forms.StringField("Motif", validators=[forms.Optional(), forms.length(200)],
                               description="Obligatoire pour une autre pénalité.")


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
    plan = freeplay.free_plan(session, tournament)
    if request.method == "GET" and plan and plan.get("parallel"):
        form.mode.data = "parallel"  # the stored choice
    return submit(
        form,
        lambda: freeplay.seat_free_players(session, tournament, seed=form.seed.data or None,
                                           positions=form.positions.data, who=_who(),
                                           mode=form.mode.data if tournament.format.id == "free_team4" else None),
        lambda _: ("Mouvement fait et joueurs placés.", url_for("arbiter.free_movement", tournament_id=tournament.id)),
        lambda status: (render_template("arbiter/free_movement.html", tournament=tournament, form=form, plan=plan,
                                        registered=len(operations.players(session, tournament))), status),
    )


# --- feuilles de marque ---------------------------------------------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/libre/feuilles")
def free_sheets(tournament_id: int):
    """Every feuille the movement expects, position by position: entered or not, with its link."""
    return sheets_page(tournament_or_404(tournament_id), "arbiter/free_sheets.html", "arbiter")


def sheets_page(tournament, template: str, blueprint: str):
    """The list of the feuilles (the arbiter's and the scorers' pages): ``blueprint`` makes the links."""
    session = get_session()
    state = freeplay.progress(session, tournament)
    by_position: dict[int, list] = {}
    for position, table in state["expected"]:
        by_position.setdefault(position, []).append((table, state["entered"].get((position, table))))
    return render_template(template, tournament=tournament, by_position=by_position, missing=state["missing"],
                           sheet_endpoint=f"{blueprint}.free_sheet", sheets_endpoint=f"{blueprint}.free_sheets")


def _typed_rows(source=None) -> list[dict]:
    """The rows the form sent (``<field>-<n>`` for n = 0, 1, … up to ``rows``)."""
    source = request.form if source is None else source
    try:
        count = min(int(source.get("rows", "0")), freeplay.MAX_DEALS + 1)
    except ValueError:
        count = 0
    return [{name: source.get(f"{name}-{index}", "") for name in freeplay.ROW_FIELDS}
            for index in range(max(count, 0))]


def _version(name: str) -> int | None:
    value = request.form.get(name, "").strip()
    return int(value) if french.digits(value) and len(value) < 10 else None


@bp.route("/tournois/<int:tournament_id>/libre/feuilles/<int:position>/<int:table>", methods=["GET", "POST"])
def free_sheet(tournament_id: int, position: int, table: int):
    """The feuille de marque of one table at one position (module docstring)."""
    return sheet_page(tournament_or_404(tournament_id), position, table, "arbiter/free_sheet.html", "arbiter")


def sheet_page(tournament, position: int, table: int, template: str, blueprint: str):
    """The entry form of one feuille, for the arbiter and the scorers (``blueprint``: where the links go):
    GET shows it, POST saves it (422 with what was typed, 409 on a conflict, 503 with what was typed when the
    database cannot store it: disk full, read-only, busy), journalled with who saved."""
    session = get_session()
    try:
        seats = freeplay.table_seats(session, tournament, position, table)
    except operations.NotFound:
        abort(404)
    form = forms.ActionForm()
    stored = freeplay.get_sheet(session, tournament, position, table)
    status, message, errors, conflict = 200, None, {}, None
    version = stored.version_id if stored is not None else None
    people = [p for p in seats.values() if p]
    if request.method == "POST":
        rows = _typed_rows()
        version = _version("version")
        if form.validate_on_submit():
            replace = _version("replace_version") if request.form.get("replace") == "1" else None
            try:
                freeplay.save_sheet(session, tournament, position, table, rows, version=version, replace=replace,
                                    who=_who())
                session.commit()  # here, not after the view: a full disk shows the sheet again, as typed
            except freeplay.SheetConflict as error:
                message, status, conflict = error.message, CONFLICT, error.stored
            except freeplay.SheetError as error:
                message, errors, status = error.message, error.errors, UNPROCESSABLE
            except OperationalError as error:  # disk full, read-only, busy: nothing saved, nothing typed lost
                session.rollback()
                current_app.logger.error("sheet not saved on %s: %s", request.path, error)
                message, status = f"{database_message(error)} {NOT_SAVED}", UNAVAILABLE
                stored = freeplay.get_sheet(session, tournament, position, table)
            else:
                flash(f"Feuille de la table {table}, position {position} enregistrée.", "success")
                return redirect(url_for(f"{blueprint}.free_sheet", tournament_id=tournament.id, position=position,
                                        table=table))
        else:
            message, status = "Le formulaire a expiré : enregistrez de nouveau.", UNPROCESSABLE
    else:
        rows = freeplay.sheet_rows(stored.deals) if stored is not None else []
    rows = rows + [{}] * max(EXTRA_ROWS, FIRST_ROWS - len(rows), 0) if request.method == "GET" else rows
    view = freeplay.sheet_view(seats, stored.deals) if stored is not None else None
    names = freeplay.player_names(session, tournament)
    return render_template(
        template, tournament=tournament, position=position, table=table, seats=seats,
        people=people, names=names, rows=rows, form=form, message=message, errors=errors,
        version=version, view=view, conflict=conflict, live=freeplay.preview_sheet(rows, people),
        conflict_view=freeplay.sheet_view(seats, conflict.deals) if conflict is not None else None,
        contracts=freeplay.CONTRACT_LABELS, chelems=freeplay.CHELEM_LABELS, petits=freeplay.PETIT_LABELS,
        next_sheet=_next_sheet(session, tournament, position, table),
        sheet_endpoint=f"{blueprint}.free_sheet", sheets_endpoint=f"{blueprint}.free_sheets",
        marks_url=url_for("scoring.free_marks", tournament_id=tournament.id, position=position, table=table),
    ), status


def marks_json(tournament, position: int, table: int):
    """The live marks of the typed sheet (`freeplay.preview_sheet`), the form's fields in the query string."""
    try:
        seats = freeplay.table_seats(get_session(), tournament, position, table)
    except operations.NotFound:
        abort(404)
    return jsonify(freeplay.preview_sheet(_typed_rows(request.args), [p for p in seats.values() if p]))


def _next_sheet(session, tournament, position: int, table: int):
    """The next feuille still to enter after this one (position, table), else None."""
    state = freeplay.progress(session, tournament)
    later = [key for key in state["expected"] if key not in state["entered"] and key > (position, table)]
    return later[0] if later else None


# --- ranking, lateness, withdrawals ---------------------------------------------------------------------------

def _fault_choices(form, placed) -> None:
    form.entrant_id.choices = [forms.SelectChoice(p.entrant_id, f"{p.name} ({p.entrant_id})") for p in placed]
    form.fault.choices = [forms.SelectChoice(code, label) for code, label in freeplay.fault_choices()]


def _ranking_page(tournament, lateness_form=None, withdrawal_form=None, fault_form=None, status: int = 200,
                  final_form=None, coefficient_form=None):
    session = get_session()
    output = freeplay.free_ranking(session, tournament)
    extras = operations.freeplay_extras
    coefficients = tournament.format.has_position_coefficients
    final = tournament.format.has_final_square
    placed = [p for p in operations.players(session, tournament) if p.entrant_id]
    fault_form = fault_form or FreeFaultForm(formdata=None, prefix=FAULT_PREFIX)
    _fault_choices(fault_form, placed)
    lateness_form = lateness_form or FreeLatenessForm(formdata=None)
    withdrawal_form = withdrawal_form or FreeWithdrawalForm(formdata=None)
    lateness_form.entrant_id.choices = [forms.SelectChoice(p.entrant_id, f"{p.name} ({p.entrant_id})") for p in placed]
    withdrawal_form.player_id.choices = [forms.SelectChoice(p.id, f"{p.name} ({p.entrant_id})") for p in placed
                                         if p.withdrawn_from is None]
    coefficient_form = (coefficient_form or FreeCoefficientForm(formdata=None, prefix="coef")) if coefficients else None
    if coefficient_form is not None:  # what this page lists, the values a save from it read
        coefficient_form.valeurs_lues.data = _shown_coefficients(tournament)
    return render_template(
        "arbiter/free_ranking.html", tournament=tournament, output=output, names=freeplay.player_names(session, tournament),
        lateness_form=lateness_form, withdrawal_form=withdrawal_form, fault_form=fault_form, penalties=operations.penalties(session, tournament),
        withdrawn=[p for p in placed if p.withdrawn_from is not None], remove_form=forms.ActionForm(prefix="remove"),
        published=operations.is_published(tournament), publish_form=forms.ActionForm(),
        progress=freeplay.progress(session, tournament), pcn_levels=freeplay.PCN_LEVELS,
        teams=extras.team_names(session, tournament) if tournament.format.has_teams else None,
        prizes=extras.free_prizes(session, tournament, output),
        final=extras.final_square_info(session, tournament) if final else None,
        final_form=(final_form or FreeFinalSquareForm(formdata=None)) if final else None,
        coefficient_form=coefficient_form,
        coefficients=extras.free_coefficients(tournament) if coefficients else [],
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
    return submit(
        form,
        lambda: freeplay.free_lateness(get_session(), tournament, entrant_id=form.entrant_id.data,
                                       minutes=form.minutes.data, who=_who()),
        lambda _: ("Pénalité de retard enregistrée.", url_for("arbiter.free_ranking", tournament_id=tournament.id)),
        lambda status: _ranking_page(tournament, lateness_form=form, status=status),
    )


@bp.route("/tournois/<int:tournament_id>/libre/faute", methods=["POST"])
def free_fault(tournament_id: int):
    """A fault of the arbitration code from the catalogue (« avertissement puis pénalité » counted), or
    another penalty with its points and reason."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    form = FreeFaultForm(prefix=FAULT_PREFIX)
    _fault_choices(form, [p for p in operations.players(session, tournament) if p.entrant_id])
    return submit(
        form,
        lambda: freeplay.free_penalty(session, tournament, entrant_id=form.entrant_id.data, fault=form.fault.data,
                                      points=form.points.data, reason=form.reason.data, who=_who())[1],
        lambda result: ("Avertissement enregistré (0 point)." if result.warning else
                        f"Pénalité de {result.points} points enregistrée.",
                        url_for("arbiter.free_ranking", tournament_id=tournament.id)),
        lambda status: _ranking_page(tournament, fault_form=form, status=status),  # a POST: 422
    )


@bp.route("/tournois/<int:tournament_id>/libre/forfait", methods=["POST"])
def free_withdraw(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    form = FreeWithdrawalForm()
    form.player_id.choices = [forms.SelectChoice(p.id, p.name) for p in operations.players(session, tournament)
                              if p.entrant_id]
    return submit(
        form,
        lambda: operations.withdraw_player(session, tournament,
                                           operations.get_player(session, tournament, form.player_id.data),
                                           position=form.position.data, who=_who()),
        lambda player: (f"{player.name} a quitté le tournoi à la position {player.withdrawn_from} : il est classé "
                        "dernier.", url_for("arbiter.free_ranking", tournament_id=tournament.id)),
        lambda status: _ranking_page(tournament, withdrawal_form=form, status=status),  # a POST: 422
    )


@bp.route("/tournois/<int:tournament_id>/libre/penalites/<int:penalty_id>/supprimer", methods=["POST"])
def free_remove_penalty(tournament_id: int, penalty_id: int):
    tournament = tournament_or_404(tournament_id)
    back = url_for("arbiter.free_ranking", tournament_id=tournament.id)
    return act(
        lambda: freeplay.free_remove_penalty(get_session(), tournament, penalty_id, who=_who()),
        lambda _: ("Pénalité retirée.", back),
        lambda _: redirect(back),  # the form expired: flashed on the ranking page
        valid=forms.ActionForm(prefix="remove").validate_on_submit(), not_found=True,
    )


@bp.route("/tournois/<int:tournament_id>/libre/annuler-forfait/<int:player_id>", methods=["POST"])
def free_cancel_withdrawal(tournament_id: int, player_id: int):
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    back = url_for("arbiter.free_ranking", tournament_id=tournament.id)
    return act(
        lambda: operations.cancel_withdrawal(session, tournament, operations.get_player(session, tournament, player_id),
                                             who=_who()),
        lambda player: (f"Forfait de {player.name} annulé.", back),
        lambda _: redirect(back),  # refused, or the form expired: flashed on the ranking page
        valid=forms.ActionForm(prefix="remove").validate_on_submit(), not_found=True,
    )


# --- coefficients between positions (championship, art. 3) ---------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/libre/coefficients", methods=["POST"])
def free_coefficient(tournament_id: int):
    """A coefficient from a position on, with the players eliminated (`freeplay_extras.add_free_coefficient`)."""
    tournament = tournament_or_404(tournament_id)
    if not tournament.format.has_position_coefficients:
        flash("Les coefficients entre positions sont prévus pour le tournoi libre individuel.", "warning")
        return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    form = FreeCoefficientForm(prefix="coef")
    typed = form.coefficient.data
    if form.is_submitted():
        _read_for_position(form)
    saving = form_conflicts.guard(form, tournament, lambda row: _coefficient_values(row, form.position.data))
    if typed and form.coefficient.data == _coefficient_text(typed):
        form.coefficient.data = typed  # as the arbiter typed it (« 1,20 » stays « 1,20 »)
    return submit(
        form,
        lambda: operations.freeplay_extras.add_free_coefficient(
            get_session(), tournament, position=form.position.data, coefficient=form.coefficient.data,
            eliminated=form.eliminated.data, who=_who()),
        lambda _: ("Coefficient enregistré : le classement en tient compte.",
                   url_for("arbiter.free_ranking", tournament_id=tournament.id)),
        lambda status: _ranking_page(tournament, coefficient_form=form, status=status),  # a POST: 422, 409
        valid=saving,
    )


def _coefficient_text(value) -> str:
    """A coefficient as compared and shown (« 1,15 », « 1,1 »); what does not read as one, as typed."""
    from duplicate.core.freeplay.coefficients import CoefficientError, parse_coefficient

    try:
        return form_conflicts._text(parse_coefficient(value)).replace(".", ",")
    except CoefficientError:
        return value


def _coefficient_values(tournament, position) -> dict:
    """The stored coefficient of ``position`` as the form's fields (blank when it has none)."""
    for item in operations.freeplay_extras.free_coefficients(tournament):
        if item["position"] == position:
            return {"coefficient": _coefficient_text(item["coefficient"]), "eliminated": item["eliminated"]}
    return {"coefficient": "", "eliminated": None}


def _shown_coefficients(tournament) -> str:
    """The page's coefficients by position (JSON), the form's ``valeurs_lues``."""
    return json.dumps({str(item["position"]): {"coefficient": _coefficient_text(item["coefficient"]),
                                               "eliminated": item["eliminated"]}
                       for item in operations.freeplay_extras.free_coefficients(tournament)}, sort_keys=True)


def _read_for_position(form) -> None:
    """The posted form as `form_conflicts.guard` compares it: ``valeurs_lues`` narrowed to the position typed
    (blank when the page listed none there), the coefficient typed written as the stored one is."""
    if form.coefficient.data:
        form.coefficient.data = _coefficient_text(form.coefficient.data)
    try:
        listed = json.loads(form.valeurs_lues.data or "")
    except ValueError:
        return  # no values read: saved as before
    if not isinstance(listed, dict):
        return
    item = listed.get(str(form.position.data)) or {}
    form_conflicts.note_shown(form, {"coefficient": item.get("coefficient") or "", "eliminated": item.get("eliminated")})


@bp.route("/tournois/<int:tournament_id>/libre/coefficients/<int:position>/supprimer", methods=["POST"])
def free_remove_coefficient(tournament_id: int, position: int):
    tournament = tournament_or_404(tournament_id)
    back = url_for("arbiter.free_ranking", tournament_id=tournament.id)
    return act(
        lambda: operations.freeplay_extras.remove_free_coefficient(get_session(), tournament, position, who=_who()),
        lambda _: (f"Coefficient de la position {position} supprimé.", back),
        lambda _: redirect(back),  # refused, or the form expired: flashed on the ranking page
        valid=forms.ActionForm(prefix="remove").validate_on_submit(),
    )


# --- carré final (the individual free tournament) ------------------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/libre/carre-final", methods=["POST"])
def free_final_square(tournament_id: int):
    """Seat the 12, 16 or 20 best for one more position (`freeplay_extras.seat_final_square`)."""
    tournament = tournament_or_404(tournament_id)
    if not tournament.format.has_final_square:  # the ranking page of a team kind has no carré final form
        flash("Le carré final est prévu pour le tournoi libre individuel.", "warning")
        return redirect(url_for("arbiter.free_ranking", tournament_id=tournament.id))
    form = FreeFinalSquareForm()
    return submit(
        form,
        lambda: operations.freeplay_extras.seat_final_square(
            get_session(), tournament, finalists=int(form.finalists.data),
            one_deal_positions=bool(form.one_deal_positions.data), who=_who()),
        lambda _: ("Carré final placé : saisissez ses feuilles de marque comme les autres.",
                   url_for("arbiter.free_ranking", tournament_id=tournament.id)),
        lambda status: _ranking_page(tournament, final_form=form, status=status),
    )


@bp.route("/tournois/<int:tournament_id>/libre/carre-final/annuler", methods=["POST"])
def free_cancel_final_square(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    back = url_for("arbiter.free_ranking", tournament_id=tournament.id)
    return act(
        lambda: operations.freeplay_extras.cancel_final_square(get_session(), tournament, who=_who()),
        lambda _: ("Carré final annulé.", back),
        lambda _: redirect(back),  # refused, or the form expired: flashed on the ranking page
        valid=forms.ActionForm(prefix="remove").validate_on_submit(),
    )


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
