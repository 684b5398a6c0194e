"""The hall during play: the arbiter's live room and the projector (issue 13, points 4 and 5).

* ``/arbitre/tournois/<id>/salle`` — the arbiter's grid of tables × positions, each cell the étuis that
  table plays then, filled in live: ``static/js/live-room.js`` asks ``salle.json`` every 4 s (short
  polling: no page reload, nothing from the network) and repaints the cells; one click on a cell opens
  the entry of that table's position, on an étui its fiche. The countdown's buttons are plain forms
  (they work without JavaScript). Arbiters only (`arbiter.bp`'s guard).
* ``/tournois/<id>/projecteur`` — the full-screen page for the hall's projector: position in play,
  countdown, next move, then, once published, the rankings in rotation (``static/js/projector.js``
  asks ``projecteur.json`` every 5 s and computes the countdown from the stored end time and the
  server's clock). Public, like the tournament's results page — our choice: it shows nothing that page
  does not already show to everyone (progress before publication, rankings after); no sign-in on the
  hall's computer, no token to type into it.
"""

from flask import jsonify, make_response, redirect, render_template, request, url_for

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.view_models.formatting import ordinal
from duplicate.web import bp as public_bp
from duplicate.web import forms, tournament_or_404
from duplicate.web.arbiter import UNPROCESSABLE, bp

POLL_ROOM_MS = 4000
POLL_PROJECTOR_MS = 5000
EXTEND_CHOICES = (1, 2, 5)
CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "stop", "minutes")


def _no_store(response):
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    return response


def _room_page(tournament, error: str | None = None, typed=None, status: int = 200):
    session = get_session()
    room = operations.live_room(session, tournament)
    typed = typed or {}
    return render_template(
        "arbiter/live_room.html", tournament=tournament, room=room, labels=operations.STATUS_LABELS,
        clock=operations.clock_state(operations.find_clock(session, tournament)),
        minutes=operations.minutes_per_board(tournament), extend_choices=EXTEND_CHOICES, ordinal=ordinal,
        error=error, typed_position=typed.get("position"), typed_minutes=typed.get("minutes"),
        poll_ms=POLL_ROOM_MS, published=operations.is_published(tournament),
    ), status


@bp.route("/tournois/<int:tournament_id>/salle")
def live_room(tournament_id: int):
    """The live grid: tables × positions, entered / awaiting confirmation / missing / conflicting."""
    return _room_page(tournament_or_404(tournament_id))


@bp.route("/tournois/<int:tournament_id>/salle.json")
def live_room_json(tournament_id: int):
    """What the grid's script repaints: each cell's and line's status, the late tables, the clock."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    room = operations.live_room(session, tournament)
    cells = {key: {"status": cell["status"], "late": cell["late"], "upcoming": cell["upcoming"],
                   "done": cell["done"], "missing": cell["missing"], "total": cell["total"],
                   "lines": {line["key"]: line["status"] for line in cell["lines"]}}
             for key, cell in room["cells"].items()}
    return _no_store(jsonify(
        position=room["position"], counts=room["counts"], late_tables=room["late_tables"], cells=cells,
        clock=operations.clock_state(operations.find_clock(session, tournament)),
        published=operations.is_published(tournament),
    ))


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
        return _room_page(tournament, "Le formulaire a expiré : recommencez.", request.form, UNPROCESSABLE)
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
            operations.set_minutes_per_board(session, tournament, _whole(request.form.get("minutes")))
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


@public_bp.route("/tournois/<int:tournament_id>/projecteur")
def projector(tournament_id: int):
    """The hall's screen (public): nothing secret before publication (SPEC §11)."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    return _no_store(render_template(
        "public/projector.html", tournament=tournament, data=_projector_data(session, tournament),
        rankings=operations.projector_ranking(session, tournament), ordinal=ordinal, poll_ms=POLL_PROJECTOR_MS,
    ))


@public_bp.route("/tournois/<int:tournament_id>/projecteur.json")
def projector_json(tournament_id: int):
    """The projector's state: position, countdown, next move, progress, ``published`` — never a score."""
    tournament = tournament_or_404(tournament_id)
    return _no_store(jsonify(_projector_data(get_session(), tournament)))
