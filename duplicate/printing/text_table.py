"""A printed table as one line of fixed-pitch text per row (the route sheets' rows).

Why: WeasyPrint lays out and draws every text box for about half a millisecond of CPU, whatever its
length, and a route sheet's table of 28 rows × 7 cells was 200 text boxes, 0.22 s of the 0.29 s a
sheet took (profiled on 600 sheets: ``bench/bench_printing.py``; the page without its table cost
0.07 s).  One line of text per row, its columns padded with spaces in a fixed-pitch font (DejaVu Sans
Mono, where a space, a digit, « − » and « é » have the same width), lays the same table out with 29
text boxes.  Columns are as wide as their longest cell, so nothing is ever cut.
"""

from __future__ import annotations

from typing import Sequence

#: Spaces between two columns.
GAP = "  "


def widths(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width in characters: its longest cell, header included."""
    return [max([len(header[i])] + [len(row[i]) for row in rows if i < len(row)]) for i in range(len(header))]


def offset(sizes: Sequence[int], column: int) -> int:
    """Where column ``column`` starts in a line, in characters: the columns before it and their gaps."""
    return sum(sizes[:column]) + len(GAP) * column


def line(cells: Sequence[str], sizes: Sequence[int], right: frozenset[int] | set[int] = frozenset()) -> str:
    """One row: each cell padded to its column's width (right-aligned when its index is in ``right``),
    columns separated by `GAP`; trailing spaces dropped (the last column is never padded)."""
    parts = [cell.rjust(size) if i in right else cell.ljust(size) for i, (cell, size) in enumerate(zip(cells, sizes))]
    return GAP.join(parts).rstrip()
