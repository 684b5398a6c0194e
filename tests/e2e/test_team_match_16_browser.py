"""A team match of 16 étuis in real Chromium (issue 29 point 10): the arbiter creates it, imports the two
teams, draws the places, chooses « 16 étuis (4 par quart temps) » on the movement page, and the étuis page
proposes 16, which he generates as proposed; the movement shows 4 quarters of 4 étuis in both rooms, the
« Match » page each quarter's series (1-4, 5-8, 9-12, 13-16) with nothing edited by hand, and the entry
page of a quarter its 4 étuis.  Seed ``duplicate-tournaments.txt``, « DUPLICATE PAR ÉQUIPES » : 16 to 24
donnes, 4 quarts temps — 4 × 4 = 16.  Screens photographed at 390 and 1920 px.
"""

from __future__ import annotations

from live import flask
from screens import PASSWORD, create_tournament, import_teams, shots, sign_in

TEAMS_CSV = ("Équipe;Licence;Nom;Prénom;Club\r\n"
             + "".join(f"Les Rois;{100 + i};ROI{i};Jean;Évreux\r\n" for i in range(4))
             + "".join(f"Les Dames;{200 + i};DAME{i};Anne;Rouen\r\n" for i in range(4))).encode("cp1252")


def test_a_16_etui_team_match_set_up_on_the_arbiters_pages(live_server, new_page, sqlite_url, artifacts, tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    page = new_page()
    sign_in(page, base, "arbitre")
    tid = create_tournament(page, base, "Match en 16 étuis", "team_match", "2026-12-04", "Évreux")
    home = f"{base}/arbitre/tournois/{tid}"

    import_teams(page, home, tmp_path / "equipes.csv", TEAMS_CSV, 2)
    page.goto(f"{home}/placement")
    page.fill("#seed", "seize")
    page.click("button:has-text('Tirer les places')")

    # before the movement, the étuis page says what the number depends on, and proposes none
    page.goto(f"{home}/etuis")
    assert page.input_value("#generate-count") == ""
    assert "4 quarts temps de 4, 5 ou 6 étuis" in page.inner_text("#generate-count-aide")

    page.goto(f"{home}/mouvement")
    page.select_option("#quarter_boards", "4")
    page.click("button[name=preview]")
    assert "2 tables, 4 positions, 16 étuis." in page.inner_text("main")
    page.locator("button[name=accept]").first.click()
    assert "Mouvement choisi" in page.inner_text("body")
    assert "2 tables, 4 positions, 16 étuis." in page.inner_text("main")
    assert page.input_value("#quarter_boards") == "4"
    cells = page.locator("table.movement .round-boards").all_inner_texts()
    assert cells == [f"étuis {', '.join(str(b) for b in range(4 * q - 3, 4 * q + 1))}" for q in (1, 2, 3, 4)
                     for _room in (1, 2)]
    shots(page, artifacts, "match-16-mouvement")

    page.goto(f"{home}/etuis")
    assert page.input_value("#generate-count") == "16"
    assert page.inner_text("#generate-count-aide") == ("Le mouvement choisi fait jouer 16 étuis : "
                                                       "4 quarts temps de 4 étuis.")
    shots(page, artifacts, "match-16-etuis-proposes")
    page.fill("#generate-seed", "seize")
    page.click("button:has-text('Générer les étuis')")
    assert "16 étuis générés" in page.inner_text("body")
    assert page.locator("table.boards tbody tr").count() == 16

    page.goto(f"{home}/match")
    assert [page.input_value(f"#q{q}-boards") for q in (1, 2, 3, 4)] == ["1-4", "5-8", "9-12", "13-16"]
    shots(page, artifacts, "match-16-reglages")

    page.goto(f"{base}/saisie/tournois/{tid}/")
    page.click("a:has-text('Quart temps 2, salle ouverte')")
    assert page.locator("input[id^=score-]").count() == 4
    assert [page.locator(f"#score-{b}-1").count() for b in (5, 6, 7, 8, 9)] == [1, 1, 1, 1, 0]
