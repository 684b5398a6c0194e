"""Plain-data contexts for the printed matter of a free-play tournament (« donnes libres », SPEC §13, booklet
chapter 3 « Matériel nécessaire à la mise en place d'un tournoi », p. 16–19 of
``seeds/fft-fascicule-free-play-ocr.txt``): the fiche personnelle, the tableau d'orientation, the table
cards, the blank feuilles de marque, and after play the ranking and the PCN / PP list.

Input: the SPEC §13 file (``operations.freeplay.free_export``: players, the movement, the deals, the
penalties) and, for the ranking and the PCN list, its ranking output (``core.freeplay.tournament.rank_free``,
computed here when not given — the function the web page and the ``rank`` command use). No database, no
Flask; the heading and the French formats are the duplicate printouts' (`common.header`, `duplicate.french`).

What the booklet shows, and our choices:

* **Fiche personnelle** (« à conserver par le joueur », p. 18): the player's orientation (unchanged all
  evening) and starting table, the movement « Nord fixe, Sud + 1, Est + 2 et Ouest − 2 », and per position
  the table and the columns « + », « − », « Cumul » he fills by hand. We print the table of every position
  from the core (`movements.personal_card`), so nobody works out the moves; a position at a table of 3 is
  marked « à 3 ». Eight fiches per A4 page, to cut.
* **Tableau d'orientation** (« à afficher, puis à conserver par les organisateurs », p. 17): the booklet's
  is the starting position (table × N/S/E/O, names); we print it for every position (the whole movement),
  a position per block, the empty seat of a table of 3 shown « — (table à 3) ». In a Howell (3 and 4
  tables) the players change orientation, and at 11 or 13–15 players the absent numbers are named (their
  empty seat moves from table to table: `movements` docstring).
* **Table cards**: per table, who sits N/S/E/O at each position (`movements.table_card`), two per page.
* **Feuille de marque** (p. 19): one blank per table and position (« autant de feuilles de marque vierges
  que de positions à jouer »), table and position numbers, each seat's player (number and name) over its
  « + » and « − » columns, rows for the deals, « Sous-totaux » and « Résultats » (the bilan); the contract
  reminder of the booklet's head. Rows: `SHEET_DEALS` (the booklet's sheet has 5; we leave room for more).
  The North fills it in (« le Nord tient la feuille »), another player at a table of 3 without North; the
  North is « fixe » only in the FFT movement (a Howell has no ``moves``: everyone changes seat).
* **Ranking**: place (« ex æquo »), player, club, points, penalties, total and the art. 29 criteria; a
  withdrawn player is marked and ranked last (art. 27); the penalties are listed with their reasons. In
  libre duo and libre par 4 the teams' ranking (name and members, their totals and criteria summed) comes
  first, then the individual one. Then the palmarès (`core.freeplay.prizes.palmares`, the screen's: 20 %
  of the entrants — the teams in the team kinds — and the special prize of the last two positions) and,
  once placed, the carré final's seating as the booklet prints it (p. 14: per table, each seat's finalist
  with his rank, « 1er », « 5e »…).
* **PCN / PP**: the ranking output with ``"pcn"`` (``rank_free`` of the file with ``"pcn"``), place, licence,
  name, PCN, PP; an event too small prints the core's reason instead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from duplicate import french
from duplicate.core.ranking import shared_places
from duplicate.core.freeplay.movements import MovementError, personal_card, rounds_from_dict, table_card

from duplicate.view_models import formatting as fmt
from duplicate.view_models.export import SEAT_LABELS, header

SEATS = ("N", "S", "E", "W")
SHEET_DEALS = 8
CHAMPIONSHIP_LABELS = {None: "tournoi de club", "regional": "championnat régional",
                       "regional_semifinal": "demi-finale régionale (indice 1,5)",
                       "regional_final": "finale régionale (indice 1,8)"}
EVENT_LABELS = {"free": "donnes libres (individuel)", "free_duo": "libre duo", "free_team4": "libre par 4"}


class _Free:
    """Lookups over one SPEC §13 file: players by id, the movement's rounds, its tables of 3."""

    def __init__(self, export: Mapping[str, Any]):
        self.export = export
        self.header = header(export)
        self.players = {p["id"]: p for p in export.get("players", []) if isinstance(p, Mapping) and "id" in p}
        movement = export.get("movement") or {}
        try:
            self.rounds = rounds_from_dict(movement) if movement else []
        except MovementError:
            self.rounds = []
        self.moves = [m for m in movement.get("moves", []) or [] if isinstance(m, Mapping)]
        self.tables = sorted({r.table for r in self.rounds})
        self.positions = sorted({r.position for r in self.rounds})

    def name(self, ident: str | None) -> str:
        item = self.players.get(ident) if ident else None
        return str(item.get("name") or ident) if item else str(ident or "")

    def size(self, position: int, table: int) -> int:
        return next((len(r.players()) for r in self.rounds if r.position == position and r.table == table), 0)

    def seat(self, key: str, who: str | None) -> dict:
        return {"key": key, "label": SEAT_LABELS.get(key, key), "letter": fmt.seat_letter(key),
                "id": french.place_label(who) if who else "", "name": self.name(who) if who else "", "empty": who is None}


def _move_text(move: int) -> str:
    return "fixe" if move == 0 else f"{'+' if move > 0 else french.MINUS} {abs(move)}"


def movement_text(moves: list[Mapping]) -> tuple[str, list[str]]:
    """(« Nord fixe, Sud + 1, Est + 2, Ouest − 2 », the positions that move otherwise) from the movement's
    ``moves`` (`movements.movement_to_dict`); empty for the Howell schedules (3 and 4 tables: no rule, the
    fiche gives every table)."""
    if not moves:
        return "", []
    usual = Counter(tuple((s, m.get(s)) for s in SEATS) for m in moves).most_common(1)[0][0]
    base = dict(usual)
    text = ", ".join(f"{fmt.seat_name(s)} {_move_text(base[s])}" for s in SEATS if isinstance(base[s], int))
    others = []
    for m in moves:
        changed = [f"{fmt.seat_name(s)} {_move_text(m[s])}" for s in SEATS if isinstance(m.get(s), int) and m[s] != base[s]]
        if changed:
            others.append(f"vers la {fmt.ordinal(m['position'])} position : {', '.join(changed)}")
    return text, others


# --- fiche personnelle --------------------------------------------------------------------------------------

def personal_cards(export: Mapping[str, Any], *, players: list[str] | None = None,
                   codes: Mapping[str, str] | None = None) -> dict:
    """One fiche personnelle per player of the movement (table order, N S E O), or of ``players``;
    ``codes``: each player's code for confirming a feuille at the table (`operations.freeplay_table`), printed
    on his fiche (never in the file: the caller gives them)."""
    t = _Free(export)
    seated = {who for r in t.rounds for who in r.players()}
    order = sorted(players if players is not None else (seated | set(t.players)), key=french.place_order)
    text, exceptions = movement_text(t.moves)
    items = []
    for who in order:
        rows = [{"position": position, "ordinal": fmt.ordinal(position), "table": table,
                 "orientation": fmt.seat_name(line), "three": t.size(position, table) == 3}
                for position, table, line in personal_card(t.rounds, who)]
        first = rows[0] if rows else None
        item = t.players.get(who, {})
        items.append({"id": french.place_label(who), "name": t.name(who), "club": str(item.get("club") or ""),
                      "licence": str(item.get("licence") or ""), "rows": rows, "code": (codes or {}).get(who, ""),
                      "orientation": first["orientation"] if first else "", "table": first["table"] if first else "",
                      "same_orientation": len({r["orientation"] for r in rows}) <= 1})
    return {"tournament": t.header, "items": items, "movement": text, "exceptions": exceptions}


# --- tableau d'orientation and table cards ----------------------------------------------------------------

def orientation(export: Mapping[str, Any]) -> dict:
    """The whole movement: per position, each table's N, S, E, O (number and name)."""
    t = _Free(export)
    items = []
    for position in t.positions:
        tables = []
        for r in sorted((r for r in t.rounds if r.position == position), key=lambda r: r.table):
            seats = [t.seat(key, r.seats.get(key)) for key in SEATS]
            seats += [t.seat(key, who) for key, who in r.seats.items() if key not in SEATS]
            tables.append({"table": r.table, "seats": seats, "three": len(r.players()) == 3})
        items.append({"position": position, "ordinal": fmt.ordinal(position), "tables": tables})
    text, exceptions = movement_text(t.moves)
    lines: dict[str, set] = {}
    for r in t.rounds:
        for line, who in r.seats.items():
            if who:
                lines.setdefault(who, set()).add(line)
    movement = export.get("movement") or {}
    return {"tournament": t.header, "items": items, "movement": text, "exceptions": exceptions,
            "fixed_orientation": all(len(seen) == 1 for seen in lines.values()),
            "three": [str(n) for n in movement.get("three_player_tables", [])],
            "absent": [french.place_label(str(n)) for n in movement.get("absent_players", [])]}


def table_cards(export: Mapping[str, Any], *, tables: list[int] | None = None) -> dict:
    """Per table, who sits where at every position."""
    t = _Free(export)
    items = []
    for table in tables or t.tables:
        rows = [{"position": position, "ordinal": fmt.ordinal(position),
                 "seats": [t.seat(key, seats.get(key)) for key in SEATS],
                 "three": sum(1 for who in seats.values() if who) == 3}
                for position, seats in table_card(t.rounds, table)]
        items.append({"table": table, "rows": rows})
    return {"tournament": t.header, "items": items}


# --- blank feuilles de marque -----------------------------------------------------------------------------

def blank_sheets(export: Mapping[str, Any], *, deals: int = SHEET_DEALS, tables: list[int] | None = None,
                 positions: list[int] | None = None) -> dict:
    """One blank feuille de marque per position and table (position, then table), the players named."""
    t = _Free(export)
    deals = max(1, min(int(deals), 30))
    moves = {m.get("position"): m for m in t.moves}
    items = []
    for r in sorted(t.rounds, key=lambda r: (r.position, r.table)):
        if (tables and r.table not in tables) or (positions and r.position not in positions):
            continue
        move = moves.get(r.position + 1, {})
        columns = []
        for key in [*SEATS, *(k for k in r.seats if k not in SEATS)]:
            who = r.seats.get(key)
            if who is None:
                continue
            seat = t.seat(key, who)
            seat["move"] = _move_text(move[key]) if isinstance(move.get(key), int) else ""
            columns.append(seat)
        items.append({"position": r.position, "ordinal": fmt.ordinal(r.position), "table": r.table,
                      "columns": columns, "three": len(columns) == 3, "last": r.position == max(t.positions),
                      "north": r.seats.get("N") is not None, "fixed_north": bool(t.moves),
                      "deals": list(range(1, deals + 1))})
    return {"tournament": t.header, "items": items}


# --- ranking and PCN ------------------------------------------------------------------------------------------

def ensure_free_ranking(export: Mapping[str, Any], ranking: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if ranking is not None:
        return ranking
    from duplicate.core.freeplay.tournament import rank_free

    return rank_free(dict(export))


def _withdrawn_text(item: Mapping, row: Mapping) -> str:
    if not row.get("withdrawn"):
        return ""
    withdrawn = item.get("withdrawn") if isinstance(item.get("withdrawn"), Mapping) else None
    if withdrawn and isinstance(withdrawn.get("position"), int):
        return f"forfait à la {fmt.ordinal(withdrawn['position'])} position"
    return "forfait"


def _ranking_line(row: Mapping, tied: set, *, name: str, club: str = "", withdrawn: str = "",
                  members: list[str] | None = None) -> dict:
    return {"rank": row.get("rank"), "tie": row.get("rank") in tied, "id": french.place_label(row["id"]),
            "name": name, "club": club, "members": members or [],
            "points": french.score(row.get("points")),
            "penalty": f"{french.MINUS}{row['penalty']}" if row.get("penalty") else "",
            "total": french.score(row.get("total")), "best": french.score(row.get("best_position")),
            "made": row.get("contracts_made", ""), "withdrawn": withdrawn}


def _final_square(t: _Free, export: Mapping[str, Any]) -> dict | None:
    """The carré final as the booklet prints it (p. 14, « Position de départ des 16 joueurs finalistes »):
    per table of its first position, each seat's finalist with his rank (« 1er », « 5e »…)."""
    info = (export.get("movement") or {}).get("final_square")
    if not isinstance(info, Mapping) or not info.get("positions"):
        return None
    ranked = [str(ident) for ident in info.get("ranked") or []]
    rank_of = {ident: k for k, ident in enumerate(ranked, start=1)}
    first = min(info["positions"])
    tables = []
    for r in sorted((r for r in t.rounds if r.position == first), key=lambda r: r.table):
        seats = []
        for key in SEATS:
            who = r.seats.get(key)
            k = rank_of.get(who)
            seats.append({**t.seat(key, who), "rank": ("1er" if k == 1 else f"{k}e") if k else ""})
        tables.append({"table": r.table, "seats": seats})
    positions = list(info["positions"])
    return {"finalists": info.get("finalists") or len(ranked), "positions": positions, "tables": tables,
            "one_deal": len(positions) > 1}


def _prizes(t: _Free, export: Mapping[str, Any], output: Mapping[str, Any],
            teams: Mapping[str, Mapping]) -> dict | None:
    """The palmarès (`core.freeplay.prizes.palmares`, the screen's), names resolved for paper."""
    from duplicate.core.freeplay.prizes import palmares

    prizes = palmares(export, output)
    if prizes is None:
        return None

    def label(ident: str) -> str:
        if prizes["teams"]:
            team = teams.get(ident, {})
            members = ", ".join(t.name(m) for m in team.get("members") or [])
            return f"{team.get('name') or ident} ({members})" if members else str(team.get("name") or ident)
        return t.name(ident)

    tied = shared_places(output.get("ranking") or [])
    winners = [{"rank": row["rank"], "ordinal": "1er" if row["rank"] == 1 else f"{row['rank']}e",
                "tie": row["rank"] in tied,
                "id": french.place_label(row["id"]), "name": label(row["id"]), "total": french.score(row.get("total"))}
               for row in prizes["winners"]]
    special = None
    if prizes["special"]:
        special = {"names": [f"{label(i)} ({french.place_label(i)})" for i in prizes["special"]["ids"]],
                   "score": french.score(prizes["special"]["score"]),
                   "positions": ("positions " if len(prizes["special"]["positions"]) > 1 else "position ")
                   + " et ".join(str(p) for p in prizes["special"]["positions"]),
                   "shared": len(prizes["special"]["ids"]) > 1}
    return {"count": prizes["count"], "entrants": prizes["entrants"], "teams": prizes["teams"],
            "winners": winners, "special": special}


def ranking(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None) -> dict:
    """The ranking by total points (art. 29 ties, art. 26 lateness, art. 27 withdrawals); in libre duo and
    libre par 4 the teams' ranking (``team_rows``: name, members, the summed totals and criteria) before the
    individual one; then the palmarès and, when placed, the carré final's seating."""
    t = _Free(export)
    output = ensure_free_ranking(export, ranking)
    teams = {str(item["id"]): item for item in export.get("teams") or [] if isinstance(item, Mapping) and "id" in item}
    team_rows = []
    if teams:
        rows = output.get("ranking", [])
        tied = shared_places(rows)
        for row in rows:
            team = teams.get(row["id"], {})
            members = [f"{t.name(m)} ({french.place_label(m)})" for m in team.get("members") or []]
            team_rows.append(_ranking_line(row, tied, name=str(team.get("name") or row["id"]), members=members,
                                           withdrawn="forfait d’un joueur" if row.get("withdrawn") else ""))
        rows = output.get("players", [])
    else:
        rows = output.get("ranking", [])
    tied = shared_places(rows)
    lines = []
    for row in rows:
        item = t.players.get(row["id"], {})
        lines.append(_ranking_line(row, tied, name=t.name(row["id"]), club=str(item.get("club") or ""),
                                   withdrawn=_withdrawn_text(item, row)))
    penalties = []
    for p in export.get("penalties", []) or []:
        if not isinstance(p, Mapping):
            continue
        if isinstance(p.get("late_minutes"), int):
            from duplicate.core.freeplay.ranking import lateness_penalty

            points = lateness_penalty(p["late_minutes"])
        else:
            points = p.get("points")
        penalties.append({"id": french.place_label(p.get("player")), "name": t.name(p.get("player")),
                          "points": points, "reason": str(p.get("reason") or "")})
    return {"tournament": t.header, "rows": lines, "penalties": penalties, "count": len(lines),
            "team_rows": team_rows, "team_noun": "duos" if export.get("kind") == "free_duo" else "équipes",
            "prizes": _prizes(t, export, output, teams) if not output.get("error") else None,
            "final": _final_square(t, export), "error": str(output.get("error") or "")}


def pcn_list(export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None, *,
             championship: str | None = None, tables: int | None = None) -> dict:
    """The PCN / PP attribution (booklet chapter 5): the ranking with each place's PCN and PP. ``ranking``,
    when given, must carry them (``rank_free`` of a file with ``"pcn"``)."""
    t = _Free(export)
    if ranking is None or ("pcn_refused" not in ranking and not any("pcn" in r for r in ranking.get("ranking", []))):
        from duplicate.core.freeplay.tournament import rank_free

        asked = {**({"championship": championship} if championship else {}), **({"tables": tables} if tables else {})}
        ranking = rank_free({**export, "pcn": asked or True})
    rows = ranking.get("ranking", [])
    tied = shared_places(rows)
    lines = []
    for row in rows:
        if not row.get("pcn") and not row.get("pp"):
            continue
        item = t.players.get(row["id"], {})
        lines.append({"rank": row["rank"], "tie": row["rank"] in tied, "id": french.place_label(row["id"]),
                      "name": t.name(row["id"]), "licence": str(item.get("licence") or ""),
                      "pcn": row.get("pcn", 0), "pp": row.get("pp", 0)})
    players = len(t.players)
    return {"tournament": t.header, "rows": lines, "refused": str(ranking.get("pcn_refused") or ""),
            "event": EVENT_LABELS.get(str(export.get("kind")), str(export.get("kind"))),
            "championship": CHAMPIONSHIP_LABELS.get(championship, str(championship)),
            "tables": tables or -(-players // 4), "players": players,
            "regional": championship is not None,
            "unlicensed": sum(1 for row in lines if not row["licence"])}
