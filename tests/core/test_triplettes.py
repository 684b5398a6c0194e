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
