"""Free play (« donnes libres », SPEC §13) in the database: the seating and the FFT movement, the feuilles de
marque, the lateness penalties, the SPEC §13 file's export and the ranking through the core (`core.freeplay`).

Our choices (docs/free-play.md):

* **Seating** (`seat_free_players`): the movement is the core's for the headcount
  (`core.freeplay.movements.free_movement`: ⌈players / 4⌉ tables, the Norths of the tables the core picks
  removed, so those tables play at 3; at 11 and 13–15 players the 3- or 4-table Howell with numbers absent,
  whose tables of 3 change with the position); the players take the movement's first-position seats in the draw's
  order (`_entrants.drawn_order`, the duplicate draw's SHA-256 order), table by table, N, S, E, W. A
  player's id is his starting seat (``N1``… or ``J1``… for the 3- and 4-table Howell), as in the core's
  movement. Seating again is refused once a feuille is saved: the feuilles name the players.
* **Feuille de marque** (`save_sheet`): one table at one position, saved whole (`models.FreeSheet`); the
  facts typed per deal are read here (numbers the French way, `french.parse_number`), then scored by the
  core (`core.freeplay.tournament.sheet_marks`, the function ``rank`` uses); a refused sheet raises
  `SheetError` (French message per deal) and writes nothing. Two people saving the same sheet: the form
  carries the version it was built from; a save from another version raises `SheetConflict` (409) unless
  the person chose to replace the version now stored (``replace``), as the duplicate fiches do
  (`_scoring.save_lines`). Every save is journalled with the deals before and after.
* **Ranking** (`free_ranking`): `core.freeplay.tournament.rank_free` of `free_export`, the SPEC §13 file:
  the page and ``rank`` on the exported file cannot disagree.
* **Lateness** (`free_lateness`, art. 26): a `Penalty` of 100 points per started 5 minutes, its minutes kept in
  ``extra`` so that the file says ``late_minutes``; withdrawals are the duplicate's (`withdraw_player`).
* **Faults of the arbitration code** (`free_penalty`): a `Penalty` whose ``extra`` says ``{"fault": code}``
  (and the arbiter's note as ``"reason"``); its points and text are the core's sanction (`penalties.sanction`)
  counted the way `rank_free` counts the file, kept so by `refresh_faults` after a removal. The file says
  ``{"player", "fault"}`` (`_penalty_item`).
* **Live marks** (`preview_sheet`): the marks of a sheet being typed, nothing saved — `read_sheet`'s reading.

The SPEC §13 file's import is `_freeplay_import`'s.
"""

from __future__ import annotations

import functools
import json
import secrets
from dataclasses import dataclass


from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.freeplay.feuille import sheet_foot
from duplicate.core.freeplay.movements import (
    PARALLEL_LETTERS, MovementError, Round, free_movement, movement_to_dict, parallel_letter, rounds_from_dict,
)
from duplicate.core.freeplay.penalties import CATALOGUE, Sanction, sanction
from duplicate.core.freeplay.ranking import lateness_penalty
from duplicate.core.freeplay.tournament import FreePlayError, rank_free, sheet_marks
from duplicate.core.scoring import Contract, ScoreError
from duplicate.models import (FreeSheet, FreeTableEntry, Movement, Penalty, Tournament,
                               utcnow)

from ._common import NotFound, OperationError, _clean, _count, _entrants, _format, players
from ._deals import get_movement, put_movement
from ._entrants import _place, drawn_order
from ._freeplay_teams import export_teams, seat_free_teams, team_rows
from ._journal import journal
from ._layout import movement_text
from ._results import remove_penalty

MAX_LATENESS_MINUTES = 600
MAX_PENALTY_POINTS = 10_000  # far above any fault of the code (500 for a phone used)
OTHER_FAULT = "autre"  # a penalty outside the catalogue: the arbiter's points and reason
MAX_DEALS = 40  # rows of one feuille: far more than a position plays

#: Free play's contracts with their names as its sheets write them, in sentence case (« Garde sans »).
CONTRACT_LABELS = {c.value: c.french.capitalize() for c in Contract}
CHELEM_LABELS = {"announced_made": "annoncé réussi", "unannounced_made": "non annoncé réussi",
                 "announced_failed": "annoncé chuté", "defence": "de la défense"}
PETIT_LABELS = {"taker": "attaque", "defence": "défense"}
POIGNEE_LETTERS = {"s": "simple", "d": "double", "t": "triple"}
ROW_FIELDS = ("taker", "partner", "contract", "points", "bouts", "poignees", "petit", "chelem", "passed")


class SheetError(OperationError):
    """A feuille that cannot be saved: ``errors`` maps a row (0-based) to its French message."""

    def __init__(self, message: str, errors: dict[int, str] | None = None):
        super().__init__(message)
        self.errors = errors or {}


class SheetConflict(OperationError):
    """Someone saved this feuille since the form was built: ``stored`` is the sheet now stored."""

    def __init__(self, stored: FreeSheet):
        who = f" par {stored.entered_by}" if stored.entered_by else ""
        super().__init__(f"Cette feuille a été enregistrée entre-temps{who} : rien n’est changé. Comparez avec "
                         "la feuille enregistrée ci-dessous, puis « Remplacer » pour garder la vôtre.")
        self.stored = stored


def _free(tournament: Tournament) -> None:
    if _format(tournament).has_etuis:
        raise OperationError("Ce tournoi n’est pas en donnes libres.")


def sheets(session: Session, tournament: Tournament) -> list[FreeSheet]:
    """The tournament's feuilles, by position then table."""
    return list(session.exec(select(FreeSheet).where(FreeSheet.tournament_id == tournament.id)
                             .order_by(FreeSheet.position, FreeSheet.table)))


# --- seating and movement ----------------------------------------------------------------------------------

def seat_free_players(session: Session, tournament: Tournament, *, seed: str | None = None,
                      positions: int | None = None, who: str | None = None, mode: str | None = None) -> Movement:
    """The FFT free-play movement for the registered players, and each player's starting seat (module
    docstring); ``positions`` defaults to the most the movement plays without a repeated meeting. The team
    kinds are seated by `_freeplay_teams.seat_free_teams` (the core's team movement; ``mode``: libre par 4's
    « équipes à la même table » or « 4 tournois en parallèle », `_freeplay_teams.TEAM4_MODES`)."""
    _free(tournament)
    if _format(tournament).has_teams:

        return seat_free_teams(session, tournament, seed=seed, positions=positions, who=who, mode=mode)
    if _count(session, FreeSheet, FreeSheet.tournament_id == tournament.id):
        raise OperationError("Des feuilles de marque sont déjà saisies : on ne peut plus changer le mouvement.")
    entrants = _entrants(session, tournament)
    try:
        rounds, three = free_movement(positions=positions, players=len(entrants))
    except MovementError as error:
        raise OperationError(f"{len(entrants)} joueurs inscrits : {error}.", "positions") from None
    tables = max(r.table for r in rounds)
    played = max(r.position for r in rounds)
    data = movement_to_dict(tables, played, rounds, three)
    seed = (seed or "").strip() or secrets.token_hex(8)
    if len(seed) > 200:
        raise OperationError("La graine est trop longue (200 caractères au plus).", "seed")
    seats = [(r.table, player) for r in sorted(rounds, key=lambda r: r.table) if r.position == 1
             for player in r.seats.values() if player]
    fmt = _format(tournament)
    for entrant in entrants:  # free every id first: the unique constraint holds at each flush
        _place(entrant, None, fmt)
    session.flush()
    for entrant, (table, ident) in zip(drawn_order(entrants, seed), seats):
        _place(entrant, ident, fmt)
        entrant.start_table = table
    tournament.draw_seed = seed
    movement, before = put_movement(session, tournament, data)  # free play: no étui, no taker to follow
    absent = data.get("absent_players", [])
    three_text = (f"Howell sans {', '.join(absent)} (leur place laisse une table à 3)" if absent
                  else f"tables à 3 : {', '.join(map(str, sorted(three))) or 'aucune'}")
    after = {"tables": tables, "positions": played, "three_player_tables": sorted(three)}
    if absent:
        after["absent_players"] = absent
    journal(session, tournament, action="freeplay.movement", who=who,
            summary=f"Mouvement FFT : {len(entrants)} joueurs, {tables} tables, {played} positions ; {three_text} "
                    f"(graine « {seed} »)",
            before={"tables": before.get("tables"), "positions": before.get("positions")} if before else None,
            after=after)
    return movement


def free_plan(session: Session, tournament: Tournament) -> dict | None:
    """The movement as the arbiter reads it: ``{tables, positions, three, absent, moves, names, grid}`` with
    ``grid[position]`` the tables in order, each ``{"table", "seats": {seat: id or None}, "size"}``; None
    before the movement is made."""
    movement = get_movement(session, tournament)
    if movement is None:
        return None
    data = movement.data
    grid: dict[int, list[dict]] = {}
    for r in sorted(rounds_from_dict(data), key=lambda r: (r.position, r.table)):
        grid.setdefault(r.position, []).append({"table": r.table, "seats": r.seats, "size": len(r.players())})
    parallel = data.get("parallel") if isinstance(data.get("parallel"), dict) else None
    if parallel:  # libre par 4 in 4 parallel tournaments: each table's tournament letter and own number
        each = parallel["tables"]
        parallel = {"tables": each, "letter": {t: parallel_letter(t, each) for t in range(1, 4 * each + 1)},
                    "ranges": [(letter, k * each + 1, (k + 1) * each) for k, letter in enumerate(PARALLEL_LETTERS)]}
    return {"tables": data.get("tables"), "positions": data.get("positions"), "parallel": parallel,
            "three": data.get("three_player_tables", []), "absent": data.get("absent_players", []),
            "moves": data.get("moves", []),
            "names": player_names(session, tournament), "grid": grid,
            "final": data.get("final_square") if isinstance(data.get("final_square"), dict) else None,
            "teams": data.get("teams") or {},
            "team_of": {member: team for team, members in (data.get("teams") or {}).items() for member in members}}


def player_names(session: Session, tournament: Tournament) -> dict[str, str]:
    """Movement id → « DUPONT Jean »."""
    return {p.entrant_id: p.name for p in players(session, tournament) if p.entrant_id}


def free_rounds(session: Session, tournament: Tournament) -> tuple[Round, ...]:
    """The free-play movement's rounds (none without a movement), decoded once per stored text: the text is
    read once a transaction, and not at all while this process holds the movement's version
    (`_layout.movement_text`) — a table's phone asks for them at every request."""
    text = movement_text(session, tournament)
    return _decoded_rounds(text) if text not in (None, "null") else ()


@functools.lru_cache(maxsize=16)
def _decoded_rounds(text: str) -> tuple[Round, ...]:
    return tuple(rounds_from_dict(json.loads(text)))


def table_seats(session: Session, tournament: Tournament, position: int, table: int) -> dict[str, str | None]:
    """Who sits where at ``table`` for ``position`` (``None``: an empty seat); `NotFound` when the movement
    has no such table."""
    for r in free_rounds(session, tournament):
        if r.position == position and r.table == table:
            return dict(r.seats)
    raise NotFound(f"Pas de table {table} à la position {position} dans le mouvement.")


def get_sheet(session: Session, tournament: Tournament, position: int, table: int) -> FreeSheet | None:
    return session.exec(select(FreeSheet).where(FreeSheet.tournament_id == tournament.id,
                                                FreeSheet.position == position, FreeSheet.table == table)).first()


# --- the feuille de marque -------------------------------------------------------------------------------------

def _row_is_empty(row: dict) -> bool:
    return not any((row.get(key) or "").strip() for key in ("taker", "points", "bouts", "poignees"))\
        and row.get("passed") != "1"


def _poignees(text: str) -> list[str]:
    """« S », « sd », « simple double », « s+s » → the poignées' names."""
    words = text.lower().replace("+", " ").replace(",", " ").split()
    found = []
    for word in words:
        if word in POIGNEE_LETTERS.values():
            found.append(word)
        elif all(letter in POIGNEE_LETTERS for letter in word):
            found += [POIGNEE_LETTERS[letter] for letter in word]
        else:
            raise ValueError(f"poignée « {word} » inconnue (S simple, D double, T triple)")
    return found


def parse_row(row: dict, people: list[str]) -> dict:
    """One row of the form (text fields of `ROW_FIELDS`) → the deal's SPEC §13 facts; French ValueError."""
    if row.get("passed") == "1":
        if (row.get("taker") or "").strip():
            raise ValueError("« passe » cochée avec un preneur : l’un ou l’autre")
        return {"passed": True}
    taker = (row.get("taker") or "").strip()
    if not taker:
        raise ValueError("le preneur manque (ou cochez « passe »)")
    if taker not in people:
        raise ValueError("preneur inconnu à cette table")
    partner = (row.get("partner") or "").strip() or None
    if partner is not None and partner not in people:
        raise ValueError("partenaire inconnu à cette table")
    contract = (row.get("contract") or "").strip()
    if contract not in CONTRACT_LABELS:
        raise ValueError("choisissez le contrat")
    points_text = (row.get("points") or "").strip()
    if not points_text:
        raise ValueError("les points du preneur manquent")
    try:
        points = french.parse_number(points_text)
    except (ValueError, ArithmeticError):
        raise ValueError(f"points illisibles « {points_text} »") from None
    bouts_text = (row.get("bouts") or "").strip()
    if bouts_text not in ("0", "1", "2", "3"):
        raise ValueError("nombre de bouts : 0, 1, 2 ou 3")
    petit = (row.get("petit") or "").strip() or None
    if petit is not None and petit not in PETIT_LABELS:
        raise ValueError("petit au bout : attaque ou défense")
    chelem = (row.get("chelem") or "").strip() or None
    if chelem is not None and chelem not in CHELEM_LABELS:
        raise ValueError("chelem inconnu")
    return {"taker": taker, "partner": partner, "contract": contract, "points": french.plain(points),
            "bouts": int(bouts_text), "poignees": _poignees(row.get("poignees") or ""), "petit_au_bout": petit,
            "chelem": chelem}


def read_sheet(rows: list[dict], people: list[str]) -> tuple[list[dict], list[dict[str, int]]]:
    """The typed rows (blank ones left out) → the deals (numbered 1, 2… in order) and their marks from the
    core; `SheetError` naming each faulty row."""
    if len(rows) > MAX_DEALS:
        raise SheetError(f"Une feuille a {MAX_DEALS} donnes au plus.")
    deals, where, marks, errors = _score_rows(rows, people)
    if errors:
        first = min(errors)
        more = f" (et {len(errors) - 1} autre{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
        raise SheetError(f"Feuille refusée, rien n’est enregistré : {errors[first]}{more}", errors)
    return deals, marks


def preview_sheet(rows: list[dict], people: list[str]) -> dict:
    """The marks of a sheet being typed, nothing saved (the live totals of the entry form): for each typed
    row ``{"marks": {player: "+210"…}}`` (None for a blank or faulty row), the foot of the rows that score
    (``{player: {"plus", "minus", "bilan"}}``), the sum of the bilans and the first faulty row's French
    message. Same reading and same core functions as `read_sheet`: the server stays the authority."""
    deals, where, marks, errors = _score_rows(rows[:MAX_DEALS], people)
    by_row = dict(zip(where, marks))
    shown = [{"marks": {p: french.score(by_row[index].get(p, 0)) for p in people}} if by_row.get(index)
             else {"marks": None} for index in range(len(rows[:MAX_DEALS]))]
    foot, balance = sheet_foot(people, [m for m in marks if m])
    return {"rows": shown, "foot": {p: {"plus": french.number(foot[p].plus, 0), "minus": french.number(foot[p].minus, 0),
                                        "bilan": french.score(foot[p].bilan)} for p in people},
            "balance": french.score(balance), "balanced": balance == 0,
            "message": errors[min(errors)] if errors else ""}


def _score_rows(rows: list[dict], people: list[str]):
    """(deals, their rows' indexes, their marks ({} for a faulty deal), {row: French message})."""
    deals, where, errors = [], [], {}
    for index, row in enumerate(rows):
        if _row_is_empty(row):
            continue
        try:
            deal = parse_row(row, people)
        except ValueError as error:
            errors[index] = f"Donne {len(deals) + 1} : {error}."
            deals.append(None)
            where.append(index)
            continue
        deals.append({"deal": len(deals) + 1, **deal})
        where.append(index)
    marks: list[dict[str, int]] = []
    for index, deal in zip(where, deals):
        if deal is None:
            marks.append({})
            continue
        try:
            marks.append(sheet_marks(people, [deal])[0])
        except ScoreError as error:
            text = str(error).removeprefix("donne 1 : ")
            errors[index] = f"Donne {deal['deal']} : {text[:1].upper()}{text[1:]}."
            marks.append({})
    return deals, where, marks, errors


def save_sheet(session: Session, tournament: Tournament, position: int, table: int, rows: list[dict], *,
               version: int | None, replace: int | None = None, who: str | None = None) -> FreeSheet:
    """Save the feuille of ``table`` at ``position`` from the typed ``rows`` (module docstring).
    ``version``: the stored sheet's version the form was built from (None: there was none); ``replace``:
    the version the person chose to replace after a conflict."""
    _free(tournament)
    seats = table_seats(session, tournament, position, table)
    people = [p for p in seats.values() if p]
    deals, _ = read_sheet(rows, people)
    stored = get_sheet(session, tournament, position, table)
    current = stored.version_id if stored is not None else None
    if current != version and (replace is None or replace != current):
        if stored is None:  # removed meanwhile? (not possible today) — treat as a fresh sheet
            pass
        else:
            raise SheetConflict(stored)
    before = list(stored.deals) if stored is not None else None
    if stored is None:
        stored = FreeSheet(tournament_id=tournament.id, position=position, table=table, deals=deals,
                           entered_by=who)
        session.add(stored)
    else:
        stored.deals = deals
        stored.entered_by = who
        stored.updated_at = utcnow()
    for pending in session.exec(select(FreeTableEntry).where(  # a feuille typed at the table, now superseded
            FreeTableEntry.tournament_id == tournament.id, FreeTableEntry.position == position,
            FreeTableEntry.table == table)):
        session.delete(pending)
    session.flush()
    if before != deals:
        action = "freeplay.sheet.create" if before is None else (
            "freeplay.sheet.replace" if replace is not None else "freeplay.sheet.update")
        verb = {"freeplay.sheet.create": "saisie", "freeplay.sheet.update": "corrigée",
                "freeplay.sheet.replace": "remplacée (conflit)"}[action]
        journal(session, tournament, action=action, who=who,
                summary=f"Feuille de marque table {table}, position {position} {verb} : "
                        f"{french.counted(len(deals), 'donne', 'donnes')}",
                before={"donnes": before} if before is not None else None, after={"donnes": deals})
    return stored


@dataclass
class SheetView:
    """A feuille as the screens show it: the players in seat order, each deal with its marks, the foot."""

    seats: dict[str, str | None]
    people: list[str]
    deals: list[dict]
    marks: list[dict[str, int]]
    foot: dict
    balance: int


def sheet_view(seats: dict[str, str | None], deals: list[dict]) -> SheetView:
    """The stored deals with their marks (`core.freeplay.tournament.sheet_marks`) and the foot of the sheet
    (`core.freeplay.feuille.sheet_foot`: +, −, bilan; the bilans sum to zero)."""
    people = [p for p in seats.values() if p]
    marks = sheet_marks(people, deals)
    foot, balance = sheet_foot(people, marks)
    return SheetView(seats, people, deals, marks, foot, balance)


def sheet_rows(deals: list[dict]) -> list[dict]:
    """Stored deals → the form's text fields (`ROW_FIELDS`), to show a sheet for correction."""
    rows = []
    for deal in deals:
        if deal.get("passed"):
            rows.append({"passed": "1"})
            continue
        rows.append({
            "taker": deal.get("taker") or "", "partner": deal.get("partner") or "",
            "contract": deal.get("contract") or "", "points": french.number(deal.get("points"), 1).replace(",0", ""),
            "bouts": str(deal.get("bouts", "")), "petit": deal.get("petit_au_bout") or "",
            "poignees": " ".join(p[0].upper() for p in deal.get("poignees") or []),
            "chelem": deal.get("chelem") or "",
        })
    return rows


def progress(session: Session, tournament: Tournament) -> dict:
    """``{"expected": [(position, table)], "entered": {(position, table): deals}}``."""
    movement = get_movement(session, tournament)
    expected = sorted({(r.position, r.table) for r in rounds_from_dict(movement.data)}) if movement else []
    entered = {(s.position, s.table): len(s.deals) for s in sheets(session, tournament)}
    return {"expected": expected, "entered": entered, "missing": len([k for k in expected if k not in entered])}


# --- penalties, the file, the ranking --------------------------------------------------------------------------

def fault_choices() -> list[tuple[str, str]]:
    """The faults the arbiter picks from (the catalogue, `core.freeplay.penalties.CATALOGUE`, with what each
    costs), then « autre » (points and reason typed)."""
    def cost(fault) -> str:
        if fault.points is None:
            return "points fixés par l’arbitre"
        return f"avertissement puis {fault.points} points" if fault.warning_first else f"{fault.points} points"

    return [(code, f"{fault.label} — {cost(fault)}") for code, fault in CATALOGUE.items()] + [
        (OTHER_FAULT, "Autre pénalité — points et motif fixés par l’arbitre")]


def _fault_text(code: str, result: Sanction, note: str | None) -> str:
    text = f"{CATALOGUE[code].label} : {result.french}"
    return (f"{text} — {note}" if note else text)[:500]


def refresh_faults(session: Session, tournament: Tournament) -> None:
    """Give each catalogue fault its sanction as the core counts it (`_penalties` of `rank_free`: the
    player's earlier sanctions for that fault, in the order given): after a removal the next ring of a
    phone may become the warning. Points and text of the stored rows follow."""
    earlier: dict[tuple[str, str], int] = {}
    for penalty in session.exec(select(Penalty).where(Penalty.tournament_id == tournament.id).order_by(Penalty.id)):
        code = (penalty.extra or {}).get("fault")
        if code not in CATALOGUE:
            continue
        key = (penalty.entrant_id, code)
        given = None if CATALOGUE[code].points is not None else int(round(penalty.points))
        result = sanction(code, earlier.get(key, 0), given)
        earlier[key] = earlier.get(key, 0) + 1
        text = _fault_text(code, result, (penalty.extra or {}).get("reason"))
        if penalty.points != result.points or penalty.reason != text:
            penalty.points, penalty.reason = float(result.points), text
    session.flush()


def free_penalty(session: Session, tournament: Tournament, *, entrant_id: str, fault: str, points: int | None = None,
                 reason: str | None = None, who: str | None = None) -> tuple[Penalty, Sanction]:
    """A fault of the arbitration code (booklet chapter 4, `core.freeplay.penalties.CATALOGUE`) given to a
    player: « avertissement puis pénalité » counts his earlier sanctions for that fault (a first ring of the
    phone is a warning, 0 point; the second costs 500); the faults without an amount in the code (smoking,
    ethics) and « autre » take the arbiter's ``points``; « autre » needs a ``reason``. Journalled."""
    _free(tournament)
    # a player, also in the team kinds (a team member's fault is his own, counted in his team's total)
    known = {p.entrant_id: p for p in players(session, tournament) if p.entrant_id}
    if entrant_id not in known:
        raise OperationError("Choisissez un joueur placé.", "entrant_id")
    if fault != OTHER_FAULT and fault not in CATALOGUE:
        raise OperationError("Choisissez la faute dans la liste.", "fault")
    note = _clean(reason) or None
    if note is not None and len(note) > 200:
        raise OperationError("Le motif a 200 caractères au plus.", "reason")
    free_amount = fault == OTHER_FAULT or CATALOGUE[fault].points is None
    if free_amount:
        if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= MAX_PENALTY_POINTS:
            raise OperationError(f"Cette faute n’a pas de montant dans le code : indiquez les points (1 à "
                                 f"{french.number(MAX_PENALTY_POINTS, 0)}).", "points")
    if fault == OTHER_FAULT:
        if note is None:
            raise OperationError("Indiquez le motif de la pénalité.", "reason")
        result, text, extra = Sanction(False, points), note, None
    else:
        earlier = sum(1 for p in session.exec(select(Penalty).where(Penalty.tournament_id == tournament.id,
                                                                     Penalty.entrant_id == entrant_id))
                      if (p.extra or {}).get("fault") == fault)
        result = sanction(fault, earlier, points if free_amount else None)
        text = _fault_text(fault, result, note)
        extra = {"fault": fault, **({"reason": note} if note else {})}
    penalty = Penalty(tournament_id=tournament.id, entrant_id=entrant_id, points=float(result.points), reason=text,
                      created_by=who, extra=extra)
    session.add(penalty)
    session.flush()
    journal(session, tournament, action="penalty.add", who=who,
            summary=f"{'Avertissement' if result.warning else 'Pénalité'} à {known[entrant_id].name} "
                    f"({french.place_label(entrant_id)}) : {text}",
            after={"entrant": entrant_id, "fault": fault, "points": result.points, "warning": result.warning,
                   **({"reason": note} if note else {})})
    return penalty, result


def free_remove_penalty(session: Session, tournament: Tournament, penalty_id: int, who: str | None = None) -> None:
    """Remove a penalty (journalled by `remove_penalty`), then recount the warnings of the code's faults."""
    remove_penalty(session, tournament, penalty_id, who=who)
    refresh_faults(session, tournament)


def _penalty_item(penalty: Penalty) -> dict:
    """A stored penalty as SPEC §13 writes it: ``{"player", "late_minutes"}`` (art. 26), ``{"player",
    "fault"}`` (the code's catalogue; ``"points"`` for a fault without an amount; ``"reason"`` the arbiter's
    note), else ``{"player", "points", "reason"}``."""
    extra = penalty.extra or {}
    item = {"player": penalty.entrant_id}
    minutes, fault = extra.get("late_minutes"), extra.get("fault")
    if isinstance(minutes, int):
        item["late_minutes"] = minutes
        if penalty.reason:
            item["reason"] = penalty.reason
    elif fault in CATALOGUE:
        item["fault"] = fault
        if CATALOGUE[fault].points is None:
            item["points"] = int(round(penalty.points))
        if extra.get("reason"):
            item["reason"] = extra["reason"]
    else:
        item["points"] = int(round(penalty.points))
        if penalty.reason:
            item["reason"] = penalty.reason
    return item


def free_lateness(session: Session, tournament: Tournament, *, entrant_id: str, minutes: int,
                  who: str | None = None) -> Penalty:
    """Art. 26: 100 points per started 5 minutes of lateness off the player's total."""
    _free(tournament)
    people = players(session, tournament) if _format(tournament).has_teams else _entrants(session, tournament)
    known = {p.entrant_id: p for p in people if p.entrant_id}  # a team's late member: his own penalty (art. 26)
    if entrant_id not in known:
        raise OperationError("Choisissez un joueur placé.", "entrant_id")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_LATENESS_MINUTES:
        raise OperationError(f"Le retard est un nombre entier de minutes (1 à {MAX_LATENESS_MINUTES}).", "minutes")
    points = lateness_penalty(minutes)
    penalty = Penalty(tournament_id=tournament.id, entrant_id=entrant_id, points=float(points),
                      reason=f"Retard de {minutes} min (art. 26)", created_by=who, extra={"late_minutes": minutes})
    session.add(penalty)
    session.flush()
    journal(session, tournament, action="penalty.add", who=who,
            summary=f"Pénalité de retard à {known[entrant_id].name} ({french.place_label(entrant_id)}) : "
                    f"{minutes} min, {points} points (art. 26)",
            after={"entrant": entrant_id, "minutes": minutes, "points": points})
    return penalty


def free_export(session: Session, tournament: Tournament) -> dict:
    """The tournament as the SPEC §13 file (``"kind": "free"``): players (placed ones), the movement, one
    result per deal, the penalties — what ``rank`` reads."""
    _free(tournament)
    people = []
    for player in players(session, tournament):
        if not player.entrant_id:
            continue
        item = {"id": player.entrant_id, "name": player.name}
        if player.licence:
            item["licence"] = player.licence
        if player.club:
            item["club"] = player.club
        if player.withdrawn_from is not None:
            item["withdrawn"] = {"position": player.withdrawn_from}
        people.append(item)
    results = [{"table": s.table, "position": s.position, **deal} for s in sheets(session, tournament)
               for deal in s.deals]
    penalties = []
    for penalty in session.exec(select(Penalty).where(Penalty.tournament_id == tournament.id).order_by(Penalty.id)):
        penalties.append(_penalty_item(penalty))
    movement = get_movement(session, tournament)
    kind = _format(tournament).id
    data = {"format": interchange.TOURNAMENT_FORMAT, "name": tournament.name, "kind": kind,
            "players": people, "results": results, "penalties": penalties}
    if _format(tournament).has_teams:  # free_duo, free_team4: the teams (SPEC §13)

        data["teams"] = export_teams(session, tournament)
    if tournament.date is not None:
        data["date"] = tournament.date.isoformat()
    if movement is not None:
        data["movement"] = movement.data
    coefficients = (tournament.settings or {}).get("free_coefficients")
    if coefficients:  # the arbiter's coefficients between positions (`_freeplay_extras.add_free_coefficient`)
        data["coefficients"] = coefficients
    if (tournament.settings or {}).get("free_championship"):  # ties broken by art. 29 (SPEC §13)
        data["championship"] = True
    return data


def free_ranking(session: Session, tournament: Tournament) -> dict:
    """`core.freeplay.tournament.rank_free` of `free_export`; an ``"error"`` (French) if the core refuses the
    stored data (it was checked at the door: this should not happen)."""
    data = free_export(session, tournament)
    try:
        return rank_free(data)
    except FreePlayError as error:
        return {"kind": data["kind"], "results": [], "ranking": [], "players": [], "error": str(error)}


#: The championship levels of the PCN attribution (`core.freeplay.pcn.CHAMPIONSHIPS`), as the forms name them.
PCN_LEVELS = {"": "Tournoi de club", "regional": "Championnat régional",
              "regional_semifinal": "Demi-finale régionale (indice 1,5)", "regional_final": "Finale régionale (indice 1,8)"}
MAX_PCN_TABLES = 1000


def free_pcn(session: Session, tournament: Tournament, *, championship: str | None = None,
             tables: int | None = None) -> tuple[dict, dict]:
    """(the SPEC §13 file with ``"pcn"``, its `rank_free` output with ``"pcn"`` and ``"pp"`` per row, or
    ``"pcn_refused"``): the ``pcn --file`` command's computation. ``championship`` among `PCN_LEVELS` (empty:
    a club tournament); ``tables`` overrides the tables counted (several sessions: the tables of every session
    added, booklet p. 44), default ⌈players / 4⌉. French `OperationError` on a bad choice."""
    _free(tournament)
    championship = championship or None
    if championship is not None and championship not in PCN_LEVELS:
        raise OperationError("Choisissez le niveau de l’épreuve dans la liste.", "championship")
    if tables is not None and (not isinstance(tables, int) or isinstance(tables, bool)
                               or not 1 <= tables <= MAX_PCN_TABLES):
        raise OperationError(f"Le nombre de tables est un entier de 1 à {MAX_PCN_TABLES}.", "tables")
    data = free_export(session, tournament)
    data["pcn"] = {**({"championship": championship} if championship else {}),
                   **({"tables": tables} if tables else {})} or True
    try:
        return data, rank_free(data)
    except FreePlayError as error:
        raise OperationError(str(error)) from None


def free_completeness(session: Session, tournament: Tournament) -> dict:
    """What the ranking API tells of a free-play tournament's entry (as `completeness` for the duplicate):
    ``missing``, the feuilles (table × position) the movement expects and nobody entered; ``complete``,
    nothing missing and at least one feuille."""
    state = progress(session, tournament)
    return {"complete": state["missing"] == 0 and bool(state["entered"]), "missing": state["missing"]}


def free_readiness(session: Session, tournament: Tournament) -> list[tuple[str, bool, str]]:
    """The dashboard's steps for free play: players, movement (with the seating), feuilles."""
    registered = players(session, tournament)
    n = len(registered)
    steps = [("players", n >= _format(tournament).players_needed,
              f"{n} joueur{'s' if n > 1 else ''} inscrit{'s' if n > 1 else ''}")]
    if _format(tournament).has_teams:  # libre duo, libre par 4: the teams

        rows = team_rows(session, tournament)
        alone = n - sum(len(members) for _, members in rows)
        steps.append(("teams", bool(rows) and not alone,
                      f"{french.counted(len(rows), 'équipe formée', 'équipes formées')}, "
                      f"{french.counted(alone, 'joueur', 'joueurs')} sans équipe"))
    plan = free_plan(session, tournament)
    if plan is None:
        steps.append(("free_movement", False, "aucun mouvement : à faire quand tous les joueurs sont inscrits"))
    else:
        placed = sum(p.entrant_id is not None for p in registered)
        three = (f"Howell sans {', '.join(plan['absent'])} (leur place laisse une table à 3)" if plan["absent"]
                 else f"tables à 3 : {', '.join(map(str, plan['three'])) or 'aucune'}")
        steps.append(("free_movement", placed == n,
                      f"{plan['tables']} tables, {plan['positions']} positions, {three} ; "
                      f"{french.counted(placed, 'joueur placé', 'joueurs placés')} sur {n}"))
    state = progress(session, tournament)
    steps.append(("free_sheets", bool(state["expected"]) and not state["missing"],
                  f"{french.counted(len(state['entered']), 'feuille saisie', 'feuilles saisies')} "
                  f"sur {len(state['expected'])}"))
    return steps
