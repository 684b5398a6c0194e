"""Sign-in throttling: failed sign-ins are counted per user name and address, in the database (every thread
and process of the server sees the same count).

After `FREE_FAILURES` failures in a row, that name from that address is locked out for `FIRST_LOCK`, then for
twice as long after each further failure, `LONGEST_LOCK` at most; during a lockout even the right password
is refused. A successful sign-in clears the count; failures older than `FORGET_AFTER` are forgotten.
Unknown names are counted like known ones, so that the lockout tells nothing about which names exist.
Before this, 40 wrong passwords followed by the right one got in.
"""

from __future__ import annotations

import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from duplicate.models import SignInFailure, utcnow

FREE_FAILURES = 5
FIRST_LOCK = datetime.timedelta(seconds=30)
LONGEST_LOCK = datetime.timedelta(minutes=15)
FORGET_AFTER = datetime.timedelta(hours=1)


def throttle_key(username: str | None, address: str | None) -> str:
    """The counter of one user name (case-insensitive, as typed) from one address."""
    return f"{(username or '').strip().lower()[:150]}|{(address or '?')[:49]}"


def lock_after(failures: int) -> datetime.timedelta:
    """How long sign-in stays locked after `failures` failures in a row: nothing before `FREE_FAILURES`,
    then 30 s, 1 min, 2 min, 4 min… up to 15 min."""
    if failures < FREE_FAILURES:
        return datetime.timedelta(0)
    return min(FIRST_LOCK * 2 ** min(failures - FREE_FAILURES, 20), LONGEST_LOCK)


def _aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    """Stored moments come back naive from SQLite: they are UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.timezone.utc)
    return moment


def failures(session: Session, key: str) -> int:
    """The failures in a row counted for `key` (0 when none)."""
    row = session.exec(select(SignInFailure).where(SignInFailure.key == key)).first()
    return row.failures if row is not None else 0


def locked_for(session: Session, key: str, now: datetime.datetime | None = None) -> int:
    """The seconds (rounded up) before `key` may try again; 0 when it may now."""
    now = now or utcnow()
    row = session.exec(select(SignInFailure).where(SignInFailure.key == key)).first()
    locked_until = _aware(row.locked_until) if row is not None else None
    if locked_until is None or locked_until <= now:
        return 0
    return max(1, int(-(-(locked_until - now).total_seconds() // 1)))


def record_failure(session: Session, key: str, now: datetime.datetime | None = None) -> int:
    """Count one failed sign-in of `key` (row locked while counting: two servers never lose a failure);
    returns the seconds of the lockout it starts (0: none)."""
    now = now or utcnow()
    row = session.exec(select(SignInFailure).where(SignInFailure.key == key).with_for_update()).first()
    if row is None:
        try:
            with session.begin_nested():
                row = SignInFailure(key=key, failures=0, last_at=now)
                session.add(row)
        except IntegrityError:  # another server counted this key's first failure meanwhile
            row = session.exec(select(SignInFailure).where(SignInFailure.key == key).with_for_update()).one()
    if now - _aware(row.last_at) > FORGET_AFTER:
        row.failures = 0
    row.failures += 1
    row.last_at = now
    lock = lock_after(row.failures)
    row.locked_until = now + lock if lock else None
    session.add(row)
    session.flush()
    return int(lock.total_seconds())


def clear_failures(session: Session, key: str) -> None:
    """A successful sign-in: the count of `key` starts again from zero."""
    row = session.exec(select(SignInFailure).where(SignInFailure.key == key)).first()
    if row is not None:
        session.delete(row)
        session.flush()
