"""Team free play and the evening's extras in the database (issue 16, points 5 and 7): the libre duo and the
libre par 4 seated by the core's team movement, the « carré final » and the prize list of the individual
free tournament. Reached as ``operations.freeplay_extras``; the feuilles, the file and the ranking stay in
`_freeplay` (one SPEC §13 file, one ranking function).

Our choices (docs/free-play.md):

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
* **Carré final** (`seat_final_square`, booklet p. 13–14): once every feuille of the movement is entered,
  the 12, 16 or 20 best of the ranking (withdrawn players left out; the ranking's order decides ties at the
  cut) play one more position seated by `core.freeplay.movements.final_square` (k-th best at table
  ((k − 1) mod T) + 1, N/S/E/W by (k − 1) div T); 20 finalists may instead play « 5 positions de UNE donne »
  by the FFT movement. The positions are appended to the stored movement (``"final_square"`` says which),
  so their feuilles are entered as the others and ``rank`` reads them from the export. Undone while none of
  their feuilles is entered.
* **Coefficients between positions** (`add_free_coefficient`, individual only): the arbiter's stages (position,
  coefficient, eliminated) in ``tournament.settings["free_coefficients"]``, the file's ``"coefficients"``;
  each is checked by ranking the tournament with it (`core.freeplay.coefficients`: art. 3's table, no
  eliminated player seated or scoring after the cut). Journalled, removable.
* **Palmarès** (`free_prizes`, booklet p. 12): `core.freeplay.prizes.palmares` — 20 % of the ranked
  entrants, rounded up (players, or teams in libre duo and libre par 4), ex æquo at the last prize place
  sharing it; the special prize of « 2 dernières rotations » over the last two positions of the movement —
  the carré final's left out, which only the finalists play — among the entrants outside the prize list,
  withdrawn ones left out.
"""

from __future__ import annotations

import secrets

from sqlmodel import Session

from duplicate import french
from duplicate.core.freeplay.movements import (
    HOWELL, PARALLEL_LETTERS, MovementError, fft_moves, final_square, movement_to_dict, parallel_movement, team_movement,
)
from duplicate.core.freeplay.coefficients import CoefficientError, french_decimal, parse_coefficient
from duplicate.core.freeplay.prizes import palmares
from duplicate.core.freeplay.tournament import FreePlayError, rank_free
from duplicate.models import FreeSheet, Movement, Tournament

from ._common import OperationError, _count, _format, lock_row, players, teams
from ._deals import get_movement, put_movement
from ._entrants import _place, drawn_order, team_members
from ._journal import journal

FINALISTS = (12, 16, 20)
#: Libre par 4's two movements (booklet p. 21), as the arbiter's choice names them.
TEAM4_MODES = {"same_table": "Équipes à la même table", "parallel": "4 tournois en parallèle"}


def _team_kind(tournament: Tournament) -> None:
    fmt = _format(tournament)
    if not fmt.free_play or fmt.ranks_players:
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


# --- carré final -------------------------------------------------------------------------------------------

def final_square_info(session: Session, tournament: Tournament) -> dict | None:
    """The stored carré final: ``{"finalists", "positions": [..], "ranked": [ids]}``, or None."""
    movement = get_movement(session, tournament)
    info = (movement.data or {}).get("final_square") if movement is not None else None
    return info if isinstance(info, dict) else None


def seat_final_square(session: Session, tournament: Tournament, *, finalists: int, one_deal_positions: bool = False,
                      who: str | None = None) -> Movement:
    """Seat the ``finalists`` best for the carré final (module docstring); ``one_deal_positions`` (20
    finalists only): 5 positions of one deal by the FFT movement instead of one position."""
    from ._freeplay import free_ranking, progress

    fmt = _format(tournament)
    if not fmt.free_individual:
        raise OperationError("Le carré final est prévu pour le tournoi libre individuel.")
    if finalists not in FINALISTS:
        raise OperationError("Le carré final réunit les 12, 16 ou 20 meilleurs.", "finalists")
    if one_deal_positions and finalists != 20:
        raise OperationError("Les 5 positions d’une donne sont pour 20 finalistes (5 tables).", "finalists")
    movement = get_movement(session, tournament)
    if movement is None:
        raise OperationError("Faites d’abord le mouvement.")
    if final_square_info(session, tournament) is not None:
        raise OperationError("Le carré final est déjà placé.")
    state = progress(session, tournament)
    if state["missing"]:
        raise OperationError(f"Il manque {french.counted(state['missing'], 'feuille', 'feuilles')} de marque : le carré final se place sur le "
                             "classement de toutes les positions.")
    output = free_ranking(session, tournament)
    if output.get("error"):
        raise OperationError(output["error"])
    ranked = [row["id"] for row in output["ranking"] if not row.get("withdrawn")]
    if len(ranked) < finalists:
        raise OperationError(f"{french.ranked(len(ranked))} : pas assez pour un carré final de {finalists}.",
                             "finalists")
    chosen = ranked[:finalists]
    count = 5 if one_deal_positions else 1
    rounds = final_square(chosen, count)
    data = dict(movement.data)
    last = max((r["position"] for r in data.get("rounds", [])), default=0)
    added = [{"position": last + r.position, "table": r.table, "seats": dict(r.seats)} for r in rounds]
    data["rounds"] = list(data.get("rounds", [])) + added
    data["positions"] = last + count
    data["final_square"] = {"finalists": finalists, "positions": list(range(last + 1, last + count + 1)),
                            "ranked": chosen, "regular_positions": last}
    movement.data = data
    session.flush()
    journal(session, tournament, action="freeplay.final_square", who=who,
            summary=f"Carré final : les {finalists} meilleurs placés pour "
                    f"{'5 positions d’une donne' if one_deal_positions else 'une position'} "
                    f"(position{'s' if count > 1 else ''} {', '.join(map(str, data['final_square']['positions']))})",
            after={"finalistes": chosen})
    return movement


def cancel_final_square(session: Session, tournament: Tournament, *, who: str | None = None) -> None:
    """Remove the carré final's positions while none of their feuilles is entered."""
    info = final_square_info(session, tournament)
    if info is None:
        raise OperationError("Pas de carré final à annuler.")
    final = set(info.get("positions") or [])
    if _count(session, FreeSheet, FreeSheet.tournament_id == tournament.id, FreeSheet.position.in_(final)):
        raise OperationError("Des feuilles du carré final sont saisies : on ne peut plus l’annuler.")
    movement = get_movement(session, tournament)
    data = dict(movement.data)
    data["rounds"] = [r for r in data.get("rounds", []) if r.get("position") not in final]
    data["positions"] = info.get("regular_positions") or (min(final) - 1)
    data.pop("final_square", None)
    movement.data = data
    session.flush()
    journal(session, tournament, action="freeplay.final_square_cancel", who=who,
            summary="Carré final annulé", before={"finalistes": info.get("ranked")})


# --- palmarès ----------------------------------------------------------------------------------------------

def free_prizes(session: Session, tournament: Tournament, output: dict | None = None) -> dict | None:
    """The prize list (`core.freeplay.prizes.palmares` of the SPEC §13 file and its ranking): ``{"count",
    "entrants", "teams", "winners": [ranking rows], "special": {"ids", "score", "positions"} or None}``, the
    teams' in libre duo and libre par 4; None before any ranking."""
    from ._freeplay import free_export, free_ranking

    output = output if output is not None else free_ranking(session, tournament)
    return palmares(free_export(session, tournament), output)


# --- coefficients between positions (championship, art. 3) ---------------------------------------------------

def free_coefficients(tournament: Tournament) -> list[dict]:
    """The arbiter's coefficients (``tournament.settings["free_coefficients"]``), by position: ``[{"position",
    "coefficient" (text, « 1.15 »), "eliminated"}]`` — the SPEC §13 file's ``"coefficients"``."""
    return sorted((tournament.settings or {}).get("free_coefficients") or [], key=lambda item: item["position"])


def _store_coefficients(tournament: Tournament, items: list[dict]) -> None:
    settings = dict(tournament.settings or {})  # a new dict: the JSON column sees the change
    if items:
        settings["free_coefficients"] = items
    else:
        settings.pop("free_coefficients", None)
    tournament.settings = settings


def _coefficient_text(value) -> str:
    """The stored text of a coefficient, exact: « 1.15 » (a decimal), else « 23/17 »."""
    text = str(float(value))
    return text if parse_coefficient(text) == value else f"{value.numerator}/{value.denominator}"


def add_free_coefficient(session: Session, tournament: Tournament, *, position: int, coefficient: str,
                         eliminated: int, who: str | None = None) -> None:
    """A coefficient ``coefficient`` from ``position`` on, ``eliminated`` players eliminated before it
    (`core.freeplay.coefficients`: the qualified players' bilans from that position × the coefficient, the
    eliminated ranked after them). Checked by ranking the tournament with it (art. 3's table, nobody
    eliminated who played after the cut): a French refusal otherwise. Individual free play only."""
    from ._freeplay import free_export

    if _format(tournament).id != "free":
        raise OperationError("Les coefficients entre positions sont prévus pour le tournoi libre individuel.")
    try:
        value = parse_coefficient(coefficient)
    except CoefficientError as error:
        raise OperationError(f"Coefficient : {error}.", "coefficient") from None
    movement = get_movement(session, tournament)
    last = (movement.data or {}).get("positions") if movement is not None else None
    if last is None:
        raise OperationError("Faites d’abord le mouvement.")
    if not 2 <= position <= last:
        raise OperationError(f"Position : de 2 à {last} (le coefficient s’applique entre deux positions).", "position")
    lock_row(session, tournament)  # the coefficients as another arbiter may just have saved them
    items = [item for item in free_coefficients(tournament) if item["position"] != position]
    replaced = len(items) != len(free_coefficients(tournament))
    items = sorted([*items, {"position": position, "coefficient": _coefficient_text(value),
                             "eliminated": eliminated}], key=lambda item: item["position"])
    data = free_export(session, tournament)
    data["coefficients"] = items
    try:
        rank_free(data)
    except FreePlayError as error:
        message = str(error).removeprefix("coefficients : ")
        raise OperationError(f"{message[:1].upper()}{message[1:]}.") from None
    before = free_coefficients(tournament)
    _store_coefficients(tournament, items)
    session.flush()
    journal(session, tournament, action="freeplay.coefficient", who=who,
            summary=f"Coefficient {french_decimal(value)} à partir de la position {position} : "
                    f"{french.counted(eliminated, 'joueur éliminé', 'joueurs éliminés')}{' (remplace le précédent)' if replaced else ''}",
            before={"coefficients": before}, after={"coefficients": items})


def remove_free_coefficient(session: Session, tournament: Tournament, position: int, who: str | None = None) -> None:
    """Remove the coefficient of ``position`` (journalled)."""
    lock_row(session, tournament)
    before = free_coefficients(tournament)
    items = [item for item in before if item["position"] != position]
    if len(items) == len(before):
        raise OperationError(f"Pas de coefficient à la position {position}.")
    _store_coefficients(tournament, items)
    session.flush()
    journal(session, tournament, action="freeplay.coefficient_remove", who=who,
            summary=f"Coefficient de la position {position} supprimé", before={"coefficients": before},
            after={"coefficients": items})
