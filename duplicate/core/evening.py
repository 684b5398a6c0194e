"""The evening's changes that reach the ranking: substitutes, withdrawals, lateness (SPEC §11).

Sources: the FFT booklet (``seeds/fft-fascicule-free-play-ocr.txt``), « Règles générales applicables
aux Championnats Libre »:

* **Art. 26, retards** — « L'arbitre doit infliger des pénalités aux retardataires à raison de 100 points
  d'abaissement par fraction de 5 minutes de retard […] Après 15 minutes de retard, l'arbitre peut déclarer
  forfait le ou les absents et faire jouer le ou les remplaçants prévus. »
* **Art. 27, abandon en cours d'épreuve** — « Le joueur défaillant est classé dernier de l'épreuve. »

Our readings, where the texts speak of free play only (the duplicate seed,
``seeds/duplicate-tournaments.txt``, only says that the arbiter's « pénalités » adjust the ranking):

* **Lateness in a duplicate** (`lateness_points`): the free-play « 100 points » become **percentage
  points off the global %** (SPEC §4 penalty), by the same steps: ``points_per_step`` for each *started*
  fraction of 5 minutes (1 to 5 minutes → 1 step, 6 to 10 → 2…). The arbiter picks ``points_per_step``;
  the default is **1 point** (a 1 % step is of the order of one étui's note spread over an evening of
  25 étuis). After 15 minutes the arbiter may instead declare a forfeit and seat a substitute
  (`Substitution` from position 1).
* **Substitute** (`Substitution`): from position ``from_position`` on, a substitute player sits at the
  seat of entrant ``seat``. The arbiter chooses who keeps the seat's results from that position on:
  ``results_to="player"`` — everything stays with the original player (the substitute is only named);
  ``results_to="substitute"`` — the results of positions ``from_position`` and later are credited to the
  substitute (`credit_results`), who is ranked « hors classement », and the original player is ranked on
  the étuis played before. A substitute is always « hors classement » (he takes nobody's place).
  A result whose position is unknown is placed by the movement (the round that sends its étui to its
  table); when the movement does not say either, the result stays with the original player.
* **Withdrawal** (art. 27): the ranking of the players who stayed is computed first; the withdrawn ones
  come after them, ordered among themselves by global % with the usual ex æquo rule
  (`core.ranking.rank_standings`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Iterable, Mapping

from .topage import Result

__all__ = ["RESULTS_TO", "LATENESS_STEP_MINUTES", "Substitution", "credit_results", "lateness_points"]

#: Who keeps the seat's results from the substitution on.
RESULTS_TO = ("player", "substitute")
#: Art. 26: a penalty « par fraction de 5 minutes de retard ».
LATENESS_STEP_MINUTES = 5


@dataclass(frozen=True)
class Substitution:
    """From ``from_position`` on, ``player`` (a substitute) sits at entrant ``seat``'s place."""

    seat: str
    player: str
    from_position: int
    results_to: str = "player"


def lateness_points(minutes: int, points_per_step: Fraction | int = 1) -> Fraction:
    """Art. 26 in a duplicate: ``points_per_step`` percentage points per started fraction of 5 minutes."""
    if minutes <= 0:
        return Fraction(0)
    steps = -(-minutes // LATENESS_STEP_MINUTES)
    return steps * Fraction(points_per_step)


def _position(result: Result, positions: Mapping[tuple[int, int], int]) -> int | None:
    if result.position is not None:
        return result.position
    return positions.get((result.board, result.table))


def credit_results(results: Iterable[Result], substitutions: Iterable[Substitution],
                   positions: Mapping[tuple[int, int], int] | None = None) -> tuple[Result, ...]:
    """The results with each ``results_to="substitute"`` seat renamed to its substitute from
    ``from_position`` on. ``positions`` maps (étui, table) to the movement's position, for results that
    do not carry theirs."""
    positions = positions or {}
    moves = [s for s in substitutions if s.results_to == "substitute"]
    credited = []
    for result in results:
        position = _position(result, positions)
        renamed = {s.seat: s.player for s in moves if position is not None and position >= s.from_position}
        if renamed and set(renamed) & set(result.entrants):
            result = replace(result, taker=renamed.get(result.taker, result.taker),
                             defence=tuple(renamed.get(d, d) for d in result.defence))
        credited.append(result)
    return tuple(credited)
