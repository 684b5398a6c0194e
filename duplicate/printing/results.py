"""Plain-data contexts for the result sheets (SPEC §8): feuilles de route récapitulatives, rankings
(general and alternated; PM for quadrettes and team matches) and the frequency report per étui.

They read the SPEC §9 tournament dict and its SPEC §9 ranking output; when the ranking is not given
it is computed by the rules engine (``core.tournament.ranking_output``), the same function the web
and the ``rank`` command use.  Percentages print with two decimals and a decimal comma; exact ties
share the place and are marked « ex æquo ».

Route sheets carry a QR code of the participant's private route-sheet page when its URL is given
(``route_urls``: entrant id → absolute URL); tokens never leave the database otherwise.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from duplicate import french
from duplicate.view_models.rankings import rankings_view
from duplicate.view_models.frequencies import frequencies_view
from duplicate.view_models.route_sheet import route_sheets_view

from . import text_table
from duplicate.view_models.export import Tournament


def ensure_ranking(export: Mapping[str, Any], ranking: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if ranking is not None:
        return ranking
    from duplicate.core.tournament import load_tournament, ranking_output

    return ranking_output(load_tournament(json.dumps(export)))


# --- route sheets ---------------------------------------------------------------------------------------

def route_sheets(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None, *,
                 entrants: list[str] | None = None, route_urls: Mapping[str, str] | None = None) -> dict:
    """One feuille de route per player (individual) or team: every étui played, role, score, note;
    attack %, defence %, global %, penalties, places; PM per étui and total for quadrettes/teams. The rows
    are `view_models.route_sheets_view`'s, the private page's too; here each becomes a fixed-pitch line."""
    view = route_sheets_view(export, ensure_ranking(export, ranking), entrants=entrants)
    for sheet in view["items"]:
        sheet["header_line"] = _route_lines(sheet["rows"], team=view["team"], pm=view["pm"])
        sheet["row_groups"] = _row_groups(sheet["rows"])
        # its QR code is drawn by the template (filter ``qr_png``), in the render workers
        sheet["url"] = (route_urls or {}).get(sheet["id"]) or ""
    return view


def _route_lines(rows: list[dict], *, team: bool, pm: bool) -> str:
    """The route sheet's table as fixed-pitch text (:mod:`.text_table`): sets each row's ``line`` (its
    cells but the remarks, which the template prints after it in red) and returns the header line."""
    header = ["Position", "Table", "Étui", "Rôle", *(["Adversaire"] if team else []), "Score",
              "PM" if pm else "Note", "Remarques"]
    right = {0, 1, 2, len(header) - 3, len(header) - 2}
    cells = {}
    for r in rows:
        if not r["relais"]:
            cells[id(r)] = [french.quarter_label(r["quarter"]) if r["quarter"] else str(r["position"]),
                            f"{r['table']} ({r['room']})" if r["room"] else str(r["table"]), str(r["board"]),
                            r["role"] + (f" · {r['attacker']}" if r.get("attacker") else ""),
                            *([r.get("opponent", "")] if team else []), r["score"], r["note"], ""]
    sizes = text_table.widths(header, list(cells.values()))
    if any(r["quarter"] for r in rows):
        right.discard(0)  # « 1er quart temps » reads better left-aligned
    for r in rows:
        r["line"] = (text_table.line(cells[id(r)], sizes, right) if not r["relais"] else
                     text_table.line([str(r["position"]), "relais (pas de table à cette position)"], sizes, right))
    return text_table.line(header, sizes, right)


def _row_groups(rows: list[dict]) -> list[dict]:
    """Consecutive rows of the same look (« attack », « relais » or plain) as one group, printed as one
    block of lines: ``[{"look": …, "rows": […]}, …]``.

    Why: WeasyPrint lays out and draws every block box on its own, and a block a row cost about a
    third more than the same lines in fewer blocks (profiled on the 600 route sheets, issue 15).  An
    individual's sheet (1 attack row in 4) prints 14 blocks instead of 28."""
    groups: list[dict] = []
    for r in rows:
        look = "attack" if r["attack"] else "relais" if r["relais"] else "plain"
        if not groups or groups[-1]["look"] != look:
            groups.append({"look": look, "rows": []})
        groups[-1]["rows"].append(r)
    return groups


# --- rankings ---------------------------------------------------------------------------------------------

def rankings(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None) -> dict:
    """General and alternated rankings (individual, triplettes); PM ranking (quadrettes, team match): the
    page's view-model (`duplicate.view_models.rankings_view`) with the tournament's heading."""
    t = Tournament(export, ranking := ensure_ranking(export, ranking))
    penalties = [{"entrant": p.get("player", p.get("team")), "points": p.get("points"), "board": p.get("board"),
                  "reason": p.get("reason")} for p in export.get("penalties", [])]
    clubs = {ident: str(item.get("club") or "") for ident, item in t.entrants.items()}
    return dict(rankings_view(t.format, ranking, clubs=clubs, penalties=penalties), tournament=t.header)


# --- frequencies -------------------------------------------------------------------------------------------

def frequencies(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None, *,
                boards: list[int] | None = None) -> dict:
    """Per étui, every score made with how many tables made it and the notes it earned: the view-model
    the étui page reads too (`view_models.frequencies_view`)."""
    return frequencies_view(export, ensure_ranking(export, ranking), boards=boards)
