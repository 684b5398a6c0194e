"""Tests that can fail (issue 17): coefficients between positions (regional championship art. 3), the prize
list, the coefficients' file format and the parallel tournaments — values derived by hand from the rules
(each test's docstring says how), messages checked in full.
"""

import re
from fractions import Fraction

import pytest

from duplicate.core.freeplay.coefficients import (
    CoefficientError, Stage, allowed_coefficient, apply_stages, check_stage, french_decimal, parse_coefficient,
)
from duplicate.core.freeplay.ranking import Entry


def _full(message):
    """A `match` pattern for exactly ``message``."""
    return "^" + re.escape(message) + "$"


def _table(bilans, **extras):
    """Entries from {player: {position: bilan}}; ``extras``: {player: {attribute: value}}."""
    table = {}
    for ident, positions in bilans.items():
        entry = Entry(ident, positions=dict(positions))
        entry.points = sum(positions.values())
        for name, value in extras.get(ident, {}).items():
            setattr(entry, name, value)
        table[ident] = entry
    return table


# ---- check_stage / allowed_coefficient: the rule's refusals --------------------------------------------

def test_stage_at_position_1_refused():
    """« entre 2 positions »: a stage needs a position before it, so position 1 is refused."""
    with pytest.raises(CoefficientError,
                       match=_full("un coefficient s’applique entre deux positions : à partir de la position 2")):
        check_stage(Stage(1, Fraction(11, 10), 1), 10)


@pytest.mark.parametrize("eliminated", [0, 10, 11])
def test_stage_must_eliminate_someone_and_keep_someone(eliminated):
    """10 players: 0 eliminated is no elimination; 10 (or 11) eliminated leaves nobody to weigh."""
    with pytest.raises(CoefficientError, match=_full(
            f"{eliminated} éliminé{'s' if eliminated > 1 else ''} sur 10 joueurs : il faut en éliminer au moins 1 et en garder au moins 1")):
        check_stage(Stage(2, Fraction(11, 10), eliminated), 10)


def test_one_eliminated_of_ten_is_exactly_ten_percent():
    """1 of 10 = 10 % → « au moins » 10 % is reached: 1,10 allowed, and a single eliminated is enough."""
    check_stage(Stage(2, Fraction(11, 10), 1), 10)  # no error
    check_stage(Stage(5, Fraction(21, 20), 1), 10)  # smaller than allowed: accepted


def test_one_eliminated_of_eleven_is_under_ten_percent():
    """1 of 11 = 9,0909… % → « 9,09 % », under 10 %: no coefficient."""
    with pytest.raises(CoefficientError, match=_full(
            "1 éliminé sur 11 (9,09 %) : il faut éliminer au moins 10 % des joueurs pour appliquer un "
            "coefficient")):
        check_stage(Stage(2, Fraction(11, 10), 1), 11)


def test_allowed_coefficient_edges():
    """Nobody in the running: no share, None. 1 of 1 = 100 % ≥ 50 % → 1,30 (the table's last line);
    1 of 2 = 50 % → 1,30; 1 of 3 = 33,3 % → 1,20."""
    assert allowed_coefficient(0, 0) is None
    assert allowed_coefficient(1, 1) == Fraction(13, 10)
    assert allowed_coefficient(1, 2) == Fraction(13, 10)
    assert allowed_coefficient(1, 3) == Fraction(6, 5)


# ---- apply_stages ------------------------------------------------------------------------------------------

_TEN = {"a": 90, "b": 70, "c": 50, "d": 30, "e": 10, "f": -10, "g": -30, "h": -50, "i": -70, "j": -90}


def test_two_stages_at_the_same_position_refused():
    """Two coefficients cannot both start at position 2."""
    table = _table({p: {1: b} for p, b in _TEN.items()})
    with pytest.raises(CoefficientError, match=_full("deux coefficients à la même position")):
        apply_stages(table, [Stage(2, Fraction(11, 10), 1), Stage(2, Fraction(11, 10), 1)])


def test_three_stages_replace_one_another_given_out_of_order():
    """10 players, stages given in the order 4, 2, 3 (they apply by position):

    * Position 1: a 90, b 70, c 50, d 30, e 10, f −10, g −30, h −50, i −70, j −90.
    * Stage 2, × 1,10, 1 of 10 out (10 % → 1,10 allowed): j (−90) out.
    * Position 2 (a…i): a +10, b −10, c +10, d −10, e +10, f −10, g +10, h −10, i 0; × 1,10: ±11.
      Before position 3: a 101, b 59, c 61, d 19, e 21, f −21, g −19, h −61, i −70.
    * Stage 3, × 1,15, 2 of 9 out (22,2 % → 1,15 allowed): i, h out.
    * Position 3 (a…g): a +20, b +20, c −20, d −20, e +20, f −20, g 0; × 1,15: ±23.
      Before position 4: a 124, b 82, e 44, c 38, d −4, g −19, f −44.
    * Stage 4, × 1,20, 3 of 7 out (42,9 % → 1,25 allowed): d, g, f out.
    * Positions 4 and 5 (a b c e), × 1,20 (not 1,10 × 1,15 × 1,20: the coefficients replace one another):
      pos. 4 a −40, b +40, c +40, e −40 → ∓48; pos. 5 a +20, b −20, c +20, e −20 → ±24.
      a 124 − 48 + 24 = 100, b 82 + 48 − 24 = 106, c 38 + 48 + 24 = 110, e 44 − 48 − 24 = −28.

    Ranking: c, b, a, e (qualified); d −4, g −19, f −44 (out at 4); h −50 − 11 = −61, i −70 (out at 3);
    j −90 (out at 2).
    """
    pos2 = {"a": 10, "b": -10, "c": 10, "d": -10, "e": 10, "f": -10, "g": 10, "h": -10, "i": 0}
    pos3 = {"a": 20, "b": 20, "c": -20, "d": -20, "e": 20, "f": -20, "g": 0}
    pos4 = {"a": -40, "b": 40, "c": 40, "e": -40}
    pos5 = {"a": 20, "b": -20, "c": 20, "e": -20}
    bilans = {p: {1: b} for p, b in _TEN.items()}
    for position, marks in ((2, pos2), (3, pos3), (4, pos4), (5, pos5)):
        for p, b in marks.items():
            bilans[p][position] = b
    table = _table(bilans)
    stages = [Stage(4, Fraction(6, 5), 3), Stage(2, Fraction(11, 10), 1), Stage(3, Fraction(23, 20), 2)]
    ranked = apply_stages(table, stages)
    assert [(e.id, e.rank, e.points) for e in ranked] == [
        ("c", 1, 110), ("b", 2, 106), ("a", 3, 100), ("e", 4, -28),
        ("d", 5, -4), ("g", 6, -19), ("f", 7, -44),
        ("h", 8, -61), ("i", 9, -70),
        ("j", 10, -90),
    ]
    assert table["a"].positions == {1: 90, 2: 11, 3: 23, 4: -48, 5: 24}
    assert table["h"].positions == {1: -50, 2: -11}
    assert [table[p].eliminated_at for p in "abcdefghij"] == [None, None, None, 4, None, 4, 4, 3, 3, 2]


@pytest.mark.parametrize("attribute", ["penalty", "made", "garde_contre_made", "garde_sans_made"])
def test_cut_uses_the_art_29_order(attribute):
    """10 players, stage 2 × 1,10 with 1 out (10 %). After position 1, i and j both have −100 (same best
    position). With i penalised 5 points, i's total is −105: i is last. Otherwise j has one more contract
    made (art. 29: then gardes contre made, then gardes sans made): j is ahead, i last. Either way i is
    out — by the id order alone it would be j, who plays position 2."""
    bilans = {p: {1: b, 2: 0} for p, b in zip("abcdefgh", (80, 60, 40, 20, 0, -20, -40, -60))}
    bilans["i"] = {1: -100}
    bilans["j"] = {1: -100, 2: 0}
    extras = {"i": {"penalty": 5}} if attribute == "penalty" else {"j": {attribute: 1}}
    table = _table(bilans, **extras)
    ranked = apply_stages(table, [Stage(2, Fraction(11, 10), 1)])
    assert ranked[-1].id == "i" and ranked[-1].rank == 10 and table["i"].eliminated_at == 2
    assert table["j"].eliminated_at is None


def test_eliminated_player_seated_after_his_cut_refused():
    """j (−90, last of 10) is out before position 2 (stage 2, 1 out); the movement seats him at 3."""
    bilans = {p: {1: b} for p, b in _TEN.items()}
    with pytest.raises(CoefficientError, match=_full("j est éliminé avant la position 2 mais joue la position 3")):
        apply_stages(_table(bilans), [Stage(2, Fraction(11, 10), 1)], seated={"a": [1, 2, 3], "j": [1, 3]})


# ---- the file's « coefficients » (tournament._stages) ------------------------------------------------------

from duplicate.core.freeplay.tournament import FreePlayError, _stages  # noqa: E402


def test_file_coefficients_must_be_a_list():
    """SPEC: ``"coefficients": [{"position", "coefficient", "eliminated"}, …]`` — a table is not a list."""
    with pytest.raises(FreePlayError, match=_full("« coefficients » : liste attendue")):
        _stages({"position": 2, "coefficient": "1,10", "eliminated": 1})


@pytest.mark.parametrize("item", [
    {"position": 2, "coefficient": "1,10"},                    # no « eliminated »
    {"coefficient": "1,10", "eliminated": 1},                  # no « position »
    {"position": "2", "coefficient": "1,10", "eliminated": 1},  # a text, not a whole number
    "2:1,10:1",                                                # not a table at all
])
def test_file_coefficient_needs_whole_position_and_eliminated(item):
    """The items are counted from 1 (« n° 1 » is the first one)."""
    with pytest.raises(FreePlayError, match=_full("coefficient n° 1 : « position » et « eliminated » (entiers) attendus")):
        _stages([item])


def test_file_coefficient_unreadable_is_numbered():
    """The second item's coefficient « 1,1,5 » is no number: the message names item n° 2."""
    first = {"position": 2, "coefficient": "1,10", "eliminated": 1}
    with pytest.raises(FreePlayError, match=_full("coefficient n° 2 : coefficient « 1,1,5 » illisible (par exemple 1,15)")):
        _stages([first, {"position": 4, "coefficient": "1,1,5", "eliminated": 2}])
    assert _stages([first]) == [Stage(2, Fraction(11, 10), 1)]


# ---- parse_coefficient / french_decimal ------------------------------------------------------------------

@pytest.mark.parametrize("value", [None, True, False])
def test_parse_coefficient_refuses_nothing_and_booleans(value):
    """None (nothing typed) and a JSON true/false are not coefficients."""
    with pytest.raises(CoefficientError, match=_full("coefficient attendu (par exemple 1,15)")):
        parse_coefficient(value)


@pytest.mark.parametrize("value, decimals, text", [
    (Fraction(1, 8), 2, "0,13"),     # 12,5 hundredths: half away from zero → 13
    (Fraction(-1, 8), 2, "−0,13"),   # and away from zero below it too
    (Fraction(1, 20), 2, "0,05"),    # 5 hundredths: the leading zeros are written
    (Fraction(1, 2), 2, "0,50"),     # under 1, positive: no minus sign
    (Fraction(-3, 2), 2, "−1,50"),
    (Fraction(0), 2, "0,00"),
    (Fraction(5), 0, "5"),           # no decimals: no comma
    (Fraction(23, 20), 2, "1,15"),
])
def test_french_decimal_by_hand(value, decimals, text):
    assert french_decimal(value, decimals) == text


# ---- palmarès (prizes.palmares) --------------------------------------------------------------------------

from duplicate.core.freeplay.prizes import palmares  # noqa: E402


def _row(ident, rank, total=0, withdrawn=False):
    return {"id": ident, "rank": rank, "total": total, **({"withdrawn": True} if withdrawn else {})}


def test_special_prize_sums_every_deal_of_the_last_two_positions_after_the_final_square():
    """10 players P1…P10: ⌈10 × 20 %⌉ = 2 prizes, P1 and P2. The carré final (position 4, listed first in
    the results) is left out, so the last two positions are 2 and 3. Each result is one deal; a player's
    bilan of a position is the sum of his deals there: P6 30 − 10 − 10 = 10, P7 25 + 10 + 10 = 45 (P8's
    1000 is at position 1, P5's 500 at the final). Special prize: P7, 45."""
    rows = [_row(f"P{k}", k, 100 - k) for k in range(1, 11)]
    results = [{"position": 4, "scores": {"P5": 500, "P1": -500}},
               {"position": 2, "scores": {"P6": 30, "P7": 25}},
               {"position": 3, "scores": {"P6": -10, "P7": 10}},
               {"position": 3, "scores": {"P7": 10, "P6": -10}},
               {"position": 1, "scores": {"P8": 1000}}]
    data = {"kind": "free", "movement": {"final_square": {"positions": [4]}}}
    prizes = palmares(data, {"ranking": rows, "results": results})
    assert [row["id"] for row in prizes["winners"]] == ["P1", "P2"]
    assert prizes["special"] == {"ids": ["P7"], "score": 45, "positions": [2, 3]}


def test_duo_members_at_the_same_position_add_up():
    """5 duos A…E: ⌈5 × 20 %⌉ = 1 prize, A. Positions 1 and 2; C: c1 +30 and c2 +20 at position 2 = 50,
    D: d1 +40 = 40 → the special prize is C's, 50."""
    teams = [{"id": t, "members": [t.lower() + "1", t.lower() + "2"]} for t in "ABCDE"]
    results = [{"position": 1, "scores": {"a1": 200}},
               {"position": 2, "scores": {"c1": 30, "d1": 40}},
               {"position": 2, "scores": {"c2": 20}}]
    rows = [_row(t, k) for k, t in enumerate("ABCDE", start=1)]
    prizes = palmares({"kind": "free_duo", "teams": teams}, {"ranking": rows, "results": results})
    assert [row["id"] for row in prizes["winners"]] == ["A"]
    assert prizes["special"] == {"ids": ["C"], "score": 50, "positions": [1, 2]}


def test_movement_that_is_not_a_table_has_no_final_square():
    """A « movement » that is not a table (here a list) has no carré final: all positions count.
    5 players, 1 prize (P1); P3 +10 at position 1 is the best of the others."""
    rows = [_row(f"P{k}", k) for k in range(1, 6)]
    prizes = palmares({"kind": "free", "movement": ["fft"]},
                      {"ranking": rows, "results": [{"position": 1, "scores": {"P3": 10, "P4": -10}}]})
    assert prizes["special"] == {"ids": ["P3"], "score": 10, "positions": [1]}


def test_no_special_prize_before_any_deal_nor_when_everyone_is_rewarded():
    """Nothing played yet: no special prize. 3 players ex æquo at rank 1: ⌈0,6⌉ = 1 prize place, shared by
    the three — nobody is left for the special prize."""
    rows = [_row(f"P{k}", k) for k in range(1, 6)]
    assert palmares({"kind": "free"}, {"ranking": rows, "results": []})["special"] is None
    tied = [_row(p, 1) for p in ("P1", "P2", "P3")]
    prizes = palmares({"kind": "free"}, {"ranking": tied, "results": [{"position": 1, "scores": {"P1": 0}}]})
    assert [row["id"] for row in prizes["winners"]] == ["P1", "P2", "P3"]
    assert prizes["special"] is None


def test_withdrawn_entrant_never_gets_a_prize_even_inside_the_prize_places():
    """10 rows, 2 prize places; the row W at rank 2 is withdrawn (art. 27): no prize for him, whatever his
    place in the rows given — only P1 is rewarded."""
    rows = [_row("P1", 1), _row("W", 2, withdrawn=True)] + [_row(f"P{k}", k) for k in range(3, 11)]
    prizes = palmares({"kind": "free"}, {"ranking": rows, "results": [{"position": 1, "scores": {"P5": 5}}]})
    assert [row["id"] for row in prizes["winners"]] == ["P1"]


# ---- parallel tournaments ------------------------------------------------------------------------------

from duplicate.core.freeplay.movements import MovementError, parallel_tournaments  # noqa: E402


@pytest.mark.parametrize("teams, message", [
    ({}, "0 équipes : des équipes de 4, en nombre multiple de 4"),
    ({f"T{i}": [f"p{i}{k}" for k in range(4)] for i in range(1, 14)},
     "13 équipes : des équipes de 4, en nombre multiple de 4"),
    ({f"T{i}": [f"p{i}{k}" for k in range(4 if i > 1 else 3)] for i in range(1, 13)},
     "12 équipes : des équipes de 4, en nombre multiple de 4"),
])
def test_parallel_tournaments_need_teams_of_four_in_a_multiple_of_four(teams, message):
    """4 tournaments in parallel: each team's 4 members play one each, so teams of 4, a multiple of 4 of
    them: none, 13 teams, or 12 with one team of 3 are refused."""
    with pytest.raises(MovementError, match=_full(message)):
        parallel_tournaments(teams)
