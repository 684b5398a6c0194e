"""The one French formatter (SPEC §11): typed numbers, the rounding rule, starting places, times.

Expected values are worked out by hand from the rule: two decimals, half away from zero, on the exact
value; comma; true minus sign U+2212.
"""

import datetime
from fractions import Fraction

import pytest

from duplicate import french


@pytest.mark.parametrize("typed, value", [
    ("2,5", Fraction(5, 2)),
    ("2.5", Fraction(5, 2)),
    ("33,3", Fraction(333, 10)),
    ("−2,5", Fraction(-5, 2)),        # U+2212
    ("- 3", -3),
    ("+4", 4),
    (" 1 000,5 ", Fraction(2001, 2)),
    ("1\u202f000", 1000),             # narrow no-break space, as French software writes thousands
    (",5", Fraction(1, 2)),
    ("0", 0),
])
def test_a_typed_number_is_read_the_french_way(typed, value):
    assert french.parse_number(typed) == value


@pytest.mark.parametrize("typed", ["", "  ", "abc", "2,5,1", "1.000,5", "1e3", "nan", "inf", "--2", "2-"])
def test_anything_else_is_refused_in_french(typed):
    with pytest.raises(french.NumberError, match="nombre"):
        french.parse_number(typed)


def test_a_whole_number_refuses_decimals():
    assert french.parse_whole_number(" 12 ") == 12
    assert french.parse_whole_number("−3") == -3
    with pytest.raises(french.NumberError, match="entier"):
        french.parse_whole_number("2,5")


@pytest.mark.parametrize("value, shown", [
    (58.125, "58,13"),               # the issue: the screen said 58,13, the PDF 58,12
    (Fraction(465, 8), "58,13"),     # the same exact value, as the core holds it
    (-0.125, "−0,13"),               # half away from zero on the negative side too
    (Fraction(-1, 8), "−0,13"),
    (0.145, "0,15"),                 # a float is read as the decimal it prints: 0,145 → 0,15
    (Fraction(200, 3), "66,67"),
    (75, "75,00"),
    (-0.004, "0,00"),                # never « −0,00 »
    (None, "—"),
])
def test_one_rounding_rule(value, shown):
    assert french.number(value) == shown


def test_signed_numbers_keep_three_decimals_for_pm():
    assert french.signed_number(Fraction(25677, 2000)) == "+12,839"  # 12,8385 → away from zero
    assert french.signed_number(-3.1625) == "−3,163"
    assert french.signed_number(0) == "0,000"


@pytest.mark.parametrize("ident, shown", [
    ("W2", "O2"), ("EW3", "EO3"), ("W", "O"), ("EW", "EO"), ("N1", "N1"), ("NS4", "NS4"), ("E7", "E7"),
    ("T12", "T12"), (None, ""),
])
def test_starting_places_read_o_and_eo(ident, shown):
    assert french.place_label(ident) == shown


def test_times_are_shown_in_the_tournament_time_zone():
    winter = datetime.datetime(2026, 3, 14, 20, 5, tzinfo=datetime.timezone.utc)
    summer = datetime.datetime(2026, 7, 14, 20, 5)  # naive: SQLite gives stored UTC moments back naive
    assert french.local_time(winter) == "14/03/2026 21:05"              # Europe/Paris, UTC+1
    assert french.local_time(summer) == "14/07/2026 22:05"              # UTC+2 in summer
    assert french.local_time(winter, "America/Martinique") == "14/03/2026 16:05"
    assert french.local_time(winter, "Pas/Une_Zone") == "14/03/2026 21:05"
    assert french.local_time(None) == ""


def test_the_tournament_time_zone_defaults_to_paris():
    class Stub:
        settings = {}

    assert french.timezone_of(Stub()) == "Europe/Paris"
    Stub.settings = {"timezone": "Indian/Reunion"}
    assert french.timezone_of(Stub()) == "Indian/Reunion"
    assert french.timezone_of(None) == "Europe/Paris"


@pytest.mark.parametrize("typed, ident", [("O2", "W2"), ("o2", "W2"), (" EO3 ", "EW3"), ("W2", "W2"), ("n1", "N1"),
                                          ("NS4", "NS4")])
def test_a_typed_starting_place_reads_o_as_w(typed, ident):
    assert french.place_id(typed) == ident
    assert french.place_id(french.place_label(ident)) == ident


def test_places_in_a_message_read_o_and_eo():
    assert (french.places_in_text("W2 joue l’étui 3 deux fois ; EW3 contre NS1 ; W12, WEST, W0, NW2")
            == "O2 joue l’étui 3 deux fois ; EO3 contre NS1 ; O12, WEST, W0, NW2")


def test_scores_are_written_as_on_a_fiche():
    from duplicate import french

    assert [french.score(v) for v in (106, -42, 0, None)] == ["+106", "−42", "0", "—"]
    assert french.score(None, empty="") == ""


def test_a_long_date_the_french_way():
    assert french.long_date(datetime.date(2026, 3, 1)) == "1er mars 2026"
    assert french.long_date(datetime.date(2026, 11, 23), weekday=True) == "lundi 23 novembre 2026"
    assert french.long_date(datetime.date(2026, 2, 1), weekday=True) == "dimanche 1er février 2026"
