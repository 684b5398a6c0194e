"""Scoring: the fiches ambulantes as the movement lays them out, their entry, the electronic API's lines.

A *line* of a fiche ambulante is one table's play of one étui: position, table, who takes and who
defends — all given by the movement (SPEC §7, §9), so the scorer types the score only. In the
individual the taker is the player in the étui's taker seat (`_deals.board_takers`: the étui's label); in triplettes
the line holding that seat attacks (NS for a taker N or S); in quadrettes and team matches the round
says who attacks (a team match adds its quarter — the position — and its room).

Entry checks every line of the request first (`check_new_result` / `check_change`: each score by the
core, `core.scoring.check_score`, then with its étui by `core.tournament.read_tournament`, seeing the
request's lines checked before it), then writes them all at once with their history (`write_results`).
A line already scored is changed only from the version the form showed (``version_id``): a second scorer
saving the same fiche is refused, never silently applied;
the scorer then sees the stored score next to the typed one and may replace it by an explicit
« Remplacer », which the result's history records (action ``replace``).

A score is typed with its sign, ``+106``, ``106``, ``-42`` or ``−42`` (the true minus sign of the
printed fiches).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Collection, Mapping

from sqlalchemy import String, bindparam, cast
from sqlmodel import Session, select

from duplicate import french
from duplicate.db import begin_writing, read_columns
from duplicate.core.formats import format_for
from duplicate.core.scoring import Contract
from duplicate.models import (
    PENDING, WITH_PENDING, Player, Result, ResultHistory, Role, Substitution, Team, Tournament, TournamentKind, result_slot,
)

from ._common import ConflictError, OperationError, _kind, entrant_model
from ._deals import board_takers
from ._journal import journal
from ._layout import MovementRounds, movement_rounds
from ._results import (
    ARBITER_ACTIONS, RESULT_FIELDS, CheckContext, SettledLine, SlotsTaken, check_change, check_entered_score,
    check_new_result, flag_conflict, refuse_if_settled, write_results,
)

#: ``Result.origin`` of a line entered on the table's phone (SPEC §12; `_table`).
ORIGIN_TABLE = "table"
#: The contracts a team match may bid (SPEC §6: no Prise), by their stored value, with their French names.
CONTRACTS = {c.value: c.french for c in Contract if c is not Contract.PRISE}
_SCORE = re.compile(r"^([+\-−–]?)\s*([0-9]{1,4})$")


@dataclass
class Line:
    """One line of a fiche ambulante: who plays étui ``board`` at ``table``, and its result if entered."""

    board: int
    table: int
    position: int | None
    taker: str
    defence: list[str]
    room: str | None = None
    quarter: int | None = None
    result: Result | None = None
    in_movement: bool = True
    seats: dict[str, str] = field(default_factory=dict)
    # the seat the étui's taker sits at as the movement's line was built (`_round_lines`: the étui's taker
    # seat, else the movement's); None where the format fixes it (quadrettes, team matches) or off the movement
    taker_seat: str | None = None

    @property
    def key(self) -> str:
        """The form fields' suffix: ``<étui>-<table>``."""
        return f"{self.board}-{self.table}"

    @property
    def slot(self) -> str:
        return result_slot(self.table, self.room)

    def fields(self, kind: TournamentKind) -> dict:
        """The result fields the movement gives (everything but the score)."""
        values: dict[str, Any] = {"board": self.board, "table": self.table, "position": self.position}
        values.update(format_for(kind).result_sides(self.taker, self.defence))
        if self.room is not None:
            values.update(room=self.room, quarter=self.quarter)
        return values


def _round_lines(kind: TournamentKind, round_: Mapping, takers: Mapping[int, str]) -> list[Line]:
    """The lines of one round of the movement at its table, as its format deals them (`Format.round_lines`)."""
    seats = dict(round_.get("seats") or {})
    table, position = int(round_["table"]), round_.get("position")
    plays = format_for(kind).round_lines(seats, [int(number) for number in round_.get("boards", [])], takers,
                                         room=round_.get("room"), position=position)
    return [Line(board=play.board, table=table, position=position, taker=play.taker, defence=play.defence,
                 room=play.room, quarter=play.quarter, seats=seats, taker_seat=play.taker_seat) for play in plays]


def _from_result(result: Result) -> Line:
    if result.taker is not None:
        taker, defence = result.taker, list(result.defenders or [])
    else:
        taker, defence = result.taker_team or "", [result.defence_team or ""]
    return Line(result.board, result.table, result.position, taker, defence, result.room, result.quarter, result,
                in_movement=False)


# the results of some étuis at one table, pending lines seen or not (`all_lines`): built once (issue 30)
_RESULTS_AT = {pending: select(Result).where(
    Result.tournament_id == bindparam("tournament_id"), Result.board.in_(bindparam("boards", expanding=True)),
    Result.table == bindparam("table")).execution_options(**{WITH_PENDING: pending}) for pending in (False, True)}


def all_lines(session: Session, tournament: Tournament, *, boards: Collection[int] | None = None,
              position: int | None = None, table: int | None = None, pending: bool = False,
              movement: MovementRounds | None = None, results: bool = True,
              context: CheckContext | None = None) -> list[Line]:
    """Every line of every fiche: the movement's, each with its stored result, then the results the
    movement does not know (imported without a movement); by étui, then in movement order. ``context``:
    the request's `CheckContext`, whose lookup of the entrants' lines tells the placed ones too (one query
    for both, `_without_phantoms`). ``boards``,
    ``position`` and ``table`` keep only the movement's lines of those étuis, position and table (and read
    only the results of those étuis and table). A line entered at the table and not yet confirmed counts
    as empty, unless ``pending`` (the scorers' and the arbiter's screens, the table's page). ``movement``:
    the tournament's (`_layout.movement_rounds`), when the caller has read it. ``results`` false: the
    movement's lines only, without their results (no result read)."""
    kind = _kind(tournament)
    movement = movement or movement_rounds(session, tournament)

    def wanted(round_: Mapping) -> bool:
        return ((boards is None or any(b in boards for b in round_.get("boards", ())))
                and (position is None or round_.get("position") == position)
                and (table is None or round_.get("table") == table))
    lines: list[Line] = []
    if movement is not None:
        rounds = movement.rounds  # only those of the table, or of the étuis, when asked: looked up, not scanned
        if table is not None:
            rounds = movement.by_table.get(table, ())
        elif boards is not None:
            chosen = {id(round_) for board in boards for round_ in movement.by_board.get(board, ())}
            rounds = [round_ for round_ in movement.rounds if id(round_) in chosen]
        rounds = [round_ for round_ in rounds if wanted(round_)]
        numbers = None if len(rounds) == len(movement.rounds) else {int(b) for r in rounds for b in r.get("boards", ())}
        takers = board_takers(session, tournament, movement, numbers) if rounds else {}  # of those rounds' étuis
        for round_ in rounds:
            lines.extend(_round_lines(kind, round_, takers))
        lines = _without_phantoms(session, tournament, lines, context)
    if results:
        if boards is not None and table is not None:  # a table's étuis (its phone): the statement built once
            query, params = _RESULTS_AT[bool(pending)], {"tournament_id": tournament.id, "boards": list(boards),
                                                         "table": table}
        else:
            query, params = select(Result).where(Result.tournament_id == tournament.id).execution_options(
                **{WITH_PENDING: pending}), None
            if boards is not None:
                query = query.where(Result.board.in_(list(boards)))
            if table is not None:
                query = query.where(Result.table == table)
        by_slot = {(line.board, line.slot): line for line in lines}
        for result in session.exec(query, params=params):
            line = by_slot.get((result.board, result.slot))
            if line is None:
                lines.append(_from_result(result))
            else:
                line.result = result
    lines = [line for line in lines if (boards is None or line.board in boards)
             and (position is None or line.position == position) and (table is None or line.table == table)]
    return sorted(lines, key=lambda line: (line.board, line.position or 0, line.table))


# the placed entrants among those named (`_without_phantoms`), by model: built once, bound per request (issue 30)
_PLACED = {model: select(model.entrant_id).where(model.tournament_id == bindparam("tournament_id"),
                                                 model.entrant_id.is_not(None)) for model in (Player, Team)}
_ANY_PLACED = {model: statement.limit(1) for model, statement in _PLACED.items()}
_PLACED_AMONG = {model: statement.where(model.entrant_id.in_(bindparam("named", expanding=True)))
                 for model, statement in _PLACED.items()}


def _without_phantoms(session: Session, tournament: Tournament, lines: list[Line],
                      context: CheckContext | None = None) -> list[Line]:
    """The movement's lines that real entrants play: against a phantom team (odd triplettes) the opponent
    sits out and no line is expected. Before the draw every line stands. ``context``: the request's
    `CheckContext` (same entrants' model): the placed entrants are those its lookup of their lines finds —
    read once for the check of the line to come and for this."""
    model = entrant_model(tournament)
    bound = {"tournament_id": tournament.id}
    named = {name for line in lines for name in (line.taker, *line.defence)}
    if context is not None and context.model is model and len(named) <= 100:
        context.look_up(named)
        placed = {name for name in named if name in context.lines}
        if not placed and read_columns(session, _ANY_PLACED[model], bound).first() is None:
            return lines  # before the draw
    elif len(named) <= 100:  # a table's or a fiche's lines: look up only the entrants they name
        placed = set(read_columns(session, _PLACED_AMONG[model], {**bound, "named": list(named)})
                     .scalars()) if named else set()
        if not placed and read_columns(session, _ANY_PLACED[model], bound).first() is None:
            return lines  # before the draw
    else:
        placed = set(read_columns(session, _PLACED[model], bound).scalars())
        if not placed:
            return lines
    return [line for line in lines if line.taker in placed and placed.issuperset(line.defence)]


def traveller(session: Session, tournament: Tournament, board: int, pending: bool = False) -> list[Line]:
    """The fiche ambulante of étui ``board``: its lines in movement order (position, then table); with
    ``pending``, the lines entered at the table and awaiting confirmation too."""
    return all_lines(session, tournament, boards={board}, pending=pending)


def table_round(session: Session, tournament: Tournament, position: int, table: int,
                pending: bool = False) -> list[Line]:
    """What one table plays at one position (entry table by table), étui by étui (``pending``: see
    `traveller`)."""
    return sorted(all_lines(session, tournament, position=position, table=table, pending=pending),
                  key=lambda line: line.board)


def _entered(session: Session, tournament: Tournament) -> list[tuple[int, int, int | None, bool]]:
    """``(étui, table, position, entered)`` of every line of every fiche, as `all_lines` orders them, from
    light rows (no result objects): what `progress` counts."""
    kind = _kind(tournament)
    movement = movement_rounds(session, tournament)
    stored = {(board, result_slot(table, room)): (table, position) for board, table, room, position in session.execute(
        select(Result.board, Result.table, Result.room, Result.position).where(Result.tournament_id == tournament.id))}
    lines = []
    if movement is not None:
        takers = board_takers(session, tournament, movement)
        played = _without_phantoms(session, tournament, [line for round_ in movement.rounds
                                                          for line in _round_lines(kind, round_, takers)])
        for line in played:
            lines.append((line.board, line.table, line.position, stored.pop((line.board, line.slot), None) is not None))
    lines += [(board, table, position, True) for (board, _slot), (table, position) in stored.items()]
    return lines


def board_numbers(session: Session, tournament: Tournament) -> list[int]:
    """The étuis that have a fiche: those the movement sends to a table, and those with a result."""
    movement = movement_rounds(session, tournament)
    rounds = movement.rounds if movement is not None else ()
    numbers = {int(b) for r in rounds for b in r.get("boards", ())}
    numbers.update(session.exec(select(Result.board).where(Result.tournament_id == tournament.id).distinct()).all())
    return sorted(numbers)


def adjusted_lines(session: Session, tournament: Tournament) -> list[Line]:
    """The lines the arbiter has annulled, adjusted or given an arbitral note, by étui and table."""
    noted = Result.notes.is_not(None) & (cast(Result.notes, String) != "null")  # SQL NULL or JSON null: none
    query = select(Result).where(Result.tournament_id == tournament.id, Result.annulled | Result.adjusted | noted)
    return sorted((_from_result(r) for r in session.exec(query) if r.annulled or r.adjusted or r.notes is not None),
                  key=lambda line: (line.board, line.position or 0, line.table))


def progress(session: Session, tournament: Tournament, lines: list[Line] | None = None) -> dict:
    """How far scoring has gone: ``lines``/``entered``; per étui ``(number, entered, expected)``; the
    étuis whose fiche is still incomplete (``missing``); per position and table what is left. Without
    ``lines``, counted from light rows (`_entered`)."""
    if lines is None:
        entered = _entered(session, tournament)
    else:
        entered = [(line.board, line.table, line.position, line.result is not None) for line in lines]
    per_board: dict[int, list[int]] = {}
    per_round: dict[tuple[int, int], list[int]] = {}
    for board, table, position, done in entered:
        per_board.setdefault(board, [0, 0])
        per_board[board][0] += done
        per_board[board][1] += 1
        if position is not None:
            per_round.setdefault((position, table), [0, 0])
            per_round[(position, table)][0] += done
            per_round[(position, table)][1] += 1
    return {
        "lines": len(entered), "entered": sum(done for *_, done in entered),
        "boards": [(number, done, total) for number, (done, total) in sorted(per_board.items())],
        "missing": [number for number, (done, total) in sorted(per_board.items()) if done < total],
        "rounds": [(position, table, done, total) for (position, table), (done, total) in sorted(per_round.items())],
    }


def _score_of(snapshot: Mapping | None) -> tuple:
    """What a correction changes, from a history snapshot: the score as entered, with the chelem and (team
    match) the contract that qualify it."""
    snapshot = snapshot or {}
    return snapshot.get("score"), bool(snapshot.get("chelem")), snapshot.get("contract") or "garde"


def corrected_ids(session: Session, tournament: Tournament) -> set[int]:
    """The one decision of « corrigé » (issue 28; docs/settled-and-corrected.md), on screen, on paper and in
    the marked export: the results whose score was changed (`_score_of`) while the line was done — by the
    arbiter (adjust, a conflict settled by keeping the other entry, his fiche) or by a scorer (a correction,
    « Remplacer »). Read from the history: a line entered at the table (``origin`` ``table``) is pending
    until a defender confirms it or the arbiter acts on it, and what the table changes before that — its
    corrections, the confirmation itself — is no correction. An annulment, a restoration or an arbitral
    note changes no score: such a line is « annulée » or « note arbitrale », « corrigée » only if its score
    also changed. A line imported from a file that marks it ``"corrected": true`` stays corrected."""
    rows = session.execute(
        select(ResultHistory.result_id, ResultHistory.action, ResultHistory.before, ResultHistory.after,
               Result.origin)
        .join(Result, Result.id == ResultHistory.result_id)
        .where(Result.tournament_id == tournament.id, ResultHistory.action.not_in(("create", "import", "table")))
        .order_by(ResultHistory.id).execution_options(**{WITH_PENDING: True})).all()
    corrected: set[int] = set()
    done: dict[int, bool] = {}
    for result_id, action, before, after, origin in rows:
        if done.get(result_id, origin != ORIGIN_TABLE) and _score_of(before) != _score_of(after):
            corrected.add(result_id)
        if action == "confirm" or action in ARBITER_ACTIONS:
            done[result_id] = True
    corrected.update(result_id for result_id, extra in session.execute(
        select(Result.id, Result.extra).where(Result.tournament_id == tournament.id, Result.extra.is_not(None)))
        if isinstance(extra, dict) and extra.get("corrected") is True)
    return corrected


def parse_score(text: str | int | None) -> int | None:
    """A typed score: ``+106``, ``106``, ``-42``, ``−42`` → int; blank → None; else OperationError."""
    if text is None or isinstance(text, int) and not isinstance(text, bool):
        return text
    text = str(text).strip().replace(" ", "")
    if not text:
        return None
    match = _SCORE.match(text)
    if not match:
        raise OperationError(f"Score illisible « {text} » : tapez un nombre avec son signe, par exemple +106 "
                             "ou -42.", "score")
    value = int(match.group(2))
    return -value if match.group(1) in ("-", "−", "–") else value


class LinesError(OperationError):
    """Some lines of a fiche were refused; ``errors`` maps a line's key to its French message;
    ``conflicts`` holds the keys of the lines another scorer saved meanwhile, ``settled`` those the arbiter
    has settled (`_results.refuse_if_settled`); ``conflict`` (answered 409): any of either."""

    def __init__(self, errors: dict[str, str], conflicts: set[str], settled: set[str] = frozenset()):
        count = len(errors)
        message = (f"{count} ligne{'s' if count > 1 else ''} refusée{'s' if count > 1 else ''} : rien n’a été "
                   "enregistré. Corrigez puis enregistrez de nouveau.")
        if conflicts:
            message = ("Un autre marqueur a enregistré cette fiche pendant votre saisie : rien n’a été "
                       "enregistré. Sur chaque ligne en conflit, son score est affiché à côté du vôtre : pour "
                       "le garder, tapez-le à la place du vôtre ; pour le remplacer par le vôtre, cliquez "
                       "« Remplacer ».")
        super().__init__(message)
        self.errors = errors
        self.conflicts = set(conflicts)
        self.settled = set(settled)
        self.conflict = bool(conflicts or settled)


def _conflict(result: Result) -> ConflictError:
    by = f" ({result.entered_by})" if result.entered_by else ""
    return ConflictError(f"Déjà enregistré par un autre marqueur{by} pendant votre saisie : "
                         f"{french.score(result.score)}. Gardez ce score ou cliquez « Remplacer ».")


def save_lines(session: Session, tournament: Tournament, lines: list[Line], entries: Mapping[str, Mapping],
               who: str | None, flagged: list | None = None, *, arbiter: bool = False) -> list[Result]:
    """Save the typed lines of a fiche (or of a table): ``entries[line.key]`` holds ``score`` (text),
    ``chelem`` (bool), ``contract`` (team match), ``version`` (the version of the result the form
    showed, None when the line was empty), ``attacker`` (quadrettes: the player id of the attacking
    quadrette's player who took, blank when not said) and ``replace`` (None, or the version of the other scorer's
    result the scorer has seen and chose to replace with « Remplacer »). A blank line stays empty; a line
    whose values are those stored is left alone. A line stored or changed by someone else since the form
    was built is a conflict (SPEC §11: nothing is overwritten without an explicit act) unless ``replace``
    names its current version: then it is replaced and its history records the action ``replace``. Every
    line is tried; if any is refused, `LinesError` lists them all (the caller rolls back: nothing is
    kept). Every line is checked before any is written; then all are written at once (`write_results`).

    A line entered at the table (pending, or done with origin ``table``, SPEC §12) is never changed from
    a paper fiche: a score that disagrees is flagged to the arbiter as a conflict (`flag_conflict`) and
    the line stays as it is; ``flagged`` (when given) receives ``(line, typed score)`` of each.

    A line the arbiter has settled (`_results.settled_by_arbiter`: adjusted, annulled or restored, given an
    arbitral note, a conflict on it settled) is changed by an ``arbiter`` only: a scorer's change is refused
    (the line is in ``LinesError.settled``, answered 409, never offered « Remplacer »). A paper score over a
    line entered at the table is checked (`check_entered_score`) before it is flagged: an impossible one
    is refused with the usual message, never a conflict."""
    kind = _kind(tournament)
    disagreeing: list[tuple[Line, int | None, bool]] = []
    context = CheckContext(session, tournament)
    typed = [line for line in lines if line.key in entries]
    boards, named = {line.board for line in typed}, {name for line in typed for name in (line.taker, *line.defence)}
    context.prepare_entrants(boards, named)
    begin_writing(session)  # ``lines`` may be read before: a line stored or changed since is a conflict
    context.prepare(boards, named)
    errors: dict[str, str] = {}
    conflicts: set[str] = set()
    settled: set[str] = set()
    created: list[tuple[str, Result]] = []
    changed: list[tuple] = []
    replaced: list[tuple[Line, int | None]] = []
    with session.no_autoflush:  # nothing is written before every line is checked
        for line in lines:
            _check_line(session, tournament, kind, context, line, entries, who, created, changed, replaced,
                        errors, conflicts, disagreeing, arbiter, settled)
    if errors:
        raise LinesError(errors, conflicts, settled)
    try:
        write_results(session, [result for _key, result in created], changed, context)
    except SlotsTaken as error:
        raise LinesError({created[i][0]: e.message for i, e in zip(error.indexes, error.errors)},
                         {created[i][0] for i in error.indexes}) from None
    except ConflictError as error:
        keys = [key for key, _ in created] + [f"{r.board}-{r.table}" for r, *_ in changed]
        raise LinesError({key: error.message for key in keys}, set(keys)) from None
    for line, score, chelem in disagreeing:
        flag_conflict(session, tournament, line.result, source="paper", score=score, chelem=chelem, who=who)
        if flagged is not None:
            flagged.append((line, score))
    for line, before in replaced:
        room = "ouverte" if line.room == "open" else "fermée"
        where = f"salle {room}" if line.room else f"table {line.table}"
        place = {"étui": line.board, **({"salle": room} if line.room else {"table": line.table})}
        journal(session, tournament, action="result.replace", who=who,
                summary=f"Étui {line.board}, {where} : score {french.score(before)} remplacé par "
                        f"{french.score(line.result.score)} (« Remplacer » après un conflit de saisie).",
                before={**place, "score": french.score(before)}, after={**place, "score": french.score(line.result.score)})
    return [result for _key, result in created] + [change[0] for change in changed]


def _check_line(session: Session, tournament: Tournament, kind: TournamentKind, context: CheckContext, line: Line,
                entries: Mapping[str, Mapping], who: str | None, created: list, changed: list, replaced: list,
                errors: dict[str, str], conflicts: set[str], disagreeing: list, arbiter: bool = False,
                settled: set[str] | None = None) -> None:
    """Check one typed line of `save_lines` and queue what it writes (``created``, ``changed``, ``replaced``,
    ``disagreeing``: a paper score against a line entered at the table), or note why it is refused
    (``errors``, ``conflicts``; ``settled``: a scorer's change to a line the arbiter has settled)."""
    settled = set() if settled is None else settled
    entry = entries.get(line.key)
    if entry is None:
        return
    try:
        score = parse_score(entry.get("score"))
        chelem = bool(entry.get("chelem"))
        contract = format_for(kind).bid_contract(entry.get("contract"))
        if contract is not None and contract not in CONTRACTS:
            raise OperationError("En match par équipes, le preneur annonce Garde, Garde Sans ou Garde Contre : "
                                 "la Prise n’y existe pas." if contract == "prise" else
                                 f"Contrat inconnu « {contract} ».", "contract")
        # quadrettes: who of the attacking quadrette took (blank: not said); the core checks membership
        attacker = format_for(kind).attacker_of(entry.get("attacker"))
        version = entry.get("version")
        if line.result is None:
            if version is not None:
                raise ConflictError("Ce score a disparu entre-temps : rechargez la fiche.")
            if score is None:
                return
            fields = line.fields(kind)
            fields.update(score=score, chelem=chelem)
            if contract is not None:
                fields["contract"] = contract
            if attacker is not None:
                fields["attacker"] = attacker
            created.append((line.key, check_new_result(session, tournament, entered_by=who, context=context,
                                                       **fields)))
            return
        result = line.result
        if version is None and score is None:
            return  # the line was empty on this scorer's form and still is: nothing typed
        changes: dict[str, Any] = {}
        if score is None:
            if result.score is not None:
                raise OperationError("Un score saisi ne s’efface pas : corrigez-le, ou demandez à l’arbitre "
                                     "d’annuler la donne.", "score")
        elif score != result.score:
            changes["score"] = score
        if chelem != bool(result.chelem):
            changes["chelem"] = chelem
        if contract is not None and contract != (result.contract or "garde"):
            changes["contract"] = contract
        if "attacker" in entry and kind is TournamentKind.quadrettes and attacker != result.attacker:
            changes["attacker"] = attacker
        if not changes:
            return
        if not arbiter:
            refuse_if_settled(session, result)  # the arbiter has decided this line: his acts only change it
        if result.status == PENDING or result.origin == "table":
            if score is not None:  # an impossible score is refused here, never flagged as a conflict
                check_entered_score(score, contract or result.contract, chelem)
                disagreeing.append((line, score, chelem))
            return
        replace = entry.get("replace")
        if replace is not None:
            before = result.score
            changed.append(check_change(session, result, version_id=int(replace), who=who, action="replace",
                                        context=context, **changes))
            replaced.append((line, before))
        elif version is None or int(version) != result.version_id:
            raise _conflict(result)
        else:
            changed.append(check_change(session, result, version_id=int(version), who=who, context=context,
                                        **changes))
    except SettledLine as error:  # not a scorers' conflict: no « Remplacer » on it
        errors[line.key] = error.message
        settled.add(line.key)
    except ConflictError as error:
        errors[line.key] = error.message
        conflicts.add(line.key)
    except OperationError as error:
        errors[line.key] = error.message


# --- the electronic scoring API (SPEC §9 result objects) -----------------------------------------------------

_API_TYPES = {
    "board": int, "table": int, "position": int, "quarter": int, "score": int, "taker": str, "taker_team": str,
    "defence_team": str, "contract": str, "room": str, "chelem": bool, "annulled": bool, "adjusted": bool,
    "attacker": str,
}
ARBITER_FIELDS = ("annulled", "adjusted", "notes")


class ApiLineError(OperationError):
    """One result of an API request refused: ``index`` (0-based) and whether it is a conflict."""

    def __init__(self, index: int, error: OperationError):
        super().__init__(f"résultat n° {index + 1} : {error.message}", error.field)
        self.index = index
        self.conflict = isinstance(error, ConflictError)


def _api_fields(item: Any) -> dict:
    if not isinstance(item, dict):
        raise OperationError("un objet JSON est attendu")
    values = {}
    for name in RESULT_FIELDS:
        if name not in item or item[name] is None:
            continue
        value = item[name]
        expected = _API_TYPES.get(name)
        if expected is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise OperationError(f"« {name} » doit être un nombre entier", name)
        if expected is str and (not isinstance(value, str) or len(value) > 40):
            raise OperationError(f"« {name} » doit être un texte court", name)
        if expected is bool and not isinstance(value, bool):
            raise OperationError(f"« {name} » doit valoir true ou false", name)
        if name == "defenders" and (not isinstance(value, list) or not all(isinstance(d, str) and len(d) <= 40
                                                                          for d in value)):
            raise OperationError("« defenders » doit être une liste d’identifiants", name)
        if name == "notes" and not isinstance(value, dict):
            raise OperationError("« notes » doit être un objet {\"taker\": …, \"defence\": …}", name)
        values[name] = value
    return values


def _match_movement(kind: TournamentKind, expected: Mapping[tuple, Line], fields: dict, known: set) -> None:
    """A line sent by a device must be one the movement lays out: that étui at that table (room), with
    the participants the movement seats there; a missing position is taken from the movement. Unknown
    participants are left to the core's reading (« joueur inconnu »)."""
    named = [fields.get("taker"), *(fields.get("defenders") or []), fields.get("taker_team"),
             fields.get("defence_team")]
    if any(name is not None and name not in known for name in named):
        return
    board, table = fields["board"], fields["table"]
    line = expected.get((board, result_slot(table, fields.get("room"))))
    if line is None or line.table != table:
        raise OperationError(f"Le mouvement n’envoie pas l’étui {board} à la table {table}.", "table")
    wanted = line.fields(kind)
    for name in ("taker", "defenders", "taker_team", "defence_team"):
        if name in fields and name in wanted and fields[name] != wanted[name]:
            who = (f"{wanted['taker']} preneur, {', '.join(wanted['defenders'])} en défense"
                   if "taker" in wanted else f"{wanted['taker_team']} en attaque, "
                   f"{wanted['defence_team']} en défense")
            raise OperationError(f"À la table {table}, le mouvement place pour l’étui {board} : {who}.", name)
    if fields.get("position") is None and line.position is not None:
        fields["position"] = line.position
    elif fields.get("position") != line.position:
        raise OperationError(f"L’étui {board} se joue à la table {table} en position {line.position}.", "position")


def record_api_results(session: Session, tournament: Tournament, items: Any, *, who: str,
                       role: Role | str = Role.scorer) -> list[Result]:
    """Store a list of SPEC §9 result objects, all or nothing (the caller rolls back on an error): each is
    checked like a line typed on screen. `ApiLineError` names the first refused one; a score already
    there for that étui and table is a conflict. Only an arbiter's token may send ``annulled``,
    ``adjusted`` or ``notes``; other fields than those of SPEC §9 are ignored. Every result is checked
    before any is written; then all are written at once (`write_results`)."""
    if not isinstance(items, list) or not items:
        raise OperationError("Une liste JSON non vide de résultats est attendue.")
    if len(items) > 1000:
        raise OperationError("1000 résultats au plus par envoi.")
    stored: list[Result] = []
    kind = _kind(tournament)
    boards = {item.get("board") for item in items if isinstance(item, dict) and isinstance(item.get("board"), int)}
    tables = {item["table"] for item in items if isinstance(item, dict) and type(item.get("table")) is int}
    table = next(iter(tables)) if len(tables) == 1 and all(isinstance(item, dict) and item.get("table") in tables
                                                           for item in items) else None
    context = CheckContext(session, tournament)
    expected = {(line.board, line.slot): line for line in all_lines(session, tournament, boards=boards, table=table,
                                                                     movement=context.movement, results=False)}
    named = {name for item in items if isinstance(item, dict)
             for name in (item.get("taker"), item.get("taker_team"), item.get("defence_team"),
                          *(item.get("defenders") if isinstance(item.get("defenders"), list) else ()))
             if isinstance(name, str)}
    context.prepare_entrants(boards, named)
    known = set(context.lines) & named
    if known:  # who is seated: the substitutes are not (SPEC §11)
        known -= set(session.exec(select(Player.entrant_id).join(Substitution, Substitution.player_id == Player.id)
                                  .where(Substitution.tournament_id == tournament.id,
                                         Player.entrant_id.in_(known))).all())
    begin_writing(session)  # the étuis' results, checked against, are read with the write lock held
    context.prepare(boards, named)
    for index, item in enumerate(items):
        try:
            fields = _api_fields(item)
            located = isinstance(fields.get("board"), int) and isinstance(fields.get("table"), int)
            if context.rounds is not None and located:
                _match_movement(kind, expected, fields, known)
            if Role(role) is not Role.arbiter and any(name in fields for name in ARBITER_FIELDS):
                raise PermissionError(f"résultat n° {index + 1} : seul un jeton d’arbitre peut annuler une "
                                      "donne, ajuster un score ou donner une note arbitrale")
            with session.no_autoflush:
                stored.append(check_new_result(session, tournament, entered_by=who, context=context, **fields))
        except OperationError as error:
            raise ApiLineError(index, error) from None
    try:
        write_results(session, stored, [], context)
    except SlotsTaken as error:
        raise ApiLineError(error.indexes[0] if error.indexes else 0, error.errors[0]) from None
    return stored
