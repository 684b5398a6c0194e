"""The demonstration tournament (``flask --app app demo``), on SQLite and PostgreSQL."""

import json

import pytest
from sqlmodel import Session, SQLModel, select

from duplicate import db, models, operations as ops
from duplicate.core.scoring import Contract, reachable_scores
from duplicate.core.tournament import load_tournament, ranking_output
from duplicate.demo import build_demo, rainbow_movement
from duplicate.interchange import export_tournament, import_tournament


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


def test_demo_is_complete_and_ranked_like_the_core(session):
    tournament = build_demo(session)
    assert (tournament.kind, tournament.colour, tournament.draw_seed) == ("individual", "vert", "démo-placement")
    players = ops.players(session, tournament)
    assert len(players) == 20 and all(p.licence and p.club and p.entrant_id for p in players)
    assert sorted(p.entrant_id for p in players) == sorted(f"{line}{t}" for t in range(1, 6) for line in "NSEW")
    boards = ops.boards(session, tournament)
    assert [b.number for b in boards] == list(range(1, 21)) and all(b.hands and b.dog for b in boards)
    results = ops.results(session, tournament)
    assert len(results) == 100  # 5 tables × 5 positions × 4 étuis
    assert sum(r.annulled for r in results) == 1 and sum(r.adjusted for r in results) == 1
    garde = reachable_scores(Contract.GARDE)
    assert all(r.score in garde and not garde[r.score] for r in results)
    assert len(session.exec(select(models.Penalty)).all()) == 1
    assert all(done for _, done, _ in ops.readiness(session, tournament))

    exported = export_tournament(session, tournament)
    output = ops.ranking(session, tournament)
    assert output == ranking_output(load_tournament(json.dumps(exported)))
    assert len(output["ranking"]) == 20 and len(output["boards"]) == 20
    assert all(len(board["results"]) == 5 for board in output["boards"])
    copy = import_tournament(session, json.dumps(exported))
    assert export_tournament(session, copy) == exported


def test_demo_is_reproducible(session):
    first = export_tournament(session, build_demo(session))
    second = export_tournament(session, build_demo(session))
    # the journal says when each was built (the clock); everything else is the same
    assert [{k: v for k, v in entry.items() if k != "at"} for entry in first.pop("journal")] == \
        [{k: v for k, v in entry.items() if k != "at"} for entry in second.pop("journal")]
    assert first == second


def test_the_tests_copy_of_the_demo_is_the_demo(sqlite_copy):
    """`factories.demo_tournament`, the demonstration the other tests get (built once per test process, then
    copied), leaves what `build_demo` leaves: the same rows, ids and data version; only the clock and the
    tokens differ, drawn anew (issue 32)."""
    import datetime

    from factories import demo_tournament

    from duplicate import create_app
    from duplicate.models import utcnow

    def rows(name: str, make) -> dict:
        app = create_app({"DATABASE_URL": sqlite_copy(name)})
        engine = db.get_engine(app)
        with Session(engine) as session:
            ops.create_user(session, "arbitre", "mot-de-passe-solide", "arbiter")
            assert make(session).id == 1
            session.commit()
        with engine.connect() as conn:
            found = {table.name: [dict(row._mapping) for row in conn.execute(select(table).order_by(
                *table.primary_key.columns))] for table in SQLModel.metadata.sorted_tables}
        engine.dispose()
        del found["user_account"]  # the password's salt
        return found

    first = rows("first.sqlite3", demo_tournament)  # this process's first build (or a copy): kept from then on
    built, copied = rows("built.sqlite3", build_demo), rows("copied.sqlite3", demo_tournament)
    drawn = {("tournament", "table_key"), ("player", "token")}
    clocks = []
    for name, table in built.items():
        assert len(copied[name]) == len(table) == len(first[name])
        for one, kept, other in zip(table, first[name], copied[name]):
            for column, value in one.items():
                if isinstance(value, datetime.datetime):  # the clock of the copy, its latest now
                    assert other[column] <= utcnow() and other[column] not in (value, kept[column])
                    clocks.append((value, other[column]))
                elif (name, column) in drawn:
                    assert other[column] not in (value, kept[column]) and len(other[column]) == len(value)
                else:
                    assert other[column] == value == kept[column], (name, column)
    assert max(copy for _, copy in clocks) > max(built for built, _ in clocks)


def test_rainbow_movement_sends_each_board_to_every_table_once():
    movement = rainbow_movement()
    tables_of = {}
    for round_ in movement["rounds"]:
        for board in round_["boards"]:
            tables_of.setdefault(board, []).append(round_["table"])
    assert tables_of[1] == [1, 5, 4, 3, 2]  # SPEC §7 seed example
    assert all(sorted(tables) == [1, 2, 3, 4, 5] for tables in tables_of.values())
    met = set()
    for round_ in movement["rounds"]:
        seats = sorted(round_["seats"].values())
        pairs = {(a, b) for a in seats for b in seats if a < b}
        assert not pairs & met  # no two players meet twice
        met |= pairs


def test_rainbow_movement_passes_the_movement_checker():
    from duplicate.core import movements  # written long ago: a missing module or function fails, never skips

    assert movements.check(movements.Movement.from_dict(rainbow_movement())).ok


def test_cli_demo(app, runner):
    result = runner.invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    tournament_id = int(result.stdout.strip().splitlines()[-1])
    with app.app_context():
        session = db.get_session()
        tournament = ops.get_tournament(session, tournament_id)
        assert tournament.name == "Tournoi de démonstration"
        assert len(ops.results(session, tournament)) == 100
