"""JSON round trip, malformed input, guide and personal cards, reach over 3..30 tables."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from duplicate.core.movements import (
    KINDS, Movement, MovementError, check, generate, guide_cards, personal_cards, reach)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(KINDS), st.integers(2, 20))
def test_json_round_trip(kind, tables):
    try:
        m = generate(kind, tables)
    except MovementError:
        return
    data = json.loads(json.dumps(m.to_dict()))
    assert data["format"] == "tarot-movement/1" and data["kind"] == kind
    assert Movement.from_dict(data) == m


def test_spec_shape_of_a_round():
    d = generate("individual", 7).to_dict()
    assert d["rounds"][0] == {"position": 1, "table": 1,
                              "seats": {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}, "boards": [1, 2, 3, 4]}
    assert d["boards"][:4] == [{"number": 1, "taker": "N"}, {"number": 2, "taker": "S"},
                               {"number": 3, "taker": "E"}, {"number": 4, "taker": "W"}]


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d["rounds"][2].pop("seats"), "tour n° 3"),
    (lambda d: d["rounds"][4].update(table="x"), "tour n° 5"),
    (lambda d: d["rounds"][1]["seats"].update(Z="N9"), "place « Z » inconnue"),
    (lambda d: d["rounds"][0].update(boards=[]), "tour n° 1"),
    (lambda d: d.update(kind="bridge"), "type de mouvement « bridge » inconnu"),
    (lambda d: d.update(rounds="nope"), "rounds"),
])
def test_malformed_input_names_the_faulty_round(mutate, message):
    d = generate("individual", 5).to_dict()
    mutate(d)
    with pytest.raises(MovementError, match=message):
        Movement.from_dict(d)


def test_guide_cards_say_where_etuis_go_next():
    m = generate("individual", 5)
    cards = guide_cards(m)
    table1 = cards[0]
    assert table1["table"] == 1
    first = table1["positions"][0]
    assert first["seats"] == {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}
    assert first["boards"] == [1, 2, 3, 4]
    assert first["boards_next_table"] == 5          # étuis −1 table: 1 → 5
    assert first["players_next_table"] == {"N": 1, "S": 2, "E": 3, "W": 4}
    assert table1["positions"][-1]["boards_next_table"] is None


def test_personal_cards_like_the_seed_fiche_individuelle():
    m = generate("individual", 5)
    cards = {c["entrant"]: c for c in personal_cards(m)}
    assert len(cards) == 20
    e2 = cards["E2"]["positions"]
    assert [row["table"] for row in e2] == [2, 4, 1, 3, 5]
    assert {row["seat_fr"] for row in e2} == {"Est"}
    assert e2[0]["next_table"] == 4
    small = {c["entrant"]: c for c in personal_cards(generate("individual", 4))}
    assert len(small) == 16
    assert len({row["seat"] for row in small["J1"]["positions"]}) > 1


def test_quadrette_cards_have_roles_and_rest_positions():
    m = generate("quadrettes", 4)
    cards = personal_cards(m)
    roles = {(c["entrant"], c["role"]) for c in cards}
    assert ("Q1", "attack") in roles and ("Q1", "defence") in roles
    q1 = next(c for c in cards if (c["entrant"], c["role"]) == ("Q1", "defence"))
    assert sum(1 for row in q1["positions"] if row["table"] is None) == 1   # meets the phantom once


def test_every_count_3_to_30_every_kind_is_valid_or_explained():
    for kind in KINDS:
        for tables in range(3, 31):
            clean, top = reach(kind, tables)
            if top == 0:
                with pytest.raises(MovementError):
                    generate(kind, tables)
                continue
            m = generate(kind, tables, top)
            assert check(m).ok
            if clean == top and top > 1 and kind != "team_match":
                assert check(m).stats["repeated_meetings"] == 0
