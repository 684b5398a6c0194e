"""The score sheet of a team match, quarter by quarter (SPEC §6 « Team match », issue 15 point 3).

Source: ``seeds/duplicate-tournaments.txt``, « DUPLICATE PAR ÉQUIPES », « La marque » and « Les
comptes »: in each room the attacker's contract and score are written for every donne of the
quarter; at the end of the quarter each team compares, donne by donne, the score of its attacker with
that of the other team's attacker (who played the same cards against its defence), converts the gap
into PM by the square root (`pm.pm`) and « si le score de l'attaquant est supérieur à celui de la
défense, l'équipe marque le nombre de PM correspondant, l'autre équipe ne marquant pas » (equal: no
one scores).  « Remarque : un bonus en PM peut être attribué à chaque équipe avant le début du
match »: the running total starts from the bonus.

The sheet shows both rooms side by side — which is what the teams compare — and, after each quarter,
the running PM total of each team.  Pairing and PM are `pm.compare_pairs` and `pm.pm`, the very
functions of the ranking (`pm.team_match_totals`), so sheet and ranking cannot disagree.  Our choice
(as `pm`): an étui whose two plays are not both there (one annulled, or not entered yet) scores for
no one and is shown with its one play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Iterable, Mapping

from .pm import compare_pairs
from .topage import Result

__all__ = ["Play", "SheetRow", "Quarter", "quarter_sheets"]

ROOMS = ("open", "closed")


@dataclass(frozen=True)
class Play:
    """One room's play of an étui: who attacked, the contract, the attacker's score (None: annulled)."""

    attack: str
    contract: str
    score: int | None
    annulled: bool = False


@dataclass
class SheetRow:
    """One étui of a quarter: its play in each room, the gap (first team's attacker − second's), the PM
    each team scores on it."""

    board: int
    plays: dict[str, Play] = field(default_factory=dict)    # room → play
    difference: int | None = None
    pm: dict[str, Decimal] = field(default_factory=dict)    # team → PM scored (0 for the other)


@dataclass
class Quarter:
    """A quarter's rows, each team's PM in it and its running total (bonus + quarters so far)."""

    number: int
    rows: list[SheetRow]
    pm: dict[str, Decimal]
    running: dict[str, Decimal]


def quarter_sheets(results: Iterable[Result], teams: tuple[str, str],
                   bonus: Mapping[str, Decimal] | None = None, quarters: Iterable[int] = (1, 2, 3, 4)) -> list[Quarter]:
    """The four quarters' sheets of the match between ``teams`` (first, second), from its results."""
    first, second = teams
    bonus = {team: Decimal(str((bonus or {}).get(team, 0))) for team in teams}
    mine = [r for r in results if r.taker in teams and r.quarter is not None]
    rows: dict[tuple[int, int], SheetRow] = {}
    for result in mine:
        row = rows.setdefault((result.quarter, result.board), SheetRow(result.board))
        row.plays[result.room or ""] = Play(result.taker, result.contract, None if result.annulled else result.score,
                                            result.annulled)
    for comparison in compare_pairs(mine)[0]:
        row = rows[(comparison.first.quarter, comparison.board)]
        ours, theirs = ((comparison.first, comparison.second) if comparison.first.taker == first
                        else (comparison.second, comparison.first))
        row.difference = ours.score - theirs.score
        value = abs(comparison.pm)
        row.pm = {first: value if row.difference > 0 else Decimal(0),
                  second: value if row.difference < 0 else Decimal(0)}
    running = dict(bonus)
    sheets = []
    for number in sorted({*quarters, *(q for q, _ in rows)}):
        quarter_rows = [rows[key] for key in sorted(rows) if key[0] == number]
        scored = {team: sum((row.pm.get(team, Decimal(0)) for row in quarter_rows), Decimal(0)) for team in teams}
        running = {team: running[team] + scored[team] for team in teams}
        sheets.append(Quarter(number, quarter_rows, scored, dict(running)))
    return sheets
