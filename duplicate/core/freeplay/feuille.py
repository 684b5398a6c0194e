"""The feuille de marque of one table at one position, and the arbiter's checks (booklet chapter 1,
« Exemple de report des scores sur la feuille de marque », p. 9; chapter 2, « Établissement des
résultats — à la main », p. 16–17).

The sheet has one line per deal with each player's mark in his « + » or « − » column; at the foot, each
player's « Total » of the + column and of the − column, and his « Bilan » (their difference). « Chaque
joueur doit s'assurer que son Bilan est bon, et que la somme des scores des 4 joueurs est bien égale à
zéro. » The arbiter's check (p. 16): « vérifie, feuille par feuille, que le total des quatre cumuls … est
bien égal à zéro »; then, for the whole room, « additionner tous les scores positifs, puis tous les
scores négatifs. Le résultat ainsi trouvé doit être égal à zéro » (`room_check`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

__all__ = ["Foot", "sheet_foot", "room_check"]


@dataclass(frozen=True)
class Foot:
    """A player's foot of the sheet: the + column, the − column (a positive number) and the bilan."""

    plus: int
    minus: int

    @property
    def bilan(self) -> int:
        return self.plus - self.minus


def sheet_foot(players: Sequence[str], lines: Iterable[Mapping[str, int]]) -> tuple[dict[str, Foot], int]:
    """Each player's foot from the deals' marks (`scoring.share`), and the sum of the bilans — 0 on a
    correct sheet (a line that does not sum to zero shows here)."""
    plus = dict.fromkeys(players, 0)
    minus = dict.fromkeys(players, 0)
    for marks in lines:
        for player, mark in marks.items():
            if mark >= 0:
                plus[player] += mark
            else:
                minus[player] -= mark
    foot = {player: Foot(plus[player], minus[player]) for player in players}
    return foot, sum(f.bilan for f in foot.values())


def room_check(bilans: Iterable[int]) -> tuple[int, int]:
    """(Σ positive, Σ negative) of the room's bilans at a position (or of the cumuls): their sum must be 0."""
    values = list(bilans)
    return sum(v for v in values if v > 0), sum(v for v in values if v < 0)
