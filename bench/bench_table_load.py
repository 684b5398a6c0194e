"""Load test of the tables' own sending, on loopback, each scenario side by side with its floor: the
same clients, the same pacing, asking the same server for a static file instead.

Each "table" (a thread) sends its 4 lines of a position in one request to the scoring API (``POST
/api/tournaments/<id>/results``, bearer token) of the server ``make run`` starts (`tests/e2e/live.py`
`LiveServer`, ``production=True``: waitress, `duplicate.serving`), on SQLite and on PostgreSQL. With ``--api
table`` each table sends through the table API instead (SPEC §12, the phone at the table): per étui ``POST
/api/table/<secret>/results`` (202) then a defender's ``…/confirm`` (200); figures are then per request (two
a line). The tournament is a simulated individual of ``--tables`` tables, 7 positions; every scenario
sends lines of its own positions, so none finds its lines already stored.

Scenarios (issue 12):

* ``minute`` — the issue's own load model, « 600 lines in the minute after each position »: every table
  sends its position's lines once, at a moment drawn uniformly within ``--window`` (60 s) — an open
  arrival, about 2.5 requests a second at 150 tables;
* ``rafale`` — the same compressed: every table within ``--burst`` (10 s);
* ``boucle20`` and ``boucle150`` — a closed loop: 20 (then 150) clients each send request after request
  with no pause, the worst case. There a request's latency is mostly its wait behind the others: by
  Little's law, mean latency = clients ÷ throughput, and throughput cannot exceed the machine's cores ÷
  the CPU one request costs (server and client share the 2 cores here). Both bounds are printed beside
  p50/p95: what a closed loop of N clients can physically reach on this machine.

``--late``: the end of the evening — before the scenarios, the tournament holds every line of the positions
they do not send (sent through the scoring API) and the journal their entry and confirmation on the phones
would have written (two entries a line): a phone's view then reads among thousands of results and entries.

``--reader`` (issue 30): the tournament published, a public reader asks for its ranking (``GET
/api/tournaments/<id>/ranking``, as a results page or a projector polls) once a second during every
scenario and its floor, the server keeping the public views as in production (``PUBLIC_RESULTS_MAX_STALE``
10): the server's CPU per request then includes the worker's recomputations of the ranking (and the
reader's own requests, a few a second).

Per scenario and its floor: requests, p50 / p95 / p99 / max, throughput (requests/s), CPU ms per request
of the server process and of the clients (this process), the load average, the 503 count (« base
occupée », sent again at most 10 times) and the lines lost or doubled over the whole run (exit status 1
if any). Bounded: a deadline, every request times out, 127.0.0.1 only.

Run: ``.venv/bin/python bench/bench_table_load.py [--tables 150] [--scenarios minute,rafale,boucle20,boucle150]
[--databases sqlite,postgresql] [--api scoring|table] [--window 60] [--burst 10] [--server waitress|flask]
[--threads N] [--server-cpu CPU|all] [--refresh] [--late] [--synchronous NORMAL] [--no-floor] [--reader]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "faults"), str(ROOT / "bench")]

from bench_load import percentile  # noqa: E402
from clients import get_json, post_json  # noqa: E402
from live import LiveServer, create_token, launch, pg_schema, postgres_reachable, ready_tournament  # noqa: E402

RETRIES = 10
CORES = os.cpu_count() or 1
STATIC = "/static/css/table.css"  # the floor: a static file the same server sends
POSITIONS = 7


@dataclass(frozen=True)
class Scenario:
    name: str
    clients: int | None  # None: one per table
    positions: tuple[int, ...]  # the positions whose lines it sends
    window: str | None = None  # "window" / "burst": each client sends once within that many seconds


SCENARIOS = {
    "minute": Scenario("minute", None, (1,), "window"),
    "rafale": Scenario("rafale", None, (2,), "burst"),
    "seul": Scenario("seul", 1, (3,)),  # one client, request after request: a request's cost alone
    "boucle20": Scenario("boucle20", 20, (3, 4)),
    "boucle150": Scenario("boucle150", None, (5, 6, 7)),
}


@dataclass
class Measure:
    latencies: list[float] = field(default_factory=list)
    busy: int = 0
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    server_cpu: float = 0.0
    loop_cpu: float = 0.0  # of it, the server's main thread: waitress's loop over its connections
    client_cpu: float = 0.0
    load: float = 0.0


def process_cpu(pid: int, thread: int | None = None) -> float:
    """CPU seconds (user + system) a process — or one of its threads — has used so far (Linux ``/proc``)."""
    stat = Path(f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get_static(base: str) -> tuple[int, None]:
    with urllib.request.urlopen(base + STATIC, timeout=60) as response:
        response.read()
        return response.status, None


def reading(url: str | None):
    """A thread that GETs ``url`` once a second until its ``stop`` event is set (None: no reader); its
    ``latencies``."""
    stop, latencies = threading.Event(), []

    def read() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            with urllib.request.urlopen(url, timeout=60) as response:
                response.read()
            latencies.append(time.perf_counter() - start)
            stop.wait(max(0.0, 1.0 - (time.perf_counter() - start)))
    thread = threading.Thread(target=read, daemon=True)
    thread.stop, thread.latencies = stop, latencies
    if url is not None:
        thread.start()
    return thread


def drive(server: LiveServer, shares: list[list], send, spread: float | None, deadline_s: float,
          reader: str | None = None) -> Measure:
    """Run the clients (one per share) together; ``send(key)`` → ``[(status, body, seconds)]``;
    ``spread``: each client pauses a random 0–spread s before each sending (None: back to back);
    ``reader``: an address a public reader GETs once a second meanwhile."""
    measure, lock = Measure(), threading.Lock()
    barrier = threading.Barrier(len(shares))
    deadline = time.monotonic() + deadline_s

    def client(index: int, share: list) -> None:
        try:
            barrier.wait(timeout=120)
            pause = random.Random(index)
            for key in share:
                if spread:
                    time.sleep(pause.uniform(0, spread))
                for _attempt in range(RETRIES):
                    if time.monotonic() > deadline:
                        measure.errors.append("délai dépassé")
                        return
                    answers = send(key)
                    with lock:
                        measure.latencies.extend(seconds for _, _, seconds in answers)
                        measure.busy += sum(status == 503 for status, _, _ in answers)
                    if all(status != 503 for status, _, _ in answers):
                        break
                    time.sleep(0.1)
                for status, body, _ in answers:
                    if status not in (200, 201, 202):
                        measure.errors.append(f"{key} : {status} {str(body)[:160]}")
        except Exception as error:  # noqa: BLE001 -- reported, and the run fails
            measure.errors.append(repr(error))

    threads = [threading.Thread(target=client, args=(i, share)) for i, share in enumerate(shares)]
    pid = server.process.pid
    server_cpu, loop_cpu = process_cpu(pid), process_cpu(pid, pid)
    client_cpu, t0 = time.process_time(), time.perf_counter()
    public = reading(reader)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=deadline_s + 120)
    public.stop.set()
    measure.elapsed = time.perf_counter() - t0
    measure.server_cpu = process_cpu(pid) - server_cpu
    measure.loop_cpu = process_cpu(pid, pid) - loop_cpu
    measure.client_cpu = time.process_time() - client_cpu
    measure.load = os.getloadavg()[0]
    if reader is not None:
        public.join(timeout=60)
        print(f"{'':6}lecteur public : {len(public.latencies)} lectures du classement, p50 "
              f"{percentile(public.latencies, 50) * 1000:.0f} ms, max {max(public.latencies, default=0) * 1000:.0f} ms")
    return measure


def report(label: str, measure: Measure, clients: int, closed: bool) -> None:
    count = len(measure.latencies) or 1
    throughput = len(measure.latencies) / measure.elapsed if measure.elapsed else 0.0
    cpu = (measure.server_cpu + measure.client_cpu) / count
    line = (f"    {label:<9} {len(measure.latencies):5d} req. en {measure.elapsed:5.1f} s : "
            f"p50 {percentile(measure.latencies, 50) * 1000:6.0f} ms, p95 {percentile(measure.latencies, 95) * 1000:6.0f} ms"
            f", p99 {percentile(measure.latencies, 99) * 1000:6.0f} ms, max {max(measure.latencies, default=0) * 1000:6.0f} ms"
            f" ; {throughput:6.1f} req./s ; CPU/req. serveur {measure.server_cpu / count * 1000:5.1f} ms (dont boucle "
            f"{measure.loop_cpu / count * 1000:.1f}), clients "
            f"{measure.client_cpu / count * 1000:5.1f} ms ; charge {measure.load:4.1f}")
    if closed and throughput:
        line += (f"\n{'':14}Little : {clients} clients ÷ {throughput:.0f} req./s = {clients / throughput * 1000:.0f} ms"
                 f" en moyenne ; au mieux, {CORES} cœurs ÷ {cpu * 1000:.1f} ms de CPU = {CORES / cpu:.0f} req./s, "
                 f"soit {clients * cpu / CORES * 1000:.0f} ms")
    print(line)
    if measure.busy or measure.errors:
        print(f"{'':14}503 : {measure.busy} ; erreurs : {len(measure.errors)}")
        for message in measure.errors[:3]:
            print(f"{'':16}{message}")


def run(database_url: str, label: str, args) -> bool:
    """Every scenario against one server and one tournament; False if a line was lost or doubled."""
    api = args.api
    with tempfile.TemporaryDirectory() as tmp:
        tournament_id, lines = ready_tournament(database_url, Path(tmp), tables=args.tables, positions=POSITIONS)
        token = create_token(database_url, role="arbiter" if api == "table" else "scorer")
        groups: dict[tuple[int, int], list[dict]] = defaultdict(list)
        for line in lines:
            groups[(line["table"], line["position"])].append(line)
        env = {"SQLITE_SYNCHRONOUS": args.synchronous} if args.synchronous else {}
        if args.server_cpu:
            env["SERVER_CPU"] = args.server_cpu
        if args.reader:
            _publish(database_url, tournament_id)
            env["PUBLIC_RESULTS_MAX_STALE"] = "10"  # kept public views, as in production
        sent: list[tuple[int, int]] = []
        ok = True
        with LiveServer(database_url, Path(tmp) / "server.log", production=args.server == "waitress",
                        threads=args.threads, env=env) as server:
            if api == "table":
                secrets = {link["table"]: link["secret"]
                           for link in get_json(server.url, f"/api/tournaments/{tournament_id}/tables", token=token)["tables"]}
                takers = _taker_seats(database_url, tournament_id)
                confirming = {number: next(seat for seat in "ESW" if seat != taker)  # a defender, not the North
                              for number, taker in takers.items()}
                codes = launch(database_url, tournament_id, POSITIONS)  # the last launched: all take entries

            def timed(path: str, body, bearer) -> tuple[int, object, float]:
                start = time.perf_counter()
                status, answer = post_json(server.url, path, body, bearer, timeout=60)
                return status, answer, time.perf_counter() - start

            def send(key: tuple[int, int]) -> list[tuple[int, object, float]]:
                """The table's request(s) for its lines of a position: one (scoring API) or two a line."""
                if api == "scoring":
                    return [timed(f"/api/tournaments/{tournament_id}/results", groups[key], token)]
                answers = []
                for line in groups[key]:
                    answers.append(timed(f"/api/table/{secrets[key[0]]}/results",
                                         {"board": line["board"], "score": line["score"]}, None))
                    seat = confirming[line["board"]]
                    defender = line["defenders"][[s for s in "NSEW" if s != takers[line["board"]]].index(seat)]
                    if args.refresh:
                        answers.append(refreshed(key[0]))
                    answers.append(timed(f"/api/table/{secrets[key[0]]}/results/{line['board']}/confirm",
                                         {"seat": seat, "code": codes[defender]}, None))
                    if args.refresh:
                        answers.append(refreshed(key[0]))
                return answers

            etags: dict[int, str] = {}

            def refreshed(table: int) -> tuple[int, object, float]:
                """The phone's page after each answer (`static/js/table.js` ``refresh``): its table's view,
                asked with the version it holds (``If-None-Match``)."""
                headers = {"Accept": "application/json", "Accept-Encoding": "gzip, deflate, br"}  # as Chromium
                if table in etags:
                    headers["If-None-Match"] = etags[table]
                start = time.perf_counter()
                try:
                    with urllib.request.urlopen(urllib.request.Request(f"{server.url}/api/table/{secrets[table]}",
                                                                       headers=headers), timeout=60) as response:
                        response.read()
                        status, etag = response.status, response.headers.get("ETag")
                except urllib.error.HTTPError as error:  # urllib raises on 304 too
                    status, etag = error.code, None
                if etag:
                    etags[table] = etag
                return (200 if status == 304 else status), None, time.perf_counter() - start

            per_unit = 1 if api == "scoring" else (4 if args.refresh else 2) * 4
            first = min(groups)  # warm-up: a refused request (impossible score) reads all a write reads, stores nothing
            for _ in range(3):
                timed(f"/api/tournaments/{tournament_id}/results", [dict(line, score=1) for line in groups[first]], token)
                if api == "table":
                    timed(f"/api/table/{secrets[first[0]]}/results", {"board": groups[first][0]["board"], "score": 1}, None)
                get_static(server.url)

            def floor(_key) -> list[tuple[int, object, float]]:
                answers = []
                for _ in range(per_unit):
                    start = time.perf_counter()
                    status, _body = get_static(server.url)
                    answers.append((status, None, time.perf_counter() - start))
                return answers

            if args.late:
                played = {p for name in args.scenarios.split(",") for p in SCENARIOS[name].positions}
                earlier = sorted(key for key in groups if key[1] not in played)
                for key in earlier:
                    status, answer, _ = timed(f"/api/tournaments/{tournament_id}/results", groups[key], token)
                    assert status == 201, answer
                journal_as_phones(database_url, tournament_id, [line for key in earlier for line in groups[key]])
                print(f"  [{label}] fin de soirée : {sum(len(groups[k]) for k in earlier)} lignes déjà là "
                      f"(positions {', '.join(str(p) for p in sorted({k[1] for k in earlier}))}), journal compris")

            reader = f"{server.url}/api/tournaments/{tournament_id}/ranking" if args.reader else None
            for name in args.scenarios.split(","):
                scenario = SCENARIOS[name]
                clients = scenario.clients or args.tables
                keys = sorted(key for key in groups if key[1] in scenario.positions)
                shares = [keys[i::clients] for i in range(clients)]
                spread = {"window": args.window, "burst": args.burst, None: None}[scenario.window]
                what = (f"{clients} tables, chacune une fois dans les {spread:g} s" if spread
                        else f"{clients} clients en boucle fermée (sans pause)")
                print(f"  [{label}] {name} : {what}")
                measure = drive(server, shares, send, spread, args.deadline, reader)
                sent += [key for share in shares for key in share]
                report("écriture", measure, clients, closed=spread is None)
                ok &= not measure.errors
                if not args.no_floor:
                    report("plancher", drive(server, shares, floor, spread, args.deadline, reader), clients,
                           closed=spread is None)
        stored = _stored(database_url, tournament_id)
        expected = {(line["board"], line["table"]) for key in sent for line in groups[key]}
        lost = expected - set(stored)
        doubled = [key for key, count in stored.items() if count > 1]
        print(f"  [{label}] lignes envoyées {len(expected)}, perdues {len(lost)}, en double {len(doubled)}")
        return ok and not (lost or doubled)


def _publish(database_url: str, tournament_id: int) -> None:
    """The arbiter publishes the séance: the public may read its ranking (SPEC §11)."""
    from sqlmodel import Session

    from duplicate import operations
    from duplicate.db import make_engine
    from duplicate.models import Tournament

    engine = make_engine(database_url)
    with Session(engine) as session:
        operations.publish(session, session.get(Tournament, tournament_id), True, "bench")
        session.commit()
    engine.dispose()


def _taker_seats(database_url: str, tournament_id: int) -> dict[int, str]:
    """Étui number → its taker seat (N, S, E, W)."""
    from sqlalchemy import text

    from duplicate.db import make_engine

    engine = make_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT number, taker FROM board WHERE tournament_id = :t"), {"t": tournament_id}).all()
    engine.dispose()
    return dict(rows)


def journal_as_phones(database_url: str, tournament_id: int, lines: list[dict]) -> None:
    """The journal ``lines`` would have left had they been entered and confirmed on the tables' phones: two
    entries a line (``--late``: what a phone's view counts its refused codes among)."""
    import datetime

    from sqlalchemy import insert

    from duplicate.db import make_engine
    from duplicate.models import JournalEntry

    now = datetime.datetime.now(datetime.timezone.utc)
    engine = make_engine(database_url)
    with engine.begin() as conn:
        conn.execute(insert(JournalEntry), [
            {"tournament_id": tournament_id, "at": now, "action": action, "who": f"table {line['table']}",
             "summary": f"Étui {line['board']}, table {line['table']}"}
            for line in lines for action in ("table.enter", "table.confirm")])
    engine.dispose()


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
    parser.add_argument("--scenarios", default="minute,rafale,boucle20,boucle150",
                        help=f"parmi {', '.join(SCENARIOS)}")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--api", choices=("scoring", "table"), default="scoring",
                        help="scoring : l'API de saisie (4 lignes par requête, défaut) ; table : l'API des tables "
                             "(SPEC §12 : saisie puis confirmation par un défenseur, étui par étui)")
    parser.add_argument("--window", type=float, default=60.0, help="secondes du scénario « minute » (60)")
    parser.add_argument("--burst", type=float, default=10.0, help="secondes du scénario « rafale » (10)")
    parser.add_argument("--deadline", type=float, default=300, help="secondes au plus par scénario")
    parser.add_argument("--server", choices=("waitress", "flask"), default="waitress",
                        help="waitress (make run, défaut) ou flask (serveur de développement)")
    parser.add_argument("--threads", type=int, help="fils du serveur waitress (défaut : celui de make run)")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"),
                        help="SQLITE_SYNCHRONOUS du serveur (défaut : celui de SQLite, FULL)")
    parser.add_argument("--server-cpu", metavar="CPU|all",
                        help="SERVER_CPU du serveur : un cœur, ou all (fils libres) ; défaut : celui de make run")
    parser.add_argument("--refresh", action="store_true",
                        help="avec --api table : chaque réponse suivie de la vue de la table, comme table.js")
    parser.add_argument("--no-floor", action="store_true", help="sans le plancher (fichier statique)")
    parser.add_argument("--late", action="store_true",
                        help="fin de soirée : avant les scénarios, le tournoi tient déjà toutes les lignes des "
                             "positions qu'ils n'envoient pas, et le journal que leur saisie aux tables a écrit")
    parser.add_argument("--reader", action="store_true",
                        help="un lecteur public lit le classement (API) une fois par seconde pendant chaque scénario "
                             "(tournoi publié, vues publiques gardées comme en production)")
    args = parser.parse_args()
    unknown = set(args.scenarios.split(",")) - SCENARIOS.keys()
    if unknown:
        parser.error(f"scénarios inconnus : {', '.join(sorted(unknown))}")
    print(f"{args.tables} tables, API {'de saisie (4 lignes par requête)' if args.api == 'scoring' else 'des tables'}"
          f", {args.server}, {CORES} cœurs, charge au départ {os.getloadavg()[0]:.1f}")
    ok = True
    for database in args.databases.split(","):
        if database == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                label = "SQLite" + (f" synchronous={args.synchronous}" if args.synchronous else "")
                ok &= run(f"sqlite:///{tmp}/tables.sqlite3", label, args)
        elif postgres_reachable():
            with pg_schema("duplicate_bench_tables") as url:
                ok &= run(url, "PostgreSQL", args)
        else:
            print("[PostgreSQL] injoignable sur 127.0.0.1:5432 : ignoré")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
