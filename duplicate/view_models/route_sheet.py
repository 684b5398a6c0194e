"""The feuilles de route récapitulatives as the private page and the printed sheet show them (SPEC §8, §11).

One function, `route_sheets_view`, reads the SPEC §9 tournament file (the export, with ``"corrected": true``
on the results whose done score was changed afterwards, `operations.corrected_ids`) and its SPEC §9
ranking output, and returns per entrant the rows of his sheet as plain data, every number already written
by `duplicate.french`:

* one row per étui played — position (or quarter), table (or room), étui, role (« Preneur », « Défense
  (à gauche) »…, « Attaque » / « Défense » for a team, with the opponent and, for the attack, who
  attacked: his badge in triplettes, his room in a team match — issue 29 point 8), the score, the note
  (% of the line, or the PM the attack scores, SPEC §6), and the arbiter's marks (`view_models.export.flags`:
  « donne annulée », « score rectifié par l’arbitre »…);
* one row per position where the player rests (« relais », SPEC §7), up to the last position with a
  result: the sheet tells what has been played, not what is to come;
* his standing (`rankings.standings_view`), his penalties, and the étuis counted in each role, worded once
  (« 4 étuis », « 1 étui »: ``attack_count``, ``defence_count``).

The page and the paper print the same columns in the same order with the same words (issue 29 point 13):
``columns`` heads them — position (« Quart temps » in a team match), table (« Salle »), étui, role (with
« contre » and the opponent's place, joined by a no-break space), score, note or PM, remarks — and each
row's ``where`` (the table's number, or « ouverte » / « fermée »), ``role_text`` and ``remarks`` (the marks,
then the arbiter's reason) are its cells' words.

Secrecy (SPEC §11): before publication the caller passes the file without its secret fields
(`operations.without_scores`) and an empty ranking: the rows then carry the étuis entered so far, with
no score, note, mark, standing or penalty. The page (`templates/public/route_sheet.html`) and the paper
(`templates/print/route_sheets.html`, through `printing.results.route_sheets`) only lay the rows out.
"""

from __future__ import annotations

from typing import Any, Mapping

from duplicate import french
from .export import ROOMS, Tournament, attacker_text, flags
from .formatting import pm_text

from .rankings import standings_view

__all__ = ["route_sheets_view", "route_columns"]

#: A room in the route sheet's « Salle » column (its table's number otherwise).
ROOM_WORDS = {"open": "ouverte", "closed": "fermée"}


def route_columns(fmt) -> list[str]:
    """The route sheet's column heads, in the order the page and the paper print them (module docstring)."""
    return [fmt.position_noun, fmt.table_noun, "Étui", "Rôle", "Score",
            "PM" if fmt.uses_pm else "Note", "Remarques"]


def _etuis(count) -> str:
    """« 1 étui », « 4 étuis »: the étuis a role was played on (the row's and the column's noun)."""
    return french.counted(count or 0, "étui", "étuis")


def _seats(t: Tournament) -> dict[tuple, dict[str, str]]:
    """(position, table) → {entrant: seat} of the movement's rounds (read once per view)."""
    return {(r["position"], r["table"]): {ident: key for key, ident in r.get("seats", {}).items()}
            for r in t.rounds}


def _role_individual(t: Tournament, seats: Mapping[tuple, Mapping[str, str]], result: Mapping, position,
                     who: str) -> tuple[str, bool]:
    if result.get("taker") == who:
        return "Preneur", True
    taker_seat = t.taker_seat(result["board"])
    seat = seats.get((position, result["table"]), {}).get(who)
    if taker_seat and seat in ("N", "S", "E", "W"):
        from duplicate.core.cards import Seat

        places = Seat(taker_seat).defensive_places()
        for place, s in places.items():
            if s.value == seat:
                return f"Défense ({place})", False
    return "Défense", False


def _note(t: Tournament, notes: Mapping | None, attack: bool, annulled: bool) -> str:
    """The note of one row: the PM the attack scores (none for the defence, whose PM are its attack's
    elsewhere) written as the feuille de marque and the étui page write it (`formatting.pm_text`: « 4,000 »
    in a team match, never signed; « −3,162 » in quadrettes), or the % of the line (none on an annulled deal)."""
    if t.format.uses_pm:
        return pm_text(t.format, notes.get("pm")) if notes and attack else ""
    note = None if notes is None or annulled else notes.get("taker_note" if attack else "defence_note")
    return french.number(note, empty="")


def route_sheets_view(export: Mapping[str, Any], ranking: Mapping[str, Any], *,
                      entrants: list[str] | None = None) -> dict:
    """The feuilles de route of ``entrants`` (default: every entrant, in place order). Returns
    ``{"tournament", "items", "pm", "team", "entrant_count"}``; each item is ``{"id", "name", "club",
    "line", "members", "rows", "penalties", "ranked"}`` plus its standing (`standings_view`); each row
    ``{"position", "quarter", "table", "where", "room", "room_id", "board", "role", "role_text", "attack", "opponent",
    "opponent_id", "attacker", "attacker_colour", "score", "note", "flags", "annulled", "corrected", "reason",
    "remarks", "relais"}``, strings already in French (empty where there is nothing to show). ``attacker`` is who of the
    team attacked, in the one wording of `export.attacker_text` (« DUPONT Jean (Bleu) », « DUPONT Jean »: the
    row's « Salle » says his room), ``attacker_colour`` his triplette badge for the page's colour chip."""
    t = Tournament(export, ranking)
    fmt = t.format
    standing = {row["id"]: row for row in ranking.get("ranking", [])}
    standings = standings_view(fmt, ranking, entrants)
    penalties: dict[str, list[Mapping]] = {}
    for p in export.get("penalties", []):
        who = p.get("team", p.get("player")) if fmt.has_teams else p.get("player")
        penalties.setdefault(who, []).append(p)
    position_of = {(n, r["table"]): r["position"] for r in t.rounds for n in r.get("boards", [])}
    seats = _seats(t)
    wanted = set(entrants) if entrants else None  # a page asks for one sheet: only its rows are built
    rows_of: dict[str, list[dict]] = {}
    for result in t.results:
        if wanted is not None and wanted.isdisjoint((result.get("taker"), *result.get("defenders", ()),
                                                     result.get("taker_team"), result.get("defence_team"))):
            continue
        notes = t.notes_at(result["board"], result["table"], result.get("room"))
        annulled = bool(result.get("annulled"))
        marks = flags(result, notes)
        position = result.get("position") or position_of.get((result["board"], result["table"])) or ""
        decided = annulled or result.get("adjusted") or result.get("notes") is not None
        reason = str(result.get("reason") or "") if decided else ""
        common = {"board": result["board"], "table": result["table"], "position": position,
                  "flags": marks, "score": french.score(result.get("score"), empty=""),
                  "room": ROOMS.get(result.get("room"), "") if result.get("room") else "",
                  "where": ROOM_WORDS.get(result.get("room"), str(result["table"])),
                  "room_id": result.get("room") or "", "quarter": result.get("quarter") or "", "relais": False,
                  "annulled": annulled, "corrected": bool(result.get("corrected")), "reason": reason,
                  "remarks": " ; ".join(marks) + (f" : {reason}" if reason and marks else reason),
                  "attacker": "", "attacker_colour": "", "opponent": "", "opponent_id": ""}
        if not fmt.has_teams:
            for who in [result.get("taker"), *result.get("defenders", [])]:
                if wanted is not None and who not in wanted:
                    continue
                role, attack = _role_individual(t, seats, result, position, who)
                rows_of.setdefault(who, []).append(dict(common, role=role, role_text=role, attack=attack,
                                                        note=_note(t, notes, attack, annulled)))
        else:
            for who, attack in ((result.get("taker_team"), True), (result.get("defence_team"), False)):
                opponent = result.get("defence_team") if attack else result.get("taker_team")
                role = "Attaque" if attack else "Défense"
                against = f"{role} contre\u00a0{french.place_label(opponent)}" if opponent else role
                attacker = t.attacker(result["board"], who, result) if attack else None
                rows_of.setdefault(who, []).append(dict(
                    common, role=role, role_text=against, attack=attack, opponent=t.name(opponent),
                    opponent_id=opponent or "", attacker=attacker_text(attacker, room=False),
                    attacker_colour=attacker["colour"] if attacker else "",
                    note=_note(t, notes, attack, annulled)))
    # a resting player's positions (« relais », SPEC §7), up to the last position with a result
    reached = max((r.get("position") or position_of.get((r["board"], r["table"]), 0) for r in t.results), default=0)
    for position in sorted(t.rests):
        if position <= reached:
            for who in t.resting_at(position):
                rows_of.setdefault(who, []).append(
                    {"board": "", "table": "relais", "where": "relais", "position": position, "flags": [], "score": "",
                     "room": "", "room_id": "", "quarter": "", "role": "relais", "role_text": "relais", "remarks": "",
                     "attack": False, "note": "", "relais": True, "annulled": False, "corrected": False, "reason": "",
                     "attacker": "", "attacker_colour": "", "opponent": "", "opponent_id": ""})
    known = t.entrants
    order = entrants or sorted(known or rows_of, key=french.place_order)
    items = []
    for who in order:
        rows = sorted(rows_of.get(who, []), key=lambda r: (r["position"] or 0, r["quarter"] or 0, r["board"] or 0,
                                                          not r["attack"]))
        row = standing.get(who, {})
        item = known.get(who, {})
        sheet = {
            "id": who, "name": t.name(who), "club": str(item.get("club") or ""), "line": row.get("line", ""),
            "members": [t.name(m) for m in item.get("members", [])] if fmt.has_teams else [],
            "rows": rows,
            "penalties": [{"points": french.number(p.get("points")), "reason": str(p.get("reason") or ""),
                           "board": p.get("board")} for p in penalties.get(who, [])],
            "ranked": bool(row),  # no ranking row: not published yet (or nothing played), no totals
        }
        sheet.update(standings.get(who, {}))
        sheet.update(attack_count=_etuis(sheet.get("attack_boards")), defence_count=_etuis(sheet.get("defence_boards")))
        items.append(sheet)
    return {"tournament": t.header, "items": items, "pm": fmt.uses_pm, "team": fmt.has_teams,
            "entrant_count": len(known or rows_of), "columns": route_columns(fmt)}
