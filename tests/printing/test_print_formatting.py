"""French display of numbers, scores and cards on the printed matter."""

from duplicate.view_models import formatting as fmt


def test_numbers_use_a_decimal_comma_and_a_true_minus():
    assert fmt.number(75) == "75,00" and fmt.number(16.666666) == "16,67" and fmt.number(None) == "—"
    assert fmt.number(-0.001) == "0,00" and fmt.number(-2.5) == "−2,50"
    assert fmt.signed_number(12.8384) == "+12,838" and fmt.signed_number(-3.162) == "−3,162"
    assert fmt.score(106) == "+106" and fmt.score(-42) == "−42" and fmt.score(0) == "0" and fmt.score(None) == ""


def test_dates_ordinals_seats():
    assert fmt.french_date("2026-03-14") == "samedi 14 mars 2026"
    assert fmt.french_date("2026-08-01") == "samedi 1er août 2026"
    assert (fmt.ordinal(1), fmt.ordinal(2)) == ("1re", "2e")
    assert fmt.seat_name("W") == "Ouest" and fmt.seat_letter("W") == "O"
    assert [fmt.SEAT_COLOURS[s]["name"] for s in "NSEW"] == ["jaune", "bleu", "rouge", "vert"]


def test_cards_carry_their_symbol_and_colour():
    assert fmt.card("KS") == {"rank": "R", "symbol": "♠", "red": False, "trump": False, "text": "R♠"}
    assert fmt.card("CH")["red"] and fmt.card("10D")["rank"] == "10"
    assert fmt.card("21T")["text"] == "21" and fmt.card("EX")["text"] == "Excuse"
    lines = fmt.hand_by_suit(["KS", "1S", "QH", "21T", "1T", "EX"])
    assert lines[0]["ranks"] == "R 1" and lines[2]["ranks"] == "—" and lines[4]["ranks"] == "21 1 Excuse"


def test_diagram_labels_are_centred_by_their_advances():
    """``text_start`` does what SVG ``text-anchor="middle"`` did, letter by letter as WeasyPrint lays SVG
    text out.  Advances read by hand in the fonts' ``hmtx`` tables (2048 units an em): DejaVu Sans Bold
    « 1 » and « 0 » 1425 each; DejaVu Sans E 1294, x 1212, c 1126, u 1298, s 1067, e 1260 (7257)."""
    from duplicate.printing.diagram_grid import text_start

    # at 2.048 units a letter, one font unit is 0.001: « 10 » bold is 2.85 wide, « Excuse » 7.257
    assert abs(text_start("10", 2.048, True, 20) - (20 - 2.85 / 2)) < 1e-9
    assert abs(text_start("Excuse", 2.048, False, 20) - (20 - 7.257 / 2)) < 1e-9
    assert text_start("10", 2.048, False, 20) > text_start("10", 2.048, True, 20)  # regular digits are narrower
