"""A simultané's uploads at the target size of issue 33: ``--clubs`` clubs (100) of ``--tables`` tables (10)
playing ``--boards`` étuis (28) — 4,000 players and 28,000 table results — send their signed files to the
hosted instance (``POST /api/simultanes/<code>/resultats``), each at a moment drawn uniformly within
``--window`` seconds (600: « all uploads within 10 minutes »), through ``--processes`` ``make run`` servers
(waitress, each free on the cores) on one database, taken in turn.

Meanwhile a club's reader asks every ``--poll`` seconds for the national ranking (``GET …/classement`` with
its key, through the first server) and, as the floor, a static file of the same server. Printed: each
upload's answer time (p50 / p95 / max; target p95 ≤ 1 s), the national ranking's lag — from the last
upload's answer to the first ranking answered that holds every club (target ≤ 5 s) — and the time a
ranking takes to answer, beside the static file's. Every file accepted, none lost: the last ranking has
every club's results (exit status 1 otherwise).

A club's file here is `tests/factories.club_evening`: each table plays every étui at one position (no
movement: a club's movement is its own business and is checked with its file; the national topage sees
only étuis, tables and scores). Bounded: every request times out, 127.0.0.1 only.

Run: ``.venv/bin/python bench/bench_simultaneous.py [--clubs 100] [--tables 10] [--boards 28] [--window 600]
[--processes 1] [--database postgresql|sqlite] [--poll 0.5]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "e2e"), str(ROOT / "bench")]

from bench_load import percentile  # noqa: E402
from factories import club_evening  # noqa: E402
from live import LiveServer, pg_schema, postgres_reachable  # noqa: E402

CODE = "BENCH"
SCORES = (56, 62, -56, -52, 50, 70, -70, 90, 110, -110)
TIMEOUT = 60


def _prepare(url: str, clubs: int, boards: int) -> tuple[dict[int, str], str, dict[str, str]]:
    """The simultané and its clubs, through the operations (the organiser's commands, without a process per
    club): (étui → taker seat, the seed's hash, club → key)."""
    from sqlmodel import Session

    from duplicate import create_app, db, operations

    app = create_app({"DATABASE_URL": url})
    with app.app_context(), Session(db.get_engine(app)) as session:
        embargo = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
        event = operations.create_simultaneous(session, CODE, "Banc", "individual", boards, embargo)
        keys = {f"C{n:03d}": operations.add_club(session, event, f"C{n:03d}", f"Club {n}").key for n in range(clubs)}
        takers = {board["number"]: board["taker"] for board in event.deals["boards"]}
        session.commit()
        return takers, event.seed_sha256, keys


def _timed(request: urllib.request.Request) -> tuple[float, int, bytes]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            body, status = answer.read(), answer.status
    except urllib.error.HTTPError as error:
        body, status = error.read(), error.code
    return time.perf_counter() - start, status, body


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--boards", type=int, default=28)
    parser.add_argument("--window", type=float, default=600)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--poll", type=float, default=0.5)
    args = parser.parse_args()
    if args.database == "postgresql" and not postgres_reachable():
        print("PostgreSQL ne répond pas sur 127.0.0.1:5432")
        return 1
    from duplicate.core.simultaneous import club_envelope

    with tempfile.TemporaryDirectory() as tmp, pg_schema("bench_simultaneous") as pg_url:
        url = pg_url if args.database == "postgresql" else f"sqlite:///{Path(tmp) / 'simultane.sqlite3'}"
        takers, seed_sha256, keys = _prepare(url, args.clubs, args.boards)
        rnd = random.Random(33)
        files = {club: json.dumps(club_envelope(CODE, club, seed_sha256, club_evening(
            {t: {b: rnd.choice(SCORES) for b in takers} for t in range(1, args.tables + 1)}, takers), key)).encode()
            for club, key in keys.items()}
        env = {"PUBLIC_RESULTS_MAX_STALE": "10", "SERVER_CPU": "all"}
        servers = [LiveServer(url, Path(tmp) / f"server{i}.log", production=True, env=env).start()
                   for i in range(args.processes)]
        reader_key = next(iter(keys.values()))
        uploads: list[float] = []
        refused: list[str] = []
        polls: list[tuple[float, float, int, int]] = []  # (answered at, answer time, clubs in it, results)
        floor: list[float] = []
        done = threading.Event()

        def upload(club: str, at: float, server: LiveServer) -> None:
            time.sleep(max(0.0, at - time.perf_counter()))
            request = urllib.request.Request(f"{server.url}/api/simultanes/{CODE}/resultats", data=files[club],
                                             method="POST", headers={"Content-Type": "application/json"})
            elapsed, status, body = _timed(request)
            uploads.append(elapsed)
            if status != 200:
                refused.append(f"{club}: {status} {body[:200]!r}")

        def read() -> None:
            ranking = urllib.request.Request(f"{servers[0].url}/api/simultanes/{CODE}/classement",
                                             headers={"Authorization": f"Bearer {reader_key}"})
            static = urllib.request.Request(f"{servers[0].url}/static/css/app.css")
            while not done.is_set():
                elapsed, status, body = _timed(ranking)
                if status == 200:
                    output = json.loads(body)
                    results = sum(len(board["results"]) for board in output["boards"])
                    polls.append((time.perf_counter(), elapsed, len(output["club_files"]), results))
                floor.append(_timed(static)[0])
                time.sleep(args.poll)

        try:
            start = time.perf_counter()
            reader = threading.Thread(target=read)
            reader.start()
            moments = sorted(start + rnd.uniform(0, args.window) for _ in keys)
            threads = [threading.Thread(target=upload, args=(club, at, servers[i % len(servers)]))
                       for i, (club, at) in enumerate(zip(keys, moments))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(args.window + TIMEOUT * 2)
            last_answer = time.perf_counter()
            deadline = last_answer + 60
            while time.perf_counter() < deadline and not (polls and polls[-1][2] == args.clubs):
                time.sleep(0.05)
            done.set()
            reader.join(TIMEOUT * 2)
        finally:
            for server in servers:
                server.stop()
        complete = [at for at, _, clubs, _ in polls if clubs == args.clubs]
        lag = (complete[0] - last_answer) if complete else float("nan")
        answers = [elapsed for _, elapsed, _, _ in polls]
        expected = args.clubs * args.tables * args.boards
        print(f"{args.clubs} clubs × {args.tables} tables, {args.boards} étuis ({expected} résultats), "
              f"{args.database}, {args.processes} processus, envois dans {args.window:.0f} s")
        print(f"  envois : {len(uploads)}, refusés {len(refused)} ; p50 {percentile(uploads, 50) * 1000:.0f} ms, "
              f"p95 {percentile(uploads, 95) * 1000:.0f} ms, max {max(uploads) * 1000:.0f} ms (cible p95 ≤ 1 s)")
        print(f"  classement national complet {lag:.2f} s après la réponse au dernier envoi (cible ≤ 5 s)")
        print(f"  lecture du classement : p50 {percentile(answers, 50) * 1000:.0f} ms, p95 "
              f"{percentile(answers, 95) * 1000:.0f} ms, max {max(answers) * 1000:.0f} ms ({len(answers)} lectures) ; "
              f"plancher (fichier statique) p50 {percentile(floor, 50) * 1000:.0f} ms, "
              f"p95 {percentile(floor, 95) * 1000:.0f} ms")
        for line in refused[:5]:
            print("  refusé :", line)
        held = polls[-1][3] if polls else 0
        print(f"  résultats dans le dernier classement : {held} sur {expected}")
        return 0 if not refused and held == expected and complete else 1


if __name__ == "__main__":
    sys.exit(main())
