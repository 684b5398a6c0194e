"""The arbiter's screens, under ``/arbitre`` (`blueprints.arbiter`): its guards, and the tournaments (list,
creation, dashboard, publication, time zone). The other screens register on the same blueprint, one module
per concern (`duplicate.web.arbiter`): ``registration`` (players, teams, draw), ``boards`` (étuis),
``movement``, ``interchange`` (import and export), ``players`` (the evening's changes), ``results``,
``journal``, ``tables``, ``accounts``, ``live``; free play's in `duplicate.web.freeplay.arbiter`.

Every view requires a signed-in arbiter (`arbiter_required`), and one with a ``tournament_id`` an arbiter
who manages that tournament (`auth.tournament_for_arbiter`: its owner, a co-arbiter, any arbiter for a
shared one).

Each view parses its form, calls one operation (`duplicate.operations`) and renders or redirects. An
`OperationError` is shown next to the field it names (or above the form) and the page answers 422, so
that the request's session rolls back whatever the operation had flushed: a refused form changes nothing.
"""

from flask import redirect, render_template, request, url_for

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.web import form_conflicts, forms
from duplicate.web.auth import arbiter_required, check_tournament, current_user, tournament_for_arbiter
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.lookups import tournament_or_404
from duplicate.web.submit import act, submit
from duplicate.web.freeplay.guard import serves_free_play


@bp.before_request
@arbiter_required
def require_arbiter():
    """Every page of this blueprint is for arbiters only."""


bp.before_request(check_tournament(tournament_for_arbiter))  # and a tournament's pages for its arbiters


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
    return submit(
        form,
        lambda: operations.create_tournament(
            get_session(), name=form.name.data, kind=form.kind.data, date=form.date.data,
            place=form.place.data or "", colour=form.colour.data or "", sessions=form.sessions.data,
            timezone=form.timezone.data, owner=current_user(), championship=bool(form.championship.data),
        ),
        lambda tournament: (f"Tournoi « {tournament.name} » créé.",
                            url_for("arbiter.dashboard", tournament_id=tournament.id)),
        lambda status: (render_template("arbiter/tournament_form.html", form=form), status),
    )


# Where each step of `operations.readiness` and `operations.next_step` is done (``#``: a part of the page).
STEP_ENDPOINTS = {
    "players": "arbiter.players",
    "teams": "arbiter.teams",
    "draw": "arbiter.draw",
    "boards": "arbiter.boards",
    "deals": "arbiter.boards",
    "movement": "arbiter.movement",
    "free_movement": "arbiter.free_movement",
    "free_sheets": "arbiter.free_sheets",
    "attackers": "arbiter.team_match",
    "first_colour": "arbiter.teams",
    "launch": "arbiter.live_room",
    "results": "scoring.overview",
    "publish": "arbiter.dashboard#publication",
}


@bp.app_template_global("step_url")
def step_url(tournament, step: str) -> str:
    """Where the arbiter does ``step`` of ``tournament`` (`STEP_ENDPOINTS`)."""
    endpoint, _, anchor = STEP_ENDPOINTS[step].partition("#")
    return url_for(endpoint, tournament_id=tournament.id, _anchor=anchor or None)


@bp.route("/tournois/<int:tournament_id>/")
@serves_free_play
def dashboard(tournament_id: int, timezone_form=None, status: int = 200):
    """What is ready and what is missing, from `operations.readiness`, with a link to each step; the next
    step (`operations.next_step`, from the same steps)."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    steps = operations.readiness(session, tournament)
    if timezone_form is None:
        timezone_form = forms.TimezoneForm(formdata=None, timezone=french.timezone_of(tournament))
        form_conflicts.note_shown(timezone_form, _timezone_values(tournament))
    return render_template(
        "arbiter/dashboard.html", tournament=tournament, steps=steps, step_labels=operations.STEP_LABELS,
        all_ready=all(done for _, done, _ in steps), next_step=operations.next_step(session, tournament, steps),
        published=operations.is_published(tournament), completeness=operations.completeness(session, tournament),
        publish_form=forms.ActionForm(),
        timezone_form=timezone_form,
    ), status


@bp.route("/tournois/<int:tournament_id>/publication", methods=["POST"])
@serves_free_play
def publish(tournament_id: int):
    """« Publier les résultats » (``publier=1``) or « Retirer la publication » (``publier=0``), SPEC §11."""
    tournament = tournament_or_404(tournament_id)
    published = request.form.get("publier") == "1"
    back = url_for("arbiter.dashboard", tournament_id=tournament.id)
    return act(
        lambda: operations.publish(get_session(), tournament, published, current_user().username),
        lambda _: ("Résultats publiés : le public voit les scores et les classements." if published else
                   "Publication retirée : le public ne voit plus que l’avancée de la saisie.", back),
        lambda _: redirect(back),  # the form expired: flashed on the dashboard
        valid=forms.ActionForm().validate_on_submit() and request.form.get("publier") in ("0", "1"),
    )


@bp.route("/tournois/<int:tournament_id>/fuseau", methods=["POST"])
@serves_free_play
def set_timezone(tournament_id: int):
    """Change the time zone the tournament's times are shown in."""
    tournament = tournament_or_404(tournament_id)
    form = forms.TimezoneForm()
    return submit(
        form,
        lambda: operations.set_timezone(get_session(), tournament, form.timezone.data),
        lambda _: (f"Fuseau horaire : {form.timezone.data}.", url_for("arbiter.dashboard", tournament_id=tournament.id)),
        lambda status: dashboard(tournament_id, form, status),
        valid=form_conflicts.guard(form, tournament, _timezone_values),
    )


def _timezone_values(tournament) -> dict:
    """What the time-zone form shows of the stored tournament (`form_conflicts.guard`)."""
    return {"timezone": french.timezone_of(tournament)}
