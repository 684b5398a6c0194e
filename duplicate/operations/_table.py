"""Scoring at the table (SPEC §12, issue 13): each table's link, what its phone shows, its lines entered
by the North and confirmed by a defender, the conflicts with the paper fiches.

* **The link.** Each table of the movement has a secret ``<tournament>.<table>.<code>``, the code an
  HMAC-SHA256 of the tournament and table under the tournament's own random ``table_key``: unguessable,
  valid for that tournament only, nothing to store per table (a GET never writes), and the same after a
  restart. The table's link is ``/table/<secret>`` (the phone page); its QR code is on the table's guide card.
* **Entry.** The North (rules of play, art. 28: the North keeps the score) enters an étui as its score or
  as the deal's facts, which `core.scoring.score_facts` turns into the score; the line is then checked as
  any other (`check_new_result`) and stored *pending*: it holds its slot, counts nowhere (`models.
  _counted_only`) until a defender confirms it on the same phone (the taker's seat, and in triplettes
  his partner's, cannot). The same content sent again is the same write (a retry after a lost answer);
  a pending line may be corrected by the table; a different score on a done line is refused (409) and
  flagged to the arbiter as a conflict, never merged.
* **Paper fiches** keep working: a paper score that disagrees with a line entered at the table is not
  written but flagged (`flag_conflict`); the arbiter keeps one (`resolve_conflict`), which settles the
  line (done).
* **Other tables' scores** on an étui are shown to a table only once its own line on it is done, and
  only if the arbiter allows it (``settings["table_results"]``; SPEC §11: a table may see the results of
  an étui it has itself played and entered).
* **Position.** The table's page opens at its first position with an étui not done, unless the arbiter
  set another (``settings["table_position"]``).

Everything that changes a line is in the result's history and the tournament's journal.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Mapping

from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.cards import SEATS
from duplicate.core.formats import format_for
from duplicate.core.scoring import ScoreError, score_facts
from duplicate.db import begin_writing
from duplicate.models import (
    DONE, PENDING, WITH_PENDING, Player, Result, ResultConflict, Substitution, Team, Tournament, TournamentKind,
    utcnow,
)

from ._common import ConflictError, NotFound, OperationError, _kind
from ._deals import board_takers
from ._layout import movement_rounds
from ._journal import journal
from ._quadrettes import quadrette_attackers
from ._triplettes import triplette_plan
from ._results import CheckContext, check_change, check_new_result, flag_conflict, write_results
from ._results import check_entered_score, refuse_if_settled  # issue 28: one score check; settled lines
from ._scoring import CONTRACTS, Line, all_lines, parse_score

ORIGIN_TABLE = "table"
POIGNEES = ("simple", "double", "triple")
PETIT_AU_BOUT = ("taker", "defence")
CHELEMS = ("announced_made", "unannounced_made", "announced_failed", "defence")


# --- the tables' links ------------------------------------------------------------------------------------------

def table_secret(tournament: Tournament, table: int) -> str:
    """The secret of ``table``'s link: ``<tournament>.<table>.<22 characters>``."""
    mac = hmac.new(tournament.table_key.encode(), f"tarot-table/1|{tournament.id}|{table}".encode(),
                   hashlib.sha256).digest()[:16]
    return f"{tournament.id}.{table}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def table_numbers(session: Session, tournament: Tournament) -> list[int]:
    """The tables of the movement (none before a movement is chosen)."""
    movement = movement_rounds(session, tournament)
    return sorted(table for table in (movement.by_table if movement is not None else ())
                  if isinstance(table, int) and not isinstance(table, bool))


def table_links(session: Session, tournament: Tournament) -> list[dict]:
    """``{"table", "secret", "path"}`` of every table (``path``: the phone page, to be made absolute)."""
    return [{"table": t, "secret": table_secret(tournament, t), "path": f"/table/{table_secret(tournament, t)}"}
            for t in table_numbers(session, tournament)]


def find_table(session: Session, secret: str) -> tuple[Tournament, int]:
    """The tournament and table of a link's secret; `NotFound` (French) for anything else."""
    unknown = NotFound("Lien de table inconnu : scannez de nouveau le QR code de la table ou demandez à "
                       "l’arbitre.")
    parts = str(secret).split(".")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or len(parts[0]) > 9 or len(parts[1]) > 4:
        raise unknown
    tournament = session.get(Tournament, int(parts[0]))
    if tournament is None or not hmac.compare_digest(table_secret(tournament, int(parts[1])), str(secret)):
        raise unknown
    if format_for(tournament.kind).free_play:  # no étui: its page is `operations.freeplay_table`'s
        raise unknown
    if int(parts[1]) not in table_numbers(session, tournament):
        raise unknown
    return tournament, int(parts[1])


# --- what the table's phone shows -------------------------------------------------------------------------------

def line_status(result: Result | None) -> str:
    """``todo`` (nothing entered), ``pending`` (awaiting a defender's confirmation) or ``done``."""
    return "todo" if result is None else (PENDING if result.status == PENDING else DONE)


def _names(session: Session, tournament: Tournament, position: int) -> dict[str, str]:
    """Entrant id → name as seated at ``position`` (a substitute from his position on, SPEC §11)."""
    if not format_for(tournament.kind).ranks_players:
        return dict(session.exec(select(Team.entrant_id, Team.name).where(Team.tournament_id == tournament.id,
                                                                          Team.entrant_id.is_not(None))).all())
    players = list(session.exec(select(Player).where(Player.tournament_id == tournament.id)))
    names = {p.entrant_id: p.name for p in players if p.entrant_id}
    by_id = {p.id: p for p in players}
    for sub in session.exec(select(Substitution).where(Substitution.tournament_id == tournament.id)):
        if sub.from_position <= position and sub.player_id in by_id:
            names[sub.seat] = by_id[sub.player_id].name
    return names


def taker_seat(kind: TournamentKind, line: Line, takers: Mapping[int, str]) -> str:
    """The seat the taker sits at: the étui's taker seat; South in quadrettes and team matches (SPEC §2)."""
    fixed = format_for(kind).taker_seat
    if fixed is not None:
        return fixed
    return takers.get(line.board, SEATS[(line.board - 1) % 4].value)


def defender_seats(kind: TournamentKind, seat: str) -> list[str]:
    """The seats that may confirm a line: the defenders' (in triplettes not the taker's partner)."""
    fmt = format_for(kind)
    if not fmt.ranks_players and not fmt.split_roles:   # triplettes: the line not holding the taker seat
        return list(next(line for line in fmt.seats if seat not in line))
    return [s.value for s in SEATS if s.value != seat]


def _table_lines(session: Session, tournament: Tournament, table: int) -> list[Line]:
    return [line for line in all_lines(session, tournament, table=table, pending=True) if line.in_movement]


def table_view(session: Session, tournament: Tournament, table: int, position: int | None = None) -> dict:
    """The SPEC §12 ``GET /api/table/<secret>`` answer: tournament, table, position (``position`` if the
    table asks for one it plays, else the arbiter's, else its first position with an étui not done),
    seats with names, the position's étuis with their taker and status; plus what the page needs: the
    tournament's name and kind, the table's positions, each étui's taker seat and confirming seats, the
    table's own score once entered, whether the other tables' scores may be shown."""
    kind = _kind(tournament)
    lines = _table_lines(session, tournament, table)
    positions = sorted({line.position for line in lines if line.position is not None})
    settings = tournament.settings or {}
    if position not in positions:
        position = settings.get("table_position") if settings.get("table_position") in positions else None
    if position is None:
        waiting = [line.position for line in lines if line_status(line.result) != DONE and line.position is not None]
        position = min(waiting) if waiting else (positions[-1] if positions else None)
    here = [line for line in lines if line.position == position]
    takers = board_takers(session, tournament)
    names = _names(session, tournament, position or 0)
    seats = {seat: {"id": ident, "name": names.get(ident, ident)} for seat, ident in (here[0].seats if here else {}).items()}
    fmt = format_for(kind)
    plan = triplette_plan(session, tournament) if fmt.badges else None
    quadrettes = quadrette_attackers(session, tournament) if fmt.chosen_attacker else {}
    boards = []
    for line in sorted(here, key=lambda line: line.board):
        seat = taker_seat(kind, line, takers)
        item: dict[str, Any] = {"number": line.board, "taker": line.taker, "status": line_status(line.result),
                                "taker_seat": seat, "taker_name": names.get(line.taker, line.taker),
                                "confirm_seats": defender_seats(kind, seat)}
        if plan is not None and plan.attacker(line.board, line.taker):
            item["attack"] = plan.attacker(line.board, line.taker)  # triplettes: who attacks, his badge (SPEC §5)
        if fmt.chosen_attacker:  # quadrettes: the North says who of the quadrette took; the usual one first
            team = quadrettes.get(line.taker, {})
            item["attackers"] = [list(member) for member in team.get("members", [])]
            item["attacker"] = line.result.attacker if line.result is not None and line.result.attacker \
                else team.get("usual")
        if line.result is not None:
            item.update(score=line.result.score, chelem=bool(line.result.chelem))
        boards.append(item)
    return {"tournament": tournament.id, "table": table, "position": position, "seats": seats, "boards": boards,
            "name": tournament.name, "kind": kind.value, "positions": positions,
            "others_visible": bool(settings.get("table_results"))}


# --- entry and confirmation ---------------------------------------------------------------------------------------

def _int(payload: Mapping, name: str, label: str) -> int:
    value = payload.get(name)
    if isinstance(value, str) and value.strip().lstrip("+-−").isdigit():
        value = parse_score(value) if name == "score" else int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool):
        raise OperationError(f"{label} : un nombre entier est attendu.", name)
    return value


def table_score(kind: TournamentKind, payload: Mapping) -> tuple[int, bool, str | None]:
    """The score a table sends — ``score`` (with ``chelem`` true if the fiche marks one), or the deal's
    facts — checked by the core: ``(score, chelem, contract)``; `OperationError` in French otherwise."""
    contract = payload.get("contract")
    if contract is not None and contract not in CONTRACTS and contract != "prise":
        raise OperationError(f"Contrat inconnu « {contract} ».", "contract")
    if not format_for(kind).free_contracts and contract not in (None, "garde"):
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
    if attacker is None or attacker == "" or not format_for(kind).chosen_attacker:
        return None
    if not isinstance(attacker, str):
        raise OperationError("Attaquant : l’identifiant d’un joueur de la quadrette est attendu.", "attacker")
    return attacker.strip() or None


def _line(session: Session, tournament: Tournament, table: int, board: Any) -> Line:
    if not isinstance(board, int) or isinstance(board, bool):
        raise OperationError("Numéro d’étui attendu (« board »).", "board")
    for line in _table_lines(session, tournament, table):
        if line.board == board:
            return line
    raise OperationError(f"L’étui {board} ne se joue pas à la table {table}.", "board")


class TableConflict(ConflictError):
    """A table's score differs from its étui's done line: refused (409) and flagged to the arbiter;
    ``board`` and ``stored`` (the score that stands) for the answer."""

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


@dataclass
class TableEntry:
    """What a table's entry did: ``result`` (its line), ``status`` (``pending`` or ``done``), ``written``."""

    result: Result
    status: str
    written: bool


def record_table_result(session: Session, tournament: Tournament, table: int, payload: Any) -> TableEntry:
    """The North's entry of one étui (SPEC §12 ``POST /api/table/<secret>/results``), checked like a paper
    line, stored pending. Idempotent: the same score again writes nothing. A pending line takes a new
    score (the North corrects it before confirmation). On a done line a different score raises
    `TableConflict` after flagging it to the arbiter (`flag_conflict`: the caller commits that flag)."""
    if not isinstance(payload, dict):
        raise OperationError("Un objet JSON est attendu : {\"board\": 5, \"score\": 56}.")
    kind = _kind(tournament)
    line = _line(session, tournament, table, payload.get("board"))
    score, chelem, contract = table_score(kind, payload)
    check_entered_score(score, contract, chelem)  # an impossible score: 422, never a conflict
    who = f"table {table}"
    context = CheckContext(session, tournament)  # the movement, the étui, the seated: read before the write lock
    context.prepare_entrants({line.board}, {line.taker, *line.defence})
    attacker = _attacker(kind, payload)
    result = _locked(session, line.result)
    if result is not None and result.score == score and bool(result.chelem) == chelem \
            and (contract is None or contract == (result.contract or "garde")) \
            and (attacker is None or attacker == result.attacker or result.status != PENDING):
        return TableEntry(result, line_status(result), written=False)  # a confirmed line's attacker: the arbiter's
    refuse_if_settled(session, result)  # the arbiter has decided this line: 409, nothing flagged
    if result is not None and result.status != PENDING:
        flag_conflict(session, tournament, result, source="table", score=score, chelem=chelem, who=who)
        raise TableConflict(f"L’étui {line.board} est déjà enregistré à cette table avec {french.score(result.score)} : "
                            f"votre score {french.score(score)} est signalé à l’arbitre, qui tranchera.", line.board,
                            result.score)
    fields = line.fields(kind)
    fields.update(score=score, chelem=chelem)
    if contract is not None and format_for(kind).free_contracts:
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


def confirm_table_result(session: Session, tournament: Tournament, table: int, board: Any, seat: Any) -> Result:
    """A defender confirms the North's line (SPEC §12 ``POST …/results/<board>/confirm``): ``seat`` must be
    a defender's; the taker's (or his partner's) is refused. Then the line is done and counts. Confirming
    a done line again changes nothing. `NotFound` when nothing is entered for that étui."""
    kind = _kind(tournament)
    line = _line(session, tournament, table, board)
    result = line.result
    if result is None:
        raise NotFound(f"Rien n’est saisi pour l’étui {board} à cette table : le Nord saisit d’abord le score.")
    seat_t = taker_seat(kind, line, board_takers(session, tournament, numbers={line.board}))
    if seat not in [s.value for s in SEATS]:
        raise OperationError("Choisissez votre place : N, S, E ou W (Nord, Sud, Est, Ouest).", "seat")
    if seat not in defender_seats(kind, seat_t):
        who = "le preneur" if seat == seat_t else "le partenaire du preneur"
        raise OperationError(f"C’est la place {'du preneur' if seat == seat_t else 'du partenaire du preneur'} "
                             f"({_seat_name(seat)}) : {who} ne confirme pas son propre score, un défenseur "
                             "le confirme.", "seat")
    result = _locked(session, result)
    if result is None:
        raise NotFound(f"Rien n’est saisi pour l’étui {board} à cette table : le Nord saisit d’abord le score.")
    if result.status != PENDING:
        return result
    before = {"étui": result.board, "table": table, "score": french.score(result.score), "statut": "en attente"}
    result.status = DONE
    result.updated_at = utcnow()
    write_results(session, [], [(result, "confirm", interchange.result_to_dict(result), None, f"table {table} ({seat})")])
    journal(session, tournament, action="table.confirm", who=f"table {table}",
            summary=f"Étui {result.board}, table {table} : {french.score(result.score)} confirmé par la défense "
                    f"({_seat_name(seat)}).", before=before, after={**before, "statut": "confirmé"})
    return result


def board_results(session: Session, tournament: Tournament, table: int, board: Any) -> dict:
    """The done lines of étui ``board`` (SPEC §12 ``GET /api/table/<secret>/boards/<n>``), once this table's
    own line on it is done and if the arbiter allows it; else `PermissionError` (French)."""
    line = _line(session, tournament, table, board)
    if line_status(line.result) != DONE:
        raise PermissionError("Les scores des autres tables se voient une fois votre score de cet étui confirmé.")
    if not (tournament.settings or {}).get("table_results"):
        raise PermissionError("L’arbitre ne montre pas les scores des autres tables pendant le tournoi.")
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
    return {"N": "Nord", "S": "Sud", "E": "Est", "W": "Ouest"}.get(seat, seat)


