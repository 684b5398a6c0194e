"""The players' personal confirmation codes (SPEC §12; issue 16 for free play, issue 28 for the duplicate):
one function for both, so a player's code is the same wherever it is printed or typed.

A code is 4 digits from an HMAC-SHA256 of the tournament's random ``table_key`` and the entrant's id (a
player's place ``N3``, a substitute's ``X1``, a team's ``NS2``): reproducible, never stored, unguessable
without the key; a new ``table_key`` makes new codes. The HMAC's label ``tarot-free-player/1`` is the one
free play shipped with: kept, so that codes already printed do not change.

Typing codes is bounded: after `MAX_REFUSED_CODES` refused attempts at a table for a position (counted in
the journal, `refused_attempts`), the phone no longer confirms there — the arbiter does (4 digits are not
guessed in 5 tries: 1 chance in 2 000).
"""

from __future__ import annotations

import hashlib
import hmac

from sqlalchemy import bindparam
from sqlmodel import Session, select

from duplicate.db import read_columns
from duplicate.models import JournalEntry, Tournament

CODE_DIGITS = 4
MAX_REFUSED_CODES = 5
CODE_REFUSED = "table.code_refused"  # a duplicate table's refused confirmation, as the journal names it


def player_code(tournament: Tournament, entrant_id: str) -> str:
    """An entrant's confirmation code: 4 digits from an HMAC of the tournament's ``table_key`` and his id."""
    mac = hmac.new(tournament.table_key.encode(), f"tarot-free-player/1|{tournament.id}|{entrant_id}".encode(),
                   hashlib.sha256).digest()
    return str(int.from_bytes(mac[:8], "big") % 10 ** CODE_DIGITS).zfill(CODE_DIGITS)


def code_matches(tournament: Tournament, entrant_id: str | None, typed) -> bool:
    """Whether ``typed`` (spaces ignored) is ``entrant_id``'s code, compared in constant time."""
    if not entrant_id:
        return False
    clean = "".join(str(typed or "").split())[:20]
    return hmac.compare_digest(clean.encode(), player_code(tournament, entrant_id).encode())


# built once, bound per request: a phone's confirmation reads it (issue 30: building a select costs ≈ 0.1 ms)
_ACTION_ENTRIES = select(JournalEntry.after).where(JournalEntry.tournament_id == bindparam("tournament_id"),
                                                   JournalEntry.action == bindparam("action"))


def refused_attempts(session: Session, tournament: Tournament, action: str, table: int, position: int) -> int:
    """How many journal entries ``action`` (a refused code) name ``table`` and ``position``."""
    return refused_at(action_entries(session, tournament, action), table, position)


def action_entries(session: Session, tournament: Tournament, action: str) -> list:
    """The ``after`` of the tournament's journal entries ``action``."""
    return read_columns(session, _ACTION_ENTRIES, {"tournament_id": tournament.id, "action": action}).scalars().all()


def refused_at(entries, table: int, position: int) -> int:
    """How many of these entries' ``after`` name ``table`` and ``position``."""
    return sum(1 for after in entries if (after or {}).get("table") == table and (after or {}).get("position") == position)
