"""The move between two positions, as the arbiter announces it in the hall (« Nord fixe, Sud +1, Est +2,
Ouest −2 ; étuis −1 »).

Rule.  Seed ``fft-fascicule-free-play-ocr.txt`` (« Mouvement de base préconisé par la FFT »): North
fixed, South +1 table, East +2, West −2; SPEC §7: étuis −1 table per position (Rainbow), triplettes
EW +1 and étuis −1 (Mitchell), quadrettes attackers +2 and étuis +1.  The announcement is not typed in:
it is read from the movement's rounds (generated or typed in by the arbiter), the same rounds the guide
cards print (`cards_data`), so the screen and the cards cannot disagree.

How a line's step is read: every entrant seated at position p and at p + 1 is followed; the step is the
change of table, taken the short way round the room (modulo the table count, in −T/2 < step ≤ T/2, so
that 7 tables read « −2 », not « +5 »).  A line whose entrants do not all move by the same step, or
change orientation (the Howell movements of 3 and 4 tables, special moves), gets no step (``None``):
the hall then reads « voir les cartes » for that line.  Étuis are followed the same way.  Entrants
who go to the relais at p + 1, or come back from it (SPEC §7 relais), are listed apart.

Choices where the seeds are silent: a line that stays is announced « fixe »; the étuis' step is left
out when no étui of p is played at p + 1; in quadrettes the attackers and the defences of one quadrette
are followed apart (they sit at different tables); a team match announces no move (each quarter the
captains choose the rooms and the attackers the étuis, SPEC §7).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import cards
from .model import Movement

__all__ = ["LineMove", "Move", "next_move", "describe", "step_text"]

#: How a line is named in the hall.
LINE_NAMES = cards.LINE_NAMES


@dataclass(frozen=True)
class LineMove:
    """How one line (seat key) moves: ``step`` tables, ``None`` when its entrants do not all move alike."""

    seat: str
    step: int | None


@dataclass(frozen=True)
class Move:
    """The move after position ``position``: each line's step, the étuis' step, the relais.

    ``resting`` — entrants who sit out at the next position; ``joining`` — ``(entrant, table, seat)`` of
    those who come back from the relais."""

    position: int
    lines: tuple[LineMove, ...]
    boards: int | None
    resting: tuple[str, ...] = ()
    joining: tuple[tuple[str, int, str], ...] = ()


def _short_way(delta: int, tables: int) -> int:
    """A change of table the short way round: in (−T/2, T/2]."""
    step = delta % tables
    return step - tables if step > tables / 2 else step


def _places(movement: Movement, position: int) -> dict:
    """Who sits where at ``position``: entrant → (table, seat); in quadrettes (attackers and defences of
    one quadrette sit apart) the key is (entrant, seat)."""
    split = movement.format.split_roles
    return {((who, seat) if split else who): (r.table, seat) for r in movement.rounds_at(position)
            for seat, who in r.seats}


def next_move(movement: Movement, position: int) -> Move | None:
    """The move from ``position`` to the next one; None after the last position (or an unknown one)."""
    if not 1 <= position < movement.positions:
        return None
    if movement.format.rooms:  # each quarter the captains choose the rooms (SPEC §7): nothing to announce
        return Move(position, (), None)
    now, then = _places(movement, position), _places(movement, position + 1)
    steps: dict[str, set] = {}
    for who, (table, seat) in now.items():
        if who not in then:
            continue
        next_table, next_seat = then[who]
        step = _short_way(next_table - table, movement.tables) if next_seat == seat else None
        steps.setdefault(seat, set()).add(step)
    order = movement.format.seats
    seats = sorted(steps, key=lambda s: (order.index(s) if s in order else len(order), s))
    lines = tuple(LineMove(seat, next(iter(steps[seat])) if len(steps[seat]) == 1 else None) for seat in seats)

    board_now = {b: r.table for r in movement.rounds_at(position) for b in r.boards}
    board_then = {b: r.table for r in movement.rounds_at(position + 1) for b in r.boards}
    board_steps = {_short_way(board_then[b] - t, movement.tables) for b, t in board_now.items() if b in board_then}
    boards = next(iter(board_steps)) if len(board_steps) == 1 else None

    resting = tuple(who for who in movement.resting_at(position + 1) if who in now)
    joining = tuple((who, table, seat) for who, (table, seat) in sorted(then.items(), key=lambda item: item[1])
                    if who not in now and not isinstance(who, tuple))
    return Move(position, lines, boards, resting, joining)


def step_text(step: int | None) -> str:
    """« fixe », « +1 », « −2 » (true minus sign), « voir les cartes » when the line does not move alike."""
    if step is None:
        return "voir les cartes"
    if step == 0:
        return "fixe"
    return f"+{step}" if step > 0 else f"−{-step}"


def describe(move: Move) -> list[str]:
    """The announcement, one part per line then the étuis: ``["Nord fixe", "Sud +1", "Est +2",
    "Ouest −2", "Étuis −1"]``."""
    parts = [f"{LINE_NAMES.get(line.seat, line.seat)} {step_text(line.step)}" for line in move.lines]
    if move.boards is not None:
        parts.append("Étuis fixes" if move.boards == 0 else f"Étuis {step_text(move.boards)}")
    return parts
