"""The relais planner's choices on the small clubs and the field designs (SPEC §7 relais; the module
docstring of `movements.relais`), and `_is_prefix`, which lets the bisection reuse the longest search.

The rules checked: r players rest at each position; no one rests twice before everyone has rested once;
the positions kept are the most where the relais fit.  15 players (3 tables of J1…J12, 6 positions, 3 rests):
J13, J14, J15 rest first and J1…J12 at positions 2 to 5, so everyone has rested once after position 5 and the
6th position sends three players to the relais a second time, the extras (who rested at position 1, as long
ago as anyone) among them.  The exact choices among equals (meetings, lines, order) are the planner's, pinned
here as the regression of its tie-breaks (checked clean by the validator)."""

import pytest

from duplicate.core.movements import check, generate
from duplicate.core.movements.relais import _is_prefix


def test_is_prefix():
    # 7 tables: the Rainbow plays all 7 positions; its first 5 are the 5-position movement
    assert _is_prefix(7, 7, 5) is True
    assert _is_prefix(6, 5, 5) is True
    # 6 tables: 2 positions are the Rainbow (S +1 at position 2), 5 the stored special moves (S +4):
    # one part each, the same group Z6, other offsets
    assert _is_prefix(6, 5, 2) is False
    # below 5 tables never (the 3- and 4-table movements change with their length)
    assert _is_prefix(4, 4, 2) is False


def test_fifteen_players_rest_twice_only_after_everyone():
    m = generate("individual", None, players=15)
    assert m.positions == 6 and m.tables == 3
    first_five = [who for p, resting in m.rests if p <= 5 for who in resting]
    assert sorted(first_five) == sorted(f"J{k}" for k in range(1, 16))
    assert m.rests == ((1, ("J13", "J14", "J15")), (2, ("J1", "J2", "J3")), (3, ("J4", "J5", "J9")),
                       (4, ("J6", "J7", "J8")), (5, ("J10", "J11", "J12")), (6, ("J1", "J13", "J14")))
    assert check(m).ok


@pytest.mark.parametrize("players,positions,rests", [
    (13, 6, ((1, ("J13",)), (2, ("J1",)), (3, ("J3",)), (4, ("J2",)), (5, ("J11",)), (6, ("J5",)))),
    (14, 6, ((1, ("J13", "J14")), (2, ("J1", "J2")), (3, ("J3", "J4")), (4, ("J5", "J6")), (5, ("J8", "J10")),
             (6, ("J11", "J12")))),
    (26, 5, ((1, ("N7", "S7")), (2, ("N1", "S1")), (3, ("W1", "S3")), (4, ("S5", "W5")), (5, ("W3", "S6")))),
    # 8 tables (GF(8)): the returners must take trajectories of other lines to keep all 8 positions
    (34, 8, ((1, ("N9", "S9")), (2, ("N1", "S1")), (3, ("W1", "S6")), (4, ("E1", "W6")), (5, ("E2", "W3")),
             (6, ("E7", "W8")), (7, ("W2", "S3")), (8, ("W7", "S8")))),
])
def test_the_planners_choices(players, positions, rests):
    m = generate("individual", None, players=players)
    assert m.positions == positions and m.rests == rests
    assert all(len(resting) == players % 4 for _, resting in m.rests)
    assert check(m).ok


def test_the_report_of_the_21_player_relais_word_for_word():
    # the rests followed by hand in test_mv_relais_by_hand: N6, N1, N5, N4, N3
    report = check(generate("individual", None, players=21))
    assert [s for s in report.summary if s.startswith("Relais")] == [
        "Relais par position : 1 : N6 ; 2 : N1 ; 3 : N5 ; 4 : N4 ; 5 : N3",
        "Relais par participant : 1 fois : N1, N3, N4, N5, N6 ; jamais : E1, E2, E3, E4, E5, N2, S1, S2, S3, S4, "
        "S5, W1, W2, W3, W4, W5"]


def test_tampered_rests_word_for_word():
    # position 2: N6 (seated at table 1 from position 2) twice at the relais, N1 (who rests there) nowhere;
    # position 3: X9, not registered; the first never rested is the first registered (N1); position 5: no one, so N3 (who rests there) is nowhere
    from dataclasses import replace
    from duplicate.core.movements import individual_entrant_ids
    m = generate("individual", None, players=21)
    bad = replace(m, rests=((1, ("N6",)), (2, ("N6", "N6")), (3, ("N5", "X9")), (4, ("N4",)), (5, ())))
    report = check(bad, entrants=individual_entrant_ids(21))
    assert report.errors == [
        "position 2 : N6 est à la fois placé et au relais",
        "position 2 : N6 est à la fois placé et au relais",
        "position 2 : un même joueur figure deux fois au relais",
        "position 2 : N1 n’est ni placé ni au relais",
        "position 2 : 2 joueurs au relais, 1 attendu (21 joueurs)",
        "N6 passe une deuxième fois au relais (positions 1 et 2) alors que N1 n’y est jamais passé",
        "N6 passe une deuxième fois au relais (positions 1 et 2) alors que N1 n’y est jamais passé",
        "position 3 : X9 est au relais mais n’est pas inscrit",
        "position 3 : 2 joueurs au relais, 1 attendu (21 joueurs)",
        "position 5 : N3 n’est ni placé ni au relais",
        "position 5 : 0 joueur au relais, 1 attendu (21 joueurs)",
    ]
    assert [s for s in report.summary if s.startswith("Relais")] == [
        "Relais par position : 1 : N6 ; 2 : N6, N6 ; 3 : N5, X9 ; 4 : N4 ; 5 : personne",
        "Relais par participant : 3 fois : N6 ; 1 fois : N4, N5 ; jamais : E1, E2, E3, E4, E5, N1, N2, N3, S1, S2, "
        "S3, S4, S5, W1, W2, W3, W4, W5"]


def test_the_relais_keep_the_etuis_per_position_asked():
    # 3 étuis per position: 5 tables play 5 sets of 3 (15 étuis), 8 tables 8 sets (24), the notes say « de 3 étuis »
    asked = generate("individual", None, positions=3, players=21, boards_per_position=3)
    assert len(asked.boards) == 15 and all(len(r.boards) == 3 for r in asked.rounds)
    chosen = generate("individual", None, players=35, boards_per_position=3)
    assert chosen.positions == 7 and len(chosen.boards) == 24 and all(len(r.boards) == 3 for r in chosen.rounds)
    assert chosen.notes[1].startswith("8 tables, 7 positions de 3 étuis")
