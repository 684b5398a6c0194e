"""Scoring at the table (issue 13, SPEC §12), in real Chromium at 390 px: a 7-table evening played entirely
from the tables' phones.

Seven phones (one browser context each, no cookie) open their table's link, as the QR code of the table
card gives it. The arbiter launches each position (the live room's « Lancer la position »); on each phone
the North enters each étui — mostly its score, some as the deal's facts, which the server's calculator turns
into the score — and a defender confirms it on the same phone, choosing his seat and typing his personal
code; once a wrong code was refused, in French. Once the next position is launched, a phone shows the
previous position's étuis without their scores (docs/table-phones.md). One phone loses the network
(``context.set_offline``) while its North saves: the entry waits on the phone, goes when the network is
back, and the line is written once. On one étui the paper fiche, typed by a scorer, disagrees with the
table: the arbiter sees the conflict on the « Tables » screen and keeps one score. At the end every line is
done, none doubled, and the ranking is complete.
"""

from __future__ import annotations

import json
import urllib.request

from live import create_token, create_users, give_tournament, launch, ready_tournament
from screens import PASSWORD, shot, shots, sign_in

TABLES, POSITIONS = 7, 3
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def api(base: str, path: str, token: str) -> dict:
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def view(page) -> dict:
    """The table's view as the page last received it (kept in localStorage)."""
    return page.evaluate("() => { const k = Object.keys(localStorage).find(k => k.startsWith('tarot-table:'));"
                         " return JSON.parse(localStorage.getItem(k)).view; }")


def wait_settled(page, number: int) -> None:
    """Nothing left to send, and étui ``number`` no longer awaiting confirmation on the screen."""
    page.wait_for_function(
        "n => { const k = Object.keys(localStorage).find(k => k.startsWith('tarot-table:'));"
        " const q = (JSON.parse(localStorage.getItem(k)) || {}).queue || [];"
        " return q.length === 0 && !document.querySelector('#etui-' + n + '.status-pending'); }", arg=number)


def enter(page, number: int, score: int | None = None, facts: dict | None = None) -> None:
    card = f"#etui-{number}"
    if facts is None:
        page.fill(f"{card} input[name=score]", f"{score:+d}".replace("-", "−"))
    else:
        page.check(f"{card} input[name=mode][value=facts]")
        page.fill(f"{card} input[name=points]", str(facts["points"]))
        page.select_option(f"{card} select[name=bouts]", str(facts["bouts"]))
    page.click(f"{card} button[type=submit]")
    page.wait_for_selector(f"{card}.status-pending")


def confirm(page, number: int, seat: str, code: str) -> None:
    """A defender touches his seat and types his code."""
    page.check(f"#etui-{number} input[data-seat={seat}]")
    page.fill(f"#etui-{number} input[name=code]", code)
    page.click(f"#etui-{number} form.confirm button[type=submit]")


def confirm_settled(page, number: int, seat: str, code: str) -> None:
    confirm(page, number, seat, code)
    wait_settled(page, number)


def line_rows(database_url: str, tournament_id: int) -> list[tuple]:
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT board, \"table\", score, status FROM result WHERE tournament_id = :t"),
                            {"t": tournament_id}).all()
        history = conn.execute(text("SELECT r.board, r.\"table\", h.action FROM result_history h JOIN result r "
                                    "ON r.id = h.result_id WHERE r.tournament_id = :t"), {"t": tournament_id}).all()
    engine.dispose()
    return rows, history


def test_seven_tables_play_from_their_phones(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    tournament_id, lines = ready_tournament(sqlite_url, tmp_path, tables=TABLES, positions=POSITIONS)
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"), ("marqueur", PASSWORD, "scorer"))
    give_tournament(sqlite_url, tournament_id, "marqueur")
    token = create_token(sqlite_url, "arbiter")
    links = api(base, f"/api/tournaments/{tournament_id}/tables", token)["tables"]
    assert [link["table"] for link in links] == list(range(1, TABLES + 1))
    scores = {(line["board"], line["table"]): line["score"] for line in lines}
    codes = launch(sqlite_url, tournament_id, 1)

    phones = {}
    for link in links:
        page = new_page(**PHONE)
        page.goto(link["url"])
        page.wait_for_selector("section.board")
        phones[link["table"]] = page
    first = phones[1]
    shot(first, artifacts, "table-phone-todo-390")
    assert first.locator(".seats dd").count() == 4 and "JOUEUR N1" in first.inner_text(".seats")

    scorer = new_page()
    sign_in(scorer, base, "marqueur")
    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")

    offline_done = refused_done = facts_done = conflict_done = False
    for position in range(1, POSITIONS + 1):
        if position > 1:
            launch(sqlite_url, tournament_id, position)
            for page in phones.values():
                page.reload()
                page.wait_for_selector("section.board")
        for table, page in phones.items():
            shown = view(page)
            assert shown["position"] == position and shown["launched"], (table, shown["position"])
            for board in shown["boards"]:
                number = board["number"]
                defender = board["confirm_seats"][0]
                code = codes[shown["seats"][defender]["id"]]
                score = scores[(number, table)]
                if not offline_done and table == 4 and position == 2:
                    # the connection drops while the North saves: the entry waits on the phone
                    page.context.set_offline(True)
                    page.fill(f"#etui-{number} input[name=score]", f"{score:+d}")
                    page.click(f"#etui-{number} button[type=submit]")
                    page.wait_for_selector(f"#etui-{number} .queued")
                    page.wait_for_selector("#connection.offline")
                    shot(page, artifacts, "table-phone-offline-390")
                    page.context.set_offline(False)
                    page.wait_for_selector(f"#etui-{number}.status-pending", timeout=30_000)
                    rows, history = line_rows(sqlite_url, tournament_id)
                    assert [r for r in rows if r[:2] == (number, table)] == [(number, table, score, "pending")]
                    assert [h for h in history if h[:2] == (number, table)] == [(number, table, "create")]
                    offline_done = True
                elif not facts_done and table == 2 and position == 1:
                    # 49 points with 2 bouts: needed 41, made by 8 → (25 + 8) × 2 = +66
                    enter(page, number, facts={"points": 49, "bouts": 2})
                    assert page.inner_text(f"#etui-{number} .stored-score") == "+66"
                    shot(page, artifacts, "table-phone-pending-390")
                    scores[(number, table)] = 66
                    facts_done = True
                elif not conflict_done and table == 5 and position == 2:
                    enter(page, number, score)
                    # the scorer types the paper fiche of that étui: another score for this table
                    scorer.goto(f"{base}/saisie/tournois/{tournament_id}/etuis/{number}")
                    field = scorer.locator(f"input[name='score-{number}-{table}']")
                    assert field.input_value() == f"{score:+d}"
                    assert "en attente" in scorer.inner_text(f"tr:has(input[name='score-{number}-{table}'])")
                    paper = score + 10 if score + 10 != 0 else score + 20
                    field.fill(f"{paper:+d}")
                    with scorer.expect_navigation():
                        scorer.click("button[type=submit]:has-text('Enregistrer')")
                    assert "ne dit pas comme la table" in scorer.inner_text(".flashes")
                    arbiter.goto(f"{base}/arbitre/tournois/{tournament_id}/tables")
                    assert f"Garder {'+' if paper > 0 else '−'}{abs(paper)}" in arbiter.inner_text(".conflicts")
                    shots(arbiter, artifacts, "table-arbiter-conflict")
                    with arbiter.expect_navigation():
                        arbiter.click(".conflicts button[value=entry]")
                    assert "Aucun conflit" in arbiter.inner_text(".conflicts")
                    scores[(number, table)] = paper
                    page.reload()
                    page.wait_for_selector(f"#etui-{number}.status-done")
                    assert page.inner_text(f"#etui-{number} .stored-score") == f"{paper:+d}".replace("-", "−")
                    conflict_done = True
                    continue
                else:
                    enter(page, number, score)
                if not refused_done:
                    confirm(page, number, defender, f"{(int(code) + 1) % 10000:04d}")
                    page.wait_for_selector(f"#etui-{number} .message.error")
                    assert "Code incorrect pour" in page.inner_text(f"#etui-{number} .message.error")
                    shot(page, artifacts, "table-phone-refused-390")
                    refused_done = True
                confirm_settled(page, number, defender, code)
        if position == 2:  # position 1 as the table's link shows it now: statuses, no score
            page = phones[1]
            page.select_option("#position", "1")
            page.wait_for_selector(".hidden-score")
            assert page.locator(".stored-score").count() == 0
            shot(page, artifacts, "table-phone-position1-hidden-390")
            page.select_option("#position", "2")
            page.wait_for_selector(".stored-score")
    assert offline_done and refused_done and facts_done and conflict_done

    rows, history = line_rows(sqlite_url, tournament_id)
    assert len(rows) == len(lines) == TABLES * POSITIONS * 4
    assert len({(board, table) for board, table, _, _ in rows}) == len(rows)  # no line doubled
    assert {status for *_, status in rows} == {"done"}
    assert {(board, table): score for board, table, score, _ in rows} == scores
    ranking = api(base, f"/api/tournaments/{tournament_id}/ranking", token)
    assert ranking["complete"] is True and ranking["missing"] == 0

    # the arbiter lets the tables see the other scores of an étui they have played
    arbiter.goto(f"{base}/arbitre/tournois/{tournament_id}/tables")
    arbiter.check("#results_visible")
    with arbiter.expect_navigation():
        arbiter.click(".table-options button[type=submit]")
    page = phones[1]
    page.reload()
    number = view(page)["boards"][0]["number"]
    page.click(f"#etui-{number} .others button")
    page.wait_for_selector(f"#etui-{number} .other-scores li")
    assert "(vous)" in page.inner_text(f"#etui-{number} .other-scores")
    shots(page, artifacts, "table-phone-done")
