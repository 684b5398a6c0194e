"""Triplette duties: badge colours, attack rotation, duplication (SPEC §5).

Source: ``seeds/duplicate-tournaments.txt``, « Règles spécifiques aux tournois
triplettes »:

* each player of a triplette attacks in turn, in the alphabetical order of the
  surnames; badges are given by that order — Bleu for the first, Blanc for the
  second, Rouge for the third;
* before the tournament the arbiter draws the colour of the first attacker;
  the rotation goes Bleu → Blanc → Rouge → Bleu…, and runs on across sessions
  (it does not restart);
* when the étuis are prepared at the first position (duplication), the North–
  South triplette is responsible for odd étuis, the East–West one for even étuis.

Our choices: surnames are compared without accents and case (« Étienne » sorts
with « Etienne »), then by first name; the draw of the first colour takes a
seed so it can be reproduced and shown.  The application knows a player by
« NOM Prénom » (SPEC §9 ``name``): the surname is its leading upper-case words
(`split_name`); a name without that shape sorts as a whole.  The étuis of one
position are played in the order of their numbers, so a triplette's attacks
follow the positions, then the étui numbers (`plan_attacks`); a position
against a phantom triplette (odd count) is not played and takes no turn.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Collection, Iterable, Mapping, Sequence

from .cards import default_taker

__all__ = ["COLOURS", "Attack", "Triplette", "badge_colours", "attack_rotation", "attackers", "draw_first_colour",
           "duplication_duty", "member_badges", "attack_turns", "plan_attacks", "split_name", "attacking_line"]

#: Badge colours in rotation order.
COLOURS = ("Bleu", "Blanc", "Rouge")


def _sort_key(name: tuple[str, str]) -> tuple[str, str]:
    def plain(text: str) -> str:
        decomposed = unicodedata.normalize("NFKD", text)
        return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return plain(name[0]), plain(name[1])


def badge_colours(members: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """Player id → badge colour, from (id, surname, first name) of the three members."""
    members = list(members)
    if len(members) != 3:
        raise ValueError(f"une triplette compte trois joueurs, pas {len(members)}")
    ordered = sorted(members, key=lambda m: _sort_key((m[1], m[2])))
    return {member[0]: colour for member, colour in zip(ordered, COLOURS)}


def draw_first_colour(seed: str) -> str:
    """The arbiter's draw of the first attacking colour, reproducible from a seed."""
    digest = hashlib.sha256(f"tarot-triplettes/1|{seed}".encode("utf-8")).digest()
    return COLOURS[int.from_bytes(digest[:4], "big") % 3]


def attack_rotation(first_colour: str, attacks: int, already_attacked: int = 0) -> list[str]:
    """Colours of the next ``attacks`` attackers of a triplette.

    ``already_attacked`` counts the attacks of earlier sessions, so that the
    rotation goes on across sessions.
    """
    if first_colour not in COLOURS:
        raise ValueError(f"couleur inconnue « {first_colour} » (Bleu, Blanc ou Rouge)")
    start = COLOURS.index(first_colour) + already_attacked
    return [COLOURS[(start + i) % 3] for i in range(attacks)]


def duplication_duty(board: int) -> str:
    """The line responsible for duplicating an étui: NS for odd, EW for even."""
    return "NS" if board % 2 else "EW"


def attackers(members: Sequence[tuple[str, str, str]], first_colour: str, attacks: int,
              already_attacked: int = 0) -> list[str]:
    """Player ids of the triplette's next attackers, in turn."""
    colour_of = badge_colours(members)
    by_colour = {colour: player for player, colour in colour_of.items()}
    return [by_colour[c] for c in attack_rotation(first_colour, attacks, already_attacked)]


def split_name(name: str) -> tuple[str, str]:
    """« DE LA TOUR Jean-Marc » → (« DE LA TOUR », « Jean-Marc »): the leading upper-case words are the
    surname (the way FFT lists write a name). When that split would not give the name back exactly (odd
    spacing, no upper-case word), the whole name is the surname."""
    words = name.split(" ")
    count = 0
    while count < len(words) - 1 and words[count] and words[count] == words[count].upper() \
            and any(c.isalpha() for c in words[count]):
        count += 1
    surname, first_name = " ".join(words[:count]), " ".join(words[count:])
    if not surname or " ".join(p for p in (surname, first_name) if p) != name:
        return name, ""
    return surname, first_name


def member_badges(members: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Player id → badge colour, from (id, « NOM Prénom ») of the three members: the one place that
    decides a badge (Bleu for the first surname in alphabetical order, Blanc, Rouge — seed, « Règles
    spécifiques aux tournois triplettes »)."""
    return badge_colours((ident, *split_name(name)) for ident, name in members)


def attacking_line(taker_seat: str) -> str:
    """The triplette line that attacks an étui: NS for a taker N or S, EW for E or W (seed: « Les
    triplettes Nord-Sud attaquent les étuis dont le preneur est marqué Nord ou Sud »)."""
    return "NS" if taker_seat in ("N", "S") else "EW"


@dataclass(frozen=True)
class Triplette:
    """What the rotation needs of a triplette: the arbiter's first colour, its members as (id, « NOM
    Prénom »), and how many times it attacked in earlier séances (the rotation runs on)."""

    first_colour: str | None
    members: tuple[tuple[str, str], ...]
    attacked_before: int = 0


@dataclass(frozen=True)
class Attack:
    """Who of a triplette attacks one étui: its ``turn`` (0 for the séance's first attack), the badge
    ``colour`` of that turn, the ``player`` wearing it (None when the triplette is not complete)."""

    board: int
    position: int
    team: str
    turn: int
    colour: str
    player: str | None


def attack_turns(teams: Collection[str], rounds: Iterable[Mapping], takers: Mapping[int, str]
                 ) -> dict[str, list[tuple[int, int]]]:
    """Triplette id → its attacks as (position, étui), in play order: position, then étui number.

    ``rounds`` are SPEC §9 movement rounds (``position``, ``table``, ``seats`` {"NS": id, "EW": id},
    ``boards``), ``takers`` étui → taker seat. A triplette attacks the étuis whose taker sits on its line
    at that position. A round whose opponent is not in ``teams`` (a phantom) is not played."""
    played: dict[str, list[tuple[int, int]]] = {}
    for round_ in rounds:
        seats = round_.get("seats") or {}
        if not all(seats.get(line) in teams for line in ("NS", "EW")):
            continue
        for number in round_.get("boards", ()):
            team = seats[attacking_line(takers.get(number) or default_taker(number))]
            played.setdefault(team, []).append((int(round_["position"]), int(number)))
    return {team: sorted(attacks) for team, attacks in played.items()}


def plan_attacks(teams: Mapping[str, Triplette], rounds: Iterable[Mapping], takers: Mapping[int, str]
                 ) -> dict[tuple[int, str], Attack]:
    """(étui, triplette id) → `Attack`, for every étui a triplette attacks in the movement (`attack_turns`):
    its k-th attack (from 0, plus ``attacked_before``) is made by colour ``first_colour`` + k in Bleu →
    Blanc → Rouge, worn by the member of that badge (`member_badges`). A triplette without a first colour
    gets no plan."""
    plan = {}
    for team, attacks in attack_turns(teams, rounds, takers).items():
        triplette = teams[team]
        if triplette.first_colour not in COLOURS:
            continue
        wearer = {colour: player for player, colour in member_badges(triplette.members).items()} \
            if len(triplette.members) == 3 else {}
        colours = attack_rotation(triplette.first_colour, len(attacks), triplette.attacked_before)
        for turn, ((position, number), colour) in enumerate(zip(attacks, colours)):
            plan[(number, team)] = Attack(number, position, team, turn + triplette.attacked_before, colour,
                                          wearer.get(colour))
    return plan
