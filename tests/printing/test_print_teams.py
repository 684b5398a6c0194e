"""Team kinds: triplettes (percentages, lines NS/EW) and quadrettes (PM), from small SPEC §9 files
ranked by the rules engine (the ranking output is computed when not given)."""

import re

from duplicate.printing import render_kind
from print_helpers import page_count, pdf_text


def _players(ids):
    return [{"id": i, "name": f"JOUEUR {i.upper()}"} for i in ids]


def quadrettes():
    players = _players([f"p{n}" for n in range(1, 9)])
    teams = [{"id": "Q1", "name": "Les Bouts <de> Vienne", "members": ["p1", "p2", "p3", "p4"]},
             {"id": "Q2", "name": "Excuse & Cie", "members": ["p5", "p6", "p7", "p8"]}]
    results = [
        {"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82},
        {"board": 1, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": 66},
        {"board": 2, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": -68},
        {"board": 2, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": -58},
    ]
    return {"format": "tarot-tournament/1", "name": "Quadrettes du club", "kind": "quadrettes",
            "players": players, "teams": teams, "boards": [{"number": 1, "taker": "S"}, {"number": 2, "taker": "S"}],
            "results": results}


def triplettes():
    players = _players([f"p{n}" for n in range(1, 13)])
    teams = [{"id": f"{line}{t}", "name": f"Triplette {line}{t}", "line": line,
              "members": [f"p{(t - 1) * 6 + k + (0 if line == 'NS' else 3)}" for k in (1, 2, 3)]}
             for t in (1, 2) for line in ("NS", "EW")]
    results = [
        {"board": 1, "table": 1, "taker_team": "NS1", "defence_team": "EW1", "score": 56},
        {"board": 1, "table": 2, "taker_team": "NS2", "defence_team": "EW2", "score": -52},
        {"board": 2, "table": 1, "taker_team": "EW1", "defence_team": "NS1", "score": 62},
        {"board": 2, "table": 2, "taker_team": "EW2", "defence_team": "NS2", "score": 62},
    ]
    return {"format": "tarot-tournament/1", "name": "Triplettes", "kind": "triplettes", "players": players,
            "teams": teams, "results": results}


def test_quadrettes_route_sheets_and_ranking_in_pm():
    export = quadrettes()
    sheets = render_kind("route-sheets", export)
    assert page_count(sheets) == 2
    text = pdf_text(sheets)
    assert "Les Bouts <de> Vienne" in text and "Excuse & Cie" in text
    assert "+4,000" in text and "−3,162" in text and "Total PM" in text.replace("TOTAL PM", "Total PM")
    ranking = pdf_text(render_kind("ranking", export))
    assert re.search(r"1\s+Q1\s+Les Bouts <de> Vienne\s+\+0,838", ranking)
    fiches = pdf_text(render_kind("travellers", export, scored=True))
    assert "PM" in fiches and "+82" in fiches and "−68" in fiches


def test_triplettes_sheets_and_ranking():
    export = triplettes()
    text = pdf_text(render_kind("route-sheets", export))
    assert "Triplette NS1" in text and "Global = ½ attaque + ½ défense" in text
    ranking = pdf_text(render_kind("ranking", export))
    assert "Classement alterné" in ranking and "Nord-Sud" in ranking and "ex æquo" in ranking
    assert pdf_text(render_kind("frequencies", export)).count("+62") >= 1
