"""Triplettes movements (SPEC §7 « Triplettes », seed ``duplicate-tournaments.txt``).

Rule.  Each triplette starts North-South or East-West; NS triplettes attack the étuis whose taker is
N or S and defend the others, EW the converse.  Mitchell: NS triplettes stay, EW triplettes go up one
table, étuis go down one table per position.  Howell schedules (each triplette meets all others, the
orientation given per position) and the « Emmanuel 16 » final are supplied by the arbiter as data.

Arithmetic (tables 0…T−1, mod T): at position p the EW triplette of table x sits at table x + p and
the étuis that started at table s are at s − p, so EW plays set x + 2p and NS of table t plays set
t + p.  T odd: T positions without any repeat.  T even: 2p repeats after T/2 positions, so the EW
triplettes skip one table from position T/2 + 1 on (« saut ») — EW then play the odd offsets — and
the movement is clean for T − 1 positions (a T-th would bring back the first opponent).

Choices where the seeds are silent: the skip rather than a relay table; 4 étuis per position
(takers N, S, E, W: each triplette attacks 2 and defends 2 per position); the default number of
positions is the maximum (T, or T − 1 for even T).  ``from_schedule`` turns an arbiter's typed table
(position, table, NS triplette, EW triplette, set of étuis) into a movement for the validator.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .model import Movement, MovementError, Round, boards_per_position as per_position, build_rounds, default_takers

__all__ = ["generate_triplettes", "triplettes_max_positions", "from_schedule", "generate", "reach"]


def triplettes_max_positions(tables: int) -> int:
    return tables if tables % 2 else tables - 1


def generate_triplettes(tables: int, positions: int | None = None,
                        boards_per_position: int | None = None) -> Movement:
    if tables < 2:
        raise MovementError(f"Un Mitchell en triplettes demande au moins 2 tables ; reçu {tables}.")
    per = per_position(boards_per_position)
    top = triplettes_max_positions(tables)
    if positions is None:
        positions = top
    if positions < 1:
        raise MovementError("Il faut au moins une position.")
    if positions > top:
        raise MovementError(f"Avec {tables} tables, au plus {top} positions sans répétition "
                            f"(Mitchell{' avec saut' if tables % 2 == 0 else ''}) ; proposez {top} positions.")
    half = tables // 2
    skip = tables % 2 == 0
    rounds = []
    for p in range(positions):
        shift = p + (1 if skip and p >= half else 0)
        for t in range(tables):
            ew = (t - shift) % tables
            s = (t + p) % tables
            rounds.append(Round(p + 1, t + 1, (("NS", f"NS{t + 1}"), ("EW", f"EW{ew + 1}")),
                                tuple(range(s * per + 1, s * per + per + 1))))
    notes = ["Méthode : Mitchell (NS fixes, EO +1 table, étuis −1 table)."]
    if skip and positions > half:
        notes.append(f"Nombre pair de tables : les EO sautent une table avant la position {half + 1}.")
    return Movement("triplettes", tables, positions, default_takers(tables * per), build_rounds(rounds), tuple(notes))


def from_schedule(rows: Iterable[Sequence], boards_per_position: int = 4) -> Movement:
    """An arbiter's table → movement.  Each row: (position, table, NS triplette, EW triplette, set),
    sets numbered from 1 (set k = étuis (k−1)·b+1 … k·b).  Check the result with ``check``."""
    rounds = []
    per = boards_per_position
    for i, row in enumerate(rows, start=1):
        try:
            position, table, ns, ew, board_set = row
            position, table, board_set = int(position), int(table), int(board_set)
        except (TypeError, ValueError):
            raise MovementError(f"ligne {i} du tableau : attendu (position, table, NS, EO, série)") from None
        if min(position, table, board_set) < 1:
            raise MovementError(f"ligne {i} du tableau : position, table et série commencent à 1")
        rounds.append(Round(position, table, (("NS", str(ns)), ("EW", str(ew))),
                            tuple(range((board_set - 1) * per + 1, board_set * per + 1))))
    if not rounds:
        raise MovementError("le tableau du mouvement est vide")
    sets = max(max(r.boards) for r in rounds) // per
    return Movement("triplettes", max(r.table for r in rounds), max(r.position for r in rounds),
                    default_takers(sets * per), build_rounds(rounds), ("Mouvement saisi par l’arbitre.",))


#: The generator `core.formats` names for the triplettes (``Format.movement``).
generate = generate_triplettes


def reach(tables: int) -> tuple[int, int]:
    """(positions without any repeat, most positions generated) at ``tables`` tables; (0, 0) below 2."""
    top = triplettes_max_positions(tables) if tables >= 2 else 0
    return (top, top)
