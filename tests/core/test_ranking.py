"""Percentages, general and alternated rankings, sessions (SPEC §5)."""

from fractions import Fraction

from hypothesis import given, strategies as st

from duplicate.core.ranking import (
    Penalty, alternated_ranks, general_ranks, rank_standings, session_totals, standings,
)
from duplicate.core.topage import Result, board_notes


def _notes(*boards):
    """boards: lists of (taker, defenders, score)."""
    notes = []
    for number, rows in enumerate(boards, start=1):
        results = [Result(number, table, taker, tuple(defence), score)
                   for table, (taker, defence, score) in enumerate(rows, start=1)]
        notes += board_notes(results)
    return notes


LINES = {p: p[0] for p in ["N1", "S1", "E1", "W1", "N2", "S2", "E2", "W2"]}
T1, T2 = ("S1", "E1", "W1"), ("S2", "E2", "W2")


def test_individual_global_is_quarter_attack_three_quarters_defence():
    notes = _notes([("N1", T1, 56), ("N2", T2, -52)],
                   [("S1", ("N1", "E1", "W1"), 62), ("S2", ("N2", "E2", "W2"), 80)])
    rows = {row.entrant: row for row in standings("individual", LINES, notes)}
    n1 = rows["N1"]
    assert (n1.attack, n1.defence) == (100, 100)        # won its attack, and S1 did worse than S2
    assert rows["N2"].global_ == Fraction(1, 4) * 0 + Fraction(3, 4) * 0
    assert rows["E1"].global_ == 0 * 0 + 1 * Fraction(50)  # no attack: global = defence %, flagged
    assert rows["E1"].flagged and not n1.flagged


def test_triplettes_global_is_half_and_half():
    lines = {"NS1": "NS", "EW1": "EW", "NS2": "NS", "EW2": "EW"}
    notes = _notes([("NS1", ["EW1"], 56), ("NS2", ["EW2"], -52)],
                   [("EW1", ["NS1"], 62), ("EW2", ["NS2"], 80)])
    rows = {row.entrant: row for row in standings("triplettes", lines, notes)}
    assert rows["NS1"].global_ == Fraction(1, 2) * 100 + Fraction(1, 2) * 100
    assert rows["EW1"].global_ == Fraction(1, 2) * 0 + Fraction(1, 2) * 0
    assert rows["NS2"].global_ == 0 and rows["EW2"].global_ == 100


def test_penalties_on_global_and_on_one_board():
    notes = _notes([("N1", T1, 56), ("N2", T2, -52)])
    rows = {r.entrant: r for r in standings("individual", LINES, notes,
                                            [Penalty("N1", Fraction(5, 2)), Penalty("S2", Fraction(10), board=1)])}
    assert rows["N1"].global_ == 100 - Fraction(5, 2) and rows["N1"].penalty == Fraction(5, 2)
    assert rows["S2"].defence == 90


def test_general_ranking_ex_aequo():
    ranks = general_ranks({"a": Fraction(60), "b": Fraction(55), "c": Fraction(60), "d": Fraction(40)})
    assert ranks == {"a": 1, "c": 1, "b": 3, "d": 4}


def test_alternated_ranking_seed_procedure():
    scores = {"N1": 70, "N2": 50, "N3": 40, "S1": 65, "S2": 60, "E1": 55, "E2": 45, "W1": 52}
    lines = {p: p[0] for p in scores}
    ranks = alternated_ranks({k: Fraction(v) for k, v in scores.items()}, lines)
    # firsts of line: N1 70, S1 65, E1 55, W1 52 → 1..4; seconds: S2 60, N2 50, E2 45 → 5..7; N3 → 8
    assert ranks == {"N1": 1, "S1": 2, "E1": 3, "W1": 4, "S2": 5, "N2": 6, "E2": 7, "N3": 8}
    # the general ranking differs: S2 (60) is 3rd
    assert general_ranks({k: Fraction(v) for k, v in scores.items()})["S2"] == 3


def test_rank_standings_fills_both_ranks_best_first():
    notes = _notes([("N1", T1, 56), ("N2", T2, -52)])
    ranked = rank_standings(standings("individual", LINES, notes))
    assert [row.rank for row in ranked] == sorted(row.rank for row in ranked)
    assert ranked[0].entrant in {"S2", "E2", "W2", "N1"} and ranked[0].rank == 1


def test_session_totals_with_coefficients():
    totals = session_totals([(1, {"a": Fraction(60), "b": Fraction(50)}), (2, {"a": Fraction(40), "c": Fraction(70)})])
    assert totals == {"a": 140, "b": 50, "c": 140}


def _alternated_oracle(scores, lines):
    """The seed's procedure read literally: an entrant's depth is his place in his line (best first,
    ties by id); his alternated place is 1 + everyone of a smaller depth + those of his depth who did
    strictly better."""
    depth = {}
    for line in set(lines.values()):
        members = sorted((p for p in scores if lines[p] == line), key=lambda p: (-scores[p], p))
        depth.update({p: k for k, p in enumerate(members)})
    return {p: 1 + sum(depth[q] < depth[p] for q in scores)
            + sum(depth[q] == depth[p] and scores[q] > scores[p] for q in scores) for p in scores}


@given(st.dictionaries(st.sampled_from([f"{l}{i}" for l in "NSEW" for i in range(1, 8)]),
                       st.integers(0, 100).map(Fraction), min_size=1))
def test_alternated_ranking_is_the_seeds_procedure(scores):
    lines = {p: p[0] for p in scores}
    ranks = alternated_ranks(scores, lines)
    assert ranks == _alternated_oracle(scores, lines)
    # cross-line order: the k-th of any line ranks before the (k+1)-th of any line
    for line_a in set(lines.values()):
        for line_b in set(lines.values()):
            a = sorted((p for p in scores if lines[p] == line_a), key=lambda p: (-scores[p], p))
            b = sorted((p for p in scores if lines[p] == line_b), key=lambda p: (-scores[p], p))
            assert all(ranks[a[k]] < ranks[b[k + 1]] for k in range(min(len(a), len(b) - 1)))


@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=28, unique=True))
def test_alternated_ranking_without_ties_is_a_permutation(values):
    names = [f"{l}{i}" for i in range(1, 8) for l in "NSEW"][:len(values)]
    scores = {name: Fraction(value, 100) for name, value in zip(names, values)}
    ranks = alternated_ranks(scores, {p: p[0] for p in scores})
    assert sorted(ranks.values()) == list(range(1, len(scores) + 1))
    general = general_ranks(scores)
    assert sorted(general.values()) == list(range(1, len(scores) + 1))
    assert all(general[p] < general[q] for p in scores for q in scores if scores[p] > scores[q])


def test_means_mix_etuis_played_at_different_numbers_of_tables():
    """N1 takes (60) on three étuis, played at 3, 4 and 5 tables:
    3 tables (100, 30): beats one of two → 50; 4 tables (60, 100, 100): ties one of three → 100 × ½ / 3 = 50/3;
    5 tables (40, 60, 100, 100): beats one, ties one of four → 100 × 1½ / 4 = 75/2.
    Attack = (50 + 50/3 + 75/2) / 3 = (300 + 100 + 225) / 6 / 3 = 625/18; S1, N1's defender each time,
    has 100 − each note: 1175/18."""
    def table(number, score):
        return (f"N{number}", (f"S{number}", f"E{number}", f"W{number}"), score)

    notes = _notes([table(1, 60), table(2, 100), table(3, 30)],
                   [table(1, 60), table(2, 60), table(3, 100), table(4, 100)],
                   [table(1, 60), table(2, 40), table(3, 60), table(4, 100), table(5, 100)])
    lines = {f"{seat}{number}": seat for seat in "NSEW" for number in range(1, 6)}
    rows = {row.entrant: row for row in standings("individual", lines, notes)}
    assert (rows["N1"].attack, rows["N1"].attack_count, rows["N1"].global_) == (Fraction(625, 18), 3, Fraction(625, 18))
    assert (rows["S1"].defence, rows["S1"].defence_count) == (Fraction(1175, 18), 3)


def test_ranks_are_exact_where_floats_are_not():
    """1/3 and 333333333333333333/10^18 are one float, not one score; 2/6 is 1/3."""
    scores = {"a": Fraction(1, 3), "b": Fraction(333333333333333333, 10**18), "c": Fraction(2, 6), "d": Fraction(1)}
    assert float(scores["a"]) == float(scores["b"])
    assert general_ranks(scores) == {"d": 1, "a": 2, "c": 2, "b": 4}
    assert alternated_ranks(scores, {"a": "N", "b": "N", "c": "S", "d": "S"}) == {"d": 1, "a": 2, "c": 3, "b": 4}


def test_shared_places_are_the_ex_aequo():
    from duplicate.core.ranking import shared_places

    rows = [{"rank": 1}, {"rank": 2}, {"rank": 2}, {"rank": 4}, {"rank": None}, {"rank": None}, {}]
    assert shared_places(rows) == {2}  # a row without a place shares none
    assert shared_places([{"alternated_rank": 3}, {"alternated_rank": 3}], "alternated_rank") == {3}
