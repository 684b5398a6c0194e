"""Triplette duties as the screens and the paper show them (SPEC §5): each member's badge, who of a
triplette attacks each étui, which line duplicates it.

The rules are the core's (`core.triplettes`: `member_badges`, `plan_attacks`, `duplication_duty`); this
module feeds them the stored rows. A séance of a competition (`Series`) runs the rotation on from the
séances played before it (seed: « S'il y a plusieurs séances, elles se font en continu »): a triplette found
in an earlier séance (same team name, as `series_ranking` matches them) keeps the first colour of its first
séance, and its turns count on from the attacks its earlier séances' movements gave it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session, select

from duplicate import french
from duplicate.core.triplettes import COLOURS, Attack, Triplette, attack_turns, member_badges, plan_attacks
from duplicate.models import Player, Team, TeamMember, Tournament, TournamentKind

from ._changes import cached_view
from ._common import OperationError, _kind, get_series, series_sessions
from ._journal import journal
from ._deals import board_takers
from ._layout import movement_rounds

__all__ = ["TriplettePlan", "triplette_plan", "rotation_starts", "first_colours", "draw_colour", "colour_step"]


@dataclass(frozen=True)
class TriplettePlan:
    """``badges``: player id (database) → colour; ``attacks``: (étui, triplette entrant id) → `Attack`
    (its ``player`` a player file id, named in ``names``)."""

    badges: dict[int, str] = field(default_factory=dict)
    attacks: dict[tuple[int, str], Attack] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    def attacker(self, board: int, team: str) -> dict | None:
        """Who attacks étui ``board`` for ``team``: ``{"name", "colour"}``, or None (not planned)."""
        attack = self.attacks.get((board, team))
        if attack is None:
            return None
        return {"name": self.names.get(attack.player or "", ""), "colour": attack.colour}


def _identity(name: str) -> str:
    return " ".join(name.split()).casefold()


def _rows(session: Session, tournament: Tournament):
    """(Team, [(Player), …]) of every placed triplette."""
    teams = session.exec(select(Team).where(Team.tournament_id == tournament.id, Team.entrant_id.is_not(None))).all()
    members: dict[int, list[Player]] = {}
    for team_id, player in session.exec(select(TeamMember.team_id, Player)
                                        .join(Player, Player.id == TeamMember.player_id)
                                        .join(Team, Team.id == TeamMember.team_id)
                                        .where(Team.tournament_id == tournament.id)
                                        .order_by(TeamMember.order, TeamMember.id)):
        members.setdefault(team_id, []).append(player)
    return [(team, members.get(team.id, [])) for team in teams]


def _turns(session: Session, tournament: Tournament, ids) -> dict[str, int]:
    movement = movement_rounds(session, tournament)
    if movement is None:
        return {}
    turns = attack_turns(set(ids), movement.rounds, board_takers(session, tournament, movement))
    return {team: len(attacks) for team, attacks in turns.items()}


def _earlier(session: Session, tournament: Tournament) -> dict[str, tuple[str | None, int]]:
    """Team name identity → (first colour of its first séance, attacks in the séances before this one)."""
    if tournament.series_id is None:
        return {}
    found: dict[str, tuple[str | None, int]] = {}
    for séance in series_sessions(session, get_series(session, tournament.series_id)):
        if séance.id == tournament.id:
            break
        rows = _rows(session, séance)
        turns = _turns(session, séance, [team.entrant_id for team, _ in rows])
        for team, _ in rows:
            key = _identity(team.name or team.entrant_id)
            first, count = found.get(key, (team.first_colour, 0))
            found[key] = (first, count + turns.get(team.entrant_id, 0))
    return found


def rotation_starts(session: Session, tournament: Tournament, rows=None) -> dict[str, tuple[str | None, int]]:
    """Triplette entrant id → (its first colour, its attacks in the séances before this one): its own
    first colour and 0, unless an earlier séance of the competition had it (see the module's note)."""
    if _kind(tournament) is not TournamentKind.triplettes:
        return {}
    earlier = _earlier(session, tournament)
    return {team.entrant_id: earlier.get(_identity(team.name or team.entrant_id), (team.first_colour, 0))
            for team, _ in (rows if rows is not None else _rows(session, tournament))}


def triplette_plan(session: Session, tournament: Tournament) -> TriplettePlan:
    """The tournament's badges and attackers (an empty plan for another kind), computed once per version
    of the tournament's data."""
    if _kind(tournament) is not TournamentKind.triplettes:
        return TriplettePlan()

    def compute(session: Session, tournament: Tournament) -> TriplettePlan:
        rows = _rows(session, tournament)
        starts = rotation_starts(session, tournament, rows)
        badges, names, teams = {}, {}, {}
        for team, players in rows:
            for player in players:
                names[player.entrant_id or f"joueur-{player.id}"] = player.name
            if len(players) == 3:
                colours = member_badges((str(p.id), p.name) for p in players)
                badges.update({int(ident): colour for ident, colour in colours.items()})
            first, before = starts[team.entrant_id]
            teams[team.entrant_id] = Triplette(first, tuple((p.entrant_id or f"joueur-{p.id}", p.name)
                                                            for p in players), before)
        movement = movement_rounds(session, tournament)
        attacks = plan_attacks(teams, movement.rounds, board_takers(session, tournament, movement)) \
            if movement is not None else {}
        return TriplettePlan(badges, attacks, names)
    return cached_view(session, tournament, "triplette-plan", compute)


def first_colours(session: Session, tournament: Tournament) -> set[str]:
    """The first attacking colours of the placed triplettes (one, once drawn; several if the arbiter set
    them team by team)."""
    return {team.first_colour for team, _ in _rows(session, tournament) if team.first_colour}


def colour_step(session: Session, tournament: Tournament) -> tuple[str, bool, str]:
    """The readiness step « Premier attaquant » (`readiness`): done when every placed triplette has the first
    colour its attacks' plan starts from (`rotation_starts`, as `triplette_plan` reads it)."""
    rows = _rows(session, tournament)
    if not rows:
        return "first_colour", False, "couleur du premier attaquant à tirer après le placement"
    colours = [first for first, _ in rotation_starts(session, tournament, rows).values()]
    missing = sum(colour is None for colour in colours)
    if missing:
        return "first_colour", False, (f"couleur du premier attaquant à tirer : {french.counted(missing, 'triplette', 'triplettes')} "
                                       f"sur {len(rows)} sans couleur")
    drawn = sorted(set(colours), key=COLOURS.index)
    if len(drawn) == 1:
        return "first_colour", True, f"badge {drawn[0]} pour chaque triplette"
    return "first_colour", True, f"une couleur pour chaque triplette ({', '.join(drawn)})"


def draw_colour(session: Session, tournament: Tournament, colour: str, who: str | None = None) -> None:
    """The arbiter's draw (seed: « Avant le début du tournoi, l'arbitre tire au sort une couleur qui
    déterminera la couleur du premier attaquant »): ``colour`` becomes every triplette's first colour.
    Journalled; the results do not name the attacker, so it may change after play has begun."""
    if _kind(tournament) is not TournamentKind.triplettes:
        raise OperationError("Seul un tournoi en triplettes a des badges.")
    if colour not in COLOURS:
        raise OperationError(f"Couleur inconnue « {colour} » (Bleu, Blanc ou Rouge).", "colour")
    teams = [team for team, _ in _rows(session, tournament)]
    if not teams:
        raise OperationError("Faites d’abord le placement des triplettes.", "colour")
    before = sorted(first_colours(session, tournament))
    for team in teams:
        team.first_colour = colour
    session.flush()
    journal(session, tournament, action="triplettes.first_colour", who=who,
            summary=f"Couleur du premier attaquant tirée : {colour}.",
            before={"couleur": ", ".join(before) or None}, after={"couleur": colour})
