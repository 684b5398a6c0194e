"""Public pages, open to everyone: the home page, each tournament's results — rankings, topage per étui,
the team-match scoreboard — from the stored raw results (`operations.ranking`), rendered once per version
of the tournament's data and kept (`shared_view`), so they follow the scoring live (with the count of
fiches still incomplete), and competitions of several séances.

Secrecy (SPEC §11): until the arbiter publishes the séance (`operations.publish`), these pages — and the
route-sheet links, HTML and PDF — show the progress only (which lines of which fiches are in, no score,
note, flag, penalty or ranking) to anyone but a signed-in arbiter (`results_visible`).

The feuille de route of a participant is private: it is reached only through its unguessable link
``/feuille/<token>`` (``/feuille-de-route/<token>`` too, the address printed under the QR codes), with
the QR code of that link at ``/feuille/<token>/qr.svg``.
"""

from flask import Response, abort, current_app, g, jsonify, render_template, request, url_for
from flask.globals import request_ctx
from markupsafe import Markup

from duplicate import operations
from duplicate.core.ranking import shared_places
from duplicate.db import get_session
from duplicate.serving import public_url_for
from duplicate.view_models import frequencies_view, rankings_view, route_sheets_view
from duplicate.view_models.export import Tournament
from duplicate.view_models.formatting import pm_text
from duplicate.web.blueprints import public as bp
from duplicate.web.lookups import entrant_names, tournament_or_404
from duplicate.web.auth import current_user
from duplicate.web.public.route_sheet_pdfs import PREPARING_REFRESH, Sheet, route_sheet_pdfs
from duplicate.web.versioned import tagged, unchanged
from duplicate.web.freeplay.guard import free_play_variant


@bp.route("/")
def home():
    """Home page: what the software does and the tournaments in the database, most recent first."""
    session = get_session()
    return render_template("public/home.html", tournaments=operations.list_tournaments(session),
                           series=operations.list_series(session))




def results_visible(tournament) -> bool:
    """Whether this request may see the séance's scores, notes and rankings: once published, or always
    for a signed-in arbiter of this tournament (SPEC §11; `operations.can_manage`)."""
    if operations.is_published(tournament):
        return True
    return operations.can_manage(get_session(), current_user(), tournament)


def results_context(session, tournament, secret: bool) -> dict:
    """Everything the results page shows: the rankings' view-model (`view_models.rankings_view`, the one the
    printed ranking lays out too) of `operations.ranking`; before publication, to anyone but the arbiter,
    the progress only (``secret``)."""
    progress = operations.progress(session, tournament)
    if secret:
        return {"tournament": tournament, "secret": True, "progress": progress}
    penalties = [{"entrant": p.entrant_id, "points": p.points, "board": p.board, "reason": p.reason}
                 for p in operations.penalties(session, tournament)]
    view = rankings_view(tournament.format, operations.ranking(session, tournament),
                         clubs=operations.entrant_clubs(session, tournament), penalties=penalties)
    return {"tournament": tournament, "view": view, "progress": progress,
            "adjustments": operations.adjusted_lines(session, tournament), "secret": False,
            "published": operations.is_published(tournament)}


def free_results(tournament):
    """A free-play tournament's ranking by total points (SPEC §13), once published (the arbiter always);
    before that, how many feuilles are entered."""
    from duplicate.operations import freeplay

    session = get_session()
    secret = not results_visible(tournament)
    output = None if secret else freeplay.free_ranking(session, tournament)
    extras = operations.freeplay_extras
    teams = extras.team_names(session, tournament) if tournament.format.has_teams and not secret else None
    prizes = None if secret else extras.free_prizes(session, tournament, output)
    return render_template("public/free_results.html", tournament=tournament, secret=secret, output=output,
                           names=freeplay.player_names(session, tournament), progress=freeplay.progress(session, tournament),
                           published=operations.is_published(tournament), teams=teams, prizes=prizes)


@bp.route("/tournois/<int:tournament_id>/")
@free_play_variant(free_results)
def results(tournament_id: int):
    """The tournament's rankings (general and alternated, or PM; the team-match scoreboard), live."""
    tournament = tournament_or_404(tournament_id)
    return render_template("public/results.html", tournament=tournament,
                           content=results_content(tournament, secret=not results_visible(tournament)))


@bp.route("/tournois/<int:tournament_id>/version.json")
def results_version(tournament_id: int):
    """``{"version": n}``, the version of the tournament's data (`operations.data_version`: it says only that
    something was written, which the progress shows anyway) — ``304`` while the page's script holds it
    (`web.versioned`): the results page follows the scoring without computing anything while nothing
    changes (issue 30, ``static/js/follow.js``). The ETag carries the tournament's creation time and data epoch
    too: after a restore (which rewrites the epoch and raises the version, `duplicate.backup`) no script is
    told « nothing new » about the data it replaced."""
    tournament = tournament_or_404(tournament_id)
    version = f"{tournament.created_at:%Y%m%d%H%M%S%f}-{tournament.data_epoch}-{tournament.data_version}"
    return unchanged(version) or tagged(jsonify(version=tournament.data_version), version)


def shared_view(tournament, name: tuple, compute, *, staff: bool | None = None):
    """The view ``name`` — ``(what, …, secret, published)``: what is shown and to whom — of the tournament,
    ``compute(session, tournament)``, kept until the next write (`operations.cached_view`): who may see the
    scores is decided per request, never kept; the audience is part of the key, and so is the publication,
    so that no view of an unpublished séance is ever served as the published one. To the public (nobody
    signed in, no token: ``staff`` False) the latest kept view is served while the process's worker computes
    the new one — at most once a second, and after a commit only for a view the public read lately (issue 30);
    ``PUBLIC_RESULTS_MAX_STALE`` bounds how long the worker may be waited for; staff always get the view of
    the data they read."""
    if staff is None:
        staff = current_user() is not None
    published = name[-1]

    def checked(session, fresh):
        if operations.is_published(fresh) != published:
            raise operations.AudienceChanged  # published or withdrawn meanwhile: not this view any more
        return compute(session, fresh)
    return operations.cached_view(get_session(), tournament, name, checked,
                                  max_stale=0 if staff else current_app.config["PUBLIC_RESULTS_MAX_STALE"],
                                  elsewhere=_elsewhere)


def _elsewhere():
    """``run(task, batch)``: ``task(session)`` run in the caller's thread (the views' worker) with a copy of this
    request's context and the batch's session of this application (created by the first task of the batch,
    closed by the worker after the last: the views of one batch share it, and what it keeps)."""
    context = request_ctx.copy()

    def run(task, batch: dict):
        sessions = batch.setdefault("sessions", {})
        with context.copy():
            app = current_app._get_current_object()
            if app in sessions:
                g.db_session = sessions[app]
            try:
                return task(get_session())
            except Exception:
                get_session().rollback()  # the next views of the batch start from a usable session
                raise
            finally:
                sessions[app] = g.pop("db_session", None) or sessions.get(app)  # not closed by the teardown
    return run


def results_content(tournament, secret: bool) -> Markup:
    """The results page's content for one audience (``secret``: the progress only), `shared_view`."""
    def compute(session, fresh):
        version = operations.data_version(session, fresh)
        return render_template("public/_results_content.html", version=version[1] if version else "",
                               **results_context(session, fresh, secret))
    return Markup(shared_view(tournament, ("results", secret, operations.is_published(tournament)), compute))


@bp.route("/tournois/<int:tournament_id>/etuis/<int:number>")
def board(tournament_id: int, number: int):
    """The topage of one étui: its fiche with the notes (or PM), the arbiter's flags, the frequencies;
    before publication (to anyone but the arbiter) its lines and which are entered, nothing more. Rendered
    once per version of the tournament's data and audience, like the results page (`shared_view`)."""
    tournament = tournament_or_404(tournament_id)
    secret = not results_visible(tournament)
    content = shared_view(tournament, ("board", number, secret, operations.is_published(tournament)),
                          lambda session, fresh: board_content(session, fresh, number, secret))
    if content is None:
        abort(404)
    return render_template("public/board.html", tournament=tournament, number=number, content=Markup(content))


def board_content(session, tournament, number: int, secret: bool) -> str | None:
    """The étui page's content for one audience, or None when the étui has no fiche. Each line names its
    attacker as the route sheet does (`view_models.export.Tournament.board_attackers`: his badge in
    triplettes, his name and room in a team match — not a score, shown before publication too)."""
    lines = operations.traveller(session, tournament, number)
    if not lines:
        return None
    numbers = operations.board_numbers(session, tournament)
    # the file the route sheets read (without its scores before publication), made once per data version
    export, output = operations.route_sheet_data(session, tournament, secret=secret)
    attackers = Tournament(export).board_attackers(number)
    if secret:
        return render_template("public/_board_content.html", tournament=tournament, number=number, lines=lines,
                               names=entrant_names(session, tournament), numbers=numbers, secret=True,
                               attackers=attackers)
    notes = next((b["results"] for b in output["boards"] if b["number"] == number), [])
    # the PM each side scores, as the feuille de marque and the totals count them (`pm_text`: never negative
    # in a team match; issue 29 point 5)
    by_table = {line["table"]: dict(line, pm_text=pm_text(tournament.format, line.get("pm"))) for line in notes}
    corrected = operations.corrected_ids(session, tournament)
    # the frequencies as the printed report gives them (`view_models.frequencies_view`)
    frequencies = frequencies_view(export, output, boards=[number])
    return render_template(
        "public/_board_content.html", tournament=tournament, number=number, lines=lines, notes=by_table,
        secret=False, corrected=corrected, names=entrant_names(session, tournament), numbers=numbers,
        frequencies=frequencies["items"][0]["lines"], pm=frequencies["pm"], attackers=attackers,
    )


# --- route sheets (private links) ------------------------------------------------------------------------

def _by_token(token: str):
    try:
        return operations.find_by_token(get_session(), token)
    except operations.NotFound:
        abort(404)


@bp.route("/feuille/<token>")
@bp.route("/feuille-de-route/<token>")
def route_sheet(token: str):
    """A participant's feuille de route récapitulative, reached by its private link only; before
    publication, the étuis played and entered so far, without scores. With his personal confirmation code
    (SPEC §12, `operations.player_code`), shown to the holder of the link only."""
    tournament, entrant_id, holder = _by_token(token)
    session = get_session()
    secret = not results_visible(tournament)
    # the rows, places and percentages the printed feuille de route gives (`view_models.route_sheets_view`)
    view = route_sheets_view(*operations.route_sheet_data(session, tournament, secret=secret), entrants=[entrant_id])
    sheet = view["items"][0]
    response = Response(render_template(
        "public/route_sheet.html", tournament=tournament, sheet=sheet, pm=view["pm"], columns=view["columns"],
        holder=holder, secret=secret,
        names=entrant_names(session, tournament), token=token, url=public_url_for("web.route_sheet", token=token),
        code=operations.player_code(tournament, entrant_id),  # his confirmation code: this private link's holder only
    ))
    response.headers["Referrer-Policy"] = "no-referrer"  # the token never leaves in a Referer header
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _pdf_sheet(tournament, entrant_id: str, token: str):
    """The PDF route sheet this request asks for (`route_sheet_pdfs.Sheet`)."""
    return Sheet(tournament.id, entrant_id, public_url_for("web.route_sheet", token=token),
                 arbiter=operations.can_manage(get_session(), current_user(), tournament))  # its arbiters


@bp.route("/feuille/<token>/feuille-de-route.pdf")
def route_sheet_pdf(token: str):
    """The same feuille de route as a PDF (the printed route sheet, with its QR code); before publication,
    the étuis entered so far without scores, notes or totals. Rendered off the request path
    (`route_sheet_pdfs`): until it is ready, a page « en préparation » that reloads itself."""
    from duplicate import french, printing

    tournament, entrant_id, _holder = _by_token(token)
    session = get_session()
    version = operations.data_version(session, tournament)
    published = operations.is_published(tournament)
    sheet = _pdf_sheet(tournament, entrant_id, token)
    since = request.args.get("depuis", type=int)
    pdfs = route_sheet_pdfs()
    pdf = pdfs.read(sheet, version, published, since)
    if pdf is None:
        queued = pdfs.submit(sheet)
        if queued and current_app.config["ROUTE_SHEET_PDF_WAIT"]:
            pdfs.wait(sheet, current_app.config["ROUTE_SHEET_PDF_WAIT"])
            pdf = pdfs.read(sheet, operations.data_version(session, tournament), published, version[1])
    if pdf is None:
        refresh = PREPARING_REFRESH if queued else 5 * PREPARING_REFRESH
        again = url_for("web.route_sheet_pdf", token=token, depuis=since if since is not None else version[1])
        response = Response(render_template("public/route_sheet_preparing.html", tournament=tournament,
                                            token=token, queued=queued, refresh=refresh, again=again), status=202)
        response.headers["Retry-After"] = str(refresh)
    else:
        response = Response(pdf, mimetype="application/pdf", headers={
            "Content-Disposition": "attachment; filename="
            f'"{printing.file_name(tournament.id, "feuille-de-route-" + french.place_label(entrant_id))}"'})
    response.headers.update({"Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex",
                             "Cache-Control": "private, no-store"})
    return response


@bp.route("/feuille/<token>/qr.svg")
def route_sheet_qr(token: str):
    """The QR code of a route sheet's private link (SVG, segno)."""
    from duplicate.printing.common import qr_svg

    _by_token(token)
    url = public_url_for("web.route_sheet", token=token)
    svg = qr_svg(url, scale=4).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)  # an image file needs its namespace
    return Response(svg, mimetype="image/svg+xml", headers={"Referrer-Policy": "no-referrer",
                                                             "Cache-Control": "private, max-age=3600"})


# --- competitions of several séances -----------------------------------------------------------------------

@bp.route("/competitions/<int:series_id>")
def series(series_id: int):
    """A competition's ranking: each séance's result, its coefficient, the totals."""
    session = get_session()
    try:
        found = operations.get_series(session, series_id)
    except operations.NotFound:
        abort(404)
    séances = operations.series_sessions(session, found)
    visible = {t.id for t in séances if results_visible(t)}
    ranking = operations.series_ranking(session, found, published_only=len(visible) < len(séances))
    return render_template("public/series.html", series=found, ranking=ranking, visible=visible,
                           ties=shared_places(ranking["rows"], "rank"))
