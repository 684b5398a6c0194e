"""Benchmark of result entry at 10 to 300 tables: what one saved line costs as the tournament grows.

The tournament has the issue's shape: an individual of T tables (4T players), 7 positions × 4 étuis, each
of the 28 étuis played at every table (table t plays the set (t + p) mod 7 at position p, players stay at
their table: a synthetic movement, imported without results). Measured in-process on a fresh SQLite file
(and PostgreSQL when reachable), each figure the median of several runs:

* a whole fiche ambulante (one étui, T lines) saved from the entry screen's operation (`save_lines`);
* one table's 4 lines sent to the scoring API's operation (`record_api_results`);
* the floors: T plain INSERTs of a row in one transaction, and reading the tournament file (json.loads).

Run: ``.venv/bin/python bench/bench_entry.py [--tables 10,50,150,300] [--databases sqlite,postgresql]``.
Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

POSITIONS, PER_POSITION, SEATS = 7, 4, "NSEW"


def shared_boards_file(tables: int) -> tuple[dict, list[dict]]:
    """The tournament file (no results) and its result lines."""
    from duplicate.core.scoring import Contract, reachable_scores

    allowed = sorted(s for s, t in reachable_scores(Contract.GARDE).items() if not t and -150 <= s <= 200)
    rng = random.Random(tables)
    rounds, lines = [], []
    for position in range(1, POSITIONS + 1):
        for table in range(1, tables + 1):
            first = (table + position) % POSITIONS * PER_POSITION + 1
            boards = list(range(first, first + PER_POSITION))
            seats = {seat: f"{seat}{table}" for seat in SEATS}
            rounds.append({"position": position, "table": table, "seats": seats, "boards": boards})
            for number in boards:
                taker = SEATS[(number - 1) % 4]
                lines.append({"board": number, "table": table, "position": position, "taker": seats[taker],
                              "defenders": [seats[s] for s in SEATS if s != taker], "score": rng.choice(allowed)})
    count = POSITIONS * PER_POSITION
    data = {"format": "tarot-tournament/1", "name": f"Banc {tables} tables", "kind": "individual",
            "players": [{"id": f"{s}{t}", "name": f"JOUEUR {s}{t}", "line": s}
                        for t in range(1, tables + 1) for s in SEATS],
            "boards": [{"number": n, "taker": SEATS[(n - 1) % 4], "dealer": "N"} for n in range(1, count + 1)],
            "movement": {"format": "tarot-movement/1", "kind": "individual", "tables": tables,
                         "positions": POSITIONS,
                         "boards": [{"number": n, "taker": SEATS[(n - 1) % 4]} for n in range(1, count + 1)],
                         "rounds": rounds},
            "results": [], "penalties": []}
    return data, lines


def measure(url: str, tables: int, repeat: int = 3) -> dict:
    from sqlalchemy import text

    from duplicate import create_app, interchange, operations as ops
    from duplicate.db import get_session

    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "TESTING": True})
    data, lines = shared_boards_file(tables)
    body = json.dumps(data)
    start = time.perf_counter()
    json.loads(body)
    floor_json = time.perf_counter() - start
    with app.app_context():
        session = get_session()
        tournament_id = interchange.import_tournament(session, body).id
        session.commit()
    by_board: dict[int, list[dict]] = {}
    for line in lines:
        by_board.setdefault(line["board"], []).append(line)
    fiche, table_api, floor_insert = [], [], []
    for run in range(repeat):   # fiches of étuis 1, 5, 9; the API sends étui sets 13–16, 17–20, 21–24
        number = 1 + PER_POSITION * run
        with app.app_context():
            session = get_session()
            tournament = ops.get_tournament(session, tournament_id)
            start = time.perf_counter()
            traveller = ops.traveller(session, tournament, number)
            scores = {line["table"]: line["score"] for line in by_board[number]}
            entries = {line.key: {"score": str(scores[line.table]), "version": None} for line in traveller}
            ops.save_lines(session, tournament, traveller, entries, who="banc")
            session.commit()
            fiche.append(time.perf_counter() - start)
        # one table's 4 lines of another étui set, through the API's operation
        number = 1 + PER_POSITION * (run + repeat)
        table = tables // 2 + 1
        position = next(p for p in range(1, POSITIONS + 1) if (table + p) % POSITIONS * PER_POSITION + 1 <= number
                        < (table + p) % POSITIONS * PER_POSITION + 1 + PER_POSITION)
        four = [line for line in lines if line["table"] == table and line["position"] == position]
        with app.app_context():
            session = get_session()
            tournament = ops.get_tournament(session, tournament_id)
            start = time.perf_counter()
            ops.record_api_results(session, tournament, four, who="banc")
            session.commit()
            table_api.append(time.perf_counter() - start)
        with app.app_context():  # floor: the same rows inserted plainly, then removed
            session = get_session()
            start = time.perf_counter()
            for _line in range(tables):
                session.execute(text("INSERT INTO journal_entry (tournament_id, at, action, summary) "
                                     "VALUES (:t, CURRENT_TIMESTAMP, 'bench', '')"), {"t": tournament_id})
            session.commit()
            floor_insert.append(time.perf_counter() - start)
            session.execute(text("DELETE FROM journal_entry WHERE action = 'bench'"))
            session.commit()
    median = statistics.median
    return {"tables": tables, "fiche_ms": median(fiche) * 1000, "per_line_ms": median(fiche) * 1000 / tables,
            "table_4_ms": median(table_api) * 1000, "floor_insert_ms": median(floor_insert) * 1000,
            "floor_json_ms": floor_json * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="10,50,150,300")
    parser.add_argument("--databases", default="sqlite,postgresql")
    args = parser.parse_args()
    from live import pg_schema, postgres_reachable

    print(f"{'base':<11}{'tables':>7}{'fiche (T lignes)':>18}{'par ligne':>11}{'table 4 l.':>12}"
          f"{'plancher INSERT×T':>19}{'plancher JSON':>15}")
    for database in args.databases.split(","):
        for tables in (int(t) for t in args.tables.split(",")):
            if database == "postgresql":
                if not postgres_reachable():
                    print("postgresql : serveur injoignable, mesure sautée")
                    break
                with pg_schema(f"bench_entry_{tables}") as url:
                    row = measure(url, tables)
            else:
                with tempfile.TemporaryDirectory() as directory:
                    row = measure(f"sqlite:///{directory}/banc.sqlite3", tables)
            print(f"{database:<11}{tables:>7}{row['fiche_ms']:>15.0f} ms{row['per_line_ms']:>8.2f} ms"
                  f"{row['table_4_ms']:>9.0f} ms{row['floor_insert_ms']:>16.0f} ms{row['floor_json_ms']:>12.1f} ms")


if __name__ == "__main__":
    main()
