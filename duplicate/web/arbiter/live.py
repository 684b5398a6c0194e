"""The hall during play: the arbiter's live room and the projector (issue 13, points 4 and 5).

* ``/arbitre/tournois/<id>/salle`` — the arbiter's grid of tables × positions, each cell the étuis that
  table plays then, filled in live: ``static/js/live-room.js`` asks ``salle.json`` every half second and
  repaints the cells; one click on a cell opens the entry of that table's position, on an étui its fiche.
  The countdown's buttons are plain forms (they work without JavaScript). Arbiters only (`arbiter.bp`'s
  guard).
* ``/tournois/<id>/projecteur`` — the full-screen page for the hall's projector: position in play,
  countdown, next move, then, once published, the rankings in rotation (``static/js/projector.js``
  asks ``projecteur.json`` every second and computes the countdown from the stored end time and the
  server's clock; when the JSON names a newer ranking than the one shown, it asks for the rankings
  again, ``projecteur/classements``, and puts them in place). Public, like the tournament's results page —
  our choice: it shows nothing that page does not already show to everyone (progress before publication,
  rankings after); no sign-in on the hall's computer, no token to type into it.

**Real time** (issue 30): the screens learn of a change within their poll, and a poll that finds nothing
new costs about what a static file costs: both JSON answers are versioned (`web.versioned`: ``304``
before anything is computed while `operations.hall_version` holds). ``salle.json`` is compact — each cell
one short text (`_cell_text`) — and, like every page, compressed when the browser accepts it
(Flask-Compress).
"""

from flask import jsonify, make_response, redirect, render_template, request, url_for
from markupsafe import Markup

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.view_models.formatting import ordinal
from duplicate.web.blueprints import public as public_bp
from duplicate.web import form_conflicts, forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import EXPIRED, UNPROCESSABLE
from duplicate.web.versioned import hall_unchanged, tagged

POLL_ROOM_MS = 500  # the arbiter's grid: a cell « saisi » within a second of the defender's confirmation
POLL_PROJECTOR_MS = 1000
EXTEND_CHOICES = (1, 2, 5)
CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "stop", "minutes")


def _no_store(response):
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    return response


#: A line's and a cell's status in ``salle.json``, one letter each.
STATUS_LETTERS = {"done": "d", "pending": "p", "conflict": "c", "missing": "m"}


def _cell_text(cell: dict) -> str:
    """A cell of the grid in ``salle.json``: its status letter (`STATUS_LETTERS`), a flag (``L`` late, ``U``
    upcoming, ``-`` neither: `operations.live_room`), then one letter per line, in the page's order."""
    flag = "L" if cell["late"] else "U" if cell["upcoming"] else "-"
    return STATUS_LETTERS[cell["status"]] + flag + "".join(STATUS_LETTERS[line["status"]] for line in cell["lines"])


def _room_page(tournament, error: str | None = None, typed=None, status: int = 200, minutes_form=None):
    session = get_session()
    if minutes_form is None:
        minutes_form = forms.MinutesForm(formdata=None)
        form_conflicts.note_shown(minutes_form, _minutes_values(tournament))
    room = operations.live_room(session, tournament)
    typed = typed or {}
    return render_template(
        "arbiter/live_room.html", tournament=tournament, room=room, labels=operations.STATUS_LABELS,
        clock=operations.clock_state(operations.find_clock(session, tournament)),
        minutes=operations.minutes_per_board(tournament), extend_choices=EXTEND_CHOICES, ordinal=ordinal,
        error=error, typed_position=typed.get("position"), typed_minutes=typed.get("minutes"),
        poll_ms=POLL_ROOM_MS, published=operations.is_published(tournament), minutes_form=minutes_form,
    ), status


def _minutes_values(tournament) -> dict:
    """What the « Minutes par étui » form shows of the stored tournament (`form_conflicts.guard`)."""
    return {"minutes": operations.minutes_per_board(tournament)}


@bp.route("/tournois/<int:tournament_id>/salle")
def live_room(tournament_id: int):
    """The live grid: tables × positions, entered / awaiting confirmation / missing / conflicting."""
    return _room_page(tournament_or_404(tournament_id))


@bp.route("/tournois/<int:tournament_id>/salle.json")
def live_room_json(tournament_id: int):
    """What the grid's script repaints: each cell's and line's status (`_cell_text`), the late tables, the
    counts, the clock — or ``304`` when nothing changed since the script's last answer."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    version, not_modified = hall_unchanged(session, tournament)
    if not_modified is not None:
        return not_modified
    room = operations.live_room(session, tournament)
    return tagged(jsonify(
        position=room["position"], counts=room["counts"], late_tables=room["late_tables"],
        cells={key: _cell_text(cell) for key, cell in room["cells"].items()},
        clock=operations.clock_state(operations.find_clock(session, tournament)),
        published=operations.is_published(tournament),
    ), version)


def _whole(text) -> int | None:
    """A whole number typed the French way, None when blank or unreadable (the operation says why)."""
    try:
        return french.parse_whole_number(text) if text and str(text).strip() else None
    except french.NumberError:
        return None


@bp.route("/tournois/<int:tournament_id>/horloge", methods=["POST"])
def clock(tournament_id: int):
    """The countdown's buttons: « Lancer la position », pause, reprise, ± minutes, arrêt; minutes per étui."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    action = request.form.get("action")
    if not forms.ActionForm().validate_on_submit() or action not in CLOCK_ACTIONS:
        return _room_page(tournament, EXPIRED, request.form, UNPROCESSABLE)
    try:
        if action == "start":
            operations.start_position(session, tournament, _whole(request.form.get("position")))
        elif action == "pause":
            operations.pause_clock(session, tournament)
        elif action == "resume":
            operations.resume_clock(session, tournament)
        elif action == "extend":
            operations.extend_clock(session, tournament, _whole(request.form.get("minutes")))
        elif action == "stop":
            operations.stop_clock(session, tournament)
        else:
            form = forms.MinutesForm()
            if not form_conflicts.guard(form, tournament, _minutes_values):
                if form.conflict:  # another arbiter saved other minutes meanwhile: shown, what was typed kept
                    return _room_page(tournament, " ".join([*form.form_errors, *form.minutes.errors]), request.form,
                                      form_conflicts.status(form, UNPROCESSABLE), minutes_form=form)
                return _room_page(tournament, EXPIRED, request.form, UNPROCESSABLE)
            operations.set_minutes_per_board(session, tournament, _whole(str(form.minutes.data)))
    except operations.OperationError as error:
        return _room_page(tournament, error.message, request.form, UNPROCESSABLE)
    return redirect(url_for("arbiter.live_room", tournament_id=tournament.id))


# --- the projector (public) ------------------------------------------------------------------------------

def _projector_data(session, tournament) -> dict:
    data = operations.projector(session, tournament)
    move = data["move"]
    if move is not None:  # ids as a player reads them: W2 → « O2 »
        move["resting"] = [french.place_label(who) for who in move["resting"]]
        move["joining"] = [dict(item, id=french.place_label(item["id"])) for item in move["joining"]]
    return data


def _projector_rankings(tournament) -> Markup:
    """The projector's rankings (``templates/public/_projector_rankings.html``), empty before publication —
    a kept public view (`public.shared_view`): every phone of the hall may show the projector's page, and
    one rendering per version of the data serves them all."""
    from duplicate.web.public.pages import shared_view

    def compute(session, fresh):
        rankings = operations.projector_ranking(session, fresh)
        version = operations.data_version(session, fresh)
        return render_template("public/_projector_rankings.html", rankings=rankings,
                               version=version[1] if version else "") if rankings else ""
    return Markup(shared_view(tournament, ("projector", operations.is_published(tournament)), compute))


@public_bp.route("/tournois/<int:tournament_id>/projecteur")
def projector(tournament_id: int):
    """The hall's screen (public): nothing secret before publication (SPEC §11)."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    return _no_store(render_template(
        "public/projector.html", tournament=tournament, data=_projector_data(session, tournament),
        rankings=_projector_rankings(tournament), ordinal=ordinal, poll_ms=POLL_PROJECTOR_MS,
    ))


@public_bp.route("/tournois/<int:tournament_id>/projecteur/classements")
def projector_rankings(tournament_id: int):
    """The projector's rankings alone, for its script to put in place of the ones shown (empty before
    publication)."""
    return _no_store(_projector_rankings(tournament_or_404(tournament_id)))


@public_bp.route("/tournois/<int:tournament_id>/projecteur.json")
def projector_json(tournament_id: int):
    """The projector's state: position, countdown, next move, progress, ``published``, and once published
    ``ranking``, the version of the data the newest ranking is drawn from — never a score; ``304`` when
    nothing changed since the script's last answer."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    version, not_modified = hall_unchanged(session, tournament)
    if not_modified is not None:
        return not_modified
    data = _projector_data(session, tournament)
    data["ranking"] = tournament.data_version if data["published"] else None
    return tagged(jsonify(data), version)
