"""Time of ``flask --app app rank FILE`` from 10 to 300 tables, beside its floor (issue 12).

The files are simulated (tests/e2e/live.py `simulated_file`: 4 players a table, 7 positions, every line
scored), written indented as a person would keep them. Median of ``--repeat`` runs: wall time, and CPU time
(this process's, or the child's from ``getrusage``), which a machine busy with other work disturbs less.

Two process models, never mixed in one ratio:

* in this process, the cyclic garbage collector off as ``rank`` runs (`duplicate.core_cli`) — floor:
  ``json.loads`` of the file's text (also without the collector: the stronger floor); then
  ``load_tournament`` (read + check), ``ranking_output`` (topage + rankings) and the indented output text
  (`duplicate.json_text.dumps`), their sum « rank (travail) » and its ratio to the floor, and its cost per
  result line (µs), which must stay flat from 10 to 300 tables (no step grows with the square of the
  tournament);
* in a fresh process (start-up included) — floor: ``python -c "gc.disable(); json.load(open(FILE))"``; then
  ``flask --app app rank FILE`` (SPEC §10) and ``python -m duplicate rank FILE`` (the same command without
  Flask), each with its ratio to that floor (target: 3× at most, issue 12). For reference, not as a floor:
  ``python -c "import flask.cli"``, what the ``flask`` program costs before it even reads ``--app``; and
  `rank_lower_bound.py`, the least work a Python ``rank`` can do on these files (no check, no alternated
  ranking, compact output: its docstring), whose étuis' rows and percentages are checked equal to the
  product's before it is timed: what the 3× target leaves to Python.

The fresh processes run as on a user's machine after a first run: bytecode cached (in a temporary
``PYTHONPYCACHEPREFIX``; ``PYTHONDONTWRITEBYTECODE``, if set, is dropped for them, else every start compiles
``duplicate/`` again), after one warm-up run.

Run: ``.venv/bin/python bench/bench_rank.py [--tables 10,50,150,300] [--repeat 5]``. Asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from duplicate.core.tournament import load_tournament, ranking_output  # noqa: E402
from duplicate.json_text import dumps  # noqa: E402
from live import simulated_file  # noqa: E402
from rank_lower_bound import lower_bound_ranking  # noqa: E402

FLASK = str(Path(sys.executable).with_name("flask"))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_time(function, repeat: int) -> tuple[float, float]:
    """(wall, CPU) seconds, medians; CPU counts this process and the children it waited for."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu + _children_cpu() - children)
    return statistics.median(walls), statistics.median(cpus)


ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str]) -> None:
    subprocess.run(command, cwd=ROOT, env=ENV, check=True, stdout=subprocess.DEVNULL)


def process_time(command: list[str], repeat: int) -> tuple[float, float]:
    run(command)  # warm-up: bytecode written, files in the page cache
    return median_time(lambda: run(command), repeat)


def _line(label: str, seconds: tuple[float, float], floor: tuple[float, float], lines: int | None = None) -> str:
    text = (f"    {label:<36} {seconds[0] * 1000:7.1f} ms {seconds[0] / floor[0]:5.1f} ×"
            f"   {seconds[1] * 1000:7.1f} ms {seconds[1] / floor[1]:5.1f} ×")
    return text + (f"   {seconds[1] / lines * 1e6:6.1f} µs/ligne" if lines else "")


def bench(tables: int, repeat: int, folder: Path) -> dict:
    path = folder / f"individuel-{tables}.json"
    path.write_text(json.dumps(simulated_file(tables, positions=7), indent=2), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    tournament = load_tournament(text)
    output = ranking_output(tournament)
    lines = len(tournament.results)
    _check_lower_bound(lower_bound_ranking(json.loads(text)), output)

    def work():
        dumps(ranking_output(load_tournament(path.read_text(encoding="utf-8"))))

    floor = median_time(lambda: json.loads(text), repeat)
    load = median_time(lambda: load_tournament(text), repeat)
    ranking = median_time(lambda: ranking_output(tournament), repeat)
    dump = median_time(lambda: dumps(output), repeat)
    total = median_time(work, repeat)
    read_json = "import gc, json, sys; gc.disable(); json.load(open(sys.argv[1]))"
    floor_process = process_time([sys.executable, "-c", read_json, str(path)], repeat)
    flask_start = process_time([sys.executable, "-c", "import flask.cli"], repeat)
    command = process_time([FLASK, "--app", "app", "rank", str(path)], repeat)
    python_m = process_time([sys.executable, "-m", "duplicate", "rank", str(path)], repeat)
    lower_bound = process_time([sys.executable, str(ROOT / "bench" / "rank_lower_bound.py"), str(path)], repeat)
    print(f"\n{tables} tables, {4 * tables} joueurs, {lines} lignes, {len(text) / 1e6:.2f} Mo (médiane de {repeat})")
    print(f"    {'':<36} {'mur':>10} {'÷ plancher':>8}   {'CPU':>10} {'÷ plancher':>8}")
    print("  dans ce processus")
    for label, seconds in (("json.loads (plancher)", floor), ("load_tournament", load),
                           ("ranking_output", ranking), ("texte JSON indenté", dump),
                           ("rank (travail : lire + les trois)", total)):
        print(_line(label, seconds, floor, lines))
    print("  processus neuf (démarrage compris)")
    for label, seconds in (("python + json.load sans gc (plancher)", floor_process),
                           ("flask --app app rank", command),
                           ("python -m duplicate rank", python_m),
                           ("(python -c 'import flask.cli')", flask_start),
                           ("(borne basse : rank_lower_bound.py)", lower_bound)):
        print(_line(label, seconds, floor_process))
    return {"tables": tables, "lines": lines, "load": load, "ranking": ranking, "total": total, "floor": floor,
            "command": command, "python_m": python_m, "floor_process": floor_process, "lower_bound": lower_bound}


def _check_lower_bound(lower: dict, output: dict) -> None:
    """The lower bound computes what the product does: the same étuis' rows, the same percentages."""
    assert lower["boards"] == output["boards"], "rank_lower_bound.py : notes des étuis différentes"
    percentages = {row["id"]: (row["attack"], row["defence"], row["global"]) for row in output["ranking"]}
    assert {row["id"]: (row["attack"], row["defence"], row["global"]) for row in lower["ranking"]} == percentages, \
        "rank_lower_bound.py : pourcentages différents"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,50,150,300")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    gc.disable()  # as `rank` does; the floors too
    with tempfile.TemporaryDirectory() as tmp:
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        rows = [bench(tables, args.repeat, Path(tmp)) for tables in map(int, args.tables.split(","))]
    print("\nCoût par ligne de résultat (µs CPU), de 10 à 300 tables : plat = linéaire ; rapports au plancher (CPU)")
    print(f"  {'tables':>6} {'lignes':>7} {'json.loads':>11} {'load':>7} {'ranking':>8} {'rank (travail)':>15}"
          f" {'flask rank':>11} {'python -m':>10} {'borne basse':>12}")
    for row in rows:
        per_line = {key: row[key][1] / row["lines"] * 1e6 for key in ("floor", "load", "ranking", "total")}
        print(f"  {row['tables']:>6} {row['lines']:>7} {per_line['floor']:>11.1f} {per_line['load']:>7.1f}"
              f" {per_line['ranking']:>8.1f} {per_line['total']:>15.1f}"
              f" {row['command'][1] / row['floor_process'][1]:>10.1f}×"
              f" {row['python_m'][1] / row['floor_process'][1]:>9.1f}×"
              f" {row['lower_bound'][1] / row['floor_process'][1]:>11.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
