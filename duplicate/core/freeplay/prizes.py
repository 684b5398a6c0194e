"""The prize list of a free-play tournament (booklet chapter 2, « La dotation », p. 12–13).

* « Il faut prévoir une dotation pour un minimum de 20 % des participants » (and « Récompense de 20 à
  25 % des participants », p. 11): `prize_count` is 20 % of the entrants, rounded up (our choice: « un
  minimum »).
* « Un prix spécial pourra être donné au meilleur score obtenu lors des 2 dernières rotations, et réservé
  aux joueurs non récompensés au classement final »: `last_positions_prize` — the best sum of the bilans of
  the last two positions among the players outside the prize list; equal sums share it (all are listed).
* `palmares` puts them together on a SPEC §13 file and its `rank_free` output (the screen and the paper
  read it). **Team kinds** (libre duo, libre par 4; our choice, the booklet counts « participants » without
  saying which): the entrants of the ranking are the teams, so the prizes go to 20 % of the *teams*,
  rounded up (8 duos → 2 prizes, each shared by the duo's two players), and the special prize to the team
  with the best sum of its members' bilans over the last two positions, among the teams outside the prize
  list. The carré final's positions (only the finalists play them) are left out of the « 2 dernières
  rotations »; ex æquo at the last prize place share it; a withdrawn entrant (art. 27, or a team with a
  withdrawn member) gets no prize.
"""

from __future__ import annotations

from math import ceil
from typing import Mapping, Sequence

from .ranking import Entry

__all__ = ["prize_count", "last_positions_prize", "palmares"]


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


def palmares(data: Mapping, output: Mapping) -> dict | None:
    """The prize list of a SPEC §13 file ``data`` ranked by `rank_free` (``output``): ``{"count", "entrants",
    "teams": bool, "winners": [ranking rows], "special": {"ids", "score", "positions"} or None}``, over the
    ranking's entrants (players, or teams in the team kinds: module docstring); None when nobody is ranked."""
    rows = list(output.get("ranking") or [])
    if not rows:
        return None
    teams = {t["id"]: list(t.get("members") or []) for t in data.get("teams") or [] if isinstance(t, Mapping)}
    owner = {member: team for team, members in teams.items() for member in members}
    movement = data.get("movement") or {}
    final = set(((movement.get("final_square") or {}) if isinstance(movement, Mapping) else {}).get("positions") or [])
    count = prize_count(len(rows))
    winners = [row for row in rows if row["rank"] <= count and not row.get("withdrawn")]
    bilans: dict[str, dict[int, int]] = {row["id"]: {} for row in rows}
    for result in output.get("results") or []:
        if result["position"] in final:
            continue
        for player, mark in (result.get("scores") or {}).items():
            ident = owner[player] if teams else player   # every scorer is a member: `rank_free` refuses others
            if ident in bilans:
                bilans[ident][result["position"]] = bilans[ident].get(result["position"], 0) + mark
    played = sorted({p for marks in bilans.values() for p in marks})
    ranked = [Entry(row["id"], positions=bilans[row["id"]]) for row in rows if not row.get("withdrawn")]
    special = last_positions_prize(ranked, len(winners)) if played else None
    return {"count": count, "entrants": len(rows), "teams": bool(teams), "winners": winners,
            "special": {"ids": special[0], "score": special[1], "positions": played[-2:]} if special else None}
