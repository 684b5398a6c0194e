"""Each printed kind, read back with pdftotext: the étuis, names, notes and flags that must be there,
page counts, and pages that break between items (never inside one)."""

import re

import pytest

from duplicate.printing import KINDS, build_context, render_kind
from duplicate.printing.render import render_pdf
from print_helpers import page_count, page_texts, pdf_text


@pytest.fixture(scope="module")
def rendered(request):
    """Cache: (kind, options as a tuple) → PDF bytes, for the module."""
    return {}


def render(demo, kind, cache=None, **options):
    key = (kind, tuple(sorted((k, str(v)) for k, v in options.items())))
    if cache is not None and key in cache:
        return cache[key]
    pdf = render_kind(kind, demo["export"], demo["ranking"], **options)
    assert pdf.startswith(b"%PDF")
    if cache is not None:
        cache[key] = pdf
    return pdf


def test_every_kind_has_a_template_and_renders(demo, rendered):
    for kind in KINDS:
        options = {"boards": [1]} if kind in ("diagrams", "hand-records", "frequencies", "travellers") else {}
        text = pdf_text(render(demo, kind, **options))
        assert "Tournoi de démonstration" in text, kind


def test_labels_sheet_and_single(demo):
    pdf = render(demo, "labels")
    # 20 étuis × (1 case label + 4 pocket labels) = 100 labels, 24 per A4 sheet → 5 sheets
    assert page_count(pdf) == 5
    text = pdf_text(pdf)
    assert "Étui 20" in text and text.count("PRENEUR") == 20 and "DONNEUR" in text
    for seat in ("NORD", "SUD", "EST", "OUEST"):
        assert text.count(seat) >= 20
    assert "Preneur : Ouest" in text and "Donneur : Est" in text  # étui 1 (taker W, dealer E)
    assert "vert" in text
    single = render(demo, "labels", single=True, boards=[3])
    assert page_count(single) == 5
    grid = render(demo, "labels", columns=2, rows=5, boards=[1, 2])
    assert page_count(grid) == 1


def test_diagrams_one_page_per_etui_in_order(demo):
    pdf = render(demo, "diagrams", boards=[1, 2, 3])
    pages = page_texts(pdf, layout=False)
    assert len(pages) == 3
    for number, page in zip((1, 2, 3), pages):
        squeezed = re.sub(r"\s+", " ", page)
        # the band reads « ÉTUI n NORD »; held cards of the same strip may come between in reading order
        for title in ("NORD", "CHIEN"):
            assert re.search(rf"ÉTUI (\S+ ){{0,4}}{number} (\S+ ){{0,4}}{title}", squeezed), (number, title)
        for title in ("NORD", "SUD", "EST", "OUEST", "CHIEN", "Excuse", "Atouts"):
            assert title in page
        for colour in ("jaune", "bleu", "rouge", "vert", "gris"):
            assert f"diagramme {colour}" in page
    assert "PRENEUR" in pages[0] and "Donneur" in pages[0]


def test_blank_diagrams_when_the_cards_are_unknown(demo_copy):
    for board in demo_copy["export"]["boards"]:
        board.pop("hands"), board.pop("dog")
    pdf = render(demo_copy, "diagrams", boards=[5])
    assert "à entourer" in pdf_text(pdf)


def test_blank_travellers_are_prefilled(demo, rendered):
    pdf = render(demo, "travellers", rendered, scored=False)
    assert page_count(pdf) == 10  # two fiches a page, never one cut in two
    pages = page_texts(pdf)
    assert all(page.count("FICHE AMBULANTE") == 2 for page in pages)
    text = "\n".join(pages)
    assert re.search(r"Étui\s+20", text) and "Chien" in text and "vert" in text
    # étui 1 goes to tables 1, 5, 4, 3, 2 (SPEC §7), with its players in movement order
    first = pages[0].split("FICHE AMBULANTE")[1]
    tables = [int(m) for m in re.findall(r"^\s*(\d)\s+(\d)\s+N\d", first, re.M) for m in [m[1]]]
    assert tables == [1, 5, 4, 3, 2]
    assert "N1" in first and "O5" in first  # Ouest reads « O » on paper
    assert "Note preneur" not in text and "100,00" not in text and "+118" not in text


def test_scored_travellers_show_topage_and_corrections(demo, rendered):
    text = pdf_text(render(demo, "travellers", rendered, scored=True))
    raw = pdf_text(render(demo, "travellers", rendered, scored=True), layout=False)
    assert re.search(r"Note\s+preneur", raw) and re.search(r"Note\s+défense", raw)
    assert re.search(r"\+118\s+100,00\s+0,00", text)          # étui 1, table 1
    assert re.search(r"\+90\s+75,00\s+25,00", text)           # étui 1, table 3
    flat = re.sub(r"\s+", " ", raw)
    assert "donne annulée" in flat                            # étui 7, table 2
    assert "score rectifié par l’arbitre" in flat             # étui 14, table 4
    assert "16,67" in text and "83,33" in text                # thirds, two decimals, decimal comma


def test_route_sheets_one_per_player_with_qr(demo):
    urls = {p["id"]: f"https://tarot.example.org/feuille-de-route/jeton-{p['id']}" for p in demo["export"]["players"]}
    pdf = render_kind("route-sheets", demo["export"], demo["ranking"], route_urls=urls)
    pages = page_texts(pdf)
    assert len(pages) == 20
    assert all(page.count("FEUILLE DE ROUTE RÉCAPITULATIVE") == 1 for page in pages)
    assert all("Votre feuille en ligne" in page for page in pages)
    dubois = next(page for page in pages if "DUBOIS Nathalie" in page)
    # 43,125 exactly: half away from zero (SPEC §11)
    assert "43,13 %" in dubois and "25,00 %" in dubois and "49,17 %" in dubois and "ex æquo" in dubois
    assert dubois.count("Preneur") == 5 and "Défense (devant)" in dubois
    lefevre = next(page for page in pages if "LEFÈVRE Monique" in page)
    assert "Retard à la deuxième position" in lefevre and "2,50" in lefevre


def test_one_route_sheet(demo):
    pdf = render(demo, "route-sheets", entrants=["N5"])
    assert page_count(pdf) == 1 and "ROBERT Sylvie" in pdf_text(pdf)


def test_rankings(demo):
    text = pdf_text(render(demo, "ranking"))
    assert "Classement général" in text and "Classement alterné" in text
    assert re.search(r"1\s+N5\s+ROBERT Sylvie.*70,42", text)
    assert "ex æquo" in text and "44,79" in text
    assert "Pénalité : LEFÈVRE Monique (E3), 2,50" in text


def test_frequencies(demo):
    text = pdf_text(render(demo, "frequencies"))
    assert "Étui 1 " in text and "Étui 20" in text
    assert re.search(r"\+70\s+2\s+37,50\s+62,50\s+2, 4", text)   # étui 1: +70 made at tables 4 and 2
    assert "donne annulée" in text and "score rectifié" in text


def test_hand_records(demo):
    pdf = render(demo, "hand-records")
    assert page_count(pdf) == 10
    text = pdf_text(pdf)
    assert "Étui 1 · preneur Ouest · donneur Est" in text and "Chien" in text
    assert "♠" in text and "♥" in text and "Excuse" in text and "+118" in text


def test_guide_and_movement_cards(demo):
    guide = render(demo, "guide-cards")
    pages = page_texts(guide)
    assert len(pages) == 5 and all(f"Table {n}" in page for n, page in enumerate(pages, 1))
    assert re.search(r"1re\s+1\s*à\s*4", page_texts(guide, layout=False)[0]) and "→ table 2" in pages[0]
    cards = pdf_text(render(demo, "movement-cards"))
    assert cards.count("Joueur n°") == 20
    assert re.search(r"1re\s+1\s+NORD\s+1\s*à\s*4", cards)
    assert "OUEST" in cards and "5e" in cards
    assert "Code de confirmation" not in cards  # only with the codes, which the export does not carry


def test_movement_cards_carry_each_entrants_confirmation_code(demo):
    """Issue 28: each card prints its entrant's code (small) and what it is for; the whole 20 cards stay on
    their 3 pages (8 a page) and the longest card keeps its last position."""
    codes = {f"{seat}{t}": f"{t}{seat}{t:02d}"[:4].replace(seat, str("NSEW".index(seat))) for t in range(1, 6)
             for seat in "NSEW"}
    pdf = render(demo, "movement-cards", codes=codes)
    cards = " ".join(pdf_text(pdf).split())
    assert cards.count("Code de confirmation :") == 20 and f"Code de confirmation : {codes['N1']}" in cards
    assert "en défense, pour confirmer sur le téléphone de la table le score saisi par le Nord" in cards
    assert page_count(pdf) == page_count(render(demo, "movement-cards")) and cards.count("5e") == 20


def test_names_are_escaped(demo_copy):
    demo_copy["export"]["players"][0]["name"] = "<script>alert(1)</script> & Cie"
    who = demo_copy["export"]["players"][0]["id"]
    for ranking_row in demo_copy["ranking"]["ranking"]:
        if ranking_row["id"] == who:
            ranking_row["name"] = demo_copy["export"]["players"][0]["name"]
    sheet = pdf_text(render(demo_copy, "route-sheets", entrants=[who]))
    assert "<script>alert(1)</script> & Cie" in sheet
    ranking = "".join(pdf_text(render(demo_copy, "ranking"), layout=False).split())
    assert "<script>alert(1)</script>&Cie" in ranking  # a name over 28 characters wraps in its cell (spaces dropped)


def test_contexts_are_plain_data(demo):
    def plain(value):
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return value is None or isinstance(value, (str, int, float, bool))

    for kind in KINDS:
        context = build_context(kind, demo["export"], demo["ranking"])
        assert plain(context), kind
        assert isinstance(context["items"], list) and context["items"], kind


def test_an_unknown_kind_is_refused(demo):
    with pytest.raises(ValueError, match="inconnu"):
        render_kind("posters", demo["export"], demo["ranking"])
    with pytest.raises(ValueError):
        render_pdf("posters", {})


def test_route_sheet_qr_code_encodes_the_sheet_address(demo):
    """The QR image printed on a sheet is the code of its own address, module for module, with the
    fixed mask (`common.QR_PRINT_MASK`) instead of the one segno would score best."""
    import io

    import segno
    from pypdf import PdfReader

    from duplicate.printing.common import QR_PRINT_MASK

    urls = {p["id"]: f"https://tarot.example.org/feuille-de-route/jeton-{p['id']}" for p in demo["export"]["players"]}
    pdf = render(demo, "route-sheets", entrants=["N5", "E3"], route_urls=urls)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 2
    # WeasyPrint shares one resource dictionary between the pages: each page lists both images
    printed = {(image.image.size, image.image.convert("L").tobytes()) for image in reader.pages[0].images}
    expected = set()
    for entrant in ["N5", "E3"]:
        code = segno.make(urls[entrant], error="m", micro=False, mask=QR_PRINT_MASK)
        assert code.mask == QR_PRINT_MASK and code.version == 4
        pixels = bytes(0 if dark else 255 for row in code.matrix_iter(scale=1, border=2) for dark in row)
        expected.add((code.symbol_size(scale=1, border=2), pixels))
    assert printed == expected
