"""Free play at the table (issue 16) in real Chromium: the table's phone, 390 px wide, no account.

20 players: 5 tables of 4 (the FFT movement, no table of 3). The arbiter makes the movement, opens
« Saisie à la table » (links, QR codes, the players' codes); the phone of table 1 opens its link, the North
types the feuille of position 1 — the marks appear while he types, no sideways scrolling —, sends it; it does
not count yet. East types a wrong code (refused), then his own: the feuille counts, the arbiter's list of
feuilles has it, and the phone moves on to position 2.

By hand (rules-of-play « La marque »): a Garde made by 10 (2 bouts, 51 points: 41 needed) is (25 + 10) × 2 =
70 per defender → the taker +210, each defender −70.
"""

from __future__ import annotations

import re

from live import flask
from screens import (PASSWORD, PHONE, create_tournament, import_players, make_free_movement, numbered_players_csv,
                     page_width, shots, sign_in)

PLAYERS = 20


def test_the_table_phone_enters_and_a_player_confirms(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid = create_tournament(arbiter, base, "Jeudi libre", "free", "2026-11-26")
    csv_path = tmp_path / "joueurs.csv"
    csv_path.write_text(numbered_players_csv("TABLE", PLAYERS, 8200, "Club de Tarot d’Orléans"), encoding="utf-8")
    import_players(arbiter, base, tid, csv_path, PLAYERS)
    assert "Mouvement fait et joueurs placés" in make_free_movement(arbiter, base, tid, "jeudi table")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles")
    arbiter.click("a:has-text('Saisie à la table')")
    link = arbiter.locator("ul.free-table-links a").first.get_attribute("href")
    codes = {}
    for row in arbiter.locator("table.free-codes tbody tr").all():
        place, name, code = row.inner_text().split("\t")
        codes[place.strip()] = code.strip()
    assert len(codes) == PLAYERS and all(re.fullmatch(r"\d{4}", c) for c in codes.values())
    shots(arbiter, artifacts, "libre-table-01-liens-et-codes")

    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    phone.goto(base + re.sub(r"^https?://[^/]+", "", link))
    assert "Table 1, position 1" in phone.inner_text("h1")
    assert page_width(phone) <= 390, page_width(phone)
    seats = {}
    for option in phone.locator("[name=taker-0] option").all():
        value = option.get_attribute("value")
        if value:
            seats[value] = option.inner_text()
    people = list(seats)
    assert len(people) == 4
    taker = people[1]  # the South (seat order N, S, E, W)
    phone.select_option("[name=taker-0]", taker)
    phone.select_option("[name=contract-0]", "garde")
    phone.fill("[name=points-0]", "51")
    phone.fill("[name=bouts-0]", "2")
    row = phone.locator("tr[data-row='0']")
    row.locator(f"td.live-mark[data-player='{taker}']").filter(has_text="+210").wait_for()
    assert row.locator(f"td.live-mark[data-player='{people[0]}']").inner_text() == "−70"
    assert page_width(phone) <= 390, page_width(phone)
    shots(phone, artifacts, "libre-table-02-saisie-telephone")
    with phone.expect_navigation():  # the new page loaded, its style sheet too, before it is measured
        phone.click("button:has-text('Envoyer pour confirmation')")
    body = phone.inner_text("body")
    assert "En attente de confirmation" in body and "+210" in body
    assert page_width(phone) <= 390, page_width(phone)

    # East confirms: a wrong code first
    east = people[2]
    east_label = east.replace("W", "O")
    wrong = "0000" if codes[east_label] != "0000" else "1111"
    phone.select_option("#seat", "E")
    phone.fill("#code", wrong)
    with phone.expect_navigation():  # the new page loaded, its style sheet too, before it is measured
        phone.click("button:has-text('Confirmer la feuille')")
    assert "Code incorrect pour Est" in phone.inner_text("body")
    phone.select_option("#seat", "E")
    phone.fill("#code", codes[east_label])
    shots(phone, artifacts, "libre-table-03-confirmation")
    with phone.expect_navigation():  # the new page loaded, its style sheet too, before it is measured
        phone.click("button:has-text('Confirmer la feuille')")
    body = phone.inner_text("body")
    assert "Feuille de la table 1, position 1 confirmée : elle compte." in body
    assert "Table 1, position 2" in phone.inner_text("h1")  # on to the next position
    assert page_width(phone) <= 390, page_width(phone)

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/1")
    marks = arbiter.inner_text("table.free-marks")
    assert "+210" in marks and "−70" in marks
