"""A whole tournament as its users live it, in real Chromium against the real server (CSRF on).

The arbiter creates a 5-table individual, registers 20 players from a CSV file, draws the places,
deals the étuis, chooses the movement and downloads the pack (labels, fiches ambulantes, diagrams).
Two scorers, each on their own device, enter every fiche from the keyboard only: « aller à l'étui »,
the scores typed with their sign, Tab from one to the next, Enter to save; one impossible score is
refused with its French message and then corrected; one saved score is corrected afterwards. The public
ranking then equals what ``flask --app app rank`` computes from the exported tournament file, and a
player reaches their route sheet through the link of their QR code (the PDF download is
test_route_sheet_pdf.py).
"""

from __future__ import annotations

import json
import re

import segno

from duplicate.french import place_label

from live import create_users, flask
from screens import (ALLOWED, PASSWORD, assert_images_shown, create_tournament, download, enter_board, fr2, give_access,
                     import_players, pdf_text, score_for, shot, sign_in)

TABLES, PLAYERS, BOARDS = 5, 20, 20
IMPOSSIBLE = "+31"  # docs/formats-and-cli.md: `score --contract garde --check 31` is refused
HOSTILE_SURNAME = "<b>Zoé</b>"
HOSTILE_CLUB = "<script>document.title='piraté'</script>"


def players_csv() -> str:
    lines = ["Licence;Nom;Prénom;Club"]
    for i in range(1, PLAYERS + 1):
        surname = HOSTILE_SURNAME if i == 7 else f"JOUEUR{i:02d}"
        club = HOSTILE_CLUB if i == 7 else "Tarot Club de Lyon"
        lines.append(f"{7100 + i};{surname};Prénom{i};{club}")
    return "\n".join(lines) + "\n"


def test_a_tournament_from_creation_to_route_sheets(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    create_users(sqlite_url, ("marqueur1", PASSWORD, "scorer"), ("marqueur2", PASSWORD, "scorer"))

    # --- the arbiter prepares the tournament ------------------------------------------------------------
    arbiter = new_page()
    arbiter.goto(base + "/arbitre/")
    assert "/connexion" in arbiter.url  # signed out: sent to the sign-in page
    shot(arbiter, artifacts, "01-connexion")
    sign_in(arbiter, base, "arbitre")
    tid = create_tournament(arbiter, base, "Open de Lyon", "individual", "2026-03-01", "Lyon")
    for name in ("marqueur1", "marqueur2"):  # the tournament is the arbiter's: the scorers are given it
        give_access(arbiter, base, tid, name)

    csv_path = tmp_path / "joueurs.csv"
    csv_path.write_text(players_csv(), encoding="utf-8")
    import_players(arbiter, base, tid, csv_path, PLAYERS)
    # HTML in a name is text, never markup
    assert HOSTILE_SURNAME in arbiter.inner_text("body")
    assert arbiter.locator("b", has_text="Zoé").count() == 0
    assert arbiter.title() != "piraté"
    shot(arbiter, artifacts, "02-joueurs")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/placement")
    arbiter.fill("#seed", "tirage e2e")
    arbiter.click("button:has-text('Tirer les places')")
    assert "Places tirées au sort" in arbiter.inner_text("body")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/etuis")
    arbiter.fill("#generate-count", str(BOARDS))
    arbiter.fill("#generate-seed", "donnes e2e")
    arbiter.click("button:has-text('Générer les étuis')")
    assert f"{BOARDS} étuis générés" in arbiter.inner_text("body")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/mouvement")
    arbiter.click("button[name=preview]")
    shot(arbiter, artifacts, "03-mouvement-apercu")
    arbiter.locator("button[name=accept]").first.click()
    assert "Mouvement choisi" in arbiter.inner_text("body")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/")
    shot(arbiter, artifacts, "04-tableau-de-bord")

    # the pack: labels and fiches ambulantes at once, diagrams through a batch job
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/impression/")
    travellers = download(arbiter, lambda: arbiter.locator("form[action$='/travellers'] button").click())
    text = pdf_text(travellers)
    assert "Open de Lyon" in text and re.search(r"[ÉE]tui\s+20", text)
    labels = download(arbiter, lambda: arbiter.locator("form[action$='/labels'] button").click())
    assert "Open de Lyon" in pdf_text(labels)
    arbiter.locator("form[action$='/diagrams'] button").click()
    arbiter.wait_for_url(re.compile(r"/travail/diagrams-"))
    link = arbiter.locator("a:has-text('Télécharger le PDF')")
    link.wait_for(timeout=120_000)  # the job page reloads itself until the file is ready
    diagrams = download(arbiter, link.click)
    assert pdf_text(diagrams).count("Open de Lyon") >= BOARDS

    # --- two scorers enter every fiche from the keyboard ----------------------------------------------------
    scorers = []
    for name in ("marqueur1", "marqueur2"):
        page = new_page()
        sign_in(page, base, name)
        scorers.append(page)
    refused_board, refused_key = 3, None
    for number in range(1, BOARDS + 1):
        page = scorers[number % 2]
        if number == refused_board:
            keys = enter_board(page, base, tid, number, scores={})
            refused_key = keys[1]
            page.locator(f"input[name='score-{refused_key}']").fill(IMPOSSIBLE)
            page.locator(f"input[name='score-{refused_key}']").press("Tab")  # the change event checks it
            page.locator(f"input[name='score-{refused_key}'] ~ .check-message.errors").wait_for()
            with page.expect_navigation():
                page.locator(f"input[name='score-{keys[-1]}']").press("Enter")
            page.wait_for_load_state()
            error = page.locator(f"#erreur-{refused_key}")
            assert error.is_visible(), page.content()
            assert "impossible" in error.inner_text().lower() or "31" in error.inner_text()
            shot(page, artifacts, "05-saisie-score-refuse")
            # what was typed is still there, the faulty score has the focus: retype it and save
            page.wait_for_function(
                f"() => document.activeElement && document.activeElement.name === 'score-{refused_key}'",
                timeout=15_000)
            board, table = map(int, refused_key.split("-"))
            page.keyboard.press("Control+A")
            page.keyboard.type(f"{score_for(board, table):+d}")
            with page.expect_navigation():
                page.keyboard.press("Enter")
        else:
            keys = enter_board(page, base, tid, number)
            if number == 1:
                shot(page, artifacts, "06-saisie-fiche")
            with page.expect_navigation():
                page.keyboard.press("Enter")
        page.wait_for_load_state()
        assert "enregistré" in page.inner_text("body"), page.content()
    assert refused_key is not None

    overview = scorers[0]
    overview.goto(f"{base}/saisie/tournois/{tid}/")
    assert "100 scores saisis sur 100" in overview.inner_text("body")

    # a correction: the second scorer changes one line of étui 1 afterwards
    fix_key = None
    page = scorers[1]
    page.goto(f"{base}/saisie/tournois/{tid}/etuis/1")
    first = page.locator("input.score-input").first
    fix_key = first.get_attribute("name").removeprefix("score-")
    board, table = map(int, fix_key.split("-"))
    old = score_for(board, table)
    new = next(s for s in ALLOWED if s != old and s > 0)
    first.fill(f"{new:+d}")
    with page.expect_navigation():
        first.press("Enter")
    page.wait_for_load_state()
    page.goto(f"{base}/saisie/tournois/{tid}/etuis/1")
    assert page.locator(f"input[name='score-{fix_key}']").input_value() == f"{new:+d}"
    assert "(corrigé)" in page.inner_text("body")
    shot(page, artifacts, "07-saisie-correction")

    # --- public ranking = `flask rank` of the exported file ----------------------------------------------
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/")
    exported = download(arbiter, lambda: arbiter.click("a:has-text('Exporter (JSON)')"))
    data = json.loads(exported.read_text(encoding="utf-8"))
    assert len(data["results"]) == TABLES * BOARDS
    line = next(r for r in data["results"] if (r["board"], r["table"]) == (board, table))
    assert line["score"] == new
    ranked = json.loads(flask(sqlite_url, "rank", str(exported)).stdout)
    # the evening is over: the arbiter publishes the results (SPEC §11; until then the public sees progress)
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Publier les résultats')")
    assert "Résultats publiés" in arbiter.inner_text("body")

    visitor = new_page()
    visitor.goto(f"{base}/tournois/{tid}/")
    assert "Toutes les fiches ambulantes sont saisies" in visitor.inner_text("body")
    shot(visitor, artifacts, "08-classement-public")
    rows = visitor.locator("table.ranking.general tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells).map(c => c.innerText.trim()))")
    assert len(rows) == PLAYERS == len(ranked["ranking"])
    for cells, expected in zip(rows, ranked["ranking"]):
        place, who, _line, attack, defence, _penalty, global_ = cells
        assert who.split()[0] == place_label(expected["id"])   # W1 in the files, « O1 » on screen
        assert place.rstrip("e").split()[0].rstrip("e") in (str(expected["rank"]), f"{expected['rank']}er")
        assert (attack, defence, global_) == (fr2(expected["attack"]), fr2(expected["defence"]),
                                              fr2(expected["global"]))
    assert visitor.locator("b", has_text="Zoé").count() == 0 and HOSTILE_SURNAME in visitor.inner_text("body")
    api = visitor.request.get(f"{base}/api/tournaments/{tid}/ranking").json()
    assert api["ranking"] == ranked["ranking"] and api["boards"] == ranked["boards"]

    # --- a player reaches their route sheet through their QR code ------------------------------------------
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/feuilles")
    shot(arbiter, artifacts, "09-liens-prives")
    row = arbiter.locator("table.private-links tbody tr", has_text=HOSTILE_SURNAME)
    url = row.locator("td a").first.inner_text().strip()
    qr_src = row.locator("img").get_attribute("src")
    svg = arbiter.request.get(base + qr_src).text()
    expected = segno.make(url, error="m", micro=False).svg_inline(scale=4, border=2, dark="#000")
    assert re.search(r' d="([^"]+)"', svg).group(1) == re.search(r' d="([^"]+)"', expected).group(1)
    assert_images_shown(row.locator("img"))
    entrant = row.locator(".place-id").inner_text().strip()

    player = new_page()  # the player's phone: no session, no cookie
    player.goto(url)
    body = player.inner_text("body")
    assert "Feuille de route récapitulative" in body and entrant in body and HOSTILE_SURNAME in body
    standing = next(r for r in ranked["ranking"] if r["id"] == entrant)
    assert fr2(standing["global"]) in body
    assert_images_shown(player.locator("img"))  # the QR code is drawn
    shot(player, artifacts, "10-feuille-de-route")
