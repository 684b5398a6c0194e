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


def test_the_pack_is_built_in_canonical_order():
    # « Le jeu de tarot comprend 78 cartes » (seeds/rules-of-play.txt): per suit, in the order ♠ ♥ ♦ ♣,
    # the cards 1 to 10 then valet, cavalier, dame, roi; then the trumps 1 to 21; then the Excuse. Built
    # afresh (the module's PACK is made once, at import), read back in notation and in value.
    from duplicate.core.cards import _build_pack

    pack = _build_pack()
    suit = [str(rank) for rank in range(1, 11)] + ["J", "C", "Q", "K"]
    assert [card.notation for card in pack] == (
        [rank + letter for letter in "SHDC" for rank in suit] + [f"{rank}T" for rank in range(1, 22)] + ["EX"])
    # half-points: 1 to 10 and the plain trumps 0,5; valet 1,5; cavalier 2,5; dame 3,5; roi 4,5; bouts 4,5
    suit_values = [1] * 10 + [3, 5, 7, 9]
    assert [card.half_points for card in pack] == suit_values * 4 + [9] + [1] * 19 + [9] + [9]
    # sorting a hand gives this same order, whatever order it came in
    assert sorted(reversed(pack)) == list(pack)


@pytest.mark.parametrize("text, french", [
    ("KS", "R♠"), ("CH", "C♥"), ("QD", "D♦"), ("JC", "V♣"), ("7S", "7♠"), ("20T", "20"), ("EX", "Excuse"),
])
def test_french_names_of_fresh_cards(text, french):
    # A card made afresh computes its notation (cached per card) and French name when asked.
    suit = text[-1] if text != "EX" else "X"
    rank = {"K": 14, "C": 12, "Q": 13, "J": 11, "E": 0}.get(text[0], None)
    rank = rank if rank is not None else int(text[:-1])
    card = Card.make(suit, rank)
    assert (card.notation, card.french) == (text, french)
    assert card == Card.parse(text)


def test_card_and_seat_refusals_word_for_word():
    # The French messages are shown as they are to the arbiter: pinned whole.
    with pytest.raises(CardError) as refused:
        Card.parse("ZZ")
    assert str(refused.value) == "carte inconnue « ZZ »"
    with pytest.raises(CardError) as refused:
        Seat.parse("X")
    assert str(refused.value) == "orientation inconnue « X » (attendu N, S, E ou O/W)"
    # notation is read without surrounding spaces and in any case
    assert Card.parse(" ks ") is Card.parse("KS")


def test_the_default_taker_seat_and_the_seats_names():
    from duplicate.core.cards import LINE_NAMES, SEAT_NAMES, default_taker

    # SPEC §2: N, S, E, W in turn from étui 1
    assert [default_taker(n) for n in range(1, 10)] == ["N", "S", "E", "W", "N", "S", "E", "W", "N"]
    assert SEAT_NAMES == {"N": "Nord", "S": "Sud", "E": "Est", "W": "Ouest"}
    assert (LINE_NAMES["EW"], LINE_NAMES["attack"], LINE_NAMES["W"]) == ("Est-Ouest", "Attaque", "Ouest")
