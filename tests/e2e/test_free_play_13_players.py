"""A club of 13 on a Tuesday (issue 16) in real Chromium, from an empty database (CSRF on).

13 players: the booklet's 4-table Howell (p. 18–19) with J8, J12 and J16 absent (`core.freeplay.movements`
docstring), 4 positions, one table of 4 and three tables of 3 at each. The arbiter creates the tournament,
imports the 13 players, makes the movement (the page names the absent numbers and flags the tables of 3),
enters the four feuilles of the 1st position from the keyboard — table 1 at 4, tables 2–4 at 3, their West
empty (the booklet's first row « 1 2 3 4 | 5 6 7 8 | 9 10 11 12 | 13 14 15 16 » without 8, 12, 16) — publishes,
the public sees the ranking, and the fiches personnelles print. Screenshots at 390 px and 1920 px
(tests/e2e/artifacts/).

By hand (rules of play, « Le jeu à 3 joueurs »): table 1, Garde by J2, 2 bouts, 51 points: (25 + 10) × 2 = 70
→ J2 +210, the others −70; table 2, Garde by J5, 2 bouts, 40½ → 40, failed by 1: 26 × 2 = 52 → J5 −104
(× 2 at 3), J6 and J7 +52; table 3, Prise by J10, 1 bout, 56 points: 25 + 5 = 30 → J10 +60, J9 and J11
−30; table 4, a passe. J2's fiche: 1 Sud, 2 Ouest (à 3), 3 Sud (à 3), 4 Est (à 3) (rows 2–4: « 16 9 7 2 »,
« 8 2 13 11 », « 12 15 2 5 »).
"""

from __future__ import annotations

import re
import subprocess

from live import flask
from screens import (PASSWORD, PHONE, create_tournament, download, fill_deal, import_players, make_free_movement,
                     numbered_players_csv, page_width, shots, sign_in)

PLAYERS = 13


def test_a_free_play_evening_of_13_players(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)

    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid = create_tournament(arbiter, base, "Mardi à 13", "free", "2026-11-24")

    csv_path = tmp_path / "joueurs.csv"
    csv_path.write_text(numbered_players_csv("TREIZE", PLAYERS, 8200, "Club de Tarot de Blois"), encoding="utf-8")
    import_players(arbiter, base, tid, csv_path, PLAYERS)

    body = make_free_movement(arbiter, base, tid, "mardi 13")
    assert "Mouvement fait et joueurs placés" in body
    assert "4 tables, 4 positions" in body and "Howell sans les numéros J8, J12, J16" in body
    assert arbiter.locator("tr.three-players").count() == 12  # 3 tables of 3 × 4 positions
    first = arbiter.locator("#position-1 + .scroll-x tbody tr")
    assert [first.nth(i).locator("td").first.inner_text().split()[0] for i in range(4)] == ["1", "2", "3", "4"]
    assert "à 3" not in first.nth(0).inner_text() and all("à 3" in first.nth(i).inner_text() for i in (1, 2, 3))
    shots(arbiter, artifacts, "libre13-01-mouvement")

    # position 1, table 1 at 4
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/1")
    assert "Table à 3 joueurs" not in arbiter.inner_text("body")
    fill_deal(arbiter, 0, "J2", "garde", "51", "2")
    arbiter.press("[name=bouts-0]", "Enter")
    assert "Feuille de la table 1, position 1 enregistrée" in arbiter.inner_text("body")
    marks = arbiter.inner_text("table.free-marks")
    assert "+210" in marks and marks.count("−70") >= 3

    # table 2 at 3: no West — the seat J8 would hold
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/2")
    body = arbiter.inner_text("body")
    assert "Table à 3 joueurs" in body and re.search(r"Ouest :\s*place vide", body)
    takers = arbiter.locator("[name=taker-0] option").all_inner_texts()[1:]
    assert [option.split()[0] for option in takers] == ["J5", "J6", "J7"]
    fill_deal(arbiter, 0, "J5", "garde", "40,5", "2")
    arbiter.press("[name=bouts-0]", "Enter")
    assert "Feuille de la table 2, position 1 enregistrée" in arbiter.inner_text("body")
    marks = arbiter.inner_text("table.free-marks")
    assert "−104" in marks and marks.count("+52") >= 2
    assert "Somme des bilans : 0 — la feuille est juste." in arbiter.inner_text("body")
    shots(arbiter, artifacts, "libre13-02-feuille-table-a-3")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/3")
    fill_deal(arbiter, 0, "J10", "prise", "56", "1")
    arbiter.press("[name=bouts-0]", "Enter")
    assert "Feuille de la table 3, position 1 enregistrée" in arbiter.inner_text("body")
    assert "+60" in arbiter.inner_text("table.free-marks")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/4")
    arbiter.check("[name=passed-0]")
    arbiter.click("button:has-text('Enregistrer')")
    assert "Feuille de la table 4, position 1 enregistrée" in arbiter.inner_text("body")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    arbiter.click("button:has-text('Publier les résultats')")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    totals = {}
    for line in arbiter.locator("table.free-ranking tbody tr").all_inner_texts():
        cells = line.split("\t")
        totals[cells[1].split()[0]] = cells
    assert len(totals) == PLAYERS and "J8" not in totals
    assert "+210" in "\t".join(totals["J2"])
    shots(arbiter, artifacts, "libre13-03-classement-arbitre")

    public = new_page()
    public.goto(f"{base}/tournois/{tid}/")
    rows = public.locator("table.free-ranking tbody tr")
    assert rows.count() == PLAYERS
    assert "J2" in rows.first.inner_text() and "+210" in rows.first.inner_text()
    assert "J10" in rows.nth(1).inner_text() and "+60" in rows.nth(1).inner_text()
    assert "J5" in rows.last.inner_text() and "−104" in rows.last.inner_text()
    shots(public, artifacts, "libre13-04-classement-public")

    # the fiches personnelles: J2's orientation changes, three positions at 3
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/")
    arbiter.click("nav.steps-nav a:has-text('Impression')")
    fiches = download(arbiter, lambda: arbiter.click("li:has-text('Fiches personnelles') button"))
    text = subprocess.run(["pdftotext", "-layout", "-l", "1", str(fiches), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "Joueur J2" in text and "l’orientation change" in text
    for pattern in (r"\b1re\s+1\s+Sud\b", r"\b2e\s+2\s+Ouest \(à 3\)", r"\b3e\s+3\s+Sud \(à 3\)",
                    r"\b4e\s+4\s+Est \(à 3\)"):
        assert re.search(pattern, text), pattern

    # the feuille of a table of 3 on a 390 px phone: nothing runs sideways
    arbiter.set_viewport_size(PHONE)
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/2/2")  # J16's North empty at the 2nd
    body = arbiter.inner_text("body")
    assert "Table à 3 joueurs" in body and re.search(r"Nord :\s*place vide", body)
    assert page_width(arbiter) <= 390, page_width(arbiter)

