"""The printed background of every diagram (SPEC §8): the 78-card grid with every card in its « not
held » look, as one high-resolution image shared by all the diagrams of a document.

Why an image: WeasyPrint lays out and draws each SVG ``<text>`` on its own (about a millisecond
each), and a diagram page holds five grids of 78 cards, so drawing every card as text cost about
half a second a page (profiled: ``svg/text.py`` then colour parsing, for 415 text nodes a page).  The
grid is the same on every diagram; only the held cards change.  So the grid is drawn once, with
Pillow and the same DejaVu font, at 600 dpi (a raster embedded once per PDF and referenced by every
diagram), and each diagram draws over it only what is its own: the held cards (circle + bold
label, as text), the row label « Atouts », the Excuse, and the frame in the orientation's colour.

The geometry (millimetres) is the one of the ``diagram`` macro in ``templates/print/_macros.html``:
a 166 × 49 mm grid, a 13 mm head column for the suit symbols, 14 card columns, 6 rows.

The labels drawn over the grid are centred in their cells by :func:`text_start` rather than by SVG
``text-anchor="middle"``: WeasyPrint draws every anchored text into a PDF group of its own (a form
XObject, then shifted by half the text's width), 82 a page, which made a 28-page document 1.2 MB
instead of 0.35 MB and its drawing slower (profiled, issue 15).
"""

from __future__ import annotations

import functools
import os
import tempfile

from duplicate.paths import REPO_ROOT

WIDTH_MM, HEIGHT_MM, HEAD_MM, COLUMNS, ROWS = 166.0, 49.0, 13.0, 14, 6
DPI = 600
#: Bumped whenever the drawing changes, so that a stale cached image is never reused.
VERSION = 2
FONT = os.path.join(REPO_ROOT, "static", "fonts", "DejaVuSans.ttf")
BOLD_FONT = os.path.join(REPO_ROOT, "static", "fonts", "DejaVuSans-Bold.ttf")
STRIPE, SUIT_RED, SUIT_BLACK, FAINT_RED, FAINT_BLACK = "#f4f4f4", "#d0021b", "#000000", "#e59aa3", "#8a8a8a"


def _px(mm: float) -> float:
    return mm * DPI / 25.4


def draw(rows: list[dict]):
    """The grid as a Pillow image, from the rows of ``contexts._layout`` (their texts and colours; the
    held flags are ignored: every card is drawn « not held »).  The Excuse (the wide cell) and the row
    labels are left out: the SVG prints them as text, so that they stay searchable in the PDF."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (round(_px(WIDTH_MM)), round(_px(HEIGHT_MM))), "white")
    pen = ImageDraw.Draw(image)
    cw, rh = (WIDTH_MM - HEAD_MM) / COLUMNS, HEIGHT_MM / ROWS
    cards = ImageFont.truetype(FONT, round(_px(rh * 0.50)))
    suits = ImageFont.truetype(FONT, round(_px(rh * 0.78)))
    for index, row in enumerate(rows):
        y = index * rh
        if index % 2 == 0:
            pen.rectangle([0, _px(y), image.width, _px(y + rh)], fill=STRIPE)
        if row["symbol"]:
            pen.text((_px(HEAD_MM / 2), _px(y + rh * 0.74)), row["symbol"], font=suits, anchor="ms",
                     fill=SUIT_RED if row["red"] else SUIT_BLACK)
        x = HEAD_MM
        for cell in row["cells"]:
            width = cw * (2 if cell["wide"] else 1)
            if not cell["wide"]:
                pen.text((_px(x + width / 2), _px(y + rh * 0.68)), cell["text"], font=cards, anchor="ms",
                         fill=FAINT_RED if row["red"] else FAINT_BLACK)
            x += width
    return image


@functools.lru_cache(maxsize=None)
def _advances(path: str) -> tuple[dict[int, int], int]:
    """Code point → advance width (font units) of a TrueType font, and its units per em."""
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    metrics = font["hmtx"]
    return {code: metrics[glyph][0] for code, glyph in font.getBestCmap().items()}, font["head"].unitsPerEm


def text_start(text: str, size: float, bold: bool, centre: float) -> float:
    """The x where ``text`` (« Tarot Sans », i.e. DejaVu Sans, ``size`` user units, bold or not) starts
    so that it is centred on ``centre`` — what ``text-anchor="middle"`` does.  WeasyPrint lays SVG text
    out letter by letter, so the width is the sum of the letters' advances, without kerning."""
    advances, units = _advances(BOLD_FONT if bold else FONT)
    return centre - sum(advances.get(ord(letter), 0) for letter in text) * size / units / 2


def url(rows: list[dict]) -> str:
    """``file://`` URL of the grid image, drawn on first use and kept in the temporary directory
    (one file per version and font, written atomically, so concurrent processes may share it)."""
    folder = os.path.join(tempfile.gettempdir(), "tarot-duplicate")
    path = os.path.join(folder, f"diagram-grid-v{VERSION}-{DPI}dpi-{int(os.path.getmtime(FONT))}.png")
    if not os.path.exists(path):
        os.makedirs(folder, exist_ok=True)
        part = f"{path}.{os.getpid()}.part"
        from PIL import Image

        # 64 colours are enough for the anti-aliasing; kept as RGB, because WeasyPrint converts a palette
        # image to RGB and compresses it again in every document (0.2 s of CPU a document, issue 15)
        quantized = draw(rows).convert("P", palette=Image.Palette.ADAPTIVE, colors=64)
        quantized.convert("RGB").save(part, format="PNG", optimize=True)
        os.replace(part, path)
    return "file://" + path
