"""The frequencies of each étui as its public page and the printed frequency report show them (SPEC §8).

One function, `frequencies_view`, reads the SPEC §9 tournament file (the export, marked as every printout
reads it: `operations.marked_export`) and its SPEC §9 ranking output and returns, per étui, every score made
(best first) with how many tables made it, which tables, the notes it earned (taker and defence %, or the PM
of the comparison) and the arbiter's marks; the lines that are not a plain score (annulled, arbitral note,
no score) apart, in ``others``. Every number is written once by `duplicate.french`; the page
(`templates/public/_board_content.html`) and the paper (`templates/print/frequencies.html`, through
`printing.results.frequencies`) only lay it out.
"""

from __future__ import annotations

from typing import Any, Mapping

from duplicate import french
from .export import Tournament, attacker_text, flags
from .formatting import pm_text, score as _score, seat_name

__all__ = ["frequencies_view"]


def frequencies_view(export: Mapping[str, Any], ranking: Mapping[str, Any], *,
                     boards: list[int] | None = None) -> dict:
    """The frequencies of ``boards`` (default: every étui). Returns ``{"tournament", "items", "pm"}``; each
    item ``{"number", "taker_name", "lines", "others", "played"}``; each line ``{"value", "score", "count",
    "tables", "taker_note", "defence_note", "pm", "attackers", "flags"}`` (best score first), each other
    ``{"table", "score", "flags", "taker_note"}``; strings already in French."""
    t = Tournament(export, ranking)
    items = []
    for number in boards or t.board_numbers():
        groups: dict[int, dict] = {}
        others = []
        played = 0
        for result in sorted((r for r in t.results if r["board"] == number), key=lambda r: r["table"]):
            notes = t.notes_at(number, result["table"], result.get("room"))
            marks = flags(result, notes)
            if result.get("annulled") or result.get("score") is None or result.get("notes") is not None:
                others.append({"table": result["table"], "score": _score(result.get("score")),
                               "flags": marks,
                               "taker_note": french.number((notes or {}).get("taker_note"), empty="")})
                if not result.get("annulled"):
                    played += 1
                continue
            played += 1
            group = groups.setdefault(result["score"], {
                "value": result["score"], "score": _score(result["score"]), "tables": [], "flags": [],
                "taker_note": french.number((notes or {}).get("taker_note"), empty=""),
                "defence_note": french.number((notes or {}).get("defence_note"), empty=""),
                "pm": pm_text(t.format, (notes or {}).get("pm")),
                "attackers": []})
            group["tables"].append(str(result["table"]))
            who = attacker_text(t.attacker(number, result.get("taker_team"), result))
            if who:
                group["attackers"].append(f"table {result['table']} : {who}")
            group["flags"].extend(f"table {result['table']} : {m}" for m in marks)
        lines = sorted(groups.values(), key=lambda g: -g["value"])
        for line in lines:
            line["count"] = len(line["tables"])
            line["tables"] = ", ".join(line["tables"])
        taker = t.taker_seat(number)
        items.append({"number": number, "taker_name": seat_name(taker) if taker else "", "lines": lines,
                      "others": others, "played": played})
    return {"tournament": t.header, "items": items, "pm": t.format.uses_pm}
