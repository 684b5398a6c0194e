"""Profile of one write request through Flask's test client, in process: what one request of
`bench_table_load.py` (or one saved fiche) costs without the HTTP server and the other clients.

``--api scoring`` (default): one table's 4 lines sent to the scoring API (``POST /api/tournaments/<id>/results``,
bearer token). ``--api table``: the table API, each étui entered (``POST /api/table/<secret>/results``) then
confirmed by a defender (``…/confirm``): a figure is per request. ``--api view``: the phone's refresh, ``GET
/api/table/<secret>`` of a table (its position in play, its seats' names, its étuis). ``--api fiche``: one fiche ambulante (an
étui, every table's line) saved from the entry screen (``POST /tournois/<id>/etuis/<n>``, signed-in scorer).

The tournament is `tests/e2e/live.py` `simulated_file` (an individual of ``--tables`` tables, 7 positions),
imported with every result but those of 60 (table, position) requests drawn at random (``fiche``: but 12
étuis) — the end of the séance, when the étuis hold most of their lines; but for ``scoring``, the journal holds
what those lines' entries and confirmations on the phones wrote (two entries a line). Warms up, times some requests
(median wall time, CPU time of the process, SQL statements per request and how long the SQLite write
lock is held — BEGIN IMMEDIATE to COMMIT), lists the statements of one request (``--statements``), then
profiles more with cProfile and prints the heaviest functions.

Run: ``.venv/bin/python bench/profile_table_request.py [--tables 150] [--api scoring|table|fiche|view]
[--sort cumulative|tottime] [--only REGEX] [--lines 40] [--statements] [--database URL] [--synchronous NORMAL]``.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "bench")]


class SqlCounter:
    """The statements an engine runs, and how long its write transactions hold SQLite's write lock."""

    def __init__(self, engine):
        from sqlalchemy import event

        self.statements: list[str] = []
        self.held: list[float] = []
        self._begun: float | None = None

        @event.listens_for(engine, "before_cursor_execute")
        def count(_conn, _cursor, statement, _parameters, _context, _many):
            self.statements.append(statement)

        @event.listens_for(engine, "begin")
        def begin(conn):
            if conn.get_execution_options().get("sqlite_begin", "IMMEDIATE") != "DEFERRED":
                self._begun = time.perf_counter()

        @event.listens_for(engine, "commit")
        @event.listens_for(engine, "rollback")
        def end(_conn):
            if self._begun is not None:
                self.held.append(time.perf_counter() - self._begun)
                self._begun = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--api", choices=("scoring", "table", "fiche", "view"), default="scoring")
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--only", default=".", help="expression régulière sur les fonctions affichées")
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--statements", action="store_true", help="les requêtes SQL d'une requête HTTP")
    parser.add_argument("--database", help="URL SQLAlchemy (défaut : un fichier SQLite temporaire) ; « postgresql » : "
                        "un schéma neuf de la base de test (tests/e2e/live.py pg_schema), supprimé à la fin")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), help="SQLITE_SYNCHRONOUS (défaut : FULL)")
    parser.add_argument("--calls", action="store_true", help="au lieu du profil : les appels Python faits sous "
                        "chaque fonction du projet (inclus), par requête HTTP — un compte stable sur une machine "
                        "chargée, où le temps ne l'est pas")
    args = parser.parse_args()

    from live import simulated_file

    from duplicate import create_app, interchange, operations as ops
    from duplicate.db import get_database, get_session
    from bench_table_load import journal_as_phones
    from duplicate.models import Board
    from sqlmodel import select

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if args.database == "postgresql":
            from live import pg_schema

            args.database = stack.enter_context(pg_schema("profil"))
        app = create_app({"DATABASE_URL": args.database or f"sqlite:///{tmp}/profil.sqlite3",
                          "SECRET_KEY": "bench", "TESTING": True, "WTF_CSRF_ENABLED": False,
                          "SQLITE_SYNCHRONOUS": args.synchronous})
        data = simulated_file(args.tables, 7)
        groups: dict[tuple[int, int], list[dict]] = defaultdict(list)
        for result in data["results"]:
            groups[(result["table"], result["position"])].append(
                {key: result[key] for key in ("board", "table", "position", "taker", "defenders", "score")})
        if args.api == "fiche":
            keys = sorted({line["board"] for line in data["results"]})
            random.Random(1).shuffle(keys)
            todo = keys[:12]
            kept = [r for r in data["results"] if r["board"] not in set(todo)]
            warm, timed, profiled = todo[:2], todo[2:7], todo[7:12]
        else:
            keys = sorted(groups)
            random.Random(1).shuffle(keys)
            todo = sorted(keys[:60])
            kept = [r for r in data["results"] if (r["table"], r["position"]) not in set(todo)]
            warm, timed, profiled = todo[:3], todo[3:23], todo[23:43]
        with app.app_context():
            session = get_session()
            tournament = interchange.import_tournament(session, json.dumps(dict(data, results=kept)))
            tournament_id = tournament.id
            token = ops.create_token(session, "scorer", "profil")
            ops.create_user(session, "marqueur", "mot-de-passe-long", "scorer")
            secrets = {t: ops.table_secret(tournament, t) for t in range(1, args.tables + 1)}
            takers = dict(session.exec(select(Board.number, Board.taker).where(Board.tournament_id == tournament_id)).all())
            # every position launched, so that every étui takes entries (docs/table-phones.md); the codes
            ops.start_position(session, tournament, max(r["position"] for r in data["movement"]["rounds"]))
            codes = {item["id"]: item["code"] for item in ops.table_codes(session, tournament)}
            session.commit()
            if args.api != "scoring":  # the journal the kept lines leave when played on the phones
                journal_as_phones(app.config["DATABASE_URL"], tournament_id, kept)
            counter = SqlCounter(get_database().engine)
        client = app.test_client()
        if args.api == "fiche":
            answer = client.post("/connexion", data={"username": "marqueur", "password": "mot-de-passe-long"})
            assert answer.status_code == 302, answer.status_code
            lines_of = defaultdict(list)
            for result in data["results"]:
                lines_of[result["board"]].append(result)
            forms = {}
            for key in todo:  # the fiche's page, read before the timed saves (its lines are all empty)
                page = client.get(f"/saisie/tournois/{tournament_id}/etuis/{key}").get_data(as_text=True)
                forms[key] = {name: "" for name in re.findall(r'name="(score-[^"]+)"', page)}
                for line in lines_of[key]:
                    forms[key][f"score-{line['board']}-{line['table']}"] = str(line["score"])

        def send(key) -> int:
            """One unit of work; the number of HTTP requests it made."""
            if args.api == "scoring":
                response = client.post(f"/api/tournaments/{tournament_id}/results", json=groups[key],
                                       headers={"Authorization": f"Bearer {token}"})
                assert response.status_code == 201, response.get_data(as_text=True)
                return 1
            if args.api == "fiche":
                response = client.post(f"/saisie/tournois/{tournament_id}/etuis/{key}", data=forms[key])
                assert response.status_code == 302, response.get_data(as_text=True)[:2000]
                return 1
            secret = secrets[key[0]]
            if args.api == "view":
                response = client.get(f"/api/table/{secret}")
                assert response.status_code == 200, response.get_data(as_text=True)
                return 1
            for line in groups[key]:
                response = client.post(f"/api/table/{secret}/results", json={"board": line["board"],
                                                                             "score": line["score"]})
                assert response.status_code == 202, response.get_data(as_text=True)
                seat = next(s for s in "ESW" if s != takers[line["board"]])  # a defender, not the North
                defender = line["defenders"][[s for s in "NSEW" if s != takers[line["board"]]].index(seat)]
                response = client.post(f"/api/table/{secret}/results/{line['board']}/confirm",
                                       json={"seat": seat, "code": codes[defender]})
                assert response.status_code == 200, response.get_data(as_text=True)
            return 2 * len(groups[key])

        for key in warm:
            send(key)
        times, cpu, requests = [], [], 0
        counter.statements.clear()
        counter.held.clear()
        for key in timed:
            start, start_cpu = time.perf_counter(), time.process_time()
            made = send(key)
            requests += made
            times.append((time.perf_counter() - start) / made)
            cpu.append((time.process_time() - start_cpu) / made)
        what = {"scoring": "requête de 4 lignes (API de saisie)", "table": "requête de l'API des tables",
                "view": "lecture du téléphone (GET /api/table/<secret>)",
                "fiche": "fiche ambulante enregistrée (POST seul)"}[args.api]
        print(f"{args.tables} tables : une {what}, médiane {statistics.median(times) * 1000:.1f} ms, CPU "
              f"{statistics.median(cpu) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms ; "
              f"{len(counter.statements) / requests:.1f} requêtes SQL par requête HTTP ; verrou d'écriture SQLite "
              f"tenu {sum(counter.held) * 1000 / requests:.1f} ms par requête HTTP "
              f"({len(timed)} unités, {requests} requêtes HTTP, sans profileur)")
        if args.statements:
            counter.statements.clear()
            send(profiled[0])
            for statement in counter.statements:
                print("   ", " ".join(statement.split())[:150])
            profiled = profiled[1:]
        if args.calls:
            inclusive = count_calls(send, profiled)
            requests = len(profiled) * (8 if args.api == "table" else 1)
            print(f"appels Python par requête HTTP : {inclusive.pop(None) / requests:,.0f}")
            for name, calls in sorted(inclusive.items(), key=lambda item: -item[1])[:args.lines]:
                if re.search(args.only, name):
                    print(f"{calls / requests:9,.0f}  {name}")
            return
        profile = cProfile.Profile()
        profile.enable()
        for key in profiled:
            send(key)
        profile.disable()
        pstats.Stats(profile).sort_stats(args.sort).print_stats(args.only, args.lines)


def count_calls(send, keys) -> dict:
    """Python calls (functions and builtins) made while each of the project's functions is on the stack,
    over ``send(key)`` for every key; ``None``: all calls."""
    counts: dict = defaultdict(int)
    stack: list = []
    project = str(ROOT / "duplicate")

    def tracer(frame, event, _arg):
        if event in ("call", "c_call"):
            counts[None] += 1
            for name in set(stack):
                counts[name] += 1
        if event == "call":
            code = frame.f_code
            stack.append(f"{Path(code.co_filename).name}:{code.co_name}"
                         if code.co_filename.startswith(project) else None)
        elif event == "return" and stack:
            stack.pop()

    sys.setprofile(tracer)
    try:
        for key in keys:
            send(key)
    finally:
        sys.setprofile(None)
    counts.pop("None", None)
    return {name: calls for name, calls in counts.items() if name is not None or True}


if __name__ == "__main__":
    main()
