"""The tournament's journal (SPEC §11): every change made during the evening — a player edited, a late
arrival, a withdrawal, a substitute, a penalty, a result replaced, a publication — with who, when, what,
and the values before and after. The arbiter reads it on the « Journal » page; it is never edited.

Each use case that changes the evening calls `journal` in the same transaction as its change, so an
entry exists exactly when the change does (a refused change rolls back both).
"""

from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy import insert
from sqlmodel import Session, select

from duplicate.models import JournalEntry, Tournament, utcnow

SUMMARY_LENGTH = 500
_INSERT = insert(JournalEntry.__table__)  # built once (issue 30)


def journal(session: Session, tournament: Tournament, *, action: str, summary: str, who: str | None = None,
            before: Mapping[str, Any] | None = None, after: Mapping[str, Any] | None = None) -> None:
    """Keep one change: ``action`` a short key (``player.edit``…), ``summary`` the French sentence the
    arbiter reads, ``before``/``after`` the values changed (JSON-ready). One INSERT in the caller's
    transaction, past the ORM's unit of work: no request reads back the entry it writes, and its own flush
    was a sixth of a phone's write (issue 30). What the caller has pending is flushed first, as before."""
    if len(summary) > SUMMARY_LENGTH:
        summary = summary[:SUMMARY_LENGTH - 1] + "…"
    session.flush()
    session.connection().execute(_INSERT, {
        "tournament_id": tournament.id, "at": utcnow(), "action": action, "summary": summary, "who": who,
        "before": dict(before) if before is not None else None, "after": dict(after) if after is not None else None})


def journal_entries(session: Session, tournament: Tournament) -> list[JournalEntry]:
    """The tournament's journal, oldest first."""
    return list(session.exec(select(JournalEntry).where(JournalEntry.tournament_id == tournament.id)
                             .order_by(JournalEntry.id)))
