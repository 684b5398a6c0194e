"""Movements as values: who sits where, with which étuis, at each position (SPEC §7, §9).

A *movement* is a list of rounds.  A round says, for one position and one table, who sits in each
seat and which étuis (boards) are played there.  The same shape serves every kind of tournament:

* ``individual`` — seats ``N``, ``S``, ``E``, ``W``; entrants ``N1``, ``S3``… (line + starting table)
  for the Rainbow and its relatives, ``J1``… (joueur n°) for the Howell movements of 3 and 4 tables,
  where the players change orientation (seed ``fft-fascicule-free-play-ocr.txt``, « Mouvement Howell
  FFT »);
* ``triplettes`` — seats ``NS`` and ``EW``; entrants ``NS1``, ``EW2``…;
* ``quadrettes`` — seats ``attack`` and ``defence``; entrants ``Q1``…;
* ``team_match`` — seats ``attack`` and ``defence``; entrants ``A`` and ``B`` (``A1``, ``B1``… when
  several matches run side by side).  Chosen representation (the seeds are silent): ``position`` is
  the quarter (1–4); tables come in pairs, the odd one is the open room (« salle ouverte »), the even
  one the closed room (« salle fermée »); each round carries the extra fields ``room``
  (``open``/``closed``) and ``chosen_by`` (who chose the étui series and the rooms that quarter).

The JSON form is the SPEC §9 ``tarot-movement/1`` document.  Extra fields are allowed by the SPEC; we
write ``notes`` (French explanations: method used, known limits) and, for team matches, the fields
above.  :meth:`Movement.from_dict` refuses malformed input with a French :class:`MovementError`
naming the faulty round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..cards import default_taker
from ..formats import FORMATS, KINDS, Format, format_for

__all__ = [
    "FORMAT", "KINDS", "SEAT_KEYS", "MovementError", "Board", "Round", "Movement", "boards_per_position", "default_takers",
]

FORMAT = "tarot-movement/1"
TAKERS = ("N", "S", "E", "W")

#: The seat keys a round may use, per kind (in print order): the formats' seats (`core.formats`).
SEAT_KEYS: dict[str, tuple[str, ...]] = {f.id: f.seats for f in FORMATS}
ROOMS = ("open", "closed")


class MovementError(ValueError):
    """A movement that cannot be generated or read; the message is French and says what to do."""


@dataclass(frozen=True, order=True)
class Board:
    """One étui: its number and the seat marked as taker on the case."""

    number: int
    taker: str = "N"


def boards_per_position(requested: int | None) -> int:
    """Étuis per table and position: 4 by default (takers N, S, E, W once each); at least 1."""
    per = 4 if requested is None else requested
    if per < 1:
        raise MovementError("Il faut au moins un étui par position.")
    return per


def default_takers(count: int) -> tuple[Board, ...]:
    """Étuis 1..count with takers N, S, E, W, N, S… (the house default when none is given)."""
    return tuple(Board(n, default_taker(n)) for n in range(1, count + 1))


@dataclass(frozen=True)
class Round:
    """One table at one position: seats (seat key → entrant id) and the étuis played there."""

    position: int
    table: int
    seats: tuple[tuple[str, str], ...]
    boards: tuple[int, ...]
    room: str | None = None          # team match only: "open" / "closed"
    chosen_by: str | None = None     # team match only: team that chose series and rooms

    @property
    def seat_map(self) -> dict[str, str]:
        return dict(self.seats)

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(entrant for _, entrant in self.seats)

    def seat_of(self, entrant: str) -> str | None:
        for seat, who in self.seats:
            if who == entrant:
                return seat
        return None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "position": self.position,
            "table": self.table,
            "seats": dict(self.seats),
            "boards": list(self.boards),
        }
        if self.room is not None:
            data["room"] = self.room
        if self.chosen_by is not None:
            data["chosen_by"] = self.chosen_by
        return data


@dataclass(frozen=True)
class Movement:
    """A whole movement.  ``rounds`` are sorted by (position, table)."""

    kind: str
    tables: int
    positions: int
    boards: tuple[Board, ...]
    rounds: tuple[Round, ...]
    notes: tuple[str, ...] = field(default=(), compare=False)
    players: int | None = None                            # individual: the headcount (relais)
    rests: tuple[tuple[int, tuple[str, ...]], ...] = ()   # (position, resting entrant ids): relais, byes

    # -- queries ---------------------------------------------------------------------------
    @property
    def format(self) -> Format:
        """The format of ``kind`` (`core.formats`)."""
        return format_for(self.kind)

    def rounds_at(self, position: int) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.position == position)

    def round_at(self, position: int, table: int) -> Round | None:
        for r in self.rounds:
            if r.position == position and r.table == table:
                return r
        return None

    def entrants(self) -> tuple[str, ...]:
        """Every entrant id, in order of first appearance (seated, then resting)."""
        seen: dict[str, None] = {}
        for r in self.rounds:
            for who in r.entrants:
                seen.setdefault(who, None)
        for _, resting in self.rests:
            for who in resting:
                seen.setdefault(who, None)
        return tuple(seen)

    def resting_at(self, position: int) -> tuple[str, ...]:
        """Who rests (« relais », bye) at this position."""
        for p, resting in self.rests:
            if p == position:
                return resting
        return ()

    def taker_of(self, board: int) -> str:
        for b in self.boards:
            if b.number == board:
                return b.taker
        return default_taker(board)

    # -- interchange -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "kind": self.kind,
            "tables": self.tables,
            "positions": self.positions,
            "boards": [{"number": b.number, "taker": b.taker} for b in self.boards],
            "rounds": [r.to_dict() for r in self.rounds],
        }
        if self.players is not None:
            data["players"] = self.players
        if self.rests:
            data["rests"] = [{"position": p, "entrants": list(resting)} for p, resting in self.rests]
        if self.notes:
            data["notes"] = list(self.notes)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Movement":
        """Read a SPEC §9 movement; malformed input raises :class:`MovementError` (French)."""
        if not isinstance(data, Mapping):
            raise MovementError("le mouvement doit être un objet JSON")
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise MovementError(f"format « {fmt} » inconnu (attendu « {FORMAT} »)")
        kind = data.get("kind")
        if kind not in KINDS:
            raise MovementError(
                f"type de mouvement « {kind} » inconnu (attendu : {', '.join(KINDS)})")
        tables = _positive_int(data.get("tables"), "« tables »")
        positions = _positive_int(data.get("positions"), "« positions »")
        raw_rounds = data.get("rounds")
        if not isinstance(raw_rounds, list) or not raw_rounds:
            raise MovementError("« rounds » doit être une liste non vide de tours")
        rounds = [_read_round(i, raw, kind) for i, raw in enumerate(raw_rounds, start=1)]
        raw_boards = data.get("boards")
        numbers = sorted({n for r in rounds for n in r.boards})
        if raw_boards in (None, []):
            boards = tuple(Board(n, default_taker(n)) for n in numbers)
        else:
            if not isinstance(raw_boards, list):
                raise MovementError("« boards » doit être une liste d’étuis")
            boards = tuple(_read_board(i, raw) for i, raw in enumerate(raw_boards, start=1))
        rounds.sort(key=lambda r: (r.position, r.table))
        notes = read_notes(data.get("notes"))
        players = data.get("players")
        if players is not None:
            players = _positive_int(players, "« players »")
        return cls(kind, tables, positions, boards, tuple(rounds),
                   notes, players,
                   _read_rests(data.get("rests")))


def read_notes(raw: Any) -> tuple[str, ...]:
    """A movement file's ``notes`` as the reader keeps them: a list, each note as text; anything else is
    no notes (an optional comment: never a reason to refuse the movement). The movement page reads them
    so too (`view_models.movement`)."""
    return tuple(str(note) for note in raw) if isinstance(raw, list) else ()


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MovementError(f"{what} doit être un entier positif (reçu : {value!r})")
    return value


def _read_rests(raw: Any) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """``rests``: ``[{"position": 1, "entrants": ["N7", "S7"]}, …]`` (who rests at each position)."""
    if raw in (None, []):
        return ()
    if not isinstance(raw, list):
        raise MovementError("« rests » doit être une liste de positions avec leurs joueurs au relais")
    out = []
    for index, item in enumerate(raw, start=1):
        where = f"relais n° {index} de la liste « rests »"
        if not isinstance(item, Mapping):
            raise MovementError(f"{where} : objet attendu")
        position = item.get("position")
        if isinstance(position, bool) or not isinstance(position, int) or position < 1:
            raise MovementError(f"{where} : « position » doit être un entier positif (reçu : {position!r})")
        entrants = item.get("entrants")
        if not isinstance(entrants, list) or not all(isinstance(e, str) and e.strip() for e in entrants):
            raise MovementError(f"{where} : « entrants » doit être une liste d’identifiants")
        out.append((position, tuple(e.strip() for e in entrants)))
    return tuple(sorted(out))


def _read_board(index: int, raw: Any) -> Board:
    if not isinstance(raw, Mapping):
        raise MovementError(f"étui n° {index} de la liste « boards » : objet attendu")
    number = raw.get("number")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise MovementError(f"étui n° {index} de la liste « boards » : numéro invalide {number!r}")
    taker = str(raw.get("taker", default_taker(number))).upper()
    if taker == "O":
        taker = "W"
    if taker not in TAKERS:
        raise MovementError(f"étui {number} : preneur « {raw.get('taker')} » inconnu (N, S, E ou O)")
    return Board(number, taker)


def _read_round(index: int, raw: Any, kind: str) -> Round:
    where = f"tour n° {index} de la liste « rounds »"
    if not isinstance(raw, Mapping):
        raise MovementError(f"{where} : objet attendu")
    position, table = raw.get("position"), raw.get("table")
    for name, value in (("position", position), ("table", table)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise MovementError(f"{where} : « {name} » doit être un entier positif (reçu : {value!r})")
    where = f"{where} (position {position}, table {table})"
    seats = raw.get("seats")
    if not isinstance(seats, Mapping) or not seats:
        raise MovementError(f"{where} : « seats » doit associer des places à des participants")
    players = format_for(kind).ranks_players
    allowed = SEAT_KEYS[kind]
    pairs = []
    for seat, who in seats.items():
        key = "W" if (players and str(seat).upper() == "O") else str(seat)
        if players:
            key = key.upper()
        if key not in allowed:
            raise MovementError(f"{where} : place « {seat} » inconnue (attendu : {', '.join(allowed)})")
        if not isinstance(who, str) or not who.strip():
            raise MovementError(f"{where} : participant manquant à la place « {seat} »")
        pairs.append((key, who.strip()))
    pairs.sort(key=lambda kv: allowed.index(kv[0]))
    boards = raw.get("boards")
    if not isinstance(boards, list) or not boards or not all(
            isinstance(b, int) and not isinstance(b, bool) and b >= 1 for b in boards):
        raise MovementError(f"{where} : « boards » doit être une liste non vide de numéros d’étuis")
    room = raw.get("room")
    if room is not None and room not in ROOMS:
        raise MovementError(f"{where} : salle « {room} » inconnue (attendu : open ou closed)")
    chosen_by = raw.get("chosen_by")
    return Round(position, table, tuple(pairs), tuple(boards), room,
                 str(chosen_by) if chosen_by is not None else None)


def build_rounds(items: Iterable[Round]) -> tuple[Round, ...]:
    """Rounds sorted by (position, table), the canonical order."""
    return tuple(sorted(items, key=lambda r: (r.position, r.table)))
