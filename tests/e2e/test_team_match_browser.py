"""A team match in real Chromium from an empty database to the printed pack (issue 15, points 3 and 4).

The arbiter creates the match, imports both teams from an Excel CSV (Windows-1252, « ; ») with its
preview and « Confirmer », draws the places, chooses the movement and deals the 20 étuis, then on the
« Match » page sets the bonus, and per quarter the étui series, the rooms and each team's attacker. Scores
are typed from the keyboard, one form per quarter and room (Tab from one score to the next, Enter saves);
the score sheet shows both rooms side by side and the running PM; the arbiter prints it, publishes, and
prints the whole evening (« Tout imprimer »). Key screens are photographed at 390 and 1920 px and none may
scroll sideways.

Hand-derived PM (PM = √|gap| to 3 decimals, grid ``pm-grid.json``; per étui the team whose attacker did
better scores |PM|, the other 0 — seed « DUPLICATE PAR ÉQUIPES », « Les comptes »). A's bonus 2,5 PM.
Scores written (A's attacker, B's attacker); rooms: A attacks in the open room in quarters 1 and 3, B in 2 and 4.

* Q1, étuis 1–5: 1: +82 / +66 → gap 16 → A 4,000; 2: +68 / −76 → 144 → A 12,000; 3: −68 / −58 → −10 → B 3,162;
  4: +56 / +56 and 5: −52 / −52 → 0.  Q1: A 16,000, B 3,162; running A 18,500, B 3,162.
* Q2, étuis 6–10: 7: A Garde Sans +124 / B +62 → 62 → A 7,874 (grid 62: 7.874); others +56 / +56.
  Q2: A 7,874, B 0; running A 26,374, B 3,162.
* Q3, étuis 11–15: 11: +56 / +82 → −26 → B 5,099 (grid 26: 5.099); others ties.  Running A 26,374, B 8,261.
* Q4, étuis 16–20: 16: +56 / B Garde Contre +150 → −94 → B 9,695 (grid 94: 9.695); others ties.
  Running A 26,374, B 17,956.  Final ranking: A 26,374 PM, B 17,956 PM.
"""

from __future__ import annotations

import re
import subprocess

from live import flask
from screens import PASSWORD, create_tournament, shots, sign_in

# Étui → (A's attacker: score, contract), (B's attacker: score, contract); the rest are ties at +56 Garde
SCORES = {1: (("+82", "garde"), ("+66", "garde")), 2: (("+68", "garde"), ("-76", "garde")),
          3: (("-68", "garde"), ("-58", "garde")), 5: (("-52", "garde"), ("-52", "garde")),
          7: (("+124", "garde_sans"), ("+62", "garde")), 11: (("+56", "garde"), ("+82", "garde")),
          16: (("+56", "garde"), ("+150", "garde_contre"))}
TIE = (("+56", "garde"), ("+56", "garde"))
RUNNING = [("18,500", "3,162"), ("26,374", "3,162"), ("26,374", "8,261"), ("26,374", "17,956")]
QUARTER_PM = [("16,000", "3,162"), ("7,874", "0,000"), ("0,000", "5,099"), ("0,000", "9,695")]

TEAMS_CSV = ("Équipe;Licence;Nom;Prénom;Club\r\n"
             "Les Rois;101;LEFÈVRE;Hélène;Évreux\r\nLes Rois;102;MARTIN;Jérôme;Évreux\r\n"
             "Les Rois;103;DURAND;Zoé;Évreux\r\nLes Rois;104;PETIT;Noël;Évreux\r\n"
             "Les Dames;201;ROUX;Anaïs;Rouen\r\nLes Dames;202;BLANC;Léa;Rouen\r\n"
             "Les Dames;203;NOIR;Inès;Rouen\r\nLes Dames;204;VERT;Maëlle;Rouen\r\n"
             "Les Dames;205;GRIS;Benoît;Rouen\r\n").encode("cp1252")


def _photo(page, artifacts, name: str) -> None:
    shots(page, artifacts, f"equipes-{name}")


def _pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_a_team_match_from_an_empty_database_to_the_printed_pack(live_server, new_page, sqlite_url, artifacts,
                                                                   tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    page = new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, base, "arbitre")

    tid = create_tournament(page, base, "Match du vendredi", "team_match", "2026-03-06", "Évreux")
    home = f"{base}/arbitre/tournois/{tid}"

    # --- the teams from a CSV list: preview, then « Confirmer » -------------------------------------------------
    csv_path = tmp_path / "equipes.csv"
    csv_path.write_bytes(TEAMS_CSV)
    page.goto(f"{home}/equipes")
    page.click("a:has-text('Importer des équipes (CSV)')")
    page.set_input_files("#file", str(csv_path))
    page.click("button:has-text('Voir l’aperçu')")
    preview = page.inner_text("main")
    assert "2 équipes, 9 joueurs" in preview and "LEFÈVRE Hélène" in preview and "GRIS Benoît" in preview
    _photo(page, artifacts, "01-import")
    page.click("button:has-text('Confirmer : former 2 équipes')")
    page.wait_for_url(re.compile(r"/equipes$"))
    assert "2 équipes formées, 9 joueurs inscrits." in page.inner_text("body")

    page.goto(f"{home}/placement")
    page.fill("#seed", "tirage du vendredi")
    page.click("button:has-text('Tirer les places')")
    assert "Places tirées au sort" in page.inner_text("body")
    page.goto(f"{home}/mouvement")
    page.click("button[name=preview]")
    page.locator("button[name=accept]").first.click()
    assert "Mouvement choisi" in page.inner_text("body")
    page.goto(f"{home}/etuis")
    page.fill("#generate-count", "20")
    page.fill("#generate-seed", "vendredi")
    page.click("button:has-text('Générer les étuis')")
    assert "20 étuis générés" in page.inner_text("body")

    # --- the match's settings, on screen ---------------------------------------------------------------------
    page.goto(f"{home}/")
    page.click("nav a:has-text('Match')")
    page.fill("#bonus_A", "2,5")
    page.fill("#bonus_B", "0")
    page.click("button:has-text('Enregistrer le bonus')")
    assert "Bonus enregistré." in page.inner_text("body")
    for quarter, series, room in ((1, "1-5", "A"), (2, "6 à 10", "B"), (3, "11-15", "A"), (4, "16-20", "B")):
        page.fill(f"#q{quarter}-boards", series)
        page.select_option(f"#q{quarter}-open_attack", room)
        page.select_option(f"#q{quarter}-attacker_A", index=quarter)  # a different attacker each quarter
        page.select_option(f"#q{quarter}-attacker_B", index=quarter)
        page.click(f"button:has-text('Enregistrer le {('1er' if quarter == 1 else f'{quarter}e')} quart temps')")
        assert "quart temps enregistré" in page.inner_text("body"), page.content()[:2500]
    # the 2nd quarter's attacker again in the 3rd: refused in French, what was typed is kept
    page.fill("#q3-boards", "11-14")
    page.select_option("#q3-attacker_A", index=2)
    page.click("button:has-text('Enregistrer le 3e quart temps')")
    assert "attaque déjà au 2e quart temps" in page.inner_text("body"), page.content()[:3000]
    assert page.input_value("#q3-boards") == "11-14"
    _photo(page, artifacts, "02-match")
    page.goto(f"{home}/journal")
    journal = page.inner_text("main")
    assert "1er quart temps :" in journal and "Bonus en PM : équipe A 0,000 → 2,500" in journal

    # --- entry per quarter and room, from the keyboard ------------------------------------------------------
    for quarter in (1, 2, 3, 4):
        a_open = quarter in (1, 3)
        for table, room in ((1, "ouverte"), (2, "fermée")):
            team = 0 if (table == 1) == a_open else 1            # 0: A's attacker plays here, 1: B's
            page.goto(f"{base}/saisie/tournois/{tid}/")
            page.click(f"a:has-text('Quart temps {quarter}, salle {room}')")
            assert page.locator("h1").inner_text() == f"Quart temps {quarter}, salle {room}"
            assert "Attaquant (en Sud) :" in page.locator("p.attacker-of-room").inner_text()
            boards = range(5 * quarter - 4, 5 * quarter + 1)
            first = page.locator(f"#score-{boards[0]}-{table}")
            assert first.evaluate("e => e === document.activeElement")  # the first empty score has the focus
            for board in boards:
                score, contract = SCORES.get(board, TIE)[team]
                if contract != "garde":
                    page.select_option(f"select[name=contract-{board}-{table}]", contract)
                    page.focus(f"#score-{board}-{table}")
                page.keyboard.type(score)
                if board != boards[-1]:
                    page.keyboard.press("Tab")
                    if page.evaluate("() => document.activeElement.tagName") == "SELECT":
                        page.keyboard.press("Tab")               # the contract (Garde) stays
            if quarter == 1 and table == 1:
                _photo(page, artifacts, "03-saisie")
                page.set_viewport_size({"width": 390, "height": 900})  # the contract reads whole on a phone
                select = page.locator(f"select[name=contract-{boards[0]}-{table}]")
                assert select.evaluate("s => s.scrollWidth <= s.clientWidth + 1 && s.clientWidth >= 100"), \
                    select.evaluate("s => [s.scrollWidth, s.clientWidth]")
                page.set_viewport_size({"width": 1280, "height": 900})
            with page.expect_navigation():
                page.keyboard.press("Enter")
            assert "5 scores enregistrés" in page.inner_text("body"), page.inner_text("main")

    # --- the score sheet: both rooms, the running PM; on paper too -------------------------------------------
    page.goto(f"{home}/match/feuille")
    running = [tuple(row.locator("td").all_inner_texts()) for row in page.locator("tr.running-pm").all()]
    quarters = [tuple(row.locator("td").all_inner_texts()) for row in page.locator("tr.quarter-pm").all()]
    assert running == RUNNING and quarters == QUARTER_PM
    first_rows = page.locator("table.team-sheet-table").first.locator("tbody tr")
    assert first_rows.nth(1).locator("td").all_inner_texts() == [
        "2", "Garde", "+68", "Garde", "−76", "+144", "12,000", ""]
    assert "attaque A" in page.locator("table.team-sheet-table").first.locator("thead").inner_text()
    page.set_viewport_size({"width": 390, "height": 900})       # the PM are on a phone's screen, not behind a scroll
    widths = page.evaluate("() => [...document.querySelectorAll('table.team-sheet-table')]"
                           ".map(t => [t.scrollWidth, t.parentElement.clientWidth])")
    assert all(table <= box for table, box in widths), widths
    page.set_viewport_size({"width": 1280, "height": 900})
    _photo(page, artifacts, "04-feuille")
    response = page.request.get(f"{home}/match/feuille.pdf")
    assert response.status == 200
    (tmp_path / "feuille.pdf").write_bytes(response.body())
    (artifacts / "equipes-feuille.pdf").write_bytes(response.body())  # to be looked at
    paper = _pdf_text(tmp_path / "feuille.pdf")
    assert "Feuille de marque" in paper and "Total cumulé (bonus compris)" in paper
    assert "17,956" in paper and "26,374" in paper and "Garde Contre" in paper

    # --- publication, the public ranking, the whole evening printed ---------------------------------------------
    page.goto(f"{home}/")
    with page.expect_navigation():
        page.click("button:has-text('Publier les résultats')")
    assert "Résultats publiés" in page.inner_text("body")
    visitor = new_page()
    visitor.goto(f"{base}/tournois/{tid}/")
    public = visitor.inner_text("main")
    assert "26,374" in public and "17,956" in public
    _photo(visitor, artifacts, "05-public")

    page.goto(f"{home}/impression/")
    page.click("button:has-text('Tout imprimer')")
    link = page.get_by_role("link", name="Télécharger le PDF")
    link.wait_for(timeout=300_000)
    with page.expect_download(timeout=60_000) as info:
        link.click()
    pack = _pdf_text(info.value.path())
    assert "Étui 20" in pack and "26,374" in pack and "LEFÈVRE" in pack
    assert "Feuille de marque" in pack and "Total cumulé (bonus compris)" in pack and "17,956" in pack
    assert not errors, errors
