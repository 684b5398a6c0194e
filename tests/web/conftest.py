"""Fixtures for the arbiter's screens: staff accounts and a signed-in client."""

import pytest
from sqlmodel import Session

from duplicate import db, operations

PASSWORD = "mot-de-passe-solide"


@pytest.fixture
def make_user(app):
    """Create a staff account (`operations.create_user`) and return its username."""

    def make(username: str, role: str = "arbiter") -> str:
        with Session(db.get_engine(app)) as session:
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
    response = _sign_in(client, make_user("arbitre"))
    assert response.status_code == 302
    return client
