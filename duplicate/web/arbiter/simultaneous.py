"""The club's side of a simultané (issue 33), on the ``arbiter`` blueprint: the tournament played on the
organiser's deals, signed with the club's key (`operations.club_file`) and either sent to the organiser's
instance (``POST <adresse>/api/simultanes/<code>/resultats``, docs/simultaneous.md) or downloaded, to be
sent later from anywhere when the hall has no Internet. The organiser's answer — accepted, replacing an
earlier file, or refused with its French reason — is shown as it came.
"""

import json
import urllib.error
import urllib.request

from flask import Response, flash, redirect, render_template, request, url_for

from duplicate import operations
from duplicate.db import get_session
from duplicate.web import forms
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.lookups import tournament_or_404
from duplicate.web.submit import UNPROCESSABLE, show_error

SEND_TIMEOUT = 15  # seconds: a slow hall connection, but the arbiter is waiting


def send_file(url: str, body: bytes) -> tuple[int, dict]:
    """POST the signed file to the organiser: (HTTP status, JSON answer); `OSError` when unreachable."""
    outgoing = urllib.request.Request(url, data=body, method="POST",
                                      headers={"Content-Type": "application/json; charset=utf-8"})
    try:
        with urllib.request.urlopen(outgoing, timeout=SEND_TIMEOUT) as answer:  # noqa: S310 (http(s) only, checked)
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read() or b"{}")
        except ValueError:
            return error.code, {}


def _sent_message(status: int, answer: dict) -> tuple[str, bool]:
    """What the organiser answered, in French: (message, accepted)."""
    if status == 200:
        again = " ; il remplace le précédent" if answer.get("replaced") else ""
        return (f"Fichier accepté par l’organisateur (envoi n° {answer.get('uploads')}, "
                f"{answer.get('results')} lignes){again}.", True)
    reason = answer.get("error") if isinstance(answer.get("error"), str) else f"réponse HTTP {status}"
    return f"Fichier refusé par l’organisateur : {reason}", False


@bp.route("/tournois/<int:tournament_id>/simultane", methods=["GET", "POST"])
def simultaneous_send(tournament_id: int):
    """Send the club's file to the organiser, or download it signed."""
    tournament = tournament_or_404(tournament_id)
    form = forms.SimultaneousForm()
    if form.validate_on_submit():
        try:
            envelope = operations.club_file(get_session(), tournament, form.code.data, form.club.data.strip(),
                                            form.key.data)
        except operations.OperationError as error:
            show_error(form, error)
        else:
            body = json.dumps(envelope, ensure_ascii=False).encode("utf-8")
            if "telecharger" in request.form:
                return Response(body, mimetype="application/json", headers={
                    "Content-Disposition": f'attachment; filename="simultane-{envelope["club"]}.json"'})
            url = (form.url.data or "").strip().rstrip("/")
            if not url.startswith(("http://", "https://")):
                form.url.errors = [*form.url.errors, "Adresse de l’organisateur : elle commence par https:// "
                                   "(ou http://)."]
            else:
                target = f"{url}/api/simultanes/{urllib.request.quote(envelope['simultane'], safe='')}/resultats"
                try:
                    status, answer = send_file(target, body)
                except (OSError, ValueError) as error:
                    form.form_errors.append(f"L’organisateur est injoignable ({error}) : rien n’a été envoyé. "
                                            "Téléchargez le fichier signé et envoyez-le plus tard.")
                else:
                    message, accepted = _sent_message(status, answer)
                    if accepted:
                        flash(message, "success")
                        return redirect(url_for("arbiter.simultaneous_send", tournament_id=tournament.id))
                    form.form_errors.append(message)
    status = UNPROCESSABLE if form.is_submitted() else 200
    return render_template("arbiter/simultaneous.html", tournament=tournament, form=form), status
