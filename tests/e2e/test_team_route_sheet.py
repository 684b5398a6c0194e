"""A team's feuille de route on a phone and on paper (issue 29 point 13): the page was 398 px wide at 390 px,
and the printed sheet slid a defence row's remark into the empty PM column.

The match (`scoring_helpers.ready`: 2 teams of 4, the default 20 étuis, 5 a quarter): the open room
(table 1) scores +56 on every étui, the closed room (table 2) −82; then the arbiter rectifies the open
room's étui 2 to +106 (« Poignée oubliée »).  Team B attacks in the closed room in quarters 1 and 3 (seed
« DUPLICATE PAR ÉQUIPES » : the rooms are team A's choice in quarters 1 and 3; by default A attacks in the
open room), so B's row « étui 2, Défense » (open room, A's +106) carries the remark « score rectifié par
l’arbitre » and no PM (a defence scores none: its PM are its attack's, SPEC §6).  Every étui A's attack
beats B's by 56 + 82 = 138 → √138 = 11,747 PM: the widest cells, « +11,747 » (this page was 398 px).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from screens import PHONE, page_width, shots

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from scoring_helpers import board_numbers, fill_board, publish, ready, rectify  # noqa: E402

PASSWORD = "mot-de-passe-solide"


def _scored_match(sqlite_url: str) -> tuple[int, str, bytes]:
    """The match above, published: (its id, team B's private token, B's printed route sheet)."""
    from sqlmodel import Session

    from duplicate import create_app, db, operations, printing
    from duplicate.printing.commands import tournament_data

    app = create_app({"DATABASE_URL": sqlite_url})
    tid = ready(app, "team_match")
    with Session(db.get_engine(app)) as session:
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        session.commit()
    client = app.test_client()
    client.post("/connexion", data={"username": "arbitre", "password": PASSWORD})
    for number in board_numbers(app, tid):
        assert fill_board(client, tid, number, scores=lambda board, table: 56 if table == 1 else -82).status_code == 302
    rectify(app, tid, 2, 1, 106, "Poignée oubliée")
    publish(app, tid)
    with Session(db.get_engine(app)) as session:
        export, ranking, _tokens = tournament_data(session, tid)
        tournament = operations.get_tournament(session, tid)
        token = next(row["token"] for row in operations.private_links(session, tournament) if row["id"] == "B")
    pdf = printing.render_kind("route-sheets", export, ranking, entrants=["B"])
    db.get_engine(app).dispose()
    return tid, token, pdf


def test_a_teams_route_sheet_fits_a_phone_and_its_paper_keeps_remarks_in_their_column(
        live_server, new_page, sqlite_url, artifacts):
    _tid, token, pdf = _scored_match(sqlite_url)
    page = new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/feuille/{token}")
    assert page_width(page) <= 390, page_width(page)
    # and the table itself fits: it does not scroll in its box either
    assert page.locator("table.route-sheet").evaluate("t => t.getBoundingClientRect().right") <= 390
    heads = [h.strip() for h in page.locator("table.route-sheet thead th").all_inner_texts()]
    assert heads == ["Quart temps", "Salle", "Étui", "Rôle", "Score", "PM", "Remarques"]
    row = [c.strip() for c in page.locator("table.route-sheet tbody tr").nth(3).locator("td").all_inner_texts()]
    assert row == ["1", "ouverte", "2", "Défense contre\xa0A", "+106", "",
                   "score rectifié par l’arbitre : Poignée oubliée"]
    shots(page, artifacts, "feuille-de-route-equipe")

    path = artifacts / "feuille-de-route-equipe.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(path),
                    str(artifacts / "feuille-de-route-equipe-pdf")], check=True)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout.splitlines()
    header = next(line for line in text if line.lstrip().startswith("Quart temps"))
    # the paper's heads are the page's, in the page's order
    assert header.split() == ["Quart", "temps", "Salle", "Étui", "Rôle", "Score", "PM", "Remarques"]
    remark = next(line for line in text if "score rectifié" in line)
    # the remark starts under « Remarques », right of « PM »: not in the empty PM column
    assert remark.index("score rectifié") == header.index("Remarques"), (header, remark)
    assert remark.split()[:6] == ["1", "ouverte", "2", "Défense", "contre", "A"]
