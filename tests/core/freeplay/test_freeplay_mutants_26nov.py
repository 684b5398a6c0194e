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
                       match=_full("un coefficient s'applique entre deux positions : à partir de la position 2")):
        check_stage(Stage(1, Fraction(11, 10), 1), 10)


@pytest.mark.parametrize("eliminated", [0, 10, 11])
def test_stage_must_eliminate_someone_and_keep_someone(eliminated):
    """10 players: 0 eliminated is no elimination; 10 (or 11) eliminated leaves nobody to weigh."""
    with pytest.raises(CoefficientError, match=_full(
            f"{eliminated} éliminé(s) sur 10 joueurs : il faut en éliminer au moins 1 et en garder au moins 1")):
        check_stage(Stage(2, Fraction(11, 10), eliminated), 10)


def test_one_eliminated_of_ten_is_exactly_ten_percent():
    """1 of 10 = 10 % → « au moins » 10 % is reached: 1,10 allowed, and a single eliminated is enough."""
    check_stage(Stage(2, Fraction(11, 10), 1), 10)  # no error
    check_stage(Stage(5, Fraction(21, 20), 1), 10)  # smaller than allowed: accepted


def test_one_eliminated_of_eleven_is_under_ten_percent():
    """1 of 11 = 9,0909… % → « 9,09 % », under 10 %: no coefficient."""
    with pytest.raises(CoefficientError, match=_full(
            "1 éliminé(s) sur 11 (9,09 %) : il faut éliminer au moins 10 % des joueurs pour appliquer un "
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
