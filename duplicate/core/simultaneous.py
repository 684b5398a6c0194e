"""A simultaneous tournament (« simultané », issue 33): the same étuis played in several clubs on one evening,
and one topage over the whole field.

The FFT rules let étuis be « dupliqués pour d'autres tournois » (seed ``duplicate-tournaments.txt``); bridge
and duplicate scrabble have long run simultaneous events on this scheme, which this module follows:

* **The étuis** are dealt once by the organiser from a seed whose SHA-256 is published beforehand
  (`deals.seed_hash`; the deals file carries it as ``seed_sha256``). Every club's file names that hash: a
  club that played other deals is refused, not mixed in.
* **A club's file** is its evening as the SPEC §9 tournament file, in an envelope that names the simultané,
  the club and the deals' hash, signed with the club's key (HMAC-SHA256 over the envelope's canonical JSON
  without its ``signature``, `sign`). `read_club_file` checks it and refuses it, with a French reason,
  when it contradicts the event: another simultané, an unknown club, a wrong signature, other deals, another
  kind, an étui the simultané does not have or with another taker, a line (étui, table) twice, and whatever
  the core refuses in any tournament file (an impossible score, a board played twice by a player…).
* **The national topage** (`national_ranking`): each étui is topé over every table of every club that
  played it (SPEC §4 on the whole field), then percentages and the general and alternated rankings
  (SPEC §5), exactly as the core computes one tournament: the clubs'
  files are merged into one tournament file (`national_file`) — each entrant named ``<club>.<id>``, each
  table numbered in the field (clubs in code order, then their tables) — and ranked by
  `tournament.ranking_output`. Each club's own ranking is that of its file alone (`club_ranking`): it stays
  as its evening gave it while the national one moves with every upload.

A club's penalties, substitutions and withdrawals travel with its file and count nationally as they did at
home. Simultanés are individual or triplettes: the points de match of quadrettes and team matches compare
the two tables of one match (SPEC §6), not the field, so « topé over every club » has no meaning there until
the federation gives a national PM rule.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .formats import format_for
from .tournament import TournamentError, ranking_output, read_tournament

SIMULTANEOUS_FORMAT = "tarot-simultane/1"
SIMULTANEOUS_KINDS = ("individual", "triplettes")
CLUB_CODE = re.compile(r"[A-Z0-9]{1,8}")
SIMULTANEOUS_CODE = re.compile(r"[A-Z0-9][A-Z0-9-]{0,19}")  # in URLs: /api/simultanes/<code>/…
SEPARATOR = "."


class SimultaneousError(ValueError):
    """A club's file refused, or an event that cannot be ranked: the message is French."""


@dataclass(frozen=True)
class Event:
    """What the organiser fixed before the evening: the simultané's ``code``, its ``kind``, its étuis
    (``boards``: number → taker seat, from the deals file) and the SHA-256 of the deals' seed."""

    code: str
    kind: str
    boards: Mapping[int, str]
    seed_sha256: str


@dataclass(frozen=True)
class ClubFile:
    """A club's accepted file: its ``club`` code and its SPEC §9 tournament (``tournament``)."""

    club: str
    tournament: Mapping[str, Any]


def canonical(data: Mapping[str, Any]) -> bytes:
    """The bytes a signature covers: the JSON text with sorted keys, no spaces, UTF-8 (RFC 8785's spirit
    for the values these files hold: texts, whole numbers, lists, objects)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sign(envelope: Mapping[str, Any], key: str) -> str:
    """HMAC-SHA256 (hex) of the envelope without its ``signature``, under the club's key."""
    unsigned = {name: value for name, value in envelope.items() if name != "signature"}
    return hmac.new(key.encode("utf-8"), canonical(unsigned), hashlib.sha256).hexdigest()


def club_envelope(event_code: str, club: str, seed_sha256: str, tournament: Mapping[str, Any], key: str) -> dict:
    """A club's file for the simultané, signed: what its app pushes or its arbiter uploads."""
    envelope = {"format": SIMULTANEOUS_FORMAT, "simultane": event_code, "club": club, "seed_sha256": seed_sha256,
                "tournament": dict(tournament)}
    envelope["signature"] = sign(envelope, key)
    return envelope


def read_club_file(envelope: Any, event: Event, keys: Mapping[str, str]) -> ClubFile:
    """The club's file checked against the event and the clubs' keys (``keys``: club code → key);
    `SimultaneousError` with the first reason found otherwise. The checks that need no key come first
    only where they reveal nothing: the signature is checked before anything in the tournament is read."""
    if not isinstance(envelope, Mapping) or envelope.get("format") != SIMULTANEOUS_FORMAT:
        raise SimultaneousError(f"Ce n’est pas un fichier de simultané (« format » : « {SIMULTANEOUS_FORMAT} » "
                                "attendu).")
    if envelope.get("simultane") != event.code:
        raise SimultaneousError(f"Ce fichier est celui d’un autre simultané (« {_text(envelope.get('simultane'))} »,"
                                f" attendu « {event.code} »).")
    club = envelope.get("club")
    if not isinstance(club, str) or club not in keys:
        raise SimultaneousError(f"Club « {_text(club)} » inconnu de ce simultané : l’organisateur donne à chaque "
                                "club son code et sa clé.")
    signature = envelope.get("signature")
    if not isinstance(signature, str) or not hmac.compare_digest(signature.encode("utf-8"),
                                                                 sign(envelope, keys[club]).encode("utf-8")):
        raise SimultaneousError(f"Signature refusée pour le club {club} : le fichier a été modifié après sa "
                                "signature, ou signé avec une autre clé.")
    if envelope.get("seed_sha256") != event.seed_sha256:
        raise SimultaneousError(f"Le club {club} a joué d’autres donnes (empreinte « "
                                f"{_text(envelope.get('seed_sha256'))[:16]}… », attendu « "
                                f"{event.seed_sha256[:16]}… ») : ses résultats ne peuvent pas être topés avec "
                                "ceux du simultané.")
    tournament = envelope.get("tournament")
    if not isinstance(tournament, Mapping):
        raise SimultaneousError(f"Fichier du club {club} : le tournoi (« tournament ») manque.")
    if tournament.get("kind") != event.kind:
        raise SimultaneousError(f"Fichier du club {club} : un tournoi « {_text(tournament.get('kind'))} », le "
                                f"simultané est en « {event.kind} ».")
    _check_boards(club, tournament, event)
    try:
        read_tournament(tournament)
        # and as the field names it (``<club>.<id>``: an id may grow past what the core accepts), so that an
        # accepted file never makes the national ranking impossible
        read_tournament(national_file(event, [ClubFile(club, tournament)])[0])
    except TournamentError as error:
        raise SimultaneousError(f"Fichier du club {club} : {error}") from None
    return ClubFile(club, tournament)


def _check_boards(club: str, tournament: Mapping[str, Any], event: Event) -> None:
    """Every étui the file names is one of the simultané's, with its taker; no (étui, table) twice."""
    boards = tournament.get("boards", [])
    for board in boards if isinstance(boards, list) else []:
        number = board.get("number") if isinstance(board, Mapping) else None
        if number not in event.boards:
            raise SimultaneousError(f"Fichier du club {club} : étui « {_text(number)} » inconnu du simultané "
                                    f"(étuis 1 à {max(event.boards)}).")
        if board.get("taker", event.boards[number]) != event.boards[number]:
            raise SimultaneousError(f"Fichier du club {club} : l’étui {number} a pour preneur « "
                                    f"{_text(board.get('taker'))} », le simultané « {event.boards[number]} ».")
    seen = set()
    results = tournament.get("results", [])
    for index, result in enumerate(results if isinstance(results, list) else [], start=1):
        if not isinstance(result, Mapping):
            continue  # the core names it
        board, table = result.get("board"), result.get("table")
        if board not in event.boards:
            raise SimultaneousError(f"Fichier du club {club}, résultat n° {index} : étui « {_text(board)} » "
                                    "inconnu du simultané.")
        key = (board, table, result.get("room"))
        if key in seen:
            raise SimultaneousError(f"Fichier du club {club}, résultat n° {index} : l’étui {board} à la table "
                                    f"{_text(table)} figure deux fois.")
        seen.add(key)


def _text(value: Any) -> str:
    """A value of a refused file, shown in a message: short, on one line."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return re.sub(r"\s+", " ", text)[:40]


def national_file(event: Event, clubs: Sequence[ClubFile]) -> tuple[dict, dict[int, tuple[str, int]]]:
    """One SPEC §9 tournament file of the whole field, and each of its tables' (club, table at the club).
    Entrants are ``<club>.<id>``; the clubs' movements are left out (each was checked with its file), their
    positions kept."""
    if event.kind not in SIMULTANEOUS_KINDS:
        raise SimultaneousError(f"Pas de simultané en « {format_for(event.kind).label} » : les points de match "
                                "se comptent entre les deux tables d’un match, pas sur tout le champ.")

    def named(club: str, ident: Any) -> Any:
        return f"{club}{SEPARATOR}{ident}" if isinstance(ident, str) else ident

    players, teams, results, penalties, substitutions = [], [], [], [], []
    tables: dict[int, tuple[str, int]] = {}
    for file in sorted(clubs, key=lambda file: file.club):
        club, data = file.club, file.tournament
        players += [{**item, "id": named(club, item["id"])} for item in data.get("players", [])]
        teams += [{**item, "id": named(club, item["id"]), "members": [named(club, m) for m in item.get("members", [])]}
                  for item in data.get("teams", [])]
        numbers = {}
        for table in sorted({result["table"] for result in data.get("results", [])}):
            numbers[table] = len(tables) + 1
            tables[numbers[table]] = (club, table)
        for result in data.get("results", []):
            moved = {**result, "table": numbers[result["table"]]}
            for field in ("taker", "taker_team", "defence_team", "attacker"):
                if field in moved:
                    moved[field] = named(club, moved[field])
            if "defenders" in moved:
                moved["defenders"] = [named(club, ident) for ident in moved["defenders"]]
            results.append(moved)
        penalties += [{**item, **{field: named(club, item[field]) for field in ("player", "team") if field in item}}
                      for item in data.get("penalties", [])]
        substitutions += [{**item, "seat": named(club, item["seat"]), "player": named(club, item["player"])}
                          for item in data.get("substitutions", [])]
    boards = [{"number": number, "taker": taker} for number, taker in sorted(event.boards.items())]
    merged = {"name": event.code, "kind": event.kind, "players": players, "teams": teams, "boards": boards,
              "results": results, "penalties": penalties, "substitutions": substitutions}
    return merged, tables


def national_ranking(event: Event, clubs: Sequence[ClubFile]) -> dict:
    """The national topage and rankings: the SPEC §9 ranking output of the whole field (`national_file`),
    each row naming its ``club`` and its ``local_id``, each étui's results their ``club`` and ``club_table``;
    and ``clubs``: per club, its entrants' rows in national order with ``club_rank`` (their places among the
    club's own on the national topage, ties shared)."""
    merged, tables = national_file(event, clubs)
    return rank_national_file(merged, tables, sorted(file.club for file in clubs))


def rank_national_file(merged: Mapping[str, Any], tables: Mapping[int, tuple[str, int]],
                       clubs: Sequence[str]) -> dict:
    """`national_ranking` of the file and tables `national_file` gave for ``clubs`` (their codes, in order):
    for a caller that keeps the file too (the frequencies are read from it and the ranking)."""
    try:
        output = ranking_output(read_tournament(merged))
    except TournamentError as error:  # each file was read as the field names it: a last guard
        raise SimultaneousError(f"Classement national impossible : {error}") from None
    for board in output["boards"]:
        for result in board["results"]:
            result["club"], result["club_table"] = tables[result["table"]]
    by_club: dict[str, list[dict]] = {club: [] for club in clubs}
    for row in output["ranking"]:
        row["club"], _, row["local_id"] = row["id"].partition(SEPARATOR)
        by_club[row["club"]].append(row)
    output["clubs"] = {club: _club_places(rows) for club, rows in by_club.items()}
    return output


def _club_places(rows: list[dict]) -> list[dict]:
    """The club's rows in national order, ``club_rank`` the place among them (a national tie stays a tie)."""
    places, previous = [], None
    for index, row in enumerate(rows, start=1):
        rank = places[-1]["club_rank"] if previous is not None and row["rank"] == previous else index
        places.append({"id": row["local_id"], "national_rank": row["rank"], "club_rank": rank})
        previous = row["rank"]
    return places


def club_ranking(club: ClubFile) -> dict:
    """The club's own ranking: its evening's file alone, whatever the other clubs send."""
    return ranking_output(read_tournament(club.tournament))
