"""Tournaments: create, list, find; the readiness dashboard; the ranking through the core."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import String, cast
from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.evening import Substitution as CoreSubstitution
from duplicate.core.formats import Format, format_for
from duplicate.core.freeplay.tournament import FREE_KINDS
from duplicate.core.ranking import Penalty as CorePenalty
from duplicate.core.topage import ArbitralNote, Result as CoreResult
from duplicate.core.tournament import Entrant, Tournament as CoreTournament, ranking_output
from duplicate.models import (
    SESSIONS_RANGE, Board, Movement, Penalty, Player, Result, Substitution, Team, TeamMember, Tournament,
    TournamentKind,
)

from ._changes import cached_view
from ._common import NotFound, OperationError, _count, _entrants, _format, lock_row, players, teams
from ._deals import boards, get_movement

def create_tournament(session: Session, *, name: str, kind: str | TournamentKind, date=None, place=None,
                      colour=None, sessions: int = 1, timezone: str | None = None, owner=None,
                      championship: bool = False) -> Tournament:
    """A new tournament (individual, triplettes, quadrettes or team match); ``timezone`` as in
    `set_timezone` (Europe/Paris when not given); ``owner`` the arbiter `User` it belongs to (None: shared
    by every arbiter, `duplicate.operations._access`). ``championship`` (free kinds only, kept in
    ``settings["free_championship"]``, no migration): its ties are broken by art. 29 (SPEC §13, issue 29)."""
    name = (name or "").strip()
    if not name:
        raise OperationError("Le nom du tournoi est obligatoire.", "name")
    if len(name) > 200:
        raise OperationError("Le nom du tournoi est trop long (200 caractères au plus).", "name")
    try:
        kind = TournamentKind(kind)
    except ValueError:
        raise OperationError(f"Formule inconnue « {kind} ».", "kind") from None
    low, high = SESSIONS_RANGE
    if not isinstance(sessions, int) or isinstance(sessions, bool) or not low <= sessions <= high:
        raise OperationError(f"Le nombre de séances doit être un entier entre {low} et {high}.", "sessions")
    if championship and kind.value not in FREE_KINDS:
        raise OperationError("Seul un tournoi en donnes libres se déclare championnat (ex æquo départagés par "
                             "l’article 29).", "championship")
    tournament = Tournament(name=name, kind=kind, date=date, place=(place or "").strip(),
                            colour=(colour or "").strip(), sessions=sessions,
                            extra={"format": interchange.TOURNAMENT_FORMAT},
                            owner_id=owner.id if owner is not None else None)
    if championship:
        tournament.settings = {**(tournament.settings or {}), "free_championship": True}
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
    lock_row(session, tournament)  # the settings as another arbiter may just have saved them
    # a new dict: the JSON column does not see changes made in place
    tournament.settings = {**(tournament.settings or {}), "timezone": name}
    session.add(tournament)
    session.flush()


def list_tournaments(session: Session, *, archived: bool = False) -> list[Tournament]:
    """The tournaments not archived (only the archived ones with ``archived=True``), the most recent
    first (undated ones last)."""
    shown = Tournament.archived_at.is_not(None) if archived else Tournament.archived_at.is_(None)
    return list(session.exec(select(Tournament).where(shown).order_by(Tournament.date.desc().nulls_last(),
                                                                      Tournament.id.desc())).all())


def get_tournament(session: Session, id: int) -> Tournament:
    tournament = session.get(Tournament, id)
    if tournament is None:
        raise NotFound(f"Tournoi n° {id} introuvable.")
    return tournament


# --- dashboard -----------------------------------------------------------------------------------------------

def readiness(session: Session, tournament: Tournament) -> list[tuple[str, bool, str]]:
    """What is ready before play: ``(step, done, French detail)``; steps are keys of `STEP_LABELS`."""
    fmt = _format(tournament)
    if not fmt.has_etuis:
        from ._freeplay import free_readiness

        return free_readiness(session, tournament)
    steps = []
    registered = players(session, tournament)
    n = len(registered)
    steps.append(("players", n >= fmt.players_needed,
                  f"{n} joueur{'s' if n > 1 else ''} inscrit{'s' if n > 1 else ''}"))
    if fmt.has_teams:
        team_rows = teams(session, tournament)
        in_team = _count(session, TeamMember, TeamMember.team_id.in_([t.id for t in team_rows])) if team_rows else 0
        alone = n - in_team
        fewest, most = fmt.entrants_needed
        enough = fewest <= len(team_rows) <= (most or len(team_rows))
        detail = french.counted(len(team_rows), "équipe formée", "équipes formées") + (
            f", {french.counted(alone, 'joueur', 'joueurs')} sans équipe" if alone else "")
        steps.append(("teams", enough and alone == 0, detail))
    entrants = _entrants(session, tournament)
    placed = sum(e.entrant_id is not None for e in entrants)
    steps.append(("draw", bool(entrants) and placed == len(entrants),
                  f"{french.counted(placed, 'placé', 'placés')} sur {len(entrants)}" + (f" (tirage « {tournament.draw_seed} »)"
                                                             if tournament.draw_seed else "")))
    board_rows = boards(session, tournament)
    steps.append(("boards", bool(board_rows), french.counted(len(board_rows), "étui", "étuis") + (
        f", empreinte SHA-256 de la graine {tournament.seed_sha256[:12]}… (à publier avant le tournoi)" if tournament.seed_sha256 else "")))
    dealt = sum(b.hands is not None for b in board_rows)
    steps.append(("deals", bool(board_rows) and dealt == len(board_rows),
                  f"{french.counted(dealt, 'donne connue', 'donnes connues')} sur {len(board_rows)} (sinon, saisie après la première position)"))
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
    # who attacks: a team match's attackers, quarter by quarter; the triplettes' first colour (SPEC §5)
    if fmt.attack_step == "attackers":
        from ._team_match import attackers_step

        steps.append(attackers_step(session, tournament))
    elif fmt.attack_step == "first_colour":
        from ._triplettes import colour_step

        steps.append(colour_step(session, tournament))
    return steps


# --- rankings ------------------------------------------------------------------------------------------------------

def _text(column):
    """A JSON column read as its stored text: compared as is, decoded only when the ranking is computed."""
    return cast(column, String)


_PLAYER = (Player.id, Player.entrant_id, Player.surname, Player.first_name, Player.line, _text(Player.extra),
           Player.out_of_ranking, Player.withdrawn_from)
_TEAM = (Team.id, Team.entrant_id, Team.name, Team.line, Team.bonus, _text(Team.extra))
_RESULT = (Result.board, Result.table, Result.position, Result.taker, _text(Result.defenders), Result.taker_team,
           Result.defence_team, Result.score, Result.annulled, Result.adjusted, _text(Result.notes),
           Result.chelem, Result.contract, Result.quarter, Result.room)
_PENALTY = (Penalty.entrant_id, Penalty.points, Penalty.reason, Penalty.board, _text(Penalty.extra))
_SUBSTITUTION = (Substitution.seat, Substitution.player_id, Substitution.from_position, Substitution.results_to)


def _json(text: str | None):
    """A JSON column's value from its text (SQL NULL and JSON null are both None)."""
    return None if text is None else json.loads(text)


def _ranked_rows(session: Session, tournament: Tournament) -> tuple:
    """Every stored value the ranking depends on, as plain rows (kind; players; teams; members; results;
    penalties; substitutions), in the order of the export."""
    def rows(model, columns, order):
        return tuple(session.execute(select(*columns).where(model.tournament_id == tournament.id)
                                     .order_by(order)).all())

    members = tuple(session.execute(
        select(TeamMember.team_id, TeamMember.player_id).join(Team, Team.id == TeamMember.team_id)
        .where(Team.tournament_id == tournament.id).order_by(TeamMember.team_id, TeamMember.order, TeamMember.id)
    ).all())
    return (TournamentKind(tournament.kind).value, tournament.name, rows(Player, _PLAYER, Player.id),
            rows(Team, _TEAM, Team.id), members, rows(Result, _RESULT, Result.id),
            rows(Penalty, _PENALTY, Penalty.id), rows(Substitution, _SUBSTITUTION, Substitution.id))


def _entrant(ident: str, name: str | None, line: str | None, extra: dict | None, members=(),
             bonus=Decimal(0), out_of_ranking: bool = False, withdrawn_from: int | None = None) -> Entrant:
    """As `core.tournament.load_tournament` reads the exported entry (`interchange.export_tournament`: the
    columns that are set, else what the file had in ``extra``): no name → the id; no line → the id without
    its digits; the evening's marks (SPEC §11) from the columns, else from ``extra``."""
    extra = _json(extra) or {}
    name = name or extra.get("name", ident)
    line = line if line is not None else extra.get("line")
    withdrawn = extra.get("withdrawn")
    if withdrawn_from is None and isinstance(withdrawn, dict):
        withdrawn_from = withdrawn.get("position")
    return Entrant(ident, str(name), str(line or ident.rstrip("0123456789")), tuple(members), bonus,
                   bool(out_of_ranking or extra.get("out_of_ranking")), withdrawn_from)


def _core_result(fmt: Format, row) -> CoreResult:
    (board, table, position, taker, defenders, taker_team, defence_team, score, annulled, adjusted, notes,
     chelem, contract, quarter, room) = row
    defenders, notes = _json(defenders), _json(notes)
    taker, defenders = fmt.result_attack(taker, defenders, taker_team, defence_team)
    contract = fmt.contract_of(contract)
    if notes is not None:
        notes = ArbitralNote(Fraction(str(notes["taker"])), Fraction(str(notes["defence"])))
    return CoreResult(board=board, table=table, taker=taker, defence=tuple(defenders or ()), score=score,
                      position=position, annulled=bool(annulled), adjusted=bool(adjusted), notes=notes,
                      chelem=bool(chelem), contract=contract, quarter=quarter, room=room)


def _int_or_none(value) -> int | None:
    return value if isinstance(value, int) else None  # as the core reads « board »


def _core(tournament: Tournament, ranked_rows: tuple, boards=None, movement=None) -> CoreTournament:
    """The core Tournament from the stored rows: they were checked at the door (`record_result`, the import),
    so nothing is checked again; values are those `load_tournament` reads from the export."""
    kind, name, player_rows, team_rows, member_rows, result_rows, penalty_rows, substitution_rows = ranked_rows
    file_ids = {}
    players = {}
    for id_, entrant_id, surname, first_name, line, extra, out_of_ranking, withdrawn_from in player_rows:
        ident = file_ids[id_] = entrant_id or f"joueur-{id_}"
        players[ident] = _entrant(ident, " ".join(p for p in (surname, first_name) if p), line, extra,
                                  out_of_ranking=out_of_ranking, withdrawn_from=withdrawn_from)
    members: dict[int, list[str]] = {}
    for team_id, player_id in member_rows:
        members.setdefault(team_id, []).append(file_ids[player_id])
    teams = {}
    for id_, entrant_id, team_name, line, bonus, extra in team_rows:
        ident = entrant_id or f"equipe-{id_}"
        bonus = interchange._plain(bonus) if bonus else (_json(extra) or {}).get("bonus", 0)
        teams[ident] = _entrant(ident, team_name, line, extra, members.get(id_, ()), Decimal(str(bonus)))
    penalties = []
    for entrant, points, reason, board, extra in penalty_rows:
        extra = _json(extra) or {}
        penalties.append(CorePenalty(entrant, Fraction(str(interchange._plain(points))),
                                     str(reason if reason is not None else extra.get("reason", "")),
                                     board if board is not None else _int_or_none(extra.get("board"))))
    substitutions = tuple(CoreSubstitution(seat, file_ids[player_id], from_position, results_to)
                          for seat, player_id, from_position, results_to in substitution_rows)
    fmt = format_for(kind)
    return CoreTournament(name or "", kind, players, teams, boards or {},
                          tuple(_core_result(fmt, row) for row in result_rows), tuple(penalties), movement,
                          substitutions)


def to_core(session: Session, tournament: Tournament) -> CoreTournament:
    """The tournament as the rules engine reads it, mapped straight from the rows (the same values as
    `load_tournament` of the SPEC §9 export, without the JSON text in between)."""
    boards = {number: {"number": number} for number in session.exec(
        select(Board.number).where(Board.tournament_id == tournament.id).order_by(Board.id)).all()}
    movement = session.exec(select(Movement.data).where(Movement.tournament_id == tournament.id)).first()
    return _core(tournament, _ranked_rows(session, tournament), boards, movement)


def ranking(session: Session, tournament: Tournament) -> dict:
    """The SPEC §9 ranking output (topage per étui, rankings) of the stored results, computed once per version
    of the tournament's data (`cached_view`). The caller gets its own top-level dict; the nested lists and
    dicts are shared with the cache and must not be modified."""
    def compute(session: Session, tournament: Tournament) -> dict:
        rows = _ranked_rows(session, tournament)
        # a substitute's results are placed by position, which the movement gives when a result lacks one
        movement = session.exec(select(Movement.data).where(Movement.tournament_id == tournament.id)).first() \
            if rows[-1] else None
        return ranking_output(_core(tournament, rows, movement=movement))
    return dict(cached_view(session, tournament, "ranking", compute))
