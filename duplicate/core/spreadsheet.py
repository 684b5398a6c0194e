"""CSV cells a spreadsheet shows as text, never runs (issue 31, point 5; OWASP « CSV Injection »).

Excel, LibreOffice and Google Sheets run a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(…)`` leads away, ``=cmd|…`` ran programs), and some also after a tab, a carriage return or a
line feed. A name typed by a player or an arbiter may start so; the exports (the teams list, the PCN file)
then write it with a leading apostrophe, which the spreadsheet shows as text.

Our choice, per value: a cell that is a number (an ``int`` or ``float`` written by the export, or text that
reads entirely as one: ``-40``, ``+56``, ``2,5``, ``-1.5e3``) is written as it is, so that signed scores stay
numbers; any other text starting with one of these characters gets the apostrophe. The teams import
(`operations._team_csv`) takes it off again, so an exported list imports back unchanged."""

from __future__ import annotations

import re

#: What makes a spreadsheet read a cell as a formula (OWASP), and the line feed for good measure.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)(?:[eE][+-]?[0-9]+)?")


def is_number_text(text: str) -> bool:
    """Whether ``text`` is a plain number as a spreadsheet reads one (sign, digits, decimal point or comma,
    exponent), nothing else."""
    return _NUMBER.fullmatch(text) is not None


def safe_cell(value):
    """``value`` as a CSV writer should write it: numbers and harmless text unchanged; text a spreadsheet
    would run as a formula prefixed with ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not is_number_text(value):
        return "'" + value
    return value


def safe_row(values) -> list:
    """`safe_cell` on each cell of a row."""
    return [safe_cell(value) for value in values]


def unescape_cell(text: str) -> str:
    """The text `safe_cell` was given: its apostrophe taken off (what a spreadsheet shows, read back)."""
    if isinstance(text, str) and text.startswith("'") and text[1:].startswith(FORMULA_STARTS) \
            and not is_number_text(text[1:]):
        return text[1:]
    return text
