"""Trust at the table (issue 28, docs/table-phones.md), in real Chromium at 390 px: before the arbiter launches
the position the phone says so and offers no entry; then the North enters an étui, a wrong code is refused in
French, the defender confirms with his seat and his personal code; once the next position is launched the
link no longer shows that score."""

from __future__ import annotations

from live import ready_tournament
from screens import page_width, shot
from test_table_phones import PHONE, confirm, launch, view


def test_a_defender_confirms_with_his_seat_and_his_code(live_server, new_page, artifacts, sqlite_url, tmp_path):
    from sqlalchemy import create_engine
    from sqlmodel import Session

    from duplicate import operations

    tournament_id, _ = ready_tournament(sqlite_url, tmp_path, tables=5, positions=2)
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        secret = operations.table_secret(operations.get_tournament(session, tournament_id), 1)
    engine.dispose()
    phone = new_page(**PHONE)
    phone.goto(f"{live_server.url}/table/{secret}")
    phone.wait_for_selector(".not-launched")
    assert "L’arbitre n’a pas encore lancé la position 1" in phone.inner_text(".not-launched")
    assert phone.locator("form.entry").count() == 0
    shot(phone, artifacts, "table-phone-not-launched-390")

    codes = launch(sqlite_url, tournament_id, 1)
    phone.reload()
    phone.wait_for_selector("form.entry")
    shown = view(phone)
    board = shown["boards"][0]
    number, defender = board["number"], board["confirm_seats"][0]
    assert "N" not in board["confirm_seats"]  # the North, who enters, does not confirm
    phone.fill(f"#etui-{number} input[name=score]", "+56")
    phone.click(f"#etui-{number} button[type=submit]")
    phone.wait_for_selector(f"#etui-{number}.status-pending")
    assert phone.locator(f"#etui-{number} input[data-seat=N]").count() == 0
    code = codes[shown["seats"][defender]["id"]]
    confirm(phone, number, defender, f"{(int(code) + 1) % 10000:04d}")
    phone.wait_for_selector(f"#etui-{number} .message.error")
    assert "Code incorrect pour" in phone.inner_text(f"#etui-{number} .message.error")
    assert view(phone)["boards"][0]["status"] == "pending"
    shot(phone, artifacts, "table-phone-code-refused-390")
    assert page_width(phone) <= 390
    confirm(phone, number, defender, code)
    phone.wait_for_selector(f"#etui-{number}.status-done")
    assert phone.inner_text(f"#etui-{number} .stored-score") == "+56"
    shot(phone, artifacts, "table-phone-code-confirmed-390")
    assert page_width(phone) <= 390

    launch(sqlite_url, tournament_id, 2)  # the players move: table 1's link shows position 1 without scores
    phone.reload()
    phone.wait_for_selector("section.board")
    assert view(phone)["position"] == 2
    phone.select_option("#position", "1")
    phone.wait_for_selector(f"#etui-{number} .hidden-score")
    assert "56" not in phone.inner_text("#content")
    shot(phone, artifacts, "table-phone-score-hidden-390")
    assert page_width(phone) <= 390
