"""The French display filters (no database)."""

import datetime
from decimal import Decimal
from fractions import Fraction

import pytest

from duplicate.web.filters import date_fr, fr_number


@pytest.mark.parametrize("value, decimals, shown", [
    (62.5, 2, "62,50"),
    (51.875, 2, "51,88"),  # half up, not banker's rounding
    (Fraction(200, 3), 2, "66,67"),
    (Decimal("-3.162"), 3, "−3,162"),  # the true minus sign, as on paper
    (12, 0, "12"),
    (-0.001, 2, "0,00"),
    (None, 2, "—"),
])
def test_fr_number(value, decimals, shown):
    assert fr_number(value, decimals) == shown


def test_fr_number_in_a_template():
    from flask import Flask, render_template_string

    from duplicate.web import filters

    app = Flask(__name__)
    filters.init_app(app)
    with app.app_context():
        assert render_template_string("{{ 62.5 | fr_number }} {{ 4 | fr_number(1) }}") == "62,50 4,0"


def test_date_fr():
    assert date_fr(datetime.date(2026, 3, 1)) == "1er mars 2026"
    assert date_fr(None) == ""


def test_line_label_speaks_french():
    from duplicate.web.filters import line_label

    assert [line_label(x) for x in ("N", "S", "E", "W", "NS", "EW", None)] == ["N", "S", "E", "O", "NS", "EO", ""]
