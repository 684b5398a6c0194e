"""The movement as the requests read it: decoded once per process, served while its stored text is the same.

Every saved line looks up the movement (which étuis a table plays, who sits where): decoding the whole
``tarot-movement/1`` text for that — 1,050 rounds at 150 tables — cost more than the rest of the request.
`movement_rounds` reads the stored text only (one row, no JSON decoding: comparing it with the text the
cached value was decoded from costs a ``memcmp``) and serves the decoded rounds, indexed by étui and by
table, from a per-process cache; any change of the movement, by this process or another, gives another
text and so another decoding. The value is shared between threads and requests: callers never change it.
The hall's screens (`_live._Layout`) read their movement through it too.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

from sqlalchemy import String, cast, event
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, select

from duplicate.models import Movement, Tournament

from ._changes import has_written


@dataclass(frozen=True)
class MovementRounds:
    """A movement's decoded ``data``, its rounds by étui number and by table, its own taker seats by étui
    (``boards[].taker``: `_deals.board_takers` lays the étuis' over them) — read-only."""

    data: Mapping[str, Any]
    rounds: tuple[Mapping, ...]
    by_board: Mapping[int, tuple[Mapping, ...]]
    by_table: Mapping[Any, tuple[Mapping, ...]]
    takers: Mapping[int, str]

    @cached_property
    def tables(self) -> tuple[int, ...]:
        """The movement's table numbers, in order (a round's ``table`` that is no number is none)."""
        return tuple(sorted(table for table in self.by_table
                            if isinstance(table, int) and not isinstance(table, bool)))

    @classmethod
    def decode(cls, text: str) -> "MovementRounds":
        data = json.loads(text)
        rounds = data.get("rounds", []) if isinstance(data, dict) else []
        rounds = tuple(r for r in rounds if isinstance(r, dict)) if isinstance(rounds, list) else ()
        by_board: dict[Any, list] = {}
        by_table: dict[Any, list] = {}
        for round_ in rounds:
            by_table.setdefault(round_.get("table"), []).append(round_)
            boards = round_.get("boards", ())
            for board in boards if isinstance(boards, list) else ():
                if isinstance(board, int):
                    by_board.setdefault(board, []).append(round_)
        data = data if isinstance(data, dict) else {}
        takers = {item["number"]: item["taker"] for item in data.get("boards", []) or []
                  if isinstance(item, dict) and isinstance(item.get("number"), int) and item.get("taker")}
        return cls(data, rounds, MappingProxyType({k: tuple(v) for k, v in by_board.items()}),
                   MappingProxyType({k: tuple(v) for k, v in by_table.items()}), MappingProxyType(takers))


class _Kept:
    """A small mapping kept per process and shared by its threads: beyond ``size`` entries the oldest kept
    is dropped."""

    def __init__(self, size: int):
        self.size = size
        self.lock = threading.Lock()
        self.entries: dict = {}

    def get(self, key):
        with self.lock:
            return self.entries.get(key)

    def keep(self, key, value) -> None:
        with self.lock:
            self.entries.pop(key, None)
            self.entries[key] = value
            while len(self.entries) > self.size:
                self.entries.pop(next(iter(self.entries)))


class _Decoded:
    """Tournament id → (stored text, decoded rounds); per process, at most 16 tournaments."""

    def __init__(self):
        self.kept = _Kept(16)

    def get(self, tournament_id: int, text: str) -> MovementRounds:
        entry = self.kept.get(tournament_id)
        if entry is not None and entry[0] == text:
            return entry[1]
        value = MovementRounds.decode(text)
        self.kept.keep(tournament_id, (text, value))
        return value


_DECODED = _Decoded()


_READ = "duplicate.movement_texts"  # session.info: tournament id → movement text read in this transaction


class _Texts:
    """(database, tournament id) → (movement version, movement text); per process, at most 64 entries. The
    tournament's row, which the request has read anyway (the link, the page), carries its
    ``movement_version`` (`_changes`: every commit writing the movement raises it, and only those — a line
    written leaves it alone), so a refresh or a write finds the movement's text without reading it again
    while that version stands, even in a burst of writes (issue 30)."""

    def __init__(self):
        self.kept = _Kept(64)

    def get(self, key: tuple, version: tuple) -> tuple[bool, str | None]:
        entry = self.kept.get(key)
        return (True, entry[1]) if entry is not None and entry[0] == version else (False, None)

    def keep(self, key: tuple, version: tuple, text: str | None) -> None:
        self.kept.keep(key, (version, text))


_TEXTS = _Texts()


def _version(session: Session, tournament: Tournament) -> tuple[tuple, tuple] | None:
    """``(key, version)`` of the tournament's row as this session loaded it — the database, the id; its
    creation time, ``data_epoch`` (rewritten by a restore: the restored movement is read again) and
    ``movement_version`` — or None when the row's values are not loaded (expired)."""
    values = tournament.__dict__
    if tournament.id is None or any(name not in values for name in ("movement_version", "data_epoch", "created_at")):
        return None
    return ((str(session.get_bind().url), tournament.id),
            (values["created_at"], values["data_epoch"], values["movement_version"]))


def movement_text(session: Session, tournament: Tournament) -> str | None:
    """The movement's stored JSON text (None without a movement): what the caches are keyed on. Read once
    per transaction while the transaction has written nothing (`_changes`: a written movement, or anything
    else, is read again); the request's operations each look the movement up. Not read at all when this
    process read it at the movement version the tournament's row holds (`_Texts`): the version is read before
    the text, so the text kept for a version is that version's or a newer one."""
    read = session.info.get(_READ)
    clean = not has_written(session) and not any(isinstance(obj, Movement) for obj in (*session.new, *session.dirty))
    if read is not None and tournament.id in read and clean:
        return read[tournament.id]
    version = _version(session, tournament) if clean else None
    if version is not None:
        found, text = _TEXTS.get(*version)
        if found:
            session.info.setdefault(_READ, {})[tournament.id] = text
            return text
    text = session.execute(select(cast(Movement.data, String))
                           .where(Movement.tournament_id == tournament.id)).scalar()
    if not has_written(session):
        session.info.setdefault(_READ, {})[tournament.id] = text
        if version is not None:
            _TEXTS.keep(version[0], version[1], text)
    return text


@event.listens_for(OrmSession, "after_commit")
@event.listens_for(OrmSession, "after_rollback")
def _forget(session: Session) -> None:
    """A new transaction may see another movement (a savepoint's end: the same transaction)."""
    if not session.in_nested_transaction():
        session.info.pop(_READ, None)


def movement_rounds(session: Session, tournament: Tournament, text: str | None = None) -> MovementRounds | None:
    """The tournament's movement decoded (None without one), from the cache while its text is unchanged
    (``text``: the stored text, when the caller has read it)."""
    text = text if text is not None else movement_text(session, tournament)
    if text is None or text == "null":
        return None
    return _DECODED.get(tournament.id, text)
