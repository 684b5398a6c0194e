"""The hall during play: the countdown of the position in play, the projector's page, the arbiter's live room.

**The clock** (`PositionClock`, one per tournament). The arbiter starts a position: the countdown gets
``minutes per étui × étuis of the position`` (``settings["minutes_per_board"]``, 7 by default — our
choice, the FFT texts give no figure: a duplicate deal has no bidding, and 7 minutes lets a table play,
score and check it), then pauses, resumes, extends it (or shortens it). What is stored is a moment or a
length, never a ticking value: running, ``ends_at``; paused, ``paused_remaining`` seconds; so every
projector and phone computes the same remaining time from the same row (`clock_state`, with the server's
``now`` so that a screen with a wrong clock still shows the right time).

**The position in play** is the clock's position; before the arbiter starts one, the first position whose
lines are not all in (`_position_in_play`).

**The live room** (`live_room`): the grid of tables × positions of the movement, each cell the étuis that
table plays at that position, each line's status decided in one place (`grid_status`): « done » (entered),
« pending » (entered at the table, awaiting a defender's confirmation, SPEC §12), « conflict » (an entry —
paper fiche or table — disagrees with the stored line and waits for the arbiter), « missing ». A table is
*late* at a position when lines of it are missing there while the clock says that position's time is up
(`behind_the_clock`): the clock has moved on to a later position, or its countdown for that position is
over. Late is behind the clock, not behind the other tables (issue 29 point 11: the paper tables were
flagged as soon as the phone tables had finished); with no clock started, no table is late.

The hall's screens ask every few seconds: the movement's layout (`_Layout`) and the projector's data are
kept per tournament and served again only while the rows they come from are unchanged (`_Cache`).

Secrecy (SPEC §11): the projector's data (`projector`) carries the ranking only once the séance is
published (`is_published`), even when an arbiter is signed in on the projector's computer: the hall's
screen is public.
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func
from sqlmodel import Session, select

from duplicate import french
from duplicate.db import read_columns
from duplicate.core.movements import Movement as CoreMovement
from duplicate.core.movements import MovementError, describe_move, next_move
from duplicate.models import (
    DONE, MINUTES_PER_BOARD_RANGE, PENDING, WITH_PENDING, Board, PositionClock, Result, ResultConflict,
    Tournament, result_slot, stored_utc, utcnow,
)
from duplicate.view_models.rankings import QUARTERS, rankings_view

from ._common import OperationError, _kind, entrant_model, lock_row
from ._deals import board_takers
from ._layout import _Kept, movement_rounds, movement_text
from ._publishing import is_published
from ._scoring import _round_lines, _without_phantoms
from ._tournaments import ranking

DEFAULT_MINUTES_PER_BOARD = 7
MINUTES_RANGE = MINUTES_PER_BOARD_RANGE
EXTEND_RANGE = (-30, 30)

#: A line's statuses, and a cell's (the worst of its lines: first in this order).
STATUSES = ("conflict", "missing", "pending", "done")
STATUS_LABELS = {"done": "saisi", "pending": "en attente", "conflict": "conflit", "missing": "manquant"}


# --- the clock -----------------------------------------------------------------------------------------

def minutes_per_board(tournament: Tournament) -> int:
    """Minutes per étui for the countdown (``settings["minutes_per_board"]``, 7 by default)."""
    value = (tournament.settings or {}).get("minutes_per_board")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else DEFAULT_MINUTES_PER_BOARD


def set_minutes_per_board(session: Session, tournament: Tournament, minutes: Any) -> None:
    """Set the minutes per étui (a whole number from 1 to 60); the running countdown is left as it is."""
    low, high = MINUTES_RANGE
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise OperationError(f"Indiquez un nombre entier de minutes par étui, de {low} à {high}.", "minutes")
    lock_row(session, tournament)  # the settings as another arbiter may just have saved them
    tournament.settings = {**(tournament.settings or {}), "minutes_per_board": minutes}  # a new dict: see publish
    session.add(tournament)
    session.flush()


@dataclass(frozen=True)
class _Layout:
    """What the movement lays out, read once per change of it: the core movement and the fiches' lines
    ``(position, table, board, key, slot)`` that real entrants play (`_scoring._round_lines`, phantoms left
    out by `_scoring._without_phantoms`), by position, table, étui."""

    movement: CoreMovement | None
    lines: tuple[tuple[int, int, int, str, str], ...]
    tables: tuple[int, ...]
    positions: tuple[int, ...]


class _Cache:
    """The last value computed for each tournament, with the key it was computed from: a value is served
    only while the stored rows give the same key (read in a few light queries per request), so it is never
    stale, whichever process or transaction wrote. Per process, at most 16 tournaments (`_layout._Kept`)."""

    def __init__(self):
        self.kept = _Kept(16)

    def get(self, tournament_id: int, key: tuple) -> Any:
        entry = self.kept.get(tournament_id)
        return entry[1] if entry is not None and entry[0] == key else None

    def put(self, tournament_id: int, key: tuple, value: Any) -> None:
        self.kept.keep(tournament_id, (key, value))


def _layout_key(session: Session, tournament: Tournament) -> tuple:
    """What a `_Layout` is computed from: the movement's stored text, the étuis' taker seats, the entrants
    placed — the screens of the hall ask every few seconds, the movement seldom changes."""
    model = entrant_model(tournament)
    return (
        movement_text(session, tournament),
        tuple(session.execute(select(Board.number, Board.taker).where(Board.tournament_id == tournament.id)
                              .order_by(Board.number)).all()),
        tuple(session.execute(select(model.entrant_id).where(model.tournament_id == tournament.id)
                              .order_by(model.entrant_id)).scalars()),
    )


def _layout(session: Session, tournament: Tournament, key: tuple | None = None) -> _Layout:
    key = key if key is not None else _layout_key(session, tournament)
    layout = _LAYOUTS.get(tournament.id, key)
    if layout is None:
        layout = _read_layout(session, tournament, key[0])
        _LAYOUTS.put(tournament.id, key, layout)
    return layout


def _read_layout(session: Session, tournament: Tournament, text: str | None) -> _Layout:
    movement = movement_rounds(session, tournament, text)  # decoded once per process, as for entry
    if movement is None:
        return _Layout(None, (), (), ())
    try:
        core = CoreMovement.from_dict(movement.data)
    except MovementError:
        core = None
    kind = _kind(tournament)
    takers = board_takers(session, tournament, movement)
    rounds = movement.rounds
    played = _without_phantoms(session, tournament, [line for round_ in rounds
                                                     for line in _round_lines(kind, round_, takers)])
    lines = tuple(sorted((line.position, line.table, line.board, line.key, line.slot) for line in played))
    return _Layout(core, lines, tuple(sorted({int(r["table"]) for r in rounds})),
                   tuple(sorted({int(r["position"]) for r in rounds})))


_LAYOUTS = _Cache()
_PROJECTIONS = _Cache()


def _core_movement(session: Session, tournament: Tournament) -> CoreMovement | None:
    return _layout(session, tournament).movement


def position_boards(movement: CoreMovement | None, position: int) -> int:
    """How many étuis a table plays at ``position`` (the most of any table); 0 without a movement."""
    if movement is None:
        return 0
    return max((len(r.boards) for r in movement.rounds_at(position)), default=0)


def find_clock(session: Session, tournament: Tournament) -> PositionClock | None:
    """The tournament's clock, None before the arbiter first starts a position (reads only)."""
    return session.exec(select(PositionClock).where(PositionClock.tournament_id == tournament.id)).first()


def get_clock(session: Session, tournament: Tournament) -> PositionClock:
    """The tournament's clock to change (a new, not started one the first time: added to the session)."""
    clock = find_clock(session, tournament)
    if clock is None:
        clock = PositionClock(tournament_id=tournament.id)
        session.add(clock)
    return clock



def _seconds_left(clock: PositionClock, now: datetime.datetime) -> int | None:
    """Whole seconds left (rounded up, never below 0); None when the clock is not started."""
    if clock.ends_at is not None:
        return max(0, math.ceil((stored_utc(clock.ends_at) - now).total_seconds()))
    return clock.paused_remaining


def clock_state(clock: PositionClock | None, now: datetime.datetime | None = None) -> dict:
    """What every screen shows: ``state`` (« idle », « running », « paused », « over »), ``position``,
    ``remaining`` (whole seconds, rounded up), ``ends_at`` (ISO, when running) and the server's ``now``."""
    now = now or utcnow()
    state = {"state": "idle", "position": None, "remaining": None, "ends_at": None, "now": now.isoformat()}
    if clock is None:
        return state
    state["position"] = clock.position
    if clock.ends_at is not None:
        remaining = _seconds_left(clock, now)
        state.update(state="running" if remaining > 0 else "over", remaining=remaining,
                     ends_at=stored_utc(clock.ends_at).isoformat())
    elif clock.paused_remaining is not None:
        state.update(state="paused", remaining=clock.paused_remaining)
    return state


def start_position(session: Session, tournament: Tournament, position: Any, *,
                   now: datetime.datetime | None = None) -> PositionClock:
    """Start the countdown of ``position``: minutes per étui × its étuis, from ``now``."""
    movement = _core_movement(session, tournament)
    if movement is None:
        raise OperationError("Choisissez d’abord le mouvement : il donne les positions et leurs étuis.")
    if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= movement.positions:
        raise OperationError(f"Position inconnue : choisissez de 1 à {movement.positions}.", "position")
    now = now or utcnow()
    clock = get_clock(session, tournament)
    clock.position = position
    minutes = minutes_per_board(tournament) * position_boards(movement, position)
    clock.ends_at = now + datetime.timedelta(minutes=minutes)
    clock.paused_remaining = None
    clock.updated_at = now
    session.flush()
    return clock


def pause_clock(session: Session, tournament: Tournament, *, now: datetime.datetime | None = None) -> PositionClock:
    """Stop the countdown, keeping the seconds left."""
    now = now or utcnow()
    clock = get_clock(session, tournament)
    if clock.ends_at is None:
        raise OperationError("Le compte à rebours n’est pas en marche.")
    clock.paused_remaining, clock.ends_at, clock.updated_at = _seconds_left(clock, now), None, now
    session.flush()
    return clock


def resume_clock(session: Session, tournament: Tournament, *, now: datetime.datetime | None = None) -> PositionClock:
    """Restart a paused countdown with the seconds it had left."""
    now = now or utcnow()
    clock = get_clock(session, tournament)
    if clock.paused_remaining is None:
        raise OperationError("Le compte à rebours n’est pas en pause.")
    clock.ends_at = now + datetime.timedelta(seconds=clock.paused_remaining)
    clock.paused_remaining, clock.updated_at = None, now
    session.flush()
    return clock


def extend_clock(session: Session, tournament: Tournament, minutes: Any, *,
                 now: datetime.datetime | None = None) -> PositionClock:
    """Give the position ``minutes`` more (fewer when negative; never below zero left), running or paused.
    A countdown already over restarts from zero: « +2 » after the bell gives two minutes."""
    low, high = EXTEND_RANGE
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 or not low <= minutes <= high:
        raise OperationError(f"Indiquez un nombre entier de minutes, de {low} à {high}, autre que 0.", "minutes")
    now = now or utcnow()
    clock = get_clock(session, tournament)
    delta = datetime.timedelta(minutes=minutes)
    if clock.ends_at is not None:
        clock.ends_at = max(max(stored_utc(clock.ends_at), now) + delta, now)
    elif clock.paused_remaining is not None:
        clock.paused_remaining = max(0, clock.paused_remaining + minutes * 60)
    else:
        raise OperationError("Lancez d’abord une position.")
    clock.updated_at = now
    session.flush()
    return clock


def stop_clock(session: Session, tournament: Tournament, *, now: datetime.datetime | None = None) -> PositionClock:
    """Put the clock back to « not started » (the position in play follows the entry again)."""
    clock = get_clock(session, tournament)
    clock.position = clock.ends_at = clock.paused_remaining = None
    clock.updated_at = now or utcnow()
    session.flush()
    return clock


_CLOCK = select(PositionClock.position, PositionClock.ends_at, PositionClock.paused_remaining).where(
    PositionClock.tournament_id == bindparam("tournament_id"))  # built once (issue 30)


def hall_version(session: Session, tournament: Tournament, now: datetime.datetime | None = None) -> str:
    """A short opaque text that changes whenever what the hall's screens show may change (issue 30): the
    version of the tournament's data (every committed write of a line, a player, the movement, the
    publication… raises it: `_changes`; a restore rewrites its epoch), the clock's row (launched, paused,
    extended, stopped) and whether its countdown is over — the one change time makes by itself (a table
    with lines missing then is « en retard »). The tournament's row is the one the request has read already;
    the clock is one more row.
    The screens send it back (``If-None-Match``) every second and are answered « 304, nothing new » at the
    cost of these two reads, without computing the grid or the projector (`web.arbiter.live`)."""
    return version_of_hall(tournament, clock_row(session, tournament), now)


def clock_row(session: Session, tournament: Tournament):
    """The clock's row as the hall's version reads it (position, end, paused remainder), or None."""
    return read_columns(session, _CLOCK, {"tournament_id": tournament.id}).first()


def version_of_hall(tournament: Tournament, clock, now: datetime.datetime | None = None) -> str:
    """`hall_version` from the clock's row already read (`clock_row`)."""
    over = clock is not None and clock.ends_at is not None and stored_utc(clock.ends_at) <= (now or utcnow())
    state = (tournament.created_at, tournament.data_epoch, tournament.data_version,
             tuple(clock) if clock is not None else None, over)
    return hashlib.blake2s(repr(state).encode(), digest_size=9).hexdigest()


# --- the grid ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StoredLine:
    """What the grid reads of a stored result: its id (the link to the line), its ``status`` (``done``, or
    ``pending`` until a defender confirms a line entered at the table, SPEC §12) and whether an entry that
    disagrees with it waits for the arbiter (an open `ResultConflict`)."""

    id: int
    status: str = DONE
    conflict: bool = False


def grid_status(stored: StoredLine | None) -> str:
    """The status of one line of a fiche — the only place the grid decides it: « missing » without a
    result; « conflict » while an entry that disagrees with it is open (never merged: the arbiter settles
    it); « pending » while it awaits a defender's confirmation (it counts nowhere yet); else « done »."""
    if stored is None:
        return "missing"
    if stored.conflict:
        return "conflict"
    return "pending" if stored.status == PENDING else "done"


def _stored_lines(session: Session, tournament: Tournament) -> dict[tuple[int, str], StoredLine]:
    """Every stored line of the tournament, pending ones too, by (étui, slot)."""
    disputed = set(session.execute(select(ResultConflict.result_id).where(
        ResultConflict.tournament_id == tournament.id, ResultConflict.resolved_at.is_(None))).scalars())
    rows = session.execute(select(Result.id, Result.board, Result.table, Result.room, Result.status)
                           .where(Result.tournament_id == tournament.id).execution_options(**{WITH_PENDING: True}))
    return {(board, result_slot(table, room)): StoredLine(ident, status, ident in disputed)
            for ident, board, table, room, status in rows}


def _worst(statuses) -> str:
    return min(statuses, key=STATUSES.index)


def _position_in_play(clock: PositionClock | None, cells: dict) -> int | None:
    """The clock's position; before one is started, the first position with lines still missing (the last
    when all are in); None without a movement."""
    if clock is not None and clock.position is not None:
        return clock.position
    positions = sorted({cell["position"] for cell in cells.values()})
    incomplete = sorted({cell["position"] for cell in cells.values() if cell["missing"]})
    return incomplete[0] if incomplete else (positions[-1] if positions else None)


def behind_the_clock(position: int, clock: dict) -> bool:
    """Whether the time allowed for ``position`` is up by the clock (`clock_state`): the clock runs a later
    position (started, paused or over), or its countdown for this one is over. No clock started: never."""
    if clock["state"] == "idle" or clock["position"] is None:
        return False
    return position < clock["position"] or (position == clock["position"] and clock["state"] == "over")


def live_room(session: Session, tournament: Tournament, layout_key: tuple | None = None) -> dict:
    """The arbiter's grid, from the movement and today's results.

    ``cells``: ``"<position>-<table>"`` → ``{position, table, status, late, upcoming, done, total, missing,
    lines: [{board, key, status, result_id}]}`` (``upcoming``: a position after the one in play, nothing
    entered yet — shown « à venir », not as a problem); ``tables``, ``positions``; ``position`` (in play);
    ``counts`` of lines per status; ``entered``: lines that count (done, conflicting or not — a pending
    line counts nowhere, SPEC §12); ``late_tables``."""
    layout = _layout(session, tournament, layout_key)
    stored = _stored_lines(session, tournament)
    cells: dict[str, dict] = {}
    entered = 0
    for position, table, board, key, slot in layout.lines:
        found = stored.get((board, slot))
        cell = cells.setdefault(f"{position}-{table}", {"position": position, "table": table, "lines": []})
        cell["lines"].append({"board": board, "key": key, "status": grid_status(found),
                              "result_id": found.id if found is not None else None})
        entered += found is not None and found.status == DONE
    counts = dict.fromkeys(STATUSES, 0)
    for cell in cells.values():
        statuses = [line["status"] for line in cell["lines"]]
        for status in statuses:
            counts[status] += 1
        cell.update(status=_worst(statuses), total=len(statuses), done=statuses.count("done"),
                    missing=statuses.count("missing"))
    clock = find_clock(session, tournament)
    in_play = _position_in_play(clock, cells)
    clock_now = clock_state(clock)
    for cell in cells.values():
        cell["late"] = cell["missing"] > 0 and behind_the_clock(cell["position"], clock_now)
        cell["upcoming"] = in_play is not None and cell["position"] > in_play and cell["missing"] == cell["total"]
    return {
        "tables": list(layout.tables), "positions": list(layout.positions), "cells": cells, "position": in_play,
        "counts": counts, "entered": entered,
        "late_tables": sorted({cell["table"] for cell in cells.values() if cell["late"]}),
    }


# --- the projector -------------------------------------------------------------------------------------

def move_after(movement: CoreMovement | None, position: int | None) -> dict | None:
    """The move after ``position`` as the hall reads it: ``parts`` (« Sud +1 »…), ``resting`` (ids going
    to the relais), ``joining`` (``{id, table, seat}`` coming back), and ``relais``, the line the relais
    players read, worded here once for the page and its script (« Au relais : O1, S1. Reviennent : N6
    (table 1). », places as a person reads them); None after the last position."""
    if movement is None or position is None:
        return None
    move = next_move(movement, position)
    if move is None:
        return None
    relais = []
    if move.resting:
        relais.append(f"Au relais : {', '.join(french.place_label(who) for who in move.resting)}.")
    if move.joining:
        relais.append("Reviennent : " + ", ".join(f"{french.place_label(who)}\u00a0(table\u00a0{table})"
                                                   for who, table, _seat in move.joining) + ".")
    return {"parts": describe_move(move), "resting": list(move.resting),
            "joining": [{"id": who, "table": table, "seat": seat} for who, table, seat in move.joining],
            "relais": " ".join(relais)}


def _entry_key(session: Session, tournament: Tournament) -> tuple:
    """A fingerprint of the stored lines and open conflicts: any line entered, changed (its version
    counter), confirmed or deleted, any conflict opened or settled, gives another one."""
    lines = session.execute(select(func.count(Result.id), func.sum(Result.version_id), func.max(Result.updated_at),
                                   func.count(Result.id).filter(Result.status == PENDING))
                            .where(Result.tournament_id == tournament.id)
                            .execution_options(**{WITH_PENDING: True})).one()
    conflicts = session.execute(select(func.count(ResultConflict.id), func.max(ResultConflict.id))
                                .where(ResultConflict.tournament_id == tournament.id,
                                       ResultConflict.resolved_at.is_(None))).one()
    return tuple(lines) + tuple(conflicts)


def projector(session: Session, tournament: Tournament, now: datetime.datetime | None = None) -> dict:
    """What the hall's screen shows: the position in play, the countdown, the next move, the entry's
    progress; ``published``. Nothing secret: no score, note or ranking (`projector_ranking`, after
    publication only). Every phone of the hall may ask for it every few seconds: all but the countdown is
    kept until a line, the movement, the clock's position or the publication changes (`_Cache`)."""
    clock = find_clock(session, tournament)
    layout_key = _layout_key(session, tournament)
    key = (layout_key, _entry_key(session, tournament), clock.position if clock is not None else None,
           is_published(tournament), tournament.name, tournament.created_at, tournament.data_epoch)
    shown = _PROJECTIONS.get(tournament.id, key)
    if shown is None:
        room = live_room(session, tournament, layout_key)
        movement = _layout(session, tournament, layout_key).movement
        position = room["position"]
        shown = {
            "tournament": tournament.id, "name": tournament.name,
            "position": position, "positions": movement.positions if movement is not None else None,
            "move": move_after(movement, position),
            "progress": {"entered": room["entered"], "lines": sum(room["counts"].values())},
            "published": is_published(tournament),
        }
        _PROJECTIONS.put(tournament.id, key, shown)
    return {**copy.deepcopy(shown), "clock": clock_state(clock, now)}


def projector_ranking(session: Session, tournament: Tournament) -> list[dict]:
    """The rankings the hall's screen turns through, once published (else ``[]``, whoever asks): the
    general ranking, then the alternated one (individual and triplettes), best first — the items of the
    results page's view-model (`view_models.rankings_view`), without the team match's quarters nor the
    « hors classement »."""
    if not is_published(tournament):
        return []
    view = rankings_view(tournament.format, ranking(session, tournament))
    return [dict(item, pm=view["pm"], rows=[row for row in item["rows"] if row["rank"] is not None])
            for item in view["items"] if item["kind"] != QUARTERS]
