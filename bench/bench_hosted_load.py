"""The tables' phones against a hosted instance (issue 33's target): nginx with the shipped configuration
(`docs/deploy/nginx-tarot.conf`) in front of ``--processes`` ``make run`` processes (3) on one PostgreSQL,
``--tables`` tables (300) each sending its position's 4 lines through the table API — per line the North's
entry, the phone's refresh, a defender's confirmation, the refresh (`static/js/table.js`) — at a moment drawn
uniformly within ``--window`` seconds (60). With ``--kill`` one process is killed with SIGKILL when half the
tables have sent; a phone whose request fails at the network (connection lost) sends it again, as the page
does, at most 5 times.

Printed: the requests' p50 / p95 / max (target p95 ≤ 300 ms), the 5xx answers (target 0), the lines lost or
doubled (target 0), the server processes' CPU per request, beside the floor: the same clients and pacing
asking nginx for a static file. Bounded: every request times out, 127.0.0.1 only.

Run: ``.venv/bin/python bench/bench_hosted_load.py [--tables 300] [--window 60] [--processes 3] [--kill]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "faults"),
                str(ROOT / "bench")]

from bench_load import percentile  # noqa: E402
from bench_table_load import POSITIONS, STATIC, _stored, _taker_seats, process_cpu  # noqa: E402
from clients import get_json  # noqa: E402
from live import LiveServer, create_token, launch, pg_schema, postgres_reachable, ready_tournament  # noqa: E402
from test_behind_a_proxy import Proxy  # noqa: E402

NETWORK_RETRIES = 5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--window", type=float, default=60)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--kill", action="store_true")
    args = parser.parse_args()
    if not postgres_reachable():
        print("PostgreSQL ne répond pas sur 127.0.0.1:5432")
        return 1
    with tempfile.TemporaryDirectory() as tmp, pg_schema("bench_hosted") as url:
        folder = Path(tmp)
        tournament_id, lines = ready_tournament(url, folder, tables=args.tables, positions=POSITIONS)
        token = create_token(url, role="arbiter")
        takers = _taker_seats(url, tournament_id)
        codes = launch(url, tournament_id, POSITIONS)
        position = POSITIONS  # the last position: every table sends its 4 lines of it
        mine = defaultdict(list)
        for line in lines:
            if line["position"] == position:
                mine[line["table"]].append(line)
        env = {"SERVER_CPU": "all", "PROXY_FIX": "1", "PUBLIC_RESULTS_MAX_STALE": "10"}
        servers = [LiveServer(url, folder / f"server{i}.log", production=True, env=env).start()
                   for i in range(args.processes)]
        try:
            with Proxy(folder, [server.port for server in servers]) as proxy:
                secrets = {link["table"]: link["secret"] for link in
                           get_json(proxy.url, f"/api/tournaments/{tournament_id}/tables", token=token)["tables"]}
                floor = run(proxy.url, secrets, mine, takers, codes, args, servers, static=True)
                results = run(proxy.url, secrets, mine, takers, codes, args, servers)
        finally:
            for server in servers:
                server.stop()
        stored = _stored(url, tournament_id)
        expected = {(line["board"], line["table"]) for table_lines in mine.values() for line in table_lines}
        lost = expected - set(stored)
        doubled = [key for key, count in stored.items() if count > 1]
        print(f"{args.tables} tables, {args.processes} processus derrière nginx, PostgreSQL, chaque table une fois "
              f"dans les {args.window:.0f} s{', un processus tué (SIGKILL) à mi-parcours' if args.kill else ''}")
        for label, measure in (("téléphones", results), ("plancher", floor)):
            latencies = measure["latencies"]
            print(f"  {label:<10} {len(latencies)} req. : p50 {percentile(latencies, 50) * 1000:.0f} ms, p95 "
                  f"{percentile(latencies, 95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms ; 5xx "
                  f"{measure['5xx']} ; renvois après une coupure {measure['resent']} ; CPU/req. des serveurs "
                  f"{measure['cpu'] / len(latencies) * 1000:.1f} ms")
        if "killed" in results:
            moment, code = results["killed"]
            print(f"  processus 2 tué à {moment:.1f} s (code de sortie {code})")
        print(f"  lignes envoyées {len(expected)}, perdues {len(lost)}, en double {len(doubled)} (cible : 0, 0)")
        return 0 if not (lost or doubled or results["5xx"] or results["errors"]) else 1


def run(base: str, secrets: dict, mine: dict, takers: dict, codes: dict, args, servers: list[LiveServer],
        static: bool = False) -> dict:
    """Every table once within the window (the phones, or the floor's static file as often); the figures."""
    measure: dict = {"latencies": [], "5xx": 0, "resent": 0, "errors": []}
    lock = threading.Lock()
    rnd = random.Random(33)
    start = time.perf_counter()
    moments = {table: start + rnd.uniform(0, args.window) for table in mine}
    half = sorted(moments.values())[len(moments) // 2]
    alive = [server for server in servers if server.process.poll() is None]
    cpu_before = {server: process_cpu(server.process.pid) for server in alive}
    cpu_used = {}

    def timed(request: urllib.request.Request) -> int:
        for _attempt in range(NETWORK_RETRIES):
            began = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=60) as answer:
                    answer.read()
                    status = answer.status
            except urllib.error.HTTPError as error:
                error.read()
                status = error.code
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                with lock:
                    measure["resent"] += 1
                continue
            with lock:
                measure["latencies"].append(time.perf_counter() - began)
                measure["5xx"] += status >= 500
            return status
        with lock:
            measure["errors"].append("réseau")
        return 0

    def phone(table: int) -> None:
        time.sleep(max(0.0, moments[table] - time.perf_counter()))
        view = urllib.request.Request(f"{base}/api/table/{secrets[table]}", headers={"Accept": "application/json"})
        for line in mine[table]:
            if static:
                for _ in range(4):
                    timed(urllib.request.Request(base + STATIC))
                continue
            seat = next(s for s in "ESW" if s != takers[line["board"]])  # a defender, not the North
            defender = line["defenders"][[s for s in "NSEW" if s != takers[line["board"]]].index(seat)]
            for path, body in ((f"/api/table/{secrets[table]}/results", {"board": line["board"], "score": line["score"]}),
                               (f"/api/table/{secrets[table]}/results/{line['board']}/confirm",
                                {"seat": seat, "code": codes[defender]})):
                status = timed(urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                                      headers={"Content-Type": "application/json"}))
                if status not in (200, 202):
                    with lock:
                        measure["errors"].append(f"table {table}, {path}: {status}")
                timed(view)

    threads = [threading.Thread(target=phone, args=(table,)) for table in mine]
    for thread in threads:
        thread.start()
    if args.kill and not static:
        time.sleep(max(0.0, half - time.perf_counter()))
        cpu_used[servers[1]] = process_cpu(servers[1].process.pid) - cpu_before[servers[1]]
        servers[1].kill()
        measure["killed"] = (time.perf_counter() - start, servers[1].process.poll())
    for thread in threads:
        thread.join(args.window + 300)
    for server in alive:
        if server not in cpu_used:
            cpu_used[server] = process_cpu(server.process.pid) - cpu_before[server]
    measure["cpu"] = sum(cpu_used.values())
    return measure


if __name__ == "__main__":
    sys.exit(main())
