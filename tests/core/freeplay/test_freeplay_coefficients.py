"""Coefficients between positions with elimination (regional championship art. 3), derived by hand.

8 players. Position 1, table 1 (a b c d): a takes a garde, 2 bouts, 49 points: d = 8, (25 + 8) × 2 = 66 →
a +198, b c d −66. Table 2 (e f g h): e prise 1 bout 51 (25: e +75, f g h −25); f prise 1 bout 51 (f +75,
e g h −25); g prise 1 bout 52 (26: g +78, e f h −26) → e 75 − 25 − 26 = 24, f −25 + 75 − 26 = 24,
g −25 − 25 + 78 = 28, h −76. Ranking after position 1: a 198, g 28, e 24, f 24, b c d −66, h −76.

Stage: from position 2, 4 eliminated of 8 (50 % → 1,30 at most), coefficient 1,25: b, c, d, h out.
Position 2 (a e f g): e takes a garde, 2 bouts, 49 points twice: each time e +198, a f g −66; × 1,25:
e +247,5, a f g −82,5. Totals: e 24 + 495 = 519; a 198 − 165 = 33; g 28 − 165 = −137; f 24 − 165 = −141.
The eliminated keep theirs (b c d −66, h −76) and rank after the qualified, even above them in points.
"""

import json
from fractions import Fraction

import pytest

from duplicate.core.freeplay.coefficients import (
    ELIMINATION_COEFFICIENTS, CoefficientError, Stage, allowed_coefficient, check_stage, parse_coefficient,
)
from duplicate.core.freeplay.tournament import FreePlayError, rank_free

NONE = {"partner": None, "poignees": [], "petit_au_bout": None, "chelem": None}


def _deal(position, table, deal, players, taker, contract, points, bouts):
    return {"position": position, "table": table, "deal": deal, "players": players, "taker": taker,
            "contract": contract, "points": points, "bouts": bouts, **NONE}


def _file(coefficients=None, penalties=()):
    t1, t2, final = list("abcd"), list("efgh"), list("aefg")
    results = [
        _deal(1, 1, 1, t1, "a", "garde", 49, 2),
        _deal(1, 2, 1, t2, "e", "prise", 51, 1), _deal(1, 2, 2, t2, "f", "prise", 51, 1),
        _deal(1, 2, 3, t2, "g", "prise", 52, 1),
        _deal(2, 1, 1, final, "e", "garde", 49, 2), _deal(2, 1, 2, final, "e", "garde", 49, 2),
    ]
    data = {"kind": "free", "players": [{"id": p} for p in "abcdefgh"], "results": results,
            "penalties": list(penalties)}
    if coefficients is not None:
        data["coefficients"] = coefficients
    return data


def test_the_table_of_art_3():
    assert [(float(s), float(c)) for s, c in ELIMINATION_COEFFICIENTS] == [
        (0.1, 1.1), (0.2, 1.15), (0.3, 1.2), (0.4, 1.25), (0.5, 1.3)]
    assert allowed_coefficient(2, 22) is None  # 9,09 %
    assert allowed_coefficient(3, 22) == Fraction(110, 100)  # 13,6 %
    assert allowed_coefficient(5, 22) == Fraction(115, 100)  # 22,7 %
    assert allowed_coefficient(11, 22) == Fraction(130, 100)  # 50 %
    assert allowed_coefficient(20, 22) == Fraction(130, 100)
    assert parse_coefficient("1,15") == Fraction(23, 20) == parse_coefficient(1.15) == parse_coefficient("1.15")


def test_ranking_with_a_coefficient_by_hand():
    answer = rank_free(_file([{"position": 2, "coefficient": "1,25", "eliminated": 4}]))
    rows = [(r["id"], r["total"], r["rank"]) for r in answer["ranking"]]
    assert [r.get("eliminated_before") for r in answer["ranking"]] == [None] * 4 + [2] * 4
    assert answer["coefficients"] == [{"position": 2, "coefficient": "1,25", "eliminated": 4}]  # given back
    # whole totals are written as JSON integers, not 519.0
    assert json.dumps([r["total"] for r in answer["ranking"]]) == "[519, 33, -137, -141, -66, -66, -66, -76]"
    assert rows == [("e", 519, 1), ("a", 33, 2), ("g", -137, 3), ("f", -141, 4),
                    ("b", -66, 5), ("c", -66, 5), ("d", -66, 5), ("h", -76, 8)]
    # without the coefficient: e 24 + 396 = 420, a 198 − 132 = 66, g 28 − 132 = −104, f 24 − 132 = −108
    plain = {r["id"]: r["total"] for r in rank_free(_file())["ranking"]}
    assert (plain["e"], plain["a"], plain["g"], plain["f"]) == (420, 66, -104, -108)


def test_halves_and_an_unweighted_penalty():
    """1,15 from position 2: e 24 + 2 × 198 × 1,15 = 24 + 455,4 = 479,4; a 198 − 2 × 75,9 = 46,2, then 100
    points of penalty (not weighted): −53,8; g 28 − 151,8 = −123,8; f 24 − 151,8 = −127,8."""
    answer = rank_free(_file([{"position": 2, "coefficient": 1.15, "eliminated": 4}],
                             [{"player": "a", "points": 100, "reason": "retard"}]))
    totals = {r["id"]: r["total"] for r in answer["ranking"]}
    assert Fraction(str(totals["e"])) == Fraction("479.4") and Fraction(str(totals["a"])) == Fraction("-53.8")
    assert Fraction(str(totals["g"])) == Fraction("-123.8") and Fraction(str(totals["f"])) == Fraction("-127.8")
    assert [r["id"] for r in answer["ranking"]][:4] == ["e", "a", "g", "f"]


def test_refusals_in_french():
    with pytest.raises(FreePlayError) as error:
        rank_free(_file([{"position": 2, "coefficient": "1,35", "eliminated": 4}]))
    assert str(error.value) == ("coefficients : coefficient 1,35 refusé : 4 éliminés sur 8 (50,00 %) "
                                "permettent au plus 1,30")
    with pytest.raises(FreePlayError) as error:  # 3 of 8: 37,5 % → 1,20 at most
        rank_free(_file([{"position": 2, "coefficient": "1,25", "eliminated": 3}]))
    assert "au plus 1,20" in str(error.value)
    with pytest.raises(FreePlayError) as error:  # 5 out: f is among them but played position 2
        rank_free(_file([{"position": 2, "coefficient": "1,3", "eliminated": 5}]))
    assert str(error.value) == "coefficients : f est éliminé avant la position 2 mais joue la position 2"
    with pytest.raises(CoefficientError, match="au moins 10 %"):
        check_stage(Stage(3, Fraction(11, 10), 2), 22)
    with pytest.raises(CoefficientError, match="doit dépasser 1"):
        check_stage(Stage(3, Fraction(1), 11), 22)
    with pytest.raises(FreePlayError, match="illisible"):
        rank_free(_file([{"position": 2, "coefficient": "abc", "eliminated": 4}]))
    team = {**_file([{"position": 2, "coefficient": "1,1", "eliminated": 4}]), "kind": "free_duo"}
    with pytest.raises(FreePlayError, match="individuel"):
        rank_free(team)


def test_a_movement_seating_an_eliminated_player_after_the_cut_is_refused():
    """The file of `test_ranking_with_a_coefficient_by_hand` (b, c, d and h eliminated before position 2) with
    a movement that seats them at table 2 at position 2, where no deal of theirs is entered: the movement
    still plays them after the cut — refused, naming the first of them in the players' order, b."""
    data = _file([{"position": 2, "coefficient": "1,25", "eliminated": 4}])
    seats = lambda four: dict(zip("NSEW", four))  # noqa: E731
    data["movement"] = {"rounds": [{"position": 1, "table": 1, "seats": seats("abcd")},
                                   {"position": 1, "table": 2, "seats": seats("efgh")},
                                   {"position": 2, "table": 1, "seats": seats("aefg")},
                                   {"position": 2, "table": 2, "seats": seats("bcdh")}]}
    with pytest.raises(FreePlayError) as caught:
        rank_free(data)
    assert str(caught.value) == "coefficients : b est éliminé avant la position 2 mais joue la position 2"
