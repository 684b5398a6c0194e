"""Load test of the tables' own sending, on loopback: each "table" (a thread) sends its 4 lines of a position
in one request to the scoring API (``POST /api/tournaments/<id>/results``, bearer token) against the server
``make run`` starts (`tests/e2e/live.py` `LiveServer`, ``production=True``: waitress, `duplicate.serving`;
``--server flask`` for Werkzeug's development server), on SQLite and on PostgreSQL, from 20 concurrent
clients and from as many as there are tables (150).

The tournament is a simulated individual of ``--tables`` tables (7 positions × 4 étuis, every étui at every
table); the clients share out the (table, position) requests, all starting together. Prints per database
and concurrency: p50 / p95 / p99 / max of a request (the issue's targets: p95 ≤ 50 ms with 20 clients,
≤ 100 ms with 150), the 503 count (« base occupée », not acknowledged: sent again at most 10 times) and
the lines lost or doubled (exit status 1 if any). Bounded: ``--requests`` per client at most, a deadline,
every request times out.

With ``--api table`` each table sends through the table API instead (SPEC §12, the phone at the table): per
étui ``POST /api/table/<secret>/results`` (202, « en attente ») then a defender's ``…/confirm`` (200); the
figures are per request (two a line), and a line counts as stored only once confirmed.

With ``--spread S`` each client pauses a random 0–S s before each sending (tables do not all finish an
étui in the same millisecond); without it every client sends back to back, the worst burst: then a
request's latency is mostly its wait behind the others (Little's law: clients × time of one write when
writes are serialized, as SQLite's single writer makes them).

Run: ``.venv/bin/python bench/bench_table_load.py [--tables 150] [--clients 20,150] [--requests 7]
[--databases sqlite,postgresql] [--server waitress|flask] [--threads N] [--spread S] [--api scoring|table]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "faults"), str(ROOT / "bench")]

from bench_load import percentile  # noqa: E402
from clients import get_json, post_json  # noqa: E402
from live import LiveServer, create_token, pg_schema, postgres_reachable, ready_tournament  # noqa: E402

RETRIES = 10


def run(database_url: str, label: str, tables: int, clients: int, per_client: int, deadline_s: float,
        production: bool = True, threads: int | None = None, spread: float = 0.0, api: str = "scoring") -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        tournament_id, lines = ready_tournament(database_url, Path(tmp), tables=tables, positions=7)
        token = create_token(database_url, role="arbiter" if api == "table" else "scorer")
        groups: dict[tuple[int, int], list[dict]] = defaultdict(list)
        for line in lines:
            groups[(line["table"], line["position"])].append(line)
        requests = sorted(groups)
        shares = [requests[i::clients][:per_client] for i in range(clients)]
        sent = [key for share in shares for key in share]
        latencies: list[float] = []
        busy, errors = [0], []
        lock = threading.Lock()
        with LiveServer(database_url, Path(tmp) / "server.log", production=production, threads=threads) as server:
            if api == "table":
                secrets = {link["table"]: link["secret"]
                           for link in get_json(server.url, f"/api/tournaments/{tournament_id}/tables", token=token)["tables"]}
                confirming = {number: next(seat for seat in "NESW" if seat != taker)
                              for number, taker in _taker_seats(database_url, tournament_id).items()}

            def send(key: tuple[int, int]) -> list[tuple[int, object]]:
                """The table's request(s) for its lines of a position: one (scoring API) or two a line."""
                if api == "scoring":
                    return [post_json(server.url, f"/api/tournaments/{tournament_id}/results", groups[key], token,
                                      timeout=60)]
                return [post_json(server.url, path, body, None, timeout=60) for line in groups[key]
                        for path, body in ((f"/api/table/{secrets[key[0]]}/results",
                                            {"board": line["board"], "score": line["score"]}),
                                           (f"/api/table/{secrets[key[0]]}/results/{line['board']}/confirm",
                                            {"seat": confirming[line["board"]]}))]

            barrier = threading.Barrier(clients)
            deadline = time.monotonic() + deadline_s

            def client(share: list[tuple[int, int]]) -> None:
                try:
                    barrier.wait(timeout=120)
                    pause = random.Random(f"{share[:1]}")
                    for key in share:
                        if spread:
                            time.sleep(pause.uniform(0, spread))
                        for _attempt in range(RETRIES):
                            if time.monotonic() > deadline:
                                errors.append("délai dépassé")
                                return
                            t0 = time.perf_counter()
                            answers = send(key)
                            spent = (time.perf_counter() - t0) / len(answers)
                            with lock:
                                latencies.extend([spent] * len(answers))
                                busy[0] += sum(status == 503 for status, _ in answers)
                            if all(status != 503 for status, _ in answers):
                                break
                            time.sleep(0.1)
                        for status, body in answers:
                            if status not in (200, 201, 202):
                                errors.append(f"table {key[0]} position {key[1]} : {status} {str(body)[:160]}")
                except Exception as error:  # noqa: BLE001 -- reported, and the run fails
                    errors.append(repr(error))

            threads = [threading.Thread(target=client, args=(share,)) for share in shares]
            t0 = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=deadline_s + 120)
            elapsed = time.perf_counter() - t0
        stored = _stored(database_url, tournament_id)
        expected = {(line["board"], line["table"]) for key in sent for line in groups[key]}
        lost = expected - set(stored)
        doubled = [key for key, count in stored.items() if count > 1]
        what = "requêtes de 4 lignes" if api == "scoring" else "requêtes de l'API des tables (saisie, confirmation)"
        print(f"  [{label}, {'waitress' if production else 'flask run'}{f', étalé sur {spread:g} s' if spread else ''}]"
              f" {tables} tables, {clients} clients, {len(latencies)} {what} en "
              f"{elapsed:.1f} s : p50 {percentile(latencies, 50) * 1000:.0f} ms, p95 "
              f"{percentile(latencies, 95) * 1000:.0f} ms, p99 {percentile(latencies, 99) * 1000:.0f} ms, max "
              f"{max(latencies, default=0) * 1000:.0f} ms ; 503 : {busy[0]} ; perdues {len(lost)}, "
              f"en double {len(doubled)}, erreurs {len(errors)}")
        for message in errors[:3]:
            print("    ", message)
        return not (lost or doubled or errors)


def _taker_seats(database_url: str, tournament_id: int) -> dict[int, str]:
    """Étui number → its taker seat (N, S, E, W)."""
    from sqlalchemy import text

    from duplicate.db import make_engine

    engine = make_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT number, taker FROM board WHERE tournament_id = :t"), {"t": tournament_id}).all()
    engine.dispose()
    return dict(rows)


def _stored(database_url: str, tournament_id: int) -> dict[tuple[int, int], int]:
    """(étui, table) → how many results the database holds (confirmed: pending lines count nowhere)."""
    from sqlalchemy import text

    from duplicate.db import make_engine

    engine = make_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(text('SELECT board, "table" FROM result WHERE tournament_id = :t AND status = \'done\''),
                            {"t": tournament_id}).all()
    engine.dispose()
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for board, table in rows:
        counts[(board, table)] += 1
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--clients", default="20,150")
    parser.add_argument("--requests", type=int, default=7, help="requêtes par client au plus")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--deadline", type=float, default=300)
    parser.add_argument("--server", choices=("waitress", "flask"), default="waitress",
                        help="waitress (make run, défaut) ou flask (serveur de développement)")
    parser.add_argument("--threads", type=int, help="fils du serveur waitress (défaut : celui de make run)")
    parser.add_argument("--spread", type=float, default=0.0,
                        help="secondes : chaque client attend au hasard entre 0 et SPREAD avant chaque envoi "
                             "(0, défaut : tous à la fois, sans pause)")
    parser.add_argument("--api", choices=("scoring", "table"), default="scoring",
                        help="scoring : l'API de saisie (4 lignes par requête, défaut) ; table : l'API des tables "
                             "(SPEC §12 : saisie puis confirmation par un défenseur, étui par étui)")
    args = parser.parse_args()
    server = {"production": args.server == "waitress", "threads": args.threads, "spread": args.spread, "api": args.api}
    ok = True
    for database in args.databases.split(","):
        for clients in map(int, args.clients.split(",")):
            if database == "sqlite":
                with tempfile.TemporaryDirectory() as tmp:
                    ok &= run(f"sqlite:///{tmp}/tables.sqlite3", "SQLite", args.tables, clients, args.requests,
                              args.deadline, **server)
            elif postgres_reachable():
                with pg_schema("duplicate_bench_tables") as url:
                    ok &= run(url, "PostgreSQL", args.tables, clients, args.requests, args.deadline, **server)
            else:
                print("[PostgreSQL] injoignable sur 127.0.0.1:5432 : ignoré")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
