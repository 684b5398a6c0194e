"""Several app processes on one PostgreSQL (issue 33, point 4): how long a line written through one process
takes to reach the public ranking another process keeps — the target « a result written through one process
visible on another's ranking within 2 s ».

Three ``make run`` servers (waitress, ``PUBLIC_RESULTS_MAX_STALE`` 10 as in production, each free on the
cores) on one PostgreSQL schema, the demonstration tournament (published, its 99 lines to send). For each
line: sent through process i % 3 (scoring API, one line), then the public ranking (``GET
/api/tournaments/<id>/ranking``, no token) of every process asked every 50 ms until it holds the line. Printed:
per reader — the writing process itself, and the two others — median, p95 and max of the time from the 201 to
the ranking that holds the line; beside it the floor, the same poll's answer time (a ranking already kept).

Run: ``.venv/bin/python bench/bench_processes.py [--lines 30]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "faults"), str(ROOT / "bench")]

from bench_load import percentile  # noqa: E402
from clients import get_json, post_json, stored_lines  # noqa: E402
from live import LiveServer, create_token, pg_schema, postgres_reachable, ready_tournament  # noqa: E402

POLL = 0.05  # seconds between two reads of a ranking
DEADLINE = 30  # seconds a line may take to appear before the run fails


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=30)
    args = parser.parse_args()
    if not postgres_reachable():
        print("PostgreSQL ne répond pas sur 127.0.0.1:5432")
        return 1
    with tempfile.TemporaryDirectory() as tmp, pg_schema("bench_processes") as url:
        tournament_id, lines = ready_tournament(url, Path(tmp))
        token = create_token(url, role="arbiter")
        env = {"PUBLIC_RESULTS_MAX_STALE": "10", "SERVER_CPU": "all"}
        servers = [LiveServer(url, Path(tmp) / f"server{i}.log", production=True, env=env).start() for i in range(3)]
        try:
            for server in servers:
                get_json(server.url, f"/api/tournaments/{tournament_id}/ranking")  # each keeps its ranking
            same, others, floor = [], [], []
            for number, line in enumerate(lines[:args.lines]):
                writer = number % 3
                status, body = post_json(servers[writer].url, f"/api/tournaments/{tournament_id}/results", [line], token)
                assert status == 201, body
                sent, key = time.perf_counter(), (line["board"], line["table"])
                waiting = set(range(3))
                while waiting:
                    for index in sorted(waiting):
                        start = time.perf_counter()
                        if key in stored_lines(servers[index].url, tournament_id):
                            waiting.discard(index)
                            (same if index == writer else others).append(time.perf_counter() - sent)
                        else:
                            floor.append(time.perf_counter() - start)
                    assert time.perf_counter() - sent < DEADLINE, f"line {key} not on every ranking after {DEADLINE} s"
                    time.sleep(POLL)
        finally:
            for server in servers:
                server.stop()

    def figures(values: list[float]) -> str:
        return (f"médiane {statistics.median(values) * 1000:6.0f} ms, p95 {percentile(values, 95) * 1000:6.0f} ms, "
                f"max {max(values) * 1000:6.0f} ms ({len(values)} lectures)")

    print(f"3 processus, une base PostgreSQL, {min(args.lines, len(lines))} lignes envoyées une à une")
    print(f"  ligne → classement public du processus qui l'a écrite : {figures(same)}")
    print(f"  ligne → classement public d'un autre processus        : {figures(others)}")
    print(f"  plancher : une lecture du classement gardé            : {figures(floor)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
