"""The movement decoded once per process (`operations._layout`): served again while its stored text is the
same, decoded afresh as soon as it changes — a line is never checked against a stale movement."""

import datetime
import json

import pytest

from duplicate import db, operations as ops
from duplicate.demo import rainbow_movement
from duplicate.operations._layout import movement_rounds


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


def test_movement_served_from_cache_until_it_changes(session):
    tournament = ops.create_tournament(session, name="Cache", kind="individual", date=datetime.date(2026, 5, 2))
    for i in range(20):
        ops.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOM{i}", first_name="Jean",
                            club="Club")
    ops.draw_places(session, tournament, seed="tirage")
    assert movement_rounds(session, tournament) is None
    ops.choose_movement(session, tournament)
    first = movement_rounds(session, tournament)
    assert movement_rounds(session, tournament) is first  # same text: not decoded again
    assert first.data == ops.get_movement(session, tournament).data
    data = rainbow_movement()
    ops.set_movement(session, tournament, json.dumps(data))
    second = movement_rounds(session, tournament)
    assert second is not first and second.data["rounds"] == data["rounds"]
    # by étui and by table, as the rounds say: the rainbow's first round of table 1
    round_ = next(r for r in data["rounds"] if r["table"] == 1)
    assert round_ in second.by_table[1]
    assert all(round_ in second.by_board[board] for board in round_["boards"])
    # the fiche of that étui follows the new movement: its line at table 1 seats the new round's players
    board = round_["boards"][0]
    line = next(line for line in ops.traveller(session, tournament, board) if line.table == 1)
    assert set([line.taker, *line.defence]) == set(round_["seats"].values())
