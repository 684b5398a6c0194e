"""Individual movements: Rainbow, designs for other counts, small clubs (3–4 tables)."""

from collections import Counter, defaultdict
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from duplicate.core.movements import MovementError, check, generate
from duplicate.core.movements.designs import (
    best_positions, field_design, layout_for, prime_power, rainbow_limit, searched)
from duplicate.core.movements.individual import max_positions
from duplicate.core.movements.offset_tables import OFFSET_TABLES, check_offsets


def facts(movement):
    """Independent of the validator: player–étui repeats, meetings, simultaneous étuis."""
    played = defaultdict(list)
    meetings = Counter()
    at_position = Counter()
    board_position = Counter()
    for r in movement.rounds:
        for who in r.entrants:
            at_position[(r.position, who)] += 1
            for b in r.boards:
                played[who].append(b)
        for b in r.boards:
            board_position[(r.position, b)] += 1
        for a, b in combinations(sorted(r.entrants), 2):
            meetings[(a, b)] += 1
    return {
        "board_repeats": sum(len(v) - len(set(v)) for v in played.values()),
        "max_meetings": max(meetings.values()),
        "twice_in_position": max(at_position.values()),
        "board_twice_at_once": max(board_position.values()),
        "players": len(played),
    }


def test_seed_five_tables_etui_1_goes_to_tables_1_5_4_3_2():
    m = generate("individual", 5)
    assert m.positions == 5
    path = [r.table for p in range(1, 6) for r in m.rounds_at(p) if 1 in r.boards]
    assert path == [1, 5, 4, 3, 2]


def test_rainbow_moves_north_fixed_south_plus_one_east_plus_two_west_minus_two():
    m = generate("individual", 7)
    seat = {(r.position, who): r.table for r in m.rounds for who in r.entrants}
    for x in range(1, 8):
        for p in range(1, 8):
            assert seat[(p, f"N{x}")] == x
            assert seat[(p, f"S{x}")] == (x - 1 + (p - 1)) % 7 + 1
            assert seat[(p, f"E{x}")] == (x - 1 + 2 * (p - 1)) % 7 + 1
            assert seat[(p, f"W{x}")] == (x - 1 - 2 * (p - 1)) % 7 + 1


@pytest.mark.parametrize("tables", [5, 7, 11, 13, 17, 19, 23, 25, 29])
def test_rainbow_clean_for_all_positions_when_gcd_with_6_is_1(tables):
    assert rainbow_limit(tables) == tables
    m = generate("individual", tables)
    assert m.positions == tables
    assert "Rainbow" in m.notes[0]
    f = facts(m)
    assert f["board_repeats"] == 0 and f["max_meetings"] == 1 and f["board_twice_at_once"] == 1


def test_rainbow_limit_matches_a_direct_count():
    for tables in range(5, 60):
        # the plain Rainbow repeats at the first d with k·d ≡ 0 (mod T) for k in 1..4
        first = next((d for d in range(1, tables + 1) if any(k * d % tables == 0 for k in (2, 3, 4))), tables)
        assert rainbow_limit(tables) == min(first, tables)


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 30), st.data())
def test_every_count_5_to_30_gives_a_clean_movement(tables, data):
    top = max_positions(tables)
    positions = data.draw(st.integers(2, top))
    m = generate("individual", tables, positions)
    assert (m.tables, m.positions) == (tables, positions)
    f = facts(m)
    assert f["players"] == 4 * tables
    assert f["board_repeats"] == 0
    assert f["max_meetings"] == 1
    assert f["twice_in_position"] == 1
    assert f["board_twice_at_once"] == 1
    report = check(m)
    assert report.ok, report.text()
    assert not report.warnings, report.text()


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 30))
def test_asking_too_many_positions_says_so_and_offers_the_best(tables):
    top = max_positions(tables)
    with pytest.raises(MovementError) as err:
        generate("individual", tables, top + 1)
    message = str(err.value)
    assert f"Avec {tables} tables" in message and f"proposez {top} positions" in message


def test_six_tables_message_example():
    with pytest.raises(MovementError, match="Avec 6 tables, au plus 5 positions sans répétition ; "
                                            "proposez 5 positions"):
        generate("individual", 6, 6)


@pytest.mark.parametrize("tables", sorted(OFFSET_TABLES))
def test_stored_special_moves_are_clean(tables):
    design = searched(tables)
    assert design.offsets[0] == (0, 0, 0, 0)
    assert check_offsets(tables, list(design.offsets))
    assert design.clean_prefix() == design.positions


@pytest.mark.parametrize("q", [8, 9, 16, 25, 27, 32, 49])
def test_field_arithmetic_gives_all_positions_for_prime_powers(q):
    assert prime_power(q)
    design = field_design(q)
    assert design.positions == q and design.clean_prefix() == q


def test_sections_and_products_stay_clean_beyond_30_tables():
    for tables in (34, 36, 40, 48, 60):
        layout = layout_for(tables, best_positions(tables))
        assert layout.tables == tables
        m = generate("individual", tables, min(best_positions(tables), 12))
        f = facts(m)
        assert f["board_repeats"] == 0 and f["max_meetings"] == 1 and f["board_twice_at_once"] == 1


def test_boards_per_position_numbers_sets_consecutively():
    m = generate("individual", 5, 3, boards_per_position=8)
    r = m.round_at(1, 2)
    assert r.boards == tuple(range(9, 17))
    assert len(m.boards) == 40


def test_too_few_tables():
    with pytest.raises(MovementError, match="au moins 3 tables"):
        generate("individual", 2)


# -- small clubs ----------------------------------------------------------------------------

@pytest.mark.parametrize("tables,positions", [(3, p) for p in range(1, 7)] + [(4, p) for p in range(1, 9)])
def test_small_clubs_never_replay_an_etui_and_change_orientation(tables, positions):
    m = generate("individual", tables, positions)
    f = facts(m)
    assert f["board_repeats"] == 0
    assert f["twice_in_position"] == 1
    assert f["board_twice_at_once"] == 1
    assert f["players"] == 4 * tables
    report = check(m)
    assert report.ok, report.text()
    seats = defaultdict(set)
    for r in m.rounds:
        for seat, who in r.seats:
            seats[who].add(seat)
    if positions > 1:
        assert any(len(s) > 1 for s in seats.values())   # players change orientation


@pytest.mark.parametrize("tables", [3, 4])
def test_small_clubs_full_block_every_player_plays_every_etui_of_the_block(tables):
    m = generate("individual", tables, tables)
    plays = Counter(b for r in m.rounds for b in r.boards)
    assert set(plays.values()) == {tables}
    f = facts(m)
    # 4 tables: even permutations + a Latin square of odd ones: nobody meets three times
    assert f["max_meetings"] == (2 if tables == 4 else 3)
    meetings = Counter(pair for r in m.rounds for pair in combinations(sorted(r.entrants), 2))
    repeated = sum(1 for n in meetings.values() if n > 1)
    assert repeated == (24 if tables == 4 else 6)


def test_small_club_defaults_and_limits():
    assert generate("individual", 3).positions == 6
    assert generate("individual", 4).positions == 4
    with pytest.raises(MovementError, match="au plus 8 positions"):
        generate("individual", 4, 9)
