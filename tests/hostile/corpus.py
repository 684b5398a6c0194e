"""The hostile corpus's tally (issue 14): inputs tried, refused (a clean French refusal) and accepted, by
family; printed at the end of the run by ``conftest.pytest_terminal_summary``."""

from __future__ import annotations

from collections import Counter

TALLY: dict[str, Counter] = {}


def record(family: str, accepted: bool) -> None:
    counts = TALLY.setdefault(family, Counter())
    counts["tried"] += 1
    counts["accepted" if accepted else "refused"] += 1


def summary() -> list[str]:
    if not TALLY:
        return []
    total = Counter()
    lines = []
    for family, counts in sorted(TALLY.items()):
        total.update(counts)
        lines.append(f"{family:<28} tried {counts['tried']:>6}  refused {counts['refused']:>6}  "
                     f"accepted {counts['accepted']:>6}")
    lines.append(f"{'total':<28} tried {total['tried']:>6}  refused {total['refused']:>6}  "
                 f"accepted {total['accepted']:>6}")
    return lines
