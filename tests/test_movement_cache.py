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


def test_movement_text_kept_by_movement_version(app):
    """Issue 30: a transaction that has read the tournament's row finds the movement's text kept at that row's
    movement version, without reading it again — also after another session's write that leaves the movement
    alone (it raises the data version only); a movement committed by another session raises the movement
    version, so the next transaction reads the new text."""
    from sqlalchemy import event
    from sqlmodel import Session

    from duplicate.models import Tournament
    from duplicate.operations._layout import movement_text

    engine = db.get_engine(app)
    with Session(engine) as session:
        tournament = ops.create_tournament(session, name="Version", kind="individual", date=datetime.date(2026, 5, 2))
        for i in range(20):
            ops.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOM{i}", first_name="Jean",
                                club="Club")
        ops.draw_places(session, tournament, seed="tirage")
        ops.choose_movement(session, tournament)
        session.commit()
        tournament_id = tournament.id
    statements = []
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        with Session(engine) as reader:
            first = movement_text(reader, reader.get(Tournament, tournament_id))
        with Session(engine) as reader:  # a new transaction, the same version: the text is not read
            statements.clear()
            assert movement_text(reader, reader.get(Tournament, tournament_id)) == first
            assert not [s for s in statements if "FROM movement" in s]
        with Session(engine) as writer:  # another session writes the tournament, not its movement
            tournament = writer.get(Tournament, tournament_id)
            versions = tournament.data_version, tournament.movement_version
            ops.set_table_options(writer, tournament, results_visible=True, position=None, who=None)
            writer.commit()
        with Session(engine) as reader:
            statements.clear()
            tournament = reader.get(Tournament, tournament_id)
            assert (tournament.data_version, tournament.movement_version) == (versions[0] + 1, versions[1])
            assert movement_text(reader, tournament) == first
            assert not [s for s in statements if "FROM movement" in s]
        with Session(engine) as writer:  # another session changes the movement and commits
            ops.set_movement(writer, writer.get(Tournament, tournament_id), json.dumps(rainbow_movement()))
            writer.commit()
        with Session(engine) as reader:
            tournament = reader.get(Tournament, tournament_id)
            assert tournament.movement_version == versions[1] + 1
            text = movement_text(reader, tournament)
            assert json.loads(text)["rounds"] == rainbow_movement()["rounds"] and text != first
    finally:
        event.remove(engine, "before_cursor_execute", listener)
