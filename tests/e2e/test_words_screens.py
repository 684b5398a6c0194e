"""Issue 29 point 9 on screen, at a phone's 390 px: the movement grid reads « O O1 », never « W1 »; the
journal says « résultats publiés : Non », never « published : False ». Screenshots ``words-movement-390.png``,
``words-journal-390.png``."""

from __future__ import annotations

import re

from live import create_users, give_tournament
from screens import PASSWORD, shot, sign_in
from test_projector_relais import relais_tournament

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}


def publish_and_withdraw(database_url: str, tournament_id: int) -> None:
    from sqlalchemy import create_engine
    from sqlmodel import Session

    from duplicate import operations

    engine = create_engine(database_url)
    with Session(engine) as session:
        tournament = operations.get_tournament(session, tournament_id)
        operations.publish(session, tournament, True, "arbitre")
        operations.publish(session, tournament, False, "arbitre")
        session.commit()
    engine.dispose()


def test_the_grid_and_the_journal_in_french_on_a_phone(live_server, new_page, artifacts, sqlite_url):
    base = live_server.url
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"))
    tid = relais_tournament(sqlite_url)
    give_tournament(sqlite_url, tid, "arbitre")
    publish_and_withdraw(sqlite_url, tid)
    page = new_page(**PHONE)
    sign_in(page, base, "arbitre")

    page.goto(f"{base}/arbitre/tournois/{tid}/mouvement")
    grid = page.inner_text("table.movement")
    assert re.search(r"\bO O1\b", grid) and not re.search(r"\bW\d+\b", grid), grid[:400]
    page.locator("table.movement").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "words-movement-390.png"))

    page.goto(f"{base}/arbitre/tournois/{tid}/journal")
    journal = page.inner_text("table.journal")
    assert "résultats publiés : Non" in journal and "résultats publiés : Oui" in journal
    assert "published" not in journal and "False" not in journal
    shot(page, artifacts, "words-journal-390")
