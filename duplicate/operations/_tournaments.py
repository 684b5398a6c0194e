"""Tournaments: create, list, find; the readiness dashboard; the ranking through the core."""

from __future__ import annotations

import json

from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.tournament import Tournament as CoreTournament, load_tournament, ranking_output
from duplicate.models import TeamMember, Tournament, TournamentKind

from ._common import TEAM_SIZES, NotFound, OperationError, _count, _entrants, _kind, players, teams
from ._deals import boards, get_movement

def create_tournament(session: Session, *, name: str, kind: str | TournamentKind, date=None, place=None,
                      colour=None, sessions: int = 1, timezone: str | None = None) -> Tournament:
    """A new tournament (individual, triplettes, quadrettes or team match); ``timezone`` as in
    `set_timezone` (Europe/Paris when not given)."""
    name = (name or "").strip()
    if not name:
        raise OperationError("Le nom du tournoi est obligatoire.", "name")
    if len(name) > 200:
        raise OperationError("Le nom du tournoi est trop long (200 caractères au plus).", "name")
    try:
        kind = TournamentKind(kind)
    except ValueError:
        raise OperationError(f"Formule inconnue « {kind} ».", "kind") from None
    if not isinstance(sessions, int) or isinstance(sessions, bool) or not 1 <= sessions <= 20:
        raise OperationError("Le nombre de séances doit être un entier entre 1 et 20.", "sessions")
    tournament = Tournament(name=name, kind=kind, date=date, place=(place or "").strip(),
                            colour=(colour or "").strip(), sessions=sessions,
                            extra={"format": interchange.TOURNAMENT_FORMAT})
    if timezone is not None:
        set_timezone(session, tournament, timezone)
    session.add(tournament)
    session.flush()
    return tournament


def set_timezone(session: Session, tournament: Tournament, name: str) -> None:
    """The time zone the tournament's times are shown in (SPEC §11), an IANA name such as
    « Europe/Paris » or « Indian/Reunion »; stored in ``settings["timezone"]``.  Times are stored in UTC;
    a tournament without this setting shows them in Europe/Paris (`duplicate.french.timezone_of`)."""
    name = (name or "").strip()
    if not french.valid_timezone(name):
        raise OperationError(f"Fuseau horaire inconnu « {name} » (par exemple Europe/Paris).", "timezone")
    # a new dict: the JSON column does not see changes made in place
    tournament.settings = {**(tournament.settings or {}), "timezone": name}
    session.add(tournament)
    session.flush()


def list_tournaments(session: Session) -> list[Tournament]:
    """Every tournament, the most recent first (undated ones last)."""
    return list(session.exec(select(Tournament).order_by(Tournament.date.desc().nulls_last(),
                                                         Tournament.id.desc())).all())


def get_tournament(session: Session, id: int) -> Tournament:
    tournament = session.get(Tournament, id)
    if tournament is None:
        raise NotFound(f"Tournoi n° {id} introuvable.")
    return tournament


# --- dashboard -----------------------------------------------------------------------------------------------

def readiness(session: Session, tournament: Tournament) -> list[tuple[str, bool, str]]:
    """What is ready before play: ``(step, done, French detail)``; steps are keys of `STEP_LABELS`."""
    kind = _kind(tournament)
    steps = []
    registered = players(session, tournament)
    n = len(registered)
    steps.append(("players", n >= (4 if kind is TournamentKind.individual else 2 * TEAM_SIZES[kind][0]),
                  f"{n} joueur{'s' if n > 1 else ''} inscrit{'s' if n > 1 else ''}"))
    if kind is not TournamentKind.individual:
        team_rows = teams(session, tournament)
        in_team = _count(session, TeamMember, TeamMember.team_id.in_([t.id for t in team_rows])) if team_rows else 0
        alone = n - in_team
        enough = len(team_rows) == 2 if kind is TournamentKind.team_match else len(team_rows) >= 2
        detail = f"{len(team_rows)} équipe(s) formée(s)" + (f", {alone} joueur(s) sans équipe" if alone else "")
        steps.append(("teams", enough and alone == 0, detail))
    entrants = _entrants(session, tournament)
    placed = sum(e.entrant_id is not None for e in entrants)
    steps.append(("draw", bool(entrants) and placed == len(entrants),
                  f"{placed} placé(s) sur {len(entrants)}" + (f" (tirage « {tournament.draw_seed} »)"
                                                             if tournament.draw_seed else "")))
    board_rows = boards(session, tournament)
    steps.append(("boards", bool(board_rows), f"{len(board_rows)} étui(s)" + (
        f", graine publiée {tournament.seed_sha256[:12]}…" if tournament.seed_sha256 else "")))
    dealt = sum(b.hands is not None for b in board_rows)
    steps.append(("deals", bool(board_rows) and dealt == len(board_rows),
                  f"{dealt} donne(s) connue(s) sur {len(board_rows)} (sinon, saisie après la première position)"))
    movement = get_movement(session, tournament)
    if movement is None:
        steps.append(("movement", False, "aucun mouvement choisi"))
    else:
        needed = {int(b) for r in movement.data.get("rounds", []) for b in r.get("boards", [])}
        missing = sorted(needed - {b.number for b in board_rows})
        detail = f"{movement.data.get('tables', '?')} tables, {movement.data.get('positions', '?')} positions"
        if missing:
            detail += f" ; étuis manquants : {', '.join(map(str, missing[:10]))}{'…' if len(missing) > 10 else ''}"
        steps.append(("movement", not missing, detail))
    return steps


# --- rankings ------------------------------------------------------------------------------------------------------

def to_core(session: Session, tournament: Tournament) -> CoreTournament:
    """The tournament as the rules engine reads it: the SPEC §9 file through `load_tournament`."""
    return load_tournament(json.dumps(interchange.export_tournament(session, tournament)))


def ranking(session: Session, tournament: Tournament) -> dict:
    """The SPEC §9 ranking output (topage per étui, rankings), recomputed from the stored results."""
    return ranking_output(to_core(session, tournament))
