"""Benchmark of the print run of an evening, side by side with a floor (issue 15, point 6).

Run: ``.venv/bin/python bench/bench_print.py [--boards N] [--skip-pack]``.

Prints, for each printed kind of the demonstration tournament (``tests/printing/data``), the wall
time and the CPU time of this process (the CPU time is what the code costs; the wall time also holds
the waits of a machine shared with other work), per page, next to the floor: a trivial one-page
WeasyPrint render.  Then the diagrams of ``--boards`` étuis (the demonstration's 20 repeated), and the
whole pack (``printing.pack``, two processes) of a synthetic 20-table individual evening
(``--pack-tables``), for the targets: diagrams ≤ 0.25 s a page, the whole pack of a 20-table evening
≤ 60 s.  The 600 route sheets have their own benchmark: ``bench/bench_printing.py``.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from duplicate.printing import KINDS, render_kind  # noqa: E402
from duplicate.printing.render import html_to_pdf  # noqa: E402

DEMO = ROOT / "tests" / "printing" / "data" / "demo-tournament.json"
FLOOR_HTML = "<!DOCTYPE html><html lang=fr><body><p>Bonjour</p></body></html>"


def pages_of(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def timed(function):
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def line(name: str, pages: int, wall: float, cpu: float, floor: tuple[float, float]) -> str:
    return (f"  {name:<22} {pages:4d} p  wall {wall:7.2f} s ({wall / pages:5.3f} s/p, × {wall / pages / floor[0]:5.1f} floor)"
            f"  cpu {cpu:7.2f} s ({cpu / pages:5.3f} s/p, × {cpu / pages / floor[1]:5.1f} floor)")


def timed_with_children(function):
    """``timed``, with the CPU time of the child processes (the pack's render pool) counted too."""
    def cpu() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    wall, start = time.perf_counter(), cpu()
    result = function()
    return result, time.perf_counter() - wall, cpu() - start


def synthetic_evening(tables: int, demo_boards: list[dict]) -> tuple[dict, dict]:
    """The synthetic individual of ``bench_printing`` with ``tables`` tables (4 × tables players,
    7 positions × 4 étuis, every result entered), its 28 étuis dealt as the demonstration's (cycled)
    so that diagrams and hand records carry cards; and its ranking."""
    from bench_printing import tournament

    from duplicate.core.tournament import load_tournament, ranking_output

    evening = tournament(tables)
    evening["boards"] = [dict(copy.deepcopy(demo_boards[i % len(demo_boards)]), number=b["number"],
                              taker=b["taker"], dealer=b["dealer"]) for i, b in enumerate(evening["boards"])]
    evening["movement"]["boards"] = evening["boards"]
    return evening, ranking_output(load_tournament(json.dumps(evening)))


def render_pack(export: dict, ranking: dict) -> int:
    import os
    import tempfile

    from duplicate.printing import pack

    urls = {p["id"]: f"https://tarot.example.org/feuille-de-route/{p['id']}-{'x' * 32}" for p in export["players"]}
    with tempfile.TemporaryDirectory() as tmp:
        return pack.render_pack_to_file(export, ranking, os.path.join(tmp, "pack.pdf"), route_urls=urls, processes=2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=28, help="étuis for the diagrams (default 28)")
    parser.add_argument("--pack-tables", type=int, default=20, help="tables of the evening whose pack is printed")
    parser.add_argument("--skip-pack", action="store_true")
    args = parser.parse_args()
    demo = json.loads(DEMO.read_text(encoding="utf-8"))
    export, ranking = demo["export"], demo["ranking"]
    html_to_pdf(FLOOR_HTML)  # fonts and imports loaded once, as in a running server
    samples = [timed(lambda: html_to_pdf(FLOOR_HTML)) for _ in range(5)]
    floor = (min(s[1] for s in samples), min(s[2] for s in samples))
    print(f"floor (one trivial page): wall {floor[0]:.3f} s, cpu {floor[1]:.3f} s")
    print("demonstration tournament, one kind at a time:")
    for kind in KINDS:
        pdf, wall, cpu = timed(lambda: render_kind(kind, export, ranking))
        print(line(kind, pages_of(pdf), wall, cpu, floor))
    big = copy.deepcopy(export)
    numbers = [b["number"] for b in export["boards"]]
    big["boards"] = [dict(copy.deepcopy(export["boards"][i % len(numbers)]), number=i + 1) for i in range(args.boards)]
    pdf, wall, cpu = timed(lambda: render_kind("diagrams", big, None, boards=list(range(1, args.boards + 1))))
    print(f"diagrams of {args.boards} étuis (target ≤ 0.25 s a page):")
    print(line("diagrams", pages_of(pdf), wall, cpu, floor))
    if not args.skip_pack:
        evening, evening_ranking = synthetic_evening(args.pack_tables, export["boards"])
        pages, wall, cpu = timed_with_children(lambda: render_pack(evening, evening_ranking))
        print(f"whole pack of a {args.pack_tables}-table individual evening, 2 processes "
              f"(target ≤ 60 s wall for 20 tables; cpu of all processes):")
        print(line("pack", pages, wall, cpu, floor))
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB "
          f"(children {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB)")


if __name__ == "__main__":
    main()
