"""A free-play evening (« donnes libres », issue 16) in real Chromium, from an empty database (CSRF on).

22 players: 6 tables, and the core removes two Norths (22 = 6 × 4 − 2), so two tables play at 3 — the
ones `core.freeplay.movements.free_movement` picks (tables 5 and 6 today; the test reads them from the core
and checks the page says the same). The arbiter creates the tournament, imports the 22 players, makes the
movement, enters two feuilles de marque from the keyboard (a table of 4 at position 1, the first table of
3 at position 2), one impossible deal being refused with its French message and the typed values kept,
publishes, and the public sees the ranking; then, from the « Impression » step, prints the fiches personnelles
and the ranking, and downloads the federation's PCN file from the ranking page. Screenshots at 390 px and
1920 px (tests/e2e/artifacts/).

Then a scorer, on a 390 px phone, enters a feuille (one deal per card, the marks appearing as he types, no
sideways scrolling) while the arbiter, at his desk, gives a phone that rings twice (a warning, then 500 points:
booklet chapter 4); the ranking has both, and fits the phone too.

By hand, the fiche of E1 (6 tables: booklet « Est + 2 » with the exception « Est + 3 » into the 3rd position):
tables 1, 3, 6, 8 ≡ 2, 4, at a table of 3 (table 6) at the 3rd; N1 sits at table 1 all evening. PCN: 6 tables,
the first 40 × 6 = 240.
"""

from __future__ import annotations

import re
import subprocess

from duplicate.core.freeplay.movements import free_movement, personal_card

from live import create_users, flask
from screens import (PASSWORD, PHONE, create_tournament, download, fill_deal, give_access, import_players,
                     make_free_movement, numbered_players_csv, page_width, shots, sign_in)

PLAYERS = 22


def test_a_free_play_evening_of_22_players(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    rounds, three = free_movement(players=PLAYERS)
    assert len(three) == 2
    seats = {(r.position, r.table): r.seats for r in rounds}

    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid = create_tournament(arbiter, base, "Mardi libre", "free", "2026-11-24")
    assert "Donnes libres" in arbiter.inner_text("body")

    csv_path = tmp_path / "joueurs.csv"
    csv_path.write_text(numbered_players_csv("LIBRE", PLAYERS, 8100, "Club de Tarot d’Orléans"), encoding="utf-8")
    import_players(arbiter, base, tid, csv_path, PLAYERS)

    body = make_free_movement(arbiter, base, tid, "mardi e2e")
    assert "Mouvement fait et joueurs placés" in body
    assert "6 tables" in body and f"Tables à 3 joueurs : {', '.join(map(str, sorted(three)))}" in body
    shots(arbiter, artifacts, "libre-01-mouvement")

    # position 1, table 1 (4 players): a Garde made by 10 and a passe, keyboard only
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/1")
    table1 = seats[1, 1]
    fill_deal(arbiter, 0, table1["S"], "garde", "51", "2")
    arbiter.check("[name=passed-1]")
    fill_deal(arbiter, 2, table1["E"], "garde", "95", "2")  # impossible: 91 points in the pack
    arbiter.press("[name=bouts-2]", "Enter")
    body = arbiter.inner_text("body")
    assert "Feuille refusée, rien n’est enregistré : Donne 3 :" in body
    assert arbiter.input_value("[name=points-2]") == "95"  # what was typed stays
    arbiter.fill("[name=points-2]", "45")
    arbiter.fill("[name=bouts-2]", "1")
    arbiter.select_option("[name=contract-2]", "prise")
    arbiter.press("[name=points-2]", "Enter")
    assert "Feuille de la table 1, position 1 enregistrée" in arbiter.inner_text("body")
    foot = arbiter.inner_text("table.free-marks")
    assert "+210" in foot and "−70" in foot and "−93" in foot and "+31" in foot
    assert "Somme des bilans : 0 — la feuille est juste." in arbiter.inner_text("body")
    shots(arbiter, artifacts, "libre-02-feuille-4-joueurs")

    # position 2, the first table of 3: half points, the half point to the winning side
    small = min(three)
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/2/{small}")
    people = seats[2, small]
    assert people["N"] is None
    assert "Table à 3 joueurs" in arbiter.inner_text("body")
    fill_deal(arbiter, 0, people["S"], "garde", "40,5", "2")
    fill_deal(arbiter, 1, people["E"], "garde_sans", "60", "2", poignees="S")
    arbiter.press("[name=points-1]", "Enter")
    assert f"Feuille de la table {small}, position 2 enregistrée" in arbiter.inner_text("body")
    marks = arbiter.inner_text("table.free-marks")
    assert "−104" in marks and "+52" in marks
    shots(arbiter, artifacts, "libre-03-feuille-3-joueurs")

    # not public before publication
    public = new_page()
    public.goto(f"{base}/tournois/{tid}/")
    assert "pas encore publiés" in public.inner_text("body")
    assert "LIBRE" not in public.inner_text("body")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    arbiter.click("button:has-text('Publier les résultats')")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    assert "Résultats publiés" in arbiter.inner_text("body")
    shots(arbiter, artifacts, "libre-04-classement-arbitre")

    public.goto(f"{base}/tournois/{tid}/")
    text = public.inner_text("body")
    assert "Classement par total de points" in text
    rows = public.locator("table.free-ranking tbody tr")
    assert rows.count() == PLAYERS
    first = rows.first.inner_text()
    # the best: E of that table of 3 — +52 (a defender of the failed Garde), then his Garde sans made by 19
    # (60 points, 2 bouts: 41 needed) with a simple poignée: (25 + 19) × 4 + 20 = 196, × 2 at 3 → +392
    assert "+444" in first and people["E"].replace("W", "O") in first
    shots(public, artifacts, "libre-05-classement-public")

    # printing from the UI: the « Impression » step of a free tournament
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/")
    arbiter.click("nav.steps-nav a:has-text('Impression')")
    assert "Fiches personnelles" in arbiter.inner_text("body") and "Tout imprimer" not in arbiter.inner_text("body")
    shots(arbiter, artifacts, "libre-06-impression")
    fiches = download(arbiter, lambda: arbiter.click("li:has-text('Fiches personnelles') button"))
    assert fiches.name == f"tournoi-{tid}-fiches-personnelles.pdf"
    first_page = subprocess.run(["pdftotext", "-layout", "-l", "1", str(fiches), "-"], capture_output=True, text=True,
                                check=True).stdout
    assert "Joueur N1" in first_page and "Joueur E1" in first_page
    assert [table for _, table, _ in personal_card(rounds, "E1")] == [1, 3, 6, 2, 4]  # the core agrees with the hand
    for ordinal, table in (("1re", 1), ("2e", 3), ("4e", 2), ("5e", 4)):
        assert re.search(rf"\b{ordinal}\s+{table}\s+Est\b", first_page), (ordinal, table)
    assert re.search(r"\b3e\s+6\s+Est \(à 3\)", first_page)
    assert len(re.findall(r"\b[1-5](?:re|e)\s+1\s+Nord\b", first_page)) == 5
    ranking = download(arbiter, lambda: arbiter.click("li:has-text('Classement') button"))
    text = subprocess.run(["pdftotext", "-layout", str(ranking), "-"], capture_output=True, text=True, check=True).stdout
    top = next(line for line in text.splitlines() if re.match(r"^\s*1\s", line))
    assert people["E"].replace("W", "O") in top and "+444" in top
    assert f"{PLAYERS} joueurs classés" in text

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    pcn = download(arbiter, lambda: arbiter.click("button:has-text('Télécharger le fichier PCN (CSV)')"))
    lines = pcn.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Licence;Nom;Place;PCN;PP" and re.match(r"^81\d\d;LIBRE\d\d [^;]+;1;240;0$", lines[1])

    # --- a scorer on a 390 px phone enters table 2 at position 1 while the arbiter gives a penalty ----------
    create_users(sqlite_url, ("marqueur", PASSWORD, "scorer"))
    give_access(arbiter, base, tid, "marqueur")
    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    sign_in(phone, base, "marqueur")
    phone.goto(f"{base}/saisie/tournois/{tid}/")  # the scorer's way in: the list of the feuilles
    assert "Feuilles de marque" in phone.inner_text("h1")
    phone.click("a[href$='/libre/feuilles/1/2']")
    phone.wait_for_load_state("load")  # the stylesheet applied: measured before it, the desktop rows overflow
    table2 = seats[1, 2]
    assert page_width(phone) <= 390
    phone.select_option("[name=taker-0]", table2["W"])
    phone.select_option("[name=contract-0]", "garde_sans")
    phone.fill("[name=points-0]", "56")
    phone.fill("[name=bouts-0]", "1")
    # Garde sans made by 5, 1 bout (51 needed): (25 + 5) × 4 = 120 per defender → W +360, the others −120;
    # the marks come from the server's core while typing, nothing saved yet
    row = phone.locator("tr[data-row='0']")
    mark = row.locator(f"td.live-mark[data-player='{table2['W']}']")
    mark.filter(has_text="+360").wait_for()
    assert row.locator(f"td.live-mark[data-player='{table2['N']}']").inner_text() == "−120"
    bilan = phone.locator(f"table.free-live-foot td[data-foot='bilan'][data-player='{table2['W']}']")
    bilan.filter(has_text="+360").wait_for()
    assert "Somme des bilans : 0" in phone.inner_text(".live-status")
    assert page_width(phone) <= 390, page_width(phone)
    shots(phone, artifacts, "libre-06-feuille-marqueur-telephone")

    # meanwhile at the desk: a phone rings twice — « un avertissement … En cas de récidive … 500 points »
    ringing = table2["E"]
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    for expected in ("Avertissement enregistré (0 point).", "Pénalité de 500 points enregistrée."):
        arbiter.select_option("#faute-entrant_id", ringing)
        arbiter.select_option("#faute-fault", "telephone_sonne")
        arbiter.click("button:has-text('Sanctionner')")
        assert expected in arbiter.inner_text("body")
    penalties = arbiter.inner_text("main")
    assert "Téléphone qui sonne : avertissement" in penalties
    assert "Téléphone qui sonne : pénalité de 500 points" in penalties

    phone.click("button:has-text('Enregistrer')")
    assert "Feuille de la table 2, position 1 enregistrée" in phone.inner_text("body")
    assert "+360" in phone.inner_text("table.free-marks")
    assert page_width(phone) <= 390

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    ranking = arbiter.locator("table.free-ranking tbody tr")
    rows = {line.split("\t")[1].split()[0]: line for line in (r.inner_text() for r in ranking.all())}
    ringing_label = ringing.replace("W", "O")
    assert "−620" in rows[ringing_label] and "−500" in rows[ringing_label]  # −120 − 500
    shots(arbiter, artifacts, "libre-07-classement-penalites")
    arbiter.set_viewport_size(PHONE)
    arbiter.reload()
    assert page_width(arbiter) <= 390, page_width(arbiter)
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/2")
    assert page_width(arbiter) <= 390, page_width(arbiter)
