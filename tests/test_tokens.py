"""Scoring API tokens: shown once, stored hashed, revocable; created from the command line."""

from sqlmodel import select

from duplicate import operations
from duplicate.db import get_session
from duplicate.models import ApiToken, Role


def test_token_is_stored_hashed_and_authenticates(app):
    with app.app_context():
        session = get_session()
        token = operations.create_token(session, "scorer", "tablette 1")
        row = session.exec(select(ApiToken)).one()
        assert token not in row.token_hash and len(row.token_hash) == 64
        assert operations.authenticate_token(session, token).role is Role.scorer
        assert operations.authenticate_token(session, token + "x") is None
        assert operations.authenticate_token(session, "") is None
        row.revoked = True
        session.flush()
        assert operations.authenticate_token(session, token) is None


def test_create_token_command_prints_the_token_last(app, runner):
    result = runner.invoke(args=["create-token", "--role", "scorer", "--label", "salle 2"])
    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    with app.app_context():
        assert operations.authenticate_token(get_session(), token).label == "salle 2"
