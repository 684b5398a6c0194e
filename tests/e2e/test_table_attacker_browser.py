"""Who attacks, on the table's phone (issue 15, points 1–2, SPEC §12), in real Chromium at 390 px: in
quadrettes the North chooses the quadrette's attacker beside the score, a defender confirms, the line is
stored with its attacker; in triplettes the phone shows who of the triplette attacks, with his badge. The
tournaments are prepared as an arbiter would have (places drawn, movement chosen) straight in the database
the server runs on."""

from __future__ import annotations

import re

from sqlalchemy import create_engine
from sqlmodel import Session, select

from duplicate import operations
from duplicate.models import Result
from screens import page_width, shot

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def _prepared(database_url: str, kind: str, count: int, size: int, colour: str | None = None) -> tuple[int, str]:
    """``count`` teams of ``size`` (surnames ARNAUD, BERNARD, CHEVALIER, DUVAL), drawn, movement chosen;
    (tournament id, table 1's secret)."""
    engine = create_engine(database_url)
    with Session(engine, expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name=f"Table {kind}", kind=kind)
        for k in range(1, count + 1):
            members = [operations.register_player(session, tournament, licence=None, surname=surname,
                                                  first_name=f"Équipe{k}", club=None)
                       for surname in ["ARNAUD", "BERNARD", "CHEVALIER", "DUVAL"][:size]]
            operations.form_team(session, tournament, name=f"Équipe {k}", player_ids=[p.id for p in members])
        operations.draw_places(session, tournament, seed="essai")
        operations.choose_movement(session, tournament)
        if colour:
            operations.draw_colour(session, tournament, colour, who="arbitre")
        operations.start_position(session, tournament, 1)  # the arbiter's « Lancer la position »
        session.commit()
        secret = operations.table_secret(tournament, 1)
    engine.dispose()
    return tournament.id, secret


def test_the_north_chooses_the_quadrettes_attacker_on_the_phone(live_server, new_page, sqlite_url, artifacts):
    tournament_id, secret = _prepared(sqlite_url, "quadrettes", 3, 4)
    phone = new_page(**PHONE)
    phone.goto(f"{live_server.url}/table/{secret}")
    card = phone.locator("section.board").first
    number = int(card.get_attribute("data-board"))
    choice = card.locator("select[name=attacker]")
    names = choice.locator("option").all_inner_texts()
    assert names[0] == "—" and len(names) == 5  # « — » and the four members of the attacking quadrette
    duval = next(name for name in names if name.startswith("DUVAL"))
    choice.select_option(label=duval)
    card.locator("input[name=score]").fill("+56")
    shot(phone, artifacts, "table-quadrette-attaquant-390")
    assert page_width(phone) <= 390
    card.locator("button[type=submit]").click()
    phone.wait_for_selector(f"#etui-{number}.status-pending")
    # the taker sits South: East defends, with his quadrette's code (printed on the quadrette's card)
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        tournament = operations.get_tournament(session, tournament_id)
        line, = operations.all_lines(session, tournament, boards={number}, table=1, pending=True)
        code = operations.player_code(tournament, line.defence[0])
    engine.dispose()
    phone.check(f"#etui-{number} input[data-seat=E]")
    phone.fill(f"#etui-{number} input[name=code]", code)
    phone.click(f"#etui-{number} form.confirm button[type=submit]")
    phone.wait_for_selector(f"#etui-{number}.status-done")
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        result = session.exec(select(Result).where(Result.tournament_id == tournament_id)).one()
        tournament = operations.get_tournament(session, tournament_id)
        names_by_id = {ident: name for team in operations.quadrette_attackers(session, tournament).values()
                       for ident, name in team["members"]}
    engine.dispose()
    assert (result.board, result.score, result.status, names_by_id[result.attacker]) == (number, 56, "done", duval)


def test_the_triplettes_phone_shows_who_attacks_with_his_badge(live_server, new_page, sqlite_url, artifacts):
    _, secret = _prepared(sqlite_url, "triplettes", 6, 3, colour="Rouge")
    phone = new_page(**PHONE)
    phone.goto(f"{live_server.url}/table/{secret}")
    phone.wait_for_selector("section.board p.attack")
    # étui 1, NS1's first attack from the drawn Rouge: CHEVALIER (third by surname) wears Rouge
    first = phone.locator("#etui-1 p.attack")
    assert re.fullmatch(r"Attaque : CHEVALIER Équipe\d \(Rouge\)", " ".join(first.inner_text().split()))
    assert first.locator("span.badge-rouge").count() == 1
    assert phone.locator("select[name=attacker]").count() == 0
    shot(phone, artifacts, "table-triplette-badge-390")
    assert page_width(phone) <= 390
