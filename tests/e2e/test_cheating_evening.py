"""A cheating evening (issue 28, docs/table-phones.md, docs/accounts.md, docs/settled-and-corrected.md), in
real Chromium from an empty database: seven tables on 390 px phones, an arbiter, a rival arbiter, and
everyone who wants more than their seat allows.

The arbiter imports the evening's file (players, étuis, movement: prepared at home), makes a scorer account
from the « Accès » page, switches on « scores des autres tables », and launches each position from the live
room. At every position each North enters his étuis and a defender confirms with his seat and his personal
code, read on the arbiter's « Codes de confirmation » page as it is printed on his card. Meanwhile:

* at table 1 the North confirms his own line with his own code at a defender's seat — refused;
* at table 2 the taker types his own code — refused, and his own seat is refused through the API;
* at table 3 the North enters an étui of a position not launched — refused;
* at table 4, the option on, the North makes up a line for an étui of a later position to read the other
  tables' real scores of it — both refused;
* E1, who played position 1 at table 1, keeps its link and opens it at position 2: no score of position 1;
* the rival arbiter gives his own tournament to the arbiter's scorer, then tries to reset that scorer's
  password (the takeover of issue 28) and to open the arbiter's tournament — refused.

Each refusal is French, and the arbiter's journal says who tried what. The arbiter adjusts one line; after
publication the ranking equals ``flask rank`` of the exported file, and the only line marked « corrigé » on
the public étui pages is the one the arbiter changed.
"""

from __future__ import annotations

import json
import re

from live import create_users, flask, simulated_file
from screens import PASSWORD, create_tournament, shot, shots, sign_in
from test_table_phones import PHONE, confirm, confirm_settled, enter, view

TABLES, POSITIONS = 7, 3
SCORER, SCORER_PASSWORD = "paul.saisie", "marqueur-du-soir"


def launch(arbiter, base: str, tournament_id: int, position: int) -> None:
    """The live room's « Lancer la position »."""
    arbiter.goto(f"{base}/arbitre/tournois/{tournament_id}/salle")
    arbiter.fill("#clock-position", str(position))
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Lancer la position')")
    assert f"Position en jeu : {position}" in arbiter.inner_text("main"), arbiter.inner_text("main")


def codes_page(arbiter, base: str, tournament_id: int) -> dict[str, str]:
    """Entrant id → code, read on the arbiter's « Codes de confirmation » page (names « JOUEUR N1 »…)."""
    arbiter.goto(f"{base}/arbitre/tournois/{tournament_id}/tables/codes")
    rows = arbiter.locator("table.table-codes tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells).map(c => c.innerText.trim()))")
    return {name.removeprefix("JOUEUR "): code for _place, name, code in rows}


def error_of(page, number: int) -> str:
    page.wait_for_selector(f"#etui-{number} .message.error")
    return page.inner_text(f"#etui-{number} .message.error")


def post(page, url: str, body: dict) -> tuple[int, dict]:
    """What a cheater's own request sends from the phone (no page in between)."""
    response = page.request.post(url, data=json.dumps(body), headers={"Content-Type": "application/json"})
    return response.status, response.json()


def test_a_cheating_evening_is_refused_seat_by_seat(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"), ("rival", PASSWORD, "arbiter"))
    data = simulated_file(TABLES, POSITIONS, seed="tricheurs")
    scores = {(r["board"], r["table"]): r["score"] for r in data["results"]}
    path = tmp_path / "vendredi.json"
    path.write_text(json.dumps(dict(data, results=[], name="Vendredi des tricheurs"), ensure_ascii=False),
                    encoding="utf-8")

    # --- the arbiter prepares the evening ---------------------------------------------------------------------
    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    arbiter.goto(base + "/arbitre/import")
    arbiter.set_input_files("#file", str(path))
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Importer')")
    tid = int(re.search(r"/arbitre/tournois/(\d+)/$", arbiter.url).group(1))
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/acces")
    assert "Arbitre responsable : arbitre" in arbiter.inner_text("main")  # imported: his, not shared
    arbiter.fill("#scorer-username", SCORER)
    arbiter.fill("#scorer-password", SCORER_PASSWORD)
    arbiter.click("button:has-text('Créer le compte')")
    assert f"Compte de marqueur « {SCORER} » créé" in arbiter.inner_text("body")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/tables")
    arbiter.check("#results_visible")
    with arbiter.expect_navigation():
        arbiter.click(".table-options button[type=submit]")
    links = {int(row[0]): row[1] for row in arbiter.locator("table.table-links tbody tr").evaluate_all(
        "rows => rows.map(r => [r.cells[0].innerText.trim(), r.querySelector('a').getAttribute('href')])")}
    assert sorted(links) == list(range(1, TABLES + 1))
    codes = codes_page(arbiter, base, tid)
    assert len(codes) == TABLES * 4 and all(re.fullmatch(r"\d{4}", code) for code in codes.values())

    # --- the rival arbiter tries the takeover -----------------------------------------------------------------
    rival = new_page()
    sign_in(rival, base, "rival")
    assert rival.goto(f"{base}/arbitre/tournois/{tid}/").status in (403, 404)
    rid = create_tournament(rival, base, "Tournoi du rival", "individual")
    rival.goto(f"{base}/arbitre/tournois/{rid}/acces")
    rival.fill("#grant-username", SCORER)
    rival.click("button:has-text('Donner l’accès')")
    assert f"{SCORER} a désormais accès au tournoi." in rival.inner_text("body")  # granting is allowed…
    csrf = rival.locator("input[name=csrf_token]").first.get_attribute("value")
    rival.goto(f"{base}/arbitre/comptes")
    assert SCORER not in rival.inner_text("main")  # …it does not hand over the account
    for user_id in range(1, 6):  # he tries every account number
        response = rival.request.post(f"{base}/arbitre/comptes/{user_id}/mot-de-passe",
                                      form={"csrf_token": csrf, f"reset-{user_id}-password": "repris-par-le-rival"})
        assert response.status == 422, (user_id, response.status)
    assert "géré par un autre arbitre" in response.text()
    shots(rival, artifacts, "tricheurs-rival-comptes")
    scorer = new_page()
    sign_in_as(scorer, base, SCORER, SCORER_PASSWORD)  # his password is still the arbiter's
    assert scorer.goto(f"{base}/saisie/tournois/{tid}/").status == 200

    # --- the tables -------------------------------------------------------------------------------------------
    phones = {}
    for table, link in links.items():
        phone = new_page(**PHONE)
        phone.goto(base + link)
        phone.wait_for_selector(".not-launched")  # nothing launched yet: no entry
        phones[table] = phone
    e1 = new_page(**PHONE)  # E1's own phone: he scans table 1's QR code at position 1, and keeps the link

    position_one_scores = {}
    for position in range(1, POSITIONS + 1):
        launch(arbiter, base, tid, position)
        for table, phone in phones.items():
            phone.reload()
            phone.wait_for_selector("form.entry")
            shown = view(phone)
            assert shown["position"] == position and shown["launched"], (table, shown)
            seated = {seat: item["id"] for seat, item in shown["seats"].items()}
            # at table 1 the North cheats on an étui he defends (on one he takes, his code is the taker's)
            north_defends = next((b["number"] for b in shown["boards"] if b["taker_seat"] != "N"), None)
            for board in shown["boards"]:
                number = board["number"]
                score = scores[(number, table)]
                enter(phone, number, score)
                defender = board["confirm_seats"][0]
                if position == 1 and table == 1 and number == north_defends:
                    # the North confirms his own line: his code at a defender's seat
                    confirm(phone, number, defender, codes[seated["N"]])
                    assert "Code incorrect pour" in error_of(phone, number)
                    assert phone.locator(f"#etui-{number} input[data-seat=N]").count() == 0  # not his seat
                    shots(phone, artifacts, "tricheurs-nord-refuse")
                if position == 1 and table == 2 and board is shown["boards"][0]:
                    # the taker types his own code, then asks for his own seat through the API
                    taker_seat = board["taker_seat"]
                    confirm(phone, number, defender, codes[seated[taker_seat]])
                    assert "C’est le code du preneur" in error_of(phone, number)
                    status, body = post(phone, f"{base}/api/table/{link_secret(links[2])}/results/{number}/confirm",
                                        {"seat": taker_seat, "code": codes[seated[taker_seat]]})
                    assert status == 422 and "ne confirme pas son propre score" in body["error"]
                confirm_settled(phone, number, defender, codes[seated[defender]])
                if position == 1:
                    position_one_scores[(number, table)] = score
            if position == 1 and table == 3:
                later = next(b for b in fetch_view(phone, base, links[3], 2)["boards"])
                status, body = post(phone, f"{base}/api/table/{link_secret(links[3])}/results",
                                    {"board": later["number"], "score": 56})
                assert status == 422 and "pas encore lancé la position 2" in body["error"]
            if position == 1 and table == 4:
                later = fetch_view(phone, base, links[4], 3)["boards"][0]["number"]
                status, body = post(phone, f"{base}/api/table/{link_secret(links[4])}/results",
                                    {"board": later, "score": 56})
                assert status == 422 and "pas encore lancé la position 3" in body["error"]
                response = phone.request.get(f"{base}/api/table/{link_secret(links[4])}/boards/{later}")
                assert response.status == 403 and "results" not in response.json()
                assert "une fois votre score de cet étui confirmé" in response.json()["error"]
                own = shown["boards"][0]["number"]  # its own étui of the position in play: allowed
                response = phone.request.get(f"{base}/api/table/{link_secret(links[4])}/boards/{own}")
                assert response.status == 200 and response.json()["results"]
            if position == 1 and table == 1:
                e1.goto(base + link_of(phones[1]))
                e1.wait_for_selector("section.board")
        if position == 2:
            # E1 now plays elsewhere; he opens table 1's link again and asks for position 1
            e1.reload()
            e1.wait_for_selector("section.board")
            e1.select_option("#position", "1")
            e1.wait_for_selector(".hidden-score")
            assert e1.inner_text(".seat-W .ident") == "O1"  # a French player reads O, not W
            text = e1.inner_text("#content")
            for (number, table), score in position_one_scores.items():
                if table == 1:
                    assert e1.locator(f"#etui-{number} .stored-score").count() == 0
                    assert f"{score:+d}".replace("-", "−") not in text, (number, score, text)
            answer = e1.request.get(f"{base}/api/table/{link_secret(links[1])}?position=1").json()
            assert answer["scores_shown"] is False and not any("score" in b for b in answer["boards"])
            shots(e1, artifacts, "tricheurs-e1-position-1")
        if position == 1:
            shot(phones[1], artifacts, "tricheurs-table1-390")

    # --- the journal says who tried what ----------------------------------------------------------------------
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/journal")  # a hundred entries a page: the whole evening on one
    arbiter.click("text=Tout sur une page (à imprimer)")
    arbiter.wait_for_url(re.compile(r"page=tout"))
    journal = arbiter.inner_text("table.journal")
    assert re.search(r"table 1, position 1 : code refusé pour \w+ \(\w+ JOUEUR \w+\), c’est celui de N1 JOUEUR N1",
                     journal), journal
    assert "c’est celui du preneur" in journal and "confirmation refusée, place du preneur" in journal
    assert "table 3 : saisie refusée, la position 2 n’est pas lancée" in journal
    assert "table 4 : saisie refusée, la position 3 n’est pas lancée" in journal
    assert re.search(r"confirmé par la défense \(\w+, \w+ JOUEUR \w+\)", journal)
    shots(arbiter, artifacts, "tricheurs-journal")
    arbiter.fill("input[name=table]", "3")  # the arbiter asks what table 3's phone did
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Filtrer')")
    table_3 = arbiter.locator("table.journal tbody tr").all_inner_texts()
    assert table_3 and all(re.search(r"\btable (: )?3\b", row) for row in table_3), table_3
    assert "table 3 : saisie refusée, la position 2 n’est pas lancée" in arbiter.inner_text("table.journal")

    # --- the arbiter adjusts one line; publication ------------------------------------------------------------
    number, table = sorted(scores)[0]
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/etuis/{number}/fiche")
    section = arbiter.locator(f"section#ligne-{number}-{table}")
    section.locator("summary").click()
    adjusted = scores[(number, table)] + 10 if scores[(number, table)] + 10 != 0 else scores[(number, table)] + 20
    form = section.locator("form:has(button:has-text('Ajuster le score'))")
    form.locator("input[name$=score]").fill(f"{adjusted:+d}")
    form.locator("input[name$=reason]").fill("fiche relue avec la table")
    with arbiter.expect_navigation():
        form.locator("button:has-text('Ajuster le score')").click()
    status, body = post(phones[table], f"{base}/api/table/{link_secret(links[table])}/results",
                        {"board": number, "score": scores[(number, table)]})
    assert status == 409 and "score" not in body  # settled, and its position is no longer in play
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/")
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Publier les résultats')")
    exported = tmp_path / "export.json"
    exported.write_bytes(arbiter.request.get(f"{base}/arbitre/tournois/{tid}/export").body())
    ranked = json.loads(flask(sqlite_url, "rank", str(exported)).stdout)
    visitor = new_page(**PHONE)
    published = visitor.request.get(f"{base}/api/tournaments/{tid}/ranking").json()
    assert published["published"] is True and published["complete"] is True and published["missing"] == 0
    assert published["ranking"] == ranked["ranking"] and published["boards"] == ranked["boards"]

    corrected = []
    for board in sorted({n for n, _ in scores}):
        visitor.goto(f"{base}/tournois/{tid}/etuis/{board}")
        corrected += [board] * visitor.locator(".flag-corrected").count()
    assert corrected == [number], corrected  # only the line the arbiter changed
    visitor.goto(f"{base}/tournois/{tid}/etuis/{number}")
    shots(visitor, artifacts, "tricheurs-etui-corrige")


def sign_in_as(page, base: str, username: str, password: str) -> None:
    page.goto(base + "/connexion")
    page.fill("#username", username)
    page.fill("#password", password)
    with page.expect_navigation():
        page.press("#password", "Enter")
    assert "/connexion" not in page.url, page.inner_text("main")


def link_secret(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[-1]


def link_of(page) -> str:
    return "/table/" + link_secret(page.url.split("?")[0])


def fetch_view(page, base: str, link: str, position: int) -> dict:
    return page.request.get(f"{base}/api/table/{link_secret(link)}?position={position}").json()
