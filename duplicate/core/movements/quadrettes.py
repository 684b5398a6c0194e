"""Quadrettes movement (SPEC §7 « Quadrettes », seed ``duplicate-tournaments.txt``).

Rule.  Each quadrette has one attacker (always South, whatever the étui says) and a defence of three
(N, E, W) that stays at its home table for the whole session; only attackers move, carrying the
étuis.  A's attacker meets B's defence and B's attacker meets A's defence on the same étuis, and the
two scores are compared in points de match.  SPEC §7: for T odd, attackers +2 tables, étuis +1 table
— every pair of quadrettes is compared on one set, played in rounds r and T − r; for T even, a bye
(a phantom quadrette).

Arithmetic (tables and quadrettes 0…n−1, mod n, n odd): at position p with offset d = d(p), the
attacker of quadrette x sits at table x + 2d and the étuis that started at table s are at table
s + d, so the attacker plays set x + d against the defence of x + 2d; at offset −d the attacker of
x + 2d meets the defence of x on set (x + 2d) − d = x + d: the same étuis.  Offsets 1 … n − 1 give
every pair exactly once (2 is invertible mod n).

Choices where the seeds are silent: ``tables`` is the number of quadrettes (one home table each).
For an even number a phantom quadrette n = T + 1 is added: the table of the phantom is not set up;
at each position the attacker meeting the phantom's defence and the defence meeting the phantom's
attacker rest (« relâche »).  Fewer positions than n − 1 must be even (a comparison needs both of
its positions): offsets 1…k then n − k … n − 1 — attackers move +2 each time except once in the
middle.  4 étuis per position by default.
"""

from __future__ import annotations

from .model import Movement, MovementError, Round, boards_per_position as per_position, build_rounds, default_takers

__all__ = ["generate_quadrettes", "quadrettes_max_positions", "generate", "reach"]


def quadrettes_max_positions(tables: int) -> int:
    """Positions that compare every pair once: T − 1 for T odd, T (with a phantom) for T even."""
    return tables - 1 if tables % 2 else tables


def generate_quadrettes(tables: int, positions: int | None = None,
                        boards_per_position: int | None = None) -> Movement:
    if tables < 2:
        raise MovementError(f"Un tournoi en quadrettes demande au moins 2 quadrettes ; reçu {tables}.")
    per = per_position(boards_per_position)
    n = tables if tables % 2 else tables + 1
    top = n - 1
    if positions is None:
        positions = top
    if positions < 1:
        raise MovementError("Il faut au moins une position.")
    if positions > top:
        raise MovementError(f"Avec {tables} quadrettes, au plus {top} positions sans répétition "
                            f"(chaque paire comparée une fois) ; proposez {top} positions.")
    if positions % 2 and positions != top:
        # the even counts on either side (top is even, so positions + 1 ≤ top); never « 0 positions »
        hint = " ou ".join(str(n) for n in (positions - 1, positions + 1) if n >= 1)
        raise MovementError(f"En quadrettes, chaque comparaison se joue en deux positions : avec {positions} "
                            f"positions une comparaison resterait incomplète ; proposez {hint} positions.")
    k = positions // 2
    offsets = list(range(1, k + 1)) + list(range(n - k, n)) if positions != top else list(range(1, n))
    phantom = n - 1 if n != tables else None
    used_sets = sorted({(t - d) % n for d in offsets for t in range(n)
                        if phantom is None or phantom not in (t, (t - 2 * d) % n)})
    number = {s: i for i, s in enumerate(used_sets)}   # renumber: a phantom may leave a set unplayed
    rounds = []
    for p, d in enumerate(offsets, start=1):
        for t in range(n):
            x = (t - 2 * d) % n
            if phantom is not None and phantom in (t, x):
                continue
            s = number[(t - d) % n]
            rounds.append(Round(p, t + 1, (("attack", f"Q{x + 1}"), ("defence", f"Q{t + 1}")),
                                tuple(range(s * per + 1, s * per + per + 1))))
    notes = ["Méthode : défenses fixes, attaquants +2 tables, étuis +1 table ; "
             "chaque paire de quadrettes est comparée une fois sur les mêmes étuis."]
    if phantom is not None:
        notes.append(f"Nombre pair de quadrettes : une quadrette fictive (Q{n}) est ajoutée ; à chaque position, "
                     "un attaquant et une défense sont au repos.")
    if positions != top:
        notes.append(f"{positions} positions sur {top} : seules les paires d’écart ±1 à ±{k} sont comparées.")
    return Movement("quadrettes", tables, positions, default_takers(len(used_sets) * per), build_rounds(rounds), tuple(notes))


#: The generator `core.formats` names for the quadrettes (``Format.movement``).
generate = generate_quadrettes


def reach(tables: int) -> tuple[int, int]:
    """(positions without any repeat, most positions generated) for ``tables`` quadrettes; (0, 0) below 2."""
    top = quadrettes_max_positions(tables) if tables >= 2 else 0
    return (top, top)
