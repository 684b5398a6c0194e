"""The evening's extras of free play: carré final, best against best, random set-up, prizes
(`duplicate.core.freeplay.movements`, `.prizes`; booklet chapter 2, p. 12–17)."""

import pytest

from duplicate.core.freeplay.movements import (
    MovementError, best_against_best, check, final_square, random_seating,
)
from duplicate.core.freeplay.prizes import last_positions_prize, palmares, prize_count
from duplicate.core.freeplay.ranking import Entry, ScoredDeal, entries, rank_entries

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


def test_special_prize_counts_an_unplayed_position_as_nothing():
    """Positions 1–3 played; the last two are 2 and 3. E withdrew after position 2 (+120 there, nothing at
    3): 120. C: +60 + 59 = 119. A, rewarded, is out of it. E wins with 120, and with E and C equal on 119
    they share it, in ranking order."""
    ranked = [Entry("A", positions={1: 500, 2: 0, 3: 0}), Entry("C", positions={1: 0, 2: 60, 3: 59}),
              Entry("E", positions={1: 10, 2: 120})]
    assert last_positions_prize(ranked, 1) == (["E"], 120)
    ranked[2] = Entry("E", positions={1: 10, 2: 119})
    assert last_positions_prize(ranked, 1) == (["C", "E"], 119)


def test_prize_count_rounds_away_float_noise_only():
    """20 % of 15 is 3 (3.0000000000000004 in floats: no 4th prize); the share is read to 9 decimals, so
    a tenth and 10⁻¹¹ of 10 entrants is 1 prize, while a tenth and 10⁻⁹ is more than 1 → 2."""
    assert prize_count(15) == 3 and prize_count(16) == 4
    assert prize_count(10, 0.10000000001) == 1 and prize_count(10, 0.1000000001) == 2


def _row(ident, rank, total, withdrawn=False):
    return {"id": ident, "rank": rank, "total": total, **({"withdrawn": True} if withdrawn else {})}


def test_team_palmares_counts_teams_and_sums_members_over_the_last_two_positions():
    """6 duos A…F (members a1 a2…), F with a withdrawn member: ⌈6 × 20 %⌉ = ⌈1,2⌉ = 2 prizes, A and B.
    Positions 1–3 and the carré final's 4 (left out). Last two positions: 2 and 3. By hand, the teams
    outside the prize list: C = c1 +30 (pos. 2) + c2 +20 (pos. 3) = 50; D = d1 +40 + d2 +10 = 50 (d2's −5
    at position 1 does not count); E = e1 +45 (its +100 is the carré final's) = 45; F (+100) is withdrawn.
    C and D share the special prize with 50, in ranking order."""
    teams = [{"id": t, "members": [t.lower() + "1", t.lower() + "2"]} for t in "ABCDEF"]
    data = {"kind": "free_duo", "teams": teams, "movement": {"final_square": {"positions": [4]}}}
    results = [{"position": 2, "scores": {"c1": 30, "d1": 40, "a1": 500, "e1": 45}},
               {"position": 3, "scores": {"c2": 20, "d2": 10, "f1": 100}},
               {"position": 1, "scores": {"d2": -5, "b2": 300}},
               {"position": 4, "scores": {"e1": 100}}]
    output = {"ranking": [_row("A", 1, 500), _row("B", 2, 300), _row("C", 3, 50), _row("D", 4, 45),
                          _row("E", 5, 45), _row("F", 6, 100, withdrawn=True)], "results": results}
    prizes = palmares(data, output)
    assert prizes["count"] == 2 and prizes["entrants"] == 6 and prizes["teams"] is True
    assert [row["id"] for row in prizes["winners"]] == ["A", "B"]
    assert prizes["special"] == {"ids": ["C", "D"], "score": 50, "positions": [2, 3]}


def test_individual_palmares_shares_the_last_prize_place():
    """10 players: ⌈2⌉ = 2 prizes; P2 and P3 tie for 2nd (both rank 2): both rewarded, 3 winners. Special
    prize among P4…P10: P7 has +60 over positions 1 and 2 (only two played), the best. No ranking: None."""
    ranking = [_row("P1", 1, 90), _row("P2", 2, 80), _row("P3", 2, 80)] + [_row(f"P{k}", k, 10 - k) for k in range(4, 11)]
    output = {"ranking": ranking, "results": [{"position": 1, "scores": {"P7": 50, "P5": 20}},
                                              {"position": 2, "scores": {"P7": 10, "P1": 200}}]}
    prizes = palmares({"kind": "free"}, output)
    assert prizes["count"] == 2 and prizes["teams"] is False
    assert [row["id"] for row in prizes["winners"]] == ["P1", "P2", "P3"]
    assert prizes["special"] == {"ids": ["P7"], "score": 60, "positions": [1, 2]}
    assert palmares({"kind": "free"}, {"ranking": []}) is None


def _message(call, *args, **kw):
    with pytest.raises(MovementError) as caught:
        call(*args, **kw)
    return str(caught.value)


def test_final_square_refusals_and_24_players():
    """A carré final is 4 players a table; 4 tables (16) play 5 positions at most (the Howell). 24
    finalists, 6 tables, follow the 6-table FFT movement (W −1): position 2 at table 1, S from table 6
    (the 12th), E from table 5 (17th), W from table 2 (20th)."""
    assert _message(final_square, RANKED[:18]) == "carré final de 18 joueurs : un multiple de 4 (12, 16 ou 20)"
    assert _message(final_square, RANKED[:16], 6) == "carré final à 4 tables : 5 positions au plus"
    ranked = [f"R{k}" for k in range(1, 25)]
    rounds = final_square(ranked, 2)
    assert next(r for r in rounds if (r.position, r.table) == (2, 1)).seats == {"N": "R1", "S": "R12", "E": "R17", "W": "R20"}


def test_best_against_best_small_fields():
    """11 players = 4 + 4 + 3: only table 3 loses its North; 3 players make one table of 3; 2 are
    refused. The rounds carry the position asked and the tables 1, 2, 3."""
    rounds = best_against_best(RANKED[:11], 4)
    assert [(r.position, r.table, r.seats["N"]) for r in rounds] == [(4, 1, "R1"), (4, 2, "R5"), (4, 3, None)]
    assert rounds[2].seats == {"N": None, "S": "R9", "E": "R10", "W": "R11"}
    assert [r.seats for r in best_against_best(RANKED[:3], 1)] == [{"N": None, "S": "R1", "E": "R2", "W": "R3"}]
    assert _message(best_against_best, RANKED[:2], 1) == "il faut 3 joueurs au moins"


def test_random_seating_shape():
    """11 players: tables 1, 2 of 4 and table 3 of 3 without a North, all at the position asked; 3 players
    make one table; 2 are refused. A second position after 16 players' first: 4 tables of 4, no more."""
    seating = random_seating(RANKED[:11], 2, "x")
    assert [(r.position, r.table, len(r.players())) for r in seating] == [(2, 1, 4), (2, 2, 4), (2, 3, 3)]
    assert seating[2].seats["N"] is None
    assert [len(r.players()) for r in random_seating(RANKED[:3], 1, "x")] == [3]
    assert _message(random_seating, RANKED[:2], 1, "x") == "il faut 3 joueurs au moins"
    first = random_seating(RANKED[:16], 1, "graine")
    second = random_seating(RANKED[:16], 2, "graine", earlier=first)
    assert [(r.table, len(r.players())) for r in second] == [(1, 4), (2, 4), (3, 4), (4, 4)]


def _third_position(count, seed, **kw):
    """Position 3 of ``count`` players after a best-against-best 1st and a random 2nd; its repeats."""
    players = [f"P{i}" for i in range(count)]
    earlier = best_against_best(players, 1)
    earlier += random_seating(players, 2, seed, earlier)
    seating = random_seating(players, 3, seed, earlier, **kw)
    return seating, len(check([*earlier, *seating]).repeats)


def test_random_seating_keeps_the_first_best_of_20_draws():
    """8 players at 2 tables: a table of 4 takes a from one of position 1's tables and 4 − a from the
    other, C(a, 2) + C(4 − a, 2) ≥ 2 pairs met again, so every draw repeats at least 4 meetings: the first
    draw that does so is kept, not a later equal one. 9 and 13 players: the draws go on past a draw with
    repeats (2, or 1) until one has none. 12 players: the 21st draw would be better than the first 20
    (3 repeats instead of 6); 20 draws are made."""
    seating, repeats = _third_position(8, "a")
    assert repeats == 4 and seating == _third_position(8, "a", tries=1)[0]
    assert _third_position(9, "b", tries=1)[1] == 2 and _third_position(9, "b")[1] == 0
    assert _third_position(13, "a", tries=3)[1] == 1 and _third_position(13, "a")[1] == 0
    seating, repeats = _third_position(12, "d")
    assert repeats == 6 and seating == _third_position(12, "d", tries=20)[0]
    assert _third_position(12, "d", tries=21)[1] == 3
