"""Read-only JSON API, open to everyone: ``GET /api/tournaments/<id>/ranking`` (SPEC §9 ranking output)."""

from flask import Blueprint, abort, jsonify

from duplicate import operations
from duplicate.db import get_session

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/tournaments/<int:tournament_id>/ranking")
def ranking(tournament_id: int):
    """The tournament's topage and rankings, as `operations.ranking` computes them; 404 if unknown."""
    session = get_session()
    try:
        tournament = operations.get_tournament(session, tournament_id)
    except operations.NotFound:
        abort(404)
    return jsonify(operations.ranking(session, tournament))
