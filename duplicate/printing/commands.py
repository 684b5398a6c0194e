"""The ``flask --app app print KIND --tournament ID --out FILE.pdf`` use case: read the tournament
from the database (export + ranking + private tokens), then render in chunks with progress."""

from __future__ import annotations

from typing import Callable

from . import batch
from .kinds import FREE_KINDS, render_kind, route_urls_from_tokens

DEFAULT_BASE_URL = "http://127.0.0.1:5000"


def tournament_data(session, tournament_id: int) -> tuple[dict, dict | None, dict[str, str]]:
    """(export, ranking or None when it cannot be computed, entrant id → private token).

    Results whose done score was changed afterwards are marked ``"corrected": true`` in the export
    (`operations.corrected_ids`, docs/settled-and-corrected.md), so that every printout flags them (the rules require a correction to be visible); triplettes carry the
    start of their attack rotation (``first_colour``, ``attacked_before``: `operations.rotation_starts`).
    """
    from duplicate import operations
    from duplicate.core.tournament import TournamentError

    tournament = operations.get_tournament(session, tournament_id)
    export = operations.marked_export(session, tournament)  # the private route-sheet page reads the same
    try:
        ranking = operations.ranking(session, tournament)
    except (operations.OperationError, TournamentError):  # no results yet: pack items still print
        ranking = None
    tokens = {}
    for entrant in [*operations.players(session, tournament), *operations.teams(session, tournament)]:
        if getattr(entrant, "entrant_id", None) and getattr(entrant, "token", None):
            tokens[entrant.entrant_id] = entrant.token
    return export, ranking, tokens


def table_urls(session, tournament_id: int, base_url: str | None = None) -> dict[int, str]:
    """Table → absolute URL of its phone page (SPEC §12), for the QR codes of the guide cards."""
    from duplicate import operations

    base = (base_url or DEFAULT_BASE_URL).rstrip("/")
    return {link["table"]: base + link["path"] for link in
            operations.table_links(session, operations.get_tournament(session, tournament_id))}


def confirmation_codes(session, tournament_id: int) -> dict[str, str]:
    """Entrant → his confirmation code (SPEC §12), for the movement cards."""
    from duplicate import operations

    return {item["id"]: item["code"] for item in
            operations.table_codes(session, operations.get_tournament(session, tournament_id))}


def print_tournament(session, tournament_id: int, kind: str, out_path: str, *, base_url: str | None = None,
                     progress: Callable[[int, int], None] | None = None, processes: int | None = None,
                     chunk_size: int | None = None, table: int | None = None, **options) -> int:
    """``kind`` among ``printing.KINDS``, or ``"pack"``: the whole evening (or ``table``'s envelope); for a
    free-play tournament, among ``printing.FREE_KINDS`` (`print_free`)."""
    from duplicate import operations

    if not operations.get_tournament(session, tournament_id).format.has_etuis:
        return print_free(session, tournament_id, kind, out_path)
    if kind in FREE_KINDS:
        raise ValueError(f"« {kind} » s’imprime pour un tournoi en donnes libres ; ce tournoi est en duplicate")
    export, ranking, tokens = tournament_data(session, tournament_id)
    if kind == "pack":
        from . import pack

        return pack.render_pack_to_file(export, ranking, out_path, table=table, progress=progress,
                                        processes=processes,
                                        route_urls=route_urls_from_tokens(base_url or DEFAULT_BASE_URL, tokens),
                                        table_urls=table_urls(session, tournament_id, base_url),
                                        codes=confirmation_codes(session, tournament_id))
    if kind in ("route-sheets", "ranking", "frequencies") and ranking is None:
        from duplicate.core.tournament import TournamentError, load_tournament, ranking_output
        import json

        try:
            ranking = ranking_output(load_tournament(json.dumps(export)))
        except TournamentError as error:
            raise ValueError(f"classement impossible : {error}") from None
    if kind == "route-sheets":
        options["route_urls"] = route_urls_from_tokens(base_url or DEFAULT_BASE_URL, tokens)
    if kind == "guide-cards":  # each table's link to score at the table (SPEC §12)
        options["table_urls"] = table_urls(session, tournament_id, base_url)
    if kind == "movement-cards":  # each entrant's code to confirm a score at the table (SPEC §12)
        options["codes"] = confirmation_codes(session, tournament_id)
    return batch.render_to_file(kind, export, ranking, out_path, progress=progress, processes=processes,
                                chunk_size=chunk_size, **options)


def print_free(session, tournament_id: int, kind: str, out_path: str) -> int:
    """A free-play tournament's printed kind (``printing.FREE_KINDS``; the PCN list of a club tournament: the
    level is chosen on the web page, or use ``pcn --file``), rendered at once; returns the page count."""
    import io

    from pypdf import PdfReader

    from duplicate import operations

    if kind not in FREE_KINDS:
        raise ValueError(f"un tournoi en donnes libres imprime : {', '.join(FREE_KINDS)} (pas « {kind} »)")
    tournament = operations.get_tournament(session, tournament_id)
    export = operations.freeplay.free_export(session, tournament)
    ranking = operations.freeplay.free_ranking(session, tournament) if kind == "free-ranking" else None
    options = {}
    if kind == "free-cards":  # each player's code for confirming a feuille at the table
        codes = operations.freeplay_table.player_codes(session, tournament)
        options["codes"] = {item["id"]: item["code"] for item in codes}
    pdf = render_kind(kind, export, ranking, **options)
    batch._write_atomic(out_path, pdf)
    return len(PdfReader(io.BytesIO(pdf)).pages)
