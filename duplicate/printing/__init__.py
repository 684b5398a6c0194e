"""Printed matter (SPEC §8): étui labels, diagrams, fiches ambulantes, guide and movement cards,
route sheets, rankings, frequencies, hand records — as PDF with WeasyPrint.

Data flow (ARCHITECTURE habit 6): the SPEC §9 tournament dict (``interchange.export_tournament``)
and the SPEC §9 ranking output (``operations.ranking``) → :mod:`.contexts` / :mod:`.results` build
plain data → one template per item in ``templates/print/`` → :mod:`.render` (WeasyPrint; pypdf to
merge) → PDF bytes.  Big batches: :mod:`.batch` (chunks, child processes, progress).

Public API for the web layer and the CLI::

    render_kind(kind, export, ranking=None, *, base_url=None, route_urls=None, **options) -> bytes
    render_to_file(kind, export, ranking, out_path, *, progress=None, **options) -> pages
    start_job(kind, export, ranking, out_path, **options) -> pid;  job_status(out_path) -> dict

``options`` per kind: labels ``columns``, ``rows``, ``single``, ``boards``, ``pockets``, ``margin_mm``;
diagrams/frequencies/hand-records ``boards``; travellers ``scored``, ``boards``; guide-cards
``tables``; movement-cards ``entrants``; route-sheets ``entrants``, ``route_urls``.
"""

from __future__ import annotations

from .batch import job_status, render_to_file, start_job  # noqa: F401
from .contexts import build_context  # noqa: F401
from .kinds import (  # noqa: F401
    FILE_NAMES, FREE_KINDS, KINDS, TITLES, file_name, kind_of_job, render_kind, route_urls_from_tokens,
)
