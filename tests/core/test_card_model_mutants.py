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


def test_the_pack_by_value_class():
    # « Valeur de chaque carte » (seeds/rules-of-play.txt), in half-points: the 3 bouts (petit, 21, Excuse)
    # 4,5 → 9, never in the écart; the 4 kings 4,5 → 9, never in the écart (« ni roi ni bout au chien »);
    # 4 dames 3,5 → 7; 4 cavaliers 2,5 → 5; 4 valets 1,5 → 3; every other card 0,5 → 1: the 4 × 10 pip
    # cards and the 19 trumps 2 to 20, 59 cards. 3 + 4 + 4 + 4 + 4 + 59 = 78 cards; 27 + 36 + 28 + 20 + 12
    # + 59 = 182 half-points = 91 points. The card model reads them in this order (bouts, kings, then
    # decreasing value) and computes them when it is called, so that a mutant of it is seen here.
    from duplicate.core.scoring import _value_classes

    assert _value_classes() == ((9, 3, False), (9, 4, False), (7, 4, True), (5, 4, True), (3, 4, True),
                                (1, 59, True))


def test_every_pile_counts_consecutive_points():
    # The validator takes each pile's points as one run (from its fewest to its most points): every set
    # the card model finds, for every contract, end of play and count of bouts, has no gap.
    from duplicate.core.scoring import _ENDS, Contract, _pile_points

    for contract in Contract:
        for tricks, excuse in _ENDS:
            for bouts, points in _pile_points(contract, tricks, excuse).items():
                assert points == set(range(min(points), max(points) + 1)), (contract, tricks, excuse, bouts)


def test_petit_au_bout_needs_a_trick_of_its_side():
    # Garde, chelem of the defence, the taker kept his Excuse (he won no trick): his pile is his écart
    # (6 low cards, 3 points) and the Excuse (4,5): 7,5 → 8 points, 1 bout. He wins no trick, so not the
    # last one: his petit au bout is impossible.
    assert hand_fault("garde", 8, 1, (), "taker", "defence") == (
        "petit au bout au preneur impossible avec un chelem de la défense : ce camp ne fait aucun pli")
    # Garde, 9 points with 1 bout: only with 1 trick (4 cards: the petit 4,5 and 3 low cards 1,5; the
    # écart 6 low cards 3): 9 points; with 2 tricks his 14 cards make 4,5 + 13 × 0,5 = 11 at least. His
    # one trick can be the last, the petit in it: the taker's petit au bout is possible.
    assert hand_fault("garde", 9, 1, (), "taker") is None
    # Garde, 85 points with 2 bouts (21, Excuse): the defence's 4 cards of the 17-trick end are the petit
    # and 3 low cards, 6 points, 91 − 6 = 85; with 16 tricks its 8 cards count 4,5 + 7 × 0,5 = 8, at most
    # 83 to the taker. The defence wins its one trick, the last, with the petit: possible.
    assert hand_fault("garde", 85, 2, (), "defence") is None
    # Garde, 41 points with 2 bouts (21, Excuse): the petit is the defence's, which can win the last trick.
    assert hand_fault("garde", 41, 2, (), "defence") is None


def test_defence_chelem_with_points_both_ways_of_the_excuse():
    # Garde Sans, chelem of the defence: the taker's pile is the unseen chien (6 cards, any), and he may
    # have kept his Excuse. 10 points with 1 bout come both ways: a chien holding the 21 (4,5), a dame
    # (3,5) and four low cards (2): 10; or the Excuse (4,5) and a chien of two valets (3) and four low
    # cards (2): 9,5 → 10 (the half point goes to the taker). Either end allows it: accepted, with or
    # without the defence's petit au bout (the defence wins the last trick).
    assert hand_fault("garde_sans", 10, 1, (), None, "defence") is None
    assert hand_fault("garde_sans", 10, 1, (), "defence", "defence") is None
    # score: needs 51, −(25 + 41) × 4 = −264, chelem of the defence −200: −464.
    assert score_facts("garde_sans", 10, 1, chelem="defence") == -464
