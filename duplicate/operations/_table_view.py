"""What a table's phone shows (SPEC §12, issues 13 and 30): the position, the seats and their names, the
étuis with their status — and their scores only where the link may read them. Columns, not entities: a
phone's refresh is the hall's most frequent request.

* **Launched, in play** (docs/table-phones.md). The position in play is the one the arbiter launched last
  (« Lancer la position », `_live`'s clock: `position_in_play`); the launched positions are those up to it
  (`is_launched`); before any launch nothing is. Only launched positions take entries and confirmations.
* **What the link shows** (`scores_shown`): before publication, the scores of the table's own lines of the
  position in play only — a player who moved on keeps the link and must not read what the étuis he is about
  to play scored there; other positions show each line's status only. After publication, everything.
* **Position.** The table's page opens at the position asked, else the position in play if the table plays
  it, else the arbiter's (``settings["table_position"]``), else its first launched position with an étui not
  done (`_shown_position`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from sqlalchemy import bindparam, null, union_all
from sqlmodel import Session, select

from duplicate.core.formats import format_for
from duplicate.db import read_columns
from duplicate.view_models.export import ROOMS, attacker_text
from duplicate.models import (
    DONE, PENDING, Player, Result, Substitution, Team,
    Tournament, TournamentKind, result_slot,
)

from ._codes import CODE_REFUSED, MAX_REFUSED_CODES, action_entries, refused_at
from ._common import _kind, lock_row
from ._deals import board_takers
from ._journal import journal
from ._layout import movement_rounds
from ._live import clock_row, version_of_hall
from ._publishing import is_published
from ._quadrettes import quadrette_attackers
from ._team_match import attacker_names
from ._triplettes import triplette_plan
from ._scoring import Line, _round_lines, _without_phantoms


# --- what the table's phone shows -------------------------------------------------------------------------------

def phone_status(result: Result | None) -> str:
    """``todo`` (nothing entered), ``pending`` (awaiting a defender's confirmation) or ``done``."""
    return "todo" if result is None else (PENDING if result.status == PENDING else DONE)


# the individual's seated places (`_seated` with ``only``), built once, bound per request (issue 30)
_SUBSTITUTIONS_OF = select(Substitution.seat, Substitution.player_id, Substitution.from_position).where(
    Substitution.tournament_id == bindparam("tournament_id"), Substitution.from_position <= bindparam("position"),
    Substitution.seat.in_(bindparam("places", expanding=True))).order_by(Substitution.from_position, Substitution.id)
_PLAYERS = select(Player.id, Player.entrant_id, Player.surname, Player.first_name).where(
    Player.tournament_id == bindparam("tournament_id"))
_PLACED = Player.entrant_id.in_(bindparam("places", expanding=True))
_PLAYERS_OF = _PLAYERS.where(_PLACED)
# with their substitutes only when there are some: the OR keeps SQLite off the (tournament, entrant id) index
_PLAYERS_OR_SUBSTITUTES_OF = _PLAYERS.where(_PLACED | Player.id.in_(bindparam("ids", expanding=True)))


def _seated(session: Session, tournament: Tournament, position: int,
            only: set[str] | None = None) -> dict[str, tuple[str, str]]:
    """Entrant id → ``(id, name)`` of who sits at that place at ``position``: the entrant, or his substitute
    from the substitute's position on (SPEC §11: the substitute's own id ``X1``, hence his own code); in
    team formats the team (its id, its name). ``only``: those places only (fewer rows read). Columns, not
    entities: a phone's refresh names 4 seats, it builds none of the tournament's players (issue 30)."""
    if format_for(tournament.kind).has_teams:
        query = select(Team.entrant_id, Team.name).where(Team.tournament_id == tournament.id, Team.entrant_id.is_not(None))
        if only is not None:
            query = query.where(Team.entrant_id.in_(only))
        return {ident: (ident, name) for ident, name in session.exec(query)}
    if only is not None:
        places = list(only)
        subs = read_columns(session, _SUBSTITUTIONS_OF, {"tournament_id": tournament.id, "position": position,
                                                         "places": places}).all()  # the latest stands
        parameters = {"tournament_id": tournament.id, "places": places}
        if subs:
            parameters["ids"] = [player_id for _, player_id, _ in subs]
        players = {row[0]: row for row in read_columns(
            session, _PLAYERS_OR_SUBSTITUTES_OF if subs else _PLAYERS_OF, parameters)}
        return _seats(players, subs)
    subs = session.exec(select(Substitution.seat, Substitution.player_id, Substitution.from_position).where(
        Substitution.tournament_id == tournament.id, Substitution.from_position <= position)
        .order_by(Substitution.from_position, Substitution.id)).all()  # the latest stands
    query = select(Player.id, Player.entrant_id, Player.surname, Player.first_name).where(
        Player.tournament_id == tournament.id)
    players = {row[0]: row for row in session.exec(query)}
    return _seats(players, subs)


def _seats(players: Mapping[int, tuple], subs) -> dict[str, tuple[str, str]]:
    """`_seated`'s answer from its rows: the players by id, the substitutions in order (the latest stands)."""
    seated = {ident: (ident, _full_name(surname, first)) for _, ident, surname, first in players.values() if ident}
    for seat, player_id, _from in subs:
        if player_id in players:
            _, ident, surname, first = players[player_id]
            seated[seat] = (ident or seat, _full_name(surname, first))
    return seated


def _full_name(surname: str | None, first_name: str | None) -> str:
    """« DUPONT Jean », as `models.Player.name` words it."""
    return " ".join(part for part in (surname, first_name) if part)


def _names(session: Session, tournament: Tournament, position: int, only: set[str] | None = None) -> dict[str, str]:
    """Entrant id → name as seated at ``position`` (a substitute from his position on, SPEC §11); ``only``:
    those places only."""
    return {ident: name for ident, (_, name) in _seated(session, tournament, position, only).items()}


# --- what is launched, what is shown ---------------------------------------------------------------------------

def position_in_play(session: Session, tournament: Tournament) -> int | None:
    """The position in play: the one the arbiter launched last (« Lancer la position », `_live`'s clock);
    None before he launches one (then nothing is launched)."""
    return _in_play(clock_row(session, tournament))


def _in_play(clock) -> int | None:
    """`position_in_play` from the clock's row already read (`_live.clock_row`)."""
    return clock.position if clock is not None else None


def is_launched(in_play: int | None, position: int | None) -> bool:
    """Launched: a position up to the one in play. Only those take entries and confirmations."""
    return in_play is not None and position is not None and position <= in_play


def scores_shown(tournament: Tournament, in_play: int | None, position: int | None) -> bool:
    """Whether a table's link shows the scores of its own lines of ``position``: after publication always;
    before, only at the position in play — a player who moved on holds his old table's link, and must not
    read what the étuis he is about to play scored there."""
    return is_published(tournament) or (in_play is not None and position == in_play)


def taker_seat(kind: TournamentKind, line: Line, takers: Mapping[int, str] | None) -> str:
    """The seat the taker sits at: the étui's taker seat; South in quadrettes and team matches (SPEC §2).
    ``takers`` None: the seat the line was built with (`_scoring._round_lines` read the étui's taker seat)."""
    if takers is None and line.taker_seat is not None:
        return line.taker_seat  # the format did not fix it (`Format.round_lines`): the étui's, as read
    return format_for(kind).taker_seat_for(line.board, takers)



# the table's stored lines, pending ones too (the phone shows them), as light rows
_LINES_AT_TABLE = select(Result.board, Result.room, Result.status, Result.score, Result.chelem, Result.attacker).where(
    Result.tournament_id == bindparam("tournament_id"), Result.table == bindparam("table"))
# the individual's entrants named and their substitutes (`_people`)
# (one statement, each half on its index: an OR across the join made SQLite read every player)
_PEOPLE = union_all(
    select(Player.id, Player.entrant_id, Player.surname, Player.first_name, null(), null(), null()).where(
        Player.tournament_id == bindparam("tournament_id"), Player.entrant_id.in_(bindparam("named", expanding=True))),
    select(Player.id, Player.entrant_id, Player.surname, Player.first_name, Substitution.seat,
           Substitution.from_position, Substitution.id).join(Player, Player.id == Substitution.player_id).where(
        Substitution.tournament_id == bindparam("tournament_id"),
        Substitution.seat.in_(bindparam("named", expanding=True))))


def _table_rows(session: Session, tournament: Tournament, table: int):
    """The table's lines of the movement (as `all_lines` with ``table`` and ``pending``), each ``result`` a
    row of the columns the phone's view reads (status, score, chelem, attacker), not a `Result` entity —
    what a refresh costs (issue 30) —, the taker seats of the table's étuis (`board_takers`, read once), and
    ``names(position, places)``: entrant id → name as seated at that position (`_names`). In the individual
    one query reads the table's entrants and their substitutes — the placed ones drop the phantoms' lines
    (`_scoring._without_phantoms`), the names come from the same rows."""
    movement = movement_rounds(session, tournament)
    if movement is None:
        return [], {}, lambda position, places: _names(session, tournament, position, places)
    rounds = movement.by_table.get(table, ())
    takers = board_takers(session, tournament, movement, {int(b) for r in rounds for b in r.get("boards", ())})
    kind = _kind(tournament)
    lines = [line for round_ in rounds for line in _round_lines(kind, round_, takers)]
    named = {name for line in lines for name in (line.taker, *line.defence)}
    people = _people(session, tournament, named) if not format_for(kind).has_teams and named else None
    if people is None:
        lines = _without_phantoms(session, tournament, lines)
        names = lambda position, places: _names(session, tournament, position, places)  # noqa: E731
    else:
        placed, names = people
        lines = [line for line in lines if line.taker in placed and placed.issuperset(line.defence)]
    by_slot = {(line.board, line.slot): line for line in lines}
    for row in read_columns(session, _LINES_AT_TABLE, {"tournament_id": tournament.id, "table": table}):
        line = by_slot.get((row.board, result_slot(table, row.room)))
        if line is not None:
            line.result = row
    return sorted(lines, key=lambda line: (line.board, line.position or 0, line.table)), takers, names


def _people(session: Session, tournament: Tournament, named: set[str]):
    """The individual's entrants ``named`` and their substitutes, in one query: ``(placed, names)`` —
    ``placed`` the entrant ids among ``named`` (`_scoring._without_phantoms`), ``names(position, places)``
    as `_names` gives them; None when none is placed (before the draw: `_without_phantoms` decides)."""
    rows = read_columns(session, _PEOPLE, {"tournament_id": tournament.id, "named": list(named)}).all()
    placed = {row[1] for row in rows if row[1] in named}
    if not placed:
        return None

    def names(position: int, places: set[str]) -> dict[str, str]:
        seated = {ident: _full_name(surname, first) for _, ident, surname, first, _, _, _ in rows
                  if ident and ident in places}
        subs = sorted((row for row in rows if row[4] in places and row[5] is not None and row[5] <= position),
                      key=lambda row: (row[5], row[6]))  # the latest stands, as in `_seated`
        for _, ident, surname, first, seat, _, _ in subs:
            seated[seat] = _full_name(surname, first)
        return seated
    return placed, names


def _shown_position(tournament: Tournament, lines: list[Line], positions: list[int], asked: int | None,
                    in_play: int | None) -> int | None:
    """The position the page shows: the one asked if the table plays it; else the position in play if the
    table plays it; else the arbiter's (``settings["table_position"]``); else among the launched positions
    the first with an étui not done, else the last launched; else the table's first."""
    if asked in positions:
        return asked
    if in_play in positions:
        return in_play
    chosen = (tournament.settings or {}).get("table_position")
    if chosen in positions:
        return chosen
    launched = [p for p in positions if is_launched(in_play, p)]
    waiting = [line.position for line in lines if line.position in launched and phone_status(line.result) != DONE]
    return min(waiting) if waiting else (launched[-1] if launched else (positions[0] if positions else None))


def _attack(plan, team_attackers: Mapping[tuple[int, str], str], line: Line) -> dict | None:
    """Who attacks ``line``'s étui, as the route sheet and the étui page word him (issue 29 point 8):
    ``{"name", "colour", "room", "label"}`` — in triplettes the triplette's member and his badge (SPEC §5,
    `triplette_plan`), in a team match the attacker the team chose for the quarter and the room (seed
    « DUPLICATE PAR ÉQUIPES », `_team_match.attacker_names`); None otherwise or not chosen yet. A name, not
    a score: shown whatever `scores_shown` says."""
    if plan is not None:
        who = plan.attacker(line.board, line.taker)
        who = dict(who, room="") if who else None
    else:
        name = team_attackers.get((line.quarter or line.position or 0, line.taker))
        who = {"name": name, "colour": "", "room": ROOMS.get(line.room or "", "")} if name else None
    return dict(who, label=attacker_text(who)) if who else None


@dataclass(frozen=True)
class TableWatch:
    """What a table's phone is answered from before its lines, read once a request (issue 30): the position
    in play (the clock's row), the refused codes of the tournament (their journal entries' ``after``) and
    ``version``, the text `table_view`'s answer can change only with."""

    version: str
    in_play: int | None
    refused: tuple


def table_watch(session: Session, tournament: Tournament, position: int | None) -> TableWatch:
    """The phone asks again while it waits — for the launch, for another phone's confirmation — and is
    answered « nothing new » at the cost of two reads: the version is the hall's (`_live.hall_version`: the
    data, the clock), the refused codes of the tournament (the lock, `CODE_REFUSED`: journal entries, which
    raise no data version) and the position asked for."""
    clock = clock_row(session, tournament)
    refused = tuple(action_entries(session, tournament, CODE_REFUSED))
    return TableWatch(f"{version_of_hall(tournament, clock)}-{len(refused)}-{position or ''}",
                      _in_play(clock), refused)


def table_view(session: Session, tournament: Tournament, table: int, position: int | None = None,
               watch: TableWatch | None = None) -> dict:
    """The SPEC §12 ``GET /api/table/<secret>`` answer: tournament, table, position (`_shown_position`),
    seats with names, the position's étuis with their taker and status; plus what the page needs: the
    tournament's name and kind, the table's positions, each étui's taker seat and confirming seats, the
    position in play, whether this position is ``launched`` (entry allowed), whether its scores are shown
    (`scores_shown`: the table's own score and chelem — and the quadrette's named attacker — only then),
    whether confirmation is ``locked`` (too many refused codes), whether the other tables' scores may be
    asked for. ``watch``: `table_watch` as the request read it already."""
    watch = watch or table_watch(session, tournament, position)
    kind = _kind(tournament)
    lines, takers, names_at = _table_rows(session, tournament, table)
    positions = sorted({line.position for line in lines if line.position is not None})
    settings = tournament.settings or {}
    in_play = watch.in_play
    position = _shown_position(tournament, lines, positions, position, in_play)
    shown = scores_shown(tournament, in_play, position)
    here = [line for line in lines if line.position == position]
    seated = here[0].seats if here else {}
    names = names_at(position or 0,  # the places of the position's seats only
                     {*seated.values(), *(ident for line in here for ident in (line.taker, *line.defence))})
    seats = {seat: {"id": ident, "name": names.get(ident, ident)} for seat, ident in seated.items()}
    fmt = format_for(kind)
    plan = triplette_plan(session, tournament) if fmt.who_attacks == "colours" else None
    quadrettes = quadrette_attackers(session, tournament) if fmt.who_attacks == "named" else {}
    team_attackers = attacker_names(session, tournament) if fmt.who_attacks == "quarters" else {}
    boards = []
    for line in sorted(here, key=lambda line: line.board):
        seat = taker_seat(kind, line, takers)
        item: dict[str, Any] = {"number": line.board, "taker": line.taker, "status": phone_status(line.result),
                                "taker_seat": seat, "taker_name": names.get(line.taker, line.taker),
                                "confirm_seats": list(fmt.confirming_seats(seat))}
        attack = _attack(plan, team_attackers, line)
        if attack is not None:
            item["attack"] = attack
        if fmt.who_attacks == "named":  # quadrettes: the North says who of the quadrette took; the usual one first
            team = quadrettes.get(line.taker, {})
            item["attackers"] = [list(member) for member in team.get("members", [])]
            item["attacker"] = line.result.attacker if shown and line.result is not None and line.result.attacker \
                else team.get("usual")
        if line.result is not None and shown:
            item.update(score=line.result.score, chelem=bool(line.result.chelem))
        boards.append(item)
    launched = is_launched(in_play, position)
    return {"tournament": tournament.id, "table": table, "position": position, "seats": seats, "boards": boards,
            "name": tournament.name, "kind": kind.value, "positions": positions, "in_play": in_play,
            "position_noun": fmt.position_noun,
            "launched": launched, "scores_shown": shown,
            "locked": launched and refused_at(watch.refused, table, position) >= MAX_REFUSED_CODES,
            "others_visible": bool(settings.get("table_results")) and (is_published(tournament) or position == in_play)}


# --- the arbiter's settings of the phones ------------------------------------------------------------------------

def set_table_options(session: Session, tournament: Tournament, *, results_visible: bool,
                      position: int | None, who: str | None) -> None:
    """The arbiter's settings of the tables' phones: show the other tables' scores of a confirmed étui,
    and the position the phones open at (None: each table's first position not done)."""
    lock_row(session, tournament)  # the settings as another arbiter may just have saved them
    settings = dict(tournament.settings or {})
    before = {"scores des autres tables": bool(settings.get("table_results")),
              "position": settings.get("table_position")}
    settings["table_results"] = bool(results_visible)
    if position is None:
        settings.pop("table_position", None)
    else:
        settings["table_position"] = int(position)
    tournament.settings = settings
    session.flush()
    after = {"scores des autres tables": bool(results_visible), "position": position}
    if after != before:
        journal(session, tournament, action="table.settings", who=who,
                summary="Saisie à la table : " + ("scores des autres tables montrés après confirmation"
                                                   if results_visible else "scores des autres tables cachés")
                + (f", position imposée {position}" if position else ", position de chaque table"),
                before=before, after=after)
