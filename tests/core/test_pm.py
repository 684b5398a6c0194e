"""Points de match (SPEC §6): the grid, the seed's examples, quadrettes and team matches."""

import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from duplicate.core.pm import compare_pairs, pm, pm_ranking, quadrette_totals, team_match_totals
from duplicate.core.topage import Result

GRID = json.loads((Path(__file__).parent.parent / "data" / "pm-grid.json").read_text())


def test_every_entry_of_the_seed_grid():
    assert len(GRID) == 350
    for difference, value in GRID.items():
        assert pm(int(difference)) == Decimal(str(value)), difference
        assert pm(-int(difference)) == -Decimal(str(value))


@pytest.mark.parametrize("attacker, opponent, expected", [
    (82, 66, Decimal("4")), (68, -76, Decimal("12")), (-68, -58, Decimal("-3.162")),
])
def test_seed_quadrette_examples(attacker, opponent, expected):
    results = [Result(1, 1, "A", ("B",), attacker), Result(1, 2, "B", ("A",), opponent)]
    totals = quadrette_totals(results)
    assert totals == {"A": expected, "B": -expected}


def test_unpaired_and_annulled_plays_are_not_compared():
    results = [Result(1, 1, "A", ("B",), 82), Result(1, 2, "B", ("A",), 66, annulled=True),
               Result(2, 1, "A", ("C",), 50)]
    comparisons, alone = compare_pairs(results)
    assert comparisons == [] and [r.board for r in alone] == [1, 2]
    assert quadrette_totals(results, ["A", "B", "C"]) == {"A": 0, "B": 0, "C": 0}


quadrette_plays = st.lists(
    st.tuples(st.integers(1, 8), st.sampled_from("ABCDE"), st.sampled_from("ABCDE"),
              st.integers(-200, 200), st.integers(-200, 200)),
    max_size=30,
)


@given(quadrette_plays)
def test_quadrette_pm_totals_sum_to_zero(plays):
    results, used = [], set()
    for board, a, b, score_a, score_b in plays:
        if a == b or (board, a, b) in used or (board, b, a) in used:
            continue
        used.add((board, a, b))
        results += [Result(board, 1, a, (b,), 2 * score_a), Result(board, 2, b, (a,), 2 * score_b)]
    totals = quadrette_totals(results)
    assert sum(totals.values()) == 0
    ranking = pm_ranking(totals)
    assert [row[1] for row in ranking] == sorted(totals.values(), reverse=True)


def test_team_match_winner_of_each_board_scores_abs_pm_plus_bonus():
    results = [
        Result(1, 1, "A", ("B",), 82, quarter=1, room="open", contract="garde"),
        Result(1, 2, "B", ("A",), 66, quarter=1, room="closed", contract="garde"),
        Result(2, 1, "A", ("B",), -68, quarter=2, room="closed", contract="garde_sans"),
        Result(2, 2, "B", ("A",), -58, quarter=2, room="open", contract="garde"),
        Result(3, 1, "A", ("B",), 60, quarter=2, room="closed"),
        Result(3, 2, "B", ("A",), 60, quarter=2, room="open"),
    ]
    board = team_match_totals(results, {"A": Decimal("1.5")})
    assert board["A"]["quarters"] == {1: Decimal("4.000"), 2: Decimal(0)}
    assert board["B"]["quarters"] == {1: Decimal(0), 2: Decimal("3.162")}
    assert board["A"]["total"] == Decimal("5.500") and board["B"]["total"] == Decimal("3.162")


def test_pm_ranking_shares_places():
    assert pm_ranking({"A": Decimal(3), "B": Decimal(3), "C": Decimal(-6)}) == [
        ("A", Decimal(3), 1), ("B", Decimal(3), 1), ("C", Decimal(-6), 3)]
