"""Fixed vectors, worked out by hand, for the card model of the rules core (issue 17: mutation testing).

Garde multiplier 2, prise 1; contract base 25; points needed 56/51/41/36 for 0/1/2/3 bouts; petit au
bout 10 × multiplier to the side that wins the last trick; chelem of the defence −200 for the taker.
The French messages of `hand_fault` are pinned word for word."""
import pytest

from duplicate.core.scoring import ScoreError, hand_fault, score_facts


def test_two_doubles_need_26_trumps_of_22():
    assert hand_fault("garde", 41, 2, ("double", "double")) == (
        "poignées double + double impossibles dans une même donne : il y a 22 atouts (Excuse "
        "comprise) et une simple en demande 10, une double 13, une triple 15")


def test_taker_petit_au_bout_without_a_bout():
    assert hand_fault("garde", 40, 0, (), "taker") == (
        "petit au bout au preneur avec 0 bout : le petit serait dans ses plis (1 bout au moins)")


def test_defence_petit_au_bout_when_taker_holds_three_bouts():
    assert hand_fault("garde", 60, 3, (), "defence") == (
        "petit au bout à la défense quand le preneur a les 3 bouts : le petit serait dans ses plis")


def test_defence_petit_au_bout_is_possible_in_an_ordinary_deal():
    # 1 bout (not the petit), 40 points: the defence wins the last trick with the petit.
    assert hand_fault("garde", 40, 1, (), "defence") is None
    assert hand_fault("prise", 40, 1, (), "defence") is None


def test_defence_petit_au_bout_refused_when_the_taker_wins_every_trick():
    assert hand_fault("garde", 87, 2, (), "defence", "announced_made") == (
        "petit au bout à la défense impossible avec un chelem réussi : ce camp ne fait aucun pli")


def test_points_zero_accepted_for_the_defence_chelem():
    # garde contre (the dog goes to the defence), 0 point, 0 bout: (25 + 56) × 6 = 486 lost,
    # chelem of the defence −200: −686.
    assert score_facts("garde_contre", 0, 0, chelem="defence") == -686


def test_score_facts_counts_the_petit_au_bout():
    # garde, 45 points with 1 bout: needs 51, −(25 + 6) × 2 = −62; petit au bout to the taker +20: −42.
    assert score_facts("garde", 45, 1, petit_au_bout="taker") == -42
    # the same to the defence: −62 − 20 = −82.
    assert score_facts("garde", 45, 1, petit_au_bout="defence") == -82


def test_score_facts_checks_against_its_own_contract():
    # prise, 53 points with 1 bout: 25 + 2 = 27, an odd score no garde can give.
    assert score_facts("prise", 53, 1) == 27


def test_points_out_of_range_message():
    with pytest.raises(ScoreError, match=r"^nombre de points impossible : 92 \(0 à 91\)$"):
        score_facts("garde", 92, 1)
