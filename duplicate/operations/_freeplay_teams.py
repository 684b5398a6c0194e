"""Team free play in the database (issue 16, point 5): the libre duo and the libre par 4 seated by the
core's team movement. Below `_freeplay` (which seats, exports and checks the teams through it) and
`_freeplay_extras` (which re-exports it as ``operations.freeplay_extras``).

* **Teams** (`seat_free_teams`): the teams are formed on the « Équipes » screen (the triplettes' and
  quadrettes' one, `_entrants.form_team`); every registered player must be in one. The movement is the
  core's `core.freeplay.movements.team_movement` (booklet p. 21: teammates « commencent à la même table.
  Cependant ils ne jouent pas la première position et passent directement à la deuxième »), for libre par 4
  by default. **Libre par 4 in « 4 tournois en parallèle »** (booklet p. 21, « dans la mesure où le nombre
  d'équipes est multiple de 4 »): the arbiter's other choice (``mode="parallel"``), the core's
  `parallel_movement` — member k of every team (the team's order) in tournament A, B, C or D, tables
  numbered on through the room (A 1…t, B t + 1…2t…), a player's id his first seat (``N5``), the team ids
  ``T1``…``Tn`` in the draw's order; the movement keeps ``"parallel": {"tables": t}``, which gives each
  tournament its own individual ranking (`rank_free`). Duos: 2 a table (N–S
  ``NS<t>``, E–W ``EW<t>``), so an even number of duos; teams of 4: one a table (``T<t>``); 4 tables at
  least. The teams take the core's team places in the draw's SHA-256 order of a seed (`drawn_order`), their
  members the team's seats in the team's order. A player's id is the seat of the position the team skips
  (``N1``, ``S1``…): his starting table, where he meets his teammates before the first move.
"""

from __future__ import annotations

import secrets

from sqlmodel import Session

from duplicate import french
from duplicate.core.freeplay.movements import (
    HOWELL, PARALLEL_LETTERS, MovementError, fft_moves, movement_to_dict, parallel_movement, team_movement,
)
from duplicate.models import FreeSheet, Movement, Tournament

from ._common import OperationError, _count, _format, players, teams
from ._deals import put_movement
from ._entrants import _place, drawn_order, team_members
from ._journal import journal

#: Libre par 4's two movements (booklet p. 21), as the arbiter's choice names them.
TEAM4_MODES = {"same_table": "Équipes à la même table", "parallel": "4 tournois en parallèle"}


def _team_kind(tournament: Tournament) -> None:
    fmt = _format(tournament)
    if fmt.has_etuis or not fmt.has_teams:
        raise OperationError("Ce tournoi n’est pas un tournoi libre par équipes.")


def team_rows(session: Session, tournament: Tournament) -> list[tuple]:
    """(Team, [members in the team's order]) for every team of the tournament."""
    return [(team, team_members(session, team)) for team in teams(session, tournament)]


# --- teams: movement and seating ------------------------------------------------------------------------

def seat_free_teams(session: Session, tournament: Tournament, *, seed: str | None = None,
                    positions: int | None = None, who: str | None = None, mode: str | None = None) -> Movement:
    """The team movement and the teams' and players' places (module docstring); ``mode`` (libre par 4
    only): ``"same_table"`` (default) or ``"parallel"`` (`TEAM4_MODES`)."""
    _team_kind(tournament)
    fmt = _format(tournament)
    mode = mode or "same_table"
    if mode not in TEAM4_MODES:
        raise OperationError("Mouvement inconnu : « équipes à la même table » ou « 4 tournois en parallèle ».", "mode")
    if mode == "parallel" and fmt.id != "free_team4":
        raise OperationError("Les 4 tournois en parallèle sont prévus pour le libre par 4.", "mode")
    if _count(session, FreeSheet, FreeSheet.tournament_id == tournament.id):
        raise OperationError("Des feuilles de marque sont déjà saisies : on ne peut plus changer le mouvement.")
    rows = team_rows(session, tournament)
    in_team = {player.id for _, members in rows for player in members}
    alone = [p for p in players(session, tournament) if p.id not in in_team]
    if alone:
        raise OperationError(f"{french.counted(len(alone), 'joueur', 'joueurs')} sans équipe ({', '.join(p.name for p in alone[:3])}"
                             f"{'…' if len(alone) > 3 else ''}) : formez toutes les équipes d’abord (écran « Équipes »).")
    size = fmt.team_size[0]
    if any(len(members) != size for _, members in rows):
        raise OperationError(f"Chaque équipe a {size} joueurs.")
    per_table = 4 // size
    if len(rows) % per_table:
        raise OperationError(f"{len(rows)} équipes : en libre duo, deux équipes par table, il en faut un nombre pair.")
    parallel = mode == "parallel"
    tables = len(rows) // 4 if parallel else len(rows) // per_table
    try:
        if parallel:
            rounds, places = parallel_movement(len(rows), positions)
        else:
            rounds, places = team_movement(fmt.id, tables, positions)
    except MovementError as error:
        where = "4 tournois" if parallel else f"{tables} tables"
        raise OperationError(f"{len(rows)} équipes ({where}) : {error}.", "positions") from None
    seed = (seed or "").strip() or secrets.token_hex(8)
    if len(seed) > 200:
        raise OperationError("La graine est trop longue (200 caractères au plus).", "seed")
    played = max(r.position for r in rounds)
    if parallel:
        data = movement_to_dict(4 * tables, played, rounds, frozenset())
        data.pop("moves", None)
        if tables not in HOWELL:  # each tournament's FFT moves (the same in the four)
            data["moves"] = [{"position": p, **fft_moves(tables, p)} for p in range(2, played + 1)]
        data["parallel"] = {"tables": tables, "tournaments": list(PARALLEL_LETTERS)}
    else:
        data = movement_to_dict(tables, played, rounds, frozenset())
        # the move into each played position: into the 1st, from the team's table (the skipped position)
        if "moves" in data:  # not in the 4-table Howell, whose players change orientation
            data["moves"] = [{"position": p, **fft_moves(tables, p + 1)} for p in range(1, played + 1)]
    data["teams"] = places
    ordered = sorted(places, key=lambda ident: (int(ident.lstrip("NSEWT")), ident))
    members_of = {team.id: members for team, members in rows}
    for team, members in rows:  # free every id first: the unique constraints hold at each flush
        _place(team, None, fmt)
        for player in members:
            _place(player, None, fmt)
    session.flush()
    for team, ident in zip(drawn_order([team for team, _ in rows], seed), ordered):
        _place(team, ident, fmt)
        for player, seat in zip(members_of[team.id], places[ident]):
            _place(player, seat, fmt)  # in parallel: his own first table (N5: table 5)
            if not parallel:
                player.start_table = team.start_table  # the team's table (a Howell id J5 names no table)
    tournament.draw_seed = seed
    movement, before = put_movement(session, tournament, data)  # free play: no étui, no taker to follow
    if parallel:
        ranges = ", ".join(f"{letter} {k * tables + 1}–{(k + 1) * tables}" for k, letter in enumerate(PARALLEL_LETTERS))
        summary = (f"Mouvement « 4 tournois en parallèle » : {len(rows)} équipes, 4 tournois de {tables} tables "
                   f"({ranges}), {played} positions (graine « {seed} »)")
    else:
        summary = (f"Mouvement FFT par équipes : {len(rows)} équipes, {tables} tables, {played} positions "
                   f"(graine « {seed} »)")
    journal(session, tournament, action="freeplay.movement", who=who, summary=summary,
            before=({"tables": before.get("tables"), "positions": before.get("positions"),
                     "mouvement": "parallel" if before.get("parallel") else "same_table"} if before else None),
            after={"tables": 4 * tables if parallel else tables, "positions": played, "equipes": len(rows),
                   "mouvement": mode})
    return movement


def team_names(session: Session, tournament: Tournament) -> dict[str, dict]:
    """Team entrant id → ``{"name", "members": [(player id, name)]}`` for the placed teams."""
    return {team.entrant_id: {"name": team.name, "members": [(p.entrant_id, p.name) for p in members]}
            for team, members in team_rows(session, tournament) if team.entrant_id}


def export_teams(session: Session, tournament: Tournament) -> list[dict]:
    """The SPEC §13 file's ``teams``: ``[{"id", "name", "members": [player ids]}]``, the placed teams."""
    return [{"id": team.entrant_id, "name": team.name, "members": [p.entrant_id for p in members]}
            for team, members in team_rows(session, tournament)
            if team.entrant_id and all(p.entrant_id for p in members)]
