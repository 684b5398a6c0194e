"""Points de match (PM): quadrettes and team matches (SPEC §6).

Source: ``seeds/duplicate-tournaments.txt``, « Conversion en PM », the
« Grille de conversion en PM » (``pm-grid.json``) and « DUPLICATE PAR ÉQUIPES ».

* ``PM(x) = sign(x) × √|x|`` rounded to 3 decimals (half up), which matches
  every entry of the seed's grid.  Values are :class:`decimal.Decimal` so that
  sums of rounded PM stay exact.
* **Quadrettes**: on each étui, quadrette A's attacker (against B's defence) and
  B's attacker (against A's defence) played the same cards; A scores
  ``PM(A's attacker score − B's attacker score)``, B the opposite.  A
  quadrette's result is the sum of its per-étui PM.  Seed examples: +82 vs +66
  → +4; +68 vs −76 → +12; −68 vs −58 → −3.162.
* **Team match**: per étui, the team whose attacker did better scores ``|PM|``,
  the other 0; totals over the four quarters plus an optional bonus per team
  set by the arbiter before the match.

Our choices where the seeds are silent: an étui whose two plays are not both
there (one annulled, or not played) is not compared and gives 0 to both
sides; penalties are PM taken off the total.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Iterable, Mapping

from .ranking import general_ranks
from .topage import Result

__all__ = ["pm", "Comparison", "compare_pairs", "quadrette_totals", "team_match_totals", "pm_ranking"]

_CONTEXT = Context(prec=40)
_THOUSANDTH = Decimal("0.001")


def pm(difference: int) -> Decimal:
    """PM for a score difference: sign × √|difference|, 3 decimals."""
    root = _CONTEXT.sqrt(Decimal(abs(int(difference)))).quantize(_THOUSANDTH, rounding=ROUND_HALF_UP)
    return -root if difference < 0 else root


@dataclass(frozen=True)
class Comparison:
    """One étui compared between two teams: each attacker's play and its PM."""

    board: int
    first: Result        # first team's attacker against the second team's defence
    second: Result       # second team's attacker against the first team's defence

    @property
    def difference(self) -> int:
        return self.first.score - self.second.score

    @property
    def pm(self) -> Decimal:
        """The first team's PM (quadrette convention: the second team gets −pm)."""
        return pm(self.difference)


def compare_pairs(results: Iterable[Result]) -> tuple[list[Comparison], list[Result]]:
    """Pair each attacker's play with the opposite one on the same étui.

    Returns the comparisons and the plays left without a partner (annulled
    plays are left out of both).
    """
    plays: dict[tuple[int, str, str], Result] = {}
    for result in results:
        if result.annulled:
            continue
        plays[(result.board, result.taker, result.defence[0])] = result
    comparisons, alone, done = [], [], set()
    for key in sorted(plays):
        if key in done:
            continue
        board, attack, defence = key
        mirror = (board, defence, attack)
        if mirror in plays:
            comparisons.append(Comparison(board, plays[key], plays[mirror]))
            done.update({key, mirror})
        else:
            alone.append(plays[key])
    return comparisons, alone


def quadrette_totals(results: Iterable[Result], entrants: Iterable[str] = ()) -> dict[str, Decimal]:
    """Each quadrette's PM result: Σ per-étui PM over all its comparisons."""
    totals = {entrant: Decimal(0) for entrant in entrants}
    comparisons, _ = compare_pairs(results)
    for comparison in comparisons:
        first, second = comparison.first.taker, comparison.second.taker
        totals[first] = totals.get(first, Decimal(0)) + comparison.pm
        totals[second] = totals.get(second, Decimal(0)) - comparison.pm
    return totals


def team_match_totals(results: Iterable[Result], bonus: Mapping[str, Decimal] | None = None,
                      entrants: Iterable[str] = ()) -> dict[str, dict]:
    """Team-match scoreboard: per team, PM per quarter, bonus and total.

    Only the team whose attacker did better scores on an étui (|PM|).
    """
    bonus = {team: Decimal(str(value)) for team, value in (bonus or {}).items()}
    board = {team: {"quarters": {}, "bonus": bonus.get(team, Decimal(0))}
             for team in [*entrants, *bonus]}
    comparisons, _ = compare_pairs(results)
    for comparison in comparisons:
        winner = comparison.first if comparison.difference > 0 else comparison.second
        quarter = comparison.first.quarter or 0
        for result in (comparison.first, comparison.second):
            team = board.setdefault(result.taker, {"quarters": {}, "bonus": Decimal(0)})
            gained = abs(comparison.pm) if result is winner and comparison.difference else Decimal(0)
            team["quarters"][quarter] = team["quarters"].get(quarter, Decimal(0)) + gained
    for team in board.values():
        team["total"] = sum(team["quarters"].values(), Decimal(0)) + team["bonus"]
    return board


def pm_ranking(totals: Mapping[str, Decimal]) -> list[tuple[str, Decimal, int]]:
    """(team, PM, rank) best first; equal totals share the place."""
    ranks = general_ranks(totals)
    return [(team, totals[team], ranks[team]) for team in sorted(totals, key=lambda t: (ranks[t], t))]
