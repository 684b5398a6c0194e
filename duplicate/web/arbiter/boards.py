"""The étuis (on the ``arbiter`` blueprint): dealt from a seed (whose SHA-256 can be published first),
imported from a ``tarot-deals/1`` file, or typed from an étui's diagrams.
"""

import secrets
from types import SimpleNamespace

from flask import abort, render_template, request, url_for

from duplicate import french, operations
from duplicate.core.deals import seed_hash
from duplicate.db import get_session
from duplicate.view_models.movement import board_count
from duplicate.web import form_conflicts, forms
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import submit, uploaded_text


# --- étuis -------------------------------------------------------------------------------------------------

def _render_boards(tournament, generate_form=None, deals_form=None, seed_preview=None):
    """The étuis page; the generation form proposes the movement's number of étuis and says why
    (`view_models.movement.board_count`, issue 29 point 10)."""
    movement = operations.get_movement(get_session(), tournament)
    proposal = board_count(movement.data if movement is not None else None, tournament.format.chooses_quarter_boards)
    if generate_form is None:
        generate_form = forms.BoardsForm(formdata=None, prefix="generate", seed=random_seed(), count=proposal["count"])
    generate_form.count.description = proposal["sentence"]
    return render_template(
        "arbiter/boards.html", tournament=tournament, boards=operations.boards(get_session(), tournament),
        generate_form=generate_form, deals_form=deals_form or forms.UploadForm(formdata=None, prefix="deals"),
        seed_preview=seed_preview,
    )


@bp.route("/tournois/<int:tournament_id>/etuis")
def boards(tournament_id: int):
    """The étuis (number, taker, dealer, deal known or not), and the forms to deal or import them."""
    return _render_boards(tournament_or_404(tournament_id))


@bp.route("/tournois/<int:tournament_id>/etuis/generer", methods=["POST"])
def generate_boards(tournament_id: int):
    """Deal the étuis from a seed; the « empreinte » button only shows the seed's SHA-256, to publish
    it before the tournament. A seed left empty is drawn at random (`random_seed`), as the field's help
    says, and shown afterwards (issue 29 point 4): in the form with its empreinte, or in the message
    and on the étuis page once dealt."""
    tournament = tournament_or_404(tournament_id)
    form = forms.BoardsForm(prefix="generate")
    if "hash" in request.form:
        if not (form.seed.data or "").strip():
            form.seed.data = random_seed()
        seed = form.seed.data
        return _render_boards(tournament, form, seed_preview=(seed, seed_hash(seed)))
    drawn = not (form.seed.data or "").strip()
    seed = random_seed() if drawn else form.seed.data
    return submit(
        form,
        lambda: operations.generate_boards(get_session(), tournament, count=form.count.data, seed=seed),
        lambda created: (french.counted(len(created), "étui généré", "étuis générés")
                         + (f" avec la graine tirée au hasard « {seed} »" if drawn else "") + ".",
                         url_for("arbiter.boards", tournament_id=tournament.id)),
        lambda status: (_render_boards(tournament, form), status),  # a POST: 422
    )


def random_seed() -> str:
    """A seed drawn at random for a seed field left empty (16 hexadecimal digits, `secrets`)."""
    return secrets.token_hex(8)


@bp.route("/tournois/<int:tournament_id>/etuis/importer", methods=["POST"])
def import_deals(tournament_id: int):
    """Étuis from a ``tarot-deals/1`` file (another club's copy of the deals, say)."""
    tournament = tournament_or_404(tournament_id)
    form = forms.UploadForm(prefix="deals")
    text = uploaded_text(form) if form.validate_on_submit() else None
    return submit(
        form,
        lambda: operations.import_deals(get_session(), tournament, text),
        lambda created: (french.counted(len(created), "étui importé", "étuis importés") + ".",
                         url_for("arbiter.boards", tournament_id=tournament.id)),
        lambda status: (_render_boards(tournament, deals_form=form), status),  # a POST: 422
        valid=text is not None,
    )


@bp.route("/tournois/<int:tournament_id>/etuis/<int:number>", methods=["GET", "POST"])
def board_hands(tournament_id: int, number: int):
    """The deal of one étui, typed from its diagrams: 18 cards per seat and the 6 of the chien."""
    tournament = tournament_or_404(tournament_id)
    board = next((b for b in operations.boards(get_session(), tournament) if b.number == number), None)
    if board is None:
        abort(404)
    form = forms.HandsForm(obj=_hands_data(board))
    return submit(
        form,
        lambda: operations.set_board_hands(
            get_session(), tournament, number,
            hands={seat: getattr(form, seat).data for seat in ("N", "S", "E", "W")},
            dog=form.dog.data, dealer=form.dealer.data, taker=form.taker.data,
        ),
        lambda _: (f"Donne de l’étui {number} enregistrée.", url_for("arbiter.boards", tournament_id=tournament.id)),
        lambda status: (render_template("arbiter/board_hands.html", tournament=tournament, board=board, form=form),
                        status),
        valid=form_conflicts.guard(form, board, lambda row: vars(_hands_data(row))),
    )


def _hands_data(board) -> SimpleNamespace:
    """The étui as the hands form shows it: each hand as one line of cards."""
    hands = board.hands or {}
    return SimpleNamespace(
        dealer=board.dealer, taker=board.taker, dog=" ".join(board.dog or []),
        **{seat: " ".join(hands.get(seat, [])) for seat in ("N", "S", "E", "W")},
    )
