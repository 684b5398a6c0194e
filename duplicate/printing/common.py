"""Small pieces every printed item shares: a list of étuis in words and the QR codes.  The tournament's
indexed facts (`Tournament`, `header`, the seat and room words, the arbiter's marks) live in
`duplicate.view_models.export`, read by the pages and the printouts alike."""

from __future__ import annotations

import functools


def board_list(numbers) -> str:
    """« 1 à 4 » for a run of consecutive étuis, « 1, 5, 9 » otherwise."""
    numbers = list(numbers)
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        return f"{numbers[0]} à {numbers[-1]}"
    return ", ".join(str(n) for n in numbers)


@functools.lru_cache(maxsize=1024)
def qr_svg(url: str, scale: int | None = 3) -> str:
    """An inline SVG QR code (segno, error correction M) for ``url``: ``scale`` pixels a module, or, with
    ``None``, no size at all (a viewBox only: its CSS box sizes it, as on the hall's address list).

    Kept per process (a text of about 2 KB; 1,024 of them, 2 MB): segno encodes a code in pure Python (4 to
    20 ms, scoring its 8 masks), and the same codes are asked again and again — the arbiter's table page
    draws every table's code at each visit, a route sheet's code is fetched by each of its readers. The
    text depends on ``url`` and ``scale`` only."""
    import segno

    code = segno.make(url, error="m", micro=False)
    if scale is None:
        return code.svg_inline(border=2, dark="#000", omitsize=True)
    return code.svg_inline(scale=scale, border=2, dark="#000")


#: The mask pattern of the printed QR codes.  ISO/IEC 18004 lets the encoder choose any of the 8 masks
#: (each one gives a valid code of the same data; the penalty score only tunes readability); segno
#: scores all 8 in pure Python, 5 of the 7 ms a code cost, i.e. 3 s of the 600 route sheets of a
#: 150-table evening.  Mask 2 (every third column) is the one segno's scoring picks for most of
#: our addresses (144 of 200 route-sheet addresses of 5-QR-version length).
QR_PRINT_MASK = 2


def qr_png_uri(url: str) -> str:
    """The QR code of ``url`` (segno, error correction M, mask :data:`QR_PRINT_MASK`, a 2-module border)
    as a ``data:`` URI of a PNG with one pixel a module, for the printouts: their CSS box sizes it and
    ``image-rendering: pixelated`` keeps the modules sharp.  Drawn by WeasyPrint as one image instead
    of an SVG path of hundreds of segments (that path cost 17 % of a route sheet's CPU time, profiled)."""
    import segno

    return segno.make(url, error="m", micro=False, mask=QR_PRINT_MASK).png_data_uri(scale=1, border=2)
