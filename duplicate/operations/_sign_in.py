"""Sign-in throttling (issue 13, then issue 28 point 5; docs/sign-in-throttling.md): failed sign-ins are
counted in the database (table ``sign_in_failure``, one row per counter: every thread and process of the
server counts together), in four kinds of counter.

* **The address** (``~addr|ADDRESS``; an IPv6 address counts with its whole /64): every failure from it,
  whatever the name typed, known or not. `ADDRESS`: 10 free, then locked 30 s, doubled at each further
  failure, 15 min at most; forgotten after an hour without a failure; a success does not clear it (an
  attacker would sign in to an account of his own to wipe it).
* **The account** (``~account|USER_ID``): every failure on that user name from a device it is not known on,
  from all addresses. `ACCOUNT`: 20 free, then locked 1 min, doubled, 1 h at most; forgotten after a day.
  This lockout is *silent*: the answer is the one of a wrong password (the password is still checked, the
  same counters are written), because an unknown name has no such counter (no row per name typed) and a
  visible lockout would tell which names exist. Failures on unknown names go to one counter,
  ``~unknown-names``, that locks nothing (the same writes for a known and an unknown name).
* **Everyone** (``~global``): a leaky bucket of every failure from devices not known — `GLOBAL_BURST`
  failures at once, then one every `GLOBAL_LEAK`; above it, every sign-in without a known-device cookie
  waits (« Trop d’essais : réessayez dans N s »).
* **A known device** (``~device|ID``): a browser where an account signed in before carries a signed cookie
  (`duplicate.web.auth`); its sign-ins to that account skip the three counters above, are never locked by
  strangers' failures, and its own failures are counted apart: `DEVICE`, 5 free, 30 s doubled to 15 min,
  cleared by a success.

Rows stay bounded: a failure writes at most three rows (address, account or ``~unknown-names``, global),
the global bucket bounds how many failures a minute can write, and `record_failures` deletes the rows whose
window has passed. Keys start with « ~ », which no user name can (`create_user`), so the rows of the
former name-and-address counters are simply purged.
"""

from __future__ import annotations

import dataclasses
import datetime
import ipaddress

from sqlalchemy import and_, delete, or_
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from duplicate.models import SignInFailure, stored_utc, utcnow


@dataclasses.dataclass(frozen=True)
class Rule:
    """Failures in a row (none older than `forget_after` apart): `free` of them lock nothing, the next one
    locks for `first_lock`, then twice as long at each further failure, `longest_lock` at most."""

    free: int
    first_lock: datetime.timedelta
    longest_lock: datetime.timedelta
    forget_after: datetime.timedelta

    def lock_after(self, failures: int) -> datetime.timedelta:
        if failures <= self.free:
            return datetime.timedelta(0)
        return min(self.first_lock * 2 ** min(failures - self.free - 1, 30), self.longest_lock)


SECOND, MINUTE, HOUR = (datetime.timedelta(seconds=1), datetime.timedelta(minutes=1),
                        datetime.timedelta(hours=1))
ADDRESS = Rule(free=10, first_lock=30 * SECOND, longest_lock=15 * MINUTE, forget_after=HOUR)
ACCOUNT = Rule(free=20, first_lock=MINUTE, longest_lock=HOUR, forget_after=24 * HOUR)
DEVICE = Rule(free=5, first_lock=30 * SECOND, longest_lock=15 * MINUTE, forget_after=HOUR)
COUNT_ONLY = Rule(free=2**62, first_lock=SECOND, longest_lock=SECOND, forget_after=24 * HOUR)
GLOBAL_BURST = 50  # failures at once from devices not known, before every such sign-in waits
GLOBAL_LEAK = 6 * SECOND  # then one more failure every 6 s (600 an hour)

PURGED_AT_ONCE = 500  # stale rows deleted by one failure (a few at a time: its transaction stays short)

GLOBAL_KEY = "~global"
UNKNOWN_NAMES_KEY = "~unknown-names"


def address_key(address: str | None) -> str:
    """The counter of one client address; IPv6 by /64 (one subscriber holds a whole /64)."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return f"~addr|{(address or '?')[:150]}"
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return f"~addr|{ip.ipv4_mapped}"
        return f"~addr|{ipaddress.ip_network(f'{ip}/64', strict=False)}"
    return f"~addr|{ip}"


def account_key(user_id: int | None) -> str:
    """The counter of one account; every unknown name shares `UNKNOWN_NAMES_KEY`."""
    return f"~account|{user_id}" if user_id is not None else UNKNOWN_NAMES_KEY


def device_key(device_id: str) -> str:
    return f"~device|{device_id[:100]}"


def rule_for(key: str) -> Rule:
    if key.startswith("~account|"):
        return ACCOUNT
    if key.startswith("~device|"):
        return DEVICE
    if key == UNKNOWN_NAMES_KEY:
        return COUNT_ONLY
    return ADDRESS


def lock_after(failures: int, rule: Rule = ADDRESS) -> datetime.timedelta:
    """How long a counter of `rule` stays locked after `failures` failures in a row."""
    return rule.lock_after(failures)


def global_wait(level: int) -> datetime.timedelta:
    """The global bucket holding `level` failures just now: how long until a sign-in may try again
    (0 below `GLOBAL_BURST`; each failure above it adds `GLOBAL_LEAK`)."""
    return GLOBAL_LEAK * max(0, level - GLOBAL_BURST + 1)



def _row(session: Session, key: str, for_update: bool = False) -> SignInFailure | None:
    query = select(SignInFailure).where(SignInFailure.key == key)
    return session.exec(query.with_for_update() if for_update else query).first()


def failures(session: Session, key: str) -> int:
    """The failures counted for `key` (0 when none)."""
    row = _row(session, key)
    return row.failures if row is not None else 0


def locked_for(session: Session, key: str, now: datetime.datetime | None = None) -> int:
    """The seconds (rounded up) before `key` may try again; 0 when it may now."""
    now = now or utcnow()
    row = _row(session, key)
    locked_until = stored_utc(row.locked_until) if row is not None else None
    if locked_until is None or locked_until <= now:
        return 0
    return max(1, int(-(-(locked_until - now).total_seconds() // 1)))


def _locked_row(session: Session, key: str, now: datetime.datetime) -> SignInFailure:
    """The row of `key`, locked for this transaction (created if need be: two servers never lose a count)."""
    row = _row(session, key, for_update=True)
    if row is None:
        try:
            with session.begin_nested():
                row = SignInFailure(key=key, failures=0, last_at=now)
                session.add(row)
        except IntegrityError:  # another server counted this key's first failure meanwhile
            row = _row(session, key, for_update=True)
    return row


def record_failure(session: Session, key: str, now: datetime.datetime | None = None) -> int:
    """Count one failed sign-in on `key` (the global bucket or a counter of `rule_for(key)`); returns the
    seconds of the lockout it starts (0: none)."""
    now = now or utcnow()
    row = _locked_row(session, key, now)
    if key == GLOBAL_KEY:  # a leaky bucket: `failures` is its level at `last_at`, one leaks every GLOBAL_LEAK
        leaked = int((now - stored_utc(row.last_at)) / GLOBAL_LEAK) if now > stored_utc(row.last_at) else 0
        if leaked >= row.failures:
            row.failures, row.last_at = 0, now
        else:
            row.failures -= leaked
            row.last_at = stored_utc(row.last_at) + GLOBAL_LEAK * leaked
        row.failures += 1
        wait = global_wait(row.failures)
        row.locked_until = row.last_at + wait if wait else None
        lock = max(datetime.timedelta(0), row.locked_until - now) if wait else wait
    else:
        rule = rule_for(key)
        if now - stored_utc(row.last_at) > rule.forget_after:
            row.failures = 0
        row.failures += 1
        row.last_at = now
        lock = rule.lock_after(row.failures)
        row.locked_until = now + lock if lock else None
    session.add(row)
    session.flush()
    return int(-(-lock.total_seconds() // 1))


def record_failures(session: Session, keys: list[str], now: datetime.datetime | None = None) -> dict[str, int]:
    """Count one failure on each of `keys`, their rows locked in one order (two servers never deadlock),
    and delete the rows whose time has passed; {key: seconds of the lockout started}."""
    now = now or utcnow()
    started = {key: record_failure(session, key, now) for key in sorted(set(keys))}
    purge(session, now)
    return started


def purge(session: Session, now: datetime.datetime | None = None) -> int:
    """Delete the counters that count nothing any more (their window passed, no lockout running); rows
    another server holds are skipped (deleting them would wait for it while holding ours: a deadlock)."""
    now = now or utcnow()
    column = SignInFailure.__table__.c
    unlocked = or_(column.locked_until.is_(None), column.locked_until < now)
    accounts = column.key.startswith("~account|")
    kept = column.key.in_([GLOBAL_KEY, UNKNOWN_NAMES_KEY])
    stale = or_(and_(accounts, column.last_at < now - ACCOUNT.forget_after),
                and_(~accounts, ~kept, column.last_at < now - max(ADDRESS.forget_after, DEVICE.forget_after)))
    ids = list(session.execute(select(column.id).where(unlocked, stale).limit(PURGED_AT_ONCE)
                               .with_for_update(skip_locked=True)).scalars())
    if ids:
        session.execute(delete(SignInFailure).where(column.id.in_(ids)))
        session.flush()
    return len(ids)


def clear_failures(session: Session, key: str) -> None:
    """A successful sign-in: the count of `key` starts again from zero."""
    row = _row(session, key)
    if row is not None:
        session.delete(row)
        session.flush()
