"""Profile of one table's 4 lines sent to the scoring API (``POST /api/tournaments/<id>/results``) through
Flask's test client, in process: what one request of `bench_table_load.py` costs without the HTTP server
and the other clients.

The tournament is `tests/e2e/live.py` `simulated_file` (an individual of ``--tables`` tables, 7
positions), imported with every result but those of 60 (table, position) requests drawn at random — the
end of the séance, when the étuis hold most of their lines. Sends 3 requests (warming the caches), times
20, then profiles 20 with cProfile and prints the heaviest functions.

Run: ``.venv/bin/python bench/profile_table_request.py [--tables 150] [--sort cumulative|tottime]
[--only REGEX] [--lines 40] [--database URL]``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--only", default=".", help="expression régulière sur les fonctions affichées")
    parser.add_argument("--lines", type=int, default=40)
    parser.add_argument("--database", help="URL SQLAlchemy (défaut : un fichier SQLite temporaire)")
    args = parser.parse_args()

    from live import simulated_file

    from duplicate import create_app, interchange, operations as ops
    from duplicate.db import get_session

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE_URL": args.database or f"sqlite:///{tmp}/profil.sqlite3",
                          "SECRET_KEY": "bench", "TESTING": True})
        data = simulated_file(args.tables, 7)
        groups: dict[tuple[int, int], list[dict]] = defaultdict(list)
        for result in data["results"]:
            groups[(result["table"], result["position"])].append(
                {key: result[key] for key in ("board", "table", "position", "taker", "defenders", "score")})
        keys = sorted(groups)
        random.Random(1).shuffle(keys)
        todo = sorted(keys[:60])
        kept = [r for r in data["results"] if (r["table"], r["position"]) not in set(todo)]
        with app.app_context():
            session = get_session()
            tournament_id = interchange.import_tournament(session, json.dumps(dict(data, results=kept))).id
            token = ops.create_token(session, "scorer", "profil")
            session.commit()
        client = app.test_client()

        def send(key: tuple[int, int]) -> None:
            response = client.post(f"/api/tournaments/{tournament_id}/results", json=groups[key],
                                   headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 201, response.get_data(as_text=True)

        for key in todo[:3]:
            send(key)
        times = []
        for key in todo[3:23]:
            start = time.perf_counter()
            send(key)
            times.append(time.perf_counter() - start)
        print(f"{args.tables} tables : une requête de 4 lignes, médiane {statistics.median(times) * 1000:.1f} ms, "
              f"max {max(times) * 1000:.1f} ms (20 requêtes, sans profileur)")
        profile = cProfile.Profile()
        profile.enable()
        for key in todo[23:43]:
            send(key)
        profile.disable()
        pstats.Stats(profile).sort_stats(args.sort).print_stats(args.only, args.lines)


if __name__ == "__main__":
    main()
