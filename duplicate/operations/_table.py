"""Scoring at the table (SPEC §12, issue 13): each table's link, what its phone shows, its lines entered
by the North and confirmed by a defender, the conflicts with the paper fiches.

* **The link.** Each table of the movement has a secret ``<tournament>.<table>.<code>``, the code an
  HMAC-SHA256 of the tournament and table under the tournament's own random ``table_key``: unguessable,
  valid for that tournament only, nothing to store per table (a GET never writes), and the same after a
  restart. The table's link is ``/table/<secret>`` (the phone page); its QR code is on the table's guide card.
* **Launched, in play** (docs/table-phones.md). The position in play is the one the arbiter launched last
  (« Lancer la position », `_live`'s clock: `position_in_play`); the launched positions are those up to it
  (`is_launched`); before any launch nothing is. Only launched positions take entries and confirmations.
* **What the link shows** (`scores_shown`): before publication, the scores of the table's own lines of the
  position in play only — a player who moved on keeps the link and must not read what the étuis he is about
  to play scored there; other positions show each line's status only. After publication, everything.
* **Entry.** The North (rules of play, art. 28: the North keeps the score) enters an étui of a launched
  position as its score or as the deal's facts, which `core.scoring.score_facts` turns into the score; the
  line is then checked as any other (`check_new_result`) and stored *pending*: it holds its slot, counts
  nowhere (`models._counted_only`) until a defender confirms it on the same phone. An étui of a position
  not launched is refused (422), journalled once per table, étui and position. The same content sent again
  is the same write (a retry after a lost answer); a pending line may be corrected by the table; a different
  score on a done line is refused (409) and flagged to the arbiter as a conflict, never merged — the answer
  names the stored score only where the link may show it, and where it may not, every entry on the done
  line gets the same answer (a guess learns nothing). A line the arbiter settled takes nothing (409).
* **Confirmation.** A defender's seat — not the taker's (in triplettes nor his partner's), not the North's,
  who entered it — and the personal code (`_codes.player_code`, free play's too) of whoever sits there at
  that position (a substitute's own; in team formats the team's). Anything else is refused (422) and
  journalled (`RefusedAttempt`: the journal says who tried what); after `MAX_REFUSED_CODES` refusals at the
  table for the position, its phone confirms no more (the arbiter settles from the paper fiche). The journal
  of a confirmation names the confirmer. `table_codes` lists the codes for the arbiter and the cards.
* **Paper fiches** keep working: a paper score that disagrees with a line entered at the table is not
  written but flagged (`flag_conflict`); the arbiter keeps one (`resolve_conflict`), which settles the
  line (done).
* **Other tables' scores** on an étui are shown to a table only if the arbiter allows it
  (``settings["table_results"]``), once its own line on it — at the position the movement gives it — is done,
  and while that position is in play (SPEC §11: a table may see the results of an étui it has itself played
  and entered; after the position, the link's holders are other players). After publication the option
  and the done line suffice.
* **Position.** The table's page opens at the position asked, else the position in play if the table plays
  it, else the arbiter's (``settings["table_position"]``), else its first launched position with an étui not
  done (`_shown_position`).

Everything that changes a line is in the result's history and the tournament's journal.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Mapping

from sqlalchemy import bindparam, func
from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.cards import SEAT_NAMES, SEATS
from duplicate.core import formats
from duplicate.core.formats import format_for
from duplicate.core.scoring import ScoreError, score_facts
from duplicate.db import begin_writing, read_columns
from duplicate.view_models.export import ROOMS, attacker_text
from duplicate.models import (
    DONE, PENDING, WITH_PENDING, JournalEntry, Player, PositionClock, Result, ResultConflict, Substitution, Team,
    Tournament, TournamentKind, result_slot, utcnow,
)

from ._codes import MAX_REFUSED_CODES, code_matches, player_code, refused_attempts
from ._common import ConflictError, NotFound, OperationError, _kind, entrant_model, lock_row
from ._deals import board_takers
from ._layout import movement_rounds
from ._live import hall_version
from ._journal import journal
from ._publishing import is_published
from ._quadrettes import quadrette_attackers
from ._team_match import attacker_names
from ._triplettes import triplette_plan
from ._results import (
    CheckContext, check_change, check_entered_score, check_new_result, flag_conflict, refuse_if_settled,
    settled_by_arbiter, write_results,
)
from ._scoring import CONTRACTS, Line, _round_lines, _without_phantoms, all_lines, parse_score

ORIGIN_TABLE = "table"
POIGNEES = ("simple", "double", "triple")
PETIT_AU_BOUT = ("taker", "defence")
CHELEMS = ("announced_made", "unannounced_made", "announced_failed", "defence")
ENTERING_SEAT = formats.ENTERING_SEAT    # the North enters the score; another defender confirms it
CODE_REFUSED = "table.code_refused"      # a refused confirmation: counted towards the lock (`_codes`)
NOT_LAUNCHED = "table.not_launched"      # an entry for a position not launched: journalled once per étui


# --- the tables' links ------------------------------------------------------------------------------------------

def table_secret(tournament: Tournament, table: int) -> str:
    """The secret of ``table``'s link: ``<tournament>.<table>.<22 characters>``."""
    mac = hmac.new(tournament.table_key.encode(), f"tarot-table/1|{tournament.id}|{table}".encode(),
                   hashlib.sha256).digest()[:16]
    return f"{tournament.id}.{table}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def table_numbers(session: Session, tournament: Tournament) -> list[int]:
    """The tables of the movement (none before a movement is chosen)."""
    movement = movement_rounds(session, tournament)
    return list(movement.tables) if movement is not None else []


def table_links(session: Session, tournament: Tournament) -> list[dict]:
    """``{"table", "secret", "path"}`` of every table (``path``: the phone page, to be made absolute)."""
    return [{"table": t, "secret": table_secret(tournament, t), "path": f"/table/{table_secret(tournament, t)}"}
            for t in table_numbers(session, tournament)]


def find_table(session: Session, secret: str) -> tuple[Tournament, int]:
    """The tournament and table of a link's secret; `NotFound` (French) for anything else."""
    unknown = NotFound("Lien de table inconnu : scannez de nouveau le QR code de la table ou demandez à "
                       "l’arbitre.")
    secret = str(secret)
    parts = secret.split(".")
    # ASCII only: « ² » and « ١ » are digits to str.isdigit but not to int(), and hmac compares ASCII text only
    if not secret.isascii() or len(parts) != 3 or not all(french.digits(part) for part in parts[:2]) \
            or len(parts[0]) > 9 or len(parts[1]) > 4:
        raise unknown
    tournament = session.get(Tournament, int(parts[0]))
    if tournament is None or not hmac.compare_digest(table_secret(tournament, int(parts[1])), secret):
        raise unknown
    if not format_for(tournament.kind).has_etuis:  # no étui: its page is `operations.freeplay_table`'s
        raise unknown
    if int(parts[1]) not in table_numbers(session, tournament):
        raise unknown
    return tournament, int(parts[1])


def table_codes(session: Session, tournament: Tournament) -> list[dict]:
    """``{"id", "name", "code"}`` of every placed entrant — a substitute under his own id (``X1``), a team in
    team formats — in place order: the codes a defender confirms with (`_codes.player_code`), for the
    arbiter to tell a player who lost his card."""
    model = entrant_model(tournament)
    placed = session.exec(select(model).where(model.tournament_id == tournament.id, model.entrant_id.is_not(None)))
    return [{"id": row.entrant_id, "name": row.name, "code": player_code(tournament, row.entrant_id)}
            for row in sorted(placed, key=lambda row: french.place_order(row.entrant_id))]


# --- what the table's phone shows -------------------------------------------------------------------------------

def line_status(result: Result | None) -> str:
    """``todo`` (nothing entered), ``pending`` (awaiting a defender's confirmation) or ``done``."""
    return "todo" if result is None else (PENDING if result.status == PENDING else DONE)


# the individual's seated places (`_seated` with ``only``), built once, bound per request (issue 30)
_SUBSTITUTIONS_OF = select(Substitution.seat, Substitution.player_id, Substitution.from_position).where(
    Substitution.tournament_id == bindparam("tournament_id"), Substitution.from_position <= bindparam("position"),
    Substitution.seat.in_(bindparam("places", expanding=True))).order_by(Substitution.from_position, Substitution.id)
_PLAYERS_OF = select(Player.id, Player.entrant_id, Player.surname, Player.first_name).where(
    Player.tournament_id == bindparam("tournament_id"),
    Player.entrant_id.in_(bindparam("places", expanding=True)) | Player.id.in_(bindparam("ids", expanding=True)))


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
        players = {row[0]: row for row in read_columns(session, _PLAYERS_OF, {
            "tournament_id": tournament.id, "places": places, "ids": [player_id for _, player_id, _ in subs]})}
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

_IN_PLAY = select(PositionClock.position).where(PositionClock.tournament_id == bindparam("tournament_id"))


def position_in_play(session: Session, tournament: Tournament) -> int | None:
    """The position in play: the one the arbiter launched last (« Lancer la position », `_live`'s clock);
    None before he launches one (then nothing is launched). The statement is built once (issue 30)."""
    return read_columns(session, _IN_PLAY, {"tournament_id": tournament.id}).scalar()


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
_PEOPLE = select(Player.id, Player.entrant_id, Player.surname, Player.first_name, Substitution.seat,
                 Substitution.from_position, Substitution.id).select_from(Player).outerjoin(
    Substitution, (Substitution.player_id == Player.id) & (Substitution.tournament_id == bindparam("tournament_id"))
).where(Player.tournament_id == bindparam("tournament_id"),
        Player.entrant_id.in_(bindparam("named", expanding=True)) | Substitution.seat.in_(bindparam("named", expanding=True)))


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
    waiting = [line.position for line in lines if line.position in launched and line_status(line.result) != DONE]
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


_REFUSED_CODES = select(func.count(JournalEntry.id)).where(
    JournalEntry.tournament_id == bindparam("tournament_id"), JournalEntry.action == CODE_REFUSED)


def table_version(session: Session, tournament: Tournament, position: int | None) -> str:
    """What `table_view` answers can change only with this text (issue 30: the phone asks again while it
    waits — for the launch, for another phone's confirmation — and is answered « nothing new » at the
    cost of two reads): the hall's version (`_live.hall_version`: the data, the clock), the refused codes
    of the tournament (the lock, `CODE_REFUSED`: journal entries, which raise no data version) and the
    position asked for."""
    refused = read_columns(session, _REFUSED_CODES, {"tournament_id": tournament.id}).scalar_one()
    return f"{hall_version(session, tournament)}-{refused}-{position or ''}"


def table_view(session: Session, tournament: Tournament, table: int, position: int | None = None) -> dict:
    """The SPEC §12 ``GET /api/table/<secret>`` answer: tournament, table, position (`_shown_position`),
    seats with names, the position's étuis with their taker and status; plus what the page needs: the
    tournament's name and kind, the table's positions, each étui's taker seat and confirming seats, the
    position in play, whether this position is ``launched`` (entry allowed), whether its scores are shown
    (`scores_shown`: the table's own score and chelem — and the quadrette's named attacker — only then),
    whether confirmation is ``locked`` (too many refused codes), whether the other tables' scores may be
    asked for."""
    kind = _kind(tournament)
    lines, takers, names_at = _table_rows(session, tournament, table)
    positions = sorted({line.position for line in lines if line.position is not None})
    settings = tournament.settings or {}
    in_play = position_in_play(session, tournament)
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
        item: dict[str, Any] = {"number": line.board, "taker": line.taker, "status": line_status(line.result),
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
            "locked": launched and refused_attempts(session, tournament, CODE_REFUSED, table, position) >= MAX_REFUSED_CODES,
            "others_visible": bool(settings.get("table_results")) and (is_published(tournament) or position == in_play)}


# --- entry and confirmation ---------------------------------------------------------------------------------------

def _int(payload: Mapping, name: str, label: str) -> int:
    value = payload.get(name)
    if isinstance(value, str) and french.digits(value.strip().lstrip("+-−")):  # « ٣٣ », « ² »: refused below
        value = parse_score(value) if name == "score" else int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool):
        raise OperationError(f"{label} : un nombre entier est attendu.", name)
    return value


def table_score(kind: TournamentKind, payload: Mapping) -> tuple[int, bool, str | None]:
    """The score a table sends — ``score`` (with ``chelem`` true if the fiche marks one), or the deal's
    facts — checked by the core: ``(score, chelem, contract)``; `OperationError` in French otherwise."""
    contract = payload.get("contract")
    if contract is not None and not isinstance(contract, str):  # a list or an object: not a contract's name
        raise OperationError("Contrat : un nom est attendu (« garde », « garde_sans » ou « garde_contre »).",
                             "contract")
    if contract is not None and contract not in CONTRACTS and contract != "prise":
        raise OperationError(f"Contrat inconnu « {contract} ».", "contract")
    if contract not in (None, "garde") and format_for(kind).bid_contract(contract) is None:
        raise OperationError("En duplicate, le contrat est imposé : Garde.", "contract")
    if contract == "prise":
        raise OperationError("En match par équipes, les contrats sont Garde, Garde Sans ou Garde Contre.", "contract")
    try:
        if "points" in payload or "bouts" in payload:
            points, bouts = _int(payload, "points", "Points"), _int(payload, "bouts", "Bouts")
            poignees = payload.get("poignees") or []
            if not isinstance(poignees, list) or any(p not in POIGNEES for p in poignees):
                raise OperationError("Poignées : « simple », « double » ou « triple ».", "poignees")
            petit, chelem = payload.get("petit_au_bout"), payload.get("chelem")
            if petit not in (None, *PETIT_AU_BOUT):
                raise OperationError("Petit au bout : au preneur (« taker ») ou à la défense (« defence »).",
                                     "petit_au_bout")
            if chelem not in (None, *CHELEMS):
                raise OperationError("Chelem inconnu.", "chelem")
            score = score_facts(contract or "garde", points, bouts, poignees, petit, chelem)
            return score, chelem is not None, contract
        score = _int(payload, "score", "Score")
        chelem = payload.get("chelem")
        if chelem not in (None, True, False, *CHELEMS):
            raise OperationError("Chelem inconnu.", "chelem")
        return score, bool(chelem), contract
    except ScoreError as error:
        message = str(error)
        raise OperationError(message[0].upper() + message[1:] + ".", "score") from None


def _attacker(kind: TournamentKind, payload: Mapping) -> str | None:
    """Quadrettes: the player id of the attacker the table names (``attacker``), None when it names none;
    membership of the attacking quadrette is checked with the line (`check_new_result`)."""
    attacker = payload.get("attacker")
    if attacker is None or attacker == "" or format_for(kind).who_attacks != "named":
        return None
    if not isinstance(attacker, str):
        raise OperationError("Attaquant : l’identifiant d’un joueur de la quadrette est attendu.", "attacker")
    return attacker.strip() or None


def _line(session: Session, tournament: Tournament, table: int, board: Any,
          context: CheckContext | None = None) -> Line:
    if not isinstance(board, int) or isinstance(board, bool):
        raise OperationError("Numéro d’étui attendu (« board »).", "board")
    # that étui's line only: its one result read as an entity (a write may change it), not the table's;
    # ``context``: the entry's check, whose lookup of the line's entrants tells the placed ones (`all_lines`)
    for line in all_lines(session, tournament, table=table, boards={board}, pending=True, context=context):
        if line.in_movement:
            return line
    raise OperationError(f"L’étui {board} ne se joue pas à la table {table}.", "board")


class TableConflict(ConflictError):
    """A table's score differs from its étui's done line: refused (409) and flagged to the arbiter;
    ``board`` and ``stored`` (the score that stands, None when the link may not show it) for the answer."""

    def __init__(self, message: str, board: int, stored: int | None):
        super().__init__(message)
        self.board, self.stored = board, stored


def _locked(session: Session, result: Result | None) -> Result | None:
    """From here on the request writes (`db.begin_writing`: on SQLite, the write lock): the table's line,
    read before, read again — another phone of the table may have entered, corrected or confirmed it
    meanwhile. A line that was empty and is no longer is found by the check of the new line."""
    if not begin_writing(session) or result is None:
        return result
    return session.get(Result, result.id, populate_existing=True, execution_options={WITH_PENDING: True})


class RefusedAttempt(OperationError):
    """A refusal the journal keeps (who tried what): the caller commits before answering 422."""


def _refuse(session: Session, tournament: Tournament, action: str, summary: str, after: dict, message: str,
            field: str, *, once: bool = False) -> None:
    """Journal a refused attempt — with ``once``, unless the same one is journalled already — and raise
    `RefusedAttempt`."""
    if not (once and after in session.exec(select(JournalEntry.after).where(
            JournalEntry.tournament_id == tournament.id, JournalEntry.action == action)).all()):
        begin_writing(session)
        journal(session, tournament, action=action, who=f"table {after['table']}", summary=summary, after=after)
    raise RefusedAttempt(message, field)


def _not_launched(session: Session, tournament: Tournament, table: int, line: Line) -> None:
    """An étui of a position the arbiter has not launched: refused; journalled once per table, étui, position
    (a link holder cannot flood the journal)."""
    _refuse(session, tournament, NOT_LAUNCHED,
            f"Étui {line.board}, table {table} : saisie refusée, la position {line.position} n’est pas lancée.",
            {"table": table, "position": line.position, "étui": line.board},
            f"L’arbitre n’a pas encore lancé la position {line.position} : l’étui {line.board} se saisit une fois "
            "la position lancée.", "board", once=True)


@dataclass
class TableEntry:
    """What a table's entry did: ``result`` (its line), ``status`` (``pending`` or ``done``), ``written``."""

    result: Result
    status: str
    written: bool


def record_table_result(session: Session, tournament: Tournament, table: int, payload: Any) -> TableEntry:
    """The North's entry of one étui (SPEC §12 ``POST /api/table/<secret>/results``), checked like a paper
    line, stored pending. Idempotent: the same score again writes nothing. A pending line takes a new
    score (the North corrects it before confirmation). An impossible score is refused before anything else
    (`check_entered_score`); a line the arbiter settled raises `SettledLine` (nothing flagged). On a done
    line a different score raises `TableConflict` after flagging it to the arbiter (`flag_conflict`: the
    caller commits that flag); a done line whose scores this link may not read (`scores_shown`) gets one
    answer whatever is sent, without its score, so that sending guesses learns nothing."""
    if not isinstance(payload, dict):
        raise OperationError("Un objet JSON est attendu : {\"board\": 5, \"score\": 56}.")
    kind = _kind(tournament)
    context = CheckContext(session, tournament)  # the movement, the étui, the seated: read before the write lock
    line = _line(session, tournament, table, payload.get("board"), context)
    in_play = position_in_play(session, tournament)
    if not is_launched(in_play, line.position):
        _not_launched(session, tournament, table, line)
    score, chelem, contract = table_score(kind, payload)
    check_entered_score(score, contract, chelem)  # an impossible score: 422, never a conflict
    who = f"table {table}"
    context.prepare_entrants({line.board}, {line.taker, *line.defence})
    attacker = _attacker(kind, payload)
    result = _locked(session, line.result)
    same = result is not None and result.score == score and bool(result.chelem) == chelem \
        and (contract is None or contract == (result.contract or "garde")) \
        and (attacker is None or attacker == result.attacker or result.status != PENDING)
    if result is not None and result.status != PENDING \
            and not scores_shown(tournament, in_play, line.position):
        # a done line this link may not read: one answer whatever was sent, so that a guess learns nothing
        if not same and not settled_by_arbiter(session, result):
            flag_conflict(session, tournament, result, source="table", score=score, chelem=chelem, who=who)
        raise TableConflict(f"L’étui {line.board} est déjà confirmé à cette table et sa position n’est plus en "
                            "jeu : la table ne le modifie plus ; adressez-vous à l’arbitre.", line.board, None)
    if same:
        return TableEntry(result, line_status(result), written=False)  # a confirmed line's attacker: the arbiter's
    refuse_if_settled(session, result)  # the arbiter has decided this line: 409, nothing flagged
    if result is not None and result.status != PENDING:
        flag_conflict(session, tournament, result, source="table", score=score, chelem=chelem, who=who)
        raise TableConflict(f"L’étui {line.board} est déjà enregistré à cette table avec {french.score(result.score)} : "
                            f"votre score {french.score(score)} est signalé à l’arbitre, qui tranchera.", line.board,
                            result.score)
    fields = line.fields(kind)
    fields.update(score=score, chelem=chelem)
    if format_for(kind).bid_contract(contract) is not None:
        fields["contract"] = contract
    if attacker is not None:
        fields["attacker"] = attacker
    with session.no_autoflush:
        if result is None:
            result = check_new_result(session, tournament, entered_by=who, context=context, **fields)
            result.status, result.origin = PENDING, ORIGIN_TABLE
            write_results(session, [result], [], context)
            action = "table.enter"
            summary = f"Étui {line.board}, table {table} : {french.score(score)} saisi à la table (en attente)."
        else:
            before = result.score
            change = check_change(session, result, version_id=None, who=who, action="table", context=context,
                                  score=score, chelem=chelem, **({"contract": contract} if "contract" in fields else {}),
                                  **({"attacker": attacker} if attacker is not None else {}))
            write_results(session, [], [change], context)
            action = "table.correct"
            summary = (f"Étui {line.board}, table {table} : {french.score(before)} corrigé en {french.score(score)} à la "
                       "table (en attente).")
    journal(session, tournament, action=action, who=who, summary=summary,
            after={"étui": line.board, "table": table, "score": french.score(score)})
    return TableEntry(result, PENDING, written=True)


def confirm_table_result(session: Session, tournament: Tournament, table: int, board: Any, seat: Any,
                         code: Any = None) -> Result:
    """A defender confirms the North's line (SPEC §12 ``POST …/results/<board>/confirm``) with his seat and his
    personal code (`_codes.player_code` of whoever sits at that seat at that position: a substitute's own,
    in team formats the team's). The taker's seat (in triplettes his partner's too), a wrong code, the
    taker's code: `RefusedAttempt` (422), journalled; after `MAX_REFUSED_CODES` refusals at the table for the
    position, the phone confirms no more there (the arbiter settles the line from the paper fiche). A good
    code: the line is done and counts, the journal names the confirmer. Confirming a done line again
    changes nothing. `NotFound` when nothing is entered for that étui."""
    kind = _kind(tournament)
    line = _line(session, tournament, table, board)
    result = line.result
    if result is None:
        raise NotFound(f"Rien n’est saisi pour l’étui {board} à cette table : le Nord saisit d’abord le score.")
    if not is_launched(position_in_play(session, tournament), line.position):
        raise OperationError(f"L’arbitre n’a pas encore lancé la position {line.position}.", "board")
    if seat not in [s.value for s in SEATS]:
        raise OperationError("Choisissez votre place : N, S, E ou W (Nord, Sud, Est, Ouest).", "seat")
    position = line.position
    if refused_attempts(session, tournament, CODE_REFUSED, table, position) >= MAX_REFUSED_CODES:
        raise OperationError(f"{MAX_REFUSED_CODES} confirmations refusées à cette table pour la position {position} : "
                             "le téléphone ne confirme plus, appelez l’arbitre, la fiche papier fait foi.", "locked")
    # the étui's taker seat as `_line` read it (its lines are built from it): not read again
    seat_t = taker_seat(kind, line, None if line.taker_seat is not None
                        else board_takers(session, tournament, numbers={line.board}))
    seated = _seated(session, tournament, position, {line.taker, *line.defence})
    taker = seated.get(line.taker, (line.taker, line.taker))
    where = f"Étui {line.board}, table {table}, position {position}"
    after = {"table": table, "position": position, "étui": line.board, "place": seat}
    if seat == ENTERING_SEAT and seat != seat_t:
        _refuse(session, tournament, CODE_REFUSED, f"{where} : confirmation refusée, place du Nord, qui a saisi le "
                "score.", after, "C’est la place du Nord, qui a saisi le score : un autre défenseur le confirme, "
                "avec son code.", "seat")
    if seat not in format_for(kind).defender_seats(seat_t):
        role = "du preneur" if seat == seat_t else "du partenaire du preneur"
        _refuse(session, tournament, CODE_REFUSED, f"{where} : confirmation refusée, place {role} ({_seat_name(seat)}, "
                f"preneur {taker[0]} {taker[1]}).", after,
                f"C’est la place {role} ({_seat_name(seat)}) : "
                f"{'le preneur' if seat == seat_t else 'le partenaire du preneur'} ne confirme pas son propre score, "
                "un défenseur le confirme.", "seat")
    ident, name = seated.get(format_for(kind).defender_at(line.seats, line.defence, seat), ("", ""))
    if not code_matches(tournament, ident, code):
        # whose code it was, if another player's of that line (the journal says who tried what)
        whose = next((other for other in seated.values() if other[0] != ident
                      and code_matches(tournament, other[0], code)), None)
        owner = ("" if whose is None else f", c’est celui du preneur {taker[0]} {taker[1]}" if whose == taker
                 else f", c’est celui de {whose[0]} {whose[1]}")
        _refuse(session, tournament, CODE_REFUSED,
                f"{where} : code refusé pour {_seat_name(seat)} ({ident} {name}){owner}.", after,
                "C’est le code du preneur : un défenseur confirme avec son propre code." if whose == taker else
                f"Code incorrect pour {_seat_name(seat)} : le score n’est pas confirmé (votre code est sur votre "
                "fiche individuelle de mouvement).", "code")
    result = _locked(session, result)
    if result is None:
        raise NotFound(f"Rien n’est saisi pour l’étui {board} à cette table : le Nord saisit d’abord le score.")
    if result.status != PENDING:
        return result
    before = {"étui": result.board, "table": table, "score": french.score(result.score), "statut": "en attente"}
    result.status = DONE
    result.updated_at = utcnow()
    write_results(session, [], [(result, "confirm", interchange.result_to_dict(result), None,
                                 f"table {table} ({seat}, {ident})")])
    journal(session, tournament, action="table.confirm", who=f"table {table}",
            summary=f"Étui {result.board}, table {table} : {french.score(result.score)} confirmé par la défense "
                    f"({_seat_name(seat)}, {ident} {name}).", before=before,
            after={**before, "statut": "confirmé", "confirmé par": {"place": seat, "joueur": ident, "nom": name}})
    return result


def board_results(session: Session, tournament: Tournament, table: int, board: Any) -> dict:
    """The done lines of étui ``board`` (SPEC §12 ``GET /api/table/<secret>/boards/<n>``) when all hold:
    the arbiter allows it (``settings["table_results"]``), this table's own line on it — at the position
    the movement gives it — is done, and that position is the one in play (before publication: once the
    arbiter launches the next one, the people holding the link have moved and play other étuis). Else
    `PermissionError` (French)."""
    line = _line(session, tournament, table, board)
    if not (tournament.settings or {}).get("table_results"):
        raise PermissionError("L’arbitre ne montre pas les scores des autres tables pendant le tournoi.")
    if line_status(line.result) != DONE:
        raise PermissionError("Les scores des autres tables se voient une fois votre score de cet étui confirmé.")
    in_play = position_in_play(session, tournament)
    if not is_published(tournament) and line.position != in_play:
        raise PermissionError(f"Les scores des autres tables de l’étui {line.board} se voient pendant la position "
                              f"{line.position} seulement, celle où votre table le joue.")
    lines = [other for other in all_lines(session, tournament, boards={board}) if other.result is not None]
    return {"board": board, "results": [
        {"table": other.table, "position": other.position, "score": other.result.score,
         "annulled": bool(other.result.annulled), "own": other.table == table} for other in lines]}


# --- what the arbiter sees: the conflicts ------------------------------------------------

def conflicts(session: Session, tournament: Tournament, *, open_only: bool = True) -> list[ResultConflict]:
    """The tournament's conflicts between entries (the open ones, by default), oldest first."""
    query = select(ResultConflict).where(ResultConflict.tournament_id == tournament.id)
    if open_only:
        query = query.where(ResultConflict.resolved_at.is_(None))
    return list(session.exec(query.order_by(ResultConflict.id)))


def conflict_result(session: Session, conflict: ResultConflict) -> Result:
    """The stored line a conflict is about (pending or done)."""
    return session.get(Result, conflict.result_id, execution_options={WITH_PENDING: True})


def resolve_conflict(session: Session, tournament: Tournament, conflict_id: int, *, keep: str,
                     who: str | None) -> Result:
    """The arbiter keeps one of the two scores: ``stored`` (the line as it is) or ``entry`` (the score of the
    conflicting entry replaces it). Either way the line is then done: the arbiter has settled it."""
    conflict = session.get(ResultConflict, conflict_id)
    if conflict is None or conflict.tournament_id != tournament.id:
        raise NotFound(f"Conflit n° {conflict_id} introuvable.")
    if conflict.resolved_at is not None:
        raise ConflictError("Ce conflit est déjà tranché.")
    if keep not in ("stored", "entry"):
        raise OperationError("Choisissez le score à garder.", "keep")
    result = conflict_result(session, conflict)
    before = french.score(result.score)
    if keep == "entry":
        change = check_change(session, result, version_id=None, who=who, action="resolve",
                              reason="conflit entre la table et la fiche papier", score=conflict.score,
                              chelem=conflict.chelem)
        result.status = DONE
        write_results(session, [], [change])
    elif result.status == PENDING:
        result.status = DONE
        write_results(session, [], [(result, "resolve", interchange.result_to_dict(result),
                                     "conflit entre la table et la fiche papier", who)])
    conflict.kept, conflict.resolved_by, conflict.resolved_at = keep, who, utcnow()
    session.flush()
    journal(session, tournament, action="result.resolve", who=who,
            summary=f"Étui {result.board}, table {result.table} : conflit tranché par l’arbitre, score gardé "
                    f"{french.score(result.score)} (l’autre : {before if keep == 'entry' else french.score(conflict.score)}).",
            before={"étui": result.board, "table": result.table, "score": before},
            after={"étui": result.board, "table": result.table, "score": french.score(result.score)})
    return result


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


def _seat_name(seat: str) -> str:
    return SEAT_NAMES.get(seat, seat)


