"""Relais: individual headcounts that are not a multiple of 4 (SPEC §7, issue 11 point 2).

Expected values come from the rule: n players → n // 4 full tables, n mod 4 rest at each position,
the extras are the lines N, S, E of table n // 4 + 1, nobody rests twice before all have rested once,
nobody plays an étui twice.
"""

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from duplicate.core.movements import Movement, MovementError, check, generate, individual_entrant_ids
from duplicate.core.movements.cards_data import guide_cards, personal_cards


def _audit(n: int, movement: Movement) -> None:
    """Every rule of the relais, checked directly on the rounds (not through the validator)."""
    ids = individual_entrant_ids(n)
    assert len(ids) == n == len(set(ids))
    assert movement.tables == n // 4 and movement.players == (n if n % 4 else None)
    rests: Counter = Counter()
    played: dict[str, set[int]] = {who: set() for who in ids}
    for position in range(1, movement.positions + 1):
        rounds = movement.rounds_at(position)
        assert len(rounds) == n // 4                      # every table full
        seated = [who for r in rounds for who in r.entrants]
        assert len(seated) == len(set(seated)) == 4 * (n // 4)
        resting = movement.resting_at(position)
        assert len(resting) == n % 4
        assert sorted(seated + list(resting)) == sorted(ids)
        for who in resting:
            rests[who] += 1
        if any(c == 2 for c in rests.values()):
            assert all(rests[who] >= 1 for who in ids)
        for r in rounds:
            for who in r.entrants:
                assert not played[who] & set(r.boards), (n, who, position)
                played[who] |= set(r.boards)


def test_entrant_ids_put_the_extras_on_lines_n_s_e_of_the_next_table():
    assert individual_entrant_ids(26)[-3:] == ["W6", "N7", "S7"]
    assert individual_entrant_ids(27)[-2:] == ["S7", "E7"]
    assert individual_entrant_ids(29)[-2:] == ["W7", "N8"]
    assert individual_entrant_ids(24)[-1] == "W6"
    assert individual_entrant_ids(13) == [f"J{k}" for k in range(1, 14)]
    with pytest.raises(MovementError, match="au moins 12 joueurs"):
        individual_entrant_ids(11)


def test_26_players_six_full_tables_two_rest_per_position():
    m = generate("individual", None, players=26)
    assert m.tables == 6
    assert m.resting_at(1) == ("N7", "S7")
    _audit(26, m)
    assert all(len(r.entrants) == 4 for r in m.rounds)
    assert "E7" not in m.entrants() and "W7" not in m.entrants()
    report = check(m)
    assert report.ok, report.text()
    assert "Relais par position : 1 : N7, S7 ; 2 :" in report.text()


def test_29_players_rainbow_one_rest_keeps_the_line():
    m = generate("individual", None, players=29)
    assert m.tables == 7 and m.resting_at(1) == ("N8",)
    _audit(29, m)
    # the Rainbow chain along line N: every resting player is of line N
    assert all(who.startswith("N") for p in range(1, 8) for who in m.resting_at(p))


def test_json_round_trip_carries_players_and_rests():
    m = generate("individual", None, players=27)
    data = m.to_dict()
    assert data["players"] == 27
    assert data["rests"][0] == {"position": 1, "entrants": ["N7", "S7", "E7"]}
    back = Movement.from_dict(data)
    assert back.rests == m.rests and back.players == 27


@pytest.mark.parametrize("n", list(range(12, 128)))
def test_every_headcount_is_clean(n):
    m = generate("individual", None, players=n)
    _audit(n, m)
    report = check(m, individual_entrant_ids(n))
    assert report.ok, report.text()


def test_601_players_with_the_positions_the_relais_allow():
    m = generate("individual", None, positions=60, players=601)
    _audit(601, m)
    assert check(m, individual_entrant_ids(601)).ok


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=12, max_value=200), st.integers(min_value=1, max_value=6))
def test_property_any_headcount_and_positions(n, positions):
    tables = n // 4
    try:
        m = generate("individual", None, positions=positions, players=n)
    except MovementError as error:   # more positions than the table count allows: a French message
        assert "positions" in str(error)
        return
    assert m.tables == tables
    _audit(n, m)
    assert check(m).ok


def test_validator_refuses_todays_phantom_seats_for_26_players():
    today = generate("individual", 7)        # ⌈26 / 4⌉ tables: E7 and W7 do not exist
    report = check(today, individual_entrant_ids(26))
    assert not report.ok
    assert any("E7 n’est pas inscrit" in e for e in report.errors)


def test_validator_flags_a_second_rest_before_everyone_rested():
    m = generate("individual", None, players=29)
    data = m.to_dict()
    # position 3: put N8 (rested at position 1) back on the relais instead of the player resting there
    second = data["rests"][2]["entrants"][0]
    for r in data["rounds"]:
        if r["position"] == 3:
            r["seats"] = {s: (second if w == "N8" else w) for s, w in r["seats"].items()}
    data["rests"][2]["entrants"] = ["N8"]
    report = check(Movement.from_dict(data))
    assert any("N8 passe une deuxième fois au relais (positions 1 et 3)" in e for e in report.errors)


def test_validator_flags_a_player_neither_seated_nor_resting_and_wrong_count():
    data = generate("individual", None, players=26).to_dict()
    data["rests"][1]["entrants"] = data["rests"][1]["entrants"][:1]
    report = check(Movement.from_dict(data))
    assert any("position 2 : 1 joueur au relais, 2 attendus" in e for e in report.errors)
    assert any("position 2 :" in e and "ni placé ni au relais" in e for e in report.errors)


def test_cards_show_relais():
    m = generate("individual", None, players=26)
    cards = {c["entrant"]: c for c in personal_cards(m)}
    assert cards["N7"]["positions"][0]["seat_fr"] == "relais"
    assert cards["N7"]["positions"][0]["table"] is None
    guide = guide_cards(m)
    assert guide[0]["relais"] == [{"position": 1, "entrants": ["N7", "S7"]}] + [
        {"position": p, "entrants": list(m.resting_at(p))} for p in range(2, m.positions + 1)]


@pytest.mark.parametrize("n", [601, 602, 603])
def test_a_150_table_evening_chooses_its_movement_in_under_two_seconds(n):
    """Issue 11 point 2: the web request that chooses the movement must answer quickly; CPU time,
    so that a loaded machine does not make the test flaky."""
    import time

    start = time.process_time()
    m = generate("individual", None, players=n)
    assert time.process_time() - start <= 2.0
    assert m.tables == 150 and m.positions >= 60
    _audit(n, m)
    assert check(m, individual_entrant_ids(n)).ok
