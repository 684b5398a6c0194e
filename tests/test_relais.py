"""Relais in the evening (SPEC §7, issue 11 point 2): 26 players, six full tables, N7 and S7 at the
relais at the first position.  Expected values come from the rule: a resting player's position shows
« relais » on the draw, the personal card, the guide card and the route sheet (screen and PDF)."""

import datetime
import re
import sys
import pathlib

import pytest

from duplicate import db, operations as ops
from duplicate.operations._deals import board_takers
from duplicate.interchange import export_tournament
from duplicate.printing import render_kind

sys.path.insert(0, str(pathlib.Path(__file__).parent / "printing"))
from print_helpers import pdf_text  # noqa: E402


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


def relais_evening(session, players=26, positions=2):
    tournament = ops.create_tournament(session, name="Relais", kind="individual", date=datetime.date(2026, 5, 2))
    for i in range(players):
        ops.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOM{i}", first_name="Jean", club="Club")
    ops.draw_places(session, tournament, seed="relais")
    movement = ops.choose_movement(session, tournament, positions=positions)
    ops.generate_boards(session, tournament, count=len(movement.data["boards"]), seed="relais")
    return tournament


def enter_position(session, tournament, position):
    """Every table's first étui of ``position``, the taker at the étui's seat, Garde +56."""
    takers = board_takers(session, tournament)
    for r in ops.get_movement(session, tournament).data["rounds"]:
        if r["position"] == position:
            board = r["boards"][0]
            taker = r["seats"][takers[board]]
            ops.record_result(session, tournament, board=board, table=r["table"], position=position, score=56,
                              taker=taker, defenders=[w for s, w in r["seats"].items() if w != taker])


def squeeze(text):
    return re.sub(r"\s+", " ", text)


def test_resting_players_show_relais_on_cards_and_route_sheets(session):
    tournament = relais_evening(session)
    data = ops.get_movement(session, tournament).data
    assert data["players"] == 26 and data["rests"][0] == {"position": 1, "entrants": ["N7", "S7"]}
    second = data["rests"][1]["entrants"]
    enter_position(session, tournament, 1)
    export, ranking = export_tournament(session, tournament), ops.ranking(session, tournament)

    pdfs = {"cards": render_kind("movement-cards", export, entrants=["N7"]),
            "guide": render_kind("guide-cards", export, tables=[1]),
            "sheets": render_kind("route-sheets", export, ranking, entrants=["N7", "N1"])}
    for name, pdf in pdfs.items():
        pathlib.Path(f"/tmp/relais-{name}.pdf").write_bytes(pdf)
    cards = pdf_text(pdfs["cards"])
    assert re.search(r"1re +relais", cards)                 # N7: relais at the 1st position
    assert re.search(r"2e +\d+ +[A-Z]+ +\d", cards)         # then a table, an orientation, étuis

    guide = squeeze(pdf_text(pdfs["guide"], layout=False))
    assert f"Au relais (sans table) : 1re position : N7, S7 ; 2e position : {', '.join(second).replace('W', 'O')}" in guide

    sheets = squeeze(pdf_text(pdfs["sheets"]))
    assert sheets.count("relais (pas de table à cette position)") == 1   # N7 at position 1; position 2 not played

    screen = ops.route_sheet(session, tournament, "N7")
    assert [(row["position"], row["role"]) for row in screen["rows"]] == [(1, "relais")]
    assert all(not row.get("relais") for row in ops.route_sheet(session, tournament, "N1")["rows"])


def test_a_supplied_movement_without_the_relais_is_refused(session):
    from duplicate.core.movements import generate

    tournament = relais_evening(session)
    kept = ops.get_movement(session, tournament).data
    six_tables = generate("individual", 6, 2).to_dict()          # 24 players: N7 and S7 nowhere
    with pytest.raises(ops.OperationError) as error:
        ops.set_movement(session, tournament, six_tables)
    assert "Mouvement refusé" in error.value.message and "N7" in error.value.message
    assert "ni placé ni au relais" in error.value.message
    assert ops.get_movement(session, tournament).data == kept       # nothing changed
    ops.set_movement(session, tournament, generate("individual", None, 2, players=26).to_dict())
