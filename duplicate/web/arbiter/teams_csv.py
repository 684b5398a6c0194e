"""Teams from a CSV list and back, on the arbiter's « Équipes » page (issue 15 point 4;
`operations._team_csv` says the format and the rules).

The import works in two steps, as the players list's (`arbiter.import_players`): a preview (the teams and
their members, every refused line; nothing stored), then « Confirmer », offered only when no line is
refused, which checks the list again and forms the teams.  A refused list changes nothing (422).
"""

from flask import Response, flash, redirect, render_template, url_for

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.web import forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import UNPROCESSABLE, form_status
from duplicate.web.arbiter.registration import empty_lines, two_step_import
from duplicate.web.freeplay.guard import serves_free_play


@bp.route("/tournois/<int:tournament_id>/equipes/import", methods=["GET", "POST"])
@serves_free_play
def import_teams(tournament_id: int):
    """Preview a teams list, then form its teams once the arbiter confirms (`two_step_import`)."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    form = forms.PlayersImportForm()

    def preview_of(text: str) -> dict:
        found, refused, empty = operations.preview_teams_csv(session, tournament, text)
        return {"teams": found, "refused": refused, "players": sum(len(team["members"]) for team in found),
                "empty": empty_lines(empty)}

    def commit(text: str, preview: dict):
        formed = operations.import_teams_csv(session, tournament, text)
        flash(f"{french.counted(len(formed), 'équipe formée', 'équipes formées')}, "
              f"{french.counted(preview['players'], 'joueur inscrit', 'joueurs inscrits')}"
              + (f", {preview['empty']}" if preview["empty"] else "") + ".", "success")
        return redirect(url_for("arbiter.teams", tournament_id=tournament.id))

    preview, response = two_step_import(form, preview_of=preview_of, confirmable=lambda p: not p["refused"],
                                        size=lambda p: p["players"], commit=commit)
    if response is not None:
        return response
    status = (form_status(form) if preview is None
              else 200 if not preview["refused"] and not preview["changed"] else UNPROCESSABLE)
    return render_template("arbiter/teams_import.html", tournament=tournament, form=form, preview=preview), status


@bp.route("/tournois/<int:tournament_id>/equipes/export.csv")
@serves_free_play
def export_teams(tournament_id: int):
    """The teams and their members as a CSV list (« ; », UTF-8 with BOM) that the import reads back."""
    tournament = tournament_or_404(tournament_id)
    return Response(operations.teams_csv(get_session(), tournament), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="tournoi-{tournament.id}-equipes.csv"'})
