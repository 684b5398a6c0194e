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


def _grid_pm(difference: int) -> Decimal:
    """PM read from the seed's grid (differences up to 350), with the sign of the difference."""
    value = Decimal(0) if difference == 0 else Decimal(str(GRID[str(abs(difference))]))
    return -value if difference < 0 else value


@given(quadrette_plays)
def test_quadrette_totals_are_each_teams_sum_of_grid_pm(plays):
    """Each quadrette's total, seen from its own side: Σ over the étuis where its attacker played of
    PM(its attacker's score − the opposite attacker's score), read from the seed's grid."""
    results, used = [], set()
    for board, a, b, score_a, score_b in plays:
        if a == b or (board, a, b) in used or (board, b, a) in used:
            continue
        used.add((board, a, b))
        # scores within ±174: every difference is in the grid (up to 350)
        results += [Result(board, 1, a, (b,), 2 * (score_a % 175) - 174),
                    Result(board, 2, b, (a,), 2 * (score_b % 175) - 174)]
    expected = {}
    for own in results:
        mirror = next(r for r in results if r.board == own.board and r.taker == own.defence[0]
                      and r.defence[0] == own.taker)
        expected[own.taker] = expected.get(own.taker, Decimal(0)) + _grid_pm(own.score - mirror.score)
    totals = quadrette_totals(results)
    assert totals == expected
    ranking = pm_ranking(totals)
    assert [row[1] for row in ranking] == sorted(totals.values(), reverse=True)
    assert all(row[2] == 1 + sum(v > row[1] for v in totals.values()) for row in ranking)


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
