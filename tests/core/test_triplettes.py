"""Triplette badges, attack rotation and duplication duty (SPEC §5)."""

import pytest
from hypothesis import given, strategies as st

from duplicate.core.triplettes import (
    COLOURS, attack_rotation, attackers, badge_colours, draw_first_colour, duplication_duty,
)

MEMBERS = [("p1", "MARTIN", "Paul"), ("p2", "Évrard", "Anne"), ("p3", "DUPONT", "Jean")]


def test_badges_follow_surname_order_ignoring_accents():
    assert badge_colours(MEMBERS) == {"p3": "Bleu", "p2": "Blanc", "p1": "Rouge"}
    with pytest.raises(ValueError, match="trois joueurs"):
        badge_colours(MEMBERS[:2])


def test_rotation_from_the_drawn_colour_and_across_sessions():
    assert attack_rotation("Blanc", 4) == ["Blanc", "Rouge", "Bleu", "Blanc"]
    first_session = attack_rotation("Rouge", 5)
    second_session = attack_rotation("Rouge", 3, already_attacked=5)
    assert first_session + second_session == attack_rotation("Rouge", 8)
    assert attackers(MEMBERS, "Bleu", 3) == ["p3", "p2", "p1"]


def test_draw_is_reproducible():
    assert draw_first_colour("séance 1") == draw_first_colour("séance 1") in COLOURS
    assert {draw_first_colour(str(i)) for i in range(30)} == set(COLOURS)


def test_duplication_duty():
    assert [duplication_duty(b) for b in (1, 2, 3, 24)] == ["NS", "EW", "NS", "EW"]


@given(st.sampled_from(COLOURS), st.integers(0, 60))
def test_each_player_attacks_a_third_of_the_time(first, count):
    rotation = attack_rotation(first, 3 * count)
    assert all(rotation.count(colour) == count for colour in COLOURS)


# --- one place for a member's badge and for who attacks each étui (plan_attacks) -----------------------

from duplicate.core.triplettes import Triplette, member_badges, plan_attacks, split_name  # noqa: E402


def test_member_badges_by_surname_then_first_name_accents_ignored():
    # keys (surname, first name) without accents or case: (dupont, albert) < (dupont, zoe) < (evrard, anne)
    assert member_badges([("a", "ÉVRARD Anne"), ("b", "DUPONT Zoé"), ("c", "DUPONT Albert")]) == {
        "c": "Bleu", "b": "Blanc", "a": "Rouge"}
    # surnames « de » < « de la tour » (prefix first) < « delain » (space sorts before « l »)
    assert member_badges([("x", "DELAIN Marc"), ("y", "DE LA TOUR Luc"), ("z", "DE Jean")]) == {
        "z": "Bleu", "y": "Blanc", "x": "Rouge"}
    assert split_name("DE LA TOUR Jean-Marc") == ("DE LA TOUR", "Jean-Marc")
    assert split_name("Évrard Anne") == ("Évrard Anne", "")  # no upper-case surname: sorted as a whole


# Two positions. Takers: étui 1 N, 2 E (given), 3 E, 4 W, 5 N, 6 S, 7 E, 8 W (default N, S, E, W).
# NS1 attacks étui 1 at position 1, then 5 and 6 at position 2; EW1 attacks 2, 3, 4 at position 1.
# Rounds are listed out of order (position 2 first, its étuis backwards): play order is position, étui.
ROUNDS = [
    {"position": 2, "table": 1, "seats": {"NS": "NS1", "EW": "EW2"}, "boards": [8, 7, 6, 5]},
    {"position": 1, "table": 1, "seats": {"NS": "NS1", "EW": "EW1"}, "boards": [1, 2, 3, 4]},
]
TAKERS = {2: "E"}
NAMES = (("1", "MARTIN Paul"), ("2", "ÉVRARD Anne"), ("3", "DUPONT Jean"))  # badges: 3 Bleu, 2 Blanc, 1 Rouge


def _who(plan, team):
    return [(board, a.colour, a.player) for (board, t), a in sorted(plan.items()) if t == team]


@pytest.mark.parametrize("first, expected", [
    # NS1's turns 0, 1, 2 on étuis 1, 5, 6: the colours from the drawn one, Bleu → Blanc → Rouge → Bleu
    ("Bleu", [(1, "Bleu", "3"), (5, "Blanc", "2"), (6, "Rouge", "1")]),
    ("Blanc", [(1, "Blanc", "2"), (5, "Rouge", "1"), (6, "Bleu", "3")]),
    ("Rouge", [(1, "Rouge", "1"), (5, "Bleu", "3"), (6, "Blanc", "2")]),
])
def test_plan_attacks_each_first_colour(first, expected):
    teams = {"NS1": Triplette(first, NAMES), "EW1": Triplette("Rouge", NAMES), "EW2": Triplette("Bleu", NAMES)}
    plan = plan_attacks(teams, ROUNDS, TAKERS)
    assert _who(plan, "NS1") == expected
    # EW1, first colour Rouge, turns 0, 1, 2 on étuis 2, 3, 4: Rouge, Bleu, Blanc
    assert _who(plan, "EW1") == [(2, "Rouge", "1"), (3, "Bleu", "3"), (4, "Blanc", "2")]
    assert plan[(5, "NS1")].position == 2 and plan[(5, "NS1")].turn == 1


def test_plan_attacks_runs_on_across_sessions_and_skips_a_phantom():
    # 4 attacks in the first séance from Bleu (Bleu, Blanc, Rouge, Bleu): the second séance starts at Blanc
    teams = {"NS1": Triplette("Bleu", NAMES, attacked_before=4), "EW1": Triplette("Bleu", NAMES),
             "EW2": Triplette("Bleu", NAMES)}
    assert _who(plan_attacks(teams, ROUNDS, TAKERS), "NS1") == [(1, "Blanc", "2"), (5, "Rouge", "1"), (6, "Bleu", "3")]
    assert plan_attacks(teams, ROUNDS, TAKERS)[(6, "NS1")].turn == 6
    # EW2 is a phantom (not a triplette of the tournament): position 2 is not played, NS1 attacks étui 1 only
    del teams["EW2"]
    assert _who(plan_attacks(teams, ROUNDS, TAKERS), "NS1") == [(1, "Blanc", "2")]
    # no first colour drawn yet: no plan
    assert plan_attacks({"NS1": Triplette(None, NAMES), "EW1": Triplette(None, NAMES)}, ROUNDS, TAKERS) == {}


def test_split_name_keeps_the_last_word_as_first_name_and_every_first_name_word():
    assert split_name("DUPONT MARTIN") == ("DUPONT", "MARTIN")  # all in capitals: the last word is the first name
    assert split_name("DUPONT Jean Marc") == ("DUPONT", "Jean Marc")
    assert split_name("DUPONT Jean ") == ("DUPONT", "Jean ")  # a trailing space stays with the first name


def test_each_attack_names_its_etui_position_triplette_turn_colour_and_wearer():
    from duplicate.core.triplettes import Attack

    teams = {"NS1": Triplette("Bleu", NAMES), "EW1": Triplette("Rouge", NAMES), "EW2": Triplette("Bleu", NAMES)}
    plan = plan_attacks(teams, ROUNDS, TAKERS)
    assert plan[(5, "NS1")] == Attack(5, 2, "NS1", 1, "Blanc", "2")  # NS1's second attack: Blanc, ÉVRARD
    assert plan[(2, "EW1")] == Attack(2, 1, "EW1", 0, "Rouge", "1")  # EW1's first: its drawn Rouge, MARTIN


def test_a_triplette_without_a_colour_does_not_stop_the_others():
    # play order of the rounds as listed: EW2 (étuis 8, 7) comes first, without a colour drawn
    teams = {"NS1": Triplette("Bleu", NAMES), "EW1": Triplette("Rouge", NAMES), "EW2": Triplette(None, NAMES)}
    plan = plan_attacks(teams, ROUNDS, TAKERS)
    assert {team for _, team in plan} == {"NS1", "EW1"} and len(plan) == 6


def test_an_incomplete_triplette_has_colours_but_no_wearer():
    teams = {"NS1": Triplette("Bleu", NAMES[:2]), "EW1": Triplette("Rouge", NAMES), "EW2": Triplette("Bleu", NAMES)}
    assert _who(plan_attacks(teams, ROUNDS, TAKERS), "NS1") == [(1, "Bleu", None), (5, "Blanc", None), (6, "Rouge", None)]


def test_a_round_without_etuis_adds_no_attack():
    teams = {"NS1": Triplette("Bleu", NAMES), "EW1": Triplette("Rouge", NAMES), "EW2": Triplette("Bleu", NAMES)}
    empty = {"position": 3, "table": 1, "seats": {"NS": "NS1", "EW": "EW1"}}
    assert plan_attacks(teams, [*ROUNDS, empty], TAKERS) == plan_attacks(teams, ROUNDS, TAKERS)
