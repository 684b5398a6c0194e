"""A simultané's screens (issue 33), on the ``arbiter`` blueprint.

* **The organiser's** (``/arbitre/simultanes``): the simultanés, a new one (its étuis dealt once, the hash
  to publish shown), and one simultané's clubs — their files received — with a club registered, its key
  shown once on the page that answers (as an API token is).
* **The club's**: the tournament played on the organiser's deals, signed with the club's key
  (`operations.club_file`) and either sent to the organiser's instance (``POST
  <adresse>/api/simultanes/<code>/resultats``, docs/simultaneous.md) or downloaded, to be sent later from
  anywhere when the hall has no Internet. The organiser's answer — accepted, replacing an earlier file, or
  refused with its French reason — is shown as it came.
"""

import json
import urllib.error
import urllib.request
from zoneinfo import ZoneInfo

from flask import Response, flash, redirect, render_template, request, url_for

from wtforms import DateTimeLocalField, PasswordField, SelectField, StringField
from wtforms.validators import DataRequired, InputRequired, Length, Optional
from wtforms.widgets import PasswordInput

from duplicate import french, operations
from duplicate.core.formats import KIND_LABELS
from duplicate.core.simultaneous import SIMULTANEOUS_KINDS
from duplicate.db import get_session
from duplicate.web import forms
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.lookups import tournament_or_404
from duplicate.web.submit import UNPROCESSABLE, show_error, submit


# --- the forms (here rather than in `web.forms`: this module's alone) ---------------------------------------

class SimultaneousForm(forms.FrenchForm):
    """The club's file for a simultané (issue 33): where to send it, the codes and key the organiser gave.
    The key is typed each time, never stored (it would leave in the tournament's export)."""

    url = StringField("Adresse de l’organisateur", validators=[Optional(), Length(max=300)],
                      description="Par exemple https://simultane.example.org ; inutile pour télécharger le fichier.")
    code = StringField("Code du simultané", validators=[DataRequired("Code du simultané : donné par "
                                                                     "l’organisateur."), Length(max=20)])
    club = StringField("Code du club", validators=[DataRequired("Code du club : donné par l’organisateur."),
                                                   Length(max=8)])
    key = PasswordField("Clé du club", widget=PasswordInput(hide_value=False),
                        validators=[DataRequired("Clé du club : donnée par l’organisateur."), Length(max=100)])


class SimultaneousEventForm(forms.FrenchForm):
    """A new simultané (issue 33): its étuis are dealt once, at creation; the embargo in Paris time."""

    code = StringField("Code du simultané", validators=[forms.required(), forms.length(20)],
                       description="Majuscules, chiffres et « - », par exemple S2026-12 : il figure dans les "
                                   "adresses.")
    name = StringField("Nom", validators=[forms.required(), forms.length(200)])
    kind = SelectField("Formule", choices=forms.choices({kind: KIND_LABELS[kind] for kind in SIMULTANEOUS_KINDS}))
    boards = forms.NumberField("Nombre d’étuis", whole=True,
                               validators=[forms.needed("Indiquez un nombre entier d’étuis.")])
    embargo = DateTimeLocalField("Fin de l’embargo (heure de Paris)", format="%Y-%m-%dT%H:%M",
                                 validators=[InputRequired("Indiquez la date et l’heure de fin de l’embargo.")],
                                 description="Avant : le classement national et les donnes pour l’organisateur et "
                                             "les clubs seulement.")


class SimultaneousClubForm(forms.FrenchForm):
    """A club joins a simultané: its code (in its files) and its name."""

    code = StringField("Code du club", validators=[forms.required(), forms.length(8)],
                       description="1 à 8 majuscules ou chiffres, par exemple C07.")
    name = StringField("Nom du club", validators=[forms.required(), forms.length(200)])


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
    form = SimultaneousForm()
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


# --- the organiser's -----------------------------------------------------------------------------------------

def _render_events(form, status: int = 200):
    return render_template("arbiter/simultaneous_events.html", form=form,
                           events=operations.list_simultaneous(get_session())), status


@bp.route("/simultanes", methods=["GET", "POST"])
def simultaneous_events():
    """The simultanés, and a new one."""
    form = SimultaneousEventForm()
    return submit(
        form,
        lambda: operations.create_simultaneous(
            get_session(), (form.code.data or "").strip(), form.name.data, form.kind.data, form.boards.data,
            form.embargo.data.replace(tzinfo=ZoneInfo(french.DEFAULT_TIMEZONE))),
        lambda event: (f"Simultané « {event.name} » créé : {len(event.deals['boards'])} étuis donnés. Publiez "
                       "son empreinte avant la soirée.", url_for("arbiter.simultaneous_event", code=event.code)),
        lambda status: _render_events(form, status),
    )


def _render_event(event, form, status: int = 200, new_club=None):
    members = operations.clubs(get_session(), event)
    return render_template("arbiter/simultaneous_event.html", event=event, form=form, clubs=members,
                           new_club=new_club, embargoed=operations.embargoed(event)), status


@bp.route("/simultanes/<code>", methods=["GET", "POST"])
def simultaneous_event(code: str):
    """A simultané: its hash, its clubs and their files; a club registered (its key shown once)."""
    try:
        event = operations.get_simultaneous(get_session(), code)
    except operations.NotFound as error:
        return render_template("error.html", title="Simultané inconnu", message=error.message), 404
    form = SimultaneousClubForm()
    return submit(
        form,
        lambda: operations.add_club(get_session(), event, (form.code.data or "").strip(), form.name.data),
        lambda club: (None, _render_event(event, SimultaneousClubForm(formdata=None), new_club=club)),
        lambda status: _render_event(event, form, status),
    )

