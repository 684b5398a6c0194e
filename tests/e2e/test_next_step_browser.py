"""A team match prepared by following the dashboard's « Prochaine étape » only (issue 29 points 15 and 8b).

From an empty database the arbiter creates a team match; from then on every screen is reached through the
dashboard's « Prochaine étape » link (and back to the dashboard through the menu's « Tableau de bord »):
registrations (a CSV list), the two teams, the placement, the étuis, the movement, the four quarters'
attackers. « Tout est prêt » must not be said before the eighth attacker is chosen; then the next step is
the evening's, « Lancer la position 1 » in « Salle ». The menu, grouped « Préparer », « Jouer »,
« Résultats », « Tournoi », is photographed at 390 and 1920 px (in the test's tmp folder: ``menu-*.png``) and
must not scroll sideways.
"""

from __future__ import annotations

import re

from live import flask
from screens import PASSWORD, create_tournament, shots, sign_in

PLAYERS = [("LEFÈVRE", "Hélène"), ("MARTIN", "Jérôme"), ("DURAND", "Zoé"), ("PETIT", "Noël"),
           ("ROUX", "Anaïs"), ("BLANC", "Léa"), ("NOIR", "Inès"), ("VERT", "Maëlle")]


def _next(page, label: str) -> str:
    """Back to the dashboard by the menu, then its « Prochaine étape » link, which must be ``label``; returns
    the next step's sentence."""
    page.click("nav.steps-nav a:has-text('Tableau de bord')")
    link = page.locator("p.next-step a")
    assert link.inner_text() == label, page.locator("main").inner_text()
    assert "Tout est prêt" not in page.inner_text("main")
    sentence = page.locator("p.next-step").inner_text()
    link.click()
    return sentence


def test_a_team_match_prepared_by_following_the_next_step(live_server, new_page, sqlite_url, tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    page = new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, base, "arbitre")
    create_tournament(page, base, "Match du mardi", "team_match", "2026-03-10", "Évreux")

    # the menu, grouped by the evening, at a phone's width and a full-HD screen's
    page.locator("p.next-step").wait_for()
    groups = page.locator("nav.steps-nav .menu-title").all_inner_texts()
    assert groups == ["Préparer", "Jouer", "Résultats", "Tournoi"]
    shots(page, tmp_path, "menu-dashboard")

    _next(page, "Inscriptions")
    page.click("a:has-text('Importer une liste (CSV)')")
    csv_path = tmp_path / "joueurs.csv"
    csv_path.write_bytes(("Licence;Nom;Prénom;Club\r\n" + "".join(
        f"{300 + i};{surname};{first};Évreux\r\n" for i, (surname, first) in enumerate(PLAYERS))).encode("cp1252"))
    page.set_input_files("#file", str(csv_path))
    page.click("button:has-text('Voir l’aperçu')")
    page.click("button:has-text('Confirmer')")
    page.wait_for_url(re.compile(r"/joueurs$"))
    assert "8 joueurs importés" in page.inner_text("body")

    _next(page, "Équipes")
    for team, members in (("Les Rois", PLAYERS[:4]), ("Les Dames", PLAYERS[4:])):
        page.fill("#name", team)
        for surname, first in members:
            page.get_by_label(f"{surname} {first}", exact=True).check()
        page.click("button:has-text('Former l’équipe')")
        assert f"Équipe « {team} » formée." in page.inner_text("body"), page.inner_text("main")

    _next(page, "Placement")
    page.fill("#seed", "tirage du mardi")
    page.click("button:has-text('Tirer les places')")
    assert "Places tirées au sort" in page.inner_text("body")

    _next(page, "Étuis")
    page.fill("#generate-count", "20")
    page.fill("#generate-seed", "mardi")
    page.click("button:has-text('Générer les étuis')")
    assert "20 étuis générés" in page.inner_text("body")

    _next(page, "Mouvement")
    page.click("button[name=preview]")
    page.locator("button[name=accept]").first.click()
    assert "Mouvement choisi" in page.inner_text("body")

    # the attackers, quarter by quarter: « Tout est prêt » is not said while one is missing
    for quarter, series, room in ((1, "1-5", "A"), (2, "6-10", "B"), (3, "11-15", "A"), (4, "16-20", "B")):
        sentence = _next(page, "Attaquants")
        assert sentence == ("Prochaine étape : Attaquants — "
                            + ("0 attaquant choisi" if quarter == 1 else f"{2 * (quarter - 1)} attaquants choisis") + " sur 8"), sentence
        page.fill(f"#q{quarter}-boards", series)
        page.select_option(f"#q{quarter}-open_attack", room)
        page.select_option(f"#q{quarter}-attacker_A", index=quarter)  # a different attacker each quarter
        page.select_option(f"#q{quarter}-attacker_B", index=quarter)
        page.click(f"button:has-text('Enregistrer le {('1er' if quarter == 1 else f'{quarter}e')} quart temps')")
        assert "quart temps enregistré" in page.inner_text("body"), page.inner_text("main")

    page.click("nav.steps-nav a:has-text('Tableau de bord')")
    main = page.inner_text("main")
    assert "Tout est prêt." in main and "8 attaquants choisis sur 8" in main, main
    link = page.locator("p.next-step a")
    assert link.inner_text() == "Lancer la position 1"
    shots(page, tmp_path, "menu-ready")
    link.click()
    page.wait_for_url(re.compile(r"/salle$"))
    assert errors == []
