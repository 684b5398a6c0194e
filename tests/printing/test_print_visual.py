"""Layout regressions: page 1 of each kind, rendered to PNG (pdftoppm, 50 dpi), compared with the
reference in ``references/`` within a tolerance (share of pixels that differ clearly).

After an intended layout change, regenerate the references and look at them before committing::

    UPDATE_PRINT_REFERENCES=1 .venv/bin/python -m pytest tests/printing/test_print_visual.py
"""

import os
import pathlib
import shutil

import pytest

from duplicate.printing import render_kind
from print_helpers import difference_ratio, page_png

REFERENCES = pathlib.Path(__file__).parent / "references"
TOLERANCE = 0.004  # 0.4 % of the pixels: anti-aliasing noise passes, a moved block or a changed line does not
URLS = {"N1": "https://tarot.example.org/feuille-de-route/jeton-fixe-N1"}
CASES = {
    "labels": {"boards": [1, 2, 3, 4, 5]},
    "diagrams": {"boards": [1]},
    "travellers-blank": {"boards": [1, 2]},
    "travellers-scored": {"boards": [7, 14], "scored": True},
    "guide-cards": {},
    "movement-cards": {},
    "route-sheets": {"entrants": ["N1"], "route_urls": URLS},
    "ranking": {},
    "frequencies": {},
    "hand-records": {"boards": [1, 2]},
}


def _kind(case: str) -> str:
    return case.removesuffix("-blank").removesuffix("-scored")


@pytest.mark.parametrize("case", sorted(CASES))
def test_page_looks_like_the_reference(demo, case, tmp_path):
    pdf = render_kind(_kind(case), demo["export"], demo["ranking"], **CASES[case])
    png = page_png(pdf, 1, tmp_path / f"{case}.png")
    reference = REFERENCES / f"{case}.png"
    if os.environ.get("UPDATE_PRINT_REFERENCES") or not reference.exists():
        if not os.environ.get("UPDATE_PRINT_REFERENCES"):
            pytest.fail(f"no reference image {reference.name}: run with UPDATE_PRINT_REFERENCES=1 and look at it")
        REFERENCES.mkdir(exist_ok=True)
        shutil.copy(png, reference)
        return
    ratio = difference_ratio(png, reference)
    if ratio > TOLERANCE:
        shutil.copy(png, reference.with_name(f"{case}.actual.png"))
    assert ratio <= TOLERANCE, f"{case}: {ratio:.2%} of the pixels differ (see references/{case}.actual.png)"


def test_the_comparison_sees_a_layout_change(demo, tmp_path):
    """The tolerance is not so loose that another page passes: étui 2's diagrams are not étui 1's."""
    pdf = render_kind("diagrams", demo["export"], demo["ranking"], boards=[2])
    png = page_png(pdf, 1, tmp_path / "other.png")
    assert difference_ratio(png, REFERENCES / "diagrams.png") > 5 * TOLERANCE
    pdf = render_kind("travellers", demo["export"], demo["ranking"], boards=[7, 14], scored=False)
    png = page_png(pdf, 1, tmp_path / "blank.png")
    assert difference_ratio(png, REFERENCES / "travellers-scored.png") > TOLERANCE
