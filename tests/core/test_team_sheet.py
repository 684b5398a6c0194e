"""The team match's score sheet per quarter (`core.team_sheet`; SPEC §6, seed « DUPLICATE PAR ÉQUIPES »,
« Les comptes »), with values derived by hand from the seed's grid (`pm-grid.json`).

Quarter 1, étuis 1–3 (A attacks in the open room, B in the closed room, same cards):
  étui 1: A +82, B +66 → gap +16 → A scores √16 = 4,000, B 0 (seed example « +82 vs +66 → +4 »);
  étui 2: A +68, B −76 → gap +144 → A 12,000 (seed example « +68 vs −76 → +12 »);
  étui 3: A −68, B −58 → gap −10 → B 3,162, A 0 (seed example « −68 vs −58 → −3,162 », here to B).
Quarter 2, étui 4: both +56 → no one scores (« Si le score de l'attaquant est le même … aucune équipe ne
  marque »); étui 5: B's play only (A's annulled) → not compared, 0 to both.
Bonus A 1,5: running A 1,5 + 16 = 17,500 after Q1, unchanged after Q2, Q3, Q4; B 3,162 throughout.
"""

from decimal import Decimal

from duplicate.core.team_sheet import quarter_sheets
from duplicate.core.topage import Result


def _play(board, quarter, room, taker, score, contract="garde", annulled=False):
    defence = "B" if taker == "A" else "A"
    return Result(board=board, table=1 if room == "open" else 2, taker=taker, defence=(defence,),
                  score=None if annulled else score, position=quarter, annulled=annulled, contract=contract,
                  quarter=quarter, room=room)


RESULTS = [
    _play(1, 1, "open", "A", 82), _play(1, 1, "closed", "B", 66),
    _play(2, 1, "open", "A", 68), _play(2, 1, "closed", "B", -76),
    _play(3, 1, "open", "A", -68), _play(3, 1, "closed", "B", -58),
    _play(4, 2, "open", "B", 56), _play(4, 2, "closed", "A", 56),
    _play(5, 2, "open", "B", 62, "garde_sans"), _play(5, 2, "closed", "A", None, annulled=True),
]


def test_each_etui_scores_for_the_better_attacker_and_the_total_runs_from_the_bonus():
    sheets = quarter_sheets(RESULTS, ("A", "B"), {"A": Decimal("1.5")})
    assert [s.number for s in sheets] == [1, 2, 3, 4]
    first, second = sheets[0], sheets[1]
    assert [(r.board, r.difference, r.pm["A"], r.pm["B"]) for r in first.rows] == [
        (1, 16, Decimal("4.000"), 0), (2, 144, Decimal("12.000"), 0), (3, -10, 0, Decimal("3.162"))]
    assert first.pm == {"A": Decimal("16.000"), "B": Decimal("3.162")}
    assert first.running == {"A": Decimal("17.500"), "B": Decimal("3.162")}
    tie, alone = second.rows
    assert (tie.difference, tie.pm) == (0, {"A": 0, "B": 0})
    assert alone.difference is None and alone.pm == {}
    assert alone.plays["closed"].annulled and alone.plays["open"].contract == "garde_sans"
    assert second.pm == {"A": 0, "B": 0} and sheets[3].running == {"A": Decimal("17.500"), "B": Decimal("3.162")}


def test_the_rooms_do_not_change_the_comparison():
    """A's attacker in the closed room instead: the same étui, the same PM to the same team."""
    swapped = [_play(1, 1, "closed", "A", 82), _play(1, 1, "open", "B", 66)]
    (quarter, *_rest) = quarter_sheets(swapped, ("A", "B"))
    assert quarter.rows[0].pm == {"A": Decimal("4.000"), "B": 0} and quarter.running["A"] == Decimal("4.000")


def test_each_play_is_kept_as_played_in_its_room():
    from duplicate.core.team_sheet import Play

    sheets = quarter_sheets(RESULTS, ("A", "B"))
    assert sheets[0].rows[0].plays == {"open": Play("A", "garde", 82), "closed": Play("B", "garde", 66)}
    assert sheets[1].rows[1].plays == {"open": Play("B", "garde_sans", 62), "closed": Play("A", "garde", None, True)}


def test_an_annulled_play_shows_no_score_even_if_one_was_typed():
    kept = Result(board=1, table=1, taker="A", defence=("B",), score=56, position=1, annulled=True,
                  quarter=1, room="open")
    (quarter, *_rest) = quarter_sheets([kept, _play(1, 1, "closed", "B", 66)], ("A", "B"))
    assert quarter.rows[0].plays["open"].score is None and quarter.rows[0].difference is None


def test_a_play_without_a_room_is_shown_under_no_room():
    roomless = Result(board=2, table=1, taker="A", defence=("B",), score=56, position=1, quarter=1)
    (quarter, *_rest) = quarter_sheets([roomless], ("A", "B"))
    assert list(quarter.rows[0].plays) == [""]


def test_another_matchs_plays_are_left_out():
    """Two matches in one file: C–D's étui 9 is not on A–B's sheet, nor in its PM."""
    others = [_play(9, 1, "open", "C", 82), _play(9, 1, "closed", "D", 66)]
    others = [Result(**{**r.__dict__, "defence": ("D" if r.taker == "C" else "C",)}) for r in others]
    (quarter, *_rest) = quarter_sheets(RESULTS[:2] + others, ("A", "B"))
    assert [row.board for row in quarter.rows] == [1]
    assert quarter.pm == {"A": Decimal("4.000"), "B": 0}


def test_the_gap_is_the_first_teams_whatever_the_order_of_the_plays():
    """B's play listed first: the gap is still A's attacker − B's (+82 − +66 = +16), 4,000 to A."""
    (quarter, *_rest) = quarter_sheets([_play(1, 1, "closed", "B", 66), _play(1, 1, "open", "A", 82)], ("A", "B"))
    assert (quarter.rows[0].difference, quarter.rows[0].pm) == (16, {"A": Decimal("4.000"), "B": 0})


def test_a_quarter_without_play_scores_decimal_zero():
    sheets = quarter_sheets(RESULTS, ("A", "B"))
    assert all(type(value) is Decimal for sheet in sheets for value in (*sheet.pm.values(), *sheet.running.values()))


def test_the_gap_is_the_first_named_teams():
    """The match named B–A: the gap is B's attacker − A's (+66 − +82 = −16), still 4,000 to A."""
    (quarter, *_rest) = quarter_sheets(RESULTS[:2], ("B", "A"))
    assert (quarter.rows[0].difference, quarter.rows[0].pm) == (-16, {"B": 0, "A": Decimal("4.000")})
