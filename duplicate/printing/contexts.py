"""Plain-data contexts for the printed matter of the pack (SPEC §8): étui labels, diagrams, fiches
ambulantes, guide cards, personal movement cards, hand records.  The result sheets (route sheets,
rankings, frequencies) are in :mod:`.results`; :func:`build_context` dispatches on the kind.

Every context is a dict of primitives (str, int, float, bool, lists and dicts of those) with:

* ``tournament`` — the header (name, date, place, colour, kind);
* ``items`` — the list of printed items (one étui, one table, one player…).  The templates lay one
  item out without a page break inside it, and :mod:`.batch` cuts big jobs into chunks of items.

Inputs: the SPEC §9 tournament dict (``duplicate.interchange.export_tournament``), and for the
result sheets the SPEC §9 ranking output (``duplicate.operations.ranking``).  No database, no Flask.

Choices where the seeds are silent:

* **Labels** — per étui, one label for the case (étui number, the four orientations with the taker
  and the dealer marked, the tournament colour) then one label per pocket, Nord, Sud, Est, Ouest;
  the taker's pocket label is printed on a coloured background (« PRENEUR »), as the seed asks for
  « une étiquette de couleur différente ».  Sheets default to 3 × 8 labels on A4 (70 × 37 mm).
* **Diagrams** — one A4 page per étui, cut into five strips: the four hands (Nord jaune, Sud bleu,
  Est rouge, Ouest vert) and the chien (grey).  An étui without known cards gets blank diagrams, for
  the players to circle their cards at the first position.
* **Fiches ambulantes** — one line per table that plays the étui, in movement order (position then
  table); without a movement, one line per result (scored) or per table (blank).
* **Who attacks** (issue 15) — triplettes: the attacker of each line by his badge (« NOM Prénom
  (Rouge) », `common.Tournament.attacks`, the core's `plan_attacks`) on the fiches, the guide cards (per
  étui) and the movement cards (per position, the badge colour of each étui attacked; the members with
  their badges in the card's head); the duplication duty (NS odd étuis, EW even — seed, « Règles
  spécifiques aux tournois triplettes ») on the case label, on the guide card (first position's étuis) and
  on the movement card. Quadrettes: an « Attaquant » column on the fiche, blank to be written by the
  South attacker, filled with the name entered once scored. A label names no badge: the colour that
  attacks an étui changes from table to table (it is the rotation's turn of the triplette that plays it).
"""

from __future__ import annotations

from typing import Any, Mapping

from duplicate import french
from duplicate.core.cards import PACK, SUITS
from duplicate.core.triplettes import COLOURS
from duplicate.view_models import formatting as fmt
from duplicate.view_models.export import ROOMS, SEAT_LABELS, SEAT_SHORT, Tournament, attacker_text, flags

from . import diagram_grid
from .common import board_list, qr_png_uri

SEATS = ("N", "S", "E", "W")
LABEL_GRID = (3, 8)


# --- étui labels ------------------------------------------------------------------------------------

def labels(export: Mapping[str, Any], *, columns: int = 3, rows: int = 8, single: bool = False,
           boards: list[int] | None = None, pockets: bool = True, margin_mm: float = 0.0) -> dict:
    """Étui labels: A4 sheets of ``columns`` × ``rows`` stickers, or one label per page (``single``)."""
    t = Tournament(export)
    stickers = []
    for number in boards or t.board_numbers():
        taker, dealer = t.taker_seat(number), t.dealer_seat(number)
        compass = [{"seat": s, "letter": fmt.seat_letter(s), "name": fmt.seat_name(s), "taker": s == taker,
                    "dealer": s == dealer} for s in SEATS]
        stickers.append({"case": True, "board": number, "compass": compass,
                         "taker_name": fmt.seat_name(taker) if taker else "",
                         "dealer_name": fmt.seat_name(dealer) if dealer else "",
                         "duty": SEAT_SHORT.get(t.format.duplicating_line(number), "")})
        if pockets:
            for seat in SEATS:
                stickers.append({"case": False, "board": number, "seat": seat, "letter": fmt.seat_letter(seat),
                                 "seat_name": fmt.seat_name(seat), "taker": seat == taker,
                                 "dealer": seat == dealer})
    columns, rows = max(1, int(columns)), max(1, int(rows))
    per_page = 1 if single else columns * rows
    pages = [stickers[i:i + per_page] for i in range(0, len(stickers), per_page)]
    width = 70.0 if single else round((210.0 - 2 * margin_mm) / columns, 3)
    height = 37.0 if single else round((297.0 - 2 * margin_mm) / rows, 3)
    return {"tournament": t.header, "items": pages, "single": bool(single), "columns": columns, "rows": rows,
            "label_width_mm": width, "label_height_mm": height, "margin_mm": margin_mm,
            "count": len(stickers)}


# --- diagrams ---------------------------------------------------------------------------------------

def _layout(held: set[str]) -> list[dict]:
    """The 78 cards in six rows: ♠ ♥ ♦ ♣ (1 to Roi), trumps 1–11, trumps 12–21 and the Excuse."""
    rows = []
    for suit, (label, symbol) in SUITS.items():
        cells = [{"text": fmt.card(c.notation)["rank"], "held": c.notation in held, "wide": False}
                 for c in PACK if c.suit == suit]
        rows.append({"symbol": symbol, "label": label, "red": suit in "HD", "cells": cells})
    trumps = [c for c in PACK if c.suit == "T"]
    rows.append({"symbol": "", "label": "Atouts", "red": False,
                 "cells": [{"text": str(c.rank), "held": c.notation in held, "wide": False} for c in trumps[:11]]})
    last = [{"text": str(c.rank), "held": c.notation in held, "wide": False} for c in trumps[11:]]
    last.append({"text": "Excuse", "held": "EX" in held, "wide": True})
    rows.append({"symbol": "", "label": "", "red": False, "cells": last})
    return rows


def diagrams(export: Mapping[str, Any], *, boards: list[int] | None = None) -> dict:
    """Per étui, five diagrams (N, S, E, W and the chien) to cut out, in étui order."""
    t = Tournament(export)
    items = []
    for number in boards or t.board_numbers():
        board = t.boards.get(number, {})
        hands, dog = board.get("hands") or {}, board.get("dog") or []
        taker, dealer = t.taker_seat(number), t.dealer_seat(number)
        sheets = []
        for seat in SEATS:
            held = set(hands.get(seat, []))
            sheets.append({"seat": seat, "title": fmt.seat_name(seat), "colour": fmt.SEAT_COLOURS[seat],
                           "taker": seat == taker, "dealer": seat == dealer, "count": len(held),
                           "rows": _layout(held)})
        sheets.append({"seat": "dog", "title": "Chien", "colour": fmt.SEAT_COLOURS["dog"], "taker": False,
                       "dealer": False, "count": len(dog), "rows": _layout(set(dog))})
        items.append({"number": number, "known": bool(hands), "sheets": sheets,
                      "taker_name": fmt.seat_name(taker) if taker else "",
                      "dealer_name": fmt.seat_name(dealer) if dealer else ""})
    return {"tournament": t.header, "items": items, "grid": diagram_grid.url(_layout(set()))}


# --- fiches ambulantes --------------------------------------------------------------------------------

def _traveller_line(t: Tournament, number: int, position, table, seats, result, scored: bool) -> dict:
    line = {"position": position, "table": table,
            "seats": [{"key": k, "short": SEAT_SHORT.get(k, k), "id": who, "name": t.name(who)} for k, who in seats],
            "plus": "", "minus": "", "taker_note": "", "defence_note": "", "pm": "", "flags": [], "room": "",
            "corrected": False, "annulled": False, "adjusted": False, "arbitral": False,
            "attacker": attacker_text(t.attacker(number, t.attacking_team(number, seats), result))}
    if result is not None and result.get("room"):
        line["room"] = ROOMS.get(result["room"], result["room"])
    if not scored or result is None:
        return line
    notes = t.notes_at(number, result["table"], result.get("room"))
    value = result.get("score")
    if value is not None:
        line["plus" if value >= 0 else "minus"] = fmt.score(value)
    if notes is not None and not result.get("annulled"):
        line["taker_note"] = fmt.number(notes.get("taker_note"), empty="")
        line["defence_note"] = fmt.number(notes.get("defence_note"), empty="")
        if notes.get("pm") is not None:
            line["pm"] = fmt.signed_number(notes["pm"])
    line["flags"] = flags(result, notes)
    line.update(corrected=bool(result.get("corrected")),
                annulled=bool(result.get("annulled") or (notes or {}).get("annulled")),
                adjusted=bool(result.get("adjusted") or (notes or {}).get("adjusted")),
                arbitral=result.get("notes") is not None or bool((notes or {}).get("arbitral_note")))
    return line


def _fiche_remarks(lines: list[dict]) -> list[str]:
    """The sentences under a scored fiche, each true to its count: the lines whose score was changed after
    it was entered (``corrected``: `operations.corrected_ids`, by a scorer or the arbiter), then the
    arbiter's marks — adjusted scores, annulled deals, arbitral notes. Empty: « Aucune correction. »"""
    counts = [(sum(1 for line in lines if line[key]), one, many) for key, one, many in (
        ("corrected", "ligne corrigée après saisie", "lignes corrigées après saisie"),
        ("adjusted", "score rectifié par l’arbitre", "scores rectifiés par l’arbitre"),
        ("annulled", "donne annulée par l’arbitre", "donnes annulées par l’arbitre"),
        ("arbitral", "note arbitrale donnée par l’arbitre", "notes arbitrales données par l’arbitre"))]
    return [french.counted(count, one, many) + "." for count, one, many in counts if count]


def _result_seats(t: Tournament, result: Mapping, taker_seat: str | None) -> list[tuple[str, str]]:
    """Seats of a result when there is no movement: the taker at the étui's taker seat."""
    if not t.format.has_teams:
        others = [s for s in SEATS if s != taker_seat] if taker_seat else ["S", "E", "W"]
        seat_of = {taker_seat or "N": result.get("taker")}
        seat_of.update(zip(others, result.get("defenders", [])))
        return [(s, seat_of[s]) for s in SEATS if s in seat_of]
    return [("attack", result.get("taker_team")), ("defence", result.get("defence_team"))]


def travellers(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None, *, scored: bool = False,
               boards: list[int] | None = None) -> dict:
    """Fiches ambulantes, blank (to be filled at the tables) or scored (with the topage columns)."""
    t = Tournament(export, ranking)
    items = []
    seat_keys = None
    for number in boards or t.board_numbers():
        taker = t.taker_seat(number)
        lines = []
        rounds = t.rounds_of_board(number)
        if rounds:
            for r in rounds:
                seats = t.seats_of(r)
                result = t.result_at(number, r["table"], r.get("room"))
                line = _traveller_line(t, number, r["position"], r["table"], seats, result, scored)
                if r.get("room") and not line["room"]:
                    line["room"] = ROOMS.get(r["room"], r["room"])
                lines.append(line)
        elif scored:
            rows = sorted((r for r in t.results if r["board"] == number),
                          key=lambda r: (r.get("position") or 0, r["table"]))
            for result in rows:
                lines.append(_traveller_line(t, number, result.get("position") or "", result["table"],
                                             _result_seats(t, result, taker), result, True))
        else:
            count = int(t.movement.get("tables") or 0) or len({r["table"] for r in t.results}) or 8
            lines = [_traveller_line(t, number, "", "", [], None, False) for _ in range(count)]
        if seat_keys is None and lines and lines[0]["seats"]:
            seat_keys = [{"key": s["key"], "short": s["short"]} for s in lines[0]["seats"]]
        board = t.boards.get(number, {})
        dog = [fmt.card(c) for c in sorted(board.get("dog") or [], key=_card_order)]
        items.append({
            "number": number, "taker": taker or "", "taker_name": fmt.seat_name(taker) if taker else "",
            "dealer_name": fmt.seat_name(t.dealer_seat(number)) if t.dealer_seat(number) else "",
            "dog": dog, "lines": lines, "corrections": sum(1 for line in lines if line["corrected"]),
            "remarks": _fiche_remarks(lines),
        })
    if seat_keys is None:
        seat_keys = [{"key": k, "short": SEAT_SHORT[k]} for k in t.format.seats]
    return {"tournament": t.header, "items": items, "scored": bool(scored), "seat_keys": seat_keys,
            "pm": t.format.uses_pm, "free_contracts": t.format.attack_bids,
            "attackers": t.format.who_attacks in ("colours", "named")}


def _card_order(notation: str) -> int:
    from duplicate.core.cards import Card
    try:
        return Card.parse(notation).sort_key
    except ValueError:
        return 10_000


# --- guide cards and personal movement cards -------------------------------------------------------------

def guide_cards(export: Mapping[str, Any], *, tables: list[int] | None = None,
                table_urls: Mapping[int, str] | None = None) -> dict:
    """One card per table: at each position, the étuis played there, who sits where, and where the
    étuis and the players go next; with ``table_urls`` (table → absolute URL of its phone page, SPEC §12)
    the QR code of the table's link, to score at the table."""
    t = Tournament(export)
    by_table: dict[int, list[Mapping]] = {}
    for r in t.rounds:
        by_table.setdefault(r["table"], []).append(r)
    where_board = {(r["position"], n): r["table"] for r in t.rounds for n in r.get("boards", [])}
    where_entrant = {(r["position"], who): r["table"] for r in t.rounds for who in r.get("seats", {}).values()}
    items = []
    for table in tables or sorted(by_table):
        rows = []
        for r in by_table.get(table, []):
            position = r["position"]
            next_tables = sorted({where_board[(position + 1, n)] for n in r["boards"]
                                  if (position + 1, n) in where_board})
            seats = []
            for key, who in t.seats_of(r):
                nxt = "relais" if who in t.resting_at(position + 1) else where_entrant.get((position + 1, who))
                seats.append({"key": key, "label": SEAT_LABELS.get(key, key), "id": who, "name": t.name(who),
                              "next": nxt})
            attacks = [{"board": n, "who": attacker_text(t.attacker(n, t.attacking_team(n, t.seats_of(r))))}
                       for n in r["boards"]] if t.format.who_attacks == "colours" else []
            rows.append({"position": position, "ordinal": fmt.ordinal(position), "boards": board_list(r["boards"]),
                         "seats": seats, "boards_next": ", ".join(map(str, next_tables)),
                         "room": ROOMS.get(r.get("room"), "") if r.get("room") else "",
                         "attacks": [a for a in attacks if a["who"]]})
        url = (table_urls or {}).get(table, "")
        first = by_table.get(table, [{}])[0]
        items.append({"table": table, "rows": rows, "url": url, "qr": qr_png_uri(url) if url else "",
                      "duty": _duty(t.format, first.get("boards", []))})
    relais = [{"ordinal": fmt.ordinal(p), "ids": ", ".join(fmt.place(who) for who in t.rests[p])}
              for p in sorted(t.rests) if t.rests[p]]
    return {"tournament": t.header, "items": items, "positions": t.movement.get("positions", 0), "relais": relais}


def movement_cards(export: Mapping[str, Any], *, entrants: list[str] | None = None,
                   codes: Mapping[str, str] | None = None) -> dict:
    """The « fiche individuelle »: for each player (or team), position → table, orientation, étuis; with
    ``codes`` (entrant → code, `operations.table_codes`: the export does not carry the key they come from)
    his personal code to confirm a score at the table (SPEC §12)."""
    t = Tournament(export)
    plan: dict[str, list[dict]] = {}
    for r in t.rounds:
        for key, who in t.seats_of(r):
            plan.setdefault(who, []).append({
                "position": r["position"], "ordinal": fmt.ordinal(r["position"]), "table": r["table"],
                "orientation": SEAT_LABELS.get(key, key).upper(), "boards": board_list(r["boards"]),
                "room": ROOMS.get(r.get("room"), "") if r.get("room") else "", "relais": False,
                "numbers": list(r["boards"]), "round": r, "attacks": "",
            })
    for position in sorted(t.rests):   # a resting player's position: « relais », no table (SPEC §7)
        for who in t.resting_at(position):
            plan.setdefault(who, []).append({"position": position, "ordinal": fmt.ordinal(position), "table": "",
                                             "orientation": "", "boards": "", "room": "", "relais": True,
                                             "numbers": [], "attacks": ""})
    for rows in plan.values():
        rows.sort(key=lambda row: row["position"])
    known = t.entrants
    order = entrants or (list(known) if known else list(plan))
    order = sorted(order, key=french.place_order)
    items = []
    for who in order:
        item = known.get(who, {})
        rows = plan.get(who, [])
        members = [{"name": t.name(m), "colour": t.badges.get(m, "")} for m in item.get("members", [])]
        if t.format.who_attacks == "colours":
            members.sort(key=lambda m: COLOURS.index(m["colour"]) if m["colour"] in COLOURS else 3)
            for row in rows:
                row["attacks"] = ", ".join(f"{n} {a.colour}" for n in row.get("numbers", ())
                                           if (a := t.attacks.get((n, who))) is not None)
        duty = ""
        if rows and not rows[0]["relais"] and any(t.format.duplicating_line(n) for n in rows[0]["numbers"]):
            line = next((key for key, ident in t.seats_of(rows[0]["round"]) if ident == who), None)
            mine = [n for n in rows[0]["numbers"] if t.format.duplicating_line(n) == line]
            duty = f"{fmt.ordinal(rows[0]['position'])} position, étuis {board_list(mine)}" if mine else ""
        for row in rows:
            row.pop("round", None)
        items.append({"id": who, "name": t.name(who), "club": str(item.get("club") or ""),
                      "number": who[1:] if who[:1] == "J" and who[1:].isdigit() else fmt.place(who),
                      "rows": rows, "members": members, "duty": duty, "code": (codes or {}).get(who, "")})
    return {"tournament": t.header, "items": items, "team": t.format.has_teams,
            "badges": t.format.who_attacks == "colours"}


def _duty(format_, numbers) -> str:
    """Who duplicates the étuis of a first position (seed, « Règles spécifiques aux tournois triplettes » :
    « la triplette Nord/Sud pour les étuis impairs et […] Est-Ouest pour les étuis pairs »)."""
    parts = []
    for line, short in (("NS", "NS"), ("EW", "EO")):
        mine = [n for n in numbers if format_.duplicating_line(n) == line]
        if mine:
            parts.append(f"{short} : {board_list(mine)}")
    return " ; ".join(parts)


# --- hand records -------------------------------------------------------------------------------------

def hand_records(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None, *,
                 boards: list[int] | None = None) -> dict:
    """The deals for the players after the session: each étui as a compass, with the scores made."""
    t = Tournament(export, ranking)
    scores: dict[int, list[int]] = {}
    for result in t.results:
        if result.get("score") is not None and not result.get("annulled"):
            scores.setdefault(result["board"], []).append(result["score"])
    items = []
    for number in boards or t.board_numbers():
        board = t.boards.get(number, {})
        hands = board.get("hands") or {}
        taker, dealer = t.taker_seat(number), t.dealer_seat(number)
        strength = board.get("strength") or {}
        seats = {}
        for seat in SEATS:
            seats[seat] = {"seat": seat, "name": fmt.seat_name(seat), "colour": fmt.SEAT_COLOURS[seat],
                           "taker": seat == taker, "dealer": seat == dealer,
                           "lines": fmt.hand_by_suit(hands[seat]) if seat in hands else [],
                           "strength": strength.get(seat)}
        made = sorted(scores.get(number, []), reverse=True)
        items.append({"number": number, "known": bool(hands), "seats": seats,
                      "dog": [fmt.card(c) for c in sorted(board.get("dog") or [], key=_card_order)],
                      "taker_name": fmt.seat_name(taker) if taker else "",
                      "dealer_name": fmt.seat_name(dealer) if dealer else "",
                      "scores": " ; ".join(fmt.score(s) for s in made)})
    return {"tournament": t.header, "items": items, "seed": str(export.get("deal_seed") or "")}


def build_context(kind: str, export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None,
                  **options) -> dict:
    """The context of one printed kind (see :data:`duplicate.printing.KINDS`)."""
    from . import freeplay, results, team_sheet

    builders = {
        "labels": lambda: labels(export, **options),
        "diagrams": lambda: diagrams(export, **options),
        "travellers": lambda: travellers(export, ranking, **options),
        "guide-cards": lambda: guide_cards(export, **options),
        "movement-cards": lambda: movement_cards(export, **options),
        "route-sheets": lambda: results.route_sheets(export, ranking, **options),
        "ranking": lambda: results.rankings(export, ranking, **options),
        "frequencies": lambda: results.frequencies(export, ranking, **options),
        "hand-records": lambda: hand_records(export, ranking, **options),
        "team-sheet": lambda: team_sheet.context(export, ranking),
        # free play (SPEC §13): the export is the SPEC §13 file, the ranking `rank_free`'s output
        "free-cards": lambda: freeplay.personal_cards(export, **options),
        "free-orientation": lambda: freeplay.orientation(export),
        "free-table-cards": lambda: freeplay.table_cards(export, **options),
        "free-sheets": lambda: freeplay.blank_sheets(export, **options),
        "free-ranking": lambda: freeplay.ranking(export, ranking),
        "free-pcn": lambda: freeplay.pcn_list(export, ranking, **options),
    }
    if kind not in builders:
        raise ValueError(f"document inconnu « {kind} » (attendu : {', '.join(builders)})")
    return builders[kind]()
