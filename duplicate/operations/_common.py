"""What the use cases share: the errors, the tournament's entrants, the guards."""

from __future__ import annotations

from typing import Mapping

from sqlalchemy import func, inspect
from sqlmodel import Session, select

from duplicate.core.filetext import FileTextError, parse_json
from duplicate.core.formats import Format, format_for
from duplicate.models import WITH_PENDING, Player, Result, Series, Substitution, Team, Tournament, TournamentKind

#: Players per team and the starting places' spelling, by kind: read from the formats (`core.formats`;
#: new code asks ``_format(tournament).team_size`` / ``.entrant_pattern``).
STEP_LABELS = {
    "players": "Inscriptions", "teams": "Équipes", "draw": "Placement", "boards": "Étuis",
    "deals": "Donnes", "movement": "Mouvement",
    "free_movement": "Mouvement et placement", "free_sheets": "Feuilles de marque",
    "attackers": "Attaquants", "first_colour": "Premier attaquant",
    # once all the above are done, the evening's steps (`operations.next_step`)
    "launch": "Lancer la position 1", "results": "Saisir les résultats", "publish": "Publier les résultats",
}
MIN_PASSWORD = 8


class OperationError(Exception):
    """Refused input; ``message`` is French, ``field`` the form field at fault (or None)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class NotFound(OperationError):
    """The tournament, player, result… asked for does not exist (in this tournament)."""


class Refused(OperationError):
    """The signed-in account may not do this: it is another arbiter's (the screens answer 403)."""


class ConflictError(OperationError):
    """Someone else changed the row since the form was built (optimistic locking)."""


class CsvImportError(OperationError):
    """A players list with errors; ``errors`` lists ``(line number, French message)``; nothing was added."""

    def __init__(self, errors: list[tuple[int, str]]):
        lines = "\n".join(f"ligne {line} : {message}" if line else message for line, message in errors)
        count = f"{len(errors)} erreur{'s' if len(errors) > 1 else ''}"
        super().__init__(f"{count} dans le fichier, aucun joueur ajouté :\n{lines}", "file")
        self.errors = errors


def lock_row(session: Session, row) -> None:
    """Read ``row`` again, locked until the transaction ends (``SELECT … FOR UPDATE`` on PostgreSQL), before
    a change computed from its values (issue 31, point 3): a second writer of the same row waits for the
    first to commit, then reads what it saved — no ``StaleDataError`` from the version counter
    (`Tournament.version_id`), no change lost from a JSON column read before the other's commit. On SQLite
    the request's ``BEGIN IMMEDIATE`` already serialises writers: the row is read again only. What the
    session holds unflushed is flushed first (a refresh would drop it)."""
    if not inspect(row).persistent:
        return  # a row not written yet (being created): nobody else can have changed it
    session.flush()
    session.refresh(row, with_for_update=True)


def _kind(tournament: Tournament) -> TournamentKind:
    return TournamentKind(tournament.kind)


def _format(tournament: Tournament) -> Format:
    """The tournament's format (`core.formats`): what its kind decides."""
    return format_for(tournament.kind)


#: The rows of the entrants a format ranks, by its file section (`Format.entrants_key`).
_ENTRANT_MODELS = {"players": Player, "teams": Team}


def entrant_model(tournament: Tournament) -> type[Player] | type[Team]:
    """The rows that hold the tournament's ranked entrants: `Player` or `Team`, as its format says."""
    return _ENTRANT_MODELS[_format(tournament).entrants_key]


def _count(session: Session, model, *where) -> int:
    return session.exec(select(func.count()).select_from(model).where(*where)).one()


def _has_results(session: Session, tournament: Tournament) -> bool:
    """Whether any line is entered, awaiting confirmation included (it names the places and étuis)."""
    query = select(func.count()).select_from(Result).where(Result.tournament_id == tournament.id)
    return session.exec(query.execution_options(**{WITH_PENDING: True})).one() > 0


def _refuse_after_results(session: Session, tournament: Tournament, what: str) -> None:
    if _has_results(session, tournament):
        raise OperationError(f"des résultats sont déjà saisis : on ne peut plus changer {what}")


def _parse_json(data: str | bytes | Mapping, what: str) -> Mapping:
    if isinstance(data, Mapping):
        return data
    try:
        document = parse_json(data.decode("utf-8") if isinstance(data, bytes) else data)  # bounded: `core.filetext`
    except (FileTextError, UnicodeDecodeError) as error:
        raise OperationError(f"{what} : JSON illisible ({error})", "file") from None
    if not isinstance(document, Mapping):
        raise OperationError(f"{what} : un objet JSON {{…}} est attendu", "file")
    return document



def players(session: Session, tournament: Tournament) -> list[Player]:
    """The tournament's players in registration order."""
    return list(session.exec(select(Player).where(Player.tournament_id == tournament.id).order_by(Player.id)))


def teams(session: Session, tournament: Tournament) -> list[Team]:
    return list(session.exec(select(Team).where(Team.tournament_id == tournament.id).order_by(Team.id)))


def entrant_rows(session: Session, tournament: Tournament) -> list[Player] | list[Team]:
    """Every row of the tournament's entrant model (`entrant_model`), placed or not, substitutes included:
    its players or its teams, in registration order."""
    return _ENTRANT_LISTS[_format(tournament).entrants_key](session, tournament)


_ENTRANT_LISTS = {"players": players, "teams": teams}


def _entrants(session: Session, tournament: Tournament) -> list[Player] | list[Team]:
    """Who is drawn, seated and penalised: players (not the substitutes, SPEC §11) or teams."""
    if _format(tournament).has_teams:
        return teams(session, tournament)
    substitutes = set(session.exec(select(Substitution.player_id).where(Substitution.tournament_id == tournament.id)))
    return [player for player in players(session, tournament) if player.id not in substitutes]


def _clean(value) -> str:
    return " ".join(str(value or "").split())


# --- competitions (series of séances) -------------------------------------------------------------------

def get_series(session: Session, series_id: int) -> Series:
    series = session.get(Series, series_id)
    if series is None:
        raise NotFound(f"Compétition n° {series_id} introuvable.")
    return series


def series_sessions(session: Session, series: Series) -> list[Tournament]:
    """The séances of a competition, in playing order (date, then creation)."""
    return list(session.exec(select(Tournament).where(Tournament.series_id == series.id)
                             .order_by(Tournament.date.nulls_last(), Tournament.id)))
