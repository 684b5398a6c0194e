"""The print pack of an evening (SPEC §8, §10 ``print pack``; issue 15): every printed kind in one PDF,
in the order the arbiter uses it, and the pack of one table (what goes in that table's envelope).

Order of the whole pack (choices where SPEC is silent, in docs/printing.md « Printing: the pack »):

* before play — étui labels, diagrams (per étui), blank fiches ambulantes, guide cards (per table),
  personal movement cards;
* after play — rankings, the score sheet per quarter (team match only), route sheets, frequencies,
  hand records.

« Before play » is read off the stored facts, not off whether a ranking can be computed (issue 29
point 1: with no result a ranking still exists — every player « 1 ex æquo 0,00 » — and the pack printed
it, 23 empty route sheets and the record of the hands the arbiter is about to put on the tables): play
has begun once at least one result line is stored (the export's ``"results"`` is not empty, whatever
its state: entered, corrected, annulled or given a note).  Before that the pack holds no result, no
ranking, no route sheet, no frequency report and no hand record (:func:`played`).  The CLI
``print pack`` and the web « Tout imprimer » both go through :func:`parts`, so they follow the same
decision.

The pack of table ``t`` holds what the arbiter puts in its envelope before play: the labels,
diagrams and blank fiches of the étuis that table ``t`` plays at the first position, its guide card,
and the movement cards of the players (or teams) seated there at the first position.

Every part is cut into chunks (:func:`.batch.chunks`) and all the chunks of all the parts go to one
pool of child processes (:func:`.batch.render_chunks`), so that both cores work even while the small
parts print; the chunks are merged in order with pypdf.  ``progress(done, total)`` counts
printed items (an étui, a table, a player…) over the whole pack.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable, Mapping

from . import batch, render
from .contexts import build_context

BEFORE_PLAY = ("labels", "diagrams", "travellers", "guide-cards", "movement-cards")
AFTER_PLAY = ("ranking", "team-sheet", "route-sheets", "frequencies", "hand-records")
Progress = Callable[[int, int], None]


def _first_position(export: Mapping[str, Any], table: int) -> tuple[list[int], list[str]]:
    """(étuis, entrants) of ``table`` at the first position of the movement."""
    rounds = (export.get("movement") or {}).get("rounds") or []
    if not rounds:
        return [], []
    first = min(r["position"] for r in rounds)
    boards, entrants = [], []
    for r in rounds:
        if r["position"] == first and r["table"] == table:
            boards += [n for n in r.get("boards", []) if n not in boards]
            entrants += [who for who in (r.get("seats") or {}).values() if who and who not in entrants]
    return boards, entrants


def tables_of(export: Mapping[str, Any]) -> list[int]:
    """The tables of the movement, in order."""
    return sorted({r["table"] for r in (export.get("movement") or {}).get("rounds") or []})


def played(export: Mapping[str, Any]) -> bool:
    """Whether play has begun: at least one result line is stored (see the module docstring)."""
    return bool(export.get("results"))


def parts(export: Mapping[str, Any], ranking: Mapping[str, Any] | None, *, table: int | None = None,
          route_urls: Mapping[str, str] | None = None, table_urls: Mapping[int, str] | None = None,
          codes: Mapping[str, str] | None = None) -> list[tuple[str, dict]]:
    """The (kind, context) of every part of the pack, in order; the kinds without an item are left out;
    the after-play kinds only once play has begun (:func:`played`) and a ranking exists."""
    if table is None:
        wanted = [("labels", {}), ("diagrams", {}), ("travellers", {"scored": False}),
                  ("guide-cards", {"table_urls": table_urls or {}}), ("movement-cards", {"codes": codes or {}})]
        if ranking is not None and played(export):
            wanted += [("ranking", {}), ("team-sheet", {}), ("route-sheets", {"route_urls": route_urls or {}}),
                       ("frequencies", {}), ("hand-records", {})]
    else:
        boards, entrants = _first_position(export, table)
        if not boards and not entrants:
            raise ValueError(f"la table {table} ne joue pas au premier tour du mouvement")
        wanted = [("labels", {"boards": boards}), ("diagrams", {"boards": boards}),
                  ("travellers", {"scored": False, "boards": boards}),
                  ("guide-cards", {"tables": [table], "table_urls": table_urls or {}}),
                  ("movement-cards", {"entrants": entrants, "codes": codes or {}})]
    built = []
    for kind, options in wanted:
        context = build_context(kind, export, ranking, **options)
        if context.get("items"):
            built.append((kind, context))
    return built


def render_pack_to_file(export: Mapping[str, Any], ranking: Mapping[str, Any] | None, out_path: str, *,
                        table: int | None = None, route_urls: Mapping[str, str] | None = None,
                        table_urls: Mapping[int, str] | None = None, progress: Progress | None = None,
                        processes: int | None = None, codes: Mapping[str, str] | None = None) -> int:
    """Render the pack (or table ``table``'s pack) to ``out_path``; returns the number of pages."""
    from pypdf import PdfReader

    todo = parts(export, ranking, table=table, route_urls=route_urls, table_urls=table_urls, codes=codes)
    pieces = [(kind, chunk) for kind, context in todo for chunk in batch.chunks(kind, context)]
    total = sum(len(chunk["items"]) for _, chunk in pieces)
    done = [0]

    def step(index: int) -> None:
        done[0] += len(pieces[index][1]["items"])
        if progress:
            progress(done[0], total)

    with tempfile.TemporaryDirectory(prefix="pack-") as tmp:
        tasks = [(kind, chunk, os.path.join(tmp, f"{n:04d}-{kind}.pdf")) for n, (kind, chunk) in enumerate(pieces)]
        batch.render_chunks(tasks, processes=processes, progress=step)
        data = render.merge([path for _, _, path in tasks])
    tmp_path = f"{out_path}.part"
    with open(tmp_path, "wb") as out:
        out.write(data)
    os.replace(tmp_path, out_path)
    return len(PdfReader(out_path).pages)


def run_job(out_path: str, export: Mapping[str, Any], ranking: Mapping[str, Any] | None, *,
            table: int | None = None, **options) -> None:
    """Render the pack to ``out_path``, writing its progress next to it as :func:`.batch.job_status`
    reads it (``table`` is recorded there too, to name the file); errors end up in the status."""
    def progress(done: int, total: int) -> None:
        batch._write_status(out_path, state="running", done=done, total=total, table=table, message="")

    try:
        pages = render_pack_to_file(export, ranking, out_path, table=table, progress=progress, **options)
        batch._write_status(out_path, state="done", done=1, total=1, pages=pages, table=table, message="")
    except Exception as error:  # reported to the page that polls the job
        batch._write_status(out_path, state="error", done=0, total=0, table=table,
                            message=f"{type(error).__name__} : {error}")


def start_thread(out_path: str, export: Mapping[str, Any], ranking: Mapping[str, Any] | None, *,
                 table: int | None = None, **options):
    """Start :func:`run_job` in a background thread of the web process (off the request path; the
    big parts still render in child processes) and return the thread."""
    import threading

    batch._write_status(out_path, state="running", done=0, total=0, table=table, message="")
    thread = threading.Thread(target=run_job, args=(out_path, dict(export), dict(ranking) if ranking else None),
                              kwargs=dict(options, table=table), name="impression-pack", daemon=True)
    thread.start()
    return thread
