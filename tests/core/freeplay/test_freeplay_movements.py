"""The FFT free-play movements (`duplicate.core.freeplay.movements`): booklet chapter 2, p. 17–20."""

from itertools import combinations, product

import pytest

from duplicate.core.freeplay.movements import (
    HOWELL, SPECIAL_MOVES, WEST_BASE, MovementError, Round, check, free_movement, max_positions,
    movement_to_dict, parallel_tournaments, personal_card, rounds_from_dict, table_card,
)


def seat_of(rounds, player):
    """position → (table, seat) of a player, from the fiche personnelle."""
    return {position: (table, seat) for position, table, seat in personal_card(rounds, player)}


def test_howell_3_tables_fiche_of_player_7():
    """The booklet's « exemple de fiche individuelle (3 tables) », player 7: 2 EST, 1 EST, 1 EST,
    3 OUEST, 2 NORD, 1 EST."""
    rounds, three = free_movement(3)
    assert not three
    assert seat_of(rounds, "J7") == {1: (2, "E"), 2: (1, "E"), 3: (1, "E"), 4: (3, "W"), 5: (2, "N"), 6: (1, "E")}


def test_howell_4_tables_fiche_of_player_7():
    """« exemple de fiche individuelle (4 tables) », player 7: 2 EST, 2 EST, 1 SUD, 3 NORD, 3 SUD."""
    rounds, _ = free_movement(4)
    assert seat_of(rounds, "J7") == {1: (2, "E"), 2: (2, "E"), 3: (1, "S"), 4: (3, "N"), 5: (3, "S")}


@pytest.mark.parametrize("tables", [3, 4])
def test_howell_rows_are_seatings(tables):
    """Every OCR'd row seats each player once; player 1 stays North at table 1 (as printed)."""
    for row in HOWELL[tables]:
        assert sorted(row) == list(range(1, 4 * tables + 1))
        assert row[0] == 1


def test_howell_4_tables_everyone_meets_everyone_once():
    """16 players × 15 opponents / 2 = 120 pairs = 4 tables × 6 pairs × 5 positions: no repeat means
    every pair meets exactly once (the booklet: « ne rencontrer qu'une seule fois un adversaire »)."""
    report = check(free_movement(4)[0])
    assert report.ok and len(report.meetings) == 120


def test_howell_3_tables_meets_everyone_with_repeats():
    """3 tables, 6 positions: 3 × 6 × 6 = 108 meetings for 66 pairs, so repeats are forced (each player
    has 18 opponent places for 11 opponents); the booklet's schedule meets every pair at least once."""
    report = check(free_movement(3)[0])
    assert len(report.meetings) == 66
    assert sum(map(len, report.meetings.values())) == 108
    assert report.repeats and not report.seated_twice


def test_base_move_7_tables():
    """7 tables, position 2: N1 stays; S7 → 7 + 1 = 8 ≡ 1; E6 → 6 + 2 = 8 ≡ 1; W3 → 3 − 2 = 1."""
    rounds, _ = free_movement(7, 2)
    table1 = next(r for r in rounds if r.position == 2 and r.table == 1)
    assert table1.seats == {"N": "N1", "S": "S7", "E": "E6", "W": "W3"}


@pytest.mark.parametrize("tables", [7, 11, 13, 17, 19, 21, 22, 23, 25, 40, 150])
def test_booklet_base_tables_play_7_positions(tables):
    """« Ce mouvement est valable pour … 5, 7, 11, 13, 17, 19, 21, 22, 23, et jusqu'à 150 tables »."""
    rounds, _ = free_movement(tables, 7)
    assert check(rounds).ok


def test_limits_found_by_the_validator():
    """5 tables: at the 6th position S has moved +5 ≡ 0, back with N: 5 positions. 24 tables, 7th
    position: E1 at 1 + 12 = 13 and W1 at 1 − 12 ≡ 13 meet again. 10 tables: the booklet's moves repeat at
    the 7th. 6 and 8 tables: the booklet's 5 and 6 positions."""
    assert max_positions(5) == 5 and max_positions(24) == 6
    assert max_positions(10) == 6 and max_positions(6) == 5 and max_positions(8) == 6
    rounds = [r for r in free_movement(24, 6)[0]]
    assert check(rounds).ok
    with pytest.raises(MovementError, match="au plus 6 positions"):
        free_movement(24, 7)


# What the OCR printed for each table count: (West's base move, positions, [(position, [numbers, each a
# list of the readings the OCR allows])]); the columns were lost.
OCR_ROWS = {
    6: (-1, 5, [(3, [[3]]), (4, [[-2]])]),
    8: (-1, 6, [(5, [[2], [3]]), (6, [[4]])]),
    9: (-2, 7, [(4, [[3], [3, -3]]), (5, [[3], [-3]])]),
    10: (-1, 6, [(6, [[3], [-2]])]),
    12: (-2, 7, [(4, [[-3]]), (7, [[3]])]),
    14: (-2, 7, [(6, [[-3]])]),
    15: (-2, 7, [(6, [[-3]])]),
    16: (-2, 7, [(5, [[3, -3]]), (6, [[-3]])]),
    18: (-2, 7, [(6, [[-3]])]),
    20: (-2, 7, [(6, [[-3]])]),
}


def _offsets_repeat(tables, positions, west, special):
    """Independent of the module: cumulate each line's moves, two lines meet again when the difference
    of their shifts (mod tables) comes back."""
    shift = {"N": 0, "S": 0, "E": 0, "W": 0}
    seen = {pair: {0} for pair in combinations("NSEW", 2)}
    for position in range(2, positions + 1):
        for line, base in (("S", 1), ("E", 2), ("W", west)):
            shift[line] += special.get(position, {}).get(line, base)
        for a, b in seen:
            gap = (shift[b] - shift[a]) % tables
            if gap in seen[a, b]:
                return True
            seen[a, b].add(gap)
    return False


@pytest.mark.parametrize("tables", sorted(OCR_ROWS))
def test_special_moves_are_the_only_placement_without_repeat(tables):
    """Every placement of the printed numbers into the S/E/W columns (keeping their left-to-right order)
    and every sign the OCR leaves open: only the one in SPECIAL_MOVES plays without repeat."""
    west, positions, rows = OCR_ROWS[tables]
    choices = []
    for position, numbers in rows:
        choices.append([{position: dict(zip(columns, values))}
                        for columns in combinations("SEW", len(numbers)) for values in product(*numbers)])
    good = []
    for combo in product(*choices):
        special = {}
        for part in combo:
            for position, moves in part.items():
                special.setdefault(position, {}).update(moves)
        if not _offsets_repeat(tables, positions, west, special):
            good.append(special)
    assert good == [SPECIAL_MOVES[tables]]
    assert WEST_BASE.get(tables, -2) == west
    assert check(free_movement(tables, positions)[0]).ok


def test_one_table_of_3_is_the_highest():
    """23 players: 6 tables, the North of table 6 removed (booklet p. 15)."""
    rounds, three = free_movement(players=23)
    assert three == {6}
    assert all(r.seats["N"] is None for r in rounds if r.table == 6)
    assert "N6" not in {p for r in rounds for p in r.players()}


def test_two_tables_of_3_never_twice_when_possible():
    """78 players at 20 tables, 5 positions, 2 Norths removed. By hand: S visits t..t+4, E t, t+2…t+8,
    W t, t−2…t−8 (no special move before the 6th): two tables δ apart are both visited by someone when δ
    is among ±1…±4 (S) or ±2, ±4, ±6, ±8 (E, W). From the top, (20, 19)…(20, 16) have δ ≤ 4, (20, 15) has
    δ = 5: the booklet's « ne repasse une nouvelle fois à une table à 3 » holds for tables 15 and 20."""
    rounds, three = free_movement(positions=5, players=78)
    assert three == {15, 20}
    assert not check(rounds).three_twice


def test_three_twice_reported():
    """22 players: 6 tables, 5 positions: each S visits 5 of the 6 tables, so it passes twice at 3 unless
    its missing table is one of the two: the validator names them."""
    rounds, three = free_movement(players=22)
    report = check(rounds)
    assert len(three) == 2 and report.three_twice
    assert all(len(p) == 2 for p in report.three_twice.values())


def test_validator_finds_a_repeat_and_a_double_seat():
    rounds = [Round(1, 1, {"N": "a", "S": "b", "E": "c", "W": "d"}),
              Round(2, 1, {"N": "a", "S": "b", "E": "e", "W": "f"}),
              Round(2, 2, {"N": "e", "S": "g", "E": "h", "W": "i"})]
    report = check(rounds)
    assert report.repeats == {("a", "b"): [1, 2]}
    assert report.seated_twice == [(2, "e")]
    assert not report.ok and "a et b se rencontrent aux positions 1, 2" in report.text()


def test_round_trip_and_refusals():
    rounds, three = free_movement(players=23)
    data = movement_to_dict(6, 5, rounds, three)
    assert data["kind"] == "free" and data["three_player_tables"] == [6]
    assert data["moves"][0] == {"position": 2, "N": 0, "S": 1, "E": 2, "W": -1}
    assert rounds_from_dict(data) == rounds
    for bad in ({}, {"rounds": [{"position": 1}]}, {"rounds": [{"position": "1", "table": 1, "seats": {}}]}):
        with pytest.raises(MovementError):
            rounds_from_dict(bad)
    with pytest.raises(MovementError):
        free_movement(2)
    with pytest.raises(MovementError):
        free_movement(players=14, positions=5)  # J12 and J16 would leave table 4 at 2 at the 5th position


def test_team_movement_skips_the_first_position():
    """Booklet p. 21: teammates start at the same table and skip the 1st position; the 1st played is the
    individual movement's 2nd. 7 duos-tables: position 1 at table 1 is N1, S7, E6, W3 (7 + 1 ≡ 1,
    6 + 2 ≡ 1, 3 − 2 = 1); teams NS1 = N1 + S1, EW1 = E1 + W1; 7 − 1 = 6 positions, no teammates meet."""
    from duplicate.core.freeplay.movements import team_movement

    rounds, teams = team_movement("free_duo", 7)
    assert max(r.position for r in rounds) == 6
    assert next(r for r in rounds if (r.position, r.table) == (1, 1)).seats == {"N": "N1", "S": "S7", "E": "E6", "W": "W3"}
    assert teams["NS1"] == ["N1", "S1"] and teams["EW1"] == ["E1", "W1"] and len(teams) == 14
    assert check(rounds, teams).ok
    rounds4, teams4 = team_movement("free_team4", 4)  # Howell 4 tables, positions 2–5
    assert teams4["T1"] == ["J1", "J2", "J3", "J4"] and max(r.position for r in rounds4) == 4
    assert check(rounds4, teams4).ok
    # the validator sees teammates meeting: the individual movement's 1st position put them together
    full, _ = free_movement(7, 2)
    report = check(full, teams)
    assert report.teammates[("N1", "S1")] == [1] and "coéquipiers" in report.text()
    with pytest.raises(MovementError, match="4 tables au moins"):
        team_movement("free_duo", 3)
    with pytest.raises(MovementError, match="au plus 6 positions"):
        team_movement("free_team4", 7, 7)


def test_table_card_and_orientation():
    """7 tables, table 1: position 1 N1 S1 E1 W1; position 2 N1 S7 E6 W3 (base moves, derived above)."""
    rounds, _ = free_movement(7, 2)
    assert table_card(rounds, 1) == [(1, {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}),
                                     (2, {"N": "N1", "S": "S7", "E": "E6", "W": "W3"})]


def test_four_parallel_tournaments():
    """20 teams of 4: member k of each team plays tournament k, 5 tables each, tables 1–5, 6–10, 11–15,
    16–20; 5 positions (5 tables); teams 1–4 start at table 1 of each; teammates never meet."""
    teams = {f"T{i}": [f"T{i}-{k}" for k in range(1, 5)] for i in range(1, 21)}
    rounds = parallel_tournaments(teams)
    assert {r.table for r in rounds} == set(range(1, 21)) and max(r.position for r in rounds) == 5
    assert next(r for r in rounds if (r.position, r.table) == (1, 6)).seats == {
        "N": "T1-2", "S": "T2-2", "E": "T3-2", "W": "T4-2"}
    report = check(rounds, teams)
    assert report.ok and not report.teammates
    with pytest.raises(MovementError, match="multiple de 4"):
        parallel_tournaments({k: v for k, v in list(teams.items())[:18]})
    with pytest.raises(MovementError, match="12 équipes au moins"):
        parallel_tournaments({k: v for k, v in list(teams.items())[:8]})


# The booklet's Howell tables as the OCR gave them (p. 18–19); in the 4-table one the column bars were
# often read as « 1 », « [ », « ( » or « ] ».
HOWELL_3_OCR = """
lére 1 2 3 4 5 6 7 8 9 10 11 12
2eme 1 2 7 12 5 6 11 3 9 10 4 8
3eme 1 8 7 10 5 2 11 12 9 3 4 6
4éeme 1 8 6 11 5 2 4 10 9 3 12 7
5éme 1 9 5 3 7 11 4 10 2 6 12 8
6eme 1 9 7 2 5 11 4 12 10 6 3 8
"""
HOWELL_4_OCR = """
1 1123|456 7]|8|9(10(11(12]13]14]|15]16
2 1[8(10|15|16| 9| 7| 2| 6| 3[13[12]11|14]| 4| 5
3 171121141151 9|1 6| 4| 8|2 ([13[11]10]16] 3| 5
4 11611161141 9|1 8| 3| 7|4 (13[10]12|15]| 2| 5
S 15191131 2]|161]10|14| 3|7 [11(15] 4| 8 |12]16
"""


def test_howell_schedules_are_the_booklet_ones():
    """3 tables: every number as printed. 4 tables: each row matches the OCR line when a separator may
    be a bar, a bracket, a parenthesis or a « 1 » (the bar misread): checked to tell apart almost every
    swap of two players in a row (the fiche of player 7 and « each pair once » pin the rest)."""
    import re

    rows = [tuple(int(n) for n in line.split()[1:]) for line in HOWELL_3_OCR.strip().splitlines()]
    assert tuple(rows) == HOWELL[3]
    separator = r"[\s|\[\]()]*1?[\s|\[\]()]*"
    for row, line in zip(HOWELL[4], HOWELL_4_OCR.strip().splitlines(), strict=True):
        assert re.fullmatch(separator.join(map(str, row)) + r"\s*", line.split(" ", 1)[1]), row


def _visits(tables, positions, chosen):
    """Independent of the module: player (line, start) → the tables of 3 he visits (base moves + the
    booklet's special ones, W −2 at 11 tables)."""
    shift = {"S": 0, "E": 0, "W": 0}
    seen = {}
    for position in range(1, positions + 1):
        if position > 1:
            for line, move in (("S", 1), ("E", 2), ("W", -2)):
                shift[line] += SPECIAL_MOVES.get(tables, {}).get(position, {}).get(line, move)
        for line in shift:
            for start in range(1, tables + 1):
                table = (start - 1 + shift[line]) % tables + 1
                if table in chosen:
                    seen.setdefault((line, start), []).append(position)
    return seen


def test_tables_of_3_when_someone_must_pass_twice():
    """41 players: 11 tables, 3 Norths removed, 6 positions. Every choice of 3 tables makes someone play
    at 3 more than once; the generator takes one where nobody does so more often than the best choice
    allows, and among those the fewest players at 3 twice (counted here independently)."""
    from itertools import combinations

    rounds, three = free_movement(players=41, positions=6)

    def key(chosen):
        visits = [len(v) for v in _visits(11, 6, set(chosen)).values()]
        return (max(visits), sum(v > 1 for v in visits))
    best = min(key(c) for c in combinations(range(1, 12), 3))
    assert key(three) == best and best[0] > 1
    assert max(map(len, check(rounds).three_twice.values())) == best[0]


def _message(call, *args, **kw):
    with pytest.raises(MovementError) as caught:
        call(*args, **kw)
    return str(caught.value)


def test_free_movement_refusals_word_for_word():
    """10 players are under the minimum; 11 play the 3-table Howell's 6 rows at most, 13 the 4-table one's
    first 4 (at the 5th the absent J8, J12, J16 would leave J4 alone at table 4)."""
    assert _message(free_movement, players=10) == "10 joueurs : il en faut au moins 11 (3 tables, dont une à 3)"
    assert _message(free_movement, players=11, positions=7) == (
        "11 joueurs (Howell à 3 tables, 1 numéro absent) jouent au plus 6 positions : le Howell du fascicule en "
        "a 6 (7 demandées)")
    assert _message(free_movement, players=13, positions=5) == (
        "13 joueurs (Howell à 4 tables, 3 numéros absents) jouent au plus 4 positions : au-delà, une table "
        "aurait moins de 3 joueurs (5 demandées)")
    assert _message(free_movement, 6, players=27) == "27 joueurs font 7 tables, pas 6"
    assert _message(free_movement, 2) == "le mouvement en donnes libres demande 3 tables au moins"
    assert _message(free_movement, 7, 8) == ("7 tables jouent au plus 7 positions sans que deux joueurs se "
                                            "rencontrent deux fois (8 demandées)")


def test_free_movement_plays_the_positions_asked():
    """27 players with their 7 tables given: table 7 at 3. Howell 3 tables, 2 positions: the booklet's first
    two rows only; 4 tables, 3 positions: the first three."""
    rounds, three = free_movement(7, players=27)
    assert three == {7} and max(r.position for r in rounds) == 7
    assert sorted({r.position for r in free_movement(3, 2)[0]}) == [1, 2]
    assert sorted({r.position for r in free_movement(4, 3)[0]}) == [1, 2, 3]


def test_report_text_word_for_word():
    """a plays at 3 at positions 1 and 2; b and c meet at 1 and 3; d and e, teammates, meet at 2.
    Meetings: a-b a-c b-c, a-d a-e d-e, b-c (again) b-f b-g c-f c-g f-g: 11 pairs, 1 repeated."""
    rounds = [Round(1, 1, {"N": None, "S": "a", "E": "b", "W": "c"}),
              Round(2, 1, {"N": None, "S": "a", "E": "d", "W": "e"}),
              Round(3, 1, {"N": "b", "S": "c", "E": "f", "W": "g"})]
    assert check(rounds, {"T": ["d", "e"]}).text() == (
        "11 rencontres, 1 répétée\n"
        "b et c se rencontrent aux positions 1, 3\n"
        "a joue à 3 aux positions 1, 2\n"
        "d et e, coéquipiers, se rencontrent aux positions 2\n"
        "mouvement défectueux")
    # 7 tables, 2 positions: 6 pairs a table, 7 tables, 2 positions, all different
    assert check(free_movement(7, 2)[0]).text() == "84 rencontres, 0 répétée\nmouvement correct"


def test_movement_file_word_for_word():
    """6 tables (W −1; the special move E +3 into the 3rd position), 3 positions, 24 players."""
    rounds, three = free_movement(6, 3)
    data = movement_to_dict(6, 3, rounds, three)
    assert list(data) == ["format", "kind", "tables", "positions", "boards", "moves", "three_player_tables",
                          "rounds"]
    assert (data["format"], data["kind"], data["tables"], data["positions"], data["boards"]) == (
        "tarot-movement/1", "free", 6, 3, [])
    assert data["moves"] == [{"position": 2, "N": 0, "S": 1, "E": 2, "W": -1},
                             {"position": 3, "N": 0, "S": 1, "E": 3, "W": -1}]
    assert "moves" not in movement_to_dict(4, 2, *free_movement(4, 2))


def test_movement_file_refusals_word_for_word():
    assert _message(rounds_from_dict, {"rounds": "x"}) == "mouvement illisible : « rounds » (liste) attendu"
    good = {"position": 1, "table": 1, "seats": {"N": "a"}}
    assert _message(rounds_from_dict, {"rounds": [good, {"position": 1}]}) == (
        "position n° 2 du mouvement : position, table et seats attendus")
    assert _message(rounds_from_dict, {"rounds": [good, {"position": 0, "table": 1, "seats": {}}]}) == (
        "entrée n° 2 du mouvement illisible")


def test_team_movement_word_for_word_and_positions_asked():
    """7 tables play 7 positions, so a team event 6; 1 or 3 can be asked."""
    from duplicate.core.freeplay.movements import team_movement

    assert _message(team_movement, "free", 7) == "épreuve « free » : free_duo ou free_team4"
    assert _message(team_movement, "free_duo", 3) == ("par équipes, 4 tables au moins : le Howell à 3 tables "
                                                      "fait se rencontrer des coéquipiers")
    assert _message(team_movement, "free_duo", 7, 7) == ("par équipes, 7 tables jouent au plus 6 positions sans "
                                                         "répétition (7 demandées)")
    assert sorted({r.position for r in team_movement("free_duo", 7, 1)[0]}) == [1]
    assert sorted({r.position for r in team_movement("free_team4", 7, 3)[0]}) == [1, 2, 3]


def test_table_card_keeps_a_doubled_round():
    """A movement file may give table 1 twice at a position (the validator reports the double seat): its
    card lists both, in the file's order, without comparing the seats."""
    rounds = [Round(1, 1, {"N": "a", "S": "b", "E": "c", "W": "d"}), Round(1, 1, {"N": "e", "S": "f", "E": "g", "W": "h"})]
    assert table_card(rounds, 1) == [(1, rounds[0].seats), (1, rounds[1].seats)]


def test_parallel_tournaments_at_three_tables_and_positions_asked():
    """12 teams: 4 tournaments of 3 tables (the Howell, 6 positions, whose repeats the booklet accepts),
    tables 1–3, 4–6, 7–9, 10–12; teammates never meet; 2 positions asked."""
    teams = {f"T{i}": [f"T{i}-{k}" for k in range(1, 5)] for i in range(1, 13)}
    rounds = parallel_tournaments(teams)
    assert {r.table for r in rounds} == set(range(1, 13)) and max(r.position for r in rounds) == 6
    assert not check(rounds, teams).teammates
    assert max(r.position for r in parallel_tournaments(teams, 2)) == 2
    assert _message(parallel_tournaments, dict(list(teams.items())[:8])) == (
        "4 tournois en parallèle : 12 équipes au moins (3 tables par tournoi)")


def test_tables_of_3_ties_keep_the_highest():
    """18 players: 5 tables, 2 Norths removed, 2 positions. Into the 2nd position S goes +1, E +2, W −2 (≡
    +3): two tables 2 or 3 apart are visited by two players (E one way, W the other), 1 or 4 apart by one
    (S). No choice keeps everyone to one table of 3; the best leave one player twice, tables 1 apart
    (or 1 and 5), and among those equally good the highest: 4 and 5."""
    rounds, three = free_movement(5, 2, players=18)
    assert three == {4, 5}
    assert list(check(rounds).three_twice) == ["S4"]


def test_tables_of_3_compared_from_the_top_table():
    """53 players: 14 tables, 3 Norths removed, 7 positions (W −3 into the 6th). No choice keeps everyone
    to one table of 3: the best leave 22 players at 3 twice (counted by `_visits`, independent of the
    module), e.g. {7, 8, 14} and {6, 13, 14}. Choices are compared from their highest table down: 14, then
    13 — no third table from 12 down to 7 is as good with 14 and 13 — then 6."""
    from itertools import combinations

    def key(chosen):
        visits = [len(v) for v in _visits(14, 7, set(chosen)).values()]
        return (max(visits), sum(v > 1 for v in visits))
    best = min(key(c) for c in combinations(range(1, 15), 3))
    assert best == (2, 22) and key({7, 8, 14}) == best
    rounds, three = free_movement(14, 7, players=53)
    assert three == {6, 13, 14} and key(three) == best
    assert all(key({third, 13, 14}) > best for third in range(7, 13))


def test_report_text_teammates_meeting_twice():
    """d and e, teammates, sit together at positions 1 and 2: 6 + 6 pairs, d-e twice, so 11 pairs, 1
    repeated; the positions are listed « 1, 2 » on both lines."""
    rounds = [Round(1, 1, {"N": "d", "S": "e", "E": "f", "W": "g"}),
              Round(2, 1, {"N": "d", "S": "e", "E": "h", "W": "i"})]
    assert check(rounds, {"T": ["d", "e"]}).text() == (
        "11 rencontres, 1 répétée\n"
        "d et e se rencontrent aux positions 1, 2\n"
        "d et e, coéquipiers, se rencontrent aux positions 1, 2\n"
        "mouvement défectueux")
