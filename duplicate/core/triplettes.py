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
seed so it can be reproduced and shown.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Iterable, Sequence

__all__ = ["COLOURS", "badge_colours", "attack_rotation", "attackers", "draw_first_colour", "duplication_duty"]

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
