"""Relais on the arbiter's screens (SPEC §7, issue 11 point 2): with 26 players the places N7, S7 of
table 7 start at the relais; the draw page and its printout say « relais », not « table 7 »."""

import re

from sqlmodel import Session

from duplicate import db
from test_relais import relais_evening


def test_draw_page_and_printout_name_the_relais_row(app, arbiter):
    with Session(db.get_engine(app)) as session:
        tournament_id = relais_evening(session).id
        session.commit()
    for url in (f"/arbitre/tournois/{tournament_id}/placement", f"/arbitre/tournois/{tournament_id}/placement/impression"):
        page = arbiter.get(url).get_data(as_text=True)
        assert '<th scope="row" class="number">relais</th>' in page, url
        assert '<th scope="row" class="number">7</th>' not in page
        assert '<th scope="row" class="number">6</th>' in page
        assert "Au relais à la 1re position" in page
        assert re.search(r"N7</span> NOM\d+ Jean", page)
