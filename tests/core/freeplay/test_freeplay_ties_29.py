"""Issue 29 point 7, by hand from the booklet (``seeds/fft-fascicule-free-play-ocr.txt``): the tied players
of a club tournament share the place and the PCN of the places they cover (chapter 5, « Ex-aequo »: « se
partagent également la totalité des PCN attribués aux places correspondantes (arrondi supérieur si non
entier) »), never under « L'attribution minimale de Pcn est fixée à 50 PCN »; a championship
(``"championship": true``) breaks them by art. 29; a table of 5 makes the event not « homologable »."""

import pytest

from duplicate.core.freeplay.tournament import FreePlayError, rank_free


def _deal(table, position, deal, people, taker, points, bouts=1):
    return {"table": table, "position": position, "deal": deal, "players": people, "taker": taker,
            "contract": "garde", "points": points, "bouts": bouts}


A, B = ["A", "a1", "a2", "a3"], ["B", "b1", "b2", "b3"]
C = ["C1", "C2", "C3", "C4"]


def twelve_players() -> dict:
    """3 tables, 12 players. A takes a garde made by 19 (70 points, 1 bout: (25 + 19) × 2 = 88, A +264),
    then defends a1's garde made by 1 (52 points: 52, A −52): 212. B the same, his second deal at position 2.
    a1 and b1: −88 + 156 = 68; a2, a3, b2, b3: −88 − 52 = −140; table 3 passes: C1–C4 0.
    PCN at 3 tables (p. 45): 120, 82, 57, 50, 50, 50 for places 1–6."""
    return {"kind": "free", "pcn": True, "players": [{"id": p} for p in A + B + C], "results": [
        _deal(1, 1, 1, A, "A", 70), _deal(1, 1, 2, A, "a1", 52),
        _deal(2, 1, 1, B, "B", 70), _deal(2, 2, 1, B, "b1", 52),
        {"table": 3, "position": 1, "deal": 1, "players": C, "passed": True}]}


def rows(data: dict) -> dict:
    return {row["id"]: (row["total"], row["rank"], row["pcn"]) for row in rank_free(data)["ranking"]}


def test_two_players_on_212_share_the_first_two_places_pcn():
    """Club tournament: A and B on 212 are both 1st and share 120 + 82 = 202: 101 each (not 120 and 82)."""
    got = rows(twelve_players())
    assert got["A"] == (212, 1, 101) and got["B"] == (212, 1, 101)


def test_a_tie_across_the_last_pcn_place_gets_the_floor():
    """a1 and b1 (68) are 3rd and share 57 + 50 = 107 → 53.5 → 54 (rounded up); the four on 0 are 5th, over
    places 5–8: 50 + 50 + 0 + 0 = 100 → 25, under the floor: 50 each; the four on −140 (9th) none."""
    got = rows(twelve_players())
    assert got["a1"] == got["b1"] == (68, 3, 54)
    assert {got[p] for p in C} == {(0, 5, 50)}
    assert {got[p] for p in ("a2", "a3", "b2", "b3")} == {(-140, 9, 0)}


def test_a_championship_breaks_the_tie_by_art_29():
    """The same tournament marked « championship »: art. 29's best position — B's +264 at position 1 (his −52
    is at position 2), A's 212 — puts B 1st (120 PCN) and A 2nd (82). Likewise b1 (+156 at position 2) is
    3rd (57) and a1 (68, all at position 1) 4th (50); the four on 0 are equal on every criterion: they still
    share 5th, and its floor."""
    data = twelve_players()
    data["championship"] = True
    answer = rank_free(data)
    got = {row["id"]: (row["total"], row["rank"], row["pcn"]) for row in answer["ranking"]}
    assert got["B"] == (212, 1, 120) and got["A"] == (212, 2, 82)
    assert got["b1"] == (68, 3, 57) and got["a1"] == (68, 4, 50)
    assert {got[p] for p in C} == {(0, 5, 50)}
    assert answer["championship"] is True and "championship" not in rank_free(twelve_players())


def test_the_championship_mark_is_a_boolean():
    data = twelve_players()
    data["championship"] = "oui"
    with pytest.raises(FreePlayError) as refused:
        rank_free(data)
    assert str(refused.value) == "« championship » : true ou false attendu"
    data["championship"] = False
    assert rows(data)["A"] == (212, 1, 101)


def test_a_table_of_5_is_not_homologable():
    """12 players: a table of 4 and a table of 5 in position 1 (C4 sits out as the « mort ») and 3 more
    players elsewhere: no PCN, the reason in the ranking (« Les tournois à 5 joueurs ne sont pas
    homologables », booklet ch. 2); the ranking itself is unchanged."""
    data = twelve_players()
    data["players"].append({"id": "C5"})
    data["results"][-1] = _deal(3, 1, 1, C + ["C5"], "C1", 56) | {"dead": "C4"}
    answer = rank_free(data)
    reason = ("une table de 5 joueurs (table 3, position 1) : « les tournois à 5 joueurs ne sont pas "
              "homologables » (fascicule FFT, le jeu à 5 joueurs)")
    assert answer["pcn_refused"] == answer["not_homologable"] == reason
    assert all("pcn" not in row for row in answer["ranking"])
    assert answer["ranking"][0]["id"] in ("A", "B") and answer["ranking"][0]["total"] == 212
    del data["pcn"]
    answer = rank_free(data)
    assert answer["not_homologable"] == reason and "pcn_refused" not in answer


def test_the_first_table_of_5_is_named_and_tables_of_4_are_not():
    data = twelve_players()
    assert "not_homologable" not in rank_free(data)
    data["players"] += [{"id": "C5"}, {"id": "X"}]
    five = C + ["C5"]
    data["results"] += [{"table": 3, "position": 2, "deal": 1, "players": five, "passed": True},
                        {"table": 3, "position": 3, "deal": 1, "players": five[1:] + ["X"], "passed": True}]
    assert "(table 3, position 2)" in rank_free(data)["not_homologable"]


def test_team_rankings_share_ties_unless_a_championship():
    """Duos (6 duos needed for PCN; 3 tables): D1 = A + C1 and D2 = B + C2 on 212 share 1st in a club
    tournament (the duo table at 3 tables: 120, 60, 50 → 90 each), B's duo 1st alone in a championship."""
    data = twelve_players()
    data["kind"] = "free_duo"
    data["teams"] = [{"id": "D1", "members": ["A", "C1"]}, {"id": "D2", "members": ["B", "C2"]},
                     {"id": "D3", "members": ["a1", "C3"]}, {"id": "D4", "members": ["b1", "C4"]},
                     {"id": "D5", "members": ["a2", "a3"]}, {"id": "D6", "members": ["b2", "b3"]}]
    club = {row["id"]: (row["rank"], row["pcn"]) for row in rank_free(data)["ranking"]}
    assert club["D1"] == club["D2"] == (1, 90)
    players = {row["id"]: row["rank"] for row in rank_free(data)["players"]}
    assert players["A"] == players["B"] == 1
    data["championship"] = True
    answer = rank_free(data)
    assert [(row["id"], row["rank"]) for row in answer["ranking"][:2]] == [("D2", 1), ("D1", 2)]
    assert [row["id"] for row in answer["players"][:2]] == ["B", "A"]


def test_parallel_tournaments_share_ties_unless_a_championship():
    """Libre par 4 in 4 parallel tournaments (12 teams, 3 tables each, one position): in tournament A, N1 takes
    a garde sans, 56 points without a bout, made by 0: (25 + 0) × 4 = 100, +300; N2 a garde, 76 points with 1
    bout, made by 25: (25 + 25) × 2 = 100, +300. Club: both 1st of A. Championship: N1's garde sans is a
    sur-contrat (art. 29): N1 1st, N2 2nd."""
    from duplicate.core.freeplay.movements import movement_to_dict, parallel_movement

    rounds, teams = parallel_movement(12, 1)
    movement = movement_to_dict(12, 1, rounds, frozenset())
    movement["parallel"] = {"tables": 3}
    results = [{"table": 1, "position": 1, "deal": 1, "taker": "N1", "contract": "garde_sans", "points": 56,
                "bouts": 0},
               {"table": 2, "position": 1, "deal": 1, "taker": "N2", "contract": "garde", "points": 76, "bouts": 1}]
    results += [{"table": t, "position": 1, "deal": 1, "passed": True} for t in range(3, 13)]
    data = {"kind": "free_team4", "players": [{"id": p} for members in teams.values() for p in members],
            "teams": [{"id": t, "members": m} for t, m in teams.items()], "movement": movement, "results": results}

    def first_of_a(answer):
        return [(row["id"], row["total"], row["rank"]) for row in answer["tournaments"][0]["ranking"][:2]]

    assert first_of_a(rank_free(data)) == [("N1", 300, 1), ("N2", 300, 1)]
    assert first_of_a(rank_free({**data, "championship": True})) == [("N1", 300, 1), ("N2", 300, 2)]
