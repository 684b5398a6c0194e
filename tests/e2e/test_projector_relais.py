"""The projector at 1920×1080 shows the relais line whole (issue 29 point 12): the line the relais players
read (« Au relais : … Reviennent : … ») was cut off at the screen's bottom. A 23-player individual (5 full
tables, 3 players at the relais each position), position 1 started: the line is inside the viewport, the
page does not scroll, and its places read O, never W. Screenshot ``projector-relais-1920.png``."""

from __future__ import annotations

import re

from screens import shot


def relais_tournament(database_url: str, players: int = 23) -> int:
    """An individual of ``players`` (relais), drawn, its movement and étuis chosen, position 1 started."""
    from sqlalchemy import create_engine
    from sqlmodel import Session

    from duplicate import operations

    engine = create_engine(database_url)  # the live server made the schema
    with Session(engine, expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name="Individuel du jeudi avec relais", kind="individual")
        for i in range(players):
            operations.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOMDEFAMILLE{i}",
                                       first_name="Prénom", club="Club")
        operations.draw_places(session, tournament, seed="relais")
        movement = operations.choose_movement(session, tournament)
        count = max(int(b) for r in movement.data["rounds"] for b in r["boards"])
        operations.generate_boards(session, tournament, count=count, seed="relais")
        operations.choose_movement(session, tournament)
        operations.start_position(session, tournament, 1)
        session.commit()
        tid = tournament.id
    engine.dispose()
    return tid


def test_the_relais_line_is_whole_on_a_full_hd_projector(live_server, new_page, artifacts, sqlite_url):
    tid = relais_tournament(sqlite_url)
    projector = new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{live_server.url}/tournois/{tid}/projecteur")
    relais = projector.locator(".p-relais")
    text = relais.inner_text()
    # 23 players: tables 1–5 full, N6, S6, E6 at the relais at position 1; after it they come back to tables
    # 1, 2, 3 and N1, S1, E1 go to the relais (the movement's first move, read on the movement page)
    assert " ".join(text.split()) == ("Au relais : N1, S1, E1. Reviennent : N6 (table 1), S6 (table 2), "
                                      "E6 (table 3)."), text
    assert not re.search(r"\bW\d+\b", text), text  # a person reads O (SPEC §11)
    shot(projector, artifacts, "projector-relais-1920")
    box = relais.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 1080, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1920, box
    sizes = projector.evaluate("() => [document.documentElement.scrollHeight, document.documentElement.clientHeight]")
    assert sizes[0] <= sizes[1], sizes  # nothing below the screen
    for selector in (".p-clock", ".p-parts", ".p-position"):
        part = projector.locator(selector).bounding_box()
        assert part["y"] + part["height"] <= box["y"] + 1, selector  # above the relais line, not under it
