"""The rankings of a séance as the results page, the projector and the printed ranking show them.

One function, `rankings_view`, reads the core's SPEC §9 ranking output (`core.tournament.ranking_output`)
and returns plain data, every number already written by `duplicate.french` (two decimals for percentages,
three for PM, half away from zero, decimal comma, true minus sign):

* the **general ranking** (individual and triplettes: attack, defence, penalty and global percentages,
  SPEC §5; quadrettes and team match: PM, SPEC §6), in the core's order (best first, the « hors
  classement » last; `core.ranking`); rows sharing a place are marked « ex æquo » (seed
  « duplicate-tournaments.txt »: equal global percentages share the place);
* the **alternated ranking** (individual and triplettes): the firsts of each line, then the seconds…
  (SPEC §5) in the core's order, with the row's general place beside it; ``group_start`` marks each new « rank inside its
  line » so that the paper can rule a line between groups;
* the **team match's quarters** (SPEC §7): PM per quarter, bonus and total;
* the **penalties** the arbiter gave, and how many entrants are ranked (the « hors classement » —
  fill-in players and substitutes, SPEC §11 — have no place and are not counted);
* each entrant's **standing** as his feuille de route shows it, on the screen and on paper
  (`standings_view`).

Which columns a kind shows is the `Format`'s decision (``uses_pm``, ``ranks_players``, ``lines`` and
``line_labels``), never a test of the kind's name.
"""

from __future__ import annotations

from typing import Any, Collection, Iterable, Mapping

from duplicate import french
from duplicate.core.formats import Format
from duplicate.core.ranking import shared_places

from .formatting import total_pm_text

__all__ = ["rankings_view", "standings_view", "standing_status"]

GENERAL, ALTERNATED, QUARTERS = "general", "alternated", "quarters"
TITLES = {GENERAL: "Classement général", ALTERNATED: "Classement alterné",
          QUARTERS: "Tableau de marque par quart temps"}
PM_TITLE = "Classement en points de match"


def standing_status(row: Mapping[str, Any]) -> str:
    """The evening's marks of a ranking row, in French (SPEC §11): « hors classement » (fill-in player,
    substitute), « forfait à la position k, classé dernier » (booklet art. 27); "" when none."""
    marks = []
    if row.get("out_of_ranking"):
        marks.append("hors classement")
    withdrawn = row.get("withdrawn")
    if isinstance(withdrawn, Mapping):
        marks.append(f"forfait à la position {withdrawn.get('position')}, classé dernier")
    return ", ".join(marks)


def _general_row(fmt: Format, row: Mapping, clubs: Mapping[str, str], ties: set) -> dict:
    line = {"rank": row.get("rank"), "tie": row.get("rank") in ties, "id": row["id"],
            "place_id": french.place_label(row["id"]), "name": str(row.get("name") or row["id"]),
            "club": str(clubs.get(row["id"]) or ""), "status": standing_status(row),
            "group_start": False, "general_rank": row.get("rank")}
    if fmt.uses_pm:
        line["pm"] = total_pm_text(fmt, row.get("pm"))
        line["value"] = line["pm"]
    else:
        labels = dict(zip(fmt.lines, fmt.line_labels))
        line.update(line_name=labels.get(row.get("line"), french.place_label(row.get("line"))),
                    attack=french.number(row.get("attack")), defence=french.number(row.get("defence")),
                    global_=french.number(row.get("global")),
                    penalty=french.number(row["penalty"]) if row.get("penalty") else "",
                    flagged=bool(row.get("flagged")))
        line["value"] = line["global_"]
    return line


def rankings_view(fmt: Format, output: Mapping[str, Any], *, clubs: Mapping[str, str] | None = None,
                  penalties: Iterable[Mapping[str, Any]] = ()) -> dict:
    """The rankings of the ranking output ``output`` for a tournament of format ``fmt``.

    ``clubs``: entrant id → club (printed beside the name); ``penalties``: the arbiter's penalties as
    ``{"entrant", "points", "board", "reason"}``. Returns ``{"pm", "team", "items", "penalties", "count"}``
    where each item is ``{"title", "kind", "rows"}`` (``kind``: general, alternated or quarters)."""
    clubs = clubs or {}
    rows = list(output.get("ranking", []))
    names = {row["id"]: str(row.get("name") or row["id"]) for row in rows}
    ties = shared_places(rows, "rank")
    general = [_general_row(fmt, row, clubs, ties) for row in rows]
    items = [{"title": PM_TITLE if fmt.uses_pm else TITLES[GENERAL], "kind": GENERAL, "rows": general}]
    placed = [r for r in rows if r.get("alternated_rank") is not None]  # not the « hors classement »
    if not fmt.uses_pm and placed:
        alternated_ties = shared_places(placed, "alternated_rank")
        by_id = {line["id"]: line for line in general}
        alternated, seen, group = [], {}, 0
        for r in sorted(placed, key=lambda r: r["alternated_rank"]):
            # the group of an entrant is its place inside its line (1st of line, 2nd of line…)
            seen[r.get("line")] = seen.get(r.get("line"), 0) + 1
            start = bool(alternated) and seen[r.get("line")] != group
            group = seen[r.get("line")]
            alternated.append(dict(by_id[r["id"]], rank=r["alternated_rank"], group_start=start,
                                   tie=r["alternated_rank"] in alternated_ties))
        items.append({"title": TITLES[ALTERNATED], "kind": ALTERNATED, "rows": alternated})
    if output.get("quarters"):
        items.append({"title": TITLES[QUARTERS], "kind": QUARTERS, "rows": [
            {"id": q["team"], "place_id": french.place_label(q["team"]), "name": names.get(q["team"], q["team"]),
             "quarters": [total_pm_text(fmt, q["quarters"].get(str(n))) for n in range(1, 5)],
             "bonus": total_pm_text(fmt, q.get("bonus")), "total": total_pm_text(fmt, q.get("total"))}
            for q in output["quarters"]]})
    return {
        "pm": fmt.uses_pm, "team": fmt.has_teams, "items": items,
        "penalties": [{"id": p["entrant"], "place_id": french.place_label(p["entrant"]),
                       "who": names.get(p["entrant"], str(p["entrant"])), "points": french.number(p.get("points")),
                       "unit": "PM" if fmt.uses_pm else french.unit_word(p.get("points") or 0), "reason": str(p.get("reason") or ""),
                       "board": p.get("board")} for p in penalties],
        "count": sum(row.get("rank") is not None for row in rows),
    }


def standings_view(fmt: Format, output: Mapping[str, Any], entrants: Collection[str] | None = None) -> dict[str, dict]:
    """Entrant id → his standing (of every entrant, or of ``entrants`` only) as the feuille de route shows it (screen and paper): ``rank`` and ``tie``,
    ``alternated_rank`` and ``alternated_tie``, ``count`` (the entrants ranked), ``status``, and the PM
    (``pm``) or the attack, defence, penalty and global percentages with the deals played in each role
    (``attack_boards``, ``defence_boards``) and ``flagged`` (no deal in one role: ranked on the other)."""
    rows = list(output.get("ranking", []))
    ties, alternated_ties = shared_places(rows, "rank"), shared_places(rows, "alternated_rank")
    count = sum(row.get("rank") is not None for row in rows)
    standings = {}
    for row in rows:
        if entrants is not None and row["id"] not in entrants:
            continue
        standing = {"rank": row.get("rank"), "tie": row.get("rank") in ties, "count": count,
                    "status": standing_status(row)}
        if fmt.uses_pm:
            standing["pm"] = total_pm_text(fmt, row.get("pm"))
        else:
            standing.update(
                attack=french.number(row.get("attack")), defence=french.number(row.get("defence")),
                global_=french.number(row.get("global")),
                penalty=french.number(row["penalty"]) if row.get("penalty") else "",
                attack_boards=row.get("attack_boards", 0), defence_boards=row.get("defence_boards", 0),
                alternated_rank=row.get("alternated_rank"),
                alternated_tie=row.get("alternated_rank") in alternated_ties, flagged=bool(row.get("flagged")))
        standings[row["id"]] = standing
    return standings
