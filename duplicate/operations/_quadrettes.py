"""The attacker of each quadrette, line by line (issue 15, point 2).

Seed (``duplicate-tournaments.txt``, « Tournoi en quadrettes »): « Le capitaine de la quadrette choisit au
sein de son équipe un joueur qui attaquera durant tout le tournoi », and between séances « les changements
(attaquant et défenseurs) sont autorisés au sein de la même quadrette ». The fiche ambulante records who
attacked on each line (``Result.attacker``, the player id of the file, checked by the core to be a member
of the attacking quadrette); the entry screen proposes, for a line not yet entered, the attacker the
quadrette had on its latest line entered (the seed's « durant tout le tournoi »), and the scorer changes it
when the arbiter allowed a change.
"""

from __future__ import annotations

from sqlmodel import Session, select

from duplicate.models import Player, Result, Team, TeamMember, Tournament, TournamentKind

from ._common import _kind

__all__ = ["quadrette_attackers"]


def quadrette_attackers(session: Session, tournament: Tournament) -> dict[str, dict]:
    """Quadrette entrant id → ``{"members": [(player id, name)], "usual": player id or None, "names": {id:
    name}}`` (``usual``: the attacker of its latest line entered, by position). Empty for another kind."""
    if _kind(tournament) is not TournamentKind.quadrettes:
        return {}
    teams: dict[str, dict] = {}
    rows = session.exec(select(Team.entrant_id, Player).join(TeamMember, TeamMember.team_id == Team.id)
                        .join(Player, Player.id == TeamMember.player_id)
                        .where(Team.tournament_id == tournament.id, Team.entrant_id.is_not(None))
                        .order_by(Team.id, TeamMember.order, TeamMember.id))
    for team, player in rows:
        ident = player.entrant_id or f"joueur-{player.id}"
        entry = teams.setdefault(team, {"members": [], "usual": None, "names": {}})
        entry["members"].append((ident, player.name))
        entry["names"][ident] = player.name
    latest = session.exec(select(Result.taker_team, Result.attacker)
                          .where(Result.tournament_id == tournament.id, Result.attacker.is_not(None))
                          .order_by(Result.position.nulls_first(), Result.id))
    for team, attacker in latest:
        if team in teams:
            teams[team]["usual"] = attacker
    return teams
