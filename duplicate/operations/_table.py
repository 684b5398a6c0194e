"""Scoring at the table (SPEC §12, issue 13): its lines entered by the North and confirmed by a defender,
the other tables' scores of an étui. The link is `_table_links`'s, what the phone shows `_table_view`'s,
the conflicts with the paper fiches `_table_conflicts`'s.

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
  of a confirmation names the confirmer. `_table_links.table_codes` lists the codes for the arbiter and the
  cards.
* **Other tables' scores** on an étui are shown to a table only if the arbiter allows it
  (``settings["table_results"]``), once its own line on it — at the position the movement gives it — is done,
  and while that position is in play (SPEC §11: a table may see the results of an étui it has itself played
  and entered; after the position, the link's holders are other players). After publication the option
  and the done line suffice.

Everything that changes a line is in the result's history and the tournament's journal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.cards import SEAT_NAMES, SEATS
from duplicate.core import formats
from duplicate.core.formats import format_for
from duplicate.core.scoring import ScoreError, score_facts
from duplicate.db import begin_writing
from duplicate.models import (
    DONE, PENDING, WITH_PENDING, JournalEntry, Result, Tournament, TournamentKind, utcnow,
)

from ._codes import CODE_REFUSED, MAX_REFUSED_CODES, code_matches, refused_attempts
from ._common import ConflictError, NotFound, OperationError, _kind
from ._deals import board_takers
from ._journal import journal
from ._publishing import is_published
from ._results import (
    CheckContext, check_change, check_entered_score, check_new_result, flag_conflict, refuse_if_settled,
    settled_by_arbiter, write_results,
)
from ._scoring import CONTRACTS, ORIGIN_TABLE, Line, all_lines, parse_score
from ._table_view import _seated, is_launched, phone_status, position_in_play, scores_shown, taker_seat

POIGNEES = ("simple", "double", "triple")
PETIT_AU_BOUT = ("taker", "defence")
CHELEMS = ("announced_made", "unannounced_made", "announced_failed", "defence")
ENTERING_SEAT = formats.ENTERING_SEAT    # the North enters the score; another defender confirms it
NOT_LAUNCHED = "table.not_launched"      # an entry for a position not launched: journalled once per étui


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
        return TableEntry(result, phone_status(result), written=False)  # a confirmed line's attacker: the arbiter's
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
    if phone_status(line.result) != DONE:
        raise PermissionError("Les scores des autres tables se voient une fois votre score de cet étui confirmé.")
    in_play = position_in_play(session, tournament)
    if not is_published(tournament) and line.position != in_play:
        raise PermissionError(f"Les scores des autres tables de l’étui {line.board} se voient pendant la position "
                              f"{line.position} seulement, celle où votre table le joue.")
    lines = [other for other in all_lines(session, tournament, boards={board}) if other.result is not None]
    return {"board": board, "results": [
        {"table": other.table, "position": other.position, "score": other.result.score,
         "annulled": bool(other.result.annulled), "own": other.table == table} for other in lines]}


def _seat_name(seat: str) -> str:
    return SEAT_NAMES.get(seat, seat)


