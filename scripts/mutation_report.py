"""Kill rates of the last mutation run (`make mutation`), per module, against the survivors documented
as equivalent in ``docs/mutation-survivors.md``.

mutmut keeps each mutant's outcome in ``mutants/<file>.meta`` (the exit code of its test run: 1 killed,
0 survived, …).  A survivor is *equivalent* when the document lists it (a line starting with its name in
back-quotes, then one line saying why no test can tell it from the original).  A survivor that could be
neither killed nor proved equivalent is listed in the section « Alive, not proved equivalent » (a line
starting with « - alive: » and its name in back-quotes, then why): it counts as alive, against the kill rate.
Prints, per module: the mutants, killed, equivalent, alive (documented or not), and the kill rate of the
non-equivalent mutants (modules named by their path under ``duplicate/core/``: ``freeplay/scoring.py`` is not
``scoring.py``); exits 1 when a survivor is not documented, a mutant was not run, or a module falls under
the target (97 %), 0 otherwise.

Run: ``.venv/bin/python scripts/mutation_report.py`` (after ``mutmut run``); after a run of some modules only
(``mutmut run "duplicate.core.movements*"``), name them by their path prefix under ``duplicate/core/``:
``.venv/bin/python scripts/mutation_report.py movements/ formats.py``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.97
KILLED = {1, 3, 36, -24, 24, 152, 255, -11, -9}  # tests failed, pytest error, timeout or crash: caught


def outcomes() -> dict[str, int | None]:
    """Mutant name → exit code of its test run (None: not run)."""
    found: dict[str, int | None] = {}
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        found.update(json.loads(meta.read_text())["exit_code_by_key"])
    return found


def documented() -> set[str]:
    """The survivors listed as equivalent."""
    text = (ROOT / "docs" / "mutation-survivors.md").read_text(encoding="utf-8")
    return set(re.findall(r"^[-*] `([\w.ǁ]+__mutmut_\d+)`", text, flags=re.MULTILINE))


def documented_alive() -> set[str]:
    """The survivors listed as alive, not proved equivalent."""
    text = (ROOT / "docs" / "mutation-survivors.md").read_text(encoding="utf-8")
    return set(re.findall(r"^[-*] alive: `([\w.ǁ]+__mutmut_\d+)`", text, flags=re.MULTILINE))


def module_path(name: str) -> str:
    """``duplicate.core.freeplay.scoring.x_deal_score__mutmut_3`` → ``freeplay/scoring.py``: the file under
    ``duplicate/core/``, so that ``scoring.py`` and ``freeplay/scoring.py`` (or ``tournament.py`` and
    ``freeplay/tournament.py``) are told apart."""
    module = name.split(".x")[0].removeprefix("duplicate.core.").replace(".", "/")
    if (ROOT / "duplicate" / "core" / module).is_dir():   # a package's own functions: its __init__.py
        return module + "/__init__.py"
    return module + ".py"


def main(prefixes: list[str]) -> int:
    results = {name: code for name, code in outcomes().items()
               if not prefixes or any(module_path(name).startswith(prefix) for prefix in prefixes)}
    if not results:
        print("Aucun résultat : lancez d'abord `make mutation`.")
        return 1
    equivalent, known_alive = documented(), documented_alive()
    rows = defaultdict(lambda: {"mutants": 0, "killed": 0, "equivalent": 0, "survived": [], "not run": 0})
    for name, code in results.items():
        row = rows[module_path(name)]
        row["mutants"] += 1
        if code is None:
            row["not run"] += 1
        elif code in KILLED:
            row["killed"] += 1
        elif name in equivalent:
            row["equivalent"] += 1
        else:
            row["survived"].append(name)
    ok = True
    print(f"{'module':<26}{'mutants':>8}{'killed':>8}{'equiv.':>8}{'alive':>7}{'not run':>9}{'kill rate':>11}")
    for module, row in sorted(rows.items()):
        counted = row["mutants"] - row["equivalent"] - row["not run"]
        rate = row["killed"] / counted if counted else 1.0
        ok &= rate >= TARGET and not row["not run"]
        shown = f"{rate:>10.1%}" if row["killed"] or row["equivalent"] or row["survived"] else f"{'—':>10}"
        print(f"{module:<26}{row['mutants']:>8}{row['killed']:>8}{row['equivalent']:>8}{len(row['survived']):>7}"
              f"{row['not run']:>9}{shown}")
    total = {key: sum(row[key] for row in rows.values()) for key in ("mutants", "killed", "equivalent", "not run")}
    alive = sum(len(row["survived"]) for row in rows.values())
    counted = total["mutants"] - total["equivalent"] - total["not run"]
    print(f"{'total':<26}{total['mutants']:>8}{total['killed']:>8}{total['equivalent']:>8}{alive:>7}"
          f"{total['not run']:>9}{(total['killed'] / counted if counted else 1.0):>10.1%}")
    for module, row in sorted(rows.items()):
        for name in row["survived"]:
            if name in known_alive:
                print(f"vivant (documenté, non prouvé équivalent) : {name}")
            else:
                ok = False
                print(f"survivant non documenté : {name}  (mutmut show {name})")
    if prefixes:   # a run of some modules: the others' names are not in it
        equivalent = {name for name in equivalent if any(module_path(name).startswith(p) for p in prefixes)}
    stale = equivalent - set(results)
    for name in sorted(stale):
        print(f"documenté mais absent de ce run (à retirer du document ?) : {name}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
