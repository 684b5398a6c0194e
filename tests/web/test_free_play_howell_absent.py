"""A club of 13 on a Tuesday (issue 16): the 4-table Howell with J8, J12 and J16 absent
(`core.freeplay.movements` docstring), its movement page, the first position's four feuilles — one table of 4,
three tables of 3 whose empty seat is not the North — and the ranking, on the web and from the exported file.

Seats at the 1st position, from the booklet's first row « 1 2 3 4 | 5 6 7 8 | 9 10 11 12 | 13 14 15 16 »
without 8, 12, 16: table 1 J1 J2 J3 J4, tables 2–4 at 3, their West empty.

Marks derived by hand from the rules (booklet p. 8–11, « Le jeu à 3 joueurs »):

* table 1 (4 players): Garde by J2, 2 bouts, 51 points (41 needed): made by 10, (25 + 10) × 2 = 70 → J2
  +210, J1 J3 J4 −70;
* table 2 (3 players): Garde by J5, 2 bouts, 40½ points: « le ½ point va … au camp gagnant » → 40, failed by
  1: (25 + 1) × 2 = 52 → J6 J7 +52, J5 −104 (« les points du preneur sont multipliés par 2 »);
* table 3 (3 players): Prise by J10, 1 bout, 56 points (51 needed): made by 5, 25 + 5 = 30 → J10 +60, J9
  J11 −30;
* table 4 (3 players): everyone passed, 0.
"""

import json
import re

import pytest
from sqlmodel import Session

from duplicate import db, operations
from duplicate.core.freeplay.tournament import rank_free

EVENING = {"name": "Mardi à 13", "date": "2026-11-24"}


@pytest.fixture
def thirteen(free_evening_factory):
    return free_evening_factory(13, "mardi-13", form={"positions": ""}, **EVENING)


def _seats(app, tournament_id, position, table):
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return operations.freeplay.table_seats(session, tournament, position, table)


def _post_sheet(client, tournament_id, position, table, rows):
    data = {"rows": str(len(rows)), "version": ""}
    for i, row in enumerate(rows):
        data.update({f"{name}-{i}": value for name, value in row.items()})
    return client.post(f"/arbitre/tournois/{tournament_id}/libre/feuilles/{position}/{table}", data=data)


def test_movement_page_names_the_absent_numbers(arbiter, thirteen):
    page = arbiter.get(f"/arbitre/tournois/{thirteen}/libre/mouvement").get_data(as_text=True)
    assert "4 tables, 4 positions" in page
    assert "Howell sans les numéros <strong>J8, J12, J16</strong>" in page
    # 3 tables at 3 at each of the 4 positions
    assert page.count('class="three-players"') == 12
    dashboard = arbiter.get(f"/arbitre/tournois/{thirteen}/").get_data(as_text=True)
    assert "Howell sans J8, J12, J16" in dashboard


def test_first_position_feuilles_and_ranking(app, arbiter, thirteen):
    seats = {table: _seats(app, thirteen, 1, table) for table in (1, 2, 3, 4)}
    assert seats[1] == {"N": "J1", "S": "J2", "E": "J3", "W": "J4"}
    assert seats[2] == {"N": "J5", "S": "J6", "E": "J7", "W": None}
    assert seats[3] == {"N": "J9", "S": "J10", "E": "J11", "W": None}
    assert seats[4] == {"N": "J13", "S": "J14", "E": "J15", "W": None}
    assert _seats(app, thirteen, 2, 2) == {"N": None, "S": "J9", "E": "J7", "W": "J2"}  # J16's seat, 2nd row
    sheets = {
        1: [{"taker": "J2", "contract": "garde", "points": "51", "bouts": "2"}],
        2: [{"taker": "J5", "contract": "garde", "points": "40,5", "bouts": "2"}],
        3: [{"taker": "J10", "contract": "prise", "points": "56", "bouts": "1"}],
        4: [{"passed": "1"}],
    }
    for table, rows in sheets.items():
        response = _post_sheet(arbiter, thirteen, 1, table, rows)
        assert response.status_code == 302, response.get_data(as_text=True)
    page = arbiter.get(f"/arbitre/tournois/{thirteen}/libre/feuilles/1/2").get_data(as_text=True)
    assert "Table à 3 joueurs" in page and re.search(r"Ouest :\s*<em>place vide</em>", page)
    marks = page[page.index("free-marks"):page.index("<tfoot>")]
    assert marks.count(">+52<") == 2 and marks.count(">−104<") == 1
    assert "Somme des bilans : 0 — la feuille est juste." in page
    listing = arbiter.get(f"/arbitre/tournois/{thirteen}/libre/feuilles").get_data(as_text=True)
    assert listing.count("/libre/feuilles/1/") >= 4
    ranking = arbiter.get(f"/arbitre/tournois/{thirteen}/libre/classement")
    assert ranking.status_code == 200
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, thirteen)
        export = operations.freeplay.free_export(session, tournament)
        shown = operations.freeplay.free_ranking(session, tournament)
    expected = {"J2": 210, "J1": -70, "J3": -70, "J4": -70, "J5": -104, "J6": 52, "J7": 52, "J9": -30, "J10": 60,
                "J11": -30, "J13": 0, "J14": 0, "J15": 0}
    assert {row["id"]: row["total"] for row in shown["ranking"]} == expected
    assert [row["id"] for row in shown["ranking"][:2]] == ["J2", "J10"] and shown["ranking"][-1]["id"] == "J5"
    file = json.loads(json.dumps(export, ensure_ascii=False))
    assert file["movement"]["absent_players"] == ["J8", "J12", "J16"]
    assert rank_free(file)["ranking"] == shown["ranking"]


def test_export_import_round_trip_and_print(app, arbiter, thirteen, runner, tmp_path):
    assert _post_sheet(arbiter, thirteen, 1, 3, [{"taker": "J11", "contract": "garde_sans", "points": "56",
                                                  "bouts": "1"}]).status_code == 302
    body = arbiter.get(f"/arbitre/tournois/{thirteen}/export").get_data(as_text=True)
    path = tmp_path / "libre13.json"
    path.write_text(body, encoding="utf-8")
    result = runner.invoke(args=["rank", str(path)])
    assert result.exit_code == 0, result.output
    by_id = {row["id"]: row for row in json.loads(result.output)["ranking"]}
    # Garde sans at 3, made by 5: (25 + 5) × 4 = 120 per defender, the taker 2 × 120
    assert by_id["J11"]["total"] == 240 and by_id["J9"]["total"] == by_id["J10"]["total"] == -120
    with Session(db.get_engine(app)) as session:
        copy = operations.freeplay_import.import_free(session, body, who="arbitre")
        session.commit()
        again = operations.freeplay.free_export(session, copy)
    assert again["movement"] == json.loads(body)["movement"]
    assert again["results"] == json.loads(body)["results"]


def test_a_headcount_over_the_positions_says_why(arbiter, tournament_factory):
    tournament_id = tournament_factory("free", 14, **EVENING)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": "", "positions": "5"})
    assert response.status_code == 422
    assert ("14 joueurs inscrits : 14 joueurs (Howell à 4 tables, 2 numéros absents) jouent au plus 4 positions : "
            "au-delà, une table aurait moins de 3 joueurs (5 demandées).") in response.get_data(as_text=True)


def test_table_phone_at_a_howell_table_of_3(app, thirteen):
    """Table 2, 1st position: J5 North enters (no West), J6 or J7 confirms; at the 2nd position J16's North is
    empty and any of the three confirms. Garde by J5 at 3, failed by 1 (40½ → 40): J5 −104, J6 and J7 +52."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, thirteen)
        state = operations.freeplay_table.table_state(session, tournament, 2, 1)
        assert state["confirmers"] == ["S", "E"]
        assert operations.freeplay_table.table_state(session, tournament, 2, 2)["confirmers"] == ["S", "E", "W"]
        secret = next(link["secret"] for link in operations.freeplay_table.table_links(session, tournament)
                      if link["table"] == 2)
        codes = {item["id"]: item["code"] for item in operations.freeplay_table.player_codes(session, tournament)}
    phone = app.test_client()
    rows = {"rows": "1", "taker-0": "J5", "contract-0": "garde", "points-0": "40,5", "bouts-0": "2"}
    assert phone.post(f"/table/libre/{secret}/1", data=rows).status_code == 302
    html = phone.get(f"/table/libre/{secret}?position=1").get_data(as_text=True)
    assert "En attente de confirmation" in html and "−104" in html and "+52" in html
    response = phone.post(f"/table/libre/{secret}/1/confirmer", data={"seat": "W", "code": codes["J7"]})
    assert response.status_code == 422  # nobody sits West
    response = phone.post(f"/table/libre/{secret}/1/confirmer", data={"seat": "E", "code": codes["J7"]})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    with Session(db.get_engine(app)) as session:
        output = operations.freeplay.free_ranking(session, operations.get_tournament(session, thirteen))
    totals = {row["id"]: row["total"] for row in output["ranking"]}
    assert (totals["J5"], totals["J6"], totals["J7"]) == (-104, 52, 52)
