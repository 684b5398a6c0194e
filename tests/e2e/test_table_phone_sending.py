"""The table's phone says « il partira dès que le réseau revient » only when the network failed (issue 29
point 9): it said it on every send, before the server's answer arrived. In Chromium at 390 px: a send held
by the test (the server's answer not yet back) reads « envoi en cours… »; with the phone offline, the score
waits and the sentence is said; back online, it goes."""

from __future__ import annotations

from live import create_token, create_users, ready_tournament
from screens import PASSWORD, shot
from test_table_phones import PHONE, api, launch, view

NETWORK = "il partira dès que le réseau revient"


def test_the_network_sentence_only_when_the_network_failed(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    tournament_id, lines = ready_tournament(sqlite_url, tmp_path, tables=7, positions=3)
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"))
    token = create_token(sqlite_url, "arbiter")
    link = api(base, f"/api/tournaments/{tournament_id}/tables", token)["tables"][0]
    launch(sqlite_url, tournament_id, 1)
    page = new_page(**PHONE)
    page.goto(link["url"])
    page.wait_for_selector("section.board")
    first, second = [board["number"] for board in view(page)["boards"][:2]]

    held = []
    page.route("**/results", lambda route: held.append(route))  # the server's answer is not back yet
    page.fill(f"#etui-{first} input[name=score]", "+66")
    page.click(f"#etui-{first} button[type=submit]")
    page.wait_for_selector(f"#etui-{first} .queued")
    page.wait_for_function("() => true")  # let the route handler run
    waiting = page.inner_text(f"#etui-{first} .queued")
    assert "envoi en cours" in waiting and NETWORK not in waiting, waiting
    assert NETWORK not in page.inner_text("body") and "Pas de réseau" not in page.inner_text("body")
    shot(page, artifacts, "table-phone-sending-390")
    assert len(held) == 1
    held[0].continue_()
    page.unroute("**/results")
    page.wait_for_selector(f"#etui-{first}.status-pending")
    assert page.locator(f"#etui-{first} .queued").count() == 0

    page.context.set_offline(True)
    page.fill(f"#etui-{second} input[name=score]", "+66")
    page.click(f"#etui-{second} button[type=submit]")
    page.wait_for_selector("#connection.offline")
    page.wait_for_function(f"() => (document.querySelector('#etui-{second} .queued') || {{}}).textContent"
                           f"?.includes('{NETWORK}')")
    shot(page, artifacts, "table-phone-offline-sentence-390")
    page.context.set_offline(False)
    page.wait_for_selector(f"#etui-{second}.status-pending", timeout=30_000)
