"""Plain data for guide cards and personal movement cards (SPEC §8, seed « fiche individuelle »).

Rule.  The FFT booklet (seed ``fft-fascicule-free-play-ocr.txt``) gives each player a « fiche
individuelle »: per position, table and orientation; the organisers put at each table the list of
who sits where.  For duplicate we add the étuis: at each table and position, the étuis played and
the table where they go next; on a personal card, the étuis the entrant plays.

Everything is computed from the rounds of any movement (generated or typed in), so the cards always
agree with what the validator checked.  Choices where the seeds are silent: a position where an
entrant does not play appears with ``table`` None: « relais » when the movement lists it among its
``rests`` (SPEC §7, headcount not a multiple of 4), « relâche » otherwise (phantom quadrette); every
guide card lists the players at the relais per position (``relais``); after the
last position, ``next_table`` is None; in quadrettes and team matches the attacker and the defence
of a team get separate cards (``role`` « attack » / « defence »).  Only plain dicts, lists, strings
and ints come out, ready for templates.
"""

from __future__ import annotations

from ..cards import LINE_NAMES
from .model import Movement

__all__ = ["guide_cards", "personal_cards"]

SEAT_FRENCH = {**LINE_NAMES, "attack": "attaque", "defence": "défense"}  # roles in a sentence


def _board_tables(movement: Movement) -> dict[tuple[int, int], int]:
    """(position, board) → table."""
    out: dict[tuple[int, int], int] = {}
    for r in movement.rounds:
        for b in r.boards:
            out.setdefault((r.position, b), r.table)
    return out


def _role_units(movement: Movement) -> bool:
    return movement.format.split_roles


def _where(movement: Movement) -> dict[tuple[int, str], tuple[int, str]]:
    """(position, unit) → (table, seat); a unit is the entrant, or "id/seat" for team kinds."""
    out: dict[tuple[int, str], tuple[int, str]] = {}
    for r in movement.rounds:
        for seat, who in r.seats:
            unit = f"{who}/{seat}" if _role_units(movement) else who
            out[(r.position, unit)] = (r.table, seat)
    return out


def guide_cards(movement: Movement) -> list[dict]:
    """One card per table: per position who sits where, the étuis, where étuis and players go next."""
    boards_at = _board_tables(movement)
    where = _where(movement)
    cards = []
    for table in range(1, movement.tables + 1):
        rows = []
        for position in range(1, movement.positions + 1):
            r = movement.round_at(position, table)
            if r is None:
                rows.append({"position": position, "seats": {}, "boards": [], "boards_next_table": None,
                             "players_next_table": {}, "idle": True})
                continue
            nexts = {boards_at.get((position + 1, b)) for b in r.boards}
            nexts.discard(None)
            players_next = {}
            for seat, who in r.seats:
                unit = f"{who}/{seat}" if _role_units(movement) else who
                nxt = where.get((position + 1, unit))
                players_next[seat] = nxt[0] if nxt else None
            row = {"position": position, "seats": dict(r.seats), "boards": list(r.boards),
                   "boards_next_table": min(nexts) if len(nexts) == 1 else (sorted(nexts) or None),
                   "players_next_table": players_next, "idle": False}
            if r.room:
                row["room"] = r.room
            rows.append(row)
        cards.append({"table": table, "kind": movement.kind, "positions": rows,
                      "relais": [{"position": p, "entrants": list(resting)} for p, resting in movement.rests]})
    return cards


def personal_cards(movement: Movement) -> list[dict]:
    """One card per entrant (per team role in quadrettes and team matches): position → table,
    orientation, étuis, next table."""
    where = _where(movement)
    rounds = {(r.position, r.table): r for r in movement.rounds}
    units: dict[str, tuple[str, str | None]] = {}
    for r in movement.rounds:
        for seat, who in r.seats:
            if _role_units(movement):
                units.setdefault(f"{who}/{seat}", (who, seat))
            else:
                units.setdefault(who, (who, None))
    for _, resting in movement.rests:
        for who in resting:
            if not _role_units(movement):
                units.setdefault(who, (who, None))
    cards = []
    for unit, (who, role) in units.items():
        rows = []
        for position in range(1, movement.positions + 1):
            spot = where.get((position, unit))
            if spot is None:
                label = "relais" if who in movement.resting_at(position) else "relâche"
                rows.append({"position": position, "table": None, "seat": None, "seat_fr": label,
                             "boards": [], "next_table": None})
                continue
            table, seat = spot
            nxt = where.get((position + 1, unit))
            rows.append({"position": position, "table": table, "seat": seat, "seat_fr": SEAT_FRENCH.get(seat, seat),
                         "boards": list(rounds[(position, table)].boards), "next_table": nxt[0] if nxt else None})
        card = {"entrant": who, "positions": rows}
        if role is not None:
            card["role"] = role
        cards.append(card)
    return cards
