"""Properties over random free-play tournaments: the FFT movement, random deals at every table (tables of
3 included), `rank_free` — every deal and every position sums to zero, so do the totals; the ranking is
ordered by total and art. 29; a player's total is the sum of his marks."""

from hypothesis import given, settings, strategies as st

from duplicate.core.freeplay.movements import free_movement, movement_to_dict
from duplicate.core.freeplay.tournament import rank_free

CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"]


@st.composite
def tournaments(draw):
    players = draw(st.integers(11, 60))
    rounds, three = free_movement(players=players, positions=draw(st.integers(1, 4)))
    tables = max(r.table for r in rounds)
    results = []
    for r in rounds:
        seated = r.players()
        for deal in range(1, draw(st.integers(1, 3)) + 1):
            if draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans()):
                results.append({"table": r.table, "position": r.position, "deal": deal, "passed": True})
                continue
            halves = len(seated) != 4
            points = draw(st.integers(0, 182)) / 2 if halves else draw(st.integers(20, 70))
            results.append({"table": r.table, "position": r.position, "deal": deal,
                            "taker": draw(st.sampled_from(seated)), "contract": draw(st.sampled_from(CONTRACTS)),
                            "points": points, "bouts": draw(st.integers(1, 2)),
                            "poignees": draw(st.sampled_from([[], ["simple"]])),
                            "petit_au_bout": draw(st.sampled_from([None, "taker", "defence"]))})
    ids = sorted({p for r in rounds for p in r.players()})
    return {"kind": "free", "players": [{"id": p} for p in ids],
            "movement": movement_to_dict(tables, max(r.position for r in rounds), rounds, three),
            "results": results}


@settings(max_examples=40, deadline=None)
@given(tournaments())
def test_random_tournaments(data):
    out = rank_free(data)
    assert all(sum(r["scores"].values()) == 0 for r in out["results"])
    totals = {row["id"]: row["total"] for row in out["ranking"]}
    assert sum(totals.values()) == 0
    marks = {}
    for result in out["results"]:
        for player, mark in result["scores"].items():
            marks[player] = marks.get(player, 0) + mark
    assert all(totals[p] == marks.get(p, 0) for p in totals)
    ranking = out["ranking"]
    assert [row["total"] for row in ranking] == sorted(totals.values(), reverse=True)
    for before, after in zip(ranking, ranking[1:]):  # a club tournament: the same total, the same place
        assert (before["rank"] == after["rank"]) == (before["total"] == after["total"])
        if before["rank"] != after["rank"]:
            assert after["rank"] == ranking.index(after) + 1
    ranking = rank_free({**data, "championship": True})["ranking"]
    assert [row["total"] for row in ranking] == sorted(totals.values(), reverse=True)
    for before, after in zip(ranking, ranking[1:]):
        assert before["rank"] <= after["rank"]
        if before["rank"] == after["rank"]:  # a championship: ex æquo only when every art. 29 criterion is equal
            assert (before["total"], before["best_position"], before["contracts_made"]) == (
                after["total"], after["best_position"], after["contracts_made"])
        else:
            assert after["rank"] == ranking.index(after) + 1
