"""Benchmark of the printing: all the route sheets of a 150-table individual (600 players, 600 pages).

Run: ``.venv/bin/python bench/bench_printing.py [--processes N] [--chunk-size N]``.  Prints the wall
time, the pages per second, the peak memory (resident set) of the parent and of the largest child
process, and the CPU time of all the processes (on a shared machine the wall time also holds waits);
asserts only that 600 pages came out.

The tournament is the synthetic one of ``bench_core.py`` (at position p table t plays étui set
(t + p) mod 7, 7 positions × 4 étuis, so 28 lines per route sheet), with its movement and boards so
that the sheets name the defensive places, and a QR code on every sheet.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_core import PER_POSITION, POSITIONS, SEATS, TABLES, synthetic_individual  # noqa: E402

from duplicate.core.tournament import load_tournament, ranking_output  # noqa: E402
from duplicate.printing import batch  # noqa: E402


def tournament(tables: int = TABLES) -> dict:
    data = json.loads(synthetic_individual(random.Random(2026), tables))
    data["name"] = "Open de Lyon — banc d’essai"
    data["date"], data["colour"] = "2026-06-20", "bleu"
    data["boards"] = [{"number": n, "taker": SEATS[(n - 1) % 4], "dealer": SEATS[n % 4]}
                      for n in range(1, POSITIONS * PER_POSITION + 1)]
    rounds = []
    for position in range(1, POSITIONS + 1):
        for table in range(1, tables + 1):
            first = ((table + position) % POSITIONS) * PER_POSITION + 1
            rounds.append({"position": position, "table": table, "seats": {s: f"{s}{table}" for s in SEATS},
                           "boards": list(range(first, first + PER_POSITION))})
    data["movement"] = {"format": "tarot-movement/1", "kind": "individual", "tables": tables,
                        "positions": POSITIONS, "boards": data["boards"], "rounds": rounds}
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=None)
    args = parser.parse_args()
    export = tournament()
    start = time.perf_counter()
    ranking = ranking_output(load_tournament(json.dumps(export)))
    urls = {p["id"]: f"https://tarot.example.org/feuille-de-route/{p['id']}-{'x' * 32}" for p in export["players"]}
    prepared = time.perf_counter()
    marks = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "feuilles-de-route.pdf")
        pages = batch.render_to_file("route-sheets", export, ranking, out, route_urls=urls,
                                     processes=args.processes, chunk_size=args.chunk_size,
                                     progress=lambda done, total: marks.append((time.perf_counter(), done)))
        size = os.path.getsize(out)
    end = time.perf_counter()
    assert pages == 4 * TABLES, pages
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"route sheets, individual {TABLES} tables: {pages} pages, {size / 1e6:.1f} MB, "
          f"{args.processes} process(es), chunks of {args.chunk_size or batch.CHUNK_SIZES['route-sheets']}")
    print(f"  ranking + contexts : {prepared - start:8.1f} s")
    print(f"  wall time          : {end - start:8.1f} s  ({pages / (end - prepared):.1f} pages/s)")
    print(f"  first chunk after  : {marks[0][0] - prepared:8.1f} s")
    print(f"  peak memory        : parent {parent:.0f} MiB, largest child {child:.0f} MiB")
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    print(f"  cpu (all processes): {cpu:8.1f} s  ({cpu / pages:.3f} s a page; on an idle 2-core machine the wall "
          f"time is about {cpu / max(1, args.processes):.0f} s)")


if __name__ == "__main__":
    main()
