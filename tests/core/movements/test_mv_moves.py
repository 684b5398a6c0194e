"""The move after a position, as announced in the hall (`core.movements.moves`): read from the rounds,
checked against the rules of SPEC §7 and against small movements typed in by hand."""

from duplicate.core.movements import Movement, describe_move, generate, next_move


def rounds(position, *tables):
    """Rounds of one position: each table as (seats "N S E W" ids, étuis)."""
    return [{"position": position, "table": t, "seats": dict(zip("NSEW", seats.split())), "boards": boards}
            for t, (seats, boards) in enumerate(tables, start=1)]


def test_the_rainbow_is_announced_as_the_booklet_says():
    """FFT booklet: N fixe, S +1, E +2, O −2; SPEC §7: étuis −1 table per position — at 5 and 7 tables
    (5 tables: O −2, not +3, the short way round)."""
    for tables in (5, 7):
        movement = generate("individual", tables)
        for position in range(1, movement.positions):
            assert describe_move(next_move(movement, position)) == [
                "Nord fixe", "Sud +1", "Est +2", "Ouest −2", "Étuis −1"]
        assert next_move(movement, movement.positions) is None  # after the last position: nothing
        assert next_move(movement, 0) is None


def test_mitchell_and_quadrettes_follow_spec_section_7():
    assert describe_move(next_move(generate("triplettes", 5), 1)) == ["Nord-Sud fixe", "Est-Ouest +1", "Étuis −1"]
    assert describe_move(next_move(generate("quadrettes", 5), 2)) == ["Attaque +2", "Défense fixe", "Étuis +1"]
    assert describe_move(next_move(generate("team_match", 2), 1)) == []  # the captains choose the rooms


def test_a_movement_typed_in_by_hand():
    """3 tables: S1 1→2, S2 2→3, S3 3→1 (+1); E1 1→3, E2 2→1, E3 3→2 (−1 the short way); W1 stays, W2
    goes +1, W3 −1 (no common step); étuis 1–2 1→2, 3–4 2→3, 5–6 3→1 (+1)."""
    movement = Movement.from_dict({"kind": "individual", "tables": 3, "positions": 2, "rounds": [
        *rounds(1, ("N1 S1 E1 W1", [1, 2]), ("N2 S2 E2 W2", [3, 4]), ("N3 S3 E3 W3", [5, 6])),
        *rounds(2, ("N1 S3 E2 W1", [5, 6]), ("N2 S1 E3 W3", [1, 2]), ("N3 S2 E1 W2", [3, 4])),
    ]})
    assert describe_move(next_move(movement, 1)) == ["Nord fixe", "Sud +1", "Est −1", "Ouest voir les cartes",
                                                     "Étuis +1"]


def test_the_relais_is_announced_apart():
    """2 tables; N1 goes to the relais at position 2 and N3 comes back to table 1 in his place."""
    movement = Movement.from_dict({"kind": "individual", "tables": 2, "positions": 2, "rounds": [
        *rounds(1, ("N1 S1 E1 W1", [1]), ("N2 S2 E2 W2", [2])),
        *rounds(2, ("N3 S2 E2 W1", [2]), ("N2 S1 E1 W2", [1])),
    ], "rests": [{"position": 1, "entrants": ["N3"]}, {"position": 2, "entrants": ["N1"]}]})
    move = next_move(movement, 1)
    assert describe_move(move) == ["Nord fixe", "Sud +1", "Est +1", "Ouest fixe", "Étuis +1"]
    assert move.resting == ("N1",) and move.joining == (("N3", 1, "N"),)
