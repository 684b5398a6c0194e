"""Rendering: a context (plain data) through its template in ``templates/print/`` to PDF with WeasyPrint.

* The Jinja environment is our own (no Flask application needed, so that child processes and the CLI
  render the same way); autoescaping is on, so a player named ``<script>`` prints literally.
* Fonts are named explicitly: ``_base.html`` declares the DejaVu files shipped in ``static/fonts/``
  (DejaVu has the suit symbols ♠♥♦♣) under the family « Tarot Sans », so a page looks the same on any
  machine whatever fonts are installed.
* :func:`merge` concatenates PDFs (chunks of a big batch) with pypdf.
"""

from __future__ import annotations

import base64
import gc
import io
import os
from typing import Iterable, Mapping

from duplicate import french
from duplicate.paths import REPO_ROOT

TEMPLATE_DIR = os.path.join(REPO_ROOT, "templates")
FONT_DIR = os.path.join(REPO_ROOT, "static", "fonts")

#: printed kind → template (one template per printed item)
TEMPLATES = {
    "labels": "print/labels.html",
    "diagrams": "print/diagrams.html",
    "travellers": "print/travellers.html",
    "guide-cards": "print/guide_cards.html",
    "movement-cards": "print/movement_cards.html",
    "route-sheets": "print/route_sheets.html",
    "ranking": "print/ranking.html",
    "frequencies": "print/frequencies.html",
    "hand-records": "print/hand_records.html",
    "team-sheet": "print/team_sheet.html",
    "free-cards": "print/free_personal_cards.html",
    "free-orientation": "print/free_orientation.html",
    "free-table-cards": "print/free_table_cards.html",
    "free-sheets": "print/free_sheets.html",
    "free-ranking": "print/free_ranking.html",
    "free-pcn": "print/free_pcn.html",
}

_ENV = None


def environment():
    """The Jinja environment of the print templates (autoescape on, strict undefined)."""
    global _ENV
    if _ENV is None:
        from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

        from .common import qr_png_uri
        from .diagram_grid import text_start

        env = Environment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=select_autoescape(default=True),
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
        env.filters["place"] = french.place_label  # W2 → « O2 » on paper (SPEC §11)
        env.filters["ranked"] = french.ranked  # « 2 équipes classées »
        env.filters["counted"] = french.counted  # « 2 lignes refusées », « 1 joueur »
        env.filters["unit_word"] = french.unit_word  # « 0,50 point », « 2,50 points »
        env.filters["quarter"] = french.quarter_label  # « 1er quart temps »
        env.globals["font_url"] = lambda name: "file://" + os.path.join(FONT_DIR, name)
        # a route sheet's QR code is made while its chunk renders (in the batch's child processes), not
        # while the context of all the sheets is built in the parent: 600 codes cost ≈ 4 s of CPU there
        env.filters["qr_png"] = lambda url: qr_png_uri(url) if url else ""
        env.filters["svg_uri"] = svg_data_uri
        env.globals["text_start"] = text_start
        _ENV = env
    return _ENV


def svg_data_uri(svg: str) -> str:
    """An SVG document as a ``data:`` URI, to print it as an ``<img>`` rather than inline.

    Inline, every element of the SVG is an element of the HTML page: WeasyPrint's HTML parser reads
    it and its CSS cascade styles it before the SVG is drawn.  As an image, the SVG is read once by
    an XML parser and drawn the same.  For the diagrams (five SVGs of about 90 elements a page) the
    inline way cost 40 % of a page (profiled, issue 15: the HTML parser's time, then the cascade)."""
    return "data:image/svg+xml;base64," + base64.b64encode(str(svg).encode("utf-8")).decode("ascii")


def render_html(kind: str, context: Mapping) -> str:
    if kind not in TEMPLATES:
        raise ValueError(f"document inconnu « {kind} »")
    return environment().get_template(TEMPLATES[kind]).render(kind=kind, **context)


#: Young-generation threshold of the garbage collector while WeasyPrint works: a render allocates
#: hundreds of thousands of small objects, and with the default (700) the collector ran so often that
#: it cost 10–15 % of a diagram page (profiled: the time showed up in tinycss2's ``Color``).
RENDER_GC_THRESHOLD = 50_000


def html_to_pdf(html: str) -> bytes:
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    font_config = FontConfiguration()
    threshold = gc.get_threshold()
    gc.set_threshold(RENDER_GC_THRESHOLD, *threshold[1:])
    try:
        return HTML(string=html, base_url=REPO_ROOT).write_pdf(font_config=font_config)
    finally:
        gc.set_threshold(*threshold)


def render_pdf(kind: str, context: Mapping) -> bytes:
    """The PDF (bytes) of one printed kind for one context."""
    return html_to_pdf(render_html(kind, context))


def merge(parts: Iterable[bytes | str | os.PathLike]) -> bytes:
    """Concatenate PDFs (bytes or file paths) into one document."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        source = io.BytesIO(part) if isinstance(part, bytes) else part
        writer.append(source)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
