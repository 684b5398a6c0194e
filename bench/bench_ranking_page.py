"""Time of the public ranking page for a 150-table individual (600 players, 7 positions × 4 étuis: 4,200
lines, every one scored), served by the real server (``flask run``) on SQLite and PostgreSQL.

The tournament file is simulated (tests/e2e/live.py `simulated_file`) and imported with ``flask --app
app import``; the page ``/tournois/<id>/``, the étui page ``/tournois/<id>/etuis/1`` and the API ranking
are then fetched a few times over loopback, beside their floor: a static file served by the same server.
Prints the first fetch (cold: the ranking is computed) and min / median / max in ms, and the median's
ratio to the target (150 ms, issue 12); then again while a writer thread commits a row every 10 ms
(a journal entry: the write lock taken and released as scorers do, the ranking unchanged). The séance
is published (SPEC §11), so the pages show the rankings. Exit status 1 if a page does not answer 200 or the ranking page
does not list the 600 players.

Run: ``.venv/bin/python bench/bench_ranking_page.py [--tables 150] [--repeat 5] [--databases sqlite,postgresql]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from live import LiveServer, flask, pg_schema, postgres_reachable, simulated_file  # noqa: E402

TARGET = 0.150  # seconds, for the pages and the API ranking at 150 tables (issue 12)
STATIC_FILE = sorted(path.name for path in (ROOT / "static" / "css").iterdir())[0]


def fetch(url: str) -> tuple[float, int, bytes]:
    t0 = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as response:
        body = response.read()
        return time.perf_counter() - t0, response.status, body


def run(database_url: str, label: str, tables: int, repeat: int) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        data = simulated_file(tables, positions=7)
        data["settings"] = {**(data.get("settings") or {}), "published": True}
        path = Path(tmp) / "tournoi.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        t0 = time.perf_counter()
        tournament_id = int(flask(database_url, "import", str(path), timeout=900).stdout.split()[-1])
        imported = time.perf_counter() - t0
        print(f"\n[{label}] {tables} tables, {len(data['players'])} joueurs, {len(data['results'])} lignes "
              f"(import : {imported:.1f} s)")
        ok = True
        with LiveServer(database_url, Path(tmp) / "server.log") as server:
            ok &= measure(server, tournament_id, data, repeat, "")
            stop = threading.Event()
            writer = threading.Thread(target=write_rows, args=(database_url, tournament_id, stop))
            writer.start()
            try:
                ok &= measure(server, tournament_id, data, repeat, " (écritures)")
            finally:
                stop.set()
                writer.join(timeout=30)
        return ok


def write_rows(database_url: str, tournament_id: int, stop: threading.Event) -> None:
    """Commit a journal entry every 10 ms until ``stop``, then remove them."""
    from sqlalchemy import text

    from duplicate.db import make_engine

    engine = make_engine(database_url)
    while not stop.is_set():
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO journal_entry (tournament_id, at, action, summary) "
                              "VALUES (:t, CURRENT_TIMESTAMP, 'bench', '')"), {"t": tournament_id})
        time.sleep(0.01)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM journal_entry WHERE action = 'bench'"))
    engine.dispose()


def measure(server, tournament_id: int, data: dict, repeat: int, label: str) -> bool:
    """Fetch the floor, the two pages and the API ranking ``repeat`` times each; print their times."""
    ok = True
    for name, route in (("plancher (fichier)", "/static/css/" + STATIC_FILE),
                        ("page du classement", f"/tournois/{tournament_id}/"),
                        ("page de l'étui 1", f"/tournois/{tournament_id}/etuis/1"),
                        ("API classement", f"/api/tournaments/{tournament_id}/ranking")):
        name += label
        times = []
        for _ in range(repeat):
            elapsed, status, body = fetch(server.url + route)
            times.append(elapsed)
            ok &= status == 200
        if route.endswith("/"):
            ok &= body.decode().count('<span class="place-id">') >= len(data["players"])
        median = statistics.median(times[1:] or times)
        print(f"  {name:<32} 1re {times[0] * 1000:7.0f} ms   min {min(times) * 1000:7.0f} ms   médiane "
              f"{median * 1000:7.0f} ms   max {max(times) * 1000:7.0f} ms   ({repeat} fois, "
              f"{median / TARGET:.1f} × la cible de {TARGET * 1000:.0f} ms)")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--databases", default="sqlite,postgresql")
    args = parser.parse_args()
    ok = True
    for database in args.databases.split(","):
        if database == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                ok &= run(f"sqlite:///{tmp}/ranking.sqlite3", "SQLite", args.tables, args.repeat)
        elif postgres_reachable():
            with pg_schema("duplicate_bench_ranking") as url:
                ok &= run(url, "PostgreSQL", args.tables, args.repeat)
        else:
            print("\n[PostgreSQL] injoignable sur 127.0.0.1:5432 : ignoré")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
