"""What the views look up the same way: a tournament from its URL id (or a 404 page), an API token from
its id, the names of its entrants — the rows the views read, so that no view imports a model class. Below
the views: it imports none."""


def tournament_or_404(tournament_id: int):
    """The tournament with this id, or a 404 page."""
    from flask import abort

    from duplicate import operations
    from duplicate.db import get_session

    try:
        return operations.get_tournament(get_session(), tournament_id)
    except operations.NotFound:
        abort(404)


def api_token(session, token_id: int):
    """The API token row with this id, or None."""
    from duplicate.models import ApiToken

    return session.get(ApiToken, token_id)


def entrant_names(session, tournament) -> dict[str, str]:
    """Entrant id → display name: players in the individual, teams otherwise."""
    from sqlmodel import select

    from duplicate.models import Player, Team

    if not tournament.format.has_teams:  # light rows: a page may name 1,200 players
        rows = session.exec(select(Player.entrant_id, Player.surname, Player.first_name).where(
            Player.tournament_id == tournament.id, Player.entrant_id.is_not(None)).order_by(Player.id)).all()
        return {ident: " ".join(part for part in (surname, first) if part) for ident, surname, first in rows}
    return dict(session.exec(select(Team.entrant_id, Team.name).where(
        Team.tournament_id == tournament.id, Team.entrant_id.is_not(None)).order_by(Team.id)).all())
