"""The team match's score sheet per quarter as plain data, read by both the arbiter's page
(``templates/arbiter/team_match_sheet.html``) and the paper (``templates/print/team_sheet.html``), so
screen and paper show the same strings (issue 15 point 3; SPEC §6).

Per quarter: one row per étui with the open and closed rooms side by side (the attacking team in the
room's heading — it is the same for the whole quarter —, then per étui the contract and the attacker's
score), the gap between the two attackers (team A's − team B's), the PM each team scores
(the better attacker's team scores |PM|, the other nothing: seed « Les comptes »), then the quarter's
PM and the running total from the bonus on.  Numbers are formatted by `duplicate.french` only.
"""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any, Mapping

from duplicate import french
from duplicate.core.formats import format_for
from duplicate.core.scoring import Contract
from duplicate.view_models.export import Tournament

CONTRACT_LABELS = {c.value: c.french for c in Contract}
ROOMS = (("open", "Salle ouverte"), ("closed", "Salle fermée"))


def _score(value: int | None) -> str:
    return french.signed_number(value, 0)


def view(sheet: Mapping[str, Any], tournament) -> dict[str, Any]:
    """The page's and the paper's data from `operations.team_match_sheet`."""
    first, second = sheet["teams"]
    names = sheet["names"]
    quarters = []
    for quarter in sheet["quarters"]:
        rows = []
        for row in quarter.rows:
            rooms = {}
            for room, _label in ROOMS:
                play = row.plays.get(room)
                rooms[room] = None if play is None else {
                    "attack": play.attack, "attack_name": names.get(play.attack, play.attack),
                    "contract": CONTRACT_LABELS.get(play.contract, play.contract),
                    "score": "annulée" if play.annulled else _score(play.score)}
            rows.append({"board": row.board, "rooms": rooms,
                         "difference": _score(row.difference) if row.difference is not None else "",
                         "pm": {team: french.number(row.pm[team], 3) if row.pm.get(team) else ""
                                for team in (first, second)}})
        attack = {room: next((r["rooms"][room]["attack"] for r in rows if r["rooms"][room]), "") for room, _ in ROOMS}
        ordinal = "1er" if quarter.number == 1 else f"{quarter.number}e"
        quarters.append({
            "number": quarter.number, "label": f"{ordinal} quart temps", "rows": rows, "attack": attack,
            "attackers": {team: sheet["attackers"].get((quarter.number, team), "—") for team in (first, second)},
            "pm": {team: french.number(quarter.pm[team], 3) for team in (first, second)},
            "running": {team: french.number(quarter.running[team], 3) for team in (first, second)},
        })
    return {"tournament": {"name": tournament.name, "date": french_date(tournament.date), "place": tournament.place},
            "teams": [{"id": team, "name": names.get(team, team)} for team in (first, second)],
            "bonus": {team: french.number(sheet["bonus"][team], 3) for team in (first, second)},
            "rooms": ROOMS, "quarters": quarters}


def french_date(date) -> str:
    """« 23/11/2026 » (the printouts' short date); an ISO text (the export's) too; None → ""."""
    if isinstance(date, str):
        date = datetime.date.fromisoformat(date)
    return date.strftime("%d/%m/%Y") if date is not None else ""


def context(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The sheet of a team match's export (SPEC §9 file), as the print pack reads every kind: the page's data
    with ``items`` (its quarters); no item for another kind or before any result."""
    from duplicate.core.team_sheet import quarter_sheets
    from duplicate.core.tournament import read_tournament

    if not format_for(export.get("kind", "individual")).has_team_match_pages or not export.get("results"):
        return {"items": []}
    core = read_tournament(export)
    pair = ("A", "B")
    bonus = {team: core.teams[team].bonus if team in core.teams else 0 for team in pair}
    t = Tournament(export)
    attackers = {key: t.name(player) for key, player in t.team_attackers.items()}
    sheet = {"teams": pair, "names": {t: core.teams[t].name if t in core.teams else t for t in pair},
             "bonus": bonus, "quarters": quarter_sheets(core.results, pair, bonus), "attackers": attackers}
    header = SimpleNamespace(name=export.get("name") or "", date=export.get("date"), place=export.get("place") or "")
    page = view(sheet, header)
    return {**page, "items": page["quarters"]}


def pdf(page: Mapping[str, Any]) -> bytes:
    """The sheet on A4 paper (landscape), one quarter under the other."""
    from .render import environment, html_to_pdf

    return html_to_pdf(environment().get_template("print/team_sheet.html").render(**page))
