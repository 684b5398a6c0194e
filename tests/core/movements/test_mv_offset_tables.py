"""The special-moves search (`movements.offset_tables`): its checker on hand-made offsets, and its search
against the stored 6-table entry it once wrote (seed ``fft-fascicule-free-play-ocr.txt``: « pour les autres
nombres de tables, certains mouvements sont spéciaux »; 6 tables play 5 positions without a repeat)."""

import pytest

from duplicate.core.movements.offset_tables import OFFSET_TABLES, _main, check_offsets, search

ZERO = (0, 0, 0, 0)

# For 7 tables, a second position (S, E, W, B) whose only clash with the first (all lines at 0) is the
# named one of the ten forms S, E, W, B, S−E, S−W, S−B, E−W, E−B, W−B (every other form is non-zero mod 7).
ONE_CLASH = {
    "S": (0, 1, 3, 5),     # S−E −1, S−W −3, S−B −5, E−W −2, E−B −4, W−B −2
    "E": (1, 0, 3, 5),     # 1, −2, −4, −3, −5, −2
    "W": (1, 3, 0, 5),     # −2, 1, −4, 3, −2, −5
    "B": (1, 3, 5, 0),     # −2, −4, 1, −2, 3, 5
    "S-E": (1, 1, 3, 5),   # S−E 0; −2, −4, −2, −4, −2
    "S-W": (1, 3, 1, 5),   # −2; S−W 0; −4, 2, −2, −4
    "S-B": (1, 3, 5, 1),   # −2, −4; S−B 0; −2, 2, 4
    "E-W": (1, 3, 3, 5),   # −2, −2, −4; E−W 0; −2, −2
    "E-B": (1, 3, 5, 3),   # −2, −4, −2, −2; E−B 0; 2
    "W-B": (1, 3, 5, 5),   # −2, −4, −4, −2, −2; W−B 0
}


@pytest.mark.parametrize("form", sorted(ONE_CLASH))
def test_a_clash_on_any_one_of_the_ten_forms_is_refused(form):
    assert check_offsets(7, [ZERO, ONE_CLASH[form]]) is False


def test_a_position_with_no_clash_is_accepted():
    # 1, 3, 5, 6 and their differences −2, −4, −5, −2, −3, −1: none is 0 mod 7
    assert check_offsets(7, [ZERO, (1, 3, 5, 6)]) is True
    assert check_offsets(7, [ZERO]) is True
    assert check_offsets(7, []) is True


def test_clashes_are_counted_modulo_the_table_count():
    assert check_offsets(7, [ZERO, (7, 1, 3, 5)]) is False      # S = 7 ≡ 0
    assert check_offsets(7, [ZERO, (1, 8, 3, 5)]) is False      # S − E = −7 ≡ 0
    assert check_offsets(7, [ZERO, (-6, 3, 5, 6)]) is True      # −6 ≡ 1: the clean (1, 3, 5, 6)
    assert check_offsets(7, [(1, 0, 0, 0), (8, 3, 5, 6)]) is False   # 8 ≡ 1 meets the first S again
    assert check_offsets(8, [ZERO, (7, 1, 3, 5)]) is True       # on 8 tables 7 is not 0: 7, 1, 3, 5, 6, 4, 2, −2, −4, −2


def test_a_clash_between_two_later_positions_is_refused():
    # positions 2 and 3 share E − W = 1 − 3 = 4 − 6 = −2; all else differs from the first two
    assert check_offsets(11, [ZERO, (2, 1, 3, 5)]) is True
    assert check_offsets(11, [ZERO, (2, 1, 3, 5), (9, 4, 6, 10)]) is False


def test_the_rainbow_offsets_are_clean_exactly_when_the_table_count_allows():
    # Rainbow: S +p, E +2p, W −2p, B −p; forms p, 2p, −2p, −p, −p, 3p, 2p, 4p, 3p, −p
    rainbow = [(p, 2 * p, -2 * p, -p) for p in range(7)]
    assert check_offsets(7, rainbow) is True        # 7 is prime: every k·p is one-to-one
    assert check_offsets(6, rainbow[:6]) is False   # 2·3 ≡ 0 mod 6: E meets itself at position 4
    assert check_offsets(6, rainbow[:2]) is True


def test_the_search_finds_the_stored_six_table_moves():
    # the stored entry for 6 tables is what `python -m …offset_tables 6` printed (seed 1 first, 50 000 nodes)
    found = search(6, 6, 50_000, 1)
    assert " ".join(".".join(map(str, v)) for v in found) == OFFSET_TABLES[6]
    assert found == [(0, 0, 0, 0), (4, 2, 1, 3), (1, 3, 5, 2), (2, 1, 4, 5), (3, 4, 2, 1)]
    assert search(6, 6) == found                    # the defaults are a budget of 50 000 and seed 1


def test_six_tables_never_reach_six_positions_whatever_the_seed():
    for seed in (2, 3):
        found = search(6, 6, 50_000, seed)
        assert len(found) == 5 and found[0] == ZERO and check_offsets(6, found)


def test_a_reachable_target_stops_the_search_there():
    # 7 tables have 7 clean positions (the Rainbow); a target of 3 gives exactly 3
    for target in (3, 7):
        found = search(7, target, 50_000, 1)
        assert len(found) == target and found[0] == ZERO and check_offsets(7, found)


def test_the_budget_counts_the_nodes():
    # budget 0: the first node already exceeds it, only the first position; budget 1: one node expanded,
    # its first clean child kept (the search stops once the child's own node exceeds the budget)
    assert search(12, 12, 0, 1) == [ZERO]
    one = search(12, 12, 1, 1)
    assert len(one) == 2 and one[0] == ZERO and check_offsets(12, one)
    two = search(12, 12, 2, 1)
    assert len(two) == 3 and two[:2] == one and check_offsets(12, two)


def test_a_seed_of_zero_is_replaced_by_one():
    # xorshift cannot leave the state 0: the state (seed × 2654435761) mod 2**32 falls back to 1
    # the seed whose state is 1: the inverse of 2654435761 modulo 2**32
    one = pow(2654435761, -1, 2 ** 32)
    assert search(6, 6, 50_000, 0) == search(6, 6, 50_000, 2 ** 32) == search(6, 6, 50_000, one)
    assert search(6, 6, 50_000, 0) != search(6, 6, 50_000, 1)


def test_the_offline_tool_prints_a_line_of_the_stored_table(capsys):
    # `python -m duplicate.core.movements.offset_tables 6`: by default 50 000 nodes and seeds 1 to 10, the first
    # longest kept; the line is the one stored above (the 6-table entry and its comment)
    line = '    6: "0.0.0.0 4.2.1.3 1.3.5.2 2.1.4.5 3.4.2.1",  # 5 positions\n'
    _main(["6"])
    assert capsys.readouterr().out == line
    _main(["6", "50000", "1"])
    assert capsys.readouterr().out == line
    _main(["6", "0", "1"])    # no node allowed: the first position only
    assert capsys.readouterr().out == '    6: "0.0.0.0",  # 1 positions\n'
    # one node per seed: two positions; seed 1's first try is the stored second position 4.2.1.3 (its
    # search never backtracked past it), and seed 2's equally long answer does not replace it
    _main(["6", "1", "2"])
    assert capsys.readouterr().out == '    6: "0.0.0.0 4.2.1.3",  # 2 positions\n'


def _printed(capsys, argv):
    _main(argv)
    out = capsys.readouterr().out
    head, count = out.split(",  # ")
    offsets = [tuple(int(v) for v in item.split(".")) for item in head.split('"')[1].split()]
    assert head.startswith(f"    {argv[0]}: ") and offsets[0] == ZERO and check_offsets(int(argv[0]), offsets)
    assert count == f"{len(offsets)} positions\n"
    return len(offsets)


def test_the_offline_tool_reads_budget_and_seeds_and_keeps_the_longest(capsys):
    # 7 tables with 10 nodes per seed: seed 1 stops at 5 positions, seed 2 reaches all 7 (the Rainbow's count)
    assert _printed(capsys, ["7", "10", "1"]) == 5
    assert _printed(capsys, ["7", "10", "2"]) == 7
    assert _printed(capsys, ["6", "0"]) == 1      # the budget alone (0 nodes), seeds 1 to 10


@pytest.mark.parametrize("tables", [6, 8])
@pytest.mark.parametrize("budget", [10, 100])
@pytest.mark.parametrize("seed", [1, 2])
def test_whatever_the_budget_the_search_keeps_a_clean_prefix(tables, budget, seed):
    # the docstring's promise (« keeps the longest clean prefix »), also when the budget cuts the search
    # short: every one of the ten forms stays one-to-one, the first position is all 0
    found = search(tables, tables, budget, seed)
    assert found[0] == ZERO and len(found) >= 2 and check_offsets(tables, found)
