"""Issue 14, point 4, on screen: a score possible in theory only (SPEC §3) is saved, and the screen that
saved it says so once back on the fiches (the warning was shown only while typing, by JavaScript)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from scoring_helpers import fill_board, ready  # noqa: E402


def test_a_theoretical_score_is_saved_with_a_warning_on_screen(app, arbiter):
    tid = ready(app)
    response = fill_board(arbiter, tid, 1, scores=lambda board, table: 216 if table == 1 else 56)
    assert response.status_code == 302
    page = arbiter.get(response.location).get_data(as_text=True)
    assert 'class="flash flash-warning"' in page
    assert "Étui 1, table 1 : score +216 possible en théorie seulement pour une Garde" in page
    assert page.count("possible en théorie seulement") == 1
