"""The route-sheet PDFs of the private links, rendered off the request path and kept (issue 12).

Rendering one feuille de route takes seconds of CPU (WeasyPrint); a request never does it. A request for
the PDF is served the file kept for its key — the tournament, the participant, the link printed under the
QR code and its audience (`Sheet.audience`: before publication the arbiter's, with the scores, and the
public's, without — SPEC §11; once published one file for both) — when that file
was rendered from the data the request sees; otherwise it puts the sheet in the queue and answers at once
the French « en préparation » page, which reloads itself (`PREPARING_REFRESH` seconds) with ``depuis=<the
version seen>``: the file is then served as soon as it holds the data of that moment or newer (never newer
than what the request sees), so a sheet is always served even while scores keep arriving. The link to
the PDF is a plain link (no ``download`` attribute): the browser shows the waiting page, then saves the
PDF (``Content-Disposition: attachment``) when it comes.

One worker thread per process renders the queued sheets one after the other, reading the database as
a reader (no write lock; one snapshot: ``REPEATABLE READ`` on PostgreSQL) and decides itself whether the
scores are hidden, from the publication it reads. The queue is bounded (`QUEUE_SIZE`): beyond, a request
is told to come back later and nothing is queued. Files live in ``ROUTE_SHEET_CACHE_DIR`` (default
``instance/feuilles-de-route``), one folder per tournament, named after a hash of their key and their
version, written atomically; every process of the same instance folder shares them. Rendering a newer
version removes the older files of the same key.
"""

from __future__ import annotations

import hashlib
import os
import queue
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app
from sqlmodel import Session

from duplicate import db, operations

EXTENSION_KEY = "duplicate.route_sheet_pdfs"
QUEUE_SIZE = 64
PREPARING_REFRESH = 3  # seconds


@dataclass(frozen=True)
class Sheet:
    """One participant's route sheet as one audience gets it; ``url`` is the link printed under its QR code."""

    tournament_id: int
    entrant_id: str
    url: str
    arbiter: bool  # asked by a signed-in arbiter: the scores are shown before publication

    def audience(self, published: bool) -> str:
        """Who the file is for: once the séance is published, everyone (the arbiter's sheet and the public's
        are the same file, rendered once); before, the arbiter (with the scores) or the public (without). A
        file rendered before publication is never one the public is served: its audience is not
        ``published``, whatever version a request names (``depuis``)."""
        return "published" if published else ("arbiter" if self.arbiter else "public")

    def name(self, origin, audience: str) -> str:
        """The files' name, before their version: a hash of the whole key. ``origin``: the first part of the
        data's version (`operations.data_version`), the tournament's creation time and data epoch — another
        tournament given the same id, or a restore (issue 31), gives other names."""
        text = "|".join(map(str, (origin, self.entrant_id, self.url, audience)))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


class RouteSheetPdfs:
    """The kept files of one application, its bounded queue and its worker thread (started on first use)."""

    def __init__(self, app: Flask, directory: str):
        self.app = app
        self.directory = Path(directory)
        self.queue: queue.Queue[Sheet] = queue.Queue(QUEUE_SIZE)
        self.lock = threading.Lock()
        self.queued: set[Sheet] = set()
        self.worker: threading.Thread | None = None
        self.done = threading.Condition()

    def _files(self, sheet: Sheet, origin, audience: str) -> list[tuple[int, Path]]:
        folder = self.directory / str(sheet.tournament_id)
        prefix = sheet.name(origin, audience) + "-"
        found = []
        for path in folder.glob(prefix + "*.pdf") if folder.is_dir() else ():
            version = path.stem[len(prefix):]
            if version.isascii() and version.isdigit():
                found.append((int(version), path))
        return sorted(found)

    def read(self, sheet: Sheet, version: tuple, published: bool, since: int | None = None) -> bytes | None:
        """The kept PDF of ``sheet`` rendered from version ``version`` of the data — or, ``since`` given,
        from any version between ``since`` and ``version`` — for its audience as ``published`` decides it
        (`Sheet.audience`), or None."""
        origin, number = version
        for found, path in reversed(self._files(sheet, origin, sheet.audience(published))):
            if (since if since is not None else number) <= found <= number:
                try:
                    return path.read_bytes()
                except FileNotFoundError:  # replaced by a newer one meanwhile
                    return None
        return None

    def submit(self, sheet: Sheet) -> bool:
        """Queue ``sheet`` (once: a sheet already waiting is not queued again); False when the queue is full."""
        with self.lock:
            if sheet in self.queued:
                return True
            try:
                self.queue.put_nowait(sheet)
            except queue.Full:
                return False
            self.queued.add(sheet)
            if self.worker is None or not self.worker.is_alive():
                self.worker = threading.Thread(target=self._work, name="route-sheet-pdfs", daemon=True)
                self.worker.start()
        return True

    def wait(self, sheet: Sheet, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for ``sheet`` to leave the queue (rendered, or failed)."""
        with self.done:
            self.done.wait_for(lambda: sheet not in self.queued, timeout)

    def _work(self) -> None:
        while True:
            sheet = self.queue.get()
            try:
                with self.app.app_context():
                    self.render(sheet)
            except Exception:  # one sheet failing (tournament deleted…) stops neither the worker nor the others
                self.app.logger.exception("route sheet PDF of %s in tournament %s", sheet.entrant_id,
                                          sheet.tournament_id)
            finally:
                with self.lock:
                    self.queued.discard(sheet)
                with self.done:
                    self.done.notify_all()
                self.queue.task_done()

    def render(self, sheet: Sheet) -> None:
        """Render ``sheet`` from one snapshot of the database and keep it, unless already kept."""
        from duplicate import printing
        from duplicate.printing.commands import tournament_data

        reader = db.get_database(self.app).reader
        if reader.dialect.name == "postgresql":
            reader = reader.execution_options(isolation_level="REPEATABLE READ")
        with Session(reader) as session:
            tournament = operations.get_tournament(session, sheet.tournament_id)
            version = operations.data_version(session, tournament)
            published = operations.is_published(tournament)
            if self.read(sheet, version, published) is not None:  # the other audience's, once published
                return
            secret = sheet.audience(published) == "public"
            export, ranking, _tokens = tournament_data(session, tournament.id)
            if secret:
                export, ranking = operations.without_scores(export), {"boards": [], "ranking": []}
            pdf = printing.render_kind("route-sheets", export, ranking, entrants=[sheet.entrant_id],
                                       route_urls={sheet.entrant_id: sheet.url})
        self._keep(sheet, version, sheet.audience(published), pdf)

    def _keep(self, sheet: Sheet, version: tuple, audience: str, pdf: bytes) -> None:
        origin, number = version
        older = self._files(sheet, origin, audience)
        folder = self.directory / str(sheet.tournament_id)
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".part", delete=False) as part:
            part.write(pdf)
        os.replace(part.name, folder / f"{sheet.name(origin, audience)}-{number}.pdf")
        for found, path in older:
            if found < number:
                path.unlink(missing_ok=True)


def route_sheet_pdfs() -> RouteSheetPdfs:
    """The kept route-sheet PDFs of the current application."""
    app = current_app._get_current_object()
    with _CREATING:
        if EXTENSION_KEY not in app.extensions:
            app.extensions[EXTENSION_KEY] = RouteSheetPdfs(app, app.config["ROUTE_SHEET_CACHE_DIR"])
    return app.extensions[EXTENSION_KEY]


_CREATING = threading.Lock()
