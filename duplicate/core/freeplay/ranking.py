"""The free-play ranking: total points, ties shared or broken by art. 29, lateness (art. 26), withdrawals
(art. 27).

Sources: booklet (``seeds/fft-fascicule-free-play-ocr.txt``) chapter 1, « Le classement en donnes
libres » (p. 9): « chaque joueur obtient un nombre de points par addition des points obtenus à chaque
donne […] L'arbitre établit ensuite le classement du tournoi en classant les joueurs par nombre
décroissant de points »; « Le tournoi libre par équipes »: the members' « scores sont cumulés pour obtenir
le total de l'équipe »; chapter 3, « Règles générales applicables aux Championnats Libre » (p. 28–29):

* **Art. 29, ex æquo** — « on retiendra pour le tour suivant le meilleur score obtenu sur une position, puis
  si à nouveau égalité, le plus grand nombre de contrats réussis, puis si à nouveau égalité, le plus grand
  nombre de sur-contrats réussis, suivant la hauteur ». Our reading: the best *bilan* of one position (the
  sum of the player's marks at that position); contracts made *as taker* (at 5, the called partner made no
  contract); « sur-contrats … suivant la hauteur »: first the Gardes Contre made, then the Gardes Sans made.
  Players still equal after all that share the place (« ex æquo »: 1, 2, 2, 4). A team's criteria are its
  members' summed: the best position bilan of the team, all the contracts its members made.
* **Which events break ties** (issue 29 point 7): art. 29 is an article of the « Règles générales applicables
  aux Championnats Libre », and chapter 5, « Ex-aequo », has the other tied players share: « En cas de
  joueurs ex æquo, ceux-ci se partagent également la totalité des PCN attribués aux places correspondantes
  […] Ces règles ne s'appliquent pas dans les compétitions pour lesquelles il existe des règles de départage
  des ex-aequo. » So `rank_entries` applies art. 29 to a championship only (``tie_break``); in any other
  tournament players on the same total share the place (1, 2, 2, 4), listed by id.
* **Art. 26, retards** — « 100 points d'abaissement par fraction de 5 minutes de retard » (1 to 5 minutes:
  100, 6 to 10: 200…, `duplicate.core.evening.lateness_points`); « en cas de championnat par équipe […] la
  pénalité est de 100 points par joueur retardataire »: a late member's penalty counts in his team's total.
* **Art. 27, abandon** — « Le joueur défaillant est classé dernier de l'épreuve »: the withdrawn come after
  all the others, ordered among themselves by the same rules (a team with a withdrawn member likewise).
* Other penalties (chapter 4's catalogue, chosen by the arbiter) are points off the total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from duplicate.core.evening import lateness_points
from duplicate.core.scoring import Contract

__all__ = ["ScoredDeal", "Entry", "lateness_penalty", "entries", "rank_entries", "team_entries"]

LATENESS_POINTS = 100


@dataclass(frozen=True)
class ScoredDeal:
    """One deal's marks at one table (`scoring.share`), with what art. 29 counts."""

    position: int
    marks: Mapping[str, int]
    taker: str | None = None
    contract: Contract | None = None
    made: bool = False


def lateness_penalty(minutes: int) -> int:
    """Art. 26: 100 points per started 5 minutes of lateness."""
    return int(lateness_points(minutes, LATENESS_POINTS))


@dataclass
class Entry:
    """A player's (or a team's) standing: points, penalty, the art. 29 criteria, the place once ranked."""

    id: str
    points: int = 0
    penalty: int = 0
    positions: dict[int, int] = field(default_factory=dict)
    made: int = 0
    garde_contre_made: int = 0
    garde_sans_made: int = 0
    withdrawn: bool = False
    rank: int | None = None
    eliminated_at: int | None = None  # eliminated before this position (`coefficients`)

    @property
    def total(self) -> int:
        return self.points - self.penalty

    @property
    def best_position(self) -> int | None:
        return max(self.positions.values()) if self.positions else None

    def key(self) -> tuple:
        """Art. 29's order, best first (negated for sorting)."""
        best = self.best_position if self.best_position is not None else float("-inf")
        return (self.withdrawn, -self.total, -best, -self.made, -self.garde_contre_made, -self.garde_sans_made)


def entries(players: Iterable[str], deals: Iterable[ScoredDeal], penalties: Mapping[str, int] | None = None,
            withdrawn: Iterable[str] = ()) -> dict[str, Entry]:
    """Each player's entry from the deals' marks; ``penalties``: points off each player's total."""
    table = {player: Entry(player) for player in players}
    for deal in deals:
        for player, mark in deal.marks.items():
            entry = table[player]
            entry.points += mark
            entry.positions[deal.position] = entry.positions.get(deal.position, 0) + mark
        if deal.taker is not None and deal.made:
            entry = table[deal.taker]
            entry.made += 1
            entry.garde_contre_made += deal.contract is Contract.GARDE_CONTRE
            entry.garde_sans_made += deal.contract is Contract.GARDE_SANS
    for player, points in (penalties or {}).items():
        table[player].penalty += points
    for player in withdrawn:
        table[player].withdrawn = True
    return table


def team_entries(teams: Mapping[str, Sequence[str]], players: Mapping[str, Entry]) -> dict[str, Entry]:
    """A team's entry: its members' points, penalties, position bilans and contracts summed; withdrawn when
    a member is (art. 27)."""
    table = {}
    for team, members in teams.items():
        entry = Entry(team)
        for member in members:
            one = players[member]
            entry.points += one.points
            entry.penalty += one.penalty
            for position, bilan in one.positions.items():
                entry.positions[position] = entry.positions.get(position, 0) + bilan
            entry.made += one.made
            entry.garde_contre_made += one.garde_contre_made
            entry.garde_sans_made += one.garde_sans_made
            entry.withdrawn |= one.withdrawn
        table[team] = entry
    return table


def rank_entries(table: Mapping[str, Entry], tie_break: bool = True) -> list[Entry]:
    """The entries best first, each with its place: equal keys share it (1, 2, 2, 4); ties on the key
    are listed by id. The key is art. 29's (`Entry.key`) when ``tie_break`` (a championship), else the
    total alone (the withdrawn still last)."""
    def key(entry: Entry) -> tuple:
        return entry.key() if tie_break else (entry.withdrawn, -entry.total)

    ordered = sorted(table.values(), key=lambda entry: (key(entry), entry.id))
    for index, entry in enumerate(ordered):
        before = ordered[index - 1] if index else None
        entry.rank = before.rank if before is not None and key(before) == key(entry) else index + 1
    return ordered
