"""The prize list of a free-play tournament (booklet chapter 2, « La dotation », p. 12–13).

* « Il faut prévoir une dotation pour un minimum de 20 % des participants » (and « Récompense de 20 à
  25 % des participants », p. 11): `prize_count` is 20 % of the entrants, rounded up (our choice: « un
  minimum »).
* « Un prix spécial pourra être donné au meilleur score obtenu lors des 2 dernières rotations, et réservé
  aux joueurs non récompensés au classement final »: `last_positions_prize` — the best sum of the bilans of
  the last two positions among the players outside the prize list; equal sums share it (all are listed).
"""

from __future__ import annotations

from math import ceil
from typing import Mapping, Sequence

from .ranking import Entry

__all__ = ["prize_count", "last_positions_prize"]


def prize_count(entrants: int, share: float = 0.20) -> int:
    """How many places get a prize: ``share`` (default 20 %) of the entrants, rounded up."""
    return ceil(round(entrants * share, 9))


def last_positions_prize(ranked: Sequence[Entry], rewarded: int) -> tuple[list[str], int] | None:
    """The winner(s) of the special prize and their score over the last two positions played, among the
    entrants ranked after the first ``rewarded``; None when nobody is left."""
    played = sorted({p for entry in ranked for p in entry.positions})
    last = played[-2:]
    candidates: Mapping[str, int] = {e.id: sum(e.positions.get(p, 0) for p in last) for e in ranked[rewarded:]}
    if not candidates:
        return None
    best = max(candidates.values())
    return [ident for ident, score in candidates.items() if score == best], best
