"""Staff accounts (arbiters and scorers, passwords hashed with werkzeug) and scoring API tokens.

API tokens are 32 random bytes (URL-safe); only their SHA-256 is stored, so a stolen database does
not give working tokens; a token is shown once, when it is created.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from sqlmodel import Session, select
from werkzeug.security import check_password_hash, generate_password_hash

from duplicate.models import ApiToken, Role, User

from ._common import MIN_PASSWORD, OperationError

def create_user(session: Session, username: str, password: str, role: str | Role = Role.arbiter) -> User:
    """A staff account (arbiter or scorer); the password is stored hashed (werkzeug)."""
    username = (username or "").strip()
    if not re.fullmatch(r"[\w.@-]{3,100}", username):
        raise OperationError("Identifiant invalide : 3 à 100 lettres, chiffres, « . », « @ », « - » ou « _ ».",
                             "username")
    if session.exec(select(User).where(User.username == username)).first() is not None:
        raise OperationError(f"L'identifiant « {username} » est déjà pris.", "username")
    if len(password or "") < MIN_PASSWORD:
        raise OperationError(f"Le mot de passe doit compter au moins {MIN_PASSWORD} caractères.", "password")
    try:
        role = Role(role)
    except ValueError:
        raise OperationError(f"Rôle inconnu « {role} » (arbiter ou scorer).", "role") from None
    user = User(username=username, password_hash=generate_password_hash(password), role=role)
    session.add(user)
    session.flush()
    return user


def authenticate(session: Session, username: str, password: str) -> User | None:
    """The user with these credentials, or None."""
    user = session.exec(select(User).where(User.username == (username or "").strip())).first()
    if user is None or not check_password_hash(user.password_hash, password or ""):
        return None
    return user


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(session: Session, role: str | Role = Role.scorer, label: str | None = None) -> str:
    """A new bearer token for the scoring API; returned once, only its SHA-256 is stored."""
    try:
        role = Role(role)
    except ValueError:
        raise OperationError(f"Rôle inconnu « {role} » (arbiter ou scorer).", "role") from None
    token = secrets.token_urlsafe(32)
    session.add(ApiToken(token_hash=_token_hash(token), role=role, label=(label or None)))
    session.flush()
    return token


def authenticate_token(session: Session, token: str | None) -> ApiToken | None:
    """The valid (not revoked) token row for a bearer token, or None."""
    if not token:
        return None
    row = session.exec(select(ApiToken).where(ApiToken.token_hash == _token_hash(token))).first()
    return row if row is not None and not row.revoked else None
