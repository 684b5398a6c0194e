"""Issue 29 point 1: « Tout imprimer » before play prints what goes on the tables, nothing of the results.

A 23-player individual with its movement and its étuis dealt, no result stored: a ranking can still be
computed (all 23 players « 1 ex æquo 0,00 »), and the pack used to hold it, 23 empty route sheets, the
frequency report and the record of the hands.  « Before play » = no result line stored
(`pack.played`); the CLI ``print pack`` and the web « Tout imprimer » both read the tournament with
`commands.tournament_data` and cut the pack with `pack.parts`."""

import datetime

import pytest

from duplicate import db, operations as ops
from duplicate.operations._deals import board_takers
from duplicate.printing import pack
from duplicate.printing.commands import tournament_data

BEFORE = ["labels", "diagrams", "travellers", "guide-cards", "movement-cards"]
AFTER = ["ranking", "route-sheets", "frequencies", "hand-records"]


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


def evening(session, players=23):
    tournament = ops.create_tournament(session, name="Avant le jeu", kind="individual",
                                       date=datetime.date(2026, 5, 2))
    for i in range(players):
        ops.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOM{i}", first_name="Jean",
                            club="Club")
    ops.draw_places(session, tournament, seed="avant")
    movement = ops.choose_movement(session, tournament)
    ops.generate_boards(session, tournament, count=len(movement.data["boards"]), seed="avant")
    return tournament


def kinds(parts):
    return [kind for kind, _ in parts]


def test_before_play_the_pack_holds_no_result_and_after_play_it_does(session):
    tournament = evening(session)
    export, ranking, _ = tournament_data(session, tournament.id)
    assert not export.get("results") and ranking is not None      # the ranking exists, all ex æquo at 0
    assert kinds(pack.parts(export, ranking)) == BEFORE
    assert not pack.played(export)

    # one line entered: play has begun, the after-play documents are in the pack
    r = next(r for r in ops.get_movement(session, tournament).data["rounds"] if r["position"] == 1)
    board = r["boards"][0]
    taker = r["seats"][board_takers(session, tournament)[board]]
    ops.record_result(session, tournament, board=board, table=r["table"], position=1, score=56, taker=taker,
                      defenders=[w for w in r["seats"].values() if w != taker])
    export, ranking, _ = tournament_data(session, tournament.id)
    assert pack.played(export)
    parts = dict(pack.parts(export, ranking))
    assert list(parts) == BEFORE + AFTER
    assert len(parts["route-sheets"]["items"]) == 23                # one sheet per player
