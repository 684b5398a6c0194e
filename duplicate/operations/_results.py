"""Results (the lines of the fiches ambulantes), the arbiter's adjustments, their history; penalties.

Every new or changed result is checked, with the other results of its étui, by the core's tournament
reader (`core.tournament.read_tournament`) before anything is written. A result changed from a stale form
(``version_id``) or by a concurrent transaction (SQLAlchemy's version counter) raises `ConflictError`;
so does a second score for an étui at a table (at a room, in a team match) that already has one — found
before writing, or, when two scorers save at the same moment, by the database's unique constraint.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.scoring import ScoreError, check_score
from duplicate.core.tournament import TournamentError, read_tournament
from duplicate.models import (
    Board, Movement, Penalty, Player, Result, ResultHistory, Team, Tournament, TournamentKind, result_slot, utcnow,
)

from ._common import ConflictError, NotFound, OperationError, _clean, _entrants, _kind
from ._journal import journal

def get_result(session: Session, tournament: Tournament, result_id: int) -> Result:
    result = session.get(Result, result_id)
    if result is None or result.tournament_id != tournament.id:
        raise NotFound(f"Résultat n° {result_id} introuvable.")
    return result


def results(session: Session, tournament: Tournament, board: int | None = None) -> list[Result]:
    query = select(Result).where(Result.tournament_id == tournament.id)
    if board is not None:
        query = query.where(Result.board == board)
    return list(session.exec(query.order_by(Result.board, Result.position, Result.table, Result.id)))


def _core_message(error: TournamentError, rows: list[dict]) -> str:
    """The core's message, with the tables of the results it names instead of their rank in the file."""
    message = re.sub(r"^ligne \d+ : ", "", str(error))
    message = re.sub(r"^résultat n° \d+ (\(étui \d+, table \d+\) )?: ", "", message)

    def table(match: re.Match) -> str:
        index = int(match.group(2)) - 1
        where = f"la table {rows[index].get('table')}" if index < len(rows) else "un autre résultat"
        return f"(déjà à {where})" if match.group(1) else f"({where})"
    message = re.sub(r"\((déjà au )?résultat n° (\d+)\)", table, message)
    return message[0].upper() + message[1:] + ("" if message.endswith(".") else ".")


def _named(row: Mapping) -> set:
    """The entrants a result names (taker, defenders; or the two teams)."""
    return {row.get("taker"), *(row.get("defenders") or ()), row.get("taker_team"), row.get("defence_team")} - {None}


class CheckContext:
    """What results are checked against, read once per request straight from the rows (no file): who may
    play (entrant ids and lines), the étuis' numbers, the movement's rounds by étui, the results of each
    étui met so far (kept up to date as the request writes).

    Every rule the core checks on a result involves the results of its étui that share its table (room)
    or one of its entrants, and the movement's tables for that étui: a check reads those only, so its cost
    does not grow with the tournament. Build one per request (entrants, étuis and movement do not change
    while results are entered) and pass it to every `record_result` / `update_result` of the request."""

    def __init__(self, session: Session, tournament: Tournament):
        self.session, self.tournament_id = session, tournament.id
        kind = _kind(tournament)
        model = Player if kind is TournamentKind.individual else Team
        self.section = "players" if model is Player else "teams"
        self.lines = dict(session.exec(select(model.entrant_id, model.line).where(
            model.tournament_id == tournament.id, model.entrant_id.is_not(None))).all())
        numbers = session.exec(select(Board.number).where(Board.tournament_id == tournament.id)).all()
        self.base = {"kind": kind.value, "boards": [{"number": number} for number in numbers]}
        movement = session.exec(select(Movement.data).where(Movement.tournament_id == tournament.id)).first()
        self.rounds: dict[Any, list] | None = None
        if movement is not None:
            self.rounds = {}
            for round_ in movement.get("rounds", []) if isinstance(movement, dict) else []:
                for board in round_.get("boards", ()) if isinstance(round_, dict) else ():
                    self.rounds.setdefault(board, []).append(round_)
        self._results: dict[Any, dict[int, dict]] = {}

    def results_of(self, board: Any) -> dict[int, dict]:
        """Result id → SPEC §9 dict of étui ``board``'s stored results, in the order they were entered."""
        if board not in self._results:
            with self.session.no_autoflush:
                rows = self.session.exec(select(Result).where(Result.tournament_id == self.tournament_id,
                                                              Result.board == board).order_by(Result.id))
                self._results[board] = {r.id: interchange.result_to_dict(r) for r in rows}
        return self._results[board]

    def remember(self, result: Result) -> None:
        """A result the request has just written (new or changed)."""
        if result.board in self._results:
            self._results[result.board][result.id] = interchange.result_to_dict(result)

    def tournament(self, results: list[dict]) -> dict:
        """The tournament as the core reads it, with only ``results`` (of one étui) and the entrants they name."""
        named = set().union(*(_named(row) for row in results))
        data = {**self.base, self.section: [{"id": ident, "line": self.lines[ident]}
                                            for ident in sorted(named, key=str) if ident in self.lines],
                "results": results}
        if self.rounds is not None:
            board = results[-1].get("board") if results else None
            tables = {row.get("table") for row in results}
            data["movement"] = {"rounds": [r for r in self.rounds.get(board, []) if r.get("table") in tables]}
        return data


def _check_results(session: Session, tournament: Tournament, candidate: dict, replaces: Result | None,
                   context: CheckContext | None = None) -> None:
    """Read ``candidate`` through the core's tournament reader (`core.tournament.read_tournament`),
    exactly as ``rank`` would read it, with the results of its étui it could clash with: those at its
    table (room) or naming one of its entrants (``replaces`` left out)."""
    if candidate.get("score") is not None:
        contract = candidate.get("contract") or "garde"
        try:
            check = check_score(candidate["score"], contract, chelem=bool(candidate.get("chelem")))
        except ScoreError as error:
            raise OperationError(str(error), "contract") from None
        if not check.ok:
            raise OperationError(check.message[0].upper() + check.message[1:] + ".", "score")
    context = context or CheckContext(session, tournament)
    table, room, named = candidate.get("table"), candidate.get("room"), _named(candidate)
    rows = [row for ident, row in context.results_of(candidate.get("board")).items()
            if (replaces is None or ident != replaces.id)
            and (row.get("table") == table or room is not None and row.get("room") == room or _named(row) & named)]
    rows.append(candidate)
    try:
        read_tournament(context.tournament(rows))
    except TournamentError as error:
        raise OperationError(_core_message(error, rows)) from None


RESULT_FIELDS = ("board", "table", "position", "taker", "defenders", "taker_team", "defence_team", "score",
                 "annulled", "adjusted", "notes", "chelem", "contract", "quarter", "room")


def _result_fields(tournament: Tournament, fields: Mapping[str, Any]) -> dict:
    unknown = set(fields) - set(RESULT_FIELDS)
    if unknown:
        raise TypeError(f"unknown result fields: {sorted(unknown)}")
    values = dict(fields)
    if "defenders" in values and values["defenders"] is not None:
        values["defenders"] = list(values["defenders"])
    if _kind(tournament) is TournamentKind.individual and (values.get("taker_team") or values.get("defence_team")):
        raise OperationError("En individuel, le preneur et les défenseurs sont des joueurs.", "taker")
    return values


def _write(session: Session, result: Result, action: str, who: str | None, before: dict | None,
           reason: str | None = None) -> Result:
    result.updated_at = utcnow()
    if who is not None:
        result.entered_by = who
    try:
        session.flush()
    except StaleDataError:
        raise ConflictError("Ce résultat vient d'être modifié par quelqu'un d'autre : rechargez la page et "
                            "vérifiez-le avant de recommencer.") from None
    session.add(ResultHistory(result_id=result.id, who=who, action=action, before=before, reason=reason,
                              after=interchange.result_to_dict(result)))
    session.flush()
    return result


def record_result(session: Session, tournament: Tournament, *, entered_by: str | None = None,
                  context: CheckContext | None = None, **fields) -> Result:
    """Enter one line of a fiche ambulante: ``board``, ``table``, ``position``, then ``taker`` and
    ``defenders`` (individual) or ``taker_team`` and ``defence_team``, ``score``, ``chelem``; team match
    adds ``contract``, ``quarter``, ``room``. Checked by the core before anything is written (``context``:
    see `CheckContext`)."""
    values = _result_fields(tournament, fields)
    for name in ("board", "table"):
        if not isinstance(values.get(name), int) or isinstance(values.get(name), bool) or values[name] < 1:
            raise OperationError(f"Le numéro {'d’étui' if name == 'board' else 'de table'} est obligatoire.", name)
    slot = result_slot(values["table"], values.get("room"))

    def taken() -> bool:
        return session.exec(select(Result.id).where(Result.tournament_id == tournament.id, Result.slot == slot,
                                                    Result.board == values["board"])).first() is not None
    if taken():
        raise _taken(values)
    candidate = interchange.result_to_dict(Result(tournament_id=tournament.id, **values))
    try:
        _check_results(session, tournament, candidate, None, context)
    except OperationError:
        if taken():  # another scorer's line committed meanwhile (PostgreSQL, READ COMMITTED)
            raise _taken(values) from None
        raise
    result = Result(tournament_id=tournament.id, entered_by=entered_by, **values)
    try:
        with session.begin_nested():  # a refusal by the unique constraint leaves the session usable
            session.add(result)
            session.flush()
    except IntegrityError:
        raise _taken(values) from None
    session.add(ResultHistory(result_id=result.id, who=entered_by, action="create",
                              after=interchange.result_to_dict(result)))
    session.flush()
    if context is not None:
        context.remember(result)
    return result


def _taken(values: Mapping) -> ConflictError:
    where = (f"dans cette salle (salle {'ouverte' if values['room'] == 'open' else 'fermée'})"
             if values.get("room") else f"à cette table (la table {values['table']})")
    return ConflictError(f"L'étui {values['board']} a déjà un score {where} : il a sans doute été saisi par "
                         "un autre marqueur. Pour le corriger, rouvrez la fiche de l'étui.")


def _expect_version(result: Result, version_id: int | None) -> None:
    if version_id is not None and result.version_id != version_id:
        raise ConflictError("Ce résultat a été modifié entre-temps (par un autre marqueur ou l'arbitre) : "
                            "rechargez la page et vérifiez-le avant de recommencer.")


def update_result(session: Session, result: Result, *, version_id: int | None, who: str | None = None,
                  action: str = "update", reason: str | None = None, context: CheckContext | None = None,
                  **changes) -> Result:
    """Change a result; ``version_id`` is the version the form was built from (ConflictError if stale).
    ``reason`` (the arbiter's, for an adjustment) is kept on the result and in its history."""
    tournament = session.get(Tournament, result.tournament_id)
    _expect_version(result, version_id)
    before = interchange.result_to_dict(result)
    values = _result_fields(tournament, changes)
    merged = {name: getattr(result, name) for name in RESULT_FIELDS}
    merged.update(values)
    candidate = interchange.result_to_dict(Result(tournament_id=tournament.id, extra=result.extra, **merged))
    _check_results(session, tournament, candidate, result, context)
    reason = _clean(reason) or None
    if reason is not None and len(reason) > 500:
        raise OperationError("Le motif est trop long (500 caractères au plus).", "reason")
    for name, value in values.items():
        setattr(result, name, value)
    if reason is not None:
        result.reason = reason
    _write(session, result, action, who, before, reason)
    if context is not None:
        context.remember(result)
    return result


def annul_result(session: Session, result: Result, *, version_id: int | None, who: str | None = None,
                 annulled: bool = True, reason: str | None = None) -> Result:
    """Annul a deal (it leaves the topage and the averages), or restore it."""
    return update_result(session, result, version_id=version_id, who=who, reason=reason,
                         action="annul" if annulled else "restore", annulled=annulled)


def adjust_score(session: Session, result: Result, *, score: int, version_id: int | None,
                 who: str | None = None, reason: str | None = None) -> Result:
    """The arbiter's score replaces the entered one; it is topped normally and flagged."""
    return update_result(session, result, version_id=version_id, who=who, action="adjust", score=score,
                         adjusted=True, reason=reason)


def set_arbitral_note(session: Session, result: Result, *, taker: float, defence: float,
                      version_id: int | None, who: str | None = None, reason: str | None = None) -> Result:
    """Fixed notes for that table, which then leaves the others' comparison."""
    for name, value in (("taker", taker), ("defence", defence)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 100:
            raise OperationError("Une note arbitrale est comprise entre 0 et 100.", name)
    return update_result(session, result, version_id=version_id, who=who, action="note", reason=reason,
                         notes={"taker": taker, "defence": defence})


def result_history(session: Session, result: Result) -> list[ResultHistory]:
    return list(session.exec(select(ResultHistory).where(ResultHistory.result_id == result.id)
                             .order_by(ResultHistory.id)))


# --- penalties -------------------------------------------------------------------------------------------------

def penalties(session: Session, tournament: Tournament) -> list[Penalty]:
    """The tournament's penalties, in the order they were given."""
    return list(session.exec(select(Penalty).where(Penalty.tournament_id == tournament.id).order_by(Penalty.id)))


def add_penalty(session: Session, tournament: Tournament, *, entrant_id: str, points: float, reason: str,
                board: int | None = None, created_by: str | None = None) -> Penalty:
    """Percentage points (PM for quadrettes and team matches) taken off an entrant; off one étui's note
    when ``board`` is given."""
    known = {e.entrant_id for e in _entrants(session, tournament) if e.entrant_id}
    if entrant_id not in known:
        raise OperationError(f"Participant « {entrant_id} » inconnu (pas encore placé ?).", "entrant_id")
    if not isinstance(points, (int, float)) or isinstance(points, bool) or not 0 < points <= 100:
        raise OperationError("Une pénalité est un nombre de points positif (100 au plus).", "points")
    reason = _clean(reason)
    if not reason:
        raise OperationError("Indiquez le motif de la pénalité.", "reason")
    if board is not None and (not isinstance(board, int) or board < 1):
        raise OperationError("Numéro d'étui invalide.", "board")
    penalty = Penalty(tournament_id=tournament.id, entrant_id=entrant_id, points=float(points), reason=reason,
                      board=board, created_by=created_by)
    session.add(penalty)
    session.flush()
    journal(session, tournament, action="penalty.add", who=created_by,
            summary=f"Pénalité à {french.place_label(entrant_id)} : {reason}", after=_penalty_snapshot(penalty))
    return penalty


def _penalty_snapshot(penalty: Penalty) -> dict:
    """What the journal shows of a penalty, as a French reader reads it (« O4 », « 2,50 »)."""
    return {"participant": french.place_label(penalty.entrant_id), "points": french.number(penalty.points),
            "étui": penalty.board, "motif": penalty.reason}


def remove_penalty(session: Session, tournament: Tournament, penalty_id: int, who: str | None = None) -> None:
    penalty = session.get(Penalty, penalty_id)
    if penalty is None or penalty.tournament_id != tournament.id:
        raise NotFound(f"Pénalité n° {penalty_id} introuvable.")
    journal(session, tournament, action="penalty.remove", who=who,
            summary=f"Pénalité retirée à {french.place_label(penalty.entrant_id)} : {penalty.reason or ''}",
            before=_penalty_snapshot(penalty))
    session.delete(penalty)
    session.flush()
