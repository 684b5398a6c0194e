"""The scorers' screens, under ``/saisie``: the fiches ambulantes, étui by étui or table by table.

Open to staff (scorers and arbiters, `staff_required`), a tournament's screens to those who may enter its
fiches (`auth.tournament_for_scorer`: its arbiters, the scorers it was given). A fiche lists its tables in movement order with
the participants already filled in; the scorer types the scores only — Tab from one score to the next,
Enter saves, the sign typed (``+106``, ``-42``). Each score is checked by the core as soon as it is
typed (``/saisie/verifier``, from ``static/js/saisie.js``) and again, with the whole tournament, when the
fiche is saved (`operations.save_lines`). A refused fiche is shown again with what was typed and the
French message next to each faulty line (422; 409 when another scorer saved the fiche meanwhile): the
request rolls back, nothing of it is kept. A fiche the database could not store (disk full, read-only, busy)
is shown again the same way, every typed score in its input, with the database's reason in French (503; as
for an expired form, issue 31); the success messages are flashed only once the scores are durable. A line entered at the table's phone (SPEC §12) shows « saisi à
la table » (« en attente » until a defender confirms it); a paper score that disagrees with it changes
nothing and is flagged to the arbiter.

Two scorers, one fiche (SPEC §11): after a 409 each line in conflict shows the stored score (and who
entered it) next to the typed one, which stays in its input. The form keeps the version the scorer's
form was built from (``version-<key>``), so saving again — Enter — is refused again; only the
« Remplacer » button (``replace=1``, with ``replace-<key>``: the version now shown) replaces the stored
score, and the result's history records it.
"""

from flask import abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy.exc import OperationalError

from duplicate import operations
from duplicate.core.scoring import ScoreError, check_score
from duplicate.db import end_writing, get_session, reads_first
from duplicate.web.filters import signed as _signed
from duplicate.web.lookups import entrant_names, tournament_or_404
from duplicate.web.auth import check_tournament, current_user, is_arbiter, staff_required, tournament_for_scorer
from duplicate.web.errors import database_message
from duplicate.web.expired_forms import reshown_when_expired
from duplicate.web.blueprints import scoring as bp
from duplicate.web.scoring.fiche_form import fiche_form


UNPROCESSABLE, CONFLICT, UNAVAILABLE = 422, 409, 503
#: After the database's reason (`errors.database_message`) when a fiche could not be saved.
NOT_SAVED = ("Rien n’a été enregistré. Ce que vous avez saisi est conservé ci-dessous : enregistrez de nouveau "
             "une fois le problème réglé, ou prévenez l’arbitre.")


@bp.before_request
@staff_required
def require_staff():
    """Every page of this blueprint is for the staff (scorers and arbiters)."""


bp.before_request(check_tournament(tournament_for_scorer))  # a tournament's pages: those it was given




@bp.route("/")
def tournaments():
    """The tournaments this user may score."""
    session = get_session()
    return render_template("scoring/tournaments.html", tournaments=operations.visible_tournaments(
        session, current_user(), operations.list_tournaments(session)))


@bp.route("/tournois/<int:tournament_id>/")
def overview(tournament_id: int):
    """What is entered and what is missing, étui by étui and table by table; « aller à l'étui n° ».
    ``?etui=N`` opens that étui's fiche (the keyboard way in)."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    if request.args.get("etui", "").strip():
        try:
            number = int(request.args["etui"])
        except ValueError:
            flash("Numéro d’étui invalide.", "error")
        else:
            return redirect(url_for("scoring.traveller", tournament_id=tournament.id, number=number))
    lines = operations.all_lines(session, tournament)
    return render_template("scoring/overview.html", tournament=tournament,
                           progress=operations.progress(session, tournament, lines),
                           has_movement=operations.get_movement(session, tournament) is not None)


def _theoretical(saved) -> list[str]:
    """The warning of each saved score possible in theory only (SPEC §3): the arbiter checks it."""
    warnings = []
    for result in saved:
        if result.score is not None:
            check = check_score(result.score, result.contract or "garde", chelem=bool(result.chelem))
            if check.ok and check.warning:
                warnings.append(f"Étui {result.board}, table {result.table} : {check.warning}.")
    return warnings


def _save(tournament, load_lines, template: str, title: str, done_url, **context):
    """Show the lines (GET) or save them (POST); on a refusal, show them again with what was typed."""
    session = get_session()
    lines = load_lines()
    if not lines:
        abort(404)
    form = fiche_form(lines, tournament.format)(formdata=request.form)  # never a JSON body
    entries, errors, conflicts, status, message = {}, {}, set(), 200, None
    if request.method == "POST":
        entries = form.entries()
        if form.validate_on_submit():
            user = current_user()
            flagged: list = []
            try:
                saved = operations.save_lines(session, tournament, lines, entries, user.username, flagged,
                                              arbiter=is_arbiter(user))
                told = [(f"{title} : {len(saved)} score{'s' if len(saved) > 1 else ''} enregistré"
                         f"{'s' if len(saved) > 1 else ''}." if saved else f"{title} : rien à enregistrer.", "success")]
                told += [(f"Étui {line.board}, table {line.table} : la fiche papier ({_signed(score)}) ne dit pas "
                          f"comme la table ({_signed(line.result.score)}) : rien n’est changé, l’arbitre est "
                          "prévenu et tranchera.", "warning") for line, score in flagged]
                told += [(warning, "warning") for warning in _theoretical(saved)]
                end_writing(session)  # durable; where to go next is read without the write lock
            except operations.LinesError as error:
                errors, conflicts, message = error.errors, error.conflicts, error.message
                status = CONFLICT if error.conflict else UNPROCESSABLE
            except OperationalError as error:  # disk full, read-only, busy: the fiche again, as typed (issue 31)
                current_app.logger.error("fiche not saved on %s: %s", request.path, error)
                message, status = f"{database_message(error)} {NOT_SAVED}", UNAVAILABLE
            else:
                for text, category in told:  # flashed once the scores are durable, never for a failed save
                    flash(text, category)
                return redirect(done_url())
        else:
            message, status = "Le formulaire a expiré : enregistrez de nouveau.", UNPROCESSABLE
        end_writing(session, commit=False)  # show what is stored now (another scorer's scores, their versions)
        lines = load_lines()
    first_empty = next((line.key for line in lines if (entries.get(line.key, {}).get("score") or "") == ""
                        and line.result is None), None)
    focus = next(iter(errors), None) or first_empty
    return render_template(
        template, tournament=tournament, lines=lines, form=form, entries=entries, errors=errors, message=message,
        conflicts=conflicts,
        focus=focus, names=entrant_names(session, tournament), contracts=operations.CONTRACTS,
        corrected=operations.corrected_ids(session, tournament), **context,
        attackers=operations.attacker_names(session, tournament),
    ), status


def _next_board(tournament, number: int):
    """After a fiche: the next étui whose fiche is incomplete (else the overview)."""
    missing = operations.progress(get_session(), tournament)["missing"]
    later = [n for n in missing if n > number] or [n for n in missing if n != number]
    if later:
        return url_for("scoring.traveller", tournament_id=tournament.id, number=later[0])
    return url_for("scoring.overview", tournament_id=tournament.id)


@bp.route("/tournois/<int:tournament_id>/etuis/<int:number>", methods=["GET", "POST"])
@reads_first  # who, the tournament, the fiche: read before the write lock (SQLite), see `_save`
@reshown_when_expired
def traveller(tournament_id: int, number: int):
    """The fiche ambulante of one étui: one line per table, in movement order."""
    tournament = tournament_or_404(tournament_id)
    return _save(tournament, lambda: operations.traveller(get_session(), tournament, number, pending=True),
                 "scoring/traveller.html", f"Étui {number}", lambda: _next_board(tournament, number),
                 number=number)


@bp.route("/tournois/<int:tournament_id>/tables/<int:position>/<int:table>", methods=["GET", "POST"])
@reads_first
@reshown_when_expired
def table_round(tournament_id: int, position: int, table: int):
    """Entry table by table, for tournaments scored as the tables finish: the étuis one table played at
    one position."""
    tournament = tournament_or_404(tournament_id)

    def done():
        rounds = [(p, t) for p, t, entered, total in operations.progress(get_session(), tournament)["rounds"]
                  if entered < total and (p, t) != (position, table)]
        if rounds:
            return url_for("scoring.table_round", tournament_id=tournament.id, position=rounds[0][0],
                           table=rounds[0][1])
        return url_for("scoring.overview", tournament_id=tournament.id)

    return _save(tournament, lambda: operations.table_round(get_session(), tournament, position, table, pending=True),
                 "scoring/table.html", f"Table {table}, position {position}", done, position=position, table=table)


@bp.get("/verifier")
def check():
    """One score checked by the core, for the entry screens: ``?score=+106&contract=garde&chelem=1`` →
    ``{"ok": bool, "message": "…", "warning": "…" or null}``."""
    try:
        score = operations.parse_score(request.args.get("score"))
        if score is None:
            return jsonify(ok=True, message="", warning=None)
        # the check every entry path makes when saving (`operations.check_entered_score`): one message
        result = operations.check_entered_score(score, request.args.get("contract"), request.args.get("chelem") == "1")
    except (operations.OperationError, ScoreError) as error:
        return jsonify(ok=False, message=getattr(error, "message", str(error)), warning=None)
    message = result.message[0].upper() + result.message[1:] + "."
    return jsonify(ok=result.ok, message=message, warning=result.warning)
