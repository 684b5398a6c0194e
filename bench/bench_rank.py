"""Time of ``flask --app app rank FILE`` on a 150- and a 300-table individual, beside its floor.

The files are simulated (tests/e2e/live.py `simulated_file`: 600 / 1,200 players, 7 positions, every line
scored), written indented as a person would keep them. Printed side by side, median of ``--repeat`` runs:

* floor: ``json.loads`` of the file's text, in this process and in a fresh ``python`` process (start-up
  + read: what any command reading that file costs at least);
* ``load_tournament`` (read + check) and ``ranking_output`` (topage + rankings), in this process;
* the ``flask --app app rank FILE`` subprocess, its wall time and its ratio to the subprocess floor
  (target: 3× at most, issue 12).

Run: ``.venv/bin/python bench/bench_rank.py [--tables 150,300] [--repeat 3]``. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from duplicate.core.tournament import load_tournament, ranking_output  # noqa: E402
from live import simulated_file  # noqa: E402

FLASK = str(Path(sys.executable).with_name("flask"))


def median_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(command: list[str]) -> None:
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def bench(tables: int, repeat: int, folder: Path) -> None:
    path = folder / f"individuel-{tables}.json"
    path.write_text(json.dumps(simulated_file(tables, positions=7), indent=2), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    tournament = load_tournament(text)
    floor = median_time(lambda: json.loads(text), repeat)
    floor_process = median_time(lambda: run([sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1]))",
                                             str(path)]), repeat)
    load = median_time(lambda: load_tournament(text), repeat)
    ranking = median_time(lambda: ranking_output(tournament), repeat)
    command = median_time(lambda: run([FLASK, "--app", "app", "rank", str(path)]), repeat)
    print(f"\n{tables} tables, {4 * tables} joueurs, {len(tournament.results)} lignes, "
          f"{len(text) / 1e6:.1f} Mo (médiane de {repeat})")
    for label, seconds, base in (("json.loads (plancher)", floor, floor),
                                 ("load_tournament", load, floor),
                                 ("ranking_output", ranking, floor),
                                 ("python + json.load (plancher)", floor_process, floor_process),
                                 ("flask --app app rank", command, floor_process)):
        print(f"  {label:<32} {seconds * 1000:8.0f} ms   {seconds / base:6.1f} × plancher")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="150,300")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for tables in map(int, args.tables.split(",")):
            bench(tables, args.repeat, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
