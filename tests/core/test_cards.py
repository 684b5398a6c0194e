"""Cards, seats and the interchange notation (SPEC §2)."""

import pytest
from hypothesis import given, strategies as st

from duplicate.core.cards import (
    BOUTS, PACK, SEATS, TOTAL_HALF_POINTS, Card, CardError, Seat, format_cards, parse_cards,
)


def test_pack_has_78_distinct_cards_worth_91_points():
    assert len(PACK) == len(set(PACK)) == 78
    assert TOTAL_HALF_POINTS / 2 == 91
    assert sum(card.is_trump for card in PACK) == 21
    assert {card.notation for card in BOUTS} == {"1T", "21T", "EX"}


@pytest.mark.parametrize("text, french, half_points", [
    ("KS", "R♠", 9), ("CC", "C♣", 5), ("10D", "10♦", 1), ("1H", "1♥", 1), ("QH", "D♥", 7),
    ("JD", "V♦", 3), ("21T", "21", 9), ("1T", "1", 9), ("12T", "12", 1), ("EX", "Excuse", 9),
])
def test_notation_french_display_and_value(text, french, half_points):
    card = Card.parse(text)
    assert card.notation == text
    assert card.french == french
    assert card.half_points == half_points


def test_every_card_round_trips_and_repr_pastes_back():
    for card in PACK:
        assert Card.parse(card.notation) is card
        assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("bad", ["", "1X", "0S", "22T", "11S", "ZZ", "K"])
def test_unknown_cards_are_refused_in_french(bad):
    with pytest.raises(CardError, match="carte inconnue"):
        Card.parse(bad)


@given(st.lists(st.sampled_from(PACK), unique=True))
def test_card_lists_round_trip(cards):
    text = " ".join(format_cards(cards))
    assert sorted(parse_cards(text)) == sorted(cards)
    assert parse_cards(format_cards(cards)) == tuple(sorted(cards))


def test_seats_turn_counter_clockwise():
    assert [Seat.N.right, Seat.W.right, Seat.S.right, Seat.E.right] == [Seat.W, Seat.S, Seat.E, Seat.N]
    assert all(seat.left.right is seat and seat.partner.partner is seat for seat in SEATS)


def test_defensive_places_of_taker_north():
    assert Seat.N.defensive_places() == {"devant": Seat.E, "milieu": Seat.S, "fond": Seat.W}


def test_seat_parse_refuses_unknown_orientation():
    assert Seat.parse(" s ") is Seat.S
    with pytest.raises(CardError, match="orientation inconnue"):
        Seat.parse("X")
