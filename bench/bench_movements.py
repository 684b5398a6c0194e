"""Benchmark: movement generation + validation for 10 to 150 tables, every kind.

Run from the repository root: ``python3 bench/bench_movements.py`` (prints a table of timings);
``python3 bench/bench_movements.py --reach`` prints, for 3 to 30 tables and each kind, the positions
reached without any repeat and the most positions generated, each checked by the validator.
Default positions (the most without any repeat, capped at the number of tables); team matches use
tables/2 simultaneous matches.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from duplicate.core.movements import KINDS, MovementError, check, generate, reach  # noqa: E402

SIZES = (10, 30, 60, 100, 150)


def reach_table() -> None:
    """Positions without any repeat / most positions generated, verified by generating and checking."""
    print("tables | " + " | ".join(f"{kind} (sans rép. / max)" for kind in KINDS))
    for tables in range(3, 31):
        cells = []
        for kind in KINDS:
            clean, top = reach(kind, tables)
            if top == 0:
                cells.append("— (message)")
                continue
            movement = generate(kind, tables, top)
            report = check(movement)
            assert report.ok, report.text()
            if clean == top and top > 1 and kind != "team_match":
                assert report.stats["repeated_meetings"] == 0
            cells.append(f"{clean} / {top}")
        print(f"{tables:>6} | " + " | ".join(cells))


def main() -> None:
    print(f"{'type':<12}{'tables':>7}{'positions':>10}{'tours':>8}{'génération (s)':>16}"
          f"{'validation (s)':>16}{'valide':>8}")
    for kind in KINDS:
        for tables in SIZES:
            start = time.perf_counter()
            try:
                movement = generate(kind, tables)
            except MovementError as exc:
                print(f"{kind:<12}{tables:>7}  {exc}")
                continue
            generated = time.perf_counter() - start
            start = time.perf_counter()
            report = check(movement)
            checked = time.perf_counter() - start
            print(f"{kind:<12}{tables:>7}{movement.positions:>10}{len(movement.rounds):>8}"
                  f"{generated:>16.3f}{checked:>16.3f}{'oui' if report.ok else 'NON':>8}")


if __name__ == "__main__":
    reach_table() if "--reach" in sys.argv else main()
