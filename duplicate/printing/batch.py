"""Big print jobs (hundreds of pages) in chunks, in child processes, with progress.

WeasyPrint lays a whole document out in memory, so a 600-page batch rendered at once needs a lot of
memory and gives no sign of life.  Here the context's ``items`` are cut into chunks (a chunk never
splits an item, so pages still break between items only), each chunk is rendered to a temporary PDF
by a pool of child processes (``spawn``: safe to start from a threaded web server), and the parts
are merged in order with pypdf.  ``progress(done, total)`` is called as items are finished.

For the web, :func:`start_job` runs the same thing in a detached child process that writes its
progress next to the output file (``FILE.pdf.json``); :func:`job_status` reads it, so any worker of
the web server can show the progress and serve the file once ``state`` is ``"done"``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Mapping

from duplicate import affinity

from . import render
from .contexts import build_context

#: Items per chunk, per kind (about 20–60 pages a chunk).
CHUNK_SIZES = {"labels": 4, "diagrams": 12, "travellers": 30, "guide-cards": 40, "movement-cards": 160,
               "route-sheets": 50, "ranking": 10, "frequencies": 80, "hand-records": 40}
Progress = Callable[[int, int], None]


def _render_chunk(kind: str, context: Mapping, path: str) -> int:
    from pypdf import PdfReader

    with open(path, "wb") as out:
        out.write(render.render_pdf(kind, context))
    return len(PdfReader(path).pages)


def chunks(kind: str, context: Mapping, chunk_size: int | None = None) -> list[dict]:
    """``context`` cut into contexts of at most ``chunk_size`` items (`CHUNK_SIZES` by default); a
    context cut in several prints no page numbers (each chunk would count from 1)."""
    items = list(context.get("items", []))
    size = max(1, chunk_size or CHUNK_SIZES.get(kind, 40))
    if len(items) <= size:
        return [dict(context)]
    return [dict(context, items=items[i:i + size], page_numbers=False) for i in range(0, len(items), size)]


def render_chunks(tasks: list[tuple[str, Mapping, str]], *, processes: int | None = None,
                  progress: Callable[[int], None] | None = None) -> int:
    """Render every ``(kind, context, path)`` to its path, in a pool of child processes (``spawn``)
    when there is more than one task; ``progress(index)`` is called in order as each task is written.
    Returns the total number of pages.  One pool for all the chunks of all the parts, so that both
    cores work on a pack made of many small parts too."""
    workers = processes if processes is not None else min(2, os.cpu_count() or 1)
    pages = 0
    if workers <= 1 or len(tasks) <= 1:
        for index, (kind, context, path) in enumerate(tasks):
            pages += _render_chunk(kind, context, path)
            if progress:
                progress(index)
        return pages
    context_ = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context_, initializer=affinity.release) as pool:
        futures = [pool.submit(_render_chunk, kind, context, path) for kind, context, path in tasks]
        for index, future in enumerate(futures):
            pages += future.result()
            if progress:
                progress(index)
    return pages


def render_context_to_file(kind: str, context: Mapping, out_path: str, *, chunk_size: int | None = None,
                           processes: int | None = None, progress: Progress | None = None) -> int:
    """Render a built context to ``out_path``; returns the number of pages."""
    parts = chunks(kind, context, chunk_size)
    total = len(context.get("items", []))
    done = [0]

    def step(index: int) -> None:
        done[0] += len(parts[index].get("items", []))
        if progress:
            progress(done[0], total)

    with tempfile.TemporaryDirectory(prefix="impression-") as tmp:
        paths = [os.path.join(tmp, f"part-{n:05d}.pdf") for n in range(len(parts))]
        pages = render_chunks([(kind, part, path) for part, path in zip(parts, paths)], processes=processes,
                              progress=step)
        if len(paths) == 1:
            with open(paths[0], "rb") as source:
                _write_atomic(out_path, source.read())
        else:
            _write_atomic(out_path, render.merge(paths))
    return pages


def render_to_file(kind: str, export: Mapping[str, Any], ranking: Mapping[str, Any] | None, out_path: str, *,
                   chunk_size: int | None = None, processes: int | None = None, progress: Progress | None = None,
                   **options) -> int:
    """Build the context of ``kind`` and render it to ``out_path`` in chunks; returns the page count."""
    context = build_context(kind, export, ranking, **options)
    return render_context_to_file(kind, context, out_path, chunk_size=chunk_size, processes=processes,
                                  progress=progress)


def _write_atomic(path: str, data: bytes) -> None:
    tmp = f"{path}.part"
    with open(tmp, "wb") as out:
        out.write(data)
    os.replace(tmp, path)


# --- background jobs for the web ------------------------------------------------------------------------

def status_path(out_path: str) -> str:
    return f"{out_path}.json"


def _write_status(out_path: str, **status) -> None:
    status["updated"] = time.time()
    tmp = status_path(out_path) + ".part"
    with open(tmp, "w", encoding="utf-8") as out:
        json.dump(status, out, ensure_ascii=False)
    os.replace(tmp, status_path(out_path))


def _job(kind: str, export, ranking, out_path: str, options: dict) -> None:
    affinity.release()  # a renderer is not the server: every core
    try:
        def progress(done: int, total: int) -> None:
            _write_status(out_path, state="running", done=done, total=total, message="")

        pages = render_to_file(kind, export, ranking, out_path, progress=progress, **options)
        _write_status(out_path, state="done", done=1, total=1, pages=pages, message="")
    except Exception as error:  # reported to the page that polls the job
        _write_status(out_path, state="error", done=0, total=0, message=f"{type(error).__name__} : {error}")


def start_job(kind: str, export: Mapping[str, Any], ranking: Mapping[str, Any] | None, out_path: str,
              **options) -> int:
    """Start rendering in a child process, outside the web request; returns the child's pid.

    Poll :func:`job_status` (``{"state": "running"|"done"|"error", "done", "total", "message"}``) and
    serve ``out_path`` once the state is ``"done"``.
    """
    _write_status(out_path, state="running", done=0, total=0, message="")
    process = multiprocessing.get_context("spawn").Process(
        target=_job, args=(kind, dict(export), dict(ranking) if ranking else None, out_path, options), daemon=False)
    process.start()
    return process.pid


def job_status(out_path: str) -> dict:
    try:
        with open(status_path(out_path), encoding="utf-8") as source:
            return json.load(source)
    except FileNotFoundError:
        return {"state": "unknown", "done": 0, "total": 0, "message": "aucune impression en cours"}
