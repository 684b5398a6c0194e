"""Staff accounts (arbiters and scorers, passwords hashed with werkzeug) and scoring API tokens.

API tokens are 32 random bytes (URL-safe); only their SHA-256 is stored, so a stolen database does
not give working tokens; a token is shown once, when it is created.

An unknown user name costs the same time as a wrong password: `authenticate` checks the password against
a dummy hash then (without it, an unknown name answered 14 times faster, telling which names exist).
A new password, or a disabled account, ends the account's sessions (``User.session_generation``).

Passwords are hashed with the application's ``PASSWORD_HASH_METHOD`` (werkzeug's method string): scrypt in
production (`config.Config`), a one-round PBKDF2 in the test configuration, where a scrypt hash (0.27 s) per
account signed in was a large part of the suite's time; outside an application context, scrypt. Checking a
hash uses the method written in it, so a database keeps working whatever the setting.

A token made on a tournament's screen records the account that made it (``ApiToken.user_id``) and serves
while that account keeps the tournament (`_access.token_serves`); a token made on the command line (no
tournament, no account) is listed (`all_tokens`) and revoked (`revoke_any_token`) on the command line only.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import sys

from sqlmodel import Session, select
from werkzeug.security import check_password_hash, generate_password_hash

from duplicate.models import ApiToken, Role, Tournament, User

from ._common import MIN_PASSWORD, NotFound, OperationError


PRODUCTION_HASH_METHOD = "scrypt"  # werkzeug's default: `config.Config.PASSWORD_HASH_METHOD`


def hash_method() -> str:
    """The method new password hashes are made with: the application's ``PASSWORD_HASH_METHOD``."""
    flask = sys.modules.get("flask")  # the operations do not import Flask: no Flask, no application context
    if flask is not None and flask.has_app_context():
        return flask.current_app.config.get("PASSWORD_HASH_METHOD") or PRODUCTION_HASH_METHOD
    return PRODUCTION_HASH_METHOD


def _hash(password: str) -> str:
    return generate_password_hash(password, method=hash_method())


def _check_password(password: str | None) -> str:
    if len(password or "") < MIN_PASSWORD:
        raise OperationError(f"Le mot de passe doit compter au moins {MIN_PASSWORD} caractères.", "password")
    if len(password) > 200:
        raise OperationError("Le mot de passe est trop long (200 caractères au plus).", "password")
    return password


def create_user(session: Session, username: str, password: str, role: str | Role = Role.arbiter) -> User:
    """A staff account (arbiter or scorer); the password is stored hashed (werkzeug)."""
    username = (username or "").strip()
    if not re.fullmatch(r"[\w.@-]{3,100}", username):
        raise OperationError("Identifiant invalide : 3 à 100 lettres, chiffres, « . », « @ », « - » ou « _ ».",
                             "username")
    if session.exec(select(User).where(User.username == username)).first() is not None:
        raise OperationError(f"L’identifiant « {username} » est déjà pris.", "username")
    _check_password(password)
    try:
        role = Role(role)
    except ValueError:
        raise OperationError(f"Rôle inconnu « {role} » (arbiter ou scorer).", "role") from None
    user = User(username=username, password_hash=_hash(password), role=role)
    session.add(user)
    session.flush()
    return user


def _dummy_hash() -> str:
    """A hash of a random password, made like the real ones, to check against for an unknown name."""
    return _dummy_hash_made_with(hash_method())


@functools.cache
def _dummy_hash_made_with(method: str) -> str:
    return generate_password_hash(secrets.token_urlsafe(16), method=method)


def user_named(session: Session, username: str | None) -> User | None:
    """The account of this user name (as typed, spaces around left out), or None."""
    return session.exec(select(User).where(User.username == (username or "").strip())).first()


def password_matches(user: User | None, password: str | None) -> bool:
    """Whether `password` is `user`'s; as slow when `user` is None (a dummy hash is checked)."""
    if user is None:
        check_password_hash(_dummy_hash(), password or "")
        return False
    return check_password_hash(user.password_hash, password or "")


def authenticate(session: Session, username: str, password: str) -> User | None:
    """The user with these credentials, or None; as slow for an unknown name as for a wrong password.
    A disabled account is returned too (the caller refuses it: `User.active`)."""
    user = user_named(session, username)
    return user if password_matches(user, password) else None


def set_password(session: Session, user: User, password: str) -> None:
    """A new password (the arbiter resets a scorer's); every session of the account ends."""
    user.password_hash = _hash(_check_password(password))
    user.session_generation += 1
    session.add(user)
    session.flush()


def change_password(session: Session, user: User, current: str, password: str) -> None:
    """Change one's own password, the current one typed again; the account's other sessions end."""
    if not check_password_hash(user.password_hash, current or ""):
        raise OperationError("Mot de passe actuel incorrect.", "current")
    if current == password:
        raise OperationError("Le nouveau mot de passe doit différer de l’actuel.", "password")
    set_password(session, user, password)


def set_active(session: Session, user: User, active: bool) -> None:
    """Disable an account (it can no longer sign in, its sessions end) or enable it again."""
    user.active = bool(active)
    user.session_generation += 1
    session.add(user)
    session.flush()


def end_sessions(session: Session, user: User) -> None:
    """Sign out: every session of the account opened so far stops working, copies of its cookie too."""
    user.session_generation += 1
    session.add(user)
    session.flush()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(session: Session, role: str | Role = Role.scorer, label: str | None = None, *,
                 tournament: Tournament | None = None, created_by: str | None = None, user: User | None = None) -> str:
    """A new bearer token for the scoring API, for one `tournament` (None: every tournament, the command
    line's), made by `user` (its name goes to ``created_by``); returned once, only its SHA-256 is stored."""
    try:
        role = Role(role)
    except ValueError:
        raise OperationError(f"Rôle inconnu « {role} » (arbiter ou scorer).", "role") from None
    token = secrets.token_urlsafe(32)
    if label is not None and len(label.strip()) > 100:
        raise OperationError("Nom du jeton trop long (100 caractères au plus).", "label")
    session.add(ApiToken(token_hash=_token_hash(token), role=role, label=(label or "").strip() or None,
                         tournament_id=tournament.id if tournament is not None else None,
                         created_by=user.username if user is not None else created_by,
                         user_id=user.id if user is not None else None))
    session.flush()
    return token


def authenticate_token(session: Session, token: str | None) -> ApiToken | None:
    """The valid (not revoked) token row for a bearer token, or None."""
    if not token:
        return None
    row = session.exec(select(ApiToken).where(ApiToken.token_hash == _token_hash(token))).first()
    return row if row is not None and not row.revoked else None


def tokens(session: Session, tournament: Tournament | None) -> list[ApiToken]:
    """The API tokens made for `tournament` (None: those for every tournament), oldest first."""
    return list(session.exec(select(ApiToken).where(ApiToken.tournament_id == (tournament.id if tournament else None))
                             .order_by(ApiToken.id)))


def all_tokens(session: Session) -> list[ApiToken]:
    """Every API token, oldest first (the command line's list)."""
    return list(session.exec(select(ApiToken).order_by(ApiToken.id)))


CLI_ONLY = ("Ce jeton a été créé en ligne de commande : il se révoque en ligne de commande "
            "(flask --app app revoke-token {id}).")


def revoke_any_token(session: Session, token_id: int) -> ApiToken:
    """Revoke any token (the command line: whoever runs it runs the server)."""
    row = session.get(ApiToken, token_id)
    if row is None:
        raise NotFound(f"Jeton n° {token_id} introuvable.")
    row.revoked = True
    session.add(row)
    session.flush()
    return row
