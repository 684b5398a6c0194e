"""The feuille de marque's foot (`duplicate.core.freeplay.feuille`): the booklet's example sheet, p. 9."""

from duplicate.core.freeplay.feuille import Foot, room_check, sheet_foot
from duplicate.core.freeplay.scoring import DealFacts, deal_score, share

from test_freeplay_scoring import BOOKLET_EXAMPLES


def test_booklet_sheet_foot():
    """The sheet's foot as printed: « Total 318 764 1746 400 360 750 270 780 », « Bilan −446 1346 −390
    −510 » (N, S, E, W; + then − columns), the takers of deals 1–5 being E, W, S, N, S."""
    lines = []
    for (facts, _), taker in zip(BOOKLET_EXAMPLES, "EWSNS"):
        lines.append(share(deal_score(DealFacts.of(**facts), 4), taker, [s for s in "NSEW" if s != taker]))
    foot, total = sheet_foot("NSEW", lines)
    assert foot == {"N": Foot(318, 764), "S": Foot(1746, 400), "E": Foot(360, 750), "W": Foot(270, 780)}
    assert [foot[s].bilan for s in "NSEW"] == [-446, 1346, -390, -510] and total == 0
    # the arbiter's check over the room: positives 1346, negatives −1346
    assert room_check(f.bilan for f in foot.values()) == (1346, -1346)


def test_a_wrong_line_shows_in_the_foot():
    """A North who typed −96 instead of −106 for one defender: the bilans sum to +10."""
    foot, total = sheet_foot("NSEW", [{"E": 318, "N": -96, "S": -106, "W": -106}])
    assert total == 10 and foot["N"] == Foot(0, 96)


def test_room_check_counts_a_bilan_of_one():
    """A room whose bilans are +1, +5 and −6 (a deal at 3 players shares odd numbers): positives 1 + 5 = 6,
    negatives −6; a bilan of 0 belongs to neither sum."""
    assert room_check([1, 5, 0, -6]) == (6, -6)
    assert room_check([-1, 1]) == (1, -1)
