"""A team match's score sheet, quarter by quarter (issue 15): the stored results read as the ranking reads
them (`_tournaments.to_core`) and the attackers the arbiter chose (`_team_match`). Above both, so that the
settings (`_team_match`) and the readiness steps (`_tournaments`) need not import each other."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlmodel import Session

from duplicate.core.team_sheet import quarter_sheets
from duplicate.models import Tournament

from ._team_match import _require_team_match, attacker_names
from ._tournaments import to_core


def sheet(session: Session, tournament: Tournament) -> dict[str, Any]:
    """The score sheet of the match, quarter by quarter (`core.team_sheet.quarter_sheets` on the stored
    results, read as the ranking reads them, `to_core`): ``{"teams": (A, B), "bonus": {…}, "quarters": […],
    "attackers": {(quarter, team): name}}``."""
    _require_team_match(tournament)
    core = to_core(session, tournament)
    pair = ("A", "B")
    bonus = {team: core.teams[team].bonus if team in core.teams else Decimal(0) for team in pair}
    return {"teams": pair, "names": {team: core.teams[team].name if team in core.teams else team for team in pair},
            "bonus": bonus, "quarters": quarter_sheets(core.results, pair, bonus),
            "attackers": attacker_names(session, tournament)}
