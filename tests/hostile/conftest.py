"""Fixtures for the hostile-input tests: staff accounts and signed-in clients (the shared data and
helpers are in `hostile_data`)."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from duplicate import db, operations
from hostile_data import PASSWORD


@pytest.fixture
def make_client(app):
    """``make_client(role)``: a new test client signed in as a new user with that role."""
    count = [0]

    def make(role: str = "arbiter"):
        count[0] += 1
        username = f"{role}{count[0]}"
        with app.app_context(), Session(db.get_engine(app)) as session:  # the app's PASSWORD_HASH_METHOD
            operations.create_user(session, username, PASSWORD, role)
            session.commit()
        client = app.test_client()
        response = client.post("/connexion", data={"username": username, "password": PASSWORD})
        assert response.status_code == 302
        return client

    return make


@pytest.fixture
def arbiter(make_client):
    return make_client("arbiter")


def pytest_terminal_summary(terminalreporter):
    """The hostile corpus's numbers (issue 14): inputs tried, refused, accepted."""
    from corpus import summary

    lines = summary()
    if lines:
        terminalreporter.section("hostile corpus")
        for line in lines:
            terminalreporter.write_line(line)
