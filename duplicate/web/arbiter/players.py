"""The arbiter's « Changements » screens (on the ``arbiter`` blueprint), SPEC §11: edit a player at any
time, add a late arrival, add a fill-in player (« joueur de complément », hors classement), record a withdrawal (art. 27), name
a substitute from a position on, give a lateness penalty (art. 26), archive, restore or delete a tournament.

Each form calls one operation of `duplicate.operations._evening`, which journals the change; a refused form
is shown again with what was typed and its French error, and answers 422 so that nothing is kept.
"""

from flask import abort, render_template, url_for
from wtforms import RadioField, SelectField, StringField
from wtforms.validators import InputRequired, Optional

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.web import form_conflicts, forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import act, submit
from duplicate.web.auth import current_user
from duplicate.web.freeplay.guard import serves_free_play

WHOLE = "Indiquez un nombre entier."


class WithdrawalForm(forms.FrenchForm):
    player_id = SelectField("Joueur", coerce=int, validators=[InputRequired(message=forms.REQUIRED)])
    position = forms.NumberField("Position où il quitte le tournoi", whole=True,
                                 validators=[InputRequired(message=WHOLE)])


class SubstituteForm(forms.PlayerForm):
    seat = SelectField("Joueur remplacé", validators=[InputRequired(message=forms.REQUIRED)])
    from_position = forms.NumberField("À partir de la position", whole=True, validators=[InputRequired(message=WHOLE)])
    results_to = RadioField("Résultats de la place à partir de cette position",
                            choices=forms.choices(operations.RESULTS_TO_LABELS), default="player",
                            validators=[InputRequired(message=forms.REQUIRED)])


class LatenessForm(forms.FrenchForm):
    entrant_id = SelectField("Participant", validators=[InputRequired(message=forms.REQUIRED)])
    minutes = forms.NumberField("Retard (minutes)", whole=True, validators=[InputRequired(message=WHOLE)])
    points_per_step = forms.NumberField(
        "Points par tranche de 5 minutes commencée", default=1, validators=[forms.needed()],
        description="Points de pourcentage retirés du % global (art. 26 : 1 par défaut).")


class LateArrivalForm(forms.PlayerForm):
    """A late arrival (its own class: `_forms` tells the page's forms apart by class)."""


class DeleteForm(forms.FrenchForm):
    confirm_name = StringField("Recopiez le nom du tournoi", validators=[Optional()])


def _who() -> str:
    return current_user().username


def _entrant_choices(session, tournament):
    """The placed players, substitutes excepted (a penalty or a substitute is for a seat); the placed
    teams outside the individual."""
    if tournament.format.has_teams:
        return [forms.SelectChoice(t.entrant_id, f"{french.place_label(t.entrant_id)} — {t.name}")
                for t in operations.teams(session, tournament) if t.entrant_id]
    substitutes = {s.player_id for s in operations.substitutions(session, tournament)}
    placed = [p for p in operations.players(session, tournament) if p.entrant_id and p.id not in substitutes]
    return [forms.SelectChoice(p.entrant_id, f"{french.place_label(p.entrant_id)} — {p.name}")
            for p in sorted(placed, key=lambda p: (len(p.entrant_id), p.entrant_id))]


def _withdrawal_choices(session, tournament):
    return [forms.SelectChoice(p.id, f"{french.place_label(p.entrant_id)} — {p.name}")
            for p in operations.players(session, tournament)
            if p.entrant_id and p.withdrawn_from is None]


FORMS = {"fill_in": forms.PlayerForm, "late": LateArrivalForm, "withdrawal": WithdrawalForm, "substitute": SubstituteForm,
         "lateness": LatenessForm}


def _with_choices(form, tournament):
    session = get_session()
    if isinstance(form, WithdrawalForm):
        form.player_id.choices = _withdrawal_choices(session, tournament)
    elif isinstance(form, SubstituteForm):
        form.seat.choices = _entrant_choices(session, tournament)
    elif isinstance(form, LatenessForm):
        form.entrant_id.choices = _entrant_choices(session, tournament)
    return form


def _forms(tournament, submitted=None):
    """The page's forms; ``submitted`` is the one posted (it keeps what was typed), the others are blank."""
    return {name: submitted if submitted is not None and type(submitted) is cls
            else _with_choices(cls(prefix=name, formdata=None), tournament)
            for name, cls in FORMS.items()}


def _render(tournament, submitted=None, status=200):
    session = get_session()
    substitutes = {s.player_id: s for s in operations.substitutions(session, tournament)}
    return render_template(
        "arbiter/evening.html", tournament=tournament, players=operations.players(session, tournament),
        substitutes=substitutes, seats_replaced={s.seat: s for s in substitutes.values()},
        names={p.id: p.name for p in operations.players(session, tournament)},
        results_to=operations.RESULTS_TO_LABELS, action_form=forms.ActionForm(prefix="action"),
        **_forms(tournament, submitted)), status


@bp.route("/tournois/<int:tournament_id>/changements")
def evening(tournament_id: int):
    """Players with their evening status, and the forms of the evening's changes."""
    return _render(tournament_or_404(tournament_id))


def _posted(tournament, cls, prefix, operation, done):
    """Validate the posted form ``cls``, call ``operation(form)``; redirect with ``done(result)`` or show again."""
    form = _with_choices(cls(prefix=prefix), tournament)
    return submit(
        form,
        lambda: operation(form),
        lambda result: (done(result), url_for("arbiter.evening", tournament_id=tournament.id)),
        lambda status: _render(tournament, form, status),  # posted: 422
    )


def _player_values(player) -> dict:
    """What the player's form shows of the stored player (`form_conflicts.guard`)."""
    return {"licence": player.licence, "surname": player.surname, "first_name": player.first_name,
            "club": player.club}


def _player_fields(form) -> dict:
    return {"licence": form.licence.data, "surname": form.surname.data, "first_name": form.first_name.data,
            "club": form.club.data}


@bp.route("/tournois/<int:tournament_id>/changements/complement", methods=["POST"])
def add_fill_in(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    return _posted(tournament, forms.PlayerForm, "fill_in",
                   lambda form: operations.add_fill_in_player(get_session(), tournament, who=_who(),
                                                              **_player_fields(form)),
                   lambda player: f"{player.name} inscrit comme joueur de complément (hors classement).")


@bp.route("/tournois/<int:tournament_id>/changements/arrivee-en-retard", methods=["POST"])
def add_late(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    return _posted(tournament, LateArrivalForm, "late",
                   lambda form: operations.add_late_player(get_session(), tournament, who=_who(),
                                                           **_player_fields(form)),
                   lambda player: f"{player.name} placé en {french.place_label(player.entrant_id)} (arrivée en retard).")


@bp.route("/tournois/<int:tournament_id>/changements/forfait", methods=["POST"])
def withdraw(tournament_id: int):
    tournament = tournament_or_404(tournament_id)

    def withdrawal(form):
        player = operations.get_player(get_session(), tournament, form.player_id.data)
        return operations.withdraw_player(get_session(), tournament, player, position=form.position.data, who=_who())

    return _posted(tournament, WithdrawalForm, "withdrawal", withdrawal,
                   lambda player: f"{player.name} a quitté le tournoi à la position {player.withdrawn_from} : "
                                  "il est classé dernier.")


@bp.route("/tournois/<int:tournament_id>/joueurs/<int:player_id>/annuler-forfait", methods=["POST"])
def cancel_withdrawal(tournament_id: int, player_id: int):
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    return act(
        lambda: operations.cancel_withdrawal(session, tournament, operations.get_player(session, tournament, player_id),
                                             who=_who()),
        lambda player: (f"Forfait de {player.name} annulé.", url_for("arbiter.evening", tournament_id=tournament.id)),
        lambda status: _render(tournament, status=status),
        not_found=True,
    )


@bp.route("/tournois/<int:tournament_id>/changements/remplacant", methods=["POST"])
def substitute(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    return _posted(tournament, SubstituteForm, "substitute",
                   lambda form: operations.name_substitute(
                       get_session(), tournament, seat=form.seat.data, from_position=form.from_position.data,
                       results_to=form.results_to.data, who=_who(), **_player_fields(form)),
                   lambda row: f"Remplaçant de {french.place_label(row.seat)} enregistré à partir de la position {row.from_position}.")


@bp.route("/tournois/<int:tournament_id>/changements/retard", methods=["POST"])
def lateness(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    return _posted(tournament, LatenessForm, "lateness",
                   lambda form: operations.lateness_penalty(
                       get_session(), tournament, entrant_id=form.entrant_id.data, minutes=form.minutes.data,
                       points_per_step=form.points_per_step.data, who=_who()),
                   lambda penalty: f"Pénalité de retard donnée à {french.place_label(penalty.entrant_id)}.")


@bp.route("/tournois/<int:tournament_id>/joueurs/<int:player_id>", methods=["GET", "POST"])
@serves_free_play
def edit_player(tournament_id: int, player_id: int):
    """Edit a player's name, licence, club — at any time; the place (entrant id) stays."""
    tournament = tournament_or_404(tournament_id)
    session = get_session()
    try:
        player = operations.get_player(session, tournament, player_id)
    except operations.NotFound:
        abort(404)
    form = forms.PlayerEditForm(obj=player)
    return submit(
        form,
        lambda: operations.edit_player(session, tournament, player, who=_who(), **_player_fields(form)),
        lambda _: (f"Joueur {player.name} enregistré.", url_for("arbiter.evening", tournament_id=tournament.id)),
        lambda status: (render_template("arbiter/player_edit.html", tournament=tournament, player=player, form=form),
                        status),
        valid=form_conflicts.guard(form, player, _player_values),
    )


# --- archive, restore, delete -------------------------------------------------------------------------------

@bp.route("/archives")
def archives():
    """The archived tournaments, each with its « Restaurer » button."""
    session = get_session()
    return render_template("arbiter/archives.html", tournaments=operations.visible_tournaments(
                               session, current_user(), operations.list_tournaments(session, archived=True)),
                           action_form=forms.ActionForm(prefix="action"))


def _tournament_action(tournament_id: int, operation, done: str, target: str):
    tournament = tournament_or_404(tournament_id)  # the CSRF token is checked app-wide (CSRFProtect)
    return act(
        lambda: operation(get_session(), tournament, who=_who()),
        lambda _: (done, url_for(target)),
        lambda status: _render(tournament, status=status),
    )


@bp.route("/tournois/<int:tournament_id>/archiver", methods=["POST"])
@serves_free_play
def archive(tournament_id: int):
    return _tournament_action(tournament_id, operations.archive_tournament,
                              "Tournoi archivé : il reste consultable depuis les archives.", "arbiter.tournaments")


@bp.route("/tournois/<int:tournament_id>/restaurer", methods=["POST"])
@serves_free_play
def restore(tournament_id: int):
    return _tournament_action(tournament_id, operations.restore_tournament, "Tournoi sorti des archives.",
                              "arbiter.tournaments")


@bp.route("/tournois/<int:tournament_id>/supprimer", methods=["GET", "POST"])
@serves_free_play
def delete(tournament_id: int):
    """A confirmation screen that offers the export first; the name must be typed again."""
    tournament = tournament_or_404(tournament_id)
    form = DeleteForm()
    name = tournament.name
    return submit(
        form,
        lambda: operations.delete_tournament(get_session(), tournament, confirm_name=form.confirm_name.data),
        lambda _: (f"Tournoi « {name} » supprimé.", url_for("arbiter.tournaments")),
        lambda status: (render_template("arbiter/tournament_delete.html", tournament=tournament, form=form), status),
    )
