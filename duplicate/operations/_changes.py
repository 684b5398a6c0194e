"""A tournament's data version, and the views cached until it changes (issue 12).

Each tournament row carries ``data_version``: every transaction that writes what the tournament's pages
show — its results (free-play feuilles too) and the conflicts an entry opens on them (the arbiter's grid
shows them), players, teams and their members, penalties, substitutions, étuis, movement, or the tournament
itself (publication, name, settings) — adds 1 to it as it commits. The
rows it wrote are noted at each flush (``after_flush``; bulk ``insert``/``update``/``delete`` statements on
those tables too) and the version is raised once, just before the commit (``before_commit``), so a writer
holds the tournament's row for the commit only. Journal entries, users and tokens change no page: they
leave the version alone. A commit that writes the movement raises ``movement_version`` too, and only such a
commit: the movement's text is kept per process by that version (`_layout.movement_text`), which a line
written leaves alone.

A cached view (the ranking, a rendered page fragment, the JSON ranking) is kept with the version it was
computed from and served only while the tournament's row still holds that version: one read of one row
by its primary key per request. The version lives in the database, so every process (waitress threads,
several workers, a CLI command) sees the commits of every other, and staff are never served a stale view. A
session that has written to a tournament and not committed yet neither reads nor fills the cache for it
(its data are not the committed ones); it computes the view afresh.

The cache itself is per process (`ViewCache`): at most `ViewCache.SIZE` views; two requests wanting the same
missing view compute it once (the second waits for the first). The public pages never pay a recomputation
while a view of theirs is kept: they are served the latest kept view, and one background worker per process
(`ViewCache.worker`) recomputes it — coalesced (one recomputation at a time, a view asked for again while it
is being computed is computed once more afterwards, from the data of then: the latest version wins).

A kept public view is recomputed when someone may read it, at most once a second (issue 30): a reader
polling the ranking once a second made the worker recompute it — ≈190 ms of CPU at 150 tables — after
every commit, and a write's CPU went from 18 to 32–34 ms during a burst of confirmations (now about 9 ms:
``bench/bench_table_load.py --api table --scenarios minute --reader``, 150 tables, SQLite). So:

* a commit that raises a version in this process (`_committed`) asks the worker for the kept views that a
  public request was served within the last `ViewCache.READ_WINDOW` seconds (a projector or a results page
  polls every few seconds: it stays « read »); the others are left as kept, superseded;
* a public request that finds the kept view older than the data (a view nobody read lately, or a commit of
  another process) asks the worker for it and is served the kept view meanwhile;
* the worker recomputes a view at most once every `ViewCache.DEBOUNCE` seconds: asked again sooner, it
  waits out the rest of the second for that view (the others' go on), then recomputes it once from the data
  of then — the commits of that second coalesce, the latest version wins.

A view the worker was asked for more than ``max_stale`` seconds ago and has not delivered is not served
any more (the worker is stuck or far behind): that request waits for the worker, or computes it. Staff never
get a superseded view: their requests compute it on the spot when the kept one is older than the data.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from sqlalchemy import bindparam, event, select, update
from sqlalchemy.orm import Session

from duplicate.models import (Board, FreeSheet, Movement, Penalty, Player, Result, ResultConflict, Substitution, Team,
                              TeamMember, Tournament)

_WRITTEN = "duplicate.tournaments_written"  # session.info: ids of the tournaments written, not yet committed
_MOVED = "duplicate.movements_written"  # session.info: ids of the tournaments whose movement was written
_PINNED = "duplicate.pinned_versions"  # session.info: tournament id → the version a worker's batch computes
_ALL = "*"  # a bulk statement whose tournament is not known: every tournament
# a free-play feuille de marque (SPEC §13) is a result too: the ranking API caches its view by this version; a
# conflict opened or settled changes the grid (« conflit », issue 30: its poll was told « nothing new »)
_BY_TOURNAMENT_ID = (Player, Team, Result, ResultConflict, Penalty, Substitution, Board, Movement, FreeSheet)
_TABLES = {model.__table__.name for model in _BY_TOURNAMENT_ID} | {TeamMember.__table__.name}


def _written(session: Session) -> set:
    return session.info.setdefault(_WRITTEN, set())


def _moved(session: Session) -> set:
    return session.info.setdefault(_MOVED, set())


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
            if isinstance(obj, Movement):
                _moved(session).add(obj.tournament_id)
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
    if table.name == Movement.__table__.name:
        _moved(state.session).update(_ALL if None in ids else i for i in ids)


_COLUMNS = Tournament.__table__.c
_RAISE_ALL = update(Tournament.__table__).values(data_version=_COLUMNS.data_version + 1)  # built once (issue 30)
_RAISE = _RAISE_ALL.where(_COLUMNS.id.in_(bindparam("ids", expanding=True)))


@event.listens_for(Session, "before_commit")
def _raise_versions(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint's release: the version is raised once, by the commit (a row lock held shorter)
    session.flush()  # what the commit would flush is noted first
    written = session.info.get(_WRITTEN)
    if not written:
        return
    if _ALL in written:
        session.connection().execute(_RAISE_ALL)
    else:
        session.connection().execute(_RAISE, {"ids": sorted(written)})
    moved = session.info.get(_MOVED)
    if moved:  # the movement's own version (`_layout.movement_text`): a line written leaves it alone
        statement = update(Tournament.__table__).values(movement_version=_COLUMNS.movement_version + 1)
        if _ALL not in moved:
            statement = statement.where(_COLUMNS.id.in_(sorted(moved)))
        session.connection().execute(statement)


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    """The kept views of the tournaments written are superseded: the worker recomputes them. A savepoint's
    release is no commit: the transaction goes on, its writes still noted for the real commit."""
    if session.in_nested_transaction():
        return
    session.info.pop(_MOVED, None)
    written = session.info.pop(_WRITTEN, None)
    if written:
        VIEWS.superseded(None if _ALL in written else written)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    if not session.in_nested_transaction():  # a savepoint's end: the transaction goes on, its writes noted
        session.info.pop(_WRITTEN, None)
        session.info.pop(_MOVED, None)


def pin_version(session: Session, tournament_id: int, version: tuple) -> None:
    """From now on `data_version` gives ``version`` for this tournament in this session, without reading the
    row: the worker's session computes a batch of views — and what they share, the ranking — for one
    version, though commits keep coming (each view's data are then those of that version or newer, as for
    any view: the version is read before the data)."""
    session.info.setdefault(_PINNED, {})[tournament_id] = version


def data_version(session: Session, tournament: Tournament) -> tuple | None:
    """The committed version of the tournament's data, ``((created_at, data_epoch), data_version)`` — its
    creation time, so that a new tournament given a deleted one's id never matches, and its epoch, which
    ``flask restore`` rewrites, so that the versions of the data a restore replaced never match the restored
    ones (issue 31: `_older` compares numbers of one epoch only) — or None when this session has written to
    the tournament and not committed yet (its own view is not the committed one: no cache); a version
    pinned in the session (`pin_version`) as is."""
    pinned = session.info.get(_PINNED)
    if pinned and tournament.id in pinned and not session.info.get(_WRITTEN):
        return pinned[tournament.id]
    row = session.execute(select(Tournament.created_at, Tournament.data_epoch, Tournament.data_version)
                          .where(Tournament.id == tournament.id)).one_or_none()
    written = session.info.get(_WRITTEN, ())
    if row is None or tournament.id in written or _ALL in written:
        return None
    return (row[0], row[1]), row[2]


class AudienceChanged(Exception):
    """Raised by a view's computation when the tournament read no longer fits the view's audience (its
    publication changed meanwhile): the value is not kept."""


#: ``refresh(kept_version, batch)``, run by the worker: ``(version, value)`` of the data of now, or None when
#: there is nothing newer to keep (the same version, the tournament gone, the audience changed). ``batch``: a
#: dict shared by the refreshes of one tournament's views in a row (its ``"sessions"``, if they set any, are
#: closed after them).
Refresh = Callable[[tuple, dict], "tuple | None"]


@dataclass
class _Entry:
    version: tuple
    value: Any
    superseded: float | None = None  # since when the worker is asked for newer data (`ViewCache.clock`)
    refresh: Refresh | None = None  # how the worker recomputes it (a public view only)
    read_at: float | None = None  # when a public request was last served it (`ViewCache.clock`)


def _older(kept: tuple, version: tuple) -> bool:
    """Whether ``kept`` is an earlier version of the same tournament than ``version`` — of the same epoch: the
    views of data a restore replaced are neither older nor newer than the restored data's, they never match."""
    return kept[0] == version[0] and kept[1] < version[1]


class ViewCache:
    """The last value of each view — keys ``(tournament id, name)`` — with the version it was computed from,
    and the worker that recomputes the public ones (see the module's docstring)."""

    SIZE = 256
    WAIT = 60  # seconds a request waits for another's computation of the same view, then computes it too
    READ_WINDOW = 30.0  # seconds: a view served to the public within them is recomputed after each commit
    DEBOUNCE = 1.0  # seconds: the worker starts recomputing one view at most once within them

    def __init__(self):
        self.clock: Callable[[], float] = time.monotonic  # tests move their own
        self.lock = threading.Lock()
        self.entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self.computing: dict[Hashable, threading.Lock] = {}
        self.pending: OrderedDict[Hashable, None] = OrderedDict()  # the worker's queue, each key once
        self.changed: dict[Any, float] = {}  # tournament id → last commit seen in this process (monotonic)
        self.wake = threading.Condition(self.lock)
        self.busy: Hashable | None = None  # the key the worker is recomputing
        self.started: dict[Hashable, float] = {}  # key → when the worker last started recomputing it
        self.worker: threading.Thread | None = None

    def get(self, key: Hashable, version: tuple | None, compute: Callable[[], Any], *, max_stale: float = 0,
            refresher: Callable[[], Refresh] | None = None) -> Any:
        """The view ``key`` at ``version``: kept, or computed (once for concurrent callers) and kept; ``version``
        None: computed, not kept. With ``refresher`` (a public view) and ``max_stale`` > 0: a kept value of an
        earlier version is served as long as its data were superseded at most ``max_stale`` seconds ago, and
        the worker recomputes it with ``refresher()`` (called in the caller's thread: it captures what the
        worker needs)."""
        if version is None:
            return compute()
        public = refresher is not None and max_stale > 0
        with self.lock:
            now = self.clock()
            entry = self.entries.get(key)
            if entry is not None and public:
                entry.read_at = now
                if entry.refresh is None:
                    entry.refresh = refresher()
            if entry is not None and (entry.version == version or public and _older(version, entry.version)):
                self.entries.move_to_end(key)
                return entry.value  # that version, or (to the public) a newer one kept by the worker meanwhile
            if entry is not None and public and _older(entry.version, version):
                entry.superseded = entry.superseded or now
                self._schedule(key)
                if now - entry.superseded <= max_stale:
                    return entry.value
            computing = self.computing.setdefault(key, threading.Lock())
        acquired = computing.acquire(timeout=self.WAIT)
        try:
            with self.lock:
                entry = self.entries.get(key)
                if entry is not None and (entry.version == version or public and _older(version, entry.version)):
                    return entry.value  # computed by another request, or the worker, meanwhile
            value = compute()
            self._keep(key, version, value, refresh=refresher() if public else None, read=public)
            return value
        finally:
            if acquired:
                computing.release()

    def superseded(self, tournament_ids) -> None:
        """Commits of this process changed these tournaments' data (None: every tournament): their kept views
        are superseded; the worker recomputes those it knows how to and that the public was served within
        `READ_WINDOW` seconds — the others wait for a public request to find them older (`get`)."""
        with self.lock:
            now = self.clock()
            for key, entry in self.entries.items():
                tournament_id = key[0] if isinstance(key, tuple) else key
                if tournament_ids is None or tournament_id in tournament_ids:
                    self.changed[tournament_id] = now
                    if entry.refresh is not None and entry.read_at is not None \
                            and now - entry.read_at <= self.READ_WINDOW:
                        entry.superseded = entry.superseded or now
                        self._schedule(key)

    def _schedule(self, key: Hashable) -> None:
        """Put ``key`` in the worker's queue (once); the lock is held."""
        self.pending[key] = None
        if self.worker is None or not self.worker.is_alive():
            self.worker = threading.Thread(target=self._work, name="views", daemon=True)
            self.worker.start()
        self.wake.notify_all()

    def _work(self) -> None:
        """The worker: recompute the queued views, one tournament's at a time, each batch from one reading of
        the data's version (`refresh`'s ``batch``: one session, `pin_version`) so that they share the
        computations kept per version (the ranking); a commit during the batch queues its views again. A view
        whose last recomputation started less than `DEBOUNCE` seconds ago stays queued until then (the other
        views are recomputed meanwhile): the commits of that second are recomputed once."""
        while True:
            with self.lock:
                self.busy = None
                self.wake.notify_all()  # for `settle`
                while True:
                    now = self.clock()
                    due = {key: self.started.get(key, now - self.DEBOUNCE) + self.DEBOUNCE for key in self.pending}
                    ready = [key for key, at in due.items() if at <= now]
                    if ready:
                        break
                    self.wake.wait(min(due.values()) - now if due else None)
                first = ready[0]
                group = first[0] if isinstance(first, tuple) else first
                keys = [key for key in ready if (key[0] if isinstance(key, tuple) else key) == group]
                for key in keys:
                    del self.pending[key]
                    self.started[key] = now
                for key in [key for key, at in self.started.items() if now - at >= self.DEBOUNCE]:
                    del self.started[key]  # its debounce is over: forgotten
                self.busy = first
            batch: dict = {}
            try:
                for key in keys:
                    self._refresh(key, batch)
            finally:
                for session in batch.get("sessions", {}).values():
                    session.close()

    def _refresh(self, key: Hashable, batch: dict) -> None:
        with self.lock:
            entry = self.entries.get(key)
            if entry is None or entry.refresh is None:
                return
            refresh = entry.refresh
            computing = self.computing.setdefault(key, threading.Lock())
        started = self.clock()
        with computing:  # a request computing the same view finishes first
            with self.lock:
                entry = self.entries.get(key)
            if entry is None:
                return
            try:
                result = refresh(entry.version, batch)
            except Exception:  # noqa: BLE001 -- logged; the view stays as kept, the next write asks again
                logging.getLogger(__name__).exception("recomputing the view %r", key)
                return
            if result is not None:
                self._keep(key, *result, refresh=refresh, started=started)

    def settle(self, timeout: float) -> bool:
        """Wait until the worker has nothing left to do — a view waiting out its `DEBOUNCE` is still to do —
        (tests, benchmarks); False if it still has."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.pending or self.busy is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.wake.wait(left)
        return True

    def _keep(self, key: Hashable, version: tuple, value: Any, *, refresh: Refresh | None = None,
              started: float | None = None, read: bool = False) -> None:
        """Keep a value computed from ``version`` — unless a newer one is kept already; ``started``: when its
        computation began (a commit seen since then, which asked the worker again, supersedes it at once);
        ``read``: served to the public now."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None and (entry.version == version or _older(version, entry.version)):
                if read:
                    entry.read_at = self.clock()
                return
            tournament_id = key[0] if isinstance(key, tuple) else key
            changed = self.changed.get(tournament_id)
            superseded = (started if started is not None and changed is not None and changed > started
                          and key in self.pending else None)
            read_at = self.clock() if read else entry.read_at if entry is not None else None
            self.entries[key] = _Entry(version, value, superseded,
                                       refresh or (entry.refresh if entry is not None else None), read_at)
            self.entries.move_to_end(key)
            while len(self.entries) > self.SIZE:
                old, _ = self.entries.popitem(last=False)
                self.computing.pop(old, None)
                self.pending.pop(old, None)
                self.started.pop(old, None)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.pending.clear()
            self.started.clear()


VIEWS = ViewCache()


def cached_view(session: Session, tournament: Tournament, name: Hashable,
                compute: Callable[[Session, Tournament], Any], *, max_stale: float = 0,
                elsewhere: Callable[[], Callable[[Callable[[Session], Any]], Any]] | None = None) -> Any:
    """The view ``name`` of the tournament (any hashable: a page fragment and its audience, the JSON
    ranking…) as ``compute(session, tournament)`` gives it, computed once per version of the tournament's
    data. The caller must not modify the value: it is shared with the other requests.

    ``max_stale`` (seconds) and ``elsewhere``: a public view — the latest kept view is served, even of data
    superseded (at most ``max_stale`` seconds ago), and the worker recomputes it; ``elsewhere()``, called in
    the request, gives ``run(task, batch)``, which the worker calls to run ``task(session)`` in a context of
    its own, with the batch's session (`ViewCache._work`). For the public pages
    (`duplicate.web.public.pages.shared_view`); never for staff."""
    tournament_id = tournament.id

    def refresher() -> Refresh:
        run = elsewhere()

        def refresh(kept: tuple, batch: dict) -> tuple | None:
            def task(session: Session) -> tuple | None:
                fresh = session.get(Tournament, tournament_id)
                version = data_version(session, fresh) if fresh is not None else None
                if version is None or version == kept or _older(version, kept):
                    return None
                pin_version(session, tournament_id, version)
                try:
                    return version, compute(session, fresh)
                except AudienceChanged:
                    return None
            return run(task, batch)
        return refresh
    return VIEWS.get((tournament_id, name), data_version(session, tournament), lambda: compute(session, tournament),
                     max_stale=max_stale, refresher=refresher if elsewhere is not None else None)
