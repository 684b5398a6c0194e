"""The relais planner followed by hand on the 5-table Rainbow (SPEC §7 relais; `movements.relais` docstring).

Notation: the trajectory « N3 » is the seat of line N that started at table 3 (N stays at table 3, S of
table x sits at x + p − 1, E at x + 2(p − 1), W at x − 2(p − 1) mod 5) and set x (étuis 4x − 3 … 4x) is at
table x − (p − 1) at position p; so the trajectory of line L started at x plays set x + k·(p − 1) with k = 1
for N, 2 for S, 3 for E, −1 for W.

21 players (1 rest): N6 rests at position 1.  Position 2: a returner without a past takes the first
trajectory of its own line whose occupant has rested the fewest times: N1.  Position 3: N1 played set 1;
its trajectory played set 2 at position 2, which is at table 5 at position 3, played by N5, S3, E1, W4; S3
(set 1 at position 5) and W4 (set 1 at position 4) would replay set 1; of N5 and E1 the same line first:
N5 rests.  Position 4: N5 played sets 5 and 1; set 2 is at table 4, played by N4, S1, E3, W5; E3 and W5
would replay 5 or 1: N4 rests.  Position 5: set 2 at table 3 (N3, S4, E5, W1), all clean: N3 rests.

22 players (2 rests): N6 and S6 rest first; then N1 and S1 (first of their lines).  Position 3: N1 as above
(N5); S1 played set 1, its trajectory's set 3 is at table 1 (N1 — occupied by N6 who has rested —, S4, E2, W5;
E2 and W5 replay set 1): S4.  Position 4: N5 → N4 (S1's trajectory is held by S6, who has rested); S4 played
sets 4 and 1, its set 3 is at table 5 (N5, S2, E4, W1; N5 and E4 replay 4 or 1): S2 (its line) before W1.
Position 5: N4 → N3 (same line first); S2 played 2, 4, 1; set 3 at table 4 (N4 — held by N5 —, S5, E1, W2): S5.
The rests are listed in the order of the ids (N1, S1, E1, W1, N2 …)."""

import pytest

from duplicate.core.movements import MovementError, check, generate
from duplicate.core.movements.relais import add_relais, generate_with_relais

NOTE = ("{n} joueurs : {r} joueur{s} au relais à chaque position ; chacun passe au plus une fois au relais avant "
        "que tous y soient passés ; un joueur qui revient reprend la place d’un autre (même ligne autant que "
        "possible) sans rejouer un étui.")


def test_21_players_rest_along_line_north():
    m = generate("individual", None, players=21)
    assert m.rests == ((1, ("N6",)), (2, ("N1",)), (3, ("N5",)), (4, ("N4",)), (5, ("N3",)))
    assert m.players == 21 and m.positions == 5 and m.tables == 5
    # the returner sits where the player now resting sat: N6 at table 1 from position 2, N1 at table 5 from 3…
    north = {(r.position, r.table): r.seat_map["N"] for r in m.rounds}
    assert [north[(p, 1)] for p in range(1, 6)] == ["N1", "N6", "N6", "N6", "N6"]
    assert [north[(p, 5)] for p in range(1, 6)] == ["N5", "N5", "N1", "N1", "N1"]
    assert [north[(p, 4)] for p in range(1, 6)] == ["N4", "N4", "N4", "N5", "N5"]
    assert [north[(p, 3)] for p in range(1, 6)] == ["N3", "N3", "N3", "N3", "N4"]
    # everything else is the plain Rainbow
    plain = generate("individual", 5)
    assert [(r.position, r.table, r.boards, r.seat_map["S"], r.seat_map["E"], r.seat_map["W"]) for r in m.rounds] == [
        (r.position, r.table, r.boards, r.seat_map["S"], r.seat_map["E"], r.seat_map["W"]) for r in plain.rounds]
    assert m.notes == plain.notes + (NOTE.format(n=21, r=1, s=""),)
    assert m.boards == plain.boards
    assert check(m).ok


def test_22_players_rest_along_lines_north_and_south():
    m = generate("individual", None, players=22)
    assert m.rests == ((1, ("N6", "S6")), (2, ("N1", "S1")), (3, ("S4", "N5")), (4, ("S2", "N4")), (5, ("N3", "S5")))
    assert m.notes[-1] == NOTE.format(n=22, r=2, s="s")
    south = {(r.position, r.table): r.seat_map["S"] for r in m.rounds}
    # S6 takes S1's seat from position 2 (S1's trajectory: tables 1, 2, 3, 4, 5)
    assert [south[(p, p)] for p in range(1, 6)] == ["S1", "S6", "S6", "S6", "S6"]
    # S1 takes S4's from position 3 (S4's trajectory: tables 4, 5, 1, 2, 3)
    assert [south[(p, (2 + p) % 5 + 1)] for p in range(1, 6)] == ["S4", "S4", "S1", "S1", "S1"]
    assert check(m).ok


def test_the_positions_asked_or_a_multiple_of_four():
    assert generate("individual", None, players=20) == generate("individual", 5)
    assert generate("individual", None, players=20).rests == ()
    m = generate("individual", None, positions=3, players=21)
    assert m.positions == 3 and m.rests == ((1, ("N6",)), (2, ("N1",)), (3, ("N5",)))
    assert len(m.boards) == 20      # the 3-position Rainbow keeps its 5 sets


def test_the_most_positions_where_the_relais_fit():
    # 35 players: 8 tables (GF(8), 8 positions); with 3 rests the relais fit 7 positions, not 8
    message = ("Impossible de répartir les relais de 35 joueurs sur ce mouvement de 8 positions sans faire rejouer "
               "un étui ; proposez moins de positions (ou laissez le nombre de positions au choix du générateur).")
    with pytest.raises(MovementError) as err:
        generate("individual", None, positions=8, players=35)
    assert str(err.value) == message
    seven = generate("individual", None, positions=7, players=35)
    assert seven.positions == 7 and check(seven).ok
    chosen = generate("individual", None, players=35)
    assert chosen.positions == 7 and chosen.players == 35 and check(chosen).ok
    plain = generate("individual", 8, 7)
    assert [(r.position, r.table, r.boards) for r in chosen.rounds] == [(r.position, r.table, r.boards) for r in plain.rounds]
    assert chosen.boards == plain.boards
    assert chosen.notes == plain.notes + (NOTE.format(n=35, r=3, s="s"),)
    assert chosen.notes[1].startswith("8 tables, 7 positions de 4 étuis")
    # 37 players: 9 tables (GF(9)): 8 of the 9 positions
    with pytest.raises(MovementError):
        generate("individual", None, positions=9, players=37)
    assert generate("individual", None, players=37).positions == 8


def test_add_relais_directly():
    base = generate("individual", 5)
    assert add_relais(base, 20) is base
    assert add_relais(base, 21) == generate("individual", None, players=21)
    with pytest.raises(MovementError) as err:
        add_relais(generate("individual", 3), 21)
    assert str(err.value) == "mouvement de base inattendu : J1 n’est pas une place de 20"
    # shorten: the 35-player relais on the full 8-position GF(8) movement stop where they no longer fit
    short = add_relais(generate("individual", 8), 35, shorten=True)
    assert 1 <= short.positions < 8 and check(short).ok
    assert short.rests[0] == (1, ("N9", "S9", "E9"))
    with pytest.raises(MovementError):
        add_relais(generate("individual", 8), 35)


def test_small_clubs_relais():
    # 13 players: 3 tables of J1…J12 and J13, who rests first
    m = generate_with_relais(13, None, None)
    assert m.tables == 3 and m.rests[0] == (1, ("J13",))
    assert all(len(resting) == 1 for _, resting in m.rests)
    assert check(m).ok


@pytest.mark.parametrize("players", [13, 14, 15, 16, 17, 18, 19, 21, 22, 23])
def test_small_clubs_and_five_tables_keep_every_position(players):
    # 3, 4 and 5 tables: the relais fit every position of the movement (no bisection, SPEC §7)
    m = generate("individual", None, players=players)
    assert m.positions == {3: 6, 4: 4, 5: 5}[players // 4]
