"""Team free play and the evening's extras in the database (issue 16, points 5 and 7): the libre duo and the
libre par 4 seated by the core's team movement, the « carré final » and the prize list of the individual
free tournament. Reached as ``operations.freeplay_extras``; the feuilles, the file and the ranking stay in
`_freeplay` (one SPEC §13 file, one ranking function).

Our choices (docs/free-play.md):

* **Teams** (`_freeplay_teams.seat_free_teams`, re-exported here).
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

from sqlmodel import Session

from duplicate import french
from duplicate.core.freeplay.coefficients import CoefficientError, french_decimal, parse_coefficient
from duplicate.core.freeplay.movements import final_square
from duplicate.core.freeplay.prizes import palmares
from duplicate.core.freeplay.tournament import FreePlayError, rank_free
from duplicate.models import FreeSheet, Movement, Tournament

from ._common import OperationError, _count, _format, lock_row
from ._deals import get_movement
from ._freeplay import free_export, free_ranking, progress
from ._freeplay_teams import TEAM4_MODES, export_teams, seat_free_teams, team_names, team_rows  # noqa: F401
from ._journal import journal

FINALISTS = (12, 16, 20)


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
    fmt = _format(tournament)
    if not fmt.has_final_square:
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
