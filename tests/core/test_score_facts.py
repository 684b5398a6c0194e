"""`core.scoring.score_facts`: the deal's facts typed at the table → the score, impossible combinations
refused (SPEC §3, §12). Values by hand."""

import pytest

from duplicate.core.scoring import ScoreError, score_facts


@pytest.mark.parametrize("facts, score", [
    # 0 bouts, 77 points (the defence's 3 bouts are 13.5 points: 77 is the most): needed 56, made by 21
    # → (25 + 21) × 2 = +92
    (dict(points=77, bouts=0), 92),
    # 3 bouts, 14 points (the bouts alone are 13.5): needed 36, failed by 22 → −(25 + 22) × 2 = −94
    (dict(points=14, bouts=3), -94),
    # two simple poignées: 40, to the side that wins; garde made by 0 (41 with 2 bouts) → 50 + 40 = +90
    (dict(points=41, bouts=2, poignees=["simple", "simple"]), 90),
    # chelem announced and made, 91 points and 3 bouts: (25 + 55) × 2 + 400 = +560
    (dict(points=91, bouts=3, chelem="announced_made"), 560),
])
def test_facts_give_the_score(facts, score):
    assert score_facts("garde", **facts) == score


@pytest.mark.parametrize("facts, message", [
    (dict(points=78, bouts=0), "la défense a 3 bouts"),
    (dict(points=13, bouts=3), "3 bouts valent déjà 13,5 points"),
    (dict(points=92, bouts=3), "0 à 91"),
    (dict(points=50, bouts=4), "bouts impossible"),
    (dict(points=50, bouts=1, poignees=["double", "simple"]), "poignées impossibles"),
    (dict(points=50, bouts=1, poignees=["triple", "triple"]), "poignées impossibles"),
    (dict(points=80, bouts=3, chelem="announced_made"), "un chelem réussi fait 91 points"),
    (dict(points=91, bouts=3, chelem="unannounced_made", petit_au_bout="defence"), "ne peut pas être à la défense"),
    (dict(points=10, bouts=0, chelem="defence", petit_au_bout="taker"), "ne peut pas être au preneur"),
])
def test_impossible_facts_are_refused(facts, message):
    with pytest.raises(ScoreError, match=message):
        score_facts("garde", **facts)
