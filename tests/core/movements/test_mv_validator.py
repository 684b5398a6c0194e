"""The validator flags hand-broken movements and passes good ones."""

from dataclasses import replace

from duplicate.core.movements import Board, Movement, check, generate


def _swap_round(movement, pos, tab, **changes):
    rounds = tuple(replace(r, **changes) if (r.position, r.table) == (pos, tab) else r
                   for r in movement.rounds)
    return replace(movement, rounds=rounds)


def test_good_movement_passes_with_a_french_report():
    report = check(generate("individual", 5))
    assert report.ok and report.errors == [] and report.warnings == []
    text = report.text()
    assert "mouvement valide" in text
    assert "5 fois : étuis 1–20" in text
    assert "places en défense équilibrées" in text


def test_player_plays_an_etui_twice_is_an_error():
    m = generate("individual", 5)
    # table 1 at position 2 replays the étuis of position 1 (N1 stays at table 1)
    broken = _swap_round(m, 2, 1, boards=m.round_at(1, 1).boards)
    report = check(broken)
    assert not report.ok
    assert any("N1 joue deux fois l’étui 1" in e for e in report.errors)
    assert any("plusieurs tables" in e for e in report.errors)   # étuis 1–4 also at their own table
    assert "NON VALIDE" in report.text()


def test_repeated_meeting_is_a_warning():
    m = generate("individual", 7)
    r1 = m.round_at(1, 1)
    r2 = m.round_at(2, 1)
    # put S1 back opposite N1 at position 2 by swapping S players of two tables
    other = next(r for r in m.rounds_at(2) if "S1" in r.entrants)
    seats2 = dict(r2.seats)
    seats_o = dict(other.seats)
    seats2["S"], seats_o["S"] = seats_o["S"], seats2["S"]
    broken = _swap_round(m, 2, 1, seats=tuple(seats2.items()))
    broken = _swap_round(broken, 2, other.table, seats=tuple(seats_o.items()))
    report = check(broken)
    assert any("N1 et S1 se rencontrent 2 fois" in w for w in report.warnings)
    assert r1.seat_map["S"] == "S1"


def test_entrant_at_two_tables_and_missing_seat():
    m = generate("individual", 5, 2)
    seats = dict(m.round_at(1, 2).seats)
    seats["N"] = "N1"
    broken = _swap_round(m, 1, 2, seats=tuple(seats.items()))
    report = check(broken)
    assert any("N1 est attendu à deux tables" in e for e in report.errors)
    seats.pop("N")
    broken = _swap_round(m, 1, 2, seats=tuple(seats.items()))
    assert any("place N sans participant" in e for e in check(broken).errors)


def test_out_of_range_table_and_unknown_board():
    m = generate("individual", 5, 2)
    broken = _swap_round(m, 1, 2, table=9)
    assert any("table hors de 1…5" in e for e in check(broken).errors)
    broken = _swap_round(m, 1, 2, boards=(99, 100, 101, 102))
    assert any("l’étui 99 n’est pas dans la liste" in e for e in check(broken).errors)


def test_balance_warnings_when_every_etui_has_taker_north():
    m = generate("individual", 5)
    broken = replace(m, boards=tuple(Board(b.number, "N") for b in m.boards))
    report = check(broken)
    assert report.ok
    assert any("N1 attaque 20 étuis sur 20 (attendu 5)" in w for w in report.warnings)
    assert any("S1 attaque 0 étui" in w for w in report.warnings)
    assert any("places en défense déséquilibrées" in w for w in report.warnings)


def test_etui_played_once_is_reported():
    m = generate("individual", 5, 1)
    report = check(m)
    assert report.ok
    assert any("une seule fois" in w for w in report.warnings)


def test_quadrettes_incomplete_comparison_is_an_error():
    m = generate("quadrettes", 5)
    broken = replace(m, rounds=tuple(r for r in m.rounds if (r.position, r.table) != (4, 2)))
    report = check(broken)
    assert not report.ok
    assert any("comparaison incomplète" in e for e in report.errors)


def test_team_facing_itself():
    m = generate("quadrettes", 5)
    broken = _swap_round(m, 1, 1, seats=(("attack", "Q1"), ("defence", "Q1")))
    assert any("contre elle-même" in e for e in check(broken).errors)


def test_typed_in_movement_from_json():
    data = generate("triplettes", 5).to_dict()
    data["rounds"][3]["boards"] = data["rounds"][0]["boards"]   # position 1 table 4 gets table 1's étuis
    report = check(Movement.from_dict(data))
    assert not report.ok
    assert any("plusieurs tables" in e for e in report.errors)


def test_report_lists_at_most_twelve_cases_per_kind():
    m = generate("individual", 7)
    same = m.round_at(1, 1).boards
    broken = replace(m, rounds=tuple(replace(r, boards=same) for r in m.rounds))
    report = check(broken)
    assert any(e.startswith("… et ") for e in report.errors)
