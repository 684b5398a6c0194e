"""`core.scoring.score_facts`: the deal's facts typed at the table → the score, impossible combinations
refused (SPEC §3, §12). Values by hand."""

import pytest

from duplicate.core.scoring import ScoreError, score_facts


@pytest.mark.parametrize("facts, score", [
    # 0 bouts, 77 points (the defence's 3 bouts are 13.5 points: 77 is the most): needed 56, made by 21
    # → (25 + 21) × 2 = +92
    (dict(points=77, bouts=0), 92),
    # 3 bouts, 17 points, the fewest in a Garde: the 21 and the petit in one trick with two low cards (10),
    # the Excuse (4.5) less the low card given for it (0.5), the écart of 6 low cards (3): needed 36,
    # failed by 19 → −(25 + 19) × 2 = −88
    (dict(points=17, bouts=3), -88),
    # two simple poignées: 40, to the side that wins; garde made by 0 (41 with 2 bouts) → 50 + 40 = +90
    (dict(points=41, bouts=2, poignees=["simple", "simple"]), 90),
    # chelem announced and made, 91 points and 3 bouts: (25 + 55) × 2 + 400 = +560
    (dict(points=91, bouts=3, chelem="announced_made"), 560),
])
def test_facts_give_the_score(facts, score):
    assert score_facts("garde", **facts) == score


@pytest.mark.parametrize("facts, message", [
    (dict(points=78, bouts=0), "78 points avec 0 bout.* impossibles"),
    (dict(points=13, bouts=3), "13 points avec 3 bout.* impossibles"),
    (dict(points=16, bouts=3), r"16 points avec 3 bout.* \(de 17 à 89 points\)"),
    (dict(points=92, bouts=3), "0 à 91"),
    (dict(points=50, bouts=4), "bouts impossible"),
    (dict(points=50, bouts=1, poignees=["double", "simple"]), r"poignées double \+ simple impossibles"),
    (dict(points=50, bouts=1, poignees=["triple", "triple"]), r"poignées triple \+ triple impossibles"),
    (dict(points=80, bouts=3, chelem="announced_made"), "80 points avec 3 bout.* avec un chelem réussi"),
    (dict(points=91, bouts=3, chelem="unannounced_made", petit_au_bout="defence"), "petit au bout à la défense quand le preneur a les 3 bouts"),
    (dict(points=10, bouts=0, chelem="defence", petit_au_bout="taker"), "petit au bout au preneur avec 0 bout"),
])
def test_impossible_facts_are_refused(facts, message):
    with pytest.raises(ScoreError, match=message):
        score_facts("garde", **facts)
