"""The arbiter's next step (issue 29 point 15): what the dashboard names under « Prochaine étape ».

Computed from stored facts only, in the order of the evening:

1. the first step of `readiness` not done (registrations, teams, placement, étuis, donnes, movement, who
   attacks), with its own detail — the same list the dashboard shows, so « Tout est prêt » and the next
   step never disagree;
2. once all are done, ``launch``: position 1 is to be started in « Salle » — while the clock was never
   started (`find_clock`) and no line is stored (lines entered from paper without the clock also mean play
   has begun);
3. ``results``: lines are still expected (`completeness`, the count the dashboard's « Lignes encore
   attendues » shows);
4. ``publish``: the results are not published (`is_published`);
5. then none.

Free play has no clock and its readiness already ends with its feuilles de marque entered
(`free_readiness`): once ready, its only step left is publication.
"""

from __future__ import annotations

from sqlmodel import Session

from duplicate import french
from duplicate.models import Tournament

from ._common import _format, _has_results
from ._live import find_clock
from ._publishing import completeness, is_published
from ._tournaments import readiness

__all__ = ["next_step"]


def next_step(session: Session, tournament: Tournament,
              steps: list[tuple[str, bool, str]] | None = None) -> tuple[str, str] | None:
    """``(step, French detail)`` of the arbiter's next step, ``step`` a key of `STEP_LABELS`; None when
    everything is done (published). ``steps``: `readiness`'s answer when the caller already has it."""
    for step, done, detail in readiness(session, tournament) if steps is None else steps:
        if not done:
            return step, detail
    if _format(tournament).has_etuis:
        clock = find_clock(session, tournament)
        if (clock is None or clock.position is None) and not _has_results(session, tournament):
            return "launch", "le chronomètre de la salle n’a encore lancé aucune position"
        missing = completeness(session, tournament)["missing"]
        if missing:
            return "results", french.counted(missing, "ligne encore attendue", "lignes encore attendues")
    if not is_published(tournament):
        return "publish", "le public ne voit encore que l’avancée de la saisie"
    return None
