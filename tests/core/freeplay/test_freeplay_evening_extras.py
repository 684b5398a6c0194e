"""The evening's extras of free play: carré final, best against best, random set-up, prizes
(`duplicate.core.freeplay.movements`, `.prizes`; booklet chapter 2, p. 12–17)."""

import pytest

from duplicate.core.freeplay.movements import (
    MovementError, best_against_best, check, final_square, random_seating,
)
from duplicate.core.freeplay.prizes import last_positions_prize, prize_count
from duplicate.core.freeplay.ranking import ScoredDeal, entries, rank_entries

RANKED = [f"R{k}" for k in range(1, 21)]


def test_final_square_16_is_the_booklet_table():
    """« POSITION DE DEPART DES 16 JOUEURS FINALISTES »: T1 1er 5e 9e 13e, T2 2e 6e 10e 14e, T3 3e 7e 11e
    15e, T4 4e 8e 12e 16e (N, S, E, W)."""
    rounds = final_square(RANKED[:16])
    assert [[int(p[1:]) for p in r.seats.values()] for r in rounds] == [
        [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]


def test_final_square_20_five_positions():
    """20 finalists: T1 1er 6e 11e 16e … T5 5e 10e 15e 20e, then 5 positions of one deal « avec le
    mouvement normal de rotation : S + 1 ; E + 2 ; O − 2 ». Position 2 at table 1: S from table 5 (10th), E
    from table 4 (14th), W from table 3 (18th). 5 tables × 5 positions: no repeat."""
    rounds = final_square(RANKED, 5)
    first = [r for r in rounds if r.position == 1]
    assert [[int(p[1:]) for p in r.seats.values()] for r in first] == [
        [1, 6, 11, 16], [2, 7, 12, 17], [3, 8, 13, 18], [4, 9, 14, 19], [5, 10, 15, 20]]
    assert next(r for r in rounds if (r.position, r.table) == (2, 1)).seats == {"N": "R1", "S": "R10", "E": "R14", "W": "R18"}
    assert check(rounds).ok
    with pytest.raises(MovementError):
        final_square(RANKED[:18])


def test_best_against_best_and_random():
    """10 players = 4 + 3 + 3: the 4 best at table 1, tables 2 and 3 lose their North. Random seatings are
    reproducible, seat everyone once, and avoid earlier meetings when they can (16 players, 2 positions:
    each has met 3 of 15)."""
    rounds = best_against_best(RANKED[:10], 3)
    assert [r.seats for r in rounds] == [
        {"N": "R1", "S": "R2", "E": "R3", "W": "R4"},
        {"N": None, "S": "R5", "E": "R6", "W": "R7"},
        {"N": None, "S": "R8", "E": "R9", "W": "R10"}]
    players = RANKED[:16]
    first = random_seating(players, 1, "graine")
    assert first == random_seating(players, 1, "graine") and first != random_seating(players, 1, "autre")
    second = random_seating(players, 2, "graine", earlier=first)
    assert not check([*first, *second]).repeats
    for count in (11, 22, 37):
        seating = random_seating([f"P{i}" for i in range(count)], 1, "x")
        seated = [p for r in seating for p in r.players()]
        assert sorted(seated) == sorted(f"P{i}" for i in range(count))
        assert sum(len(r.players()) == 3 for r in seating) == -count % 4


def test_prizes():
    """20 % of 22 = 4.4 → 5 places; of 20 → 4. The special prize: ranked (A 300, B 100, C 0, D −400);
    with 2 rewarded, C (last two positions: +150 + 50 = 200) beats D (+120 + 60 = 180)."""
    assert prize_count(22) == 5 and prize_count(20) == 4 and prize_count(5) == 1
    deals = [ScoredDeal(1, {"A": 300, "B": 100, "C": -200, "D": -200}),
             ScoredDeal(2, {"A": 0, "B": 0, "C": 150, "D": -150}),
             ScoredDeal(3, {"A": 0, "B": 0, "C": 50, "D": -50}),
             ScoredDeal(2, {"D": 120}), ScoredDeal(3, {"D": 60}), ScoredDeal(1, {"D": -180})]
    ranked = rank_entries(entries("ABCD", deals))
    assert [(e.id, e.total) for e in ranked] == [("A", 300), ("B", 100), ("C", 0), ("D", -400)]
    assert last_positions_prize(ranked, 2) == (["C"], 200)
    assert last_positions_prize(ranked, 4) is None
