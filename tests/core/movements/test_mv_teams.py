"""Quadrettes, triplettes (Mitchell, arbiter schedules) and team matches."""

from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings, strategies as st

from duplicate.core.movements import MovementError, check, from_schedule, generate


def comparisons(m):
    """(attacker team, defence team) → étuis."""
    faced = defaultdict(set)
    for r in m.rounds:
        s = r.seat_map
        faced[(s["attack"], s["defence"])].update(r.boards)
    return faced


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30))
def test_quadrettes_every_pair_compared_once_on_the_same_etuis(tables):
    m = generate("quadrettes", tables)
    faced = comparisons(m)
    teams = [f"Q{i}" for i in range(1, tables + 1)]
    for a in teams:
        for b in teams:
            if a != b:
                assert faced[(a, b)], (a, b)
                assert faced[(a, b)] == faced[(b, a)]       # same étuis both ways
    assert all(a != d for a, d in faced)
    # exactly once: each ordered pair meets in one round only
    meetings = Counter((r.seat_map["attack"], r.seat_map["defence"]) for r in m.rounds)
    assert set(meetings.values()) == {1}
    # defences never move
    assert all(r.seat_map["defence"] == f"Q{r.table}" for r in m.rounds)
    assert check(m).ok


def test_quadrettes_odd_attackers_plus_two_etuis_plus_one():
    m = generate("quadrettes", 7)
    where = {(r.position, r.seat_map["attack"]): r.table for r in m.rounds}
    for p in range(1, 6):
        assert where[(p + 1, "Q1")] == (where[(p, "Q1")] - 1 + 2) % 7 + 1
    board_at = {(r.position, r.boards[0]): r.table for r in m.rounds}
    for p in range(1, 6):
        assert board_at[(p + 1, 1)] == board_at[(p, 1)] % 7 + 1
    # pair compared in positions r and T − r
    p1 = [r.position for r in m.rounds if {r.seat_map["attack"], r.seat_map["defence"]} == {"Q1", "Q3"}]
    assert sorted(p1) == [1, 6]


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 30), st.data())
def test_quadrettes_fewer_positions_keep_comparisons_whole(tables, data):
    top = tables - 1 if tables % 2 else tables
    positions = data.draw(st.integers(1, top))
    if positions % 2 and positions != top:
        with pytest.raises(MovementError, match="deux positions"):
            generate("quadrettes", tables, positions)
        return
    m = generate("quadrettes", tables, positions)
    faced = comparisons(m)
    assert all(faced[(a, d)] == faced[(d, a)] for a, d in faced)
    assert check(m).ok


def test_quadrettes_too_many_positions():
    with pytest.raises(MovementError, match="au plus 6 positions.*proposez 6 positions"):
        generate("quadrettes", 7, 8)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30))
def test_triplettes_mitchell_clean(tables):
    m = generate("triplettes", tables)
    assert m.positions == (tables if tables % 2 else tables - 1)
    played = defaultdict(list)
    for r in m.rounds:
        for who in r.entrants:
            played[who] += r.boards
    assert all(len(v) == len(set(v)) for v in played.values())
    meetings = Counter((r.seat_map["NS"], r.seat_map["EW"]) for r in m.rounds)
    assert set(meetings.values()) == {1}
    assert all(r.seat_map["NS"] == f"NS{r.table}" for r in m.rounds)
    report = check(m)
    assert report.ok, report.text()
    if tables >= 3:
        assert not report.warnings, report.text()


def test_triplettes_even_tables_skip():
    m = generate("triplettes", 6)
    ew = {r.position: r.table for r in m.rounds if r.seat_map["EW"] == "EW1"}
    assert [ew[p] for p in range(1, 6)] == [1, 2, 3, 5, 6]
    with pytest.raises(MovementError, match="au plus 5 positions"):
        generate("triplettes", 6, 6)


def test_triplettes_howell_typed_by_the_arbiter_is_validated():
    # 4 triplettes, 3 positions, orientation changes: every triplette meets all others
    rows = [(1, 1, "T1", "T2", 1), (1, 2, "T3", "T4", 2),
            (2, 1, "T1", "T3", 3), (2, 2, "T4", "T2", 4),
            (3, 1, "T4", "T1", 5), (3, 2, "T2", "T3", 6)]
    m = from_schedule(rows)
    report = check(m)
    assert report.ok, report.text()
    assert report.stats["repeated_meetings"] == 0
    assert any("une seule fois" in w for w in report.warnings)   # 4 triplettes: no étui can be shared
    bad = rows[:-1] + [(3, 2, "T2", "T3", 1)]        # T2 and T3 would replay set 1
    report = check(from_schedule(bad))
    assert not report.ok
    assert any("T2 joue deux fois l’étui 1" in e for e in report.errors)


def test_team_match_four_quarters_mirrored_rooms():
    m = generate("team_match", 2)
    assert m.positions == 4 and len(m.rounds) == 8
    for q in range(1, 5):
        open_room, closed = m.rounds_at(q)
        assert (open_room.room, closed.room) == ("open", "closed")
        assert open_room.boards == closed.boards
        assert open_room.seat_map["attack"] == closed.seat_map["defence"]
        assert open_room.chosen_by == ("A" if q % 2 else "B")
    series = [m.rounds_at(q)[0].boards for q in range(1, 5)]
    assert len({b for s in series for b in s}) == 20
    report = check(m)
    assert report.ok and not report.warnings, report.text()


def test_team_match_odd_tables_and_wrong_quarters():
    with pytest.raises(MovementError, match="proposez 2 ou 4 tables"):
        generate("team_match", 3)
    with pytest.raises(MovementError, match="4 quarts temps"):
        generate("team_match", 2, 5)
    assert check(generate("team_match", 6)).ok
