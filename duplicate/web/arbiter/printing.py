"""The arbiter's printing screen: every printed item of SPEC §8 as a PDF download.

Small documents (rankings, fiches, labels, frequencies, table cards) are rendered in the request and
sent at once. Big batches (diagrams, route sheets, personal movement cards, hand records: hundreds of
pages at a large tournament) are rendered by `duplicate.printing.start_job` in a child process, in
chunks, outside the request; the job page shows the progress and reloads itself until the file is ready,
then serves it. Job files live in ``instance/print-jobs/`` under an unguessable name.

A free-play tournament (SPEC §13) has its own kinds (`printing.FREE_KINDS`: fiches personnelles, tableau
d'orientation, table cards, blank feuilles de marque, ranking, PCN / PP), rendered at once from its SPEC §13
file (`operations.freeplay.free_export`) and ranking (`free_ranking`); the duplicate kinds, the pack and the
batch jobs are not its (`web.freeplay.guard`, and a 404 here for a kind of the other family).

`duplicate.printing` is imported by the views that use it, not with this module: building the
application (every ``flask`` command) does not load the printing code.
"""

import multiprocessing
import os
import re
import secrets

from flask import (Response, abort, current_app, flash, jsonify, redirect, render_template, request, send_file,
                   url_for)

from duplicate import french, operations
from duplicate.db import get_session
from duplicate.web.lookups import tournament_or_404
from duplicate.web.auth import arbiter_required, check_tournament, tournament_for_arbiter
from duplicate.web.blueprints import printing as bp
from duplicate.web.freeplay.guard import free_play_variant


#: Kinds rendered in a child process (they grow with the number of tables).
BATCH_KINDS = frozenset({"diagrams", "route-sheets", "movement-cards", "hand-records"})
_JOB_NAME = re.compile(r"^[a-z-]+-[A-Za-z0-9_-]{16,}$")


@bp.before_request
@arbiter_required
def require_arbiter():
    """Every page of this blueprint is for arbiters only."""


bp.before_request(check_tournament(tournament_for_arbiter))  # the tournament's arbiters only



def _jobs_folder() -> str:
    folder = os.path.join(current_app.instance_path, "print-jobs")
    os.makedirs(folder, exist_ok=True)
    return folder


def _options(kind: str, tokens: dict[str, str], tournament=None) -> dict:
    """Options from the form; QR links (to the private route-sheet pages) for route sheets, and to each
    table's phone page (SPEC §12) for the guide cards."""
    from duplicate import operations, printing
    from duplicate.web.links import public_url

    options = {}
    if kind == "guide-cards" and tournament is not None:
        options["table_urls"] = {link["table"]: public_url(link["path"])
                                 for link in operations.table_links(get_session(), tournament)}
    if kind == "movement-cards" and tournament is not None:  # each entrant's confirmation code (SPEC §12)
        options["codes"] = {item["id"]: item["code"] for item in operations.table_codes(get_session(), tournament)}
    if kind == "travellers":
        options["scored"] = request.form.get("scored") == "1"
    if kind == "labels":
        options["columns"] = _bounded_int("columns", 3, 1, 10)
        options["rows"] = _bounded_int("rows", 8, 1, 20)
        options["single"] = request.form.get("single") == "1"
    if kind == "route-sheets":
        from duplicate.serving import public_base_url

        options["route_urls"] = printing.route_urls_from_tokens(public_base_url(), tokens, path="/feuille/{token}")
    return options


def _bounded_int(name: str, default: int, low: int, high: int) -> int:
    """A whole number typed the French way (`duplicate.french`), brought within ``low``–``high``; the
    default when unreadable (a layout option: the sheet still prints)."""
    try:
        return min(high, max(low, french.parse_whole_number(request.form.get(name, str(default)))))
    except french.NumberError:
        return default


def _free_index(tournament):
    """The free-play documents (SPEC §13), rendered at once: no batch job."""
    from duplicate import printing
    from duplicate.operations import freeplay

    return render_template("arbiter/printing.html", tournament=tournament, kinds=printing.FREE_KINDS,
                           titles=printing.TITLES, batch_kinds=frozenset(), free=True,
                           pcn_levels=freeplay.PCN_LEVELS)


@bp.route("/")
@free_play_variant(_free_index)
def index(tournament_id: int):
    """The list of printable documents with their options."""
    from duplicate import printing

    tournament = tournament_or_404(tournament_id)
    return render_template("arbiter/printing.html", tournament=tournament, kinds=printing.KINDS,
                           titles=printing.TITLES, batch_kinds=BATCH_KINDS, free=False)


def _free_pdf(tournament, kind: str):
    """A free-play kind, rendered now (a few dozen pages at most), 404 for another; a bad PCN choice goes
    back to the page with its French message."""
    from duplicate import printing
    from duplicate.operations import freeplay

    if kind not in printing.FREE_KINDS:
        abort(404)
    session = get_session()
    export, ranking, options = freeplay.free_export(session, tournament), None, {}
    if kind == "free-ranking":
        ranking = freeplay.free_ranking(session, tournament)
    elif kind == "free-cards":  # each player's code for confirming a feuille at the table
        options = {"codes": {item["id"]: item["code"]
                             for item in operations.freeplay_table.player_codes(session, tournament)}}
    elif kind == "free-pcn":
        championship = request.form.get("championship", "")
        tables = None
        if request.form.get("tables", "").strip():
            try:
                tables = french.parse_whole_number(request.form["tables"])
            except french.NumberError:
                tables = 0  # refused below, in French
        try:
            _, ranking = freeplay.free_pcn(session, tournament, championship=championship, tables=tables)
        except operations.OperationError as error:
            flash(error.message, "error")
            return redirect(url_for("printing.index", tournament_id=tournament.id))
        options = {"championship": championship or None, "tables": tables}
    pdf = printing.render_kind(kind, export, ranking, **options)
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{printing.file_name(tournament.id, kind)}"'})


@bp.route("/tout", methods=["POST"])
def pack(tournament_id: int):
    """« Tout imprimer »: the whole evening in one PDF (or, with ``table``, that table's envelope),
    rendered by a background thread (`duplicate.printing.pack`); go to its progress page."""
    from duplicate.printing import pack as packs
    from duplicate.printing.commands import tournament_data

    tournament = tournament_or_404(tournament_id)
    export, ranking, tokens = tournament_data(get_session(), tournament.id)
    table = None
    if request.form.get("table", "").strip():
        table = _bounded_int("table", 0, 0, 10_000)
        if table not in packs.tables_of(export):
            flash(f"La table « {request.form.get('table')} » n’existe pas dans le mouvement.", "error")
            return redirect(url_for("printing.index", tournament_id=tournament.id))
    options = _options("route-sheets", tokens, tournament)
    options.update(_options("guide-cards", tokens, tournament))
    options.update(_options("movement-cards", tokens, tournament))
    job = f"pack-{secrets.token_urlsafe(16)}"
    packs.start_thread(os.path.join(_jobs_folder(), job + ".pdf"), export, ranking, table=table, **options)
    return redirect(url_for("printing.job", tournament_id=tournament.id, job=job))


@bp.route("/<kind>", methods=["POST"])
@free_play_variant(_free_pdf)
def make(tournament_id: int, kind: str):
    """Render a document now, or start a batch job and go to its progress page."""
    from duplicate import printing
    from duplicate.printing.commands import tournament_data

    tournament = tournament_or_404(tournament_id)
    if kind not in printing.KINDS:
        abort(404)
    export, ranking, tokens = tournament_data(get_session(), tournament.id)
    options = _options(kind, tokens, tournament)
    name = printing.file_name(tournament.id, kind)
    if kind not in BATCH_KINDS:
        pdf = printing.render_kind(kind, export, ranking, **options)
        return Response(pdf, mimetype="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
    job = f"{kind}-{secrets.token_urlsafe(16)}"
    printing.start_job(kind, export, ranking, os.path.join(_jobs_folder(), job + ".pdf"), **options)
    return redirect(url_for("printing.job", tournament_id=tournament.id, job=job))


def _job_path(job: str) -> str:
    if not _JOB_NAME.match(job):
        abort(404)
    return os.path.join(_jobs_folder(), job + ".pdf")


@bp.route("/travail/<job>")
def job(tournament_id: int, job: str):
    """Progress of a batch job; reloads itself until the PDF is ready."""
    from duplicate import printing

    tournament = tournament_or_404(tournament_id)
    status = printing.job_status(_job_path(job))
    if status["state"] == "unknown":
        abort(404)
    multiprocessing.active_children()  # reap finished render processes
    return render_template("arbiter/print_job.html", tournament=tournament, job=job, status=status,
                           title=_job_title(job, status))


def _job_title(job: str, status: dict) -> str:
    from duplicate import printing

    if printing.kind_of_job(job) == "pack" and status.get("table"):
        return f"Enveloppe de la table {status['table']}"
    return printing.TITLES.get(printing.kind_of_job(job), "Impression")


@bp.route("/travail/<job>/etat")
def job_state(tournament_id: int, job: str):
    """The progress of a job as JSON, polled by ``static/js/print-job.js``:
    ``{"state", "done", "total", "percent", "message", "file"}``."""
    from duplicate import printing

    tournament = tournament_or_404(tournament_id)
    status = printing.job_status(_job_path(job))
    if status["state"] == "unknown":
        abort(404)
    total, done = status.get("total") or 0, status.get("done") or 0
    return jsonify(state=status["state"], done=done, total=total, message=status.get("message", ""),
                   percent=100 if status["state"] == "done" else (round(100 * done / total) if total else 0),
                   file=url_for("printing.job_file", tournament_id=tournament.id, job=job)
                   if status["state"] == "done" else None)


@bp.route("/travail/<job>/fichier")
def job_file(tournament_id: int, job: str):
    """The finished PDF of a batch job."""
    from duplicate import printing

    tournament = tournament_or_404(tournament_id)
    path = _job_path(job)
    if printing.job_status(path)["state"] != "done":
        abort(404)
    status = printing.job_status(path)
    what = printing.kind_of_job(job) or "impression"
    name = printing.file_name(tournament.id, f"enveloppe-table-{status['table']}" if what == "pack" and
                              status.get("table") else what)
    return send_file(path, mimetype="application/pdf", as_attachment=True, download_name=name)
