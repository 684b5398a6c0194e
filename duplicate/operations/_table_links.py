"""The tables' links (SPEC §12, issue 13): each table's secret, its link and QR code, the codes a defender
confirms with.

* **The link.** Each table of the movement has a secret ``<tournament>.<table>.<code>``, the code an
  HMAC-SHA256 of the tournament and table under the tournament's own random ``table_key``: unguessable,
  valid for that tournament only, nothing to store per table (a GET never writes), and the same after a
  restart. The table's link is ``/table/<secret>`` (the phone page); its QR code is on the table's guide card.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from sqlmodel import Session, select

from duplicate import french
from duplicate.core.formats import format_for
from duplicate.models import Tournament

from ._codes import player_code
from ._common import NotFound, entrant_model
from ._layout import movement_rounds


def table_secret(tournament: Tournament, table: int) -> str:
    """The secret of ``table``'s link: ``<tournament>.<table>.<22 characters>``."""
    mac = hmac.new(tournament.table_key.encode(), f"tarot-table/1|{tournament.id}|{table}".encode(),
                   hashlib.sha256).digest()[:16]
    return f"{tournament.id}.{table}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def table_numbers(session: Session, tournament: Tournament) -> list[int]:
    """The tables of the movement (none before a movement is chosen)."""
    movement = movement_rounds(session, tournament)
    return list(movement.tables) if movement is not None else []


def table_links(session: Session, tournament: Tournament) -> list[dict]:
    """``{"table", "secret", "path"}`` of every table (``path``: the phone page, to be made absolute)."""
    return [{"table": t, "secret": table_secret(tournament, t), "path": f"/table/{table_secret(tournament, t)}"}
            for t in table_numbers(session, tournament)]


def find_table(session: Session, secret: str) -> tuple[Tournament, int]:
    """The tournament and table of a link's secret; `NotFound` (French) for anything else."""
    unknown = NotFound("Lien de table inconnu : scannez de nouveau le QR code de la table ou demandez à "
                       "l’arbitre.")
    secret = str(secret)
    parts = secret.split(".")
    # ASCII only: « ² » and « ١ » are digits to str.isdigit but not to int(), and hmac compares ASCII text only
    if not secret.isascii() or len(parts) != 3 or not all(french.digits(part) for part in parts[:2]) \
            or len(parts[0]) > 9 or len(parts[1]) > 4:
        raise unknown
    tournament = session.get(Tournament, int(parts[0]))
    if tournament is None or not hmac.compare_digest(table_secret(tournament, int(parts[1])), secret):
        raise unknown
    if not format_for(tournament.kind).has_etuis:  # no étui: its page is `operations.freeplay_table`'s
        raise unknown
    if int(parts[1]) not in table_numbers(session, tournament):
        raise unknown
    return tournament, int(parts[1])


def table_codes(session: Session, tournament: Tournament) -> list[dict]:
    """``{"id", "name", "code"}`` of every placed entrant — a substitute under his own id (``X1``), a team in
    team formats — in place order: the codes a defender confirms with (`_codes.player_code`), for the
    arbiter to tell a player who lost his card."""
    model = entrant_model(tournament)
    placed = session.exec(select(model).where(model.tournament_id == tournament.id, model.entrant_id.is_not(None)))
    return [{"id": row.entrant_id, "name": row.name, "code": player_code(tournament, row.entrant_id)}
            for row in sorted(placed, key=lambda row: french.place_order(row.entrant_id))]
