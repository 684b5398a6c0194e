"""The arbiter's screens, under ``/arbitre``: tournaments, players, teams, draw, étuis, movement,
import and export. Every view requires a signed-in arbiter (`arbiter_required`), and one with a
``tournament_id`` an arbiter who manages that tournament (`auth.tournament_for_arbiter`: its owner, a
co-arbiter, any arbiter for a shared one).

Each view parses its form, calls one operation (`duplicate.operations`) and renders or redirects. An
`OperationError` is shown next to the field it names (or above the form) and the page answers 422, so
that the request's session rolls back whatever the operation had flushed: a refused form changes nothing.
"""

import json
import secrets
from types import SimpleNamespace

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for

from duplicate import french, interchange, operations
from duplicate.core.deals import seed_hash
from duplicate.core.tournament import TournamentError
from duplicate.db import get_session
from duplicate.models import Player, Team
from duplicate.web import forms, tournament_or_404
from duplicate.web.auth import arbiter_required, check_tournament, current_user, tournament_for_arbiter

bp = Blueprint("arbiter", __name__, url_prefix="/arbitre")

UNPROCESSABLE = 422


@bp.before_request
@arbiter_required
def require_arbiter():
    """Every page of this blueprint is for arbiters only."""


bp.before_request(check_tournament(tournament_for_arbiter))  # and a tournament's pages for its arbiters



def _status(form) -> int:
    """200 for a blank form, 422 for a submitted one shown again (refused: the request rolls back)."""
    return UNPROCESSABLE if form.is_submitted() else 200


def _show_error(form, error) -> None:
    """Put an `OperationError` next to its field, or above the form when it names none of its fields."""
    field = form._fields.get(error.field) if error.field else None
    if field is not None:
        field.errors = [*field.errors, error.message]
    else:
        form.form_errors.append(error.message)


# --- tournaments ----------------------------------------------------------------------------------

@bp.route("/")
def tournaments():
    """The arbiter's list of tournaments: those the arbiter manages."""
    session = get_session()
    return render_template("arbiter/tournaments.html", tournaments=operations.visible_tournaments(
        session, current_user(), operations.list_tournaments(session)))


@bp.route("/tournois/nouveau", methods=["GET", "POST"])
def new_tournament():
    form = forms.TournamentForm()
    if form.validate_on_submit():
        try:
            tournament = operations.create_tournament(
                get_session(), name=form.name.data, kind=form.kind.data, date=form.date.data,
                place=form.place.data or "", colour=form.colour.data or "", sessions=form.sessions.data,
                timezone=form.timezone.data, owner=current_user(),
            )
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"Tournoi « {tournament.name} » créé.", "success")
            return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))
    status = _status(form)
    return render_template("arbiter/tournament_form.html", form=form), status


# Where each step of `operations.readiness` is done.
STEP_ENDPOINTS = {
    "players": "arbiter.players",
    "teams": "arbiter.teams",
    "draw": "arbiter.draw",
    "boards": "arbiter.boards",
    "deals": "arbiter.boards",
    "movement": "arbiter.movement",
}


@bp.route("/tournois/<int:tournament_id>/")
def dashboard(tournament_id: int, timezone_form=None, status: int = 200):
    """What is ready and what is missing, from `operations.readiness`, with a link to each step."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    steps = operations.readiness(session, tournament)
    return render_template(
        "arbiter/dashboard.html", tournament=tournament, steps=steps, step_endpoints=STEP_ENDPOINTS,
        step_labels=operations.STEP_LABELS, all_ready=all(done for _, done, _ in steps),
        published=operations.is_published(tournament), completeness=operations.completeness(session, tournament),
        publish_form=forms.ActionForm(),
        timezone_form=timezone_form or forms.TimezoneForm(formdata=None, timezone=french.timezone_of(tournament)),
    ), status


@bp.route("/tournois/<int:tournament_id>/publication", methods=["POST"])
def publish(tournament_id: int):
    """« Publier les résultats » (``publier=1``) or « Retirer la publication » (``publier=0``), SPEC §11."""
    tournament = tournament_or_404(tournament_id)
    form = forms.ActionForm()
    if not form.validate_on_submit() or request.form.get("publier") not in ("0", "1"):
        flash("Le formulaire a expiré : recommencez.", "error")
        return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))
    published = request.form["publier"] == "1"
    operations.publish(get_session(), tournament, published, current_user().username)
    flash("Résultats publiés : le public voit les scores et les classements." if published else
          "Publication retirée : le public ne voit plus que l’avancée de la saisie.", "success")
    return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))


@bp.route("/tournois/<int:tournament_id>/fuseau", methods=["POST"])
def set_timezone(tournament_id: int):
    """Change the time zone the tournament's times are shown in."""
    tournament = tournament_or_404(tournament_id)
    form = forms.TimezoneForm()
    if form.validate_on_submit():
        try:
            operations.set_timezone(get_session(), tournament, form.timezone.data)
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"Fuseau horaire : {form.timezone.data}.", "success")
            return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))
    return dashboard(tournament_id, form, UNPROCESSABLE)


def _uploaded_text(form: forms.UploadForm, decode=None) -> str | None:
    """The text of an upload form's file or text box; None (and the error shown) when unreadable."""
    try:
        return form.content(decode)
    except ValueError as error:
        form.file.errors = [*form.file.errors, str(error)]
        return None


# --- players ----------------------------------------------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/joueurs", methods=["GET", "POST"])
def players(tournament_id: int):
    """The registered players and the form to add one by hand."""
    tournament = tournament_or_404(tournament_id)
    form = forms.PlayerForm()
    if form.validate_on_submit():
        try:
            player = operations.register_player(
                get_session(), tournament, licence=form.licence.data or None, surname=form.surname.data,
                first_name=form.first_name.data, club=form.club.data or None,
            )
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"Inscription de {player.name} enregistrée.", "success")
            return redirect(url_for("arbiter.players", tournament_id=tournament.id))
    status = _status(form)
    return render_template(
        "arbiter/players.html", tournament=tournament, form=form,
        players=operations.players(get_session(), tournament),
    ), status


@bp.route("/tournois/<int:tournament_id>/joueurs/import", methods=["GET", "POST"])
def import_players(tournament_id: int):
    """Players from a CSV file or pasted text, in two steps: a preview (the players that would be
    added, one line per refused row; nothing stored), then the arbiter's confirmation, which checks the
    list again and adds the accepted players.  If the check finds another result than the preview
    (a player registered meanwhile), the new preview is shown instead."""
    tournament = tournament_or_404(tournament_id)
    form = forms.PlayersImportForm()
    preview = None
    if form.validate_on_submit():
        text = _uploaded_text(form, decode=_decode_players)
        if text is not None:
            session = get_session()
            accepted, refused = operations.preview_players_csv(session, tournament, text)
            preview = {"accepted": accepted, "refused": refused, "changed": False}
            if form.confirm.data == "1" and accepted:
                if form.expected.data != str(len(accepted)):
                    preview["changed"] = True
                else:
                    imported = operations.import_players_csv(session, tournament, text, skip_refused=True)
                    flash(f"{len(imported)} joueur(s) importé(s)"
                          + (f", {len(refused)} ligne(s) laissée(s) de côté." if refused else "."), "success")
                    return redirect(url_for("arbiter.players", tournament_id=tournament.id))
    if preview is None:
        status = _status(form)
    else:
        status = 200 if preview["accepted"] else UNPROCESSABLE
    return render_template(
        "arbiter/players_import.html", tournament=tournament, form=form, preview=preview,
    ), status


def _decode_players(raw: bytes) -> str:
    try:
        return interchange.decode_text(raw)
    except ValueError as error:
        raise ValueError(str(error)[:1].upper() + str(error)[1:] + ".") from None


# --- import and export ------------------------------------------------------------------------------

@bp.route("/import", methods=["GET", "POST"])
def import_tournament():
    """A whole tournament from its ``tarot-tournament/1`` file; on error, the French message and its line."""
    form = forms.UploadForm()
    if form.validate_on_submit():
        text = _uploaded_text(form)
        if text is not None:
            try:
                tournament = interchange.import_tournament(get_session(), text)
            except TournamentError as error:
                form.form_errors.append(f"Fichier refusé : {error}. Rien n’a été importé.")
            else:
                tournament.owner_id = current_user().id  # the arbiter who imports it owns it
                get_session().flush()
                flash(f"Tournoi « {tournament.name} » importé.", "success")
                return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))
    status = _status(form)
    return render_template("arbiter/import.html", form=form), status


@bp.route("/tournois/<int:tournament_id>/export")
def export_tournament(tournament_id: int):
    """The tournament as a ``tarot-tournament/1`` file to download: ``tournoi-<id>.json``."""
    tournament = tournament_or_404(tournament_id)
    data = interchange.export_tournament(get_session(), tournament)
    body = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="tournoi-{tournament.id}.json"',
    })


# --- teams --------------------------------------------------------------------------------------------

def _teams(tournament) -> list[tuple[Team, list[Player]]]:
    """The tournament's teams, each with its members in the team's order."""
    session = get_session()
    return [(team, operations.team_members(session, team)) for team in operations.teams(session, tournament)]


@bp.route("/tournois/<int:tournament_id>/equipes", methods=["GET", "POST"])
def teams(tournament_id: int):
    """Triplettes, quadrettes, teams of a match: formed from the registered players."""
    tournament = tournament_or_404(tournament_id)
    if tournament.format.ranks_players:
        flash(f"Un tournoi {tournament.format.label.lower()} n’a pas d’équipes.", "warning")
        return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))
    team_rows = _teams(tournament)
    in_a_team = {player.id for _, members in team_rows for player in members}
    players = operations.players(get_session(), tournament)
    form = forms.TeamForm()
    form.player_ids.choices = [forms.SelectChoice(p.id, p.name) for p in players if p.id not in in_a_team]
    if tournament.format.split_roles:   # a quadrette's or a match team's roles sit apart: no line
        del form.line
    if form.validate_on_submit():
        try:
            team = operations.form_team(
                get_session(), tournament, name=form.name.data, player_ids=form.player_ids.data,
                **({"line": form.line.data or None} if "line" in form else {}),
            )
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"Équipe « {team.name} » formée.", "success")
            return redirect(url_for("arbiter.teams", tournament_id=tournament.id))
    status = _status(form)
    return render_template(
        "arbiter/teams.html", tournament=tournament, form=form, teams=team_rows,
        free_players=[p for p in players if p.id not in in_a_team],
    ), status


# --- draw of the starting places ---------------------------------------------------------------------------

def _entrants(tournament) -> list:
    session = get_session()
    if tournament.format.ranks_players:
        return operations.players(session, tournament)
    return operations.teams(session, tournament)


def _placement(tournament) -> tuple[list, list[dict], list]:
    """(columns: the format's lines and their names, one row per table ``{"table": n, "seats": {line:
    entrant}, "relais": bool}``, entrants not placed)."""
    fmt = tournament.format
    columns = list(zip(fmt.lines, fmt.line_labels))
    tables: dict[int, dict] = {}
    unplaced = []
    for entrant in _entrants(tournament):
        if entrant.entrant_id is None:
            unplaced.append(entrant)
            continue
        tables.setdefault(entrant.start_table or 1, {})[fmt.line_of(entrant.entrant_id)] = entrant
    # individual: the places of table T + 1 (N, S, E) start at the relais (SPEC §7, n mod 4 players)
    full = operations.table_count(get_session(), tournament) if fmt.ranks_players else None
    rows = [{"table": table, "seats": tables[table], "relais": full is not None and table > full}
            for table in sorted(tables)]
    return columns, rows, unplaced


@bp.route("/tournois/<int:tournament_id>/placement", methods=["GET", "POST"])
def draw(tournament_id: int):
    """The draw of the starting places (a seed, blank for a random one), its result, and the form to
    place entrants by hand."""
    tournament = tournament_or_404(tournament_id)
    form = forms.DrawForm()
    if form.validate_on_submit():
        try:
            operations.draw_places(get_session(), tournament, seed=form.seed.data or None)
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"Places tirées au sort (graine « {tournament.draw_seed} »).", "success")
            return redirect(url_for("arbiter.draw", tournament_id=tournament.id))
    status = _status(form)
    return _render_draw(tournament, form, forms.ActionForm(prefix="hand")), status


def _render_draw(tournament, form, hand_form, typed=None):
    columns, rows, unplaced = _placement(tournament)
    return render_template(
        "arbiter/draw.html", tournament=tournament, form=form, hand_form=hand_form, columns=columns,
        rows=rows, unplaced=unplaced, entrants=_entrants(tournament), typed=typed or {},
    )


@bp.route("/tournois/<int:tournament_id>/placement/manuel", methods=["POST"])
def place_by_hand(tournament_id: int):
    """Places typed by the arbiter (``place-<id>`` fields); only the changed ones are sent."""
    tournament = tournament_or_404(tournament_id)
    hand_form = forms.ActionForm(prefix="hand")
    key = "player_id" if tournament.format.ranks_players else "team_id"
    entrants = _entrants(tournament)
    typed = {e.id: request.form.get(f"place-{e.id}", "").strip().upper() for e in entrants}
    if hand_form.validate_on_submit():
        assignments = [{key: e.id, "entrant_id": french.place_id(typed[e.id])} for e in entrants
                       if french.place_id(typed[e.id]) != (e.entrant_id or "")]
        try:
            operations.place_by_hand(get_session(), tournament, assignments)
        except operations.OperationError as error:
            hand_form.form_errors.append(error.message)
        else:
            flash("Placement enregistré.", "success")
            return redirect(url_for("arbiter.draw", tournament_id=tournament.id))
    return _render_draw(tournament, forms.DrawForm(formdata=None), hand_form, typed), UNPROCESSABLE


@bp.route("/tournois/<int:tournament_id>/placement/impression")
def draw_print(tournament_id: int):
    """The placement on its own page, to print and post in the room."""
    tournament = tournament_or_404(tournament_id)
    columns, rows, unplaced = _placement(tournament)
    return render_template("arbiter/draw_print.html", tournament=tournament, columns=columns, rows=rows,
                           unplaced=unplaced)


# --- étuis -------------------------------------------------------------------------------------------------

def _render_boards(tournament, generate_form=None, deals_form=None, seed_preview=None):
    if generate_form is None:
        generate_form = forms.BoardsForm(formdata=None, prefix="generate", seed=secrets.token_hex(8))
    return render_template(
        "arbiter/boards.html", tournament=tournament, boards=operations.boards(get_session(), tournament),
        generate_form=generate_form, deals_form=deals_form or forms.UploadForm(formdata=None, prefix="deals"),
        seed_preview=seed_preview,
    )


@bp.route("/tournois/<int:tournament_id>/etuis")
def boards(tournament_id: int):
    """The étuis (number, taker, dealer, deal known or not), and the forms to deal or import them."""
    return _render_boards(tournament_or_404(tournament_id))


@bp.route("/tournois/<int:tournament_id>/etuis/generer", methods=["POST"])
def generate_boards(tournament_id: int):
    """Deal the étuis from a seed; the « empreinte » button only shows the seed's SHA-256, to publish
    it before the tournament."""
    tournament = tournament_or_404(tournament_id)
    form = forms.BoardsForm(prefix="generate")
    if "hash" in request.form:
        seed = form.seed.data or ""
        if seed:
            return _render_boards(tournament, form, seed_preview=(seed, seed_hash(seed)))
        form.seed.errors = ["Indiquez une graine."]
    elif form.validate_on_submit():
        try:
            created = operations.generate_boards(get_session(), tournament, count=form.count.data,
                                                 seed=form.seed.data or "")
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"{len(created)} étui(s) générés.", "success")
            return redirect(url_for("arbiter.boards", tournament_id=tournament.id))
    return _render_boards(tournament, form), UNPROCESSABLE


@bp.route("/tournois/<int:tournament_id>/etuis/importer", methods=["POST"])
def import_deals(tournament_id: int):
    """Étuis from a ``tarot-deals/1`` file (another club's copy of the deals, say)."""
    tournament = tournament_or_404(tournament_id)
    form = forms.UploadForm(prefix="deals")
    if form.validate_on_submit():
        text = _uploaded_text(form)
        if text is not None:
            try:
                created = operations.import_deals(get_session(), tournament, text)
            except operations.OperationError as error:
                _show_error(form, error)
            else:
                flash(f"{len(created)} étui(s) importés.", "success")
                return redirect(url_for("arbiter.boards", tournament_id=tournament.id))
    return _render_boards(tournament, deals_form=form), UNPROCESSABLE


@bp.route("/tournois/<int:tournament_id>/etuis/<int:number>", methods=["GET", "POST"])
def board_hands(tournament_id: int, number: int):
    """The deal of one étui, typed from its diagrams: 18 cards per seat and the 6 of the chien."""
    tournament = tournament_or_404(tournament_id)
    board = next((b for b in operations.boards(get_session(), tournament) if b.number == number), None)
    if board is None:
        abort(404)
    form = forms.HandsForm(obj=_hands_data(board))
    if form.validate_on_submit():
        try:
            operations.set_board_hands(
                get_session(), tournament, number,
                hands={seat: getattr(form, seat).data for seat in ("N", "S", "E", "W")},
                dog=form.dog.data, dealer=form.dealer.data, taker=form.taker.data,
            )
        except operations.OperationError as error:
            _show_error(form, error)
        else:
            flash(f"Donne de l’étui {number} enregistrée.", "success")
            return redirect(url_for("arbiter.boards", tournament_id=tournament.id))
    status = _status(form)
    return render_template("arbiter/board_hands.html", tournament=tournament, board=board, form=form), status


def _hands_data(board) -> SimpleNamespace:
    """The étui as the hands form shows it: each hand as one line of cards."""
    hands = board.hands or {}
    return SimpleNamespace(
        dealer=board.dealer, taker=board.taker, dog=" ".join(board.dog or []),
        **{seat: " ".join(hands.get(seat, [])) for seat in ("N", "S", "E", "W")},
    )


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
        status = _status(form)
        return _render_movement(tournament, form), status
    session = get_session()
    try:
        if "accept" in request.form:
            operations.choose_movement(session, tournament, positions=form.positions.data)
            flash("Mouvement choisi.", "success")
            return redirect(url_for("arbiter.movement", tournament_id=tournament.id))
        savepoint = session.begin_nested()
        try:
            preview = dict(operations.choose_movement(session, tournament, positions=form.positions.data).data)
        finally:
            savepoint.rollback()
    except operations.OperationError as error:
        _show_error(form, error)
        return _render_movement(tournament, form), UNPROCESSABLE
    return _render_movement(tournament, form, preview=preview)


@bp.route("/tournois/<int:tournament_id>/mouvement/importer", methods=["POST"])
def import_movement(tournament_id: int):
    """A movement supplied by the arbiter (``tarot-movement/1``: Howell, Emmanuel 16…), kept if valid."""
    tournament = tournament_or_404(tournament_id)
    upload_form = forms.UploadForm(prefix="movement")
    if upload_form.validate_on_submit():
        text = _uploaded_text(upload_form)
        if text is not None:
            try:
                operations.set_movement(get_session(), tournament, text)
            except operations.OperationError as error:
                _show_error(upload_form, error)
            else:
                flash("Mouvement enregistré.", "success")
                return redirect(url_for("arbiter.movement", tournament_id=tournament.id))
    return _render_movement(tournament, forms.MovementForm(formdata=None), upload_form), UNPROCESSABLE
