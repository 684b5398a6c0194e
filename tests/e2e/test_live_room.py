"""The hall during play (issue 13 points 4 and 5), in real Chromium against the real server (CSRF on).

Four devices, four browser contexts: the arbiter with the live room open, a scorer typing a table's
position on the « par table » screen, table 2's phone (the table API, SPEC §12), the hall's projector at
1920×1080. The arbiter starts position 1; the scorer saves table 1's four lines; the arbiter's cell
(position 1, table 1) turns « saisi » without the page being reloaded (short polling); table 2's lines
show « en attente » until a defender confirms them, then « saisi »; the projector shows the countdown in
huge type, the position and the next move. Once the arbiter publishes, the projector turns to the rankings by itself.
Screenshots at 390 and 1920 px: ``live-room-*.png``, ``projector-*.png``.
"""

from __future__ import annotations

import re

from live import create_users, give_tournament, ready_tournament
from screens import PASSWORD, shots, sign_in

RELOAD_MARK = "window.__sameDocument = 'oui'"


def confirmation_codes(database_url: str, tournament_id: int) -> dict[str, str]:
    from sqlalchemy import create_engine
    from sqlmodel import Session

    from duplicate import operations

    engine = create_engine(database_url)
    with Session(engine) as session:
        codes = {item["id"]: item["code"]
                 for item in operations.table_codes(session, operations.get_tournament(session, tournament_id))}
    engine.dispose()
    return codes


def test_the_grid_fills_in_live_and_the_projector_counts_down(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"), ("marqueur", PASSWORD, "scorer"))
    tid, lines = ready_tournament(sqlite_url, tmp_path, tables=5)
    give_tournament(sqlite_url, tid, "marqueur")

    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/salle")
    arbiter.fill("#clock-position", "1")
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Lancer la position')")
    assert re.fullmatch(r"2[78]:[0-5][0-9]", arbiter.inner_text(".countdown"))  # 7 min × 4 étuis
    cell = arbiter.locator("td[data-cell='1-1']")
    assert cell.locator(".cell-status").inner_text() == "manquant"
    assert cell.locator(".cell-count").inner_text() == "0/4"
    arbiter.evaluate(RELOAD_MARK)

    scorer = new_page()
    sign_in(scorer, base, "marqueur")
    scorer.goto(f"{base}/saisie/tournois/{tid}/tables/1/1")
    mine = [line for line in lines if line["position"] == 1 and line["table"] == 1]
    assert len(mine) == 4
    for line in mine:
        scorer.fill(f"input[name='score-{line['board']}-1']", f"{line['score']:+d}")
    with scorer.expect_navigation():
        scorer.click("button:has-text('Enregistrer')")

    arbiter.wait_for_function(
        "() => document.querySelector(\"td[data-cell='1-1'] .cell-status\").textContent === 'saisi'", timeout=15_000)
    assert arbiter.evaluate("window.__sameDocument") == "oui"  # filled in without a reload
    assert cell.locator(".cell-count").inner_text() == "4/4"
    assert "status-done" in cell.get_attribute("class")
    assert "status-done" in arbiter.locator(f"[data-line='{mine[0]['board']}-1']").get_attribute("class")
    assert arbiter.locator("td[data-cell='1-2'] .cell-status").inner_text() == "manquant"

    # table 2 enters its étuis on its phone (SPEC §12): « en attente » until a defender confirms, then « saisi »
    links = arbiter.request.get(f"{base}/api/tournaments/{tid}/tables").json()["tables"]
    secret = next(link["secret"] for link in links if link["table"] == 2)
    phone = new_page(viewport={"width": 390, "height": 844}).request
    table2 = [line for line in lines if line["position"] == 1 and line["table"] == 2]
    for line in table2:
        answer = phone.post(f"{base}/api/table/{secret}/results", data={"board": line["board"], "score": line["score"]})
        assert answer.status == 202, answer.text()
    arbiter.wait_for_function(
        "() => document.querySelector(\"td[data-cell='1-2'] .cell-status\").textContent === 'en attente'",
        timeout=15_000)
    shots(arbiter, artifacts, "live-room")
    codes = confirmation_codes(sqlite_url, tid)
    for line in table2:  # a defender other than the North, with his personal code (docs/table-phones.md)
        defender = next(seat for seat in "ESW" if seat != line["taker"][0])
        answer = phone.post(f"{base}/api/table/{secret}/results/{line['board']}/confirm",
                            data={"seat": defender, "code": codes[f"{defender}2"]})
        assert answer.status == 200, answer.text()
    arbiter.wait_for_function(
        "() => document.querySelector(\"td[data-cell='1-2'] .cell-status\").textContent === 'saisi'", timeout=15_000)
    assert arbiter.evaluate("window.__sameDocument") == "oui"

    projector = new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{base}/tournois/{tid}/projecteur")
    clock = projector.locator(".p-clock")
    assert re.fullmatch(r"2[78]:[0-5][0-9]", clock.inner_text())
    first = clock.inner_text()
    projector.wait_for_function(f"() => document.querySelector('.p-clock').textContent !== '{first}'", timeout=5_000)
    size = float(clock.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 300, size  # readable from 10 m: the digits are some 30 cm tall on a 3 m screen
    box = clock.bounding_box()
    assert box["y"] + box["height"] <= 1080 and box["width"] <= 1920  # on screen, no scrolling
    assert projector.inner_text(".p-position") == "1re position sur 5"
    assert projector.locator(".p-parts li").all_inner_texts() == ["Nord fixe", "Sud +1", "Est +2", "Ouest −2",
                                                                   "Étuis −1"]
    assert "Fiches : 8 / 100 lignes saisies" in projector.inner_text(".p-header")
    projector.screenshot(path=str(artifacts / "projector-1920.png"))
    projector.set_viewport_size({"width": 390, "height": 844})
    projector.screenshot(path=str(artifacts / "projector-390.png"))
    projector.set_viewport_size({"width": 1920, "height": 1080})

    # the arbiter pauses: the projector's clock stops on the next poll
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Pause')")
    assert arbiter.locator("button:has-text('Reprendre')").is_visible()
    assert not arbiter.locator("button:has-text('Pause')").is_visible()
    projector.wait_for_function("() => document.querySelector('.p-clock').dataset.state === 'paused'", timeout=10_000)
    assert projector.inner_text(".p-clock-label") == "En pause"

    # publication: the projector turns to the rankings by itself
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/")
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Publier les résultats')")
    projector.wait_for_selector(".p-ranking", timeout=15_000)
    assert "Classement général" in projector.inner_text("body")
    projector.screenshot(path=str(artifacts / "projector-ranking-1920.png"))
