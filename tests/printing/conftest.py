"""Fixtures of the printing tests: the demonstration tournament as SPEC §9 data (its export and its
ranking output, stored in ``data/demo-tournament.json``, made by ``duplicate.demo.build_demo``), and
helpers to read a PDF back with poppler (pdftotext, pdftoppm)."""

import copy
import json
import pathlib

import pytest

DATA = pathlib.Path(__file__).parent / "data" / "demo-tournament.json"



@pytest.fixture(scope="session")
def demo():
    """``{"export": tarot-tournament/1 dict, "ranking": SPEC §9 ranking output}``."""
    return json.loads(DATA.read_text(encoding="utf-8"))


@pytest.fixture
def demo_copy(demo):
    return copy.deepcopy(demo)
