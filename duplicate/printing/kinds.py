"""The printed kinds (SPEC §8, §10): their names on the command line, titles and file names, and
`render_kind`, one kind rendered at once. Re-exported by the package (`duplicate.printing.render_kind`…);
its modules (`commands`) import it from here, not from the package above them."""

from __future__ import annotations

from typing import Any, Mapping

from .contexts import build_context

#: The printed kinds, as named on the command line (SPEC §10).
KINDS = ("labels", "diagrams", "travellers", "guide-cards", "movement-cards", "route-sheets", "ranking",
         "frequencies", "hand-records")
#: The printed kinds of a free-play tournament (SPEC §13, `.freeplay`): they read the SPEC §13 file.
FREE_KINDS = ("free-cards", "free-orientation", "free-table-cards", "free-sheets", "free-ranking", "free-pcn")
#: French titles, for download buttons and file names.
TITLES = {
    "labels": "Étiquettes des étuis", "diagrams": "Diagrammes", "travellers": "Fiches ambulantes",
    "guide-cards": "Cartes de table", "movement-cards": "Fiches individuelles de mouvement",
    "route-sheets": "Feuilles de route", "ranking": "Classements", "frequencies": "Fréquences par étui",
    "hand-records": "Relevé des donnes", "pack": "Tout imprimer",
    "free-cards": "Fiches personnelles", "free-orientation": "Tableau d’orientation des joueurs",
    "free-table-cards": "Cartes de table", "free-sheets": "Feuilles de marque vierges",
    "free-ranking": "Classement", "free-pcn": "PCN et PP",
}
FILE_NAMES = {
    "labels": "etiquettes", "diagrams": "diagrammes", "travellers": "fiches-ambulantes",
    "guide-cards": "cartes-de-table", "movement-cards": "fiches-individuelles", "route-sheets": "feuilles-de-route",
    "ranking": "classements", "frequencies": "frequences", "hand-records": "donnes", "pack": "tout",
    "free-cards": "fiches-personnelles", "free-orientation": "tableau-d-orientation",
    "free-table-cards": "cartes-de-table", "free-sheets": "feuilles-de-marque", "free-ranking": "classement",
    "free-pcn": "pcn",
}


def file_name(tournament_id: int, what: str) -> str:
    """The name of a downloaded PDF, after what it holds: ``tournoi-12-feuilles-de-route.pdf`` for a
    printed kind (``what`` in `KINDS`), ``tournoi-12-<what>.pdf`` for anything else."""
    return f"tournoi-{tournament_id}-{FILE_NAMES.get(what, what)}.pdf"


def kind_of_job(job: str) -> str | None:
    """The printed kind (or ``"pack"``) a batch job's name (``<kind>-<random token>``) starts with; the
    token may hold dashes too, so the name is matched against the kinds, longest first."""
    for kind in sorted((*KINDS, "pack"), key=len, reverse=True):
        if job.startswith(kind + "-"):
            return kind
    return None


def route_urls_from_tokens(base_url: str, tokens: Mapping[str, str], path: str = "/feuille-de-route/{token}") -> dict:
    """Entrant id → absolute URL of its private route-sheet page, from the private tokens."""
    base = base_url.rstrip("/")
    return {ident: base + path.format(token=token) for ident, token in tokens.items() if token}


def render_kind(kind: str, export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None, *,
                base_url: str | None = None, route_urls: Mapping[str, str] | None = None, **options) -> bytes:
    """The PDF (bytes) of one printed kind, rendered at once (a few dozen pages; use
    :func:`start_job` for big batches).  ``route_urls`` (entrant id → URL) puts a QR code on each
    route sheet; ``base_url`` is accepted for symmetry and unused when ``route_urls`` is given."""
    from .render import render_pdf

    if kind not in KINDS and kind not in FREE_KINDS:
        raise ValueError(f"document inconnu « {kind} » (attendu : {', '.join(KINDS + FREE_KINDS)})")
    if kind == "route-sheets" and route_urls is not None:
        options["route_urls"] = route_urls
    return render_pdf(kind, build_context(kind, export, ranking, **options))
