"""Topage: the notes of each table on one étui (SPEC §4).

Source: ``seeds/duplicate-tournaments.txt``, « 1ère étape : topage de chaque
donne du concours ».  For an étui played ``n`` times, each taker's note is
``100 × (tables beaten + ½ × tables tied) / (n − 1)``: the top is 100, the
bottom 0, equal scores share the notes between them.  Every defender gets
``100 − taker's note`` (in triplettes and quadrettes, the defending team).
With ``n = 1`` there is nothing to compare: the note is 50 (our choice, the
seed is silent; it keeps the player's average neutral).

Arbiter adjustments (the seed's « ajustements … donne annulée, marque ajustée,
pénalités »):

* an **annulled** deal is left out of ``n`` and gets no note at all, so it
  does not count in the players' averages either;
* an **adjusted** score replaces the entered one and is topped normally — the
  result carries ``adjusted=True`` so every printout can flag it;
* an **arbitral note** fixes the taker's and the defence's notes for that
  table; that table is then left out of the other tables' comparison.

Notes are exact :class:`fractions.Fraction` values; only display rounds.  The
tables beaten and tied are counted by bisection in the étui's sorted scores
(one sort per étui, not every table against every other).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction
from collections.abc import Iterable

__all__ = ["Result", "ArbitralNote", "TableNote", "board_notes", "topage"]


@dataclass(frozen=True)
class ArbitralNote:
    """Notes fixed by the arbiter for one table on one étui (percentages)."""

    taker: Fraction
    defence: Fraction


@dataclass(frozen=True)
class Result:
    """One line of a fiche ambulante: who played an étui at a table, and the score.

    ``taker`` and ``defence`` are entrant ids: the taker and the three defenders
    in the individual; the attacking team and (one) defending team otherwise.
    Team matches add ``quarter``, ``room`` and ``contract``.
    """

    board: int
    table: int
    taker: str
    defence: tuple[str, ...]
    score: int | None
    position: int | None = None
    annulled: bool = False
    adjusted: bool = False
    notes: ArbitralNote | None = None
    chelem: bool = False
    contract: str = "garde"
    quarter: int | None = None
    room: str | None = None

    @property
    def entrants(self) -> tuple[str, ...]:
        return (self.taker, *self.defence)


@dataclass(frozen=True)
class TableNote:
    """A result with its notes; both notes are ``None`` for an annulled deal."""

    result: Result
    taker_note: Fraction | None
    defence_note: Fraction | None


@lru_cache(maxsize=4096)
def _notes(half_tables_beaten: int, n: int) -> tuple[Fraction, Fraction]:
    """Taker's and defence's notes for ``half_tables_beaten`` = 2 × beaten + tied, out of ``n`` tables
    (the same few values recur over a tournament's étuis: made once)."""
    taker_note = Fraction(100 * half_tables_beaten, 2 * (n - 1)) if n > 1 else Fraction(50)
    return taker_note, 100 - taker_note


def board_notes(results: Iterable[Result]) -> list[TableNote]:
    """Top the results of one étui (in the order given)."""
    results = list(results)
    scores = sorted(r.score for r in results if not r.annulled and r.notes is None)
    n = len(scores)
    notes = []
    for result in results:
        if result.annulled:
            notes.append(TableNote(result, None, None))
        elif result.notes is not None:
            notes.append(TableNote(result, result.notes.taker, result.notes.defence))
        else:
            beaten = bisect_left(scores, result.score)
            tied = bisect_right(scores, result.score) - beaten - 1
            taker_note, defence_note = _notes(2 * beaten + tied, n)
            notes.append(_table_note({"result": result, "taker_note": taker_note, "defence_note": defence_note}))
    return notes


def _table_note(fields: dict) -> TableNote:
    """``TableNote(**fields)`` for the thousands of notes of a topage: the dict becomes the note's own instead
    of one frozen ``__setattr__`` per field; equal and hashed like the dataclass's own."""
    note = object.__new__(TableNote)
    object.__setattr__(note, "__dict__", fields)
    return note


def topage(results: Iterable[Result]) -> dict[int, list[TableNote]]:
    """Top every étui: board number → its table notes, boards and tables in order."""
    by_board: dict[int, list[Result]] = {}
    for result in results:
        by_board.setdefault(result.board, []).append(result)
    return {
        board: board_notes(sorted(rows, key=lambda r: (r.position or 0, r.table)))
        for board, rows in sorted(by_board.items())
    }
