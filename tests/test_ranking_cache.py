"""The ranking of the app (issue 12): the core Tournament mapped straight from the rows equals the core's
reading of the exported file, and the cached ranking follows every write — by this session, or by another
process committing (another gunicorn worker), never stale."""

import json

import pytest
from sqlmodel import Session, select

from duplicate import db, operations as ops
from duplicate.core.tournament import load_tournament, ranking_output
from duplicate.interchange import export_tournament, import_tournament
from duplicate.models import Penalty, Player, Result, Team


def _individual() -> dict:
    """Two tables on étui 1 (scores 56 and −56), the file's odd corners kept: a name that is not
    « SURNAME First », a player without a line, a penalty with no reason."""
    players = [{"id": f"{seat}{t}", "name": f"JOUEUR {seat}{t}", "line": seat} for t in (1, 2) for seat in "NSEW"]
    players[0]["name"] = "  deux  espaces "
    del players[1]["line"]
    return {"format": "tarot-tournament/1", "name": "Cache", "kind": "individual", "players": players,
            "results": [{"board": 1, "table": t, "position": 1, "taker": f"N{t}",
                         "defenders": [f"S{t}", f"E{t}", f"W{t}"], "score": score}
                        for t, score in ((1, 56), (2, -56))],
            "penalties": [{"player": "E2", "points": 1.5}]}


def _teams() -> dict:
    """A team match: a team named "" (kept in extra), a bonus of 0 (kept in extra), a penalty with its
    étui and a reason."""
    players = [{"id": f"P{i}", "name": f"JOUEUR P{i}"} for i in range(1, 9)]
    return {"format": "tarot-tournament/1", "name": "Match", "kind": "team_match", "players": players,
            "teams": [{"id": "A", "name": "", "members": ["P1", "P2", "P3", "P4"], "bonus": 0},
                      {"id": "B", "name": "Les B", "members": ["P5", "P6", "P7", "P8"], "bonus": 1.5}],
            "results": [{"board": 1, "table": 1, "quarter": 1, "room": "open", "contract": "garde_sans",
                         "taker_team": "A", "defence_team": "B", "score": 136},
                        {"board": 1, "table": 2, "quarter": 1, "room": "closed", "taker_team": "B",
                         "defence_team": "A", "score": 56}],
            "penalties": [{"team": "B", "points": 2, "reason": "Retard", "board": 1}]}


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


@pytest.mark.parametrize("make", [_individual, _teams])
def test_rows_give_the_core_reading_of_the_export(session, make):
    tournament = import_tournament(session, json.dumps(make()))
    expected = load_tournament(json.dumps(export_tournament(session, tournament)))
    assert ops.to_core(session, tournament) == expected
    assert ops.ranking(session, tournament) == ranking_output(expected)


def _global(session, tournament, entrant):
    return next(row["global"] for row in ops.ranking(session, tournament)["ranking"] if row["id"] == entrant)


def test_the_cached_ranking_follows_every_write_of_the_session(session):
    tournament = import_tournament(session, json.dumps(_individual()))
    # N1 attacks at 56 against −56: note 100, the only attack: global 100 (by hand, SPEC §4–5)
    assert _global(session, tournament, "N1") == 100
    assert ops.ranking(session, tournament) is not ops.ranking(session, tournament)  # each caller its dict
    result = session.exec(select(Result).where(Result.tournament_id == tournament.id, Result.table == 1)).one()
    result.score = -106  # now below −56: note 0
    session.flush()
    assert _global(session, tournament, "N1") == 0
    # N2's −56 now beats N1's −106: N2 100, its defenders 0; E2 only defended: global 0, less 1.5
    assert _global(session, tournament, "E2") == -1.5
    session.add(Penalty(tournament_id=tournament.id, entrant_id="E2", points=2.5, reason="Bruit"))
    session.flush()
    assert _global(session, tournament, "E2") == -4
    player = session.exec(select(Player).where(Player.tournament_id == tournament.id,
                                               Player.entrant_id == "W1")).one()
    player.surname, player.first_name = "NOUVEAU", "Nom"
    session.flush()
    assert next(row["name"] for row in ops.ranking(session, tournament)["ranking"] if row["id"] == "W1") == \
        "NOUVEAU Nom"


def test_a_write_by_another_process_is_seen(app, session):
    tournament = import_tournament(session, json.dumps(_teams()))
    session.commit()
    tournament_id = tournament.id
    before = {row["id"]: row["pm"] for row in ops.ranking(session, tournament)["ranking"]}
    session.commit()
    session.close()
    # another worker (its own connection and transaction) changes a score and a bonus, and commits
    with Session(db.get_engine(app)) as other:
        other.exec(select(Result).where(Result.tournament_id == tournament_id, Result.table == 2)).one().score = 136
        other.exec(select(Team).where(Team.tournament_id == tournament_id, Team.entrant_id == "B")).one().bonus = 0
        other.commit()
    tournament = ops.get_tournament(session, tournament_id)
    after = {row["id"]: row["pm"] for row in ops.ranking(session, tournament)["ranking"]}
    assert after != before
    expected = ranking_output(load_tournament(json.dumps(export_tournament(session, tournament))))
    assert {row["id"]: row["pm"] for row in expected["ranking"]} == after
