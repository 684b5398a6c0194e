"""Load test of the scoring, on loopback: 20 scorers at once enter a 30-table individual (7 positions ×
4 étuis: 840 lines, 28 fiches of 30 lines) against the real server (``flask run``, threaded) on SQLite
and on PostgreSQL.

Half the scorers use the entry screens as a browser does (open the fiche, then save it: GET + POST with
the session cookie and the CSRF token), half send the same fiches to the scoring API
(``POST /api/tournaments/<id>/results``, one request per fiche, bearer token). The étuis are dealt out
among the scorers. At the end every line must be stored exactly once with the score that was sent: a
lost or doubled line makes the exit status 1. A fiche refused with 503 (« base occupée » : SQLite's lock
waited for more than its 5 s) was not acknowledged; the scorer saves it again (at most 10 times), and
the refusals are counted.

Prints, per database: p50/p95/p99 latency of each kind of request, the throughput (lines and requests
per second), lost and doubled lines. Bounded: at most --deadline seconds, every request times out.

Run: ``.venv/bin/python bench/bench_load.py [--tables 30] [--scorers 20] [--databases sqlite,postgresql]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "faults")]

from clients import Browser, get_json, post_json  # noqa: E402
from live import (  # noqa: E402
    LiveServer, create_token, create_users, give_tournament, pg_schema, postgres_reachable, ready_tournament,
)

PASSWORD = "mot-de-passe-solide"
RETRIES = 10


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def run(database_url: str, label: str, tables: int, positions: int, scorers: int, deadline_s: float) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        tournament_id, lines = ready_tournament(database_url, Path(tmp), tables=tables, positions=positions)
        create_users(database_url, *[(f"marqueur{i}", PASSWORD, "scorer") for i in range(scorers)])
        give_tournament(database_url, tournament_id, *[f"marqueur{i}" for i in range(scorers)])  # as the arbiter does
        token = create_token(database_url)
        arbiter_token = create_token(database_url, role="arbiter")  # the ranking is secret until published
        by_board: dict[int, list[dict]] = defaultdict(list)
        for line in lines:
            by_board[line["board"]].append(line)
        boards = sorted(by_board)
        print(f"\n[{label}] {tables} tables, {len(boards)} étuis, {len(lines)} lignes, {scorers} marqueurs "
              f"(préparation {time.perf_counter() - started:.1f} s)")

        latencies: dict[str, list[float]] = defaultdict(list)
        errors: list[str] = []
        busy: list[tuple[str, int]] = []
        lock = threading.Lock()
        with LiveServer(database_url, Path(tmp) / "server.log") as server:
            deadline = time.monotonic() + deadline_s
            barrier = threading.Barrier(scorers)

            def timed(kind: str, call):
                t0 = time.perf_counter()
                result = call()
                with lock:
                    latencies[kind].append(time.perf_counter() - t0)
                return result

            def scorer(index: int) -> None:
                mine = boards[index::scorers]
                try:
                    browser = None
                    if index % 2 == 0:
                        browser = Browser(server.url, timeout=60)
                        browser.sign_in(f"marqueur{index}", PASSWORD)
                    barrier.wait(timeout=60)
                    for number in mine:
                        if time.monotonic() > deadline:
                            errors.append(f"marqueur{index}: délai dépassé")
                            return
                        for attempt in range(RETRIES):  # « base occupée » (503): the scorer saves again
                            if browser is not None:
                                token_, keys, versions = timed("écran GET fiche",
                                                               lambda: browser.fiche(tournament_id, number))
                                scores = {f"{l['board']}-{l['table']}": l["score"] for l in by_board[number]}
                                data = {"csrf_token": token_, **{f"score-{k}": f"{scores[k]:+d}" for k in keys}}
                                status, body, _ = timed("écran POST fiche", lambda: browser.request(
                                    f"/saisie/tournois/{tournament_id}/etuis/{number}", data))
                                done = status == 302
                            else:
                                status, body = timed("API POST fiche", lambda: post_json(
                                    server.url, f"/api/tournaments/{tournament_id}/results", by_board[number],
                                    token, timeout=60))
                                done = status == 201
                            if done or status != 503:
                                break
                            with lock:
                                busy.append(("écran" if browser else "API", number))
                            time.sleep(0.2 * (attempt + 1))
                        if not done:
                            errors.append(f"{'écran' if browser else 'API'} étui {number}: {status} {str(body)[:200]}")
                except Exception as error:  # noqa: BLE001 -- reported, and the run fails
                    errors.append(f"marqueur{index}: {error!r}")

            t0 = time.perf_counter()
            threads = [threading.Thread(target=scorer, args=(i,)) for i in range(scorers)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=deadline_s + 60)
            elapsed = time.perf_counter() - t0
            output = timed("classement (API)", lambda: get_json(server.url, f"/api/tournaments/{tournament_id}/ranking",
                                                                 token=arbiter_token))

        stored: dict[tuple[int, int], list[int]] = defaultdict(list)
        for board in output["boards"]:
            for line in board["results"]:
                stored[(board["number"], line["table"])].append(line["score"])
        expected = {(l["board"], l["table"]): l["score"] for l in lines}
        lost = [key for key in expected if key not in stored]
        doubled = [key for key, scores in stored.items() if len(scores) > 1]
        wrong = [key for key, scores in stored.items() if key in expected and scores[0] != expected[key]]
        requests = sum(len(v) for k, v in latencies.items() if "classement" not in k)
        print(f"  {'requête':<20} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
        for kind, values in sorted(latencies.items()):
            print(f"  {kind:<20} {len(values):>5} {percentile(values, 50) * 1000:>8.1f} "
                  f"{percentile(values, 95) * 1000:>8.1f} {percentile(values, 99) * 1000:>8.1f} "
                  f"{max(values) * 1000:>8.1f}")
        print(f"  débit : {len(lines) / elapsed:.0f} lignes/s, {requests / elapsed:.1f} requêtes/s "
              f"({elapsed:.1f} s pour toute la saisie)")
        print(f"  lignes perdues : {len(lost)}, en double : {len(doubled)}, fausses : {len(wrong)}, "
              f"erreurs : {len(errors)} ; fiches refusées « base occupée » (503) puis renvoyées : {len(busy)} "
              f"(écran {sum(1 for w, _ in busy if w == 'écran')}, API {sum(1 for w, _ in busy if w == 'API')})")
        for message in errors[:5]:
            print("   ", message[:160].replace("\n", " "))
        log = (Path(tmp) / "server.log").read_text(errors="replace")
        if errors and "Traceback" in log:
            print("  journal du serveur, première erreur :\n" + log[log.index("Traceback"):][:3000])
        return not (lost or doubled or wrong or errors)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--positions", type=int, default=7)
    parser.add_argument("--scorers", type=int, default=20)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--deadline", type=float, default=300, help="secondes au plus pour la saisie")
    args = parser.parse_args()
    ok = True
    for database in args.databases.split(","):
        if database == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                ok &= run(f"sqlite:///{tmp}/load.sqlite3", "SQLite", args.tables, args.positions, args.scorers,
                          args.deadline)
        elif database == "postgresql":
            if not postgres_reachable():
                print("\n[PostgreSQL] injoignable sur 127.0.0.1:5432 : ignoré")
                continue
            with pg_schema("duplicate_bench_load") as url:
                ok &= run(url, "PostgreSQL", args.tables, args.positions, args.scorers, args.deadline)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
