"""The arbiter's team match screens (on the ``arbiter`` blueprint), issue 15 point 3, SPEC §6–§7:

* « Match » — the PM bonus of each team (before the match), and per quarter the étui series (chosen by
  attacker A in the 1st and 3rd quarters, B in the 2nd and 4th), the rooms (which team's attacker plays
  in the open room, chosen by team A then B) and each team's attacker; one form per quarter, each saved
  on its own (`operations.set_quarter`, `operations.set_bonus`: journalled, refused in French when the
  results entered say otherwise — the page then answers 422 with what was typed);
* « Feuille de marque » — per quarter, both rooms side by side, the PM per étui and the running PM total;
  the same data printed as a PDF (`printing.team_sheet`).
"""

from flask import Response, abort, flash, redirect, render_template, request, url_for
from wtforms import SelectField, StringField

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.printing import team_sheet
from duplicate.web import form_conflicts, forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import submit
from duplicate.web.auth import current_user


class BonusForm(forms.FrenchForm, form_conflicts.Guarded):
    bonus_A = StringField("Bonus de l’équipe A (PM)")
    bonus_B = StringField("Bonus de l’équipe B (PM)")


class QuarterForm(forms.FrenchForm, form_conflicts.Guarded):
    boards = StringField("Série d’étuis")
    open_attack = SelectField("Attaquant en salle ouverte", choices=forms.choices({"A": "celui de l’équipe A",
                                                                                  "B": "celui de l’équipe B"}))
    attacker_A = SelectField("Attaquant de l’équipe A", coerce=str)
    attacker_B = SelectField("Attaquant de l’équipe B", coerce=str)


def _team_match(tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    if not tournament.format.has_team_match_pages:  # a team match's page (quarters, rooms, bonus: SPEC §7)
        abort(404)
    return tournament


def _quarter_values(quarter: dict) -> dict:
    """What a quarter's form shows (its data, and `form_conflicts.guard`'s values)."""
    number = quarter["number"]
    attackers = quarter["attackers"]
    return {"boards": _series_text(quarter["boards"]),
            "open_attack": quarter["open_attack"] or ("A" if number % 2 else "B"),
            "attacker_A": str(attackers["A"].id) if attackers["A"] else "",
            "attacker_B": str(attackers["B"].id) if attackers["B"] else ""}


def _bonus_values(teams: dict) -> dict:
    return {"bonus_A": _bonus_text(teams.get("A")), "bonus_B": _bonus_text(teams.get("B"))}


def _fresh_plan(tournament) -> dict:
    """The plan read again (called with the tournament's row locked, `form_conflicts.guard`): what the other
    arbiter may have saved since the page's first read, not the objects that read kept."""
    session = get_session()
    session.expire_all()
    return operations.team_match_plan(session, tournament)


def _quarter_form(plan: dict, quarter: dict, formdata=None) -> QuarterForm:
    number = quarter["number"]
    form = QuarterForm(formdata=formdata, prefix=f"q{number}", data=_quarter_values(quarter))
    if formdata is None:
        form_conflicts.note_shown(form, _quarter_values(quarter))
    for team in ("A", "B"):
        getattr(form, f"attacker_{team}").choices = forms.choices(
            {"": "— à choisir —", **{str(p.id): p.name for p in plan["members"].get(team, [])}})
    return form


def _bonus_text(team) -> str:
    """A bonus as typed: « 2,5 », « 0 »."""
    text = french.number(team.bonus if team is not None else 0, 3)
    return text.rstrip("0").rstrip(",") if "," in text else text


def _series_text(boards: list[int]) -> str:
    """« 1-5 » for a run, else « 1, 3, 5 »."""
    if boards and boards == list(range(boards[0], boards[-1] + 1)) and len(boards) > 1:
        return f"{boards[0]}-{boards[-1]}"
    return ", ".join(str(b) for b in boards)


@bp.route("/tournois/<int:tournament_id>/match", methods=["GET", "POST"])
def team_match(tournament_id: int):
    """The bonus and the four quarters' settings."""
    tournament = _team_match(tournament_id)
    session = get_session()
    plan = operations.team_match_plan(session, tournament)
    which = request.form.get("form") if request.method == "POST" else None
    which = which if which in ("bonus", *(f"q{q}" for q in operations.TEAM_MATCH_QUARTERS)) else None
    if request.method == "POST" and which is None:
        flash("Formulaire inconnu : recommencez.", "error")
        return redirect(url_for("arbiter.team_match", tournament_id=tournament.id))
    teams = plan["teams"]
    bonus_form = BonusForm(formdata=request.form if which == "bonus" else None, data=_bonus_values(teams))
    if which != "bonus":
        form_conflicts.note_shown(bonus_form, _bonus_values(teams))
    quarter_forms = {q["number"]: _quarter_form(plan, q, request.form if which == f"q{q['number']}" else None)
                     for q in plan["quarters"]}
    who = current_user().username
    def page(status):
        return render_template("arbiter/team_match.html", tournament=tournament, plan=plan, bonus_form=bonus_form,
                               quarter_forms=quarter_forms, which=which), status

    if which == "bonus":
        return submit(
            bonus_form,
            lambda: operations.set_bonus(session, tournament,
                                         {"A": bonus_form.bonus_A.data, "B": bonus_form.bonus_B.data}, who=who),
            lambda _: ("Bonus enregistré.", url_for("arbiter.team_match", tournament_id=tournament.id)),
            page,
            valid=form_conflicts.guard(bonus_form, tournament, lambda row: _bonus_values(_fresh_plan(row)["teams"])),
        )
    if which:  # a quarter's form
        number = int(which[1:])
        form = quarter_forms[number]
        return submit(
            form,
            lambda: operations.set_quarter(
                session, tournament, number, boards=operations.parse_series(form.boards.data),
                open_attack=form.open_attack.data,
                attackers={team: int(getattr(form, f"attacker_{team}").data)
                           if getattr(form, f"attacker_{team}").data else None for team in ("A", "B")},
                who=who),
            lambda _: (f"{plan['quarters'][number - 1]['ordinal']} quart temps enregistré.",
                       url_for("arbiter.team_match", tournament_id=tournament.id) + f"#quart-{number}"),
            page,
            valid=form_conflicts.guard(form, tournament,
                                       lambda row: _quarter_values(_fresh_plan(row)["quarters"][number - 1])),
        )
    return page(200)


@bp.route("/tournois/<int:tournament_id>/match/feuille")
def team_match_sheet(tournament_id: int):
    """The score sheet per quarter: both rooms side by side, the running PM total."""
    tournament = _team_match(tournament_id)
    page = team_sheet.view(operations.team_match_sheet(get_session(), tournament), tournament)
    return render_template("arbiter/team_match_sheet.html", tournament=tournament, page=page)


@bp.route("/tournois/<int:tournament_id>/match/feuille.pdf")
def team_match_sheet_pdf(tournament_id: int):
    """The score sheet on paper (A4 landscape), to be signed by the captains and the arbiter."""
    tournament = _team_match(tournament_id)
    page = team_sheet.view(operations.team_match_sheet(get_session(), tournament), tournament)
    return Response(team_sheet.pdf(page), mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="tournoi-{tournament.id}-feuille-de-marque.pdf"'})
