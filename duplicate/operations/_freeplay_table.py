"""Free play at the table (issue 16): the table's phone enters its feuille de marque, another player of the
table confirms it with his code, and only then does it count. Reached as ``operations.freeplay_table``.

As the duplicate's table entry (`_table`, SPEC §12): the table's link and QR code carry its secret
(`_table.table_secret`, the same HMAC of the tournament's ``table_key``), no account, no cookie. Our
choices (docs/free-play.md › « Table-side entry »):

* **Who enters** (`enter_sheet`): the phone of the table — the North's, by the booklet's habit (« le Nord tient
  la feuille »; at a table of 3 without North, whoever holds it). The typed rows are read and scored by the
  feuille's own functions (`_freeplay.read_sheet`: the arbiter's form, the same French messages) and stored
  *pending* (`models.FreeTableEntry`); sending again replaces the pending sheet. A feuille already stored (by
  the arbiter, a scorer or an earlier confirmation) is refused at the table: only the arbiter changes it.
* **Who confirms** (`confirm_sheet`): another player seated at that table for that position — not the North
  (the seat that enters; at a table of 3 there is no North and the phone does not know who typed, so any
  of the three seated players: a weaker guard, said in docs/free-play.md) — choosing his seat and typing his
  **code**: 4 digits, `_codes.player_code` (the duplicate's too), an HMAC of the tournament's ``table_key`` and his place, printed on his fiche personnelle
  and listed for the arbiter. A wrong code changes nothing but is journalled; after `MAX_REFUSED_CODES`
  refused codes at a table for a position, the feuille is no longer confirmed on the phone (the arbiter
  enters it). The confirmed sheet is saved by `_freeplay.save_sheet` (one write path: the journal, the version,
  the checks), ``entered_by`` « table 3 (confirmée par E4) », and the pending row is removed.
* **Secrecy**: the page shows the table's own feuille of a position it plays — pending (to be confirmed) or
  « enregistrée » — never another table's, never a mark of a stored sheet, never a ranking.
"""

from __future__ import annotations

import hmac

from sqlmodel import Session, select

from duplicate import french
from duplicate.core import formats
from duplicate.core.cards import SEAT_NAMES
from duplicate.models import FreeTableEntry, Tournament, utcnow

from ._codes import MAX_REFUSED_CODES, code_matches, player_code, refused_attempts
from ._common import NotFound, OperationError, _format
from ._freeplay import free_rounds, get_sheet, player_names, read_sheet, save_sheet, sheet_rows, sheet_view, table_seats
from ._journal import journal
from ._table_links import table_secret

ENTERING_SEAT = formats.ENTERING_SEAT
CODE_REFUSED = "freeplay.table.code_refused"


def refused_codes(session: Session, tournament: Tournament, table: int, position: int) -> int:
    """How many confirmation codes were refused at ``table`` for ``position`` (the journal's entries)."""
    return refused_attempts(session, tournament, CODE_REFUSED, table, position)


def table_links(session: Session, tournament: Tournament) -> list[dict]:
    """Per table of the movement: ``{"table", "secret", "path"}`` (the phone page, to be made absolute)."""
    tables = sorted({r.table for r in free_rounds(session, tournament)})
    return [{"table": t, "secret": table_secret(tournament, t), "path": f"/table/libre/{table_secret(tournament, t)}"}
            for t in tables]


def player_codes(session: Session, tournament: Tournament) -> list[dict]:
    """``{"id", "name", "code"}`` of every placed player, in place order, for the arbiter to hand out."""
    from duplicate import french

    names = player_names(session, tournament)
    return [{"id": ident, "name": names[ident], "code": player_code(tournament, ident)}
            for ident in sorted(names, key=french.place_order)]


def find_free_table(session: Session, secret: str) -> tuple[Tournament, int]:
    """The free tournament and table of a link's secret; `NotFound` (French) for anything else."""
    unknown = NotFound("Lien de table inconnu : scannez de nouveau le QR code de la table ou demandez à l’arbitre.")
    secret = str(secret)
    parts = secret.split(".")
    # ASCII only: « ² » is a digit to str.isdigit but not to int(), and hmac compares ASCII text only
    if not secret.isascii() or len(parts) != 3 or not french.digits(parts[0]) or not french.digits(parts[1]) \
            or len(parts[0]) > 9 or len(parts[1]) > 4:
        raise unknown
    tournament = session.get(Tournament, int(parts[0]))
    if tournament is None or _format(tournament).has_etuis:
        raise unknown
    if not hmac.compare_digest(table_secret(tournament, int(parts[1])), secret):
        raise unknown
    if int(parts[1]) not in {r.table for r in free_rounds(session, tournament)}:
        raise unknown
    return tournament, int(parts[1])


def pending_entry(session: Session, tournament: Tournament, position: int, table: int) -> FreeTableEntry | None:
    return session.exec(select(FreeTableEntry).where(FreeTableEntry.tournament_id == tournament.id,
                                                     FreeTableEntry.position == position,
                                                     FreeTableEntry.table == table)).first()


def pending_sheets(session: Session, tournament: Tournament) -> list[tuple[int, int]]:
    """(position, table) of the feuilles typed at a table and not confirmed yet."""
    return sorted((e.position, e.table) for e in session.exec(
        select(FreeTableEntry).where(FreeTableEntry.tournament_id == tournament.id)))


def table_state(session: Session, tournament: Tournament, table: int, position: int | None = None) -> dict:
    """What the table's phone shows: the positions the table plays, the one shown (``position`` if the
    table plays it, else its first position without a stored feuille, else its last), the seats, and the
    status ``todo`` | ``pending`` | ``done``; for ``pending`` the typed feuille with its marks (the
    confirmer reads it), for ``done`` nothing of the marks."""
    positions = sorted({r.position for r in free_rounds(session, tournament) if r.table == table})
    if position not in positions:
        open_ = [p for p in positions if get_sheet(session, tournament, p, table) is None]
        position = open_[0] if open_ else (positions[-1] if positions else None)
    seats = table_seats(session, tournament, position, table) if position is not None else {}
    status, entry, view = "todo", None, None
    if position is not None and get_sheet(session, tournament, position, table) is not None:
        status = "done"
    elif position is not None:
        entry = pending_entry(session, tournament, position, table)
        if entry is not None:
            status, view = "pending", sheet_view(seats, entry.deals)
    return {"positions": positions, "position": position, "seats": seats, "status": status, "entry": entry,
            "view": view, "names": player_names(session, tournament),
            "confirmers": [seat for seat, who in seats.items() if who and seat != ENTERING_SEAT]}


def _seats_or_404(session: Session, tournament: Tournament, table: int, position) -> dict:
    if not isinstance(position, int) or isinstance(position, bool):
        raise NotFound("Position inconnue pour cette table.")
    try:
        return table_seats(session, tournament, position, table)
    except NotFound:
        raise NotFound(f"La table {table} ne joue pas la position {position}.") from None


def enter_sheet(session: Session, tournament: Tournament, table: int, position: int,
                rows: list[dict]) -> FreeTableEntry:
    """The table's phone sends its feuille: read and scored as the arbiter's form (`read_sheet`, French
    `SheetError` naming the deal, nothing written), stored pending until another player confirms."""
    seats = _seats_or_404(session, tournament, table, position)
    if get_sheet(session, tournament, position, table) is not None:
        raise OperationError(f"La feuille de la table {table}, position {position} est déjà enregistrée : "
                             "seul l’arbitre peut la changer.")
    deals, _ = read_sheet(rows, [p for p in seats.values() if p])
    if not deals:
        raise OperationError("La feuille est vide : saisissez au moins une donne (ou cochez « Passe »).")
    entry = pending_entry(session, tournament, position, table)
    before = list(entry.deals) if entry is not None else None
    if entry is None:
        entry = FreeTableEntry(tournament_id=tournament.id, position=position, table=table, deals=deals)
        session.add(entry)
    else:
        entry.deals, entry.entered_at = deals, utcnow()
    session.flush()
    if before != deals:
        journal(session, tournament, action="freeplay.table.enter", who=f"table {table}",
                summary=f"Feuille de marque table {table}, position {position} saisie à la table : "
                        f"{french.counted(len(deals), 'donne', 'donnes')}, en attente de confirmation",
                before={"donnes": before} if before is not None else None, after={"donnes": deals})
    return entry


def confirm_sheet(session: Session, tournament: Tournament, table: int, position: int, seat, code) -> None:
    """Another player of the table confirms the pending feuille with his code: it is then saved as a
    `FreeSheet` (`save_sheet`, journalled) and counts. French `OperationError` for a wrong seat or code."""
    seats = _seats_or_404(session, tournament, table, position)
    entry = pending_entry(session, tournament, position, table)
    if entry is None:
        raise NotFound("Rien n’attend de confirmation à cette table pour cette position : la feuille se saisit "
                       "d’abord.")
    if seat == ENTERING_SEAT:
        raise OperationError("Le Nord a saisi la feuille : un autre joueur de la table la confirme.", "seat")
    if seat not in seats or not seats.get(seat):
        raise OperationError("Choisissez votre place à la table (Sud, Est ou Ouest).", "seat")
    player = seats[seat]
    if refused_codes(session, tournament, table, position) >= MAX_REFUSED_CODES:
        raise OperationError(f"{MAX_REFUSED_CODES} codes refusés à cette table pour cette position : la feuille ne "
                             "se confirme plus au téléphone, appelez l’arbitre (il la saisit).", "locked")
    if not code_matches(tournament, player, code):
        journal(session, tournament, action=CODE_REFUSED, who=f"table {table}",
                summary=f"Table {table}, position {position} : code refusé pour {SEAT_NAMES.get(seat, seat)} "
                        f"({player})", after={"table": table, "position": position, "seat": seat})
        raise OperationError(f"Code incorrect pour {SEAT_NAMES.get(seat, seat)} : la feuille n’est pas confirmée.",
                             "code")
    if get_sheet(session, tournament, position, table) is not None:
        session.delete(entry)
        session.flush()
        raise OperationError(f"La feuille de la table {table}, position {position} a été enregistrée entre-temps "
                             "(par l’arbitre) : la saisie de la table est écartée.", "superseded")
    deals = list(entry.deals)
    save_sheet(session, tournament, position, table, sheet_rows(deals), version=None,
               who=f"table {table} (confirmée par {player})")  # removes the pending entry too
    journal(session, tournament, action="freeplay.table.confirm", who=f"table {table}",
            summary=f"Feuille de marque table {table}, position {position} confirmée par "
                    f"{SEAT_NAMES.get(seat, seat)} ({player}) : elle compte", after={"donnes": deals})
