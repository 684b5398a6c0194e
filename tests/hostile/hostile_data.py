"""Plain data and helpers shared by the hostile-input tests, in a module of their own so that no test
imports a conftest by name (two conftest modules would shadow each other): the hostile names, a
database census, an integrity check, a scored tournament whose every name is HTML."""

from __future__ import annotations

from sqlalchemy import inspect, text
from sqlmodel import Session

from duplicate import db, operations

PASSWORD = "mot-de-passe-solide"
#: Names a hostile (or careless) arbiter may type: markup, entities, quotes, scripts, RTL, NUL-free.
HOSTILE = {
    "tournament": "Open <script>alert('t')</script> & « Cie »",
    "surname": "<b>Zoé</b>",
    "first_name": "\"><img src=x onerror=alert(1)>",
    "club": "<script>alert('c')</script>",
    "reason": "<i>retard</i> & <u>bruit</u>",
}
#: Fragments that must never reach a page unescaped.
RAW = ("<script>alert", "<b>Zoé</b>", "<img src=x", "<i>retard</i>")


def census(app) -> dict[str, int]:
    """Rows per table: equal before and after, the database was not touched."""
    engine = db.get_engine(app)
    with engine.connect() as conn:
        names = [n for n in inspect(conn).get_table_names() if n != "alembic_version"]
        return {name: conn.execute(text(f'SELECT COUNT(*) FROM "{name}"')).scalar_one() for name in names}


def integrity(app) -> None:
    """The database is sound: SQLite's integrity and foreign-key checks (PostgreSQL enforces both itself),
    and every tournament still exports and ranks."""
    from duplicate import interchange

    engine = db.get_engine(app)
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall() == []
    with Session(engine) as session:
        for tournament in operations.list_tournaments(session):
            if tournament.format.free_play:  # free play (SPEC §13): its own file and ranking
                operations.freeplay.free_export(session, tournament)
                operations.freeplay.free_ranking(session, tournament)
                continue
            interchange.export_tournament(session, tournament)
            operations.ranking(session, tournament)


def hostile_tournament(app) -> int:
    """The demonstration tournament (scored, one annulled deal, one adjusted score, one penalty) with HTML
    in the tournament's name, every player's name and club, and the penalty's reason; its id."""
    from factories import demo_tournament

    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = demo_tournament(session)
        tournament.name = HOSTILE["tournament"]
        for i, player in enumerate(operations.players(session, tournament)):
            player.surname = f"{HOSTILE['surname']}{i}"
            player.first_name = HOSTILE["first_name"]
            player.club = HOSTILE["club"]
        for penalty in operations.penalties(session, tournament):
            penalty.reason = HOSTILE["reason"]
        session.commit()
        return tournament.id
