"""The evening's changes (SPEC §11): a player edited, a fill-in player, a withdrawal, a substitute, a
lateness penalty, a tournament archived or deleted. Each one is journalled (`journal`: who, what, before,
after) in the same transaction as the change; a refused change raises `OperationError` before anything is
written.

The rules and our readings of them are in `duplicate.core.evening` (booklet art. 26 and 27). Choices made
here, where the texts are silent:

* **Editing a player** changes the name, licence and club only — never the entrant id (``N3``: the
  results name it). An edit that changes nothing is not journalled.
* **Fill-in players** (« joueurs de complément ») are registered like the others, in the individual,
  and marked ``out_of_ranking``: they are drawn and play, and are ranked « hors classement ».
* **Late arrival** (issue 11 point 3; individual): before any result of position 2 or later, a newcomer
  takes the next entrant id of ``n + 1`` players (`core.movements.individual_entrant_ids`, e.g. 26 → 27:
  ``E7``) and the movement is generated again for ``n + 1`` players with the same number of positions;
  with a relais he rests at position 1 and plays from position 2. Refused, with nothing written, when the
  new movement has another number of tables or other étuis (choice: a new table would have to play the
  first position late with étuis not prepared — 27 → 28 players; before any result the arbiter can
  register him and draw again), or contradicts an entered result (`_deals.contradicted_results`): the
  arbiter then adds a fill-in player. He is ranked like everyone (over the étuis he played, SPEC §7 relais).
* **Withdrawal** (individual): a placed player, from a position between 1 and the movement's last one;
  it can be cancelled (an explicit act, journalled too).
* **Substitute** (individual): a new player, always « hors classement », whose entrant id is ``X1``,
  ``X2``… (outside the movement's ids) on the seat's line; one substitute per seat. He is not drawn (see
  `_common._entrants`); the arbiter picks who keeps the seat's results from the position on.
* **Lateness** (art. 26): a global penalty of `core.evening.lateness_points` percentage points
  (``points_per_step`` per started 5 minutes, 1 by default) with the reason « Retard de N min (art. 26) ».
* **Archive**: the tournament leaves the default lists (`list_tournaments`) but every page still reads
  it; restoring brings it back. **Delete**: the name must be typed again; everything of the tournament
  goes, its journal included (the journal cannot outlive it).
"""

from __future__ import annotations

from fractions import Fraction

from sqlmodel import Session, select

from duplicate.core.evening import RESULTS_TO, lateness_points
from duplicate import french
from duplicate.models import WITH_PENDING, Player, Result, Substitution, Tournament, utcnow

from ._common import NotFound, OperationError, _clean, _entrants, _format, lock_row, players
from ._deals import _store_movement, contradicted_results, describe_contradicted, get_movement
from ._entrants import _licences, _place, _player_problems, register_player
from ._journal import journal
from ._results import add_penalty

MAX_LATENESS_MINUTES = 120


def _player_snapshot(player: Player) -> dict:
    return {"nom": player.surname, "prénom": player.first_name, "licence": player.licence, "club": player.club}


def get_player(session: Session, tournament: Tournament, player_id: int) -> Player:
    player = session.get(Player, player_id)
    if player is None or player.tournament_id != tournament.id:
        raise NotFound(f"Joueur n° {player_id} introuvable dans ce tournoi.")
    return player


def _individual(tournament: Tournament, what: str, allowed: bool | None = None) -> None:
    """Refuse ``what`` where players do not change one by one (`Format.changes_players_alone`), or where
    ``allowed`` — the format's own answer for it — is false."""
    if not (_format(tournament).changes_players_alone if allowed is None else allowed):
        raise OperationError(f"{what} : en individuel seulement.")


def _who(player: Player) -> str:
    return f"{player.name} ({french.place_label(player.entrant_id)})" if player.entrant_id else player.name


def edit_player(session: Session, tournament: Tournament, player: Player, *, licence, surname, first_name, club,
                who: str | None = None) -> Player:
    """Change a player's name, licence or club, at any time; the entrant id stays."""
    row = {"licence": _clean(licence), "surname": _clean(surname), "first_name": _clean(first_name),
           "club": _clean(club)}
    others = _licences(session, tournament) - ({player.licence} if player.licence else set())
    problems = _player_problems(session, tournament, row, others)
    if problems:
        field, message = problems[0]
        raise OperationError(message, field)
    before = _player_snapshot(player)
    player.licence, player.surname = row["licence"] or None, row["surname"]
    player.first_name, player.club = row["first_name"], row["club"] or None
    after = _player_snapshot(player)
    if after != before:
        changed = [key for key in after if after[key] != before[key]]
        session.flush()
        journal(session, tournament, action="player.edit", who=who, summary=f"Joueur modifié : {_who(player)}",
                before={k: before[k] for k in changed}, after={k: after[k] for k in changed})
    return player


def add_fill_in_player(session: Session, tournament: Tournament, *, licence, surname, first_name, club,
                       who: str | None = None) -> Player:
    """A « joueur de complément »: drawn and seated like the others, ranked « hors classement »."""
    _individual(tournament, "Les joueurs de complément")
    player = register_player(session, tournament, licence=licence, surname=surname, first_name=first_name,
                             club=club)
    player.out_of_ranking = True
    session.flush()
    journal(session, tournament, action="player.fill_in", who=who,
            summary=f"Joueur de complément inscrit (hors classement) : {player.name}",
            after={**_player_snapshot(player), "hors classement": True})
    return player


def add_late_player(session: Session, tournament: Tournament, *, licence, surname, first_name, club,
                    who: str | None = None) -> Player:
    """A late arrival before the first position ends (see the module docstring); nothing is written when
    it is refused."""
    from duplicate.core.movements import MovementError, generate, individual_entrant_ids

    _individual(tournament, "L’arrivée en retard")
    movement = get_movement(session, tournament)
    entrants = _entrants(session, tournament)
    if movement is None or not any(p.entrant_id for p in entrants):
        raise OperationError("Arrivée en retard : faites d’abord le placement et le mouvement "
                             "(avant le placement, inscrivez simplement le joueur).")
    if any((r.position or 0) >= 2 for r in session.exec(select(Result).where(Result.tournament_id == tournament.id)
                                                        .execution_options(**{WITH_PENDING: True}))):
        raise OperationError("Arrivée en retard : des résultats de la position 2 ou suivante sont déjà saisis, "
                             "il est trop tard ; ajoutez plutôt un joueur de complément.")
    count = len(entrants)
    heads = f"{count} → {count + 1} joueurs"
    try:
        entrant_id = individual_entrant_ids(count + 1)[-1]
        data = generate(_format(tournament), None, movement.data.get("positions"), players=count + 1).to_dict()
    except MovementError as error:
        raise OperationError(f"{heads} : {error} ; ajoutez plutôt un joueur de complément.") from None
    if not _format(tournament).entrant_pattern.match(entrant_id) or any(
            p.entrant_id == entrant_id for p in players(session, tournament)):
        raise OperationError(f"{heads} : la place {french.place_label(entrant_id)} n’est pas libre ; "
                             "ajoutez plutôt un joueur de complément.")
    tables = (movement.data.get("tables"), data.get("tables"))
    if tables[0] != tables[1]:
        raise OperationError(f"{heads} : le mouvement passe de {tables[0]} à {tables[1]} tables, la table "
                             f"{tables[1]} aurait dû jouer la 1re position avec des étuis qui ne sont pas préparés ; "
                             "ajoutez plutôt un joueur de complément.")
    numbers = [sorted(b.get("number") for b in m.get("boards", []) if isinstance(b, dict)) for m in (movement.data, data)]
    if numbers[0] != numbers[1]:
        raise OperationError(f"{heads} : le mouvement ne joue plus les mêmes étuis ; ajoutez plutôt un joueur de "
                             "complément.")
    contradicted = contradicted_results(session, tournament, data)
    if contradicted:
        raise OperationError(f"{heads} : le mouvement change de tables, {describe_contradicted(contradicted)} ; "
                             "ajoutez plutôt un joueur de complément.")
    player = register_player(session, tournament, licence=licence, surname=surname, first_name=first_name,
                             club=club)
    _place(player, entrant_id, _format(tournament))
    session.flush()
    _store_movement(session, tournament, data)
    resting = [rest["position"] for rest in data.get("rests", []) if entrant_id in rest.get("entrants", [])]
    where = " (au relais à la 1re position)" if 1 in resting else ""
    journal(session, tournament, action="player.late", who=who,
            summary=f"Arrivée en retard : {player.name} placé en {french.place_label(entrant_id)}{where}",
            after={**_player_snapshot(player), "place": french.place_label(entrant_id),
                   "joueurs": count + 1, "au relais aux positions": ", ".join(map(str, resting)) or None})
    return player


def _positions(session: Session, tournament: Tournament) -> int | None:
    movement = get_movement(session, tournament)
    positions = movement.data.get("positions") if movement is not None else None
    return positions if isinstance(positions, int) else None


def _check_position(session: Session, tournament: Tournament, position, field: str) -> int:
    last = _positions(session, tournament)
    if not isinstance(position, int) or isinstance(position, bool) or position < 1 or (last and position > last):
        bound = f" et {last}" if last else ""
        raise OperationError(f"La position doit être un nombre entier entre 1{bound}.", field)
    return position


def withdraw_player(session: Session, tournament: Tournament, player: Player, *, position: int,
                    who: str | None = None) -> Player:
    """Art. 27: the player leaves during ``position``; he is ranked last (`core.ranking.rank_standings`)."""
    _individual(tournament, "Le forfait en cours de tournoi", _format(tournament).withdraws_players)
    if player.entrant_id is None:
        raise OperationError(f"{player.name} n’est pas placé : il n’a pas de place à quitter.")
    if player.withdrawn_from is not None:
        raise OperationError(f"{_who(player)} a déjà quitté le tournoi (position {player.withdrawn_from}).")
    player.withdrawn_from = _check_position(session, tournament, position, "position")
    session.flush()
    journal(session, tournament, action="player.withdraw", who=who,
            summary=f"Forfait en cours de tournoi (classé dernier, art. 27) : {_who(player)}, "
                    f"position {position}",
            before={"forfait": None}, after={"forfait": f"position {position}"})
    return player


def cancel_withdrawal(session: Session, tournament: Tournament, player: Player, *, who: str | None = None) -> Player:
    """Undo a withdrawal entered by mistake."""
    if player.withdrawn_from is None:
        raise OperationError(f"{_who(player)} n’a pas quitté le tournoi.")
    before = player.withdrawn_from
    player.withdrawn_from = None
    session.flush()
    journal(session, tournament, action="player.withdraw_cancel", who=who,
            summary=f"Forfait annulé : {_who(player)}", before={"forfait": f"position {before}"},
            after={"forfait": None})
    return player


def substitutions(session: Session, tournament: Tournament) -> list[Substitution]:
    return list(session.exec(select(Substitution).where(Substitution.tournament_id == tournament.id)
                             .order_by(Substitution.id)))


RESULTS_TO_LABELS = {"player": "restent au joueur remplacé", "substitute": "passent au remplaçant"}


def name_substitute(session: Session, tournament: Tournament, *, seat: str, from_position: int, results_to: str,
                    licence, surname, first_name, club, who: str | None = None) -> Substitution:
    """A substitute at entrant ``seat``'s place from ``from_position`` on (`core.evening.Substitution`)."""
    _individual(tournament, "Le remplacement")
    seated = {p.entrant_id: p for p in players(session, tournament) if p.entrant_id}
    taken = {s.seat for s in substitutions(session, tournament)}
    substitutes = {s.player_id for s in substitutions(session, tournament)}
    original = seated.get(_clean(seat))
    if original is None or original.id in substitutes:
        raise OperationError(f"Place « {seat} » inconnue : choisissez un joueur placé.", "seat")
    if original.entrant_id in taken:
        raise OperationError(f"{_who(original)} a déjà un remplaçant.", "seat")
    _check_position(session, tournament, from_position, "from_position")
    if results_to not in RESULTS_TO:
        raise OperationError("Choisissez qui garde les résultats de la place.", "results_to")
    player = register_player(session, tournament, licence=licence, surname=surname, first_name=first_name,
                             club=club)
    number = 1
    while f"X{number}" in seated:
        number += 1
    player.entrant_id, player.line, player.out_of_ranking = f"X{number}", original.line, True
    substitution = Substitution(tournament_id=tournament.id, seat=original.entrant_id, player_id=player.id,
                                from_position=from_position, results_to=results_to)
    session.add(substitution)
    session.flush()
    journal(session, tournament, action="player.substitute", who=who,
            summary=f"Remplaçant (hors classement) de {_who(original)} à partir de la position {from_position} : "
                    f"{player.name} ({french.place_label(player.entrant_id)}) ; les résultats {RESULTS_TO_LABELS[results_to]}",
            after={"place": french.place_label(original.entrant_id), "remplaçant": player.name, "à partir de la position": from_position,
                   "résultats": RESULTS_TO_LABELS[results_to]})
    return substitution


def lateness_penalty(session: Session, tournament: Tournament, *, entrant_id: str, minutes: int,
                     points_per_step: Fraction | float = 1, who: str | None = None):
    """Art. 26 in a duplicate: `core.evening.lateness_points` off the global % (journalled by `add_penalty`)."""
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_LATENESS_MINUTES:
        raise OperationError(f"Le retard est un nombre entier de minutes (1 à {MAX_LATENESS_MINUTES}).", "minutes")
    try:
        step = Fraction(str(points_per_step))
    except (ValueError, ZeroDivisionError):
        step = Fraction(0)
    if not 0 < step <= 10:
        raise OperationError("Les points par tranche de 5 minutes vont de 0,01 à 10.", "points_per_step")
    points = lateness_points(minutes, step)
    return add_penalty(session, tournament, entrant_id=entrant_id, points=float(points),
                       reason=f"Retard de {minutes} min (art. 26)", created_by=who)


def archive_tournament(session: Session, tournament: Tournament, *, who: str | None = None) -> Tournament:
    """Hide the tournament from the default lists; every page still reads it."""
    lock_row(session, tournament)
    if tournament.archived_at is not None:
        raise OperationError("Ce tournoi est déjà archivé.")
    tournament.archived_at = utcnow()
    session.flush()
    journal(session, tournament, action="tournament.archive", who=who, summary="Tournoi archivé",
            before={"archivé": False}, after={"archivé": True})
    return tournament


def restore_tournament(session: Session, tournament: Tournament, *, who: str | None = None) -> Tournament:
    lock_row(session, tournament)
    if tournament.archived_at is None:
        raise OperationError("Ce tournoi n’est pas archivé.")
    tournament.archived_at = None
    session.flush()
    journal(session, tournament, action="tournament.restore", who=who, summary="Tournoi sorti des archives",
            before={"archivé": True}, after={"archivé": False})
    return tournament


def delete_tournament(session: Session, tournament: Tournament, *, confirm_name: str) -> None:
    """Delete the tournament and everything of it, once its name is typed again."""
    if _clean(confirm_name) != _clean(tournament.name):
        raise OperationError("Recopiez exactement le nom du tournoi pour confirmer la suppression.", "confirm_name")
    session.delete(tournament)
    session.flush()
