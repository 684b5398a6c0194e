"""Fixtures for the arbiter's screens: staff accounts and a signed-in client."""

import re

import pytest
from sqlmodel import Session

from duplicate import db, operations
from factories import create_tournament

PASSWORD = "mot-de-passe-solide"
ARBITER = "arbitre"  # the account of the `arbiter` client


@pytest.fixture
def make_user(app):
    """Create a staff account (`operations.create_user`) and return its username."""

    def make(username: str, role: str = "arbiter") -> str:
        with app.app_context(), Session(db.get_engine(app)) as session:  # the app's PASSWORD_HASH_METHOD
            operations.create_user(session, username, PASSWORD, role)
            session.commit()
        return username

    return make


@pytest.fixture
def password():
    """The password of the accounts made by `make_user`."""
    return PASSWORD


def _sign_in(client, username: str, password: str = PASSWORD):
    return client.post("/connexion", data={"username": username, "password": password})


@pytest.fixture
def sign_in():
    """``sign_in(client, username, password=…)``: post the sign-in form, return the response."""
    return _sign_in


@pytest.fixture
def arbiter(client, make_user):
    """`client`, signed in as an arbiter."""
    response = _sign_in(client, make_user(ARBITER))
    assert response.status_code == 302
    return client


# --- factories (Indico's ``create_event(**kwargs)``, ARCHITECTURE habit 8): the set-up through the screens ---

def _new_tournament(client, kind: str, name: str, date: str, place: str) -> int:
    response = client.post("/arbitre/tournois/nouveau", data={
        "name": name, "kind": kind, "date": date, "place": place, "sessions": "1", "timezone": "Europe/Paris"})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))


def _register(client, tournament_id: int, count: int) -> None:
    for i in range(count):
        response = client.post(f"/arbitre/tournois/{tournament_id}/joueurs", data={
            "licence": f"L{i:04d}", "surname": f"NOM{i:02d}", "first_name": "Prénom", "club": "Club"})
        assert response.status_code == 302


@pytest.fixture
def players_factory(arbiter):
    """``players_factory(tournament_id, count, client=arbiter)``: register ``count`` players through the
    arbiter's form — licences L0000, L0001…, surnames NOM00, NOM01…, first name « Prénom », club « Club »."""

    def register(tournament_id: int, count: int, *, client=None) -> None:
        _register(client or arbiter, tournament_id, count)

    return register


@pytest.fixture
def tournament_factory(app, arbiter):
    """``tournament_factory(kind="individual", players=0, name=…, date=…, place="Club", client=None)``: a
    tournament as the arbiter's form creates it (one séance, Europe/Paris), owned by the signed-in
    « arbitre », with ``players`` players registered as `players_factory` does; its id. Built through the
    operations (`factories.create_tournament`: these tests are not about the forms); with ``client``, through
    that client's forms, as that client's account."""

    def create(kind: str = "individual", players: int = 0, *, name: str = "Tournoi", date: str = "2026-11-24",
               place: str = "Club", client=None) -> int:
        if client is None:
            return create_tournament(app, kind, players, name=name, date=date, place=place, owner=ARBITER)
        tournament_id = _new_tournament(client, kind, name, date, place)
        _register(client, tournament_id, players)
        return tournament_id

    return create


@pytest.fixture
def free_evening_factory(arbiter, tournament_factory):
    """``free_evening_factory(players, seed, kind="free", form={}, **tournament)``: a free tournament
    (`tournament_factory`'s ``name``, ``date``…) whose FFT movement the arbiter has drawn with ``seed`` (the
    « Mouvement » form, with the other fields of ``form``); its id."""

    def create(players: int, seed: str, *, kind: str = "free", form: dict | None = None, **tournament) -> int:
        tournament_id = tournament_factory(kind, players, **tournament)
        response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement",
                                data={**(form or {}), "seed": seed})
        assert response.status_code == 302, response.get_data(as_text=True)
        return tournament_id

    return create
