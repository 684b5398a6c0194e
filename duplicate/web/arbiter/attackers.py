"""Who attacks, on the screens (on the ``arbiter`` blueprint): triplette badges (SPEC §5) — the arbiter's
draw of the first attacking colour (« Équipes »), and ``attack_plan(tournament)`` for every template (the
team list, the fiche entry, the route sheets) to show each member's badge and who of a triplette attacks
an étui (`operations.triplette_plan`, computed once per version of the tournament's data); and
``quadrette_attackers(tournament)``, the quadrettes' members for the attacker chosen at entry.
"""

from flask import flash, redirect, request, url_for

from duplicate import operations
from duplicate.core.triplettes import COLOURS
from duplicate.db import get_session
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.auth import current_user
from duplicate.web.forms import ActionForm
from duplicate.web.submit import act


@bp.app_template_global("attack_plan")
def attack_plan(tournament) -> operations.TriplettePlan:
    """The tournament's badges and attackers (empty outside the triplettes)."""
    return operations.triplette_plan(get_session(), tournament)


@bp.app_template_global("quadrette_attackers")
def quadrette_attackers(tournament) -> dict:
    """Each quadrette's members and usual attacker, for the fiche entry (`operations.quadrette_attackers`)."""
    return operations.quadrette_attackers(get_session(), tournament)


@bp.app_template_global("badge_colours")
def badge_colours() -> tuple[str, ...]:
    return COLOURS


@bp.post("/tournois/<int:tournament_id>/equipes/premiere-couleur")
def first_colour(tournament_id: int):
    """The colour the arbiter drew for the first attacker of every triplette."""
    tournament = tournament_or_404(tournament_id)
    back = url_for("arbiter.teams", tournament_id=tournament.id)
    if not ActionForm().validate_on_submit():
        flash("Le formulaire a expiré : choisissez de nouveau la couleur.", "error")
        return redirect(back)
    return act(
        lambda: operations.draw_colour(get_session(), tournament, request.form.get("colour", ""),
                                       who=current_user().username),
        lambda _: (f"Premier attaquant de chaque triplette : badge {request.form['colour']}.", back),
        lambda _: redirect(back),  # refused: flashed on the teams page
    )
