"""Accounts in the browser (issue 13): the arbiter takes over a shared tournament and creates a scorer account
for it from the « Accès » page; the scorer, on a phone, signs in, enters a fiche, and cannot open another
tournament; disabled, the account's session ends. No page breaks the content-security policy (no refused
script, style or request)."""

from __future__ import annotations

from live import flask, ready_tournament
from screens import PASSWORD, enter_board, shots, sign_in


def test_the_arbiter_makes_a_scorer_who_enters_his_tournament_only(live_server, new_page, artifacts, sqlite_url,
                                                                 tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    tid, _lines = ready_tournament(sqlite_url, tmp_path)  # imported from the command line: shared
    other = int(flask(sqlite_url, "demo").stdout.split()[-1])
    violations = []

    def watch(page):
        page.on("console", lambda message: violations.append(message.text)
                if "Content Security Policy" in message.text else None)
        return page

    arbiter = watch(new_page())
    sign_in(arbiter, base, "arbitre")
    response = arbiter.goto(f"{base}/arbitre/tournois/{tid}/acces")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-frame-options"] == "DENY"
    assert "partagé" in arbiter.inner_text("main")
    arbiter.click("button:has-text('Prendre en charge ce tournoi')")
    assert "Tournoi pris en charge" in arbiter.inner_text("body")
    arbiter.fill("#scorer-username", "marqueur-table")
    arbiter.fill("#scorer-password", "secret-du-soir")
    arbiter.click("button:has-text('Créer le compte')")
    assert "Compte de marqueur « marqueur-table » créé" in arbiter.inner_text("body")
    assert "marqueur-table" in arbiter.inner_text("table.access-list")
    shots(arbiter, artifacts, "comptes-01-acces")

    phone = watch(new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True))
    phone.goto(base + "/connexion")
    phone.fill("#username", "marqueur-table")
    phone.fill("#password", "secret-du-soir")
    with phone.expect_navigation():
        phone.press("#password", "Enter")
    assert phone.url.endswith("/saisie/")
    listing = phone.inner_text("main")
    assert "(à saisir)" in listing and "Accès refusé" not in listing
    assert phone.locator(f"a[href='/saisie/tournois/{other}/']").count() == 0
    shots(phone, artifacts, "comptes-02-marqueur-tournois")

    keys = enter_board(phone, base, tid, 1)
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    assert f"Étui 1 : {len(keys)} scores enregistrés." in phone.inner_text("body"), phone.inner_text("main")

    for path in (f"/saisie/tournois/{other}/", f"/saisie/tournois/{other}/etuis/1", "/arbitre/",
                 f"/arbitre/tournois/{tid}/"):
        response = phone.goto(base + path)
        assert response.status == 403, path
        assert "Accès refusé" in phone.inner_text("main"), path
    shots(phone, artifacts, "comptes-03-autre-tournoi-refuse")

    # the arbiter sees the lines the scorer entered
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/etuis/1/fiche")
    assert "marqueur-table" in arbiter.inner_text("main")

    # the evening over, the arbiter disables the account: the phone's session ends at once
    arbiter.goto(f"{base}/arbitre/comptes")
    shots(arbiter, artifacts, "comptes-04-comptes")
    arbiter.locator("section.account-card", has_text="marqueur-table").locator(
        "button:has-text('Désactiver le compte')").click()
    assert "Compte marqueur-table désactivé" in arbiter.inner_text("body")
    phone.goto(f"{base}/saisie/tournois/{tid}/")
    assert "/connexion" in phone.url

    # a competition is the arbiter's: he puts his séance in it, and manages it from its own page
    arbiter.goto(f"{base}/arbitre/competitions")
    arbiter.fill("#name", "Championnat du club")
    arbiter.click("button:has-text('Créer la compétition')")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/competition")
    arbiter.select_option("#series_id", label="Championnat du club")
    arbiter.fill("#coefficient", "1,5")
    arbiter.click("button:has-text('Enregistrer')")
    assert "Séance enregistrée." in arbiter.inner_text("body")
    arbiter.goto(f"{base}/arbitre/competitions")
    arbiter.click("a:has-text('Gérer')")
    assert "Arbitre responsable : arbitre" in arbiter.inner_text("main")
    assert arbiter.locator("table.series-sessions tbody tr").count() == 1
    shots(arbiter, artifacts, "comptes-05-competition")
    assert violations == [], violations
