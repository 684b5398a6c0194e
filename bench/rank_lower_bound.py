"""The least work a Python ``rank`` can do on a simulated individual file: a second floor for issue 12.

Not the product (``python -m duplicate rank`` is): a measure of what the target « ``rank`` ≤ 3× reading
the JSON » leaves to Python. It reads the file with the standard ``json`` (as the floor does), then does
only what no ranking can skip, with the cheapest means the standard library has:

* it checks nothing: no field's type, no unknown player, étui or table, no impossible score, no player
  seated twice (the product checks all of these, SPEC §9);
* it tops every étui by one sort (SPEC §4) and writes each table's notes;
* it averages each player's attack and defence notes exactly (integers summed per number of tables, one
  Fraction a mean), weighs them ¼ + ¾ (SPEC §5), and sorts by global %: no alternated ranking, no ex
  æquo places, no penalties, annulments, arbitral notes, withdrawals nor « hors classement »;
* it prints the étuis' rows as the product does, and of the ranking only each player's id, name, line,
  attack, defence and global %, as compact JSON through the C encoder (the product indents, SPEC §10).

Run: ``python bench/rank_lower_bound.py FILE`` (the files of `bench_rank.py`: every étui played at two
tables or more, every result scored, no annulled deal). `bench_rank.py` times it in a fresh process beside
its floor, and checks in process that its étuis' rows and percentages are the product's.
"""

import gc
import json
import sys
from bisect import bisect_left, bisect_right
from fractions import Fraction


def lower_bound_ranking(data: dict) -> dict:
    """Notes of every table and players' percentages, with none of the product's checks."""
    by_board: dict[int, list[dict]] = {}
    for result in data["results"]:
        by_board.setdefault(result["board"], []).append(result)
    # per player and per number of tables n: [Σ k, count of notes], k = 2 × beaten + tied (note = 50 k / (n − 1))
    attack = {player["id"]: {} for player in data["players"]}
    defence = {player["id"]: {} for player in data["players"]}
    boards = []
    for number in sorted(by_board):
        results = sorted(by_board[number], key=lambda r: (r["position"], r["table"]))
        scores = sorted(r["score"] for r in results)
        n = len(scores)
        rows = []
        for result in results:
            score = result["score"]
            beaten = bisect_left(scores, score)
            half_beaten = beaten + bisect_right(scores, score) - 1
            _add(attack[result["taker"]], n, half_beaten)
            for defender in result["defenders"]:
                _add(defence[defender], n, 2 * (n - 1) - half_beaten)
            rows.append({"table": result["table"], "score": score, "position": result["position"],
                         "taker_note": 50 * half_beaten / (n - 1),
                         "defence_note": 50 * (2 * (n - 1) - half_beaten) / (n - 1)})
        boards.append({"number": number, "results": rows})
    ranking = []
    for player in data["players"]:
        ident = player["id"]
        a, d = _mean(attack[ident]), _mean(defence[ident])
        ranking.append({"id": ident, "name": player["name"], "line": player["line"], "attack": float(a),
                        "defence": float(d), "global": float(a / 4 + 3 * d / 4)})
    ranking.sort(key=lambda row: -row["global"])
    return {"kind": data["kind"], "boards": boards, "ranking": ranking}


def _add(sums: dict[int, list[int]], n: int, half_beaten: int) -> None:
    total = sums.setdefault(n, [0, 0])
    total[0] += half_beaten
    total[1] += 1


def _mean(sums: dict[int, list[int]]) -> Fraction:
    """The exact mean of the notes 50 k / (n − 1) from their k summed per n (`_add`)."""
    count = sum(total[1] for total in sums.values())
    return sum((Fraction(50 * total[0], n - 1) for n, total in sums.items()), Fraction(0)) / count


if __name__ == "__main__":
    gc.disable()  # as `rank` does
    with open(sys.argv[1], encoding="utf-8") as file:
        data = json.load(file)
    sys.stdout.write(json.dumps(lower_bound_ranking(data), ensure_ascii=False) + "\n")
