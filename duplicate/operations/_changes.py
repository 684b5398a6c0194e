"""A tournament's data version, and the views cached until it changes (issue 12).

Each tournament row carries ``data_version``: every transaction that writes what the tournament's pages
show — its results, players, teams and their members, penalties, substitutions, étuis, movement, or the
tournament itself (publication, name, settings) — adds 1 to it as it commits. The rows it wrote are noted
at each flush (``after_flush``; bulk ``insert``/``update``/``delete`` statements on those tables too) and
the version is raised once, just before the commit (``before_commit``), so a writer holds the tournament's
row for the commit only. Journal entries, users and tokens change no page: they leave the version alone.

A cached view (the ranking, a rendered page fragment, the JSON ranking) is kept with the version it was
computed from and served only while the tournament's row still holds that version: one read of one row
by its primary key per request. The version lives in the database, so every process (waitress threads,
several workers, a CLI command) sees the commits of every other, and a stale view is never served. A
session that has written to a tournament and not committed yet neither reads nor fills the cache for it
(its data are not the committed ones); it computes the view afresh.

The cache itself is per process (`ViewCache`): at most `ViewCache.SIZE` views; two requests wanting the same
missing view compute it once (the second waits for the first). The public pages may be served, for a
few seconds at most, the view of the version just superseded while the new one is computed in the
background (``max_stale``): under a stream of scores a public page then costs a lookup, not a ranking.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from sqlalchemy import event, select, update
from sqlalchemy.orm import Session

from duplicate.models import Board, Movement, Penalty, Player, Result, Substitution, Team, TeamMember, Tournament

_WRITTEN = "duplicate.tournaments_written"  # session.info: ids of the tournaments written, not yet committed
_ALL = "*"  # a bulk statement whose tournament is not known: every tournament
_BY_TOURNAMENT_ID = (Player, Team, Result, Penalty, Substitution, Board, Movement)
_TABLES = {model.__table__.name for model in _BY_TOURNAMENT_ID} | {TeamMember.__table__.name}


def _written(session: Session) -> set:
    return session.info.setdefault(_WRITTEN, set())


def has_written(session: Session) -> bool:
    """Whether the session's transaction has written a tournament's data (flushed or bulk), not yet committed."""
    return bool(session.info.get(_WRITTEN))


@event.listens_for(Session, "after_flush")
def _note_flushed(session: Session, _context) -> None:
    written = _written(session)
    for obj in (*session.new, *session.dirty, *session.deleted):
        if isinstance(obj, Tournament):
            if obj.id is not None:
                written.add(obj.id)
        elif isinstance(obj, _BY_TOURNAMENT_ID):
            written.add(obj.tournament_id)
        elif isinstance(obj, TeamMember):
            tournament_id = session.connection().execute(
                select(Team.tournament_id).where(Team.id == obj.team_id)).scalar()
            written.add(tournament_id if tournament_id is not None else _ALL)


@event.listens_for(Session, "do_orm_execute")
def _note_bulk(state) -> None:
    if not (state.is_insert or state.is_update or state.is_delete):
        return
    table = getattr(state.statement, "table", None)
    if getattr(table, "name", None) not in _TABLES:
        return
    params = state.parameters
    rows = params if isinstance(params, (list, tuple)) else [params or {}]
    ids = {row.get("tournament_id") for row in rows}
    _written(state.session).update(_ALL if None in ids or table.name == TeamMember.__table__.name else i
                                   for i in ids)


@event.listens_for(Session, "before_commit")
def _raise_versions(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint's release: the version is raised once, by the commit (a row lock held shorter)
    session.flush()  # what the commit would flush is noted first
    written = session.info.get(_WRITTEN)
    if not written:
        return
    statement = update(Tournament.__table__).values(data_version=Tournament.__table__.c.data_version + 1)
    if _ALL not in written:
        statement = statement.where(Tournament.__table__.c.id.in_(sorted(written)))
    session.connection().execute(statement)


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    if not session.in_nested_transaction():  # a savepoint's end: the transaction goes on, its writes noted
        session.info.pop(_WRITTEN, None)


def data_version(session: Session, tournament: Tournament) -> tuple | None:
    """The committed version of the tournament's data — with its creation time, so that a new tournament
    given a deleted one's id never matches — or None when this session has written to the tournament and
    not committed yet (its own view is not the committed one: no cache)."""
    row = session.execute(select(Tournament.created_at, Tournament.data_version)
                          .where(Tournament.id == tournament.id)).one_or_none()
    written = session.info.get(_WRITTEN, ())
    if row is None or tournament.id in written or _ALL in written:
        return None
    return tuple(row)


class AudienceChanged(Exception):
    """Raised by a view's computation when the tournament read no longer fits the view's audience (its
    publication changed meanwhile): the value is not kept."""


@dataclass
class _Entry:
    version: tuple
    value: Any
    superseded: float | None = None  # when a request first saw a newer version (monotonic clock)


def _older(kept: tuple, version: tuple) -> bool:
    """Whether ``kept`` is an earlier version of the same tournament than ``version``."""
    return kept[0] == version[0] and kept[1] < version[1]


class ViewCache:
    """The last value of each view, with the version it was computed from (see the module's docstring)."""

    SIZE = 256
    WAIT = 60  # seconds a request waits for another's computation of the same view, then computes it too

    def __init__(self):
        self.lock = threading.Lock()
        self.entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self.computing: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, version: tuple | None, compute: Callable[[], Any], *, max_stale: float = 0,
            recompute: Callable[[Callable], None] | None = None) -> Any:
        """The view ``key`` at ``version``: kept, or computed (once for concurrent callers) and kept; ``version``
        None: computed, not kept. With ``max_stale`` and ``recompute``: the kept value of an earlier version
        is served if that version was superseded at most ``max_stale`` seconds ago, and ``recompute(done)``
        computes the new one in the background, then calls ``done((version, value) or None)``."""
        if version is None:
            return compute()
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None and entry.version == version:
                self.entries.move_to_end(key)
                return entry.value
            computing = self.computing.setdefault(key, threading.Lock())
            stale = None
            if entry is not None and recompute is not None and max_stale > 0 and _older(entry.version, version):
                now = time.monotonic()
                entry.superseded = entry.superseded or now
                stale = entry if now - entry.superseded <= max_stale else None
        if stale is not None:
            if computing.acquire(blocking=False):
                self._recompute(key, computing, recompute)
            return stale.value
        acquired = computing.acquire(timeout=self.WAIT)
        try:
            with self.lock:
                entry = self.entries.get(key)
                if entry is not None and entry.version == version:  # computed by another request meanwhile
                    return entry.value
            value = compute()
            self._keep(key, version, value)
            return value
        finally:
            if acquired:
                computing.release()

    def _recompute(self, key: Hashable, computing: threading.Lock, recompute: Callable[[Callable], None]) -> None:
        def done(result: tuple | None) -> None:
            try:
                if result is not None:
                    self._keep(key, *result)
            finally:
                computing.release()
        try:
            recompute(done)
        except BaseException:
            computing.release()
            raise

    def _keep(self, key: Hashable, version: tuple, value: Any) -> None:
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None and (entry.version == version or _older(version, entry.version)):
                return  # a newer one is kept already
            self.entries[key] = _Entry(version, value)
            self.entries.move_to_end(key)
            while len(self.entries) > self.SIZE:
                old, _ = self.entries.popitem(last=False)
                self.computing.pop(old, None)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


VIEWS = ViewCache()


def cached_view(session: Session, tournament: Tournament, name: Hashable,
                compute: Callable[[Session, Tournament], Any], *, max_stale: float = 0,
                spawn: Callable[[Callable[[Session], None]], None] | None = None) -> Any:
    """The view ``name`` of the tournament (any hashable: a page fragment and its audience, the JSON
    ranking…) as ``compute(session, tournament)`` gives it, computed once per version of the tournament's
    data. The caller must not modify the value: it is shared with the other requests.

    ``max_stale`` (seconds) and ``spawn``: the view of an earlier version may be served — only if that
    version was superseded at most ``max_stale`` seconds ago — while ``spawn(task)`` runs ``task(session)`` in
    the background with a session of its own, which computes the view of the version it reads. For the
    public pages under a stream of writes (`duplicate.web.public.shared_view`); never for staff."""
    tournament_id = tournament.id

    def recompute(done: Callable) -> None:
        def task(session: Session) -> None:
            result = None
            try:
                fresh = session.get(Tournament, tournament_id)
                version = data_version(session, fresh) if fresh is not None else None
                if version is not None:
                    result = version, compute(session, fresh)
            except AudienceChanged:
                pass
            finally:
                done(result)
        spawn(task)
    return VIEWS.get((tournament_id, name), data_version(session, tournament), lambda: compute(session, tournament),
                     max_stale=max_stale, recompute=recompute if spawn is not None else None)
