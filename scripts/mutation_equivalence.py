"""Tells which surviving mutants of ``duplicate/core/scoring.py`` behave exactly as the original, so that
they can be listed as equivalent in ``docs/mutation-survivors.md`` with a checked reason.

The validator's internals (``_union``, ``_outcomes``) are reached only
through ``reachable_scores(contract, chelem)``, which has 4 × 2 possible arguments: a mutant there whose
8 answers (every score and its « theoretical » flag) equal the original's is equivalent, exactly.
``check_score`` is compared on every score from −1200 to +1200 (beyond ±986 every answer takes the same
branch), every contract, with and without a chelem: the verdict, the message and the warning.

Run after ``make mutation`` (it reads the mutated copy in ``mutants/``)::

    .venv/bin/python scripts/mutation_equivalence.py            # every surviving scoring mutant
    .venv/bin/python scripts/mutation_equivalence.py NAME ...   # the mutants named
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"


def _behaviour(scoring) -> tuple:
    scoring.reachable_scores.cache_clear()
    reachable = tuple(tuple(sorted(scoring.reachable_scores(contract, chelem).items()))
                      for contract in scoring.Contract for chelem in (False, True))
    checks = []
    for contract in scoring.Contract:
        for chelem in (False, True):
            for score in range(-1200, 1201):
                check = scoring.check_score(score, contract, chelem)
                checks.append((check.ok, check.message, check.warning))
    return reachable, tuple(checks)


def _first_difference(original: tuple, mutated: tuple) -> str:
    """Where the mutant first answers otherwise: (contract, chelem) and the scores gained or lost."""
    labels = [(contract, chelem) for contract in ("prise", "garde", "garde_sans", "garde_contre")
              for chelem in (False, True)]
    for label, before, after in zip(labels, original[0], mutated[0]):
        if before != after:
            gained, lost = sorted(set(after) - set(before))[:3], sorted(set(before) - set(after))[:3]
            return f"reachable_scores{label}: en plus {gained}, en moins {lost}"
    for index, (before, after) in enumerate(zip(original[1], mutated[1])):
        if before != after:
            contract, chelem = labels[index // 2401]
            return f"check_score({index % 2401 - 1200}, {contract}, chelem={chelem}): {after}"
    return ""


def _survivors() -> list[str]:
    meta = json.loads((MUTANTS / "duplicate" / "core" / "scoring.py.meta").read_text())
    return [name for name, code in meta["exit_code_by_key"].items() if code == 0]


def main(names: list[str]) -> int:
    sys.path.insert(0, str(MUTANTS))
    os.chdir(MUTANTS)
    from duplicate.core import scoring  # the trampolined copy: MUTANT_UNDER_TEST picks the variant

    os.environ["MUTANT_UNDER_TEST"] = ""
    original = _behaviour(scoring)
    for name in names or _survivors():
        os.environ["MUTANT_UNDER_TEST"] = name
        try:
            mutated = _behaviour(scoring)
        except Exception as error:  # noqa: BLE001 — a crash is a difference
            print(f"DIFFÉRENT  {name}  {type(error).__name__}: {error}")
            continue
        print(f"{'identique' if mutated == original else 'DIFFÉRENT'}  {name}  {_first_difference(original, mutated)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
