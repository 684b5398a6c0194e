"""The tournament's journal (SPEC §11): every change made during the evening — a player edited, a late
arrival, a withdrawal, a substitute, a penalty, a result replaced, a publication — with who, when, what,
and the values before and after. The arbiter reads it on the « Journal » page; it is never edited.

Each use case that changes the evening calls `journal` in the same transaction as its change, so an
entry exists exactly when the change does (a refused change rolls back both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from sqlalchemy import func, insert
from sqlmodel import Session, select

from duplicate.db import read_columns
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


#: Entries on one page of the « Journal »: an evening on the phones journals each entry and confirmation —
#: 8,400 entries at 150 tables, a 3.3 MB page and 1.5 s of the server's one core when shown whole.
JOURNAL_PAGE = 100


@dataclass(frozen=True)
class JournalPage:
    """One page of the journal, newest first: its ``entries``, its number (from 1), how many ``pages`` and
    how many entries in all (``total``) match the filters."""

    entries: list[JournalEntry]
    page: int
    pages: int
    total: int


def _names_place(values: Mapping[str, Any] | None, key: str, number: int) -> bool:
    """Whether an entry's ``before`` or ``after`` gives ``number`` under ``key`` (« table », « étui »)."""
    return isinstance(values, Mapping) and values.get(key) == number


def journal_page(session: Session, tournament: Tournament, page: int = 1, *, table: int | None = None,
                 board: int | None = None, size: int | None = JOURNAL_PAGE) -> JournalPage:
    """The entries of page ``page`` (newest first; a page past the last gives the last; ``size`` None: all on
    one page, to print). ``table``: only the entries about that table — its phone's (``who`` « table N ») or
    naming it in their values (``"table": N``, as every result's entry does); ``board``: only those naming
    that étui (``"étui"``)."""
    where = JournalEntry.tournament_id == tournament.id
    if table is None and board is None:
        total = session.exec(select(func.count()).select_from(JournalEntry).where(where)).one()
        ids = None
    else:  # the values are JSON: matched here, on light rows, the page's entries read after
        ids = [ident for ident, who, before, after in read_columns(session, select(
            JournalEntry.id, JournalEntry.who, JournalEntry.before, JournalEntry.after).where(where)
            .order_by(JournalEntry.id.desc()))
            if (table is None or who == f"table {table}" or _names_place(before, "table", table)
                or _names_place(after, "table", table))
            and (board is None or _names_place(before, "étui", board) or _names_place(after, "étui", board))]
        total = len(ids)
    size = size or max(total, 1)
    pages = max(1, -(-total // size))
    page = min(max(1, page), pages)
    query = select(JournalEntry).where(where).order_by(JournalEntry.id.desc())
    if ids is None:
        query = query.offset((page - 1) * size).limit(size)
    else:
        query = query.where(JournalEntry.id.in_(ids[(page - 1) * size:page * size]))
    return JournalPage(list(session.exec(query)), page, pages, total)
