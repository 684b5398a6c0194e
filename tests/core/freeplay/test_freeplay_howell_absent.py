"""11 and 13–15 players: the booklet's Howell schedules (p. 18–19) with player numbers absent, their seats
empty, so that the table they would sit at plays at 3 (p. 15: the Howell's « supprimer le NORD »;
`duplicate.core.freeplay.movements` docstring). The expected seats are read off the booklet's rows by hand."""

from itertools import combinations

import pytest

from duplicate.core.freeplay.movements import (
    HOWELL, Round, check, free_movement, movement_to_dict, personal_card, rounds_from_dict,
)

# The booklet's rows, as printed (seeds/fft-fascicule-free-play-ocr.txt, « 3 TABLES » and « 4 TABLES »).
ROWS_12 = """1 2 3 4 5 6 7 8 9 10 11 12
1 2 7 12 5 6 11 3 9 10 4 8
1 8 7 10 5 2 11 12 9 3 4 6
1 8 6 11 5 2 4 10 9 3 12 7
1 9 5 3 7 11 4 10 2 6 12 8
1 9 7 2 5 11 4 12 10 6 3 8"""
ROWS_16 = """1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
1 8 10 15 16 9 7 2 6 3 13 12 11 14 4 5
1 7 12 14 15 9 6 4 8 2 13 11 10 16 3 5
1 6 11 16 14 9 8 3 7 4 13 10 12 15 2 5
1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 16"""


def booklet(text):
    """position → table → the four numbers N, S, E, W."""
    rows = [list(map(int, line.split())) for line in text.splitlines()]
    return {p: {t: row[4 * (t - 1):4 * t] for t in range(1, len(row) // 4 + 1)} for p, row in enumerate(rows, 1)}


def visits_at_3(schedule, absent, positions):
    """player → positions he sits at a table where a number of ``absent`` is missing (counted from the rows)."""
    seen = {}
    for p in range(1, positions + 1):
        for four in schedule[p].values():
            if any(n in absent for n in four):
                for n in four:
                    if n not in absent:
                        seen.setdefault(n, []).append(p)
    return seen


def empty_seats(rounds):
    """position → [(table, empty seat)] for every table played at 3."""
    found = {}
    for r in sorted(rounds, key=lambda r: (r.position, r.table)):
        found.setdefault(r.position, []).extend((r.table, seat) for seat, who in r.seats.items() if who is None)
    return found


def test_the_rows_here_are_the_modules():
    assert booklet(ROWS_12) == {p + 1: {t: list(row[4 * (t - 1):4 * t]) for t in (1, 2, 3)}
                                for p, row in enumerate(HOWELL[3])}
    assert booklet(ROWS_16) == {p + 1: {t: list(row[4 * (t - 1):4 * t]) for t in (1, 2, 3, 4)}
                                for p, row in enumerate(HOWELL[4])}


def test_11_players_j12_absent():
    """J12 sits, by the rows: 1st table 3 W, 2nd table 1 W (« 1 2 7 12 »), 3rd table 2 W (« 5 2 11 12 »),
    4th table 3 E (« 9 3 12 7 »), 5th table 3 E (« 2 6 12 8 »), 6th table 2 W (« 5 11 4 12 »)."""
    rounds, three = free_movement(players=11)
    assert not three and max(r.position for r in rounds) == 6
    assert empty_seats(rounds) == {1: [(3, "W")], 2: [(1, "W")], 3: [(2, "W")], 4: [(3, "E")], 5: [(3, "E")],
                                   6: [(2, "W")]}
    assert "J12" not in {p for r in rounds for p in r.players()}
    report = check(rounds)
    # at 3: 9 10 11 | 1 2 7 | 5 2 11 | 9 3 7 | 2 6 8 | 5 11 4
    assert report.three_twice == {"J2": [2, 3, 5], "J11": [1, 3, 6], "J5": [3, 6], "J7": [2, 4], "J9": [1, 4]}
    assert not report.seated_twice


def test_11_players_no_absent_number_does_better():
    """18 visits at 3 for 11 players: someone goes twice. Per absent number k, (most visits of a player,
    players there twice or more), from the rows: J12 reaches the least, (3, 5), and is the highest so."""
    schedule = booklet(ROWS_12)
    keys = {}
    for k in range(1, 13):
        counts = [len(v) for v in visits_at_3(schedule, {k}, 6).values()]
        assert sum(counts) == 18
        keys[k] = (max(counts), sum(c > 1 for c in counts))
    assert min(keys.values()) == keys[12] == (3, 5)
    assert max(k for k, key in keys.items() if key == (3, 5)) == 12
    assert keys[6] == keys[8] == (4, 4)


def test_11_players_repeats_are_the_12_player_schedules():
    """No meeting repeats that did not already repeat in the 12-player Howell (3 tables × 6 positions)."""
    full = check(free_movement(3)[0]).meetings
    for pair, positions in check(free_movement(players=11)[0]).repeats.items():
        assert set(positions) <= set(full[pair]) and len(full[pair]) > 1


def test_13_players_j8_j12_j16_absent_4_positions():
    """J8, J12 and J16 share a table only at the 5th row (« 4 8 12 16 »): at rows 1–4 each leaves a different
    table at 3, and the one full table is J4's: row 1 table 1 (« 1 2 3 4 »), row 2 table 4 (« 11 14 4 5 »),
    row 3 table 2 (« 15 9 6 4 »), row 4 table 3 (« 7 4 13 10 »)."""
    rounds, three = free_movement(players=13)
    assert not three and max(r.position for r in rounds) == 4
    assert empty_seats(rounds) == {
        1: [(2, "W"), (3, "W"), (4, "W")],
        2: [(1, "S"), (2, "N"), (3, "W")],
        3: [(1, "E"), (3, "N"), (4, "S")],
        4: [(1, "W"), (2, "E"), (4, "N")],
    }
    full = {r.position: r.table for r in rounds if len(r.players()) == 4}
    assert full == {1: 1, 2: 4, 3: 2, 4: 3}
    assert all("J4" in r.players() for r in rounds if len(r.players()) == 4)
    report = check(rounds)
    assert not report.repeats and not report.seated_twice
    assert sorted(report.three_twice) == sorted(f"J{n}" for n in (1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15))
    assert all(len(p) == 3 for p in report.three_twice.values())


def test_14_players_j12_j16_absent_4_positions():
    """J12 and J16 meet at the 5th row only (table 4): rows 1–4 keep two tables at 3 each; J4 and J8, who
    meet both at the 5th, never play at 3; the 12 others twice (once with each absent number)."""
    rounds, three = free_movement(players=14)
    assert max(r.position for r in rounds) == 4
    assert empty_seats(rounds) == {
        1: [(3, "W"), (4, "W")],
        2: [(2, "N"), (3, "W")],
        3: [(1, "E"), (4, "S")],
        4: [(1, "W"), (4, "N")],
    }
    report = check(rounds)
    assert not report.repeats
    assert len(report.three_twice) == 12 and "J4" not in report.three_twice and "J8" not in report.three_twice
    assert movement_to_dict(4, 4, rounds, three)["absent_players"] == ["J12", "J16"]


@pytest.mark.parametrize("players", [13, 14])
def test_no_other_choice_does_better_on_4_positions(players):
    """Over rows 1–4, every choice of absent numbers that leaves no table below 3 sends as many players as
    often to a table of 3 as ours (counted from the rows)."""
    schedule = booklet(ROWS_16)
    rounds, _ = free_movement(players=players)
    ours = set(range(1, 17)) - {int(p[1:]) for r in rounds for p in r.players()}
    keys = {}
    for chosen in combinations(range(1, 17), 16 - players):
        if any(sum(n not in chosen for n in four) < 3 for p in range(1, 5) for four in schedule[p].values()):
            continue
        counts = [len(v) for v in visits_at_3(schedule, set(chosen), 4).values()]
        keys[chosen] = (max(counts), sum(c > 1 for c in counts))
    assert keys[tuple(sorted(ours))] == min(keys.values())


def test_15_players_j16_absent_everyone_once_at_3():
    """J16 meets each other number once in the 16-player Howell: 5 positions, each player once at a table
    of 3, nobody twice, no repeat. J16's seats: 1st table 4 W, 2nd table 2 N (« 16 9 7 2 »), 3rd table 4 S
    (« 10 16 3 5 »), 4th table 1 W (« 1 6 11 16 »), 5th table 4 W."""
    rounds, _ = free_movement(players=15)
    assert empty_seats(rounds) == {1: [(4, "W")], 2: [(2, "N")], 3: [(4, "S")], 4: [(1, "W")], 5: [(4, "W")]}
    report = check(rounds)
    assert report.ok and len(report.meetings) == 120 - 15
    at_3 = {p for r in rounds if len(r.players()) == 3 for p in r.players()}
    assert len(at_3) == 15


def test_13_players_file_round_trip_and_fiche():
    """The movement file names the absent numbers; the fiche of J7 (booklet's example player) loses nothing:
    2 E, 2 E, 1 S, 3 N — the 4 positions of « 2 EST, 2 EST, 1 SUD, 3 NORD, 3 SUD »."""
    rounds, three = free_movement(players=13)
    data = movement_to_dict(4, 4, rounds, three)
    assert data["absent_players"] == ["J8", "J12", "J16"] and data["three_player_tables"] == []
    assert rounds_from_dict(data) == rounds
    assert personal_card(rounds, "J7") == [(1, 2, "E"), (2, 2, "E"), (3, 1, "S"), (4, 3, "N")]
    assert "absent_players" not in movement_to_dict(4, 5, *free_movement(4))



def test_the_movement_file_lists_every_number_nobody_holds_the_first_included():
    """The movement file's ``absent_players`` are the Howell numbers nobody holds (SPEC §9 movement file;
    the booklet's Howell, « 3 TABLES », first row « 1 2 3 4 | 5 6 7 8 | 9 10 11 12 »), whichever they are:
    J1 and J12 left out by hand, North of table 1 and West of table 3 empty, gives ``["J1", "J12"]``; nobody
    left out gives no such entry."""
    first = booklet(ROWS_12)[1]

    def seated(absent):
        return [Round(1, table, {seat: None if n in absent else f"J{n}" for seat, n in zip("NSEW", four)})
                for table, four in first.items()]

    data = movement_to_dict(3, 1, seated({1, 12}), frozenset())
    assert data["absent_players"] == ["J1", "J12"]
    assert data["rounds"][0]["seats"] == {"N": None, "S": "J2", "E": "J3", "W": "J4"}
    assert movement_to_dict(3, 1, seated({1}), frozenset())["absent_players"] == ["J1"]
    assert "absent_players" not in movement_to_dict(3, 1, seated(set()), frozenset())

@pytest.mark.parametrize("players", range(11, 41))
def test_every_player_every_position_once(players):
    """11…40 players: each of them plays every position exactly once, at a table of 3 or 4; no meeting
    repeats beyond the booklet's own schedule (only the 12-player Howell repeats)."""
    rounds, _ = free_movement(players=players)
    positions = max(r.position for r in rounds)
    seated = {}
    for r in rounds:
        assert len(r.players()) in (3, 4)
        for player in r.players():
            seated.setdefault(player, []).append(r.position)
    assert len(seated) == players
    assert all(sorted(p) == list(range(1, positions + 1)) for p in seated.values())
    report = check(rounds)
    if players <= 12:
        full = check(free_movement(3)[0]).meetings
        assert all(len(full[pair]) > 1 for pair in report.repeats)
    else:
        assert not report.repeats
