"""Nothing runs off the paper (issue 15, point 7), and the route sheet's fixed-pitch rows
(``printing/text_table.py``) line up.

The overflow check lays the HTML out with WeasyPrint and walks every box of every page: each must lie
within the page's width (a text cut by ``overflow: hidden`` or pushed past the margin shows as a box
reaching beyond it).  A long name (« Marie-Thérèse de La Rochefoucauld-Liancourt »), a long club and
a long tournament name are the hard case.  In the ranking, a name over 28 characters or a club over 24
wraps in a narrower cell (the others stay on one line, as the ranking tests read them).
"""

import pytest

from duplicate.printing import build_context, text_table
from duplicate.printing.render import render_html
from print_helpers import page_count, pdf_text

LONG = "Marie-Thérèse de La Rochefoucauld-Liancourt"
CLUB = "Association tarotique de Saint-Rémy-de-Provence et environs"


def test_text_table_pads_each_column_to_its_longest_cell():
    header = ["Étui", "Rôle", "Score"]
    rows = [["9", "Preneur", "−138"], ["10", "Défense (milieu)", "+58"]]
    # widths: max(4, 1, 2) = 4; max(4, 7, 16) = 16; max(5, 4, 3) = 5
    assert text_table.widths(header, rows) == [4, 16, 5]
    sizes = [4, 16, 5]
    # « 9 » right-aligned in 4, two spaces, « Preneur » left in 16, two spaces, « −138 » right in 5
    assert text_table.line(rows[0], sizes, {0, 2}) == "   9  Preneur            −138"
    assert text_table.line(rows[1], sizes, {0, 2}) == "  10  Défense (milieu)    +58"
    # every row of a table is as long as the header: the columns line up in a fixed-pitch font
    assert len(text_table.line(header, sizes, {0, 2})) == len(text_table.line(rows[1], sizes, {0, 2})) == 4 + 2 + 16 + 2 + 5


def _long_names(demo_copy):
    export, ranking = demo_copy["export"], demo_copy["ranking"]
    player = export["players"][0]
    player["name"], player["club"] = LONG, CLUB
    for row in ranking["ranking"]:
        if row["id"] == player["id"]:
            row["name"] = LONG
    export["name"] = "Championnat départemental de tarot duplicate des Bouches-du-Rhône"
    return export, ranking, player["id"]


def _boxes(box):
    yield box
    for child in getattr(box, "children", []) or []:
        yield from _boxes(child)


@pytest.mark.parametrize("kind", ["route-sheets", "movement-cards", "guide-cards", "travellers", "ranking"])
def test_no_box_runs_off_the_page(demo_copy, kind):
    from weasyprint import HTML

    export, ranking, who = _long_names(demo_copy)
    options = {"route-sheets": {"entrants": [who]}, "travellers": {"boards": [1, 2]}}.get(kind, {})
    html = render_html(kind, build_context(kind, export, ranking, **options))
    document = HTML(string=html, base_url=".").render()
    for page in document.pages:
        width = page.width
        for box in _boxes(page._page_box):
            right = box.position_x + box.margin_width()
            # 0.5 px of rounding; a cut name or a column past the margin overshoots by millimetres
            assert right <= width + 0.5, f"{kind}: {type(box).__name__} ends at {right:.1f} px > page {width:.1f} px"


def test_a_long_named_players_route_sheet_is_one_page_with_the_whole_name(demo_copy):
    from duplicate.printing import render_kind

    export, ranking, who = _long_names(demo_copy)
    pdf = render_kind("route-sheets", export, ranking, entrants=[who])
    assert page_count(pdf) == 1
    text = pdf_text(pdf, layout=False)
    assert LONG in text and CLUB in text
