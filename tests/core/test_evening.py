"""The evening's changes in the ranking (SPEC §11, `core.evening`): « hors classement », withdrawals
(booklet art. 27), substitutes from a position on, lateness (art. 26).

Every expected value below is worked out by hand from the rules (SPEC §4–§5), not by the code.

The evening: 3 tables, 2 étuis.
Étui 1 (position 1, taker N): T1 N1 +56, T2 N2 −52, T3 N3 +50 → takers N1 100, N3 50, N2 0;
defenders T1 0, T2 100, T3 50.
Étui 2 (position 2, taker S): T1 S1 +62, T2 S2 +80, T3 S3 −56 → takers S2 100, S1 50, S3 0;
defenders (N, E, W) T1 50, T2 0, T3 100.
Global = ¼ attack + ¾ defence (defence alone when no attack):
N1 ¼·100 + ¾·50 = 62,5   S1 ¼·50 + ¾·0 = 12,5   E1 = W1 = (0 + 50)/2 = 25
N2 ¼·0 + ¾·0 = 0         S2 ¼·100 + ¾·100 = 100  E2 = W2 = (100 + 0)/2 = 50
N3 ¼·50 + ¾·100 = 87,5   S3 ¼·0 + ¾·50 = 37,5    E3 = W3 = (50 + 100)/2 = 75
"""

import json
from fractions import Fraction

import pytest

from duplicate.core.evening import lateness_points
from duplicate.core.tournament import TournamentError, load_tournament, ranking_output

PLAYERS = [{"id": f"{line}{table}", "name": f"JOUEUR {line}{table}", "line": line}
           for table in (1, 2, 3) for line in "NSEW"]


def _result(board, table, taker_line, score, position=True):
    players = [f"{line}{table}" for line in "NSEW"]
    taker = f"{taker_line}{table}"
    item = {"board": board, "table": table, "taker": taker,
            "defenders": [p for p in players if p != taker], "score": score}
    if position:
        item["position"] = board
    return item


RESULTS = [_result(1, 1, "N", 56), _result(1, 2, "N", -52), _result(1, 3, "N", 50),
           _result(2, 1, "S", 62), _result(2, 2, "S", 80), _result(2, 3, "S", -56)]


def _rank(players=PLAYERS, results=RESULTS, **extra):
    data = {"format": "tarot-tournament/1", "kind": "individual", "players": players, "results": results,
            **extra}
    return {row["id"]: row for row in ranking_output(load_tournament(json.dumps(data)))["ranking"]}


def _players(**marks):
    return [{**player, **marks.get(player["id"], {})} for player in PLAYERS]


def _ranks(rows):
    return {ident: (row["rank"], row["alternated_rank"]) for ident, row in rows.items()}


def test_reference_evening_without_changes():
    rows = _rank()
    assert {i: r["global"] for i, r in rows.items()} == {
        "N1": 62.5, "S1": 12.5, "E1": 25, "W1": 25, "N2": 0, "S2": 100, "E2": 50, "W2": 50,
        "N3": 87.5, "S3": 37.5, "E3": 75, "W3": 75}
    assert rows["N3"]["rank"] == 2 and "out_of_ranking" not in rows["N3"] and "withdrawn" not in rows["N3"]


def test_fill_in_player_gets_no_place_and_takes_none():
    rows = _rank(_players(N3={"out_of_ranking": True}))
    # without N3: S2 100; E3 = W3 75; N1 62,5; E2 = W2 50; S3 37,5; E1 = W1 25; S1 12,5; N2 0
    # alternated, firsts of each line: S2 100, E3 75, W3 75, N1 62,5 → 1, 2, 2, 4;
    # seconds: E2 50, W2 50, S3 37,5, N2 0 → 5, 5, 7, 8; thirds: E1 25, W1 25, S1 12,5 → 9, 9, 11
    assert _ranks(rows) == {
        "S2": (1, 1), "E3": (2, 2), "W3": (2, 2), "N1": (4, 4), "E2": (5, 5), "W2": (5, 5), "S3": (7, 7),
        "E1": (8, 9), "W1": (8, 9), "S1": (10, 11), "N2": (11, 8), "N3": (None, None)}
    assert rows["N3"]["out_of_ranking"] is True and rows["N3"]["global"] == 87.5


def test_withdrawn_players_are_ranked_last_among_themselves_by_global():
    rows = _rank(_players(S2={"withdrawn": {"position": 2}}, E1={"withdrawn": {"position": 1}}))
    # who stayed: N3 87,5; E3 = W3 75; N1 62,5; E2 = W2 50; S3 37,5; W1 25; S1 12,5; N2 0 → 1..10
    # alternated: N3, E3, W3, S3 → 1, 2, 2, 4; N1, E2, W2, S1 → 5, 6, 6, 8; W1, N2 → 9, 10
    # then the withdrawn: S2 100 → 11, E1 25 → 12 (both lines' first: 11, 12 alternated too)
    assert _ranks(rows) == {
        "N3": (1, 1), "E3": (2, 2), "W3": (2, 2), "N1": (4, 5), "E2": (5, 6), "W2": (5, 6), "S3": (7, 4),
        "W1": (8, 9), "S1": (9, 8), "N2": (10, 10), "S2": (11, 11), "E1": (12, 12)}
    assert rows["S2"]["withdrawn"] == {"position": 2}
    assert list(rows)[-2:] == ["S2", "E1"]  # listed last, in that order


def _with_substitute(results_to, results=RESULTS, **extra):
    players = PLAYERS + [{"id": "X1", "name": "REMPLAÇANT Paul", "line": "N"}]
    return _rank(players, results, substitutions=[
        {"seat": "N3", "player": "X1", "from_position": 2, "results_to": results_to}], **extra)


def test_substitute_credited_from_the_position_on():
    rows = _with_substitute("substitute")
    # N3 keeps étui 1 (attack 50, no defence): global 50, flagged; X1 gets étui 2 (defence 100): 100
    assert (rows["N3"]["attack"], rows["N3"]["defence"], rows["N3"]["global"]) == (50, None, 50)
    assert rows["N3"]["flagged"] is True
    assert (rows["X1"]["defence"], rows["X1"]["global"], rows["X1"]["rank"]) == (100, 100, None)
    assert rows["X1"]["out_of_ranking"] is True
    # S2 100; E3 = W3 75; N1 62,5; N3 = E2 = W2 50; S3 37,5; E1 = W1 25; S1 12,5; N2 0
    assert {i: r["rank"] for i, r in rows.items()} == {
        "S2": 1, "E3": 2, "W3": 2, "N1": 4, "N3": 5, "E2": 5, "W2": 5, "S3": 8, "E1": 9, "W1": 9, "S1": 11,
        "N2": 12, "X1": None}


def test_substitute_named_but_results_stay_with_the_player():
    rows = _with_substitute("player")
    assert (rows["N3"]["global"], rows["N3"]["rank"]) == (87.5, 2)
    assert (rows["X1"]["global"], rows["X1"]["rank"], rows["X1"]["out_of_ranking"]) == (0, None, True)


def test_substitute_places_results_without_position_by_the_movement():
    results = [_result(*args, position=False) for args in
               [(1, 1, "N", 56), (1, 2, "N", -52), (1, 3, "N", 50), (2, 1, "S", 62), (2, 2, "S", 80),
                (2, 3, "S", -56)]]
    movement = {"rounds": [{"position": p, "table": t, "boards": [p]} for p in (1, 2) for t in (1, 2, 3)]}
    rows = _with_substitute("substitute", results, movement=movement)
    assert (rows["N3"]["global"], rows["X1"]["global"]) == (50, 100)


@pytest.mark.parametrize("substitution, fragment", [
    ({"seat": "N9", "player": "X1", "from_position": 2}, "place « N9 » inconnue"),
    ({"seat": "N3", "player": "X9", "from_position": 2}, "remplaçant « X9 »"),
    ({"seat": "N3", "player": "X1", "from_position": 0}, "from_position"),
    ({"seat": "N3", "player": "X1", "from_position": 2, "results_to": "both"}, "results_to"),
])
def test_faulty_substitution_is_refused_in_french(substitution, fragment):
    data = {"format": "tarot-tournament/1", "kind": "individual",
            "players": PLAYERS + [{"id": "X1", "name": "X", "line": "N"}], "substitutions": [substitution]}
    with pytest.raises(TournamentError, match=fragment):
        load_tournament(json.dumps(data))


@pytest.mark.parametrize("mark", [{"withdrawn": {"position": 0}}, {"withdrawn": 3}, {"out_of_ranking": "oui"}])
def test_faulty_marks_are_refused(mark):
    data = {"format": "tarot-tournament/1", "kind": "individual", "players": _players(N1=mark)}
    with pytest.raises(TournamentError, match="N1"):
        load_tournament(json.dumps(data))


@pytest.mark.parametrize("minutes, per_step, points", [
    (0, 1, 0), (1, 1, 1), (5, 1, 1), (6, 1, 2), (15, 1, 3), (16, 2, 8), (7, Fraction(1, 2), 1)])
def test_lateness_points_per_started_five_minutes(minutes, per_step, points):
    assert lateness_points(minutes, per_step) == points
