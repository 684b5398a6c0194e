"""Team match schedule (SPEC §6–§7 « Team match », seed ``duplicate-tournaments.txt``).

Rule.  Two teams of 4 to 6 players, 16 to 24 étuis, 4 quarters (« quarts temps »), an open and a
closed room.  Each quarter A's attacker meets B's defence in one room while B's attacker meets A's
defence in the other, on the same étuis; the attacker sits South.  The étui series of a quarter is
chosen by attacker A in quarters 1 and 3 and by attacker B in quarters 2 and 4; the rooms are chosen
by team A in quarters 1 and 3 and by team B in quarters 2 and 4.  A different attacker each quarter
(a team-sheet matter, not a movement one).

Representation (ours, the seeds are silent): ``position`` is the quarter; tables 2k−1 and 2k are the
open and closed rooms of match k; seats ``{"attack": "A", "defence": "B"}``; extra fields ``room``
and ``chosen_by``.  Quarter q plays étuis (q−1)·b+1 … q·b (b = 5 by default: 20 étuis).  Default
rooms: in quarters chosen by A, A attacks in the open room; in quarters chosen by B, B does — the
captains may swap, the comparison is the same.  ``tables`` must be even: several matches at once
(teams ``A1``/``B1``, ``A2``/``B2``…) play the same étui numbers from their own copies.
"""

from __future__ import annotations

from .model import Movement, MovementError, Round, build_rounds, default_takers

__all__ = ["generate_team_match", "QUARTERS", "generate", "reach"]

QUARTERS = 4


def generate_team_match(tables: int = 2, positions: int | None = None,
                        boards_per_position: int | None = None) -> Movement:
    if tables < 2 or tables % 2:
        lower, upper = max(2, tables - 1 if tables % 2 else 2), tables + 1 if tables % 2 else 2
        raise MovementError(
            "Un match par équipes se joue sur 2 tables par match (salle ouverte et salle fermée) ; "
            + (f"{tables} tables ne conviennent pas" if tables > 1 else f"{tables} table ne convient pas")
            + f" : proposez {lower}"
            + (f" ou {upper}" if upper != lower else "") + " tables.")
    if positions is not None and positions != QUARTERS:
        raise MovementError(f"Un match par équipes se joue en 4 quarts temps ; proposez 4 positions "
                            f"(reçu {positions}).")
    per = 5 if boards_per_position is None else boards_per_position
    if per < 1:
        raise MovementError("Il faut au moins un étui par quart temps.")
    matches = tables // 2
    rounds = []
    for k in range(matches):
        a, b = ("A", "B") if matches == 1 else (f"A{k + 1}", f"B{k + 1}")
        for q in range(1, QUARTERS + 1):
            chooser = "A" if q % 2 else "B"
            first, second = (a, b) if chooser == "A" else (b, a)
            boards = tuple(range((q - 1) * per + 1, q * per + 1))
            rounds.append(Round(q, 2 * k + 1, (("attack", first), ("defence", second)), boards, "open", chooser))
            rounds.append(Round(q, 2 * k + 2, (("attack", second), ("defence", first)), boards, "closed", chooser))
    notes = ["Match par équipes : 4 quarts temps ; séries d’étuis et salles choisies par A aux 1er et 3e "
             "quarts temps, par B aux 2e et 4e ; le preneur est toujours en Sud."]
    if not 4 <= per <= 6:
        notes.append(f"{QUARTERS * per} étuis : le règlement prévoit de 16 à 24 étuis.")
    if matches > 1:
        notes.append(f"{matches} matchs simultanés : chaque match joue les mêmes étuis avec ses propres copies.")
    return Movement("team_match", tables, QUARTERS, default_takers(QUARTERS * per), build_rounds(rounds), tuple(notes))


#: The generator `core.formats` names for the team match (``Format.movement``).
generate = generate_team_match


def reach(tables: int) -> tuple[int, int]:
    """(positions without any repeat, most positions generated): the 4 quarters on an even number of tables."""
    return (QUARTERS, QUARTERS) if tables >= 2 and tables % 2 == 0 else (0, 0)
