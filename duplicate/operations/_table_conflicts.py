"""The conflicts between a table's phone and the paper fiches (SPEC §12, issue 13), as the arbiter sees and
settles them.

* **Paper fiches** keep working: a paper score that disagrees with a line entered at the table is not
  written but flagged (`flag_conflict`); the arbiter keeps one (`resolve_conflict`), which settles the
  line (done).
"""

from __future__ import annotations

from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.models import DONE, PENDING, WITH_PENDING, Result, ResultConflict, Tournament, utcnow

from ._common import ConflictError, NotFound, OperationError
from ._journal import journal
from ._results import check_change, write_results


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
