"""The arbiter's registration screens (on the ``arbiter`` blueprint): players (by hand or from a CSV list),
teams formed from them, and the draw of the starting places (seeded, by hand, printed for the room).

Each view parses its form, calls one operation (`duplicate.operations._entrants`) and renders or redirects;
a refused form is shown again with its French error and answers 422 (`duplicate.web.submit`).
"""

from flask import flash, redirect, render_template, request, url_for

from duplicate import french, operations, players_csv
from duplicate.db import get_session
from duplicate.web import forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import UNPROCESSABLE, form_status, show_error, submit, uploaded_text
from duplicate.web.freeplay.guard import serves_free_play


# --- players ----------------------------------------------------------------------------------------

@bp.route("/tournois/<int:tournament_id>/joueurs", methods=["GET", "POST"])
@serves_free_play
def players(tournament_id: int):
    """The registered players and the form to add one by hand."""
    tournament = tournament_or_404(tournament_id)
    form = forms.PlayerForm()
    return submit(
        form,
        lambda: operations.register_player(
            get_session(), tournament, licence=form.licence.data or None, surname=form.surname.data,
            first_name=form.first_name.data, club=form.club.data or None,
        ),
        lambda player: (f"Inscription de {player.name} enregistrée.",
                        url_for("arbiter.players", tournament_id=tournament.id)),
        lambda status: (render_template(
            "arbiter/players.html", tournament=tournament, form=form,
            players=operations.players(get_session(), tournament),
        ), status),
    )


def empty_lines(count: int) -> str:
    """What an import says of the empty lines it skipped (issue 29 point 14: the « ;;; » row Excel leaves
    is no refused line): « 1 ligne vide ignorée », « 2 lignes vides ignorées »; « » when none."""
    return french.counted(count, "ligne vide ignorée", "lignes vides ignorées") if count else ""


def two_step_import(form: forms.PlayersImportForm, *, preview_of, confirmable, size, commit):
    """The two steps of a list's import (players, teams): the preview — ``preview_of(text)``: what would be
    added and every refused line, nothing stored — then the arbiter's confirmation (``form.confirm``, offered
    when ``confirmable(preview)``), which checks the list again: when it counts another ``size(preview)``
    than the preview showed (``form.expected``: a player registered meanwhile), the new preview is shown
    instead; else ``commit(text, preview)`` stores the list and gives the response (a redirect).

    Returns ``(preview, response)``: no preview when nothing readable was sent (the form shows why), no
    response until the list is stored."""
    if not form.validate_on_submit():
        return None, None
    text = uploaded_text(form, decode=_decode_players)
    if text is None:
        return None, None
    try:
        preview = preview_of(text)
    except operations.OperationError as error:
        show_error(form, error)
        return None, None
    preview["changed"] = False
    if form.confirm.data == "1" and confirmable(preview):
        if form.expected.data != str(size(preview)):
            preview["changed"] = True
        else:
            return preview, commit(text, preview)
    return preview, None


@bp.route("/tournois/<int:tournament_id>/joueurs/import", methods=["GET", "POST"])
@serves_free_play
def import_players(tournament_id: int):
    """Players from a CSV file or pasted text (`two_step_import`); the confirmation adds the accepted
    players and leaves the refused lines aside."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    form = forms.PlayersImportForm()

    def preview_of(text: str) -> dict:
        accepted, refused, empty = operations.preview_players_csv(session, tournament, text)
        return {"accepted": accepted, "refused": refused, "empty": empty_lines(empty)}

    def commit(text: str, preview: dict):
        imported = operations.import_players_csv(session, tournament, text, skip_refused=True)
        flash(french.counted(len(imported), "joueur importé", "joueurs importés")
              + (", " + french.counted(len(preview["refused"]), "ligne laissée", "lignes laissées") + " de côté" if preview["refused"] else "")
              + (f", {preview['empty']}" if preview["empty"] else "") + ".", "success")
        return redirect(url_for("arbiter.players", tournament_id=tournament.id))

    preview, response = two_step_import(form, preview_of=preview_of, confirmable=lambda p: p["accepted"],
                                        size=lambda p: len(p["accepted"]), commit=commit)
    if response is not None:
        return response
    status = form_status(form) if preview is None else 200 if preview["accepted"] else UNPROCESSABLE
    return render_template("arbiter/players_import.html", tournament=tournament, form=form, preview=preview), status


def _decode_players(raw: bytes) -> str:
    try:
        return players_csv.decode_text(raw)
    except ValueError as error:
        raise ValueError(str(error)[:1].upper() + str(error)[1:] + ".") from None


# --- teams --------------------------------------------------------------------------------------------

def _teams(tournament) -> list[tuple]:
    """The tournament's teams (``Team`` rows), each with its members (``Player`` rows) in the team's order."""
    session = get_session()
    return [(team, operations.team_members(session, team)) for team in operations.teams(session, tournament)]


@bp.route("/tournois/<int:tournament_id>/equipes", methods=["GET", "POST"])
@serves_free_play
def teams(tournament_id: int):
    """Triplettes, quadrettes, teams of a match: formed from the registered players."""
    tournament = tournament_or_404(tournament_id)
    if not tournament.format.has_teams:
        flash(f"Un tournoi {tournament.format.label.lower()} n’a pas d’équipes.", "warning")
        return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))
    team_rows = _teams(tournament)
    in_a_team = {player.id for _, members in team_rows for player in members}
    players = operations.players(get_session(), tournament)
    form = forms.TeamForm()
    form.player_ids.choices = [forms.SelectChoice(p.id, p.name) for p in players if p.id not in in_a_team]
    if not tournament.format.registers_team_line:  # roles sit apart / the movement seats: no line
        del form.line
    return submit(
        form,
        lambda: operations.form_team(
            get_session(), tournament, name=form.name.data, player_ids=form.player_ids.data,
            **({"line": form.line.data or None} if "line" in form else {}),
        ),
        lambda team: (f"Équipe « {team.name} » formée.", url_for("arbiter.teams", tournament_id=tournament.id)),
        lambda status: (render_template(
            "arbiter/teams.html", tournament=tournament, form=form, teams=team_rows,
            free_players=[p for p in players if p.id not in in_a_team],
        ), status),
    )


# --- draw of the starting places ---------------------------------------------------------------------------

def _entrants(tournament) -> list:
    return operations.entrant_rows(get_session(), tournament)


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
    full = operations.table_count(get_session(), tournament) if fmt.seats_by_player else None
    rows = [{"table": table, "seats": tables[table], "relais": full is not None and table > full}
            for table in sorted(tables)]
    return columns, rows, unplaced


@bp.route("/tournois/<int:tournament_id>/placement", methods=["GET", "POST"])
def draw(tournament_id: int):
    """The draw of the starting places (a seed, blank for a random one), its result, and the form to
    place entrants by hand."""
    tournament = tournament_or_404(tournament_id)
    form = forms.DrawForm()
    return submit(
        form,
        lambda: operations.draw_places(get_session(), tournament, seed=form.seed.data or None),
        lambda _: (f"Places tirées au sort (graine « {tournament.draw_seed} »).",
                   url_for("arbiter.draw", tournament_id=tournament.id)),
        lambda status: (_render_draw(tournament, form, forms.ActionForm(prefix="hand")), status),
    )


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
    key = "team_id" if tournament.format.has_teams else "player_id"
    entrants = _entrants(tournament)
    typed = {e.id: request.form.get(f"place-{e.id}", "").strip().upper() for e in entrants}
    assignments = [{key: e.id, "entrant_id": french.place_id(typed[e.id])} for e in entrants
                   if french.place_id(typed[e.id]) != (e.entrant_id or "")]
    return submit(  # the button's form has no field: a refusal is shown above it
        hand_form,
        lambda: operations.place_by_hand(get_session(), tournament, assignments),
        lambda _: ("Placement enregistré.", url_for("arbiter.draw", tournament_id=tournament.id)),
        lambda status: (_render_draw(tournament, forms.DrawForm(formdata=None), hand_form, typed),
                        status),  # a POST: 422
    )


@bp.route("/tournois/<int:tournament_id>/placement/impression")
def draw_print(tournament_id: int):
    """The placement on its own page, to print and post in the room."""
    tournament = tournament_or_404(tournament_id)
    columns, rows, unplaced = _placement(tournament)
    return render_template("arbiter/draw_print.html", tournament=tournament, columns=columns, rows=rows,
                           unplaced=unplaced)
