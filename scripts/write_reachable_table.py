"""Write ``duplicate/core/reachable_table.py``: every score each contract can produce, with and without a
chelem, and which of them are only theoretical — `duplicate.core.scoring.derive_reachable_scores` computed
once from the card model, so that a process checking scores (``rank``, the entry screens) reads them
instead of deriving them again (issue 12).

Run: ``.venv/bin/python scripts/write_reachable_table.py``. ``tests/core/test_scoring.py`` fails when the
file differs from what this script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from duplicate.core.scoring import Contract, derive_reachable_scores  # noqa: E402

TABLE = ROOT / "duplicate" / "core" / "reachable_table.py"


def _numbers(values: list[int]) -> str:
    lines, line = [], "        ("
    for value in values:
        item = f"{value}, "
        if len(line) + len(item) > 116:
            lines.append(line.rstrip())
            line = "         "
        line += item
    line = line.rstrip()
    lines.append((line[:-1] if len(values) > 1 else line) + "),")
    return "\n".join(lines)


def table_text() -> str:
    """The module's text: ``REACHABLE[(contract, chelem)] = (every score in increasing order, the
    theoretical ones)``."""
    parts = ['"""Every score a contract can produce (SPEC §3), with and without a chelem: written by',
             "``scripts/write_reachable_table.py`` from the card model (`duplicate.core.scoring.derive_reachable_scores`);",
             'do not edit. ``REACHABLE[(contract, chelem)] = (scores in increasing order, the theoretical ones)``."""',
             "", "REACHABLE = {"]
    for contract in Contract:
        for chelem in (False, True):
            reachable = derive_reachable_scores(contract, chelem)
            parts.append(f"    ({contract.value!r}, {chelem}): (")
            parts.append(_numbers(list(reachable)))
            parts.append(_numbers([score for score, theoretical in reachable.items() if theoretical]))
            parts.append("    ),")
    parts.append("}")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    TABLE.write_text(table_text(), encoding="utf-8")
    print(f"{TABLE.relative_to(ROOT)} written")
