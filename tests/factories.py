"""Data for the tests that are not about the forms, built through `duplicate.operations` (Indico's
``create_event(**kwargs)`` in ``testing/fixtures/event.py``; ARCHITECTURE habit 17): one session, one commit,
no HTTP request, no form, no redirect — issue 32: a test's set-up posting 22 players' forms one by one
spent seconds before its first assertion.

The tests of the forms themselves keep posting them (tests/web/conftest.py `_new_tournament`, `_register`,
and the form tests of tests/web/test_arbiter.py); what is built here is what those forms build: the same
fields, the same owner, the same players.
"""

from __future__ import annotations

import datetime

from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import User


def register_players(session: Session, tournament, count: int) -> None:
    """``count`` players as the tests' form posts register them: licences L0000, L0001…, surnames NOM00,
    NOM01…, first name « Prénom », club « Club »."""
    for i in range(count):
        operations.register_player(session, tournament, licence=f"L{i:04d}", surname=f"NOM{i:02d}",
                                   first_name="Prénom", club="Club")


def create_tournament(app, kind: str = "individual", players: int = 0, *, name: str = "Tournoi",
                      date: str = "2026-11-24", place: str = "Club", owner: str | None = None) -> int:
    """A tournament as the arbiter's « Nouveau tournoi » form creates it (one séance, Europe/Paris, no
    colour, not a championship), owned by the account ``owner`` (a username; None: shared), with
    ``players`` players registered as `register_players` does; its id."""
    with app.app_context(), Session(db.get_engine(app)) as session:
        user = session.exec(select(User).where(User.username == owner)).one() if owner else None
        tournament = operations.create_tournament(
            session, name=name, kind=kind, date=datetime.date.fromisoformat(date), place=place, colour="",
            sessions=1, timezone="Europe/Paris", owner=user, championship=False)
        register_players(session, tournament, players)
        session.commit()
        return tournament.id
