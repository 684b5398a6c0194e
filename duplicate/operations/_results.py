"""Results (the lines of the fiches ambulantes), the arbiter's adjustments, their history; penalties.

Every new or changed result is checked, with the other results of its étui, by the core's tournament
reader (`core.tournament.read_tournament`) before anything is written. A result changed from a stale form
(``version_id``) or by a concurrent transaction (SQLAlchemy's version counter) raises `ConflictError`;
so does a second score for an étui at a table (at a room, in a team match) that already has one — found
before writing, or, when two scorers save at the same moment, by the database's unique constraint.

A request of many lines (a fiche, a table's lines from the API) checks them all first
(`check_new_result`, `check_change`: each sees the lines checked before it through the `CheckContext`),
then writes them together (`write_results`: one flush, so the INSERTs go as one batch, and one batch of
history rows) inside one savepoint: a line refused by the unique constraint at that moment leaves
nothing of the request written and names the lines another transaction took (`SlotsTaken`).
"""

from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy import bindparam, insert
from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.scoring import ScoreError, check_score
from duplicate.core.tournament import TournamentError, read_tournament
from duplicate.db import read_columns
from duplicate.models import (
    DONE, PENDING, WITH_PENDING, Board, Penalty, Player, Result, ResultConflict, ResultHistory, Team, TeamMember, Tournament,
    result_slot, utcnow,
)

from ._common import ConflictError, NotFound, OperationError, _clean, _entrants, _format, entrant_model
from ._journal import journal
from ._layout import movement_rounds

def get_result(session: Session, tournament: Tournament, result_id: int) -> Result:
    """A result of the tournament by id, pending (awaiting the table's confirmation) or done."""
    result = session.get(Result, result_id, execution_options={WITH_PENDING: True})
    if result is None or result.tournament_id != tournament.id:
        raise NotFound(f"Résultat n° {result_id} introuvable.")
    return result


def results(session: Session, tournament: Tournament, board: int | None = None) -> list[Result]:
    query = select(Result).where(Result.tournament_id == tournament.id)
    if board is not None:
        query = query.where(Result.board == board)
    return list(session.exec(query.order_by(Result.board, Result.position, Result.table, Result.id)))


def _core_message(error: TournamentError, rows: list[dict]) -> str:
    """The core's refusal of a typed line as its screen says it: the fault (`core.tournament.ResultFault`),
    the result it clashes with named by its table instead of its rank among ``rows``."""
    fault = error.fault
    if fault is None:  # not a result's fault: the core's message as it is (no file, so no line)
        message = str(error)
    else:
        message = fault.text
        if fault.clash is not None:
            where = f"la table {rows[fault.clash].get('table')}" if fault.clash < len(rows) else "un autre résultat"
            message += f" (déjà à {where})" if fault.again else f" ({where})"
    return message[0].upper() + message[1:] + ("" if message.endswith(".") else ".")


#: The columns of a result the core reads (`interchange.result_to_dict`).
_CHECKED = (Result.extra, Result.board, Result.table, Result.position, Result.taker, Result.defenders,
            Result.taker_team, Result.defence_team, Result.score, Result.annulled, Result.adjusted, Result.notes,
            Result.chelem, Result.contract, Result.quarter, Result.room, Result.reason, Result.attacker)


def _named(row: Mapping) -> set:
    """The entrants a result names (taker, defenders; or the two teams)."""
    return {row.get("taker"), *(row.get("defenders") or ()), row.get("taker_team"), row.get("defence_team")} - {None}


# what a check reads, built once and bound per request (issue 30: building a statement costs more than running it)
_LINES_OF = {model: select(model.entrant_id, model.line).where(
    model.tournament_id == bindparam("tournament_id"), model.entrant_id.in_(bindparam("idents", expanding=True)))
    for model in (Player, Team)}
_RESULTS_OF_BOARDS = select(Result.id, *_CHECKED).where(
    Result.tournament_id == bindparam("tournament_id"), Result.board.in_(bindparam("boards", expanding=True))) \
    .order_by(Result.id)  # pending lines too (they hold their slots): read past the ORM's criteria
_BOARDS_AMONG = select(Board.number).where(Board.tournament_id == bindparam("tournament_id"),
                                           Board.number.in_(bindparam("numbers", expanding=True)))


class CheckContext:
    """What results are checked against, read once per request straight from the rows (no file): the
    lines of the entrants the checked results name (looked up as they come), the étuis' numbers, the
    movement's rounds by étui (`_layout.movement_rounds`: decoded once per process), the results of each
    étui met so far (kept up to date as the request writes).

    Every rule the core checks on a result involves the results of its étui that share its table (room)
    or one of its entrants, and the movement's tables for that étui: a check reads those only, so its cost
    does not grow with the tournament. Build one per request (entrants, étuis and movement do not change
    while results are entered) and pass it to every `record_result` / `update_result` of the request."""

    def __init__(self, session: Session, tournament: Tournament):
        self.session, self.tournament_id = session, tournament.id
        fmt = _format(tournament)
        self.model = entrant_model(tournament)
        self.section = fmt.entrants_key
        self.lines: dict[str, str | None] = {}  # entrant id → line, of the placed entrants looked up
        # quadrettes: team entrant id → its members' player ids (a result's « attacker » is one of them)
        self.members: dict[str, list[str]] | None = {} if fmt.who_attacks == "named" else None
        self._looked_up: set[str] = set()
        self._boards: dict[Any, bool] = {}  # étui number → whether the tournament has it, as looked up
        self.kind = fmt.id
        self.movement = movement_rounds(session, tournament)
        self.rounds: Mapping[Any, tuple] | None = self.movement.by_board if self.movement is not None else None
        self._results: dict[Any, dict[Any, dict]] = {}
        self._index: dict[Any, dict[Any, list]] = {}  # étui → ("table", t) / ("room", r) / entrant → keys

    def look_up(self, idents: set) -> None:
        """Read the lines of those placed entrants among ``idents`` (ids) not looked up yet into `lines`."""
        missing = {ident for ident in idents if isinstance(ident, str)} - self._looked_up
        if missing:
            model = self.model
            self.lines.update(read_columns(self.session, _LINES_OF[model], {"tournament_id": self.tournament_id,
                                                                             "idents": list(missing)}).all())
            if self.members is not None:
                for team, player_id, entrant_id in self.session.exec(
                        select(Team.entrant_id, Player.id, Player.entrant_id)
                        .join(TeamMember, TeamMember.team_id == Team.id).join(Player, Player.id == TeamMember.player_id)
                        .where(Team.tournament_id == self.tournament_id, Team.entrant_id.in_(missing))):
                    self.members.setdefault(team, []).append(entrant_id or f"joueur-{player_id}")
            self._looked_up |= missing

    def prepare(self, boards: set, named: set) -> None:
        """Read at once what checking lines of étuis ``boards`` naming entrants ``named`` needs (a
        request's lines: one query each for their étuis' results, the étuis, the entrants' lines)."""
        self._load({board for board in boards if isinstance(board, int)} - self._results.keys())
        self.prepare_entrants(boards, named)

    def prepare_entrants(self, boards: set, named: set) -> None:
        """Read the étuis and the entrants' lines of `prepare` (not the results): what a request reads
        before it takes the write lock (`db.begin_writing`), the results after."""
        self._known_boards(boards)
        self.look_up(named)

    def _load(self, boards: set) -> None:
        """Read the stored results of étuis ``boards`` (pending ones too: they hold their slots), as
        light rows — only what the core reads of them; a result the session has changed and not yet
        written is read from its object."""
        if not boards:
            return
        for board in boards:
            self._results[board] = {}
        with self.session.no_autoflush:
            rows = read_columns(self.session, _RESULTS_OF_BOARDS, {"tournament_id": self.tournament_id,
                                                                   "boards": list(boards)}).all()
            changed = {obj.id: obj for obj in self.session.dirty if isinstance(obj, Result)}
        for row in rows:
            self._results[row.board][row.id] = interchange.result_to_dict(changed.get(row.id, row))

    def _known_boards(self, numbers: set) -> None:
        numbers = {number for number in numbers if isinstance(number, int)} - self._boards.keys()
        if numbers:
            found = set(read_columns(self.session, _BOARDS_AMONG, {"tournament_id": self.tournament_id,
                                                                   "numbers": list(numbers)}).scalars())
            self._boards.update({number: number in found for number in numbers})

    def results_of(self, board: Any) -> dict[Any, dict]:
        """Result id → SPEC §9 dict of étui ``board``'s results, in the order they were entered: those
        stored, then those the request has checked and not yet written (keyed by their object)."""
        if board not in self._results:
            self._load({board})
        return self._results[board]

    def remember(self, result: Result) -> None:
        """A result the request has just checked or written (new or changed)."""
        key = id(result) if result.id is None else result.id
        rows = self.results_of(result.board)
        if key in rows or id(result) in rows:  # changed, or written: the index is rebuilt on the next look-up
            rows.pop(id(result), None)
            self._index.pop(result.board, None)
        rows[key] = row = interchange.result_to_dict(result)
        if result.board in self._index:
            self._add(self._index[result.board], key, row)

    def _keys(self, board: Any) -> dict[Any, list]:
        """Étui ``board``'s results by table, by room and by entrant named (their keys, in entry order)."""
        if board not in self._index:
            index: dict[Any, list] = {}
            for key, row in self.results_of(board).items():
                self._add(index, key, row)
            self._index[board] = index
        return self._index[board]

    @staticmethod
    def _add(index: dict[Any, list], key: Any, row: Mapping) -> None:
        for where in {("table", row.get("table")), ("room", row.get("room")), *_named(row)}:
            index.setdefault(where, []).append(key)

    def slot_taken(self, board: Any, slot: str) -> bool:
        """Whether étui ``board`` has a result at ``slot`` (a table, or a room), stored or checked."""
        rows = self.results_of(board)
        kind, _, value = slot.partition(":")
        if kind == "room":
            return bool(self._keys(board).get(("room", value)))
        return any(rows[key].get("room") is None for key in self._keys(board).get(("table", int(value)), ()))

    def clashing(self, candidate: Mapping, skip: Any = None) -> list[dict]:
        """The results of ``candidate``'s étui it could clash with, in entry order: at its table, in its
        room, or naming one of its entrants (``skip``: the key of the result it replaces)."""
        board = candidate.get("board")
        rows, index = self.results_of(board), self._keys(board)
        wanted = {("table", candidate.get("table")), *_named(candidate)}
        if candidate.get("room") is not None:
            wanted.add(("room", candidate.get("room")))
        keys = {key for where in wanted for key in index.get(where, ())} - {skip}
        return [row for key, row in rows.items() if key in keys]

    def tournament(self, results: list[dict]) -> dict:
        """The tournament as the core reads it, with only ``results`` (of one étui) and the entrants they name."""
        named = set().union(*(_named(row) for row in results))
        self.look_up(named)
        numbers = {row.get("board") for row in results if isinstance(row.get("board"), int)}
        self._known_boards(numbers)
        data = {"kind": self.kind, "boards": [{"number": n} for n in sorted(numbers) if self._boards[n]],
                self.section: [{"id": ident, "line": self.lines[ident]}
                               for ident in sorted(named, key=str) if ident in self.lines],
                "results": results}
        if self.members is not None:
            for team in data[self.section]:
                team["members"] = self.members.get(team["id"], [])
            data["players"] = [{"id": player} for team in data[self.section] for player in team["members"]]
        if self.rounds is not None:
            board = results[-1].get("board") if results else None
            tables = {row.get("table") for row in results}
            data["movement"] = {"rounds": [r for r in self.rounds.get(board, []) if r.get("table") in tables]}
        return data


def check_entered_score(score: int, contract: str | None = None, chelem: bool = False):
    """The one check of a typed or sent score, on every entry path (paper fiche, « Remplacer », the
    table's phone, the results API; the import reads its file through the same core check) and before
    anything else — before a disagreement with a stored line becomes a conflict: an impossible score for
    ``contract`` (Garde by default) is refused with the core's French message (`OperationError` on
    ``score``). Returns the core's `check_score` answer (its ``warning`` for a score possible in theory
    only)."""
    try:
        check = check_score(score, contract or "garde", chelem=bool(chelem))
    except ScoreError as error:
        raise OperationError(str(error), "contract") from None
    if not check.ok:
        raise OperationError(check.message[0].upper() + check.message[1:] + ".", "score")
    return check


# --- lines the arbiter has settled (SPEC §12, issue 28) ---------------------------------------------------------

#: The arbiter's acts on a line, as its history records them: adjust a score, annul (or restore) the
#: deal, give an arbitral note, settle a conflict between two entries.
ARBITER_ACTIONS = ("adjust", "annul", "restore", "note", "resolve")

_SETTLED_BY = {"adjust": "score ajusté", "annul": "donne annulée", "restore": "donne rétablie",
               "note": "note arbitrale", "resolve": "conflit de saisie tranché"}


def _last_arbiter_act(session: Session, result: Result) -> str | None:
    """The last of the arbiter's acts in the line's history (`ARBITER_ACTIONS`), None when there is none."""
    if result is None or result.id is None:
        return None
    return session.exec(select(ResultHistory.action).where(
        ResultHistory.result_id == result.id, ResultHistory.action.in_(ARBITER_ACTIONS))
        .order_by(ResultHistory.id.desc()).limit(1)).first()


def settled_by_arbiter(session: Session, result: Result | None) -> bool:
    """Whether the arbiter has decided this line, from stored facts: its history holds one of his acts
    (`ARBITER_ACTIONS`), or the line carries his marks (annulled, adjusted, arbitral note: set by his acts,
    by an arbiter's API token or by an imported file). Such a line is changed by the arbiter's own acts only
    (adjust, annul, note, a conflict settled): no table, scorer or API client changes it."""
    if result is None:
        return False
    if result.annulled or result.adjusted or result.notes is not None:
        return True
    return _last_arbiter_act(session, result) is not None


class SettledLine(ConflictError):
    """An entry refused because the arbiter has settled the line (`settled_by_arbiter`); ``board``,
    ``table`` and ``stored`` (the score that stands) for the answer (409)."""

    def __init__(self, message: str, result: Result):
        super().__init__(message, "score")
        self.board, self.table, self.stored = result.board, result.table, result.score


def refuse_if_settled(session: Session, result: Result | None) -> None:
    """Raise `SettledLine` (French) when the arbiter has settled ``result`` — called by every entry path
    (the table's phone, a scorer's fiche, the results API) before it changes or flags anything."""
    if not settled_by_arbiter(session, result):
        return
    act = _last_arbiter_act(session, result)
    what = _SETTLED_BY.get(act or "") or ("donne annulée" if result.annulled else
                                          "note arbitrale" if result.notes is not None else "score ajusté")
    score = f"score enregistré {french.score(result.score)}" if result.score is not None else "sans score"
    where = (f"salle {'ouverte' if result.room == 'open' else 'fermée'}" if result.room
             else f"table {result.table}")
    raise SettledLine(f"L’arbitre a tranché cette ligne (étui {result.board}, {where} : {what} ; "
                      f"{score}) : elle ne se modifie plus ni à la table, ni sur la fiche. Pour la changer, "
                      "adressez-vous à l’arbitre.", result)


def _settle(result: Result) -> None:
    """An arbiter's act on a pending line makes it done: the arbiter has decided (a pending line would
    count nowhere, and the table could still change it)."""
    if result.status == PENDING:
        result.status = DONE


def _check_results(session: Session, tournament: Tournament, candidate: dict, replaces: Result | None,
                   context: CheckContext | None = None) -> None:
    """Read ``candidate`` through the core's tournament reader (`core.tournament.read_tournament`),
    exactly as ``rank`` would read it, with the results of its étui it could clash with: those at its
    table (room) or naming one of its entrants (``replaces`` left out)."""
    if candidate.get("score") is not None:
        check_entered_score(candidate["score"], candidate.get("contract"), bool(candidate.get("chelem")))
    context = context or CheckContext(session, tournament)
    rows = context.clashing(candidate, None if replaces is None else replaces.id)
    rows.append(candidate)
    try:
        read_tournament(context.tournament(rows))
    except TournamentError as error:
        raise OperationError(_core_message(error, rows)) from None


RESULT_FIELDS = ("board", "table", "position", "taker", "defenders", "taker_team", "defence_team", "score",
                 "annulled", "adjusted", "notes", "chelem", "contract", "quarter", "room", "attacker")


def _result_fields(tournament: Tournament, fields: Mapping[str, Any]) -> dict:
    unknown = set(fields) - set(RESULT_FIELDS)
    if unknown:
        raise TypeError(f"unknown result fields: {sorted(unknown)}")
    values = dict(fields)
    if "defenders" in values and values["defenders"] is not None:
        values["defenders"] = list(values["defenders"])
    if not _format(tournament).has_teams and (values.get("taker_team") or values.get("defence_team")):
        raise OperationError("En individuel, le preneur et les défenseurs sont des joueurs.", "taker")
    return values


def record_result(session: Session, tournament: Tournament, *, entered_by: str | None = None,
                  context: CheckContext | None = None, **fields) -> Result:
    """Enter one line of a fiche ambulante: ``board``, ``table``, ``position``, then ``taker`` and
    ``defenders`` (individual) or ``taker_team`` and ``defence_team``, ``score``, ``chelem``; team match
    adds ``contract``, ``quarter``, ``room``. Checked by the core before anything is written (``context``:
    see `CheckContext`)."""
    context = context or CheckContext(session, tournament)
    result = check_new_result(session, tournament, entered_by=entered_by, context=context, **fields)
    try:
        write_results(session, [result], [], context)
    except SlotsTaken as error:
        raise error.errors[0] from None
    return result


def check_new_result(session: Session, tournament: Tournament, *, context: CheckContext,
                     entered_by: str | None = None, **fields) -> Result:
    """Check one new line (fields as `record_result`'s) with the étui's results, those the request has
    checked already included, and return it unwritten: `write_results` writes it."""
    values = _result_fields(tournament, fields)
    for name in ("board", "table"):
        if not isinstance(values.get(name), int) or isinstance(values.get(name), bool) or values[name] < 1:
            raise OperationError(f"Le numéro {'d’étui' if name == 'board' else 'de table'} est obligatoire.", name)
    slot = result_slot(values["table"], values.get("room"))
    if context.slot_taken(values["board"], slot):
        refuse_if_settled(session, _stored_slot(session, tournament.id, values["board"], slot))
        raise _taken(values)
    result = Result(tournament_id=tournament.id, entered_by=entered_by, updated_at=utcnow(), **values)
    try:
        _check_results(session, tournament, interchange.result_to_dict(result), None, context)
    except OperationError:
        if _stored_slot(session, tournament.id, values["board"], slot):  # committed meanwhile (PostgreSQL)
            raise _taken(values) from None
        raise
    context.remember(result)
    return result


def _stored_slot(session: Session, tournament_id: int, board: int, slot: str) -> Result | None:
    """The stored result of étui ``board`` at ``slot`` (pending too), None when there is none."""
    return session.exec(select(Result).where(Result.tournament_id == tournament_id, Result.slot == slot,
                                             Result.board == board)
                        .execution_options(**{WITH_PENDING: True})).first()


class SlotsTaken(ConflictError):
    """New lines refused by the unique constraint when written (another transaction stored those étuis
    at those tables first): ``indexes`` into the lines written, ``errors`` their French conflicts."""

    def __init__(self, indexes: list[int], errors: list[ConflictError]):
        super().__init__(errors[0].message if errors else "Un de ces scores vient d’être enregistré par un "
                         "autre marqueur : rien n’a été enregistré.")
        self.indexes, self.errors = indexes, errors or [ConflictError(self.message)]


_INSERT_HISTORY = insert(ResultHistory.__table__)  # built once (issue 30)


def write_results(session: Session, created: list[Result], changed: list[tuple],
                  context: CheckContext | None = None) -> None:
    """Write the checked lines of a request at once: ``created`` new results, ``changed`` results already
    modified by `check_change` (with their action, the values before, the reason and who); then one history row
    each. All in one savepoint: on a refusal nothing of them is written. `SlotsTaken` when a new line's étui
    and table were taken meanwhile; `ConflictError` when a changed one was changed meanwhile."""
    now = utcnow()
    try:
        with session.begin_nested():
            session.add_all(created)
            session.flush()
    except IntegrityError:
        taken = [i for i, result in enumerate(created)
                 if _stored_slot(session, result.tournament_id, result.board, result_slot(result.table, result.room))]
        raise SlotsTaken(taken, [_taken(interchange.result_to_dict(created[i])) for i in taken]) from None
    except StaleDataError:
        raise ConflictError("Ce résultat vient d’être modifié par quelqu’un d’autre : rechargez la page et "
                            "vérifiez-le avant de recommencer.") from None
    history = [{"result_id": result.id, "who": result.entered_by, "at": now, "action": "create", "reason": None,
                "before": None, "after": interchange.result_to_dict(result)} for result in created]
    history += [{"result_id": result.id, "who": who, "at": now, "action": action, "reason": reason,
                 "before": before, "after": interchange.result_to_dict(result)}
                for result, action, before, reason, who in changed]
    if history:  # Core rows past the ORM's bulk path: nothing reads them back in the request (issue 30)
        session.connection().execute(_INSERT_HISTORY, history)
    if context is not None:
        for result in created:
            context.remember(result)


def _taken(values: Mapping) -> ConflictError:
    where = (f"dans cette salle (salle {'ouverte' if values['room'] == 'open' else 'fermée'})"
             if values.get("room") else f"à cette table (la table {values['table']})")
    return ConflictError(f"L’étui {values['board']} a déjà un score {where} : il a sans doute été saisi par "
                         "un autre marqueur. Pour le corriger, rouvrez la fiche de l’étui.")


def _expect_version(result: Result, version_id: int | None) -> None:
    if version_id is not None and result.version_id != version_id:
        raise ConflictError("Ce résultat a été modifié entre-temps (par un autre marqueur ou l’arbitre) : "
                            "rechargez la page et vérifiez-le avant de recommencer.")


def update_result(session: Session, result: Result, *, version_id: int | None, who: str | None = None,
                  action: str = "update", reason: str | None = None, context: CheckContext | None = None,
                  **changes) -> Result:
    """Change a result; ``version_id`` is the version the form was built from (ConflictError if stale).
    ``reason`` (the arbiter's, for an adjustment) is kept on the result and in its history."""
    change = check_change(session, result, version_id=version_id, who=who, action=action, reason=reason,
                          context=context, **changes)
    write_results(session, [], [change], context)
    return result


def check_change(session: Session, result: Result, *, version_id: int | None, who: str | None = None,
                 action: str = "update", reason: str | None = None, context: CheckContext | None = None,
                 **changes) -> tuple:
    """Check a change with the étui's results and apply it to ``result`` (not written: `write_results`
    writes it, with its history row); returns what `write_results` takes."""
    tournament = session.get(Tournament, result.tournament_id)
    _expect_version(result, version_id)
    before = interchange.result_to_dict(result)
    values = _result_fields(tournament, changes)
    merged = {name: getattr(result, name) for name in RESULT_FIELDS}
    merged.update(values)
    candidate = interchange.result_to_dict(Result(tournament_id=tournament.id, extra=result.extra,
                                                  updated_at=result.updated_at, **merged))
    _check_results(session, tournament, candidate, result, context)
    reason = _clean(reason) or None
    if reason is not None and len(reason) > 500:
        raise OperationError("Le motif est trop long (500 caractères au plus).", "reason")
    for name, value in values.items():
        setattr(result, name, value)
    if reason is not None:
        result.reason = reason
    if who is not None:
        result.entered_by = who
    result.updated_at = utcnow()
    if context is not None:
        context.remember(result)
    return result, action, before, reason, who


def annul_result(session: Session, result: Result, *, version_id: int | None, who: str | None = None,
                 annulled: bool = True, reason: str | None = None) -> Result:
    """Annul a deal (it leaves the topage and the averages), or restore it. Like every act of the
    arbiter's on a line, it settles it (`settled_by_arbiter`), and a pending line becomes done."""
    _settle(result)
    return update_result(session, result, version_id=version_id, who=who, reason=reason,
                         action="annul" if annulled else "restore", annulled=annulled)


def adjust_score(session: Session, result: Result, *, score: int, version_id: int | None,
                 who: str | None = None, reason: str | None = None) -> Result:
    """The arbiter's score replaces the entered one; it is topped normally and flagged. The line is
    settled (`settled_by_arbiter`); a pending line becomes done."""
    _settle(result)
    return update_result(session, result, version_id=version_id, who=who, action="adjust", score=score,
                         adjusted=True, reason=reason)


def set_arbitral_note(session: Session, result: Result, *, taker: float, defence: float,
                      version_id: int | None, who: str | None = None, reason: str | None = None) -> Result:
    """Fixed notes for that table, which then leaves the others' comparison."""
    for name, value in (("taker", taker), ("defence", defence)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 100:
            raise OperationError("Une note arbitrale est comprise entre 0 et 100.", name)
    _settle(result)  # settled (`settled_by_arbiter`); a pending line becomes done
    return update_result(session, result, version_id=version_id, who=who, action="note", reason=reason,
                         notes={"taker": taker, "defence": defence})


def result_history(session: Session, result: Result) -> list[ResultHistory]:
    return list(session.exec(select(ResultHistory).where(ResultHistory.result_id == result.id)
                             .order_by(ResultHistory.id)))


# --- conflicts between entries (SPEC §12) ---------------------------------------------------------------------

def flag_conflict(session: Session, tournament: Tournament, result: Result, *, source: str, score: int | None,
                  chelem: bool, who: str | None) -> ResultConflict:
    """Flag an entry that disagrees with ``result`` (``source``: ``paper`` or ``table``) to the arbiter; the
    same disagreement already open is not flagged twice."""
    for conflict in session.exec(select(ResultConflict).where(
            ResultConflict.result_id == result.id, ResultConflict.resolved_at.is_(None))):
        if conflict.source == source and conflict.score == score and conflict.chelem == chelem:
            return conflict
    conflict = ResultConflict(tournament_id=tournament.id, result_id=result.id, board=result.board,
                              table=result.table, source=source, score=score, chelem=chelem, who=who)
    session.add(conflict)
    session.flush()
    origin = "de la fiche papier" if source == "paper" else "saisi à la table"
    journal(session, tournament, action="result.conflict", who=who,
            summary=f"Étui {result.board}, table {result.table} : score {origin} {french.score(score)} ≠ "
                    f"{french.score(result.score)} enregistré ({'en attente' if result.status == PENDING else 'confirmé'}) : signalé à l’arbitre.",
            before={"étui": result.board, "table": result.table, "score": french.score(result.score)},
            after={"étui": result.board, "table": result.table, "score": french.score(score), "source": source})
    return conflict


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
        raise OperationError("Numéro d’étui invalide.", "board")
    if board is not None and not _played(session, tournament, entrant_id, board):
        raise OperationError(f"{french.place_label(entrant_id)} n’a pas de résultat sur l’étui {board} : une "
                             "pénalité sur un étui porte sur un étui qu’il a joué.", "board")
    penalty = Penalty(tournament_id=tournament.id, entrant_id=entrant_id, points=float(points), reason=reason,
                      board=board, created_by=created_by)
    session.add(penalty)
    session.flush()
    journal(session, tournament, action="penalty.add", who=created_by,
            summary=f"Pénalité à {french.place_label(entrant_id)} : {reason}", after=_penalty_snapshot(penalty))
    return penalty


def _played(session: Session, tournament: Tournament, entrant_id: str, board: int) -> bool:
    """Whether the entrant has a result on that étui (a penalty on an étui he did not play would be lost:
    the core reads it only off his note there)."""
    rows = session.exec(select(Result.taker, Result.defenders, Result.taker_team, Result.defence_team).where(
        Result.tournament_id == tournament.id, Result.board == board)).all()
    return any(entrant_id in (taker, taker_team, defence_team, *(defenders or ()))
               for taker, defenders, taker_team, defence_team in rows)


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
