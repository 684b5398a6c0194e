"""Players and teams: registration (one by one or from a CSV list), teams, the draw of places."""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Iterable, Mapping

from sqlmodel import Session, select

from duplicate import french, players_csv
from duplicate.core.formats import Format
from duplicate.core.triplettes import COLOURS
from duplicate.models import Player, Team, TeamMember, Tournament

from ._common import (
    CsvImportError, OperationError, _clean, _entrants, _format, _refuse_after_results, entrant_model, players,
)

def _player_problems(session: Session, tournament: Tournament, row: Mapping[str, str],
                     licences: set[str]) -> list[tuple[str, str]]:
    """(field, French message) for each problem of one player's fields."""
    problems = []
    for field, label, limit in (("surname", "Le nom", 100), ("first_name", "Le prénom", 100),
                                ("club", "Le club", 200), ("licence", "La licence", 40)):
        if len(row[field]) > limit:
            problems.append((field, f"{label} est trop long ({limit} caractères au plus)."))
    for field, label in (("surname", "Le nom"), ("first_name", "Le prénom")):
        if not row[field]:
            problems.append((field, f"{label} est obligatoire."))
    licence = row["licence"]
    if licence:
        if not re.fullmatch(r"[0-9A-Za-z-]+", licence):
            problems.append(("licence", f"Licence « {licence} » invalide (chiffres et lettres seulement)."))
        elif licence in licences:
            problems.append(("licence", f"La licence {licence} est déjà inscrite dans ce tournoi."))
    return problems


def _licences(session: Session, tournament: Tournament) -> set[str]:
    return {p.licence for p in players(session, tournament) if p.licence}


def register_player(session: Session, tournament: Tournament, *, licence, surname, first_name, club) -> Player:
    """Register one player (not placed yet: the draw gives the entrant id)."""
    row = {"licence": _clean(licence), "surname": _clean(surname), "first_name": _clean(first_name),
           "club": _clean(club)}
    problems = _player_problems(session, tournament, row, _licences(session, tournament))
    if problems:
        field, message = problems[0]
        raise OperationError(message, field)
    player = Player(tournament_id=tournament.id, licence=row["licence"] or None, surname=row["surname"],
                    first_name=row["first_name"], club=row["club"] or None)
    session.add(player)
    session.flush()
    return player


def preview_players_csv(session: Session, tournament: Tournament, text: str | bytes
                        ) -> tuple[list[dict], list[tuple[int, str]], int]:
    """What importing a players list would do, without storing anything: ``(accepted, refused, empty)``,
    ``accepted`` the players' fields (``line``, ``licence``, ``surname``, ``first_name``, ``club``) in
    file order, ``refused`` one ``(line number, French reason)`` per refused line (its problems joined
    by « ; »; line 0 for the file as a whole), ``empty`` the empty lines skipped (not refused).  A licence
    is refused when already registered or met earlier in the file."""
    rows, errors, empty = players_csv.parse_players_csv(text)
    licences = _licences(session, tournament)
    problems: dict[int, list[str]] = {}
    for number, message in errors:
        problems.setdefault(number, []).append(message)
    accepted = []
    for number, row in rows:
        row = {key: _clean(value) for key, value in row.items()}
        found = [message for _field, message in _player_problems(session, tournament, row, licences)]
        if found:
            problems.setdefault(number, []).extend(found)
            continue
        if row["licence"]:
            licences.add(row["licence"])
        accepted.append({"line": number, **row})
    if not problems and not accepted:
        problems[0] = ["aucun joueur dans le fichier"]
    refused = [(number, " ; ".join(messages)) for number, messages in sorted(problems.items())]
    return accepted, refused, empty


def import_players_csv(session: Session, tournament: Tournament, text: str | bytes, *,
                       skip_refused: bool = False) -> list[Player]:
    """Register the players of a CSV list (see `players_csv.parse_players_csv`), checked as by
    `preview_players_csv`.

    By default all or none: any refused line raises `CsvImportError` (every refused line listed) and
    nothing is added.  With ``skip_refused`` (the arbiter confirmed a preview) the accepted players are
    added and the refused lines left out; `CsvImportError` still when none is accepted.
    """
    accepted, refused, _empty = preview_players_csv(session, tournament, text)
    if (refused and not skip_refused) or not accepted:
        raise CsvImportError(refused)
    added = [Player(tournament_id=tournament.id, licence=row["licence"] or None, surname=row["surname"],
                    first_name=row["first_name"], club=row["club"] or None) for row in accepted]
    session.add_all(added)
    session.flush()
    return added


def team_members(session: Session, team: Team) -> list[Player]:
    rows = session.exec(select(Player).join(TeamMember, TeamMember.player_id == Player.id)
                        .where(TeamMember.team_id == team.id).order_by(TeamMember.order, TeamMember.id))
    return list(rows)


def form_team(session: Session, tournament: Tournament, *, name: str, player_ids: Iterable[int],
              line: str | None = None) -> Team:
    """A triplette (3 players), a quadrette (4) or a team of a team match (4 to 6) from registered players.

    Triplette badges (Bleu, Blanc, Rouge) follow the surnames' order (`core.triplettes.member_badges`).
    """
    fmt = _format(tournament)
    if fmt.team_size is None:
        raise OperationError(f"Un tournoi {fmt.label.lower()} n’a pas d’équipes.")
    ids = list(dict.fromkeys(int(i) for i in player_ids))
    low, high = fmt.team_size
    if not low <= len(ids) <= high:
        size = f"{low}" if low == high else f"{low} à {high}"
        raise OperationError(f"Il faut {size} joueurs différents par équipe ({len(ids)} choisis).", "player_ids")
    members = []
    for player_id in ids:
        player = session.get(Player, player_id)
        if player is None or player.tournament_id != tournament.id:
            raise OperationError(f"Joueur n° {player_id} inconnu dans ce tournoi.", "player_ids")
        taken = session.exec(select(TeamMember).where(TeamMember.player_id == player_id)).first()
        if taken is not None:
            raise OperationError(f"{player.name} fait déjà partie d’une équipe.", "player_ids")
        members.append(player)
    line = (line or "").strip().upper() or None
    if line is not None and fmt.entrant_lines is not None and line not in fmt.entrant_lines:
        raise OperationError(f"La ligne d’une équipe est {' ou '.join(fmt.entrant_lines)}.", "line")
    name = _clean(name) or " – ".join(player.surname for player in members)
    if len(name) > 200:
        raise OperationError("Le nom de l’équipe est trop long (200 caractères au plus).", "name")
    badges = fmt.team_badges((str(p.id), p.name) for p in members)
    team = Team(tournament_id=tournament.id, name=name, line=line)
    if tournament.draw_seed:
        team.first_colour = fmt.first_colour(tournament.draw_seed)
    session.add(team)
    session.flush()
    for order, player in enumerate(members):
        session.add(TeamMember(team_id=team.id, player_id=player.id, order=order, badge=badges.get(str(player.id))))
    session.flush()
    return team


def set_first_colour(session: Session, team: Team, colour: str) -> Team:
    """The badge colour of a triplette's first attacker (Bleu, Blanc or Rouge)."""
    if colour not in COLOURS:
        raise OperationError(f"Couleur inconnue « {colour} » (Bleu, Blanc ou Rouge).", "first_colour")
    team.first_colour = colour
    session.flush()
    return team


# --- the draw --------------------------------------------------------------------------------------------------

def entrant_clubs(session: Session, tournament: Tournament) -> dict[str, str]:
    """Entrant id → club, as the rankings print it beside the name: the players' clubs in the kinds that
    rank players; a team has no club of its own (SPEC §9), so none in the others."""
    if tournament.format.has_teams:
        return {}
    return {ident: club for ident, club in session.exec(select(Player.entrant_id, Player.club).where(
        Player.tournament_id == tournament.id, Player.entrant_id.is_not(None), Player.club.is_not(None)))}


def _entrant_name(entrant) -> str:
    return entrant.name


def _assignment(entrant) -> dict:
    key = "player_id" if isinstance(entrant, Player) else "team_id"
    return {key: entrant.id, "name": _entrant_name(entrant), "entrant_id": entrant.entrant_id,
            "line": entrant.line, "table": entrant.start_table}


def _place(entrant, entrant_id: str | None, fmt: Format) -> None:
    entrant.entrant_id = entrant_id
    if entrant_id is None:
        entrant.line = entrant.start_table = None
        return
    match = fmt.entrant_pattern.match(entrant_id)
    groups = match.groupdict()
    entrant.line = groups.get("line")
    entrant.start_table = int(groups["table"]) if groups.get("table") else None


def drawn_order(entrants: list, seed: str) -> list:
    """The entrants in the draw's order: by SHA-256 of ``tarot-draw/1|<seed>|<n>`` (``n`` the registration
    order), the same on any machine (the duplicate draw and the free-play seating share it)."""
    order = sorted(range(len(entrants)),
                   key=lambda n: hashlib.sha256(f"tarot-draw/1|{seed}|{n}".encode("utf-8")).digest())
    return [entrants[n] for n in order]


def draw_places(session: Session, tournament: Tournament, seed: str | None = None) -> list[dict]:
    """Draw the places (entrant ids, lines, starting tables) from ``seed`` (random when None); return
    the assignments ``{player_id|team_id, name, entrant_id, line, table}`` in table order."""
    fmt = _format(tournament)
    _refuse_after_results(session, tournament, "le placement")
    entrants = _entrants(session, tournament)
    minimum, most = fmt.entrants_needed
    if len(entrants) < minimum or (most is not None and len(entrants) > most):
        exact = "exactement" if minimum == most else "au moins"
        raise OperationError(f"Il faut {exact} {minimum} {fmt.entrants_noun} pour le tirage "
                             f"({len(entrants)} inscrits).")
    seed = (seed or "").strip() or secrets.token_hex(8)
    drawn = drawn_order(entrants, seed)
    for entrant in entrants:  # free every id first: the unique constraint holds at each flush
        _place(entrant, None, fmt)
    session.flush()
    for index, entrant in enumerate(drawn):
        _place(entrant, fmt.drawn_place(index), fmt)
        colour = fmt.first_colour(seed)
        if colour is not None:  # the triplettes' (a player has no colour)
            entrant.first_colour = colour
    tournament.draw_seed = seed
    session.flush()
    return [_assignment(e) for e in sorted(drawn, key=lambda e: (e.start_table or 0, e.line or "", e.entrant_id))]


def place_by_hand(session: Session, tournament: Tournament, assignments: Iterable[Mapping]) -> list[dict]:
    """Place entrants as the arbiter says: ``[{"player_id" or "team_id": id, "entrant_id": "N3"}, ...]``.

    An empty entrant id takes the entrant out of its place. Entrants not listed keep theirs.
    """
    fmt = _format(tournament)
    _refuse_after_results(session, tournament, "le placement")
    model = entrant_model(tournament)
    key = "player_id" if model is Player else "team_id"
    wanted: dict[int, str | None] = {}
    for item in assignments:
        entrant = session.get(model, int(item.get(key, 0) or 0))
        if entrant is None or entrant.tournament_id != tournament.id:
            raise OperationError(f"Participant n° {item.get(key)} inconnu dans ce tournoi.", "entrant_id")
        entrant_id = (item.get("entrant_id") or "").strip().upper() or None
        if entrant_id is not None and not fmt.entrant_pattern.match(entrant_id):
            raise OperationError(f"Place « {french.place_label(entrant_id)} » invalide "
                                 f"(par exemple {fmt.place_examples}).",
                                 "entrant_id")
        wanted[entrant.id] = entrant_id
    final = {e.id: e.entrant_id for e in _entrants(session, tournament)}
    final.update(wanted)
    taken = [i for i in final.values() if i is not None]
    duplicates = sorted({i for i in taken if taken.count(i) > 1})
    if duplicates:
        raise OperationError(f"Place {', '.join(map(french.place_label, duplicates))} donnée deux fois.", "entrant_id")
    for entrant_id in wanted:
        _place(session.get(model, entrant_id), None, fmt)
    session.flush()
    for entrant_id, place in wanted.items():
        _place(session.get(model, entrant_id), place, fmt)
    session.flush()
    return [_assignment(session.get(model, i)) for i in wanted]
