"""Time of the public ranking page, the étui page, the JSON ranking and a route-sheet PDF for a 150-table
individual (600 players, 7 positions × 4 étuis: 4,200 lines), served by the real server (`tests/e2e/live.py`
`LiveServer`) on SQLite and PostgreSQL, each beside its floor — a static file served by the same server in
the same run.

The tournament file is simulated (`simulated_file`, published: SPEC §11) and imported with ``flask --app app
import`` without its last position; the pages are then fetched ``--repeat`` times each, in four conditions:

1. **au repos** — nothing else happens;
2. **journal** — a thread commits a journal entry every 10 ms (the write lock taken and released as
   scorers do; the ranking does not change);
3. **150 tables écrivent** — the 150 tables send their 4 lines of the last position to the scoring API
   (``POST /api/tournaments/<id>/results``, one request per table), spread over ``--spread`` seconds (60:
   the issue's 600 lines in the minute after a position), the pages fetched in turn the whole time: every
   request changes the ranking (the public is served the latest kept view while the server's worker
   recomputes it, `PUBLIC_RESULTS_MAX_STALE` its bound);
4. **8 PDF demandés à la fois** — eight players ask for their route-sheet PDF at once (rendered off the
   request path, `duplicate.web.public.route_sheet_pdfs`), and the pages are fetched while they render.

For each: the load average (1 min) before → after, the first fetch, min / median / p95 / max in ms, the
median's ratio to the target (150 ms, issue 12). Then the route-sheet PDF: the time of the « en préparation » answer, the time until the file is ready,
and the time of a fetch of the kept file. Exit status 1 if a page does not answer 200 (202 for a PDF in
preparation) or the ranking page does not list the 600 players.

Run: ``.venv/bin/python bench/bench_ranking_page.py [--tables 150] [--repeat 9] [--spread 60]
[--databases sqlite,postgresql] [--max-stale 10]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "faults"), str(ROOT / "bench")]

from bench_load import percentile  # noqa: E402
from clients import post_json  # noqa: E402
from live import LiveServer, create_token, flask, pg_schema, postgres_reachable, simulated_file  # noqa: E402

TARGET = 0.150  # seconds, for the pages and the API ranking at 150 tables (issue 12)
STATIC_FILE = sorted(path.name for path in (ROOT / "static" / "css").iterdir())[0]


def fetch(url: str) -> tuple[float, int, bytes]:
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            body = response.read()
            return time.perf_counter() - t0, response.status, body
    except urllib.error.HTTPError as error:
        return time.perf_counter() - t0, error.code, error.read()


def run(database_url: str, label: str, tables: int, repeat: int, spread: float) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        data = simulated_file(tables, positions=7)
        last = max(r["position"] for r in data["results"])
        to_send: dict[int, list[dict]] = defaultdict(list)
        for r in data["results"]:
            if r["position"] == last:
                to_send[r["table"]].append({key: r[key] for key in ("board", "table", "position", "taker",
                                                                    "defenders", "score")})
        data["results"] = [r for r in data["results"] if r["position"] != last]
        data["settings"] = {**(data.get("settings") or {}), "published": True}
        path = Path(tmp) / "tournoi.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        t0 = time.perf_counter()
        tournament_id = int(flask(database_url, "import", str(path), timeout=900).stdout.split()[-1])
        imported = time.perf_counter() - t0
        token = create_token(database_url)
        tokens = route_tokens(database_url, tournament_id)
        print(f"\n[{label}] {tables} tables, {len(data['players'])} joueurs, {len(data['results'])} lignes "
              f"+ {sum(map(len, to_send.values()))} à envoyer (import : {imported:.1f} s)")
        ok = True
        with LiveServer(database_url, Path(tmp) / "server.log") as server:
            ok &= measure(server, tournament_id, data, repeat, "au repos")
            stop = threading.Event()
            writer = threading.Thread(target=write_journal, args=(database_url, tournament_id, stop))
            writer.start()
            try:
                ok &= measure(server, tournament_id, data, repeat, "journal toutes les 10 ms")
            finally:
                stop.set()
                writer.join(timeout=30)
            stop = threading.Event()
            sent: list = []  # the status (or the error) of each table's request
            tables_writing = [threading.Thread(target=send_table, args=(
                server.url, tournament_id, token, lines, i * spread / len(to_send), stop, sent))
                for i, lines in enumerate(to_send.values())]
            for thread in tables_writing:
                thread.start()
            try:
                ok &= measure(server, tournament_id, data, repeat, f"{len(to_send)} tables écrivent",
                              until=lambda: not any(thread.is_alive() for thread in tables_writing))
            finally:
                stop.set()
                for thread in tables_writing:
                    thread.join(timeout=60)
            statuses = ", ".join(f"{count} × {status}" for status, count in sorted(Counter(sent).items(), key=str))
            print(f"    ({len(sent)} tables ont envoyé leurs 4 lignes pendant la mesure : {statuses})")
            ok &= measure_pdfs(server, tournament_id, data, repeat, tokens)
        return ok


def route_tokens(database_url: str, tournament_id: int) -> list[str]:
    """The private tokens of the tournament's players, in the order of their ids."""
    from sqlalchemy import text

    from duplicate.db import make_engine

    engine = make_engine(database_url)
    with engine.connect() as conn:
        tokens = list(conn.execute(text("SELECT token FROM player WHERE tournament_id = :t ORDER BY id"),
                                   {"t": tournament_id}).scalars())
    engine.dispose()
    return tokens


def write_journal(database_url: str, tournament_id: int, stop: threading.Event) -> None:
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


def send_table(base: str, tournament_id: int, token: str, lines: list[dict], after: float,
               stop: threading.Event, sent: list) -> None:
    """One table: wait ``after`` seconds (or ``stop``), then send its lines in one request."""
    if stop.wait(after):
        return
    try:
        status, _body = post_json(base, f"/api/tournaments/{tournament_id}/results", lines, token, timeout=60)
    except OSError as error:  # no answer within the minute
        status = type(error).__name__
    sent.append(status)


def report(name: str, times: list[float]) -> str:
    median = statistics.median(times[1:] or times)
    return (f"  {name:<34} 1re {times[0] * 1000:6.0f}   min {min(times) * 1000:6.0f}   médiane "
            f"{median * 1000:6.0f}   p95 {percentile(times, 95) * 1000:6.0f}   max {max(times) * 1000:6.0f} ms"
            f"   ({median / TARGET:.2f} × la cible)")


def measure(server, tournament_id: int, data: dict, repeat: int, condition: str, until=None) -> bool:
    """Fetch the floor, the two pages and the API ranking ``repeat`` times each, in turn — and on until
    ``until()`` if given (the whole time the tables write); print their times, with the load average."""
    ok = True
    load = os.getloadavg()[0]
    routes = {"plancher (fichier statique)": "/static/css/" + STATIC_FILE,
              "page du classement": f"/tournois/{tournament_id}/",
              "page de l'étui 1": f"/tournois/{tournament_id}/etuis/1",
              "API classement (JSON)": f"/api/tournaments/{tournament_id}/ranking"}
    times: dict[str, list[float]] = {name: [] for name in routes}
    rounds = 0
    while rounds < repeat or (until is not None and not until()):
        rounds += 1
        for name, route in routes.items():
            elapsed, status, body = fetch(server.url + route)
            times[name].append(elapsed)
            ok &= status == 200
            if route.endswith("/"):
                ok &= body.decode().count('<span class="place-id">') >= len(data["players"])
    print(f"  — {condition} ({rounds} fois chacune, en ms ; charge {load:.2f} → {os.getloadavg()[0]:.2f})")
    for name in routes:
        print(report(name, times[name]))
    return ok


def measure_pdfs(server, tournament_id: int, data: dict, repeat: int, tokens: list[str]) -> bool:
    """Eight route-sheet PDFs asked for at once (eight clients): the pages meanwhile; then one PDF's answers
    (« en préparation » until rendered, then the kept file)."""
    addresses = [f"{server.url}/feuille/{token}/feuille-de-route.pdf" for token in tokens[:8]]
    answers: list[tuple[float, int, bytes]] = []
    clients = [threading.Thread(target=lambda url=url: answers.append(fetch(url))) for url in addresses]
    t0 = time.perf_counter()
    for client in clients:
        client.start()
    ok = measure(server, tournament_id, data, repeat, "8 PDF de feuilles de route demandés à la fois")
    for client in clients:
        client.join(timeout=600)
    ok &= len(answers) == 8 and all(status in (200, 202) for _elapsed, status, _body in answers)
    waiting = re.search(rb'url=([^"]+)"', answers[-1][2]) if answers else None
    again = server.url + waiting.group(1).decode().replace("&amp;", "&") if waiting else addresses[-1]
    while True:
        elapsed, status, pdf = fetch(again)
        if status != 202 or time.perf_counter() - t0 > 600:
            break
        time.sleep(0.2)
    ready = time.perf_counter() - t0
    ok &= status == 200 and pdf.startswith(b"%PDF")
    kept = [fetch(again)[0] for _ in range(repeat)]
    print("  — feuille de route PDF (ms)")
    print(report("réponse aux 8 demandes", [elapsed for elapsed, _status, _body in answers]))
    print(f"  {'8 PDF prêts après':<34} {ready * 1000:6.0f} ms")
    print(report("PDF demandé de nouveau", kept))
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--spread", type=float, default=60.0)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--max-stale", default="10", help="PUBLIC_RESULTS_MAX_STALE of the server (default: "
                        "the production default, 10 s; 0: every public read shows the data of now)")
    args = parser.parse_args()
    os.environ["PUBLIC_RESULTS_MAX_STALE"] = args.max_stale
    print(f"PUBLIC_RESULTS_MAX_STALE = {args.max_stale} s")
    ok = True
    for database in args.databases.split(","):
        if database == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                ok &= run(f"sqlite:///{tmp}/ranking.sqlite3", "SQLite", args.tables, args.repeat, args.spread)
        elif postgres_reachable():
            with pg_schema("duplicate_bench_ranking") as url:
                ok &= run(url, "PostgreSQL", args.tables, args.repeat, args.spread)
        else:
            print("\n[PostgreSQL] injoignable sur 127.0.0.1:5432 : ignoré")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
