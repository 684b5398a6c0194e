"""Publishing: the route sheets reached by private token, and competitions of several séances.

**Route sheet** (feuille de route récapitulative, SPEC §8): every étui the entrant played — position,
table, role (preneur, or the defensive place: devant, milieu, fond), score, note (PM for quadrettes and
team matches), the arbiter's flags — then attack, defence and global % (or the PM total), places and
penalties. It is read from the ranking output of the core (`ranking`), never computed apart. A player
of a triplette, quadrette or team reaches the team's sheet with the player's own token.

**Competitions** (`Series`): the simplest model an FFT arbiter expects — a competition groups several
tournaments, each one séance with its coefficient (default 1). An entrant's total is Σ séance result ×
coefficient (`core.ranking.session_totals`): global % in the individual and triplettes, PM in quadrettes
and team matches; the general ranking of the totals (`core.ranking.general_ranks`) is the reference
(SPEC §5). Séances are matched by the player's licence (by name when there is none) and by team name;
the séances of one competition must be of one kind. A competition has an owner and co-arbiters, as a
tournament has (`_access.can_manage_series`): only they add a séance (of a tournament they manage too), set
a coefficient or take a séance out, so its public ranking shows only what its managers put there.

**Publication** (SPEC §11): until the arbiter publishes a séance (`publish`), nobody but the arbiter sees
its scores, notes or rankings — public pages, route-sheet links (HTML and PDF) and the API show the
progress only. Our choice where the rules are silent: a competition's public ranking counts only its
published séances; penalties and the arbiter's flags (annulled, adjusted, arbitral note) are results too
and stay hidden with the scores.
"""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from fractions import Fraction

from sqlmodel import Session, select

from duplicate.core.ranking import general_ranks, session_totals, standings
from duplicate.core.topage import topage
from duplicate.core.tournament import credited_results, out_of_ranking
from duplicate.models import Player, Series, Team, TeamMember, Tournament, User

from ._changes import cached_view
from ._common import (  # noqa: F401 (get_series: operations.get_series, with the competitions here)
    NotFound, OperationError, Refused, _clean, _format, _kind, get_series, lock_row, players, series_sessions, teams,
)
from ._journal import journal
from ._scoring import corrected_ids, progress
from ._tournaments import ranking, to_core


def find_by_token(session: Session, token: str) -> tuple[Tournament, str, Player | Team]:
    """(tournament, entrant id, the player or team) of a private route-sheet token; NotFound otherwise."""
    if not token or len(token) > 64 or "\x00" in token:  # PostgreSQL refuses NUL in text
        raise NotFound("Lien inconnu.")
    holder: Player | Team | None = session.exec(select(Player).where(Player.token == token)).first()
    if holder is None:
        holder = session.exec(select(Team).where(Team.token == token)).first()
    if holder is None:
        raise NotFound("Lien inconnu.")
    tournament = session.get(Tournament, holder.tournament_id)
    entrant_id = holder.entrant_id
    if isinstance(holder, Player) and _format(tournament).has_teams:
        team = session.exec(select(Team).join(TeamMember, TeamMember.team_id == Team.id)
                            .where(TeamMember.player_id == holder.id)).first()
        entrant_id = team.entrant_id if team is not None else None
    if entrant_id is None:
        raise NotFound("Ce participant n’est pas encore placé : sa feuille de route n’existe pas encore.")
    return tournament, entrant_id, holder


def private_links(session: Session, tournament: Tournament) -> list[dict]:
    """Each placed entrant's private token (for the arbiter to hand out): ``{id, name, token, members}``;
    in a team tournament each member's own token too."""
    rows = []
    if not _format(tournament).has_teams:
        for player in players(session, tournament):
            if player.entrant_id:
                rows.append({"id": player.entrant_id, "name": player.name, "token": player.token, "members": []})
    else:
        for team in teams(session, tournament):
            if team.entrant_id:
                members = session.exec(select(Player).join(TeamMember, TeamMember.player_id == Player.id)
                                       .where(TeamMember.team_id == team.id).order_by(TeamMember.order)).all()
                rows.append({"id": team.entrant_id, "name": team.name, "token": team.token,
                             "members": [{"name": p.name, "token": p.token} for p in members]})
    return sorted(rows, key=lambda row: (len(row["id"]), row["id"]))


def marked_export(session: Session, tournament: Tournament) -> dict:
    """The SPEC §9 file of the tournament as the route sheets and every printout read it: the results
    whose done score was changed marked ``"corrected": true`` (`corrected_ids`: the rules require a
    correction to be visible; a table's entry, its corrections before confirmation and the confirmation
    are none), and each triplette's start of its attack rotation (``first_colour``, ``attacked_before``:
    `rotation_starts`, run on from a competition's earlier séances)."""
    from duplicate.interchange import export_tournament
    from duplicate.models import Result

    from ._triplettes import rotation_starts

    export = export_tournament(session, tournament)
    ids = corrected_ids(session, tournament)  # the one decision of « corrigé », as on the screens
    corrected = set(session.execute(select(Result.board, Result.table, Result.room).where(
        Result.tournament_id == tournament.id, Result.id.in_(ids))).all()) if ids else set()
    for result in export.get("results", []):
        if (result.get("board"), result.get("table"), result.get("room")) in corrected:
            result["corrected"] = True
        else:
            result.pop("corrected", None)
    starts = rotation_starts(session, tournament)
    for team in export.get("teams", []):
        if team.get("id") in starts:
            first, before = starts[team["id"]]
            team.update({"first_colour": first} if first else {}, **({"attacked_before": before} if before else {}))
    return export


def route_sheet_data(session: Session, tournament: Tournament, *, secret: bool = False) -> tuple[dict, dict]:
    """(file, ranking output) the feuilles de route are built from (`view_models.route_sheets_view`), on the
    private page as on paper. ``secret`` (before publication, to anyone but the arbiter): the file without
    its secret fields (`without_scores`) and an empty ranking — the étuis entered so far, with no score,
    note, mark, standing or penalty. The file is made once per version of the tournament's data
    (`cached_view`: 600 players opening their sheet do not export the tournament 600 times); callers read it
    and never modify it."""
    export = cached_view(session, tournament, "marked-export", marked_export)
    if secret:
        return without_scores(export), {"boards": [], "ranking": []}
    return export, ranking(session, tournament)


# --- competitions of several séances ------------------------------------------------------------------------

def create_series(session: Session, name: str, by: User | None = None) -> Series:
    """A new competition, `by`'s (None: shared by every arbiter)."""
    name = _clean(name)
    if not name or len(name) > 200:
        raise OperationError("Le nom de la compétition est obligatoire (200 caractères au plus).", "name")
    series = Series(name=name, owner_id=by.id if by is not None else None)
    session.add(series)
    session.flush()
    return series


def list_series(session: Session) -> list[Series]:
    return list(session.exec(select(Series).order_by(Series.id.desc())))


def set_series(session: Session, tournament: Tournament, series: Series | None, coefficient: float = 1.0,
               by: User | None = None) -> None:
    """Make ``tournament`` a séance of ``series`` (None: of no competition) with its coefficient. With `by`
    (the screens), refused (`Refused`) unless `by` manages the competition it leaves (if it leaves one, or
    its coefficient changes) and the one it joins, and the tournament itself to join one."""
    if (not isinstance(coefficient, (int, float)) or isinstance(coefficient, bool)
            or not 0 < coefficient <= 100):
        raise OperationError("Le coefficient est un nombre positif (100 au plus).", "coefficient")
    if by is not None:
        _check_series_change(session, tournament, series, float(coefficient), by)
    lock_row(session, tournament)
    if series is not None:
        kinds = {_kind(t) for t in series_sessions(session, series) if t.id != tournament.id}
        if kinds and kinds != {_kind(tournament)}:
            raise OperationError("Les séances d’une compétition sont toutes de la même formule.", "series_id")
    tournament.series_id = series.id if series is not None else None
    tournament.coefficient = float(coefficient)
    session.flush()


def _check_series_change(session: Session, tournament: Tournament, series: Series | None, coefficient: float,
                         by: User) -> None:
    from ._access import can_manage, can_manage_series

    current = session.get(Series, tournament.series_id) if tournament.series_id is not None else None
    joins = series is not None and (current is None or current.id != series.id)
    leaves = current is not None and (series is None or current.id != series.id)
    if current is not None and (leaves or coefficient != tournament.coefficient) \
            and not can_manage_series(session, by, current):
        raise Refused(f"La compétition « {current.name} » est confiée à un autre arbitre : seul un arbitre qui la "
                      "gère retire cette séance ou change son coefficient.", "series_id")
    if joins and not can_manage_series(session, by, series):
        raise Refused(f"La compétition « {series.name} » est confiée à un autre arbitre : seul un arbitre qui la "
                      "gère y ajoute une séance.", "series_id")
    if joins and not can_manage(session, by, tournament):
        raise Refused("Ce tournoi est confié à un autre arbitre : seul un arbitre qui le gère en fait une séance "
                      "de compétition.", "series_id")


def remove_from_series(session: Session, series: Series, tournament: Tournament, by: User) -> None:
    """Take a séance out of a competition, from the competition's page: whoever manages the competition
    (its owner always), whether or not he manages the séance's tournament."""
    from ._access import can_manage_series

    if tournament.series_id != series.id:
        raise NotFound("Ce tournoi n’est pas une séance de cette compétition.")
    if not can_manage_series(session, by, series):
        raise Refused(f"La compétition « {series.name} » est confiée à un autre arbitre : seul un arbitre qui la "
                      "gère en retire une séance.")
    tournament.series_id = None
    tournament.coefficient = 1.0
    session.add(tournament)
    session.flush()
    journal(session, tournament, action="series.remove", who=by.username, before={"compétition": series.name},
            summary=f"Séance retirée de la compétition « {series.name} » par {by.username}.")


def _identity(value: str) -> str:
    text = unicodedata.normalize("NFKD", " ".join(value.split())).casefold()
    return "".join(c for c in text if not unicodedata.combining(c))


def _session_results(session: Session, tournament: Tournament) -> dict[str, tuple[Fraction, str]]:
    """Identity → (the séance's result, display name) of every ranked entrant of one séance."""
    fmt = _format(tournament)
    core = to_core(session, tournament)
    if not fmt.uses_pm:
        notes = [note for rows in topage(credited_results(core)).values() for note in rows]
        unranked = out_of_ranking(core)  # « hors classement » players take no part in the competition
        values = {row.entrant: row.global_ for row in standings(
            core.kind, {i: e.line for i, e in core.entrants.items()}, notes, core.penalties)
            if row.entrant not in unranked}
    else:
        values = {row["id"]: Fraction(Decimal(str(row["pm"]))) for row in ranking(session, tournament)["ranking"]}
    found = {}
    if not fmt.has_teams:
        for player in players(session, tournament):
            if player.entrant_id in values:
                key = f"licence:{player.licence}" if player.licence else f"nom:{_identity(player.name)}"
                found[key] = (values[player.entrant_id], player.name)
    else:
        for team in teams(session, tournament):
            if team.entrant_id in values:
                found[f"équipe:{_identity(team.name or team.entrant_id)}"] = (values[team.entrant_id],
                                                                              team.name or team.entrant_id)
    return found


def series_ranking(session: Session, series: Series, published_only: bool = False) -> dict:
    """The competition's ranking: ``sessions`` (the tournaments) and ``rows`` best first, each
    ``{name, values: [per séance or None], total, rank}``; totals are exact Fractions. ``published_only``
    (anyone but the arbiter): an unpublished séance counts for nobody (its values are None)."""
    séances = series_sessions(session, series)
    per_session = [{} if published_only and not is_published(t) else _session_results(session, t) for t in séances]
    totals = session_totals((Fraction(str(t.coefficient)), {k: v for k, (v, _) in results.items()})
                            for t, results in zip(séances, per_session))
    names = {key: name for results in per_session for key, (_, name) in results.items()}
    ranks = general_ranks(totals)
    rows = [{"key": key, "name": names[key], "total": totals[key], "rank": ranks[key],
             "values": [results[key][0] if key in results else None for results in per_session]}
            for key in sorted(totals, key=lambda k: (ranks[k], names[k]))]
    pm = bool(séances) and _format(séances[0]).uses_pm
    return {"sessions": séances, "rows": rows, "pm": pm}


# --- publication (SPEC §11) ----------------------------------------------------------------------------------

#: The result fields nobody but the arbiter sees before publication: the score and everything that
#: reveals it or the arbiter's decisions on it.
SECRET_RESULT_FIELDS = ("score", "chelem", "contract", "annulled", "adjusted", "notes", "reason", "corrected")


def is_published(tournament: Tournament) -> bool:
    """Whether the arbiter has published this séance's results (``settings["published"]``)."""
    return bool((tournament.settings or {}).get("published"))


def publish(session: Session, tournament: Tournament, published: bool, who: str | None) -> None:
    """Publish (or withdraw) the séance's results: until then nobody but the arbiter sees a score, a note
    or a ranking of it (SPEC §11); the public sees which fiches are in. Kept in the tournament's settings
    (a new dict: the JSON column does not track changes made in place); who and when go to the journal."""
    lock_row(session, tournament)  # two arbiters at once: the second applies its change to the first's
    before = is_published(tournament)
    tournament.settings = dict(tournament.settings or {}, published=bool(published))
    session.add(tournament)
    session.flush()
    if before != bool(published):
        journal(session, tournament, action="results.publish" if published else "results.withdraw",
                summary="Résultats publiés." if published else "Publication des résultats retirée.", who=who,
                before={"published": before}, after={"published": bool(published)})


def completeness(session: Session, tournament: Tournament) -> dict:
    """``missing``: the result lines the movement still expects (lines of the fiches with no result; an
    annulled deal counts as entered), from `progress` so that the tables it does not expect (a table
    where nobody plays) are not counted; ``complete``: nothing missing and at least one result. Without a
    movement nothing is expected: missing is 0, complete once there is a result."""
    counts = progress(session, tournament)
    missing = counts["lines"] - counts["entered"]
    return {"complete": missing == 0 and counts["entered"] > 0, "missing": missing}


def without_scores(export: dict) -> dict:
    """A SPEC §9 tournament file with the secret fields of its results (`SECRET_RESULT_FIELDS`) and its
    penalties removed: who played which étui where, and which lines are entered — what the public may see
    before publication (the private route-sheet PDF)."""
    results = [{name: value for name, value in result.items() if name not in SECRET_RESULT_FIELDS}
               for result in export.get("results", [])]
    return dict(export, results=results, penalties=[])
