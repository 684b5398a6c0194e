"""Benchmark of the rules engine: ranking a 150-table individual, generating 200 étuis.

Run: ``.venv/bin/python bench/bench_core.py``.  Prints timings; asserts nothing.

The tournament is synthetic but valid: 600 players (N, S, E, W at 150 tables),
7 positions × 4 étuis (28 étuis); at position p table t plays the set
(t + p) mod 7, so every player plays each étui exactly once and attacks one
étui in four; scores are drawn from the Garde scores the validator accepts.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from duplicate.core.deals import generate_boards  # noqa: E402
from duplicate.core.scoring import Contract, reachable_scores  # noqa: E402
from duplicate.core.tournament import load_tournament, ranking_output  # noqa: E402

TABLES, POSITIONS, PER_POSITION = 150, 7, 4
SEATS = "NSEW"


def synthetic_individual(rng: random.Random, tables: int = TABLES) -> str:
    plausible = sorted(s for s, theoretical in reachable_scores(Contract.GARDE).items()
                       if not theoretical and -200 < s < 200)
    players = [{"id": f"{seat}{t}", "name": f"JOUEUR {seat}{t}", "line": seat}
               for t in range(1, tables + 1) for seat in SEATS]
    results = []
    for position in range(1, POSITIONS + 1):
        for table in range(1, tables + 1):
            board_set = (table + position) % POSITIONS
            for offset in range(PER_POSITION):
                board = board_set * PER_POSITION + offset + 1
                taker = SEATS[offset]
                results.append({
                    "board": board, "table": table, "position": position, "taker": f"{taker}{table}",
                    "defenders": [f"{s}{table}" for s in SEATS if s != taker],
                    "score": rng.choice(plausible),
                })
    return json.dumps({"format": "tarot-tournament/1", "name": "Bench", "kind": "individual",
                       "players": players, "results": results})


def timed(function, repeat: int = 3) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def main() -> None:
    text = synthetic_individual(random.Random(2026))
    load_time, tournament = timed(lambda: load_tournament(text))
    rank_time, output = timed(lambda: ranking_output(tournament))
    print(f"individual {TABLES} tables, {4 * TABLES} players, {POSITIONS}×{PER_POSITION} étuis, "
          f"{len(tournament.results)} results")
    print(f"  read + check file : {load_time * 1000:8.1f} ms (median of 3)")
    print(f"  topage + rankings : {rank_time * 1000:8.1f} ms (median of 3)")
    print(f"  total rank        : {(load_time + rank_time) * 1000:8.1f} ms; {len(output['ranking'])} ranked")
    deal_time, boards = timed(lambda: generate_boards(200, "bench-seed"), repeat=3)
    print(f"generate 200 étuis  : {deal_time * 1000:8.1f} ms (median of 3), {len(boards)} étuis")


if __name__ == "__main__":
    main()
