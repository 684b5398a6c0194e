"""A SPEC §13 free-play file into a new tournament (« donnes libres », docs/free-play.md).

`import_free`: a SPEC §13 file into a new tournament, all or nothing; export (`_freeplay.free_export`) →
import → export gives back the file. The file is ranked by the core first (`core.freeplay.tournament.rank_free`),
then checked for what the database needs; its faults of the arbitration code count as
`_freeplay.refresh_faults` keeps them.
"""

from __future__ import annotations

import datetime
import json
import re

from sqlalchemy.exc import DataError, IntegrityError

from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.freeplay.movements import MovementError, rounds_from_dict
from duplicate.core.freeplay.ranking import lateness_penalty
from duplicate.core.freeplay.tournament import FREE_KINDS, FreePlayError, rank_free
from duplicate.core.triplettes import split_name
from duplicate.models import FreeSheet, Movement, Penalty, Player, Team, TeamMember, Tournament, TournamentKind

from ._common import OperationError, _format
from ._entrants import _place
from ._freeplay import MAX_DEALS, refresh_faults
from ._journal import journal


class FreeImportError(OperationError):
    """A free file refused at import: the French message names the faulty item; nothing was written."""


def is_free_file(text: str) -> bool:
    """Whether a tournament file is a free-play one (``"kind": "free" | "free_duo" | "free_team4"``)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("kind") in FREE_KINDS


def _text_field(item: dict, key: str, where: str, longest: int) -> str | None:
    value = item.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > longest:
        raise FreeImportError(f"{where} : « {key} » : texte de {longest} caractères au plus attendu")
    return value


def _check_free_file(data: dict) -> dict[tuple[int, int], list[dict]]:
    """What `rank_free` does not check and the database needs (module docstring of `import_free`); the
    deals grouped by feuille, (position, table) → deals in the file's order."""
    if data.get("format", interchange.TOURNAMENT_FORMAT) != interchange.TOURNAMENT_FORMAT:
        raise FreeImportError(f"« format » : « {interchange.TOURNAMENT_FORMAT} » attendu")
    fmt = _format_kind(data["kind"])
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise FreeImportError("« name » : le nom du tournoi (200 caractères au plus) est attendu")
    if data.get("date") is not None:
        try:
            datetime.date.fromisoformat(data["date"])
        except (TypeError, ValueError):
            raise FreeImportError(f"« date » : date AAAA-MM-JJ attendue, pas « {data['date']} »") from None
    if not isinstance(data.get("movement"), dict):
        raise FreeImportError("« movement » : le mouvement est attendu (il dit qui joue à chaque table)")
    pattern = _format_kind("free").entrant_pattern
    for index, item in enumerate(data.get("players") or [], start=1):
        where = f"joueur n° {index} ({item.get('id')})"
        if len(item["id"]) > 40 or not pattern.match(item["id"]):
            raise FreeImportError(f"{where} : identifiant : une place du mouvement attendue (N1, S1, E1, W1… ou J1…)")
        _text_field(item, "name", where, 201)
        _text_field(item, "licence", where, 40)
        _text_field(item, "club", where, 200)
        withdrawn = item.get("withdrawn")
        if withdrawn is not None and not (isinstance(withdrawn, dict) and isinstance(withdrawn.get("position"), int)
                                          and not isinstance(withdrawn.get("position"), bool)
                                          and 1 <= withdrawn["position"] <= 1000):
            raise FreeImportError(f"{where} : « withdrawn » : {{\"position\": n}} attendu")
    _check_teams(data, fmt)
    positions = {(r.position, r.table) for r in rounds_from_dict(data["movement"])}
    sheets_found: dict[tuple[int, int], list[dict]] = {}
    for index, result in enumerate(data["results"], start=1):
        key = (result["position"], result["table"])
        where = f"résultat n° {index} (table {key[1]}, position {key[0]}, donne {result['deal']})"
        if key not in positions:
            raise FreeImportError(f"{where} : cette table ne joue pas à cette position dans le mouvement")
        for field in ("players", "dead"):
            if field in result:
                raise FreeImportError(f"{where} : « {field} » : le web lit les joueurs de la table dans le mouvement")
        deals = sheets_found.setdefault(key, [])
        if len(deals) >= MAX_DEALS:
            raise FreeImportError(f"{where} : une feuille a {MAX_DEALS} donnes au plus")
        deals.append({k: v for k, v in result.items() if k not in ("table", "position")})
    for index, item in enumerate(data.get("penalties") or [], start=1):
        where = f"pénalité n° {index}"
        _text_field(item, "reason", where, 500)
        for key in ("points", "late_minutes"):
            if item.get(key) is not None and not 0 <= item[key] <= 10 ** 9:
                raise FreeImportError(f"{where} : « {key} » hors limites")
    return sheets_found


def _check_teams(data: dict, fmt) -> None:
    """The ``teams`` of a team kind (what `rank_free` leaves to us): each id a team place of the kind
    (``NS1``/``EW1`` in libre duo, ``T1`` in libre par 4), a name of 200 characters at most, every player in
    a team, and the members the movement's ``teams`` seats there when it lists them. A ``free`` file has no
    teams."""
    teams = data.get("teams")
    if not fmt.has_teams:
        if teams is not None:
            raise FreeImportError("« teams » : un tournoi libre individuel n’a pas d’équipes")
        return
    if not isinstance(teams, list) or not teams:
        raise FreeImportError(f"« teams » : les équipes de {fmt.team_size[0]} joueurs sont attendues")
    lines = "|".join(sorted(fmt.lines, key=len, reverse=True))
    pattern = re.compile(rf"^(?:{lines})[1-9][0-9]*$")
    seated = (data["movement"].get("teams") if isinstance(data["movement"].get("teams"), dict) else None)
    in_team = set()
    for index, item in enumerate(teams, start=1):
        where = f"équipe n° {index} ({item.get('id')})"
        if len(item["id"]) > 40 or not pattern.match(item["id"]):
            raise FreeImportError(f"{where} : identifiant : une place d’équipe attendue ({fmt.place_examples})")
        _text_field(item, "name", where, 200)
        if seated is not None and list(item["members"]) != list(seated.get(item["id"]) or []):
            raise FreeImportError(f"{where} : ses membres ne sont pas ceux que le mouvement place à cette équipe")
        in_team.update(item["members"])
    alone = [item["id"] for item in data.get("players") or [] if item["id"] not in in_team]
    if alone:
        raise FreeImportError(f"joueur {alone[0]} : dans aucune équipe (chaque joueur est membre d’une équipe)")


def _format_kind(kind: str):
    from duplicate.core.formats import format_for

    return format_for(kind)


def import_free(session: Session, text: str, *, who: str | None = None) -> Tournament:
    """A new free-play tournament from a SPEC §13 file (what `free_export` writes): all or nothing.

    The file is ranked by the core first (`rank_free`: players, movement, every deal, every penalty), then
    what the database needs is checked (`_check_free_file`: its movement, players' ids that are places, the
    teams of a team kind (`_check_teams`), each result at a table the movement has, lengths); an
    `FreeImportError` names the faulty item (« résultat n° 3 (table 2, position 1, donne 3) : … ») and
    nothing is written. The rows go in inside a SAVEPOINT, so a database refusal also leaves everything as
    it was. Export → import → export gives back the file."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except RecursionError:
        raise FreeImportError("fichier trop imbriqué") from None
    except ValueError as error:
        raise FreeImportError(f"JSON illisible ({getattr(error, 'msg', error)}, ligne {getattr(error, 'lineno', '?')})") from None
    if not isinstance(data, dict):
        raise FreeImportError("un objet JSON (le tournoi) est attendu")
    try:
        rank_free(data)
        grouped = _check_free_file(data)
    except (FreePlayError, MovementError) as error:
        raise FreeImportError(str(error)) from None
    except (TypeError, AttributeError, KeyError, ValueError, OverflowError) as error:
        raise FreeImportError(f"fichier mal formé ({error})") from None
    try:
        with session.begin_nested():
            tournament = _create_free(session, data, grouped, who)
    except (IntegrityError, DataError, OverflowError) as error:
        raise FreeImportError(f"le fichier ne peut pas être enregistré : {getattr(error, 'orig', error)}") from None
    return tournament


def _create_free(session: Session, data: dict, grouped: dict, who: str | None) -> Tournament:
    tournament = Tournament(name=data["name"], kind=TournamentKind(data["kind"]),
                            date=datetime.date.fromisoformat(data["date"]) if data.get("date") else None)
    session.add(tournament)
    session.flush()
    fmt = _format(tournament)
    first = {player: r.table for r in rounds_from_dict(data["movement"]) if r.position == 1
             for player in r.players()}
    for item in data["players"]:
        surname, first_name = split_name(item["name"]) if item.get("name") else ("", "")
        player = Player(tournament_id=tournament.id, surname=surname, first_name=first_name,
                        licence=item.get("licence"), club=item.get("club"),
                        withdrawn_from=(item.get("withdrawn") or {}).get("position"))
        _place(player, item["id"], fmt)
        player.start_table = first.get(item["id"])
        session.add(player)
    session.flush()
    if data.get("coefficients"):  # checked by rank_free at the door
        tournament.settings = {**(tournament.settings or {}), "free_coefficients": data["coefficients"]}
    if data.get("championship") is True:  # checked by rank_free at the door
        tournament.settings = {**(tournament.settings or {}), "free_championship": True}
    _create_teams(session, tournament, data.get("teams") or [],
                  parallel=isinstance(data["movement"].get("parallel"), dict))
    session.add(Movement(tournament_id=tournament.id, data=data["movement"]))
    for (position, table), deals in sorted(grouped.items()):
        session.add(FreeSheet(tournament_id=tournament.id, position=position, table=table, deals=deals,
                              entered_by="import"))
    for item in data.get("penalties") or []:
        fault, minutes, points, reason = item.get("fault"), item.get("late_minutes"), item.get("points"), item.get("reason")
        if fault == "retard":  # the core's way of writing lateness as a fault
            fault, minutes = None, minutes if minutes is not None else 0
        if fault is not None:
            extra = {"fault": fault, **({"reason": reason} if reason else {})}
            penalty = Penalty(tournament_id=tournament.id, entrant_id=item["player"], points=float(points or 0),
                              reason=None, created_by="import", extra=extra)
        elif minutes is not None:
            penalty = Penalty(tournament_id=tournament.id, entrant_id=item["player"],
                              points=float(lateness_penalty(minutes)), created_by="import",
                              reason=reason or f"Retard de {minutes} min (art. 26)", extra={"late_minutes": minutes})
        else:
            penalty = Penalty(tournament_id=tournament.id, entrant_id=item["player"], points=float(points),
                              reason=reason, created_by="import")
        session.add(penalty)
    session.flush()
    refresh_faults(session, tournament)
    teams_text = f"{len(data['teams'])} équipes, " if data.get("teams") else ""
    journal(session, tournament, action="tournament.import", who=who,
            summary=f"Tournoi en donnes libres importé : {len(data['players'])} joueurs, {teams_text}"
                    f"{french.counted(len(grouped), 'feuille', 'feuilles')}, "
                    f"{french.counted(len(data.get('penalties') or []), 'pénalité', 'pénalités')}")
    return tournament


def _create_teams(session: Session, tournament: Tournament, items: list[dict], parallel: bool = False) -> None:
    """The file's teams (team kinds), members in the file's order; each member starts at his team's table,
    as `_freeplay_teams.seat_free_teams` seats them (in « 4 tournois en parallèle », ``parallel``: at his
    own first table, already set)."""
    fmt = _format(tournament)
    by_id = {p.entrant_id: p for p in session.exec(select(Player).where(Player.tournament_id == tournament.id))}
    for item in items:
        members = [by_id[ident] for ident in item["members"]]
        name = (item.get("name") or "").strip() or " – ".join(p.surname for p in members)
        team = Team(tournament_id=tournament.id, name=name)
        _place(team, item["id"], fmt)
        session.add(team)
        session.flush()
        for order, player in enumerate(members):
            session.add(TeamMember(team_id=team.id, player_id=player.id, order=order))
            if not parallel:
                player.start_table = team.start_table
