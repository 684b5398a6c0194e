"""A whole tournament in and out of the application (on the ``arbiter`` blueprint): import of a
``tarot-tournament/1`` file, with the French message and line of a refusal, and its export (SPEC §9).
"""

import json

from flask import Response, flash, redirect, render_template, url_for

from duplicate import interchange
from duplicate.core.tournament import TournamentError
from duplicate.db import get_session
from duplicate.operations import freeplay, freeplay_import
from duplicate.web import forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import form_status, uploaded_text
from duplicate.web.auth import current_user
from duplicate.web.freeplay.guard import free_play_variant


# --- import and export ------------------------------------------------------------------------------

@bp.route("/import", methods=["GET", "POST"])
def import_tournament():
    """A whole tournament from its ``tarot-tournament/1`` file; on error, the French message and its line.
    A free-play file (``"kind": "free"``, SPEC §13) goes to `operations.freeplay_import.import_free`: all or nothing
    too, the message naming the faulty player, result or penalty."""
    form = forms.UploadForm()
    if form.validate_on_submit():
        text = uploaded_text(form)
        if text is not None:
            try:
                if freeplay_import.is_free_file(text):  # donnes libres: the SPEC §13 file
                    tournament = freeplay_import.import_free(get_session(), text, who=current_user().username)
                else:
                    tournament = interchange.import_tournament(get_session(), text)
            except (TournamentError, freeplay_import.FreeImportError) as error:
                error = getattr(error, "message", error)
                form.form_errors.append(f"Fichier refusé : {error}. Rien n’a été importé.")
            else:
                tournament.owner_id = current_user().id  # the arbiter who imports it owns it
                get_session().flush()
                flash(f"Tournoi « {tournament.name} » importé.", "success")
                return redirect(url_for("arbiter.dashboard", tournament_id=tournament.id))
    status = form_status(form)
    return render_template("arbiter/import.html", form=form), status


def _free_export(tournament):
    """A free-play tournament as the SPEC §13 file, what ``rank`` reads."""
    return _download(tournament, freeplay.free_export(get_session(), tournament))


@bp.route("/tournois/<int:tournament_id>/export")
@free_play_variant(_free_export)
def export_tournament(tournament_id: int):
    """The tournament as a ``tarot-tournament/1`` file to download: ``tournoi-<id>.json``."""
    tournament = tournament_or_404(tournament_id)
    return _download(tournament, interchange.export_tournament(get_session(), tournament))


def _download(tournament, data: dict):
    """The file ``tournoi-<id>.json`` of ``data``."""
    body = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="tournoi-{tournament.id}.json"',
    })
