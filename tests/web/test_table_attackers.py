"""Who attacks, at the table (issue 15, points 1–2, on the table's phone of SPEC §12): the triplette's
attacker and his badge shown with each étui; the quadrette's attacker chosen by the North, stored with the
line, refused when not of the attacking quadrette."""

import re

from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import Result
from test_attackers_web import _teams
from test_table_api import launch


def _secret(app, tournament_id: int, table: int) -> str:
    with Session(db.get_engine(app)) as session:
        return operations.table_secret(operations.get_tournament(session, tournament_id), table)


def test_the_triplette_attacker_and_his_badge_are_on_the_tables_phone(app, client, arbiter):
    tournament_id = _teams(app, "triplettes", 6, 3)  # 6 triplettes: a Mitchell of 3 tables, 3 positions
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/equipes/premiere-couleur",
                        data={"colour": "Rouge"}).status_code == 302
    view = client.get(f"/api/table/{_secret(app, tournament_id, 1)}").get_json()
    # table 1, position 1 plays étuis 1 to 4: takers N, S (the NS triplette NS1 attacks), E, W (EW1). Each
    # triplette's turns 0 and 1 from the drawn Rouge: Rouge (CHEVALIER, third by surname), then Bleu
    # (ARNAUD) — as the fiche entry shows them (test_attackers_web: « Rouge → Bleu → Blanc »).
    attacks = [(board["number"], board["taker"], board["attack"]["name"].split()[0], board["attack"]["colour"])
               for board in view["boards"]]
    assert attacks == [(1, "NS1", "CHEVALIER", "Rouge"), (2, "NS1", "ARNAUD", "Bleu"),
                       (3, "EW1", "CHEVALIER", "Rouge"), (4, "EW1", "ARNAUD", "Bleu")]
    assert "attackers" not in view["boards"][0]  # no choice to make in triplettes


def test_the_north_names_the_quadrettes_attacker(app, client):
    tournament_id = _teams(app, "quadrettes", 3, 4)  # 3 quadrettes, 3 tables
    launch(app, tournament_id, 1)  # the arbiter launched the position: its étuis are entered at the table
    secret = _secret(app, tournament_id, 1)
    board = client.get(f"/api/table/{secret}").get_json()["boards"][0]
    with Session(db.get_engine(app)) as session:
        attackers = operations.quadrette_attackers(session, operations.get_tournament(session, tournament_id))
    members = attackers[board["taker"]]["members"]
    assert board["attackers"] == [list(member) for member in members] and board["attacker"] is None
    duval = next(ident for ident, name in members if name.startswith("DUVAL"))
    stranger = next(team for team in attackers if team != board["taker"])
    stranger = attackers[stranger]["members"][0][0]
    refused = client.post(f"/api/table/{secret}/results", json={"board": board["number"], "score": 56,
                                                               "attacker": stranger})
    assert refused.status_code == 422
    assert f"n’est pas de la quadrette « {board['taker']} »" in refused.get_json()["error"]
    assert client.post(f"/api/table/{secret}/results", json={"board": board["number"], "score": 56,
                                                             "attacker": 7}).status_code == 422
    assert client.post(f"/api/table/{secret}/results", json={"board": board["number"], "score": 56,
                                                             "attacker": duval}).status_code == 202
    with Session(db.get_engine(app)) as session:
        result = session.exec(select(Result).where(Result.tournament_id == tournament_id)
                              .execution_options(with_pending=True)).one()
        assert (result.board, result.score, result.attacker, result.status) == (board["number"], 56, duval, "pending")
    # a correction of the pending line may name another member; the view then proposes the one stored
    other = next(ident for ident, _ in members if ident != duval)
    assert client.post(f"/api/table/{secret}/results", json={"board": board["number"], "score": 56,
                                                             "attacker": other}).status_code == 202
    again = client.get(f"/api/table/{secret}").get_json()["boards"][0]
    assert again["attacker"] == other


def test_the_phone_page_script_draws_the_attacker_choice():
    """The page is drawn by static/js/table.js: it sends the chosen attacker and shows the badge."""
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "table.js").read_text(encoding="utf-8")
    assert re.search(r'field\("Attaquant"', script) and "body.attacker = values.attacker" in script
    assert '"badge badge-" + board.attack.colour.toLowerCase()' in script
