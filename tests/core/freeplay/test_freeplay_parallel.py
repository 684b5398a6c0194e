"""Libre par 4 as « 4 tournois en parallèle » (booklet p. 21): the assignment, the four movements and the
rankings, derived by hand."""

import pytest

from duplicate.core.freeplay.movements import (
    HOWELL, MovementError, check, free_movement, movement_to_dict, parallel_letter, parallel_movement,
    parallel_tournaments,
)
from duplicate.core.freeplay.tournament import FreePlayError, rank_free


def _tournament(rounds, letter, tables):
    return [r for r in rounds if parallel_letter(r.table, tables) == letter]


def test_sixteen_teams_assignment_by_hand():
    """16 teams: 4 tournaments of 4 tables (the booklet's 4-table Howell, 5 positions): A tables 1–4, B 5–8,
    C 9–12, D 13–16. Team i's k-th member sits in tournament k at table ⌈i / 4⌉ of it, line N S E W by
    (i − 1) mod 4: T1 = N1, N5, N9, N13; T6 = S2, S6, S10, S14 (table 2 of each, South)."""
    rounds, teams = parallel_movement(16)
    assert teams["T1"] == ["N1", "N5", "N9", "N13"]
    assert teams["T6"] == ["S2", "S6", "S10", "S14"]
    assert teams["T16"] == ["W4", "W8", "W12", "W16"]
    assert {r.table for r in rounds} == set(range(1, 17)) and max(r.position for r in rounds) == 5
    # Howell row 2, table 1: J1, J8, J10, J15. At position 1, J8 is West of table 2, J10 South of table 3,
    # J15 East of table 4; in tournament B (tables 5–8) they are W6, S7, E8.
    assert HOWELL[4][1][:4] == (1, 8, 10, 15)
    assert next(r for r in rounds if (r.position, r.table) == (2, 5)).seats == {
        "N": "N5", "S": "W6", "E": "S7", "W": "E8"}
    for k, letter in enumerate("ABCD"):
        own = _tournament(rounds, letter, 4)
        assert {r.table for r in own} == set(range(4 * k + 1, 4 * k + 5))
        assert check(own).ok  # each tournament's movement is valid
        assert {p for r in own for p in r.players()} == {members[k] for members in teams.values()}
    report = check(rounds, teams)
    assert report.ok and not report.teammates  # no two teammates ever at the same table


def test_twenty_teams_fft_movement_by_hand():
    """20 teams: 5 tables a tournament, FFT base moves S +1, E +2, W −2. Tournament C is tables 11–15;
    into position 2 its table 1 (room table 11) keeps N11 and gets South from its table 5 (S15), East from
    its table 4 (E14), West from its table 3 (W13)."""
    rounds, teams = parallel_movement(20)
    assert next(r for r in rounds if (r.position, r.table) == (2, 11)).seats == {
        "N": "N11", "S": "S15", "E": "E14", "W": "W13"}
    single, _ = free_movement(5)
    assert len(rounds) == 4 * len(single)
    assert parallel_letter(11, 5) == "C" and parallel_letter(10, 5) == "B" and parallel_letter(20, 5) == "D"
    assert check(rounds, teams).ok


def test_parallel_refusals_in_french():
    with pytest.raises(MovementError) as error:
        parallel_movement(18)
    assert str(error.value) == "18 équipes : 4 tournois en parallèle demandent un nombre d’équipes multiple de 4"
    with pytest.raises(MovementError) as error:
        parallel_movement(8)  # 2 tables a tournament: the FFT has no such movement
    assert str(error.value) == "4 tournois en parallèle : 12 équipes au moins (3 tables par tournoi)"
    with pytest.raises(MovementError, match="au plus 5 positions"):
        parallel_movement(20, 6)


def test_named_members_follow_the_places():
    teams = {f"E{i}": [f"E{i}-{k}" for k in "abcd"] for i in range(1, 17)}
    rounds = parallel_tournaments(teams)
    assert next(r for r in rounds if (r.position, r.table) == (2, 5)).seats == {
        "N": "E1-b", "S": "E8-b", "E": "E10-b", "W": "E15-b"}
    assert check(rounds, teams).ok


def test_rankings_of_parallel_tournaments_by_hand():
    """12 teams, 1 position (3 tables a tournament). Table 1 (A) and table 4 (B): North takes a garde, 2
    bouts, 49 points: d = 8, (25 + 8) × 2 = 66 a defender, +198 for the taker; every other table passes.
    T1 = N1 + N4 + N7 + N10 = 198 + 198 = 396; T2 = S1 + S4 + S7 + S10 = −66 − 66 = −132, as T3 and T4;
    the other teams 0. Tournament A: N1 198 first, the 8 players of tables 2–3 at 0 second, S1 E1 W1 −66
    tenth; tournament C: everybody 0, first ex æquo."""
    rounds, teams = parallel_movement(12, 1)
    movement = movement_to_dict(12, 1, rounds, frozenset())
    movement["parallel"] = {"tables": 3}
    deal = {"position": 1, "deal": 1, "partner": None, "contract": "garde", "points": 49, "bouts": 2,
            "poignees": [], "petit_au_bout": None, "chelem": None}
    results = [{**deal, "table": 1, "taker": "N1"}, {**deal, "table": 4, "taker": "N4"}]
    results += [{"table": t, "position": 1, "deal": 1, "passed": True} for t in (2, 3, 5, 6, 7, 8, 9, 10, 11, 12)]
    data = {"kind": "free_team4", "players": [{"id": p} for members in teams.values() for p in members],
            "teams": [{"id": t, "members": m} for t, m in teams.items()], "movement": movement, "results": results}
    answer = rank_free(data)
    totals = {row["id"]: row["total"] for row in answer["ranking"]}
    assert totals["T1"] == 396 and totals["T2"] == totals["T3"] == totals["T4"] == -132
    assert all(totals[f"T{i}"] == 0 for i in range(5, 13))
    assert [row["id"] for row in answer["ranking"]][0] == "T1"
    assert [t["tournament"] for t in answer["tournaments"]] == ["A", "B", "C", "D"]
    a = answer["tournaments"][0]["ranking"]
    assert {row["id"] for row in a} == {f"{line}{t}" for t in (1, 2, 3) for line in "NSEW"}
    assert (a[0]["id"], a[0]["total"], a[0]["rank"]) == ("N1", 198, 1)
    assert [row["rank"] for row in a] == [1] + [2] * 8 + [10] * 3
    assert {row["id"]: row["total"] for row in a if row["rank"] == 10} == {"S1": -66, "E1": -66, "W1": -66}
    assert answer["tournaments"][1]["ranking"][0]["id"] == "N4"
    assert {row["rank"] for row in answer["tournaments"][2]["ranking"]} == {1}
    # without the movement's "parallel", no tournaments
    del movement["parallel"]
    assert "tournaments" not in rank_free(data)


def _parallel_file(team_count, tables):
    """Every table of the first position passes (a ranked file); the movement's « parallel » says ``tables``."""
    rounds, teams = parallel_movement(team_count, 1)
    movement = movement_to_dict(team_count, 1, rounds, frozenset())
    movement["parallel"] = tables
    return {"kind": "free_team4", "players": [{"id": p} for members in teams.values() for p in members],
            "teams": [{"id": t, "members": m} for t, m in teams.items()], "movement": movement,
            "results": [{"table": t, "position": 1, "deal": 1, "passed": True} for t in range(1, team_count + 1)]}


@pytest.mark.parametrize("parallel", [{"tables": 2}, {"tables": 1}, {"tables": True}, {"tables": "3"}, {}, "A"])
def test_a_parallel_movement_needs_three_tables_a_tournament(parallel):
    """12 teams on tables 1–12: « parallel » must give the tables of each tournament, a whole number, 3 at
    least (`parallel_movement`'s smallest); 1 table would have sent table 5 to a fifth tournament."""
    with pytest.raises(FreePlayError) as caught:
        rank_free(_parallel_file(12, parallel))
    assert str(caught.value) == ('mouvement, « parallel » : {"tables": t} attendu, t les tables de chaque tournoi '
                                 "(3 au moins)")


def test_a_parallel_movement_whose_tables_pass_the_four_tournaments_is_refused():
    """16 teams on tables 1–16, said to be 4 tournaments of 3 tables (1–12): table 13 is in none. The same
    teams said 4 tournaments of 4 tables: ranked, each tournament's 16 players at 0, first ex æquo."""
    with pytest.raises(FreePlayError) as caught:
        rank_free(_parallel_file(16, {"tables": 3}))
    assert str(caught.value) == "mouvement, « parallel » : la table 13 dépasse les 12 tables des 4 tournois"
    answer = rank_free(_parallel_file(16, {"tables": 4}))
    assert [(t["tournament"], len(t["ranking"]), {row["rank"] for row in t["ranking"]})
            for t in answer["tournaments"]] == [(letter, 16, {1}) for letter in "ABCD"]
