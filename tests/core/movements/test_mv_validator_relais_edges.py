"""The validator's relais checks on tampered movements (SPEC §7 relais; `movements.validator._check_rests`),
the messages worked out by hand from the 21-player movement followed in `test_mv_relais_by_hand.py` (N6, N1,
N5, N4, N3 rest at positions 1 to 5; S of table x sits at table x + p − 1, E at x + 2(p − 1), mod 5; N1 sits
at table 1 at position 1, rests at 2, sits at table 5 from 3 on) and from the Rainbow of 10 tables.
"""

from dataclasses import replace

from duplicate.core.movements import check, generate, individual_entrant_ids


def test_unregistered_players_are_counted_with_the_other_relais_faults():
    # N1, S1, E1 left off the list: 1 + 15 relais faults (each of the three, at each of the 5 positions); at most
    # 12 per kind are written, the rest counted.  Position 1: table 1 (N1, S1, E1).  Position 2: S1 at table 2,
    # E1 at 3, N1 at the relais.  Position 3: S1 at 3, N1 and E1 at 5.  Position 4: E1 at 2 (1 + 6 mod 5),
    # S1 at 4, then (not written) N1 at 5; position 5: E1 at 4, S1 and N1 at 5.
    m = generate("individual", None, players=21)
    entrants = [e for e in individual_entrant_ids(21) if e not in ("N1", "S1", "E1")]
    report = check(m, entrants=entrants)
    out = lambda p, t, who: f"position {p}, table {t} : {who} n’est pas inscrit (place sans joueur)"  # noqa: E731
    expected = [
        "le mouvement est prévu pour 21 joueurs, 18 sont inscrits",
        out(1, 1, "N1"), out(1, 1, "S1"), out(1, 1, "E1"),
        out(2, 2, "S1"), out(2, 3, "E1"), "position 2 : N1 est au relais mais n’est pas inscrit",
        out(3, 3, "S1"), out(3, 5, "N1"), out(3, 5, "E1"),
        out(4, 2, "E1"), out(4, 4, "S1"),
        "… et 4 autres cas du même genre (relais).",
    ]
    start = report.errors.index(expected[0])
    assert report.errors[start:start + len(expected)] == expected


def test_a_resting_player_seated_twice_and_a_double_rest_word_for_word():
    # W5 left off the list (it sits at tables 5, 3, 1, 4, 2: x − 2(p − 1) mod 5); position 2: N1 rests and is also
    # put in the S and E seats of table 2, whose players (S1: 1 + 1; E5: 5 + 2 mod 5) are then nowhere;
    # position 4: N4 listed twice at the relais (1 expected), while S1 (first of the list after N1, who rested at
    # 2) never rested.  13 relais faults: 12 written, in the order found, then the count of the rest.
    m = generate("individual", None, players=21)
    rounds = tuple(replace(r, seats=(r.seats[0], ("S", "N1"), ("E", "N1"), r.seats[3]))
                   if (r.position, r.table) == (2, 2) else r for r in m.rounds)
    rests = tuple((p, ("N4", "N4") if p == 4 else who) for p, who in m.rests)
    entrants = [e for e in individual_entrant_ids(21) if e != "W5"]
    report = check(replace(m, rounds=rounds, rests=rests), entrants=entrants)
    out = lambda p, t: f"position {p}, table {t} : W5 n’est pas inscrit (place sans joueur)"  # noqa: E731
    twice = "N4 passe une deuxième fois au relais (positions 4 et 4) alors que S1 n’y est jamais passé"
    expected = [
        "le mouvement est prévu pour 21 joueurs, 20 sont inscrits",
        out(1, 5),
        out(2, 3), "position 2 : N1 est à la fois placé et au relais",
        "position 2 : S1 n’est ni placé ni au relais", "position 2 : E5 n’est ni placé ni au relais",
        out(3, 1),
        out(4, 4), "position 4 : un même joueur figure deux fois au relais",
        "position 4 : 2 joueurs au relais, 1 attendu (21 joueurs)", twice, twice,
        "… et 1 autre cas du même genre (relais).",
    ]
    assert [e for e in report.errors if e in expected] == expected


def test_players_nowhere_are_named_in_natural_order():
    # 41 players (10 tables, N11 at the relais first), no list given: the players are those of the movement, in natural order
    # (N2 before N10).  At position 1, N2 and N10 lose their seats to X1 and X2: both are nowhere there, N2 first.
    m = generate("individual", None, players=41)
    swap = {"N2": "X1", "N10": "X2"}
    rounds = tuple(replace(r, seats=tuple((seat, swap.get(who, who)) for seat, who in r.seats))
                   if r.position == 1 else r for r in m.rounds)
    report = check(replace(m, rounds=rounds))
    errors = report.errors
    # the summary names them in natural order too: E9 before E10 (never at the relais: the E line is not chosen
    # while a player of the returner's own line N fits)
    summary = next(s for s in report.summary if s.startswith("Relais par participant"))
    assert ", E9, E10, " in summary and summary.endswith(", X1, X2")   # X after W, never rested
    nowhere = [e for e in errors if e.startswith("position 1 : ") and e.endswith("n’est ni placé ni au relais")]
    assert nowhere == ["position 1 : N2 n’est ni placé ni au relais", "position 1 : N10 n’est ni placé ni au relais"]


def test_an_attack_one_off_its_share_is_flagged():
    # 5-table Rainbow, 4 étuis a position with takers N, S, E, W: each player attacks 5 of its 20 étuis (¼).
    # Étui 1 marked taken by S instead of N: the N players who play it (N1 at table 1 at position 1) attack 4,
    # one off their share: flagged (a difference of exactly 1 counts).
    from duplicate.core.movements.model import Board
    m = generate("individual", 5)
    tampered = replace(m, boards=(Board(1, "S"),) + m.boards[1:])
    warnings = check(tampered).warnings
    assert any(w.startswith("N1 attaque 4 étuis sur 20") for w in warnings)
    assert not any(w.startswith("N1 attaque") for w in check(m).warnings)
