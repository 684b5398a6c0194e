"""The arbiter's results screens (on the ``arbiter`` blueprint, under ``/arbitre``): each étui's fiche
with the full history of its lines — who, when, before, after — and the adjustments of SPEC §4, each
with its reason: annul a deal (or restore it), set an adjusted score, give an arbitral note, give a
penalty. Also the participants' private route-sheet links (with their QR codes) and the competitions
of several séances: each has an owner and co-arbiters (docs/accounts.md); its page (« Gérer ») shows its
séances, their coefficients and who manages it; only its managers add, change or take out a séance (403 and
a French message to anyone else, nothing changed).

Each adjustment carries the version of the result the page showed: if a scorer changed it meanwhile,
the adjustment is refused (409) with a clear message instead of overwriting the scorer's change.
"""

from decimal import Decimal
from fractions import Fraction

from flask import abort, flash, redirect, render_template, url_for

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.web import form_conflicts, forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import UNPROCESSABLE, act, show_error, submit
from duplicate.web.auth import current_user

ACTIONS = {"create": "saisie", "update": "correction", "annul": "donne annulée", "restore": "donne rétablie",
           "adjust": "score ajusté", "note": "note arbitrale", "import": "import",
           "replace": "remplacement (« Remplacer »)", "table": "correction à la table (en attente)",
           "confirm": "confirmée par la défense", "resolve": "conflit tranché"}


def _names(session, tournament) -> dict[str, str]:
    return {e.entrant_id: e.name for e in operations.entrant_rows(session, tournament) if e.entrant_id}


@bp.route("/tournois/<int:tournament_id>/resultats")
def results_overview(tournament_id: int):
    """Scoring progress, the étuis (to open their fiche), the penalties."""
    return _render_overview(tournament_or_404(tournament_id))


def _penalty_form(tournament, formdata=True):
    form = forms.PenaltyForm() if formdata else forms.PenaltyForm(formdata=None)
    names = _names(get_session(), tournament)
    form.entrant_id.choices = [forms.SelectChoice(i, f"{french.place_label(i)} — {n}") for i, n in
                               sorted(names.items(), key=lambda item: (len(item[0]), item[0]))]
    return form


def _render_overview(tournament, form=None):
    session = get_session()
    return render_template(
        "arbiter/results.html", tournament=tournament, progress=operations.progress(session, tournament),
        penalties=operations.penalties(session, tournament), names=_names(session, tournament),
        form=form if form is not None else _penalty_form(tournament, False),
        delete_form=forms.ActionForm(prefix="delete"),
    )


@bp.route("/tournois/<int:tournament_id>/penalites", methods=["POST"])
def add_penalty(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    form = _penalty_form(tournament)
    return submit(
        form,
        lambda: operations.add_penalty(get_session(), tournament, entrant_id=form.entrant_id.data,
                                       points=french.plain(form.points.data), reason=form.reason.data,
                                       board=form.board.data, created_by=current_user().username),
        lambda _: (f"Pénalité de {french.points(form.points.data)} donnée à "
                   f"{french.place_label(form.entrant_id.data)}.",
                   url_for("arbiter.results_overview", tournament_id=tournament.id)),
        lambda status: (_render_overview(tournament, form), status),
    )


@bp.route("/tournois/<int:tournament_id>/penalites/<int:penalty_id>/supprimer", methods=["POST"])
def remove_penalty(tournament_id: int, penalty_id: int):
    tournament = tournament_or_404(tournament_id)
    if not forms.ActionForm(prefix="delete").validate_on_submit():
        abort(400)
    try:
        operations.remove_penalty(get_session(), tournament, penalty_id, who=current_user().username)
    except operations.NotFound:
        abort(404)
    flash("Pénalité retirée.", "success")
    return redirect(url_for("arbiter.results_overview", tournament_id=tournament.id))


# --- one étui: its fiche, the history of each line, the adjustments ------------------------------------------

def _render_fiche(tournament, number: int, failed: tuple[int, str, object] | None = None):
    """The fiche of étui ``number``; ``failed`` = (result id, action, its refused form) to show again."""
    session = get_session()
    lines = operations.traveller(session, tournament, number)
    if not lines:
        abort(404)
    panels = []
    for line in lines:
        result = line.result
        panel = {"line": line, "history": [], "forms": {}}
        if result is not None:
            panel["history"] = operations.result_history(session, result)
            version = result.version_id
            panel["forms"] = {
                "annul": forms.AnnulForm(formdata=None, prefix=f"annul-{result.id}", version=version,
                                         restore="1" if result.annulled else ""),
                "adjust": forms.AdjustForm(formdata=None, prefix=f"adjust-{result.id}", version=version),
                "note": forms.NoteForm(formdata=None, prefix=f"note-{result.id}", version=version),
            }
            if failed is not None and failed[0] == result.id:
                panel["forms"][failed[1]] = failed[2]
                panel["open"] = failed[1]
        panels.append(panel)
    return render_template("arbiter/fiche.html", tournament=tournament, number=number, panels=panels,
                           names=_names(session, tournament), actions=ACTIONS,
                           corrected=operations.corrected_ids(session, tournament))


@bp.route("/tournois/<int:tournament_id>/etuis/<int:number>/fiche")
def fiche(tournament_id: int, number: int):
    """The étui's fiche for the arbiter: every line, its history, the adjustments."""
    return _render_fiche(tournament_or_404(tournament_id), number)


FORMS = {"annul": forms.AnnulForm, "adjust": forms.AdjustForm, "note": forms.NoteForm}


@bp.route("/tournois/<int:tournament_id>/resultats/<int:result_id>/<action>", methods=["POST"])
def adjust(tournament_id: int, result_id: int, action: str):
    """One adjustment of one result: ``annul`` (or restore), ``adjust`` (score), ``note`` (arbitral)."""
    tournament = tournament_or_404(tournament_id)
    if action not in FORMS:
        abort(404)
    session = get_session()
    try:
        result = operations.get_result(session, tournament, result_id)
    except operations.NotFound:
        abort(404)
    form = FORMS[action](prefix=f"{action}-{result.id}")

    def operation():
        version = int(form.version.data) if french.digits(form.version.data or "") else None
        who = current_user().username
        if action == "annul":
            operations.annul_result(session, result, version_id=version, who=who, reason=form.reason.data,
                                    annulled=form.restore.data != "1")
        elif action == "adjust":
            operations.adjust_score(session, result, score=operations.parse_score(form.score.data),
                                    version_id=version, who=who, reason=form.reason.data)
        else:
            operations.set_arbitral_note(session, result, taker=french.plain(form.taker.data),
                                         defence=french.plain(form.defence.data), version_id=version, who=who,
                                         reason=form.reason.data)

    def done(_):
        done = "restore" if action == "annul" and form.restore.data == "1" else action
        return (f"Étui {result.board}, table {result.table} : {ACTIONS[done]}, c’est enregistré.",
                url_for("arbiter.fiche", tournament_id=tournament.id, number=result.board))

    def page(status):
        session.rollback()
        return _render_fiche(tournament, result.board, (result.id, action, form)), status

    return submit(form, operation, done, page, conflict=True)  # a POST: 422, 409 on a version conflict


# --- private links to the route sheets -------------------------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/feuilles")
def private_links(tournament_id: int):
    """Each participant's private link to its feuille de route, with its QR code, to hand out."""
    tournament = tournament_or_404(tournament_id)
    return render_template("arbiter/private_links.html", tournament=tournament,
                           links=operations.private_links(get_session(), tournament))


# --- competitions of several séances ---------------------------------------------------------------------------

@bp.route("/competitions", methods=["GET", "POST"])
def series():
    """The competitions this arbiter manages; create one (his)."""
    form = forms.SeriesForm()
    session = get_session()
    return submit(
        form,
        lambda: operations.create_series(session, form.name.data, current_user()),
        lambda created: (f"Compétition « {created.name} » créée.", url_for("arbiter.series")),
        lambda status: (render_template(
            "arbiter/series.html", form=form,
            series=operations.visible_series(session, current_user(), operations.list_series(session)),
            tournaments=operations.list_tournaments(session)), status),
    )


FORBIDDEN = 403


@bp.route("/tournois/<int:tournament_id>/competition", methods=["GET", "POST"])
def tournament_series(tournament_id: int):
    """Make the tournament a séance of a competition the arbiter manages, with its coefficient."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    user = current_user()
    form = forms.SessionForm(series_id=tournament.series_id or 0, coefficient=Decimal(str(tournament.coefficient)))
    choices = operations.visible_series(session, user, operations.list_series(session))
    if tournament.series_id is not None and tournament.series_id not in {s.id for s in choices}:
        choices.append(operations.get_series(session, tournament.series_id))  # shown; changed by its managers only
    if form.is_submitted() and form.series_id.data and form.series_id.data not in {s.id for s in choices}:
        try:
            choices.append(operations.get_series(session, form.series_id.data))  # another's: refused below, in French
        except operations.NotFound:
            pass
    form.series_id.choices = [forms.SelectChoice(0, "— aucune —")] + [forms.SelectChoice(s.id, s.name) for s in choices]
    return submit(
        form,
        lambda: operations.set_series(
            session, tournament, operations.get_series(session, form.series_id.data) if form.series_id.data else None,
            french.plain(form.coefficient.data), by=user),
        lambda _: ("Séance enregistrée.", url_for("arbiter.tournament_series", tournament_id=tournament.id)),
        lambda status: (render_template("arbiter/tournament_series.html", tournament=tournament, form=form), status),
        valid=form_conflicts.guard(form, tournament, _series_values),
        forbidden=True,
    )


def _series_values(tournament) -> dict:
    """What the séance's form shows of the stored tournament (`form_conflicts.guard`)."""
    return {"series_id": tournament.series_id or 0, "coefficient": Fraction(str(tournament.coefficient))}


def _series_for_manager(series_id: int):
    """The competition if the signed-in arbiter manages it; else 404 (unknown) or a 403 page in French."""
    from duplicate.web.auth import _refuse

    session = get_session()
    try:
        found = operations.get_series(session, series_id)
    except operations.NotFound:
        abort(404)
    if not operations.can_manage_series(session, current_user(), found):
        _refuse("Cette compétition est confiée à un autre arbitre : demandez-lui de vous nommer co-arbitre.")
    return found


def _render_series_page(found, status: int = 200, **submitted):
    session = get_session()
    user = current_user()
    séances = operations.series_sessions(session, found)
    coefficient_forms = {t.id: forms.CoefficientForm(formdata=None, prefix=f"coef-{t.id}",
                                                    coefficient=Decimal(str(t.coefficient))) for t in séances}
    for séance_id, form in coefficient_forms.items():
        form_conflicts.note_shown(form, _coefficient_values(next(t for t in séances if t.id == séance_id)))
    coefficient_forms.update(submitted.pop("coefficient_forms", {}))
    return render_template(
        "arbiter/series_manage.html", series=found, séances=séances, coefficient_forms=coefficient_forms,
        managed={t.id for t in séances if operations.can_manage(session, user, t)},
        owner=operations.series_owner(session, found), is_owner=operations.is_series_owner(user, found),
        users=operations.series_access_list(session, found), action_form=forms.ActionForm(),
        grant_form=submitted.pop("grant_form", forms.GrantForm(formdata=None, prefix="grant")),
    ), status


def _back_to_series(found):
    return redirect(url_for("arbiter.series_manage", series_id=found.id))


@bp.route("/competitions/<int:series_id>/gerer")
def series_manage(series_id: int):
    """A competition's séances (coefficient, « Retirer »), its owner and co-arbiters."""
    return _render_series_page(_series_for_manager(series_id))


@bp.route("/competitions/<int:series_id>/seances/<int:seance_id>/coefficient", methods=["POST"])
def series_coefficient(series_id: int, seance_id: int):
    """A séance's coefficient, set by whoever manages the competition."""
    found = _series_for_manager(series_id)
    session = get_session()
    séance = _seance_of(found, seance_id)
    form = forms.CoefficientForm(prefix=f"coef-{séance.id}")
    return submit(
        form,
        lambda: operations.set_series(session, séance, found, french.plain(form.coefficient.data), by=current_user()),
        lambda _: (f"Coefficient de « {séance.name} » enregistré.", _back_to_series(found)),
        lambda status: _render_series_page(found, status, coefficient_forms={séance.id: form}),  # a POST: 422
        valid=form_conflicts.guard(form, séance, _coefficient_values),
        forbidden=True,
    )


def _coefficient_values(séance) -> dict:
    """What a séance's coefficient form shows of the stored tournament (`form_conflicts.guard`)."""
    return {"coefficient": Fraction(str(séance.coefficient))}


def _seance_of(found, seance_id: int):
    for séance in operations.series_sessions(get_session(), found):
        if séance.id == seance_id:
            return séance
    abort(404)


@bp.route("/competitions/<int:series_id>/seances/<int:seance_id>/retirer", methods=["POST"])
def series_remove(series_id: int, seance_id: int):
    """Take a séance out of the competition (whoever manages it; its owner always)."""
    found = _series_for_manager(series_id)
    séance = _seance_of(found, seance_id)
    return act(
        lambda: operations.remove_from_series(get_session(), found, séance, current_user()),
        lambda _: (f"« {séance.name} » n’est plus une séance de cette compétition.", _back_to_series(found)),
        lambda status: _render_series_page(found, status),
        forbidden=True,
    )


@bp.route("/competitions/<int:series_id>/prendre-en-charge", methods=["POST"])
def series_take_over(series_id: int):
    """A shared competition becomes the signed-in arbiter's."""
    found = _series_for_manager(series_id)
    return act(
        lambda: operations.take_over_series(get_session(), found, current_user()),
        lambda _: ("Compétition prise en charge : les autres arbitres ne la gèrent plus, sauf si vous les nommez "
                   "co-arbitres.", _back_to_series(found)),
        lambda status: _render_series_page(found, status),
    )


@bp.route("/competitions/<int:series_id>/acces/donner", methods=["POST"])
def series_grant(series_id: int):
    """Name an arbiter co-arbiter of the competition (its owner only)."""
    found = _series_for_manager(series_id)
    form = forms.GrantForm(prefix="grant")
    if form.validate_on_submit():
        try:
            user = operations.grant_series(get_session(), found, form.username.data, current_user())
        except operations.Refused as error:
            flash(error.message, "error")
            return _render_series_page(found, FORBIDDEN)
        except operations.OperationError as error:
            show_error(form, error)
            return _render_series_page(found, UNPROCESSABLE, grant_form=form)
        flash(f"{user.username} est désormais co-arbitre de la compétition.", "success")
        return _back_to_series(found)
    return _render_series_page(found, UNPROCESSABLE, grant_form=form)


@bp.route("/competitions/<int:series_id>/acces/<int:user_id>/retirer", methods=["POST"])
def series_withdraw(series_id: int, user_id: int):
    """Take the competition back from a co-arbiter (its owner only)."""
    found = _series_for_manager(series_id)
    return act(
        lambda: operations.withdraw_series(get_session(), found, user_id, current_user()),
        lambda user: (f"{user.username} n’est plus co-arbitre de la compétition.", _back_to_series(found)),
        lambda status: _render_series_page(found, status),
        forbidden=True,
    )
