"""PCN and PP attribution in free play (booklet chapter 5, « Attribution des PCN et PP », p. 43–46 of
``seeds/fft-fascicule-free-play-ocr.txt``).

The rules as printed (p. 44):

* « L'attribution minimale de Pcn est fixée à 50 PCN. Les attributions sont plafonnées à 1500 PCN en
  donnes libres, 3000 PCN pour les championnats régionaux en donnes libres. »
* Individual: « La moitié du total des joueurs ayant participé à la séance y ont droit. Le premier reçoit
  40 fois le nombre de tables, les suivants subissent un abattement fonction du nombre de tables (0.95 maxi
  et 0.5 mini). » Duo: « Chaque joueur de la première équipe reçoit 40 fois le nombre de tables […]
  (0.95² = 0.9025 maxi et 0.5 mini) ». Teams of 4: « La moitié des équipes de 4 joueurs (arrondi à l'unité
  supérieure si 0.5) […] (0.95⁴ = 0.815 maxi et 0.5 mini) ». Several sessions: the tables of every session
  added.
* « Tournoi en donnes libres : minimum 11 joueurs ; libre duo : minimum 6 duos ; libre par 4 : minimum 5
  équipes. »
* Ex æquo: « ceux-ci se partagent également la totalité des PCN attribués aux places correspondantes
  (arrondi supérieur si non entier) », the same for PP.
* PP: in the regional championships, « 3 pour le(s) premier(s), 2 pour le(s) deuxième(s) et 1 pour le(s)
  troisième(s) »; indices 1,5 for the « ½ finales régionales », 1,8 for the « finales régionales ».

What the attribution tables (p. 45) show, and we compute: the abattement row reads 0.69 at 3 tables, 0.70
at 4, « Progression : 0.01 » a table, 0.95 from 29 tables on (« Coefficient d'abattement Maxi : 0.95 »):
``c = min(0.66 + 0.01 × tables, 0.95)``; the duo row is c² (« 0,71² » at 5 tables), the team row c⁴ shown to
3 decimals (« 0,547 » at 20 tables) but used exactly (22 tables, 4th: 880 × 0.88¹² = 189.8 → « 189 », not
190 with 0.6³); both at least 0.5. The place k gets ``40 × tables × coefficient^(k−1)``, **truncated**
(4 tables, 4th: 160 × 0.7³ = 54.88 → « 54 »), then the floor of 50; every legible cell of the three
tables is a test vector (`tests/core/freeplay/test_freeplay_pcn.py`).

Our choices where the booklet is silent: half an odd number of players is rounded up, as the teams' rule
says; the indice multiplies the table's value (floor included: « les tableaux … sont établis sur les
bases de l'indice 1 »), truncated, before the cap.

Ties (issue 29 point 7, booklet « Ex-aequo »): the tied players « se partagent également la totalité des PCN
attribués aux places correspondantes (arrondi supérieur si non entier) » — the mean of the PCN of the places
they cover, rounded up (two players on 212 at 3 tables share 120 + 82: 101 each). A tie that runs past the
last place with PCN counts 0 for the places beyond it, but a share is never under « L'attribution minimale
de Pcn est fixée à 50 PCN » (two players across the 6th and last place of 3 tables: (50 + 0) / 2 = 25, so 50
each); a tie wholly past the last place gets nothing. PP are shared the same way, without a floor.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import Sequence

from ..formats import FREE_FORMATS

__all__ = ["EVENTS", "CHAMPIONSHIPS", "PcnError", "Place", "abattement", "attribution", "share_ties"]

EVENTS = tuple(f.id for f in FREE_FORMATS)
#: The championship levels and their « indice » (p. 44); None: a club tournament.
CHAMPIONSHIPS = {None: Fraction(1), "regional": Fraction(1), "regional_semifinal": Fraction(3, 2),
                 "regional_final": Fraction(9, 5)}
FLOOR, CAP, REGIONAL_CAP = 50, 1500, 3000
#: Minimum entrants: 11 players, 6 duos, 5 teams of 4; the abattement's power and an entrant's players: 1, 2,
#: 4 — each format's `FreePlay.pcn_parameters`.
MINIMUM = {f.id: f.pcn_parameters()[0] for f in FREE_FORMATS}
_POWER = {f.id: f.pcn_parameters()[1] for f in FREE_FORMATS}
_PLAYERS = {f.id: f.pcn_parameters()[2] for f in FREE_FORMATS}
_PP = (3, 2, 1)


class PcnError(ValueError):
    """An event that awards no PCN, or bad arguments; the message is French."""


@dataclass(frozen=True)
class Place:
    place: int
    pcn: int
    pp: int


def abattement(event: str, tables: int) -> Fraction:
    """The coefficient from one place to the next: c, c² (duo) or c⁴ (teams of 4), 0.5 at least."""
    c = min(Fraction(66 + tables, 100), Fraction(95, 100))
    return max(c ** _POWER[event], Fraction(1, 2))


def attribution(event: str, tables: int, entrants: int | None = None, championship: str | None = None) -> list[Place]:
    """PCN (for each player of the entrant) and PP by place, best first; ``entrants`` are players, duos or
    teams (default: the tables full, 4 players a table)."""
    if event not in EVENTS:
        raise PcnError(f"épreuve « {event} » : free, free_duo ou free_team4")
    if championship not in CHAMPIONSHIPS:
        raise PcnError(f"niveau « {championship} » : regional, regional_semifinal ou regional_final")
    if tables < 1:
        raise PcnError("nombre de tables : 1 au moins")
    entrants = 4 * tables // _PLAYERS[event] if entrants is None else entrants
    if entrants < MINIMUM[event]:
        noun = {"free": "joueurs", "free_duo": "duos", "free_team4": "équipes de 4"}[event]
        raise PcnError(f"{entrants} {noun} : il en faut {MINIMUM[event]} au moins pour un tournoi homologué")
    places = ceil(Fraction(entrants, 2))
    coefficient = abattement(event, tables)
    index = CHAMPIONSHIPS[championship]
    cap = CAP if championship is None else REGIONAL_CAP
    first = 40 * tables
    found = []
    for place in range(1, places + 1):
        value = max(FLOOR, floor(first * coefficient ** (place - 1)))
        value = min(cap, floor(value * index))
        pp = _PP[place - 1] if championship is not None and place <= len(_PP) else 0
        found.append(Place(place, value, pp))
    return found


def share_ties(ranks: Sequence[int], table: Sequence[Place]) -> list[tuple[int, int]]:
    """(PCN, PP) for each entrant of a ranking given by its places (1, 2, 2, 4…): the ex æquo of a place
    share the PCN and PP of the places they fill, each share rounded up, a PCN share 50 at least when one
    of those places has PCN (module docstring)."""
    by_place = {p.place: p for p in table}
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    shares = {}
    for rank, count in counts.items():
        filled = [by_place.get(place) for place in range(rank, rank + count)]
        pcn = sum(p.pcn for p in filled if p)
        pp = sum(p.pp for p in filled if p)
        share = ceil(Fraction(pcn, count))
        shares[rank] = (max(share, FLOOR) if pcn else 0, ceil(Fraction(pp, count)))
    return [shares[rank] for rank in ranks]
