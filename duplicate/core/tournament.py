"""The tournament interchange file and its ranking output (SPEC §9).

``{"format": "tarot-tournament/1", "name", "kind", "players", "teams",
"boards", "movement", "results", "penalties"}`` — every person is in
``players``; a team's ``members`` are player ids.  A file is read whole and
checked before anything is computed; the first fault found stops the reading
with a French message that names the faulty line of the file (line numbers
come from :func:`locate_entries`, run only when an error needs one: a valid
file is never scanned for lines).

Checks: malformed JSON; unknown kind; duplicate ids; a team member, taker or
defender that is not registered; an étui not in ``boards`` (when given); an
impossible score for the contract (SPEC §3, :func:`~.scoring.check_score`);
two scores for one étui at one table; an entrant playing an étui twice; a
result at a table that the ``movement`` (when given) does not send that étui
to. When the movement's rounds seat the players (issue 29): a result whose
players are not those the movement seats at that table, or whose taker is not
at the étui's taker seat (the individual; the attack quadrette in quadrettes);
a movement ``boards`` taker seat other than the file's ``boards``; an entrant
the movement seats at two tables in one position (`read_movement_seats`).  Team matches read ``contract`` per result; the other kinds impose the
Garde.  Extra fields are kept out of the way, as the SPEC allows.

Extensions (extra fields, our choice): a quadrettes result may name ``"attacker"``, the player of the
attacking quadrette who took (one of its ``members``; issue 15). A result may say ``"chelem": true``
(a chelem was announced or made: the score is checked against the chelem
outcomes too); a penalty may name a ``"board"`` (points off that étui's note
instead of the global %); a team may carry a PM ``"bonus"`` (team match).

The evening's changes (SPEC §11, rules in `core.evening`): a player (or a team) may say
``"out_of_ranking": true`` (a fill-in player or a substitute, ranked « hors classement ») and
``"withdrawn": {"position": k}`` (left during position ``k``: ranked last, booklet art. 27); the top-level
``"substitutions": [{"seat": "N3", "player": "X1", "from_position": 4, "results_to": "player" |
"substitute"}]`` names a substitute from a position on (``player`` is in ``players``, always « hors
classement »; ``"substitute"`` credits him the seat's results from that position on — individual only).
In the ranking output (individual and triplettes; the PM kinds do not read these marks) an
out-of-ranking row has ``"rank": null``, ``"alternated_rank": null``,
``"out_of_ranking": true``; a withdrawn row carries ``"withdrawn": {"position": k}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from json.decoder import scanstring
from functools import cached_property

from .filetext import FileTextError, one_line, parse_json
from .formats import KINDS, Format, format_for
from .ranking import Penalty, Standing, rank_standings, standings
from .scoring import Contract, ScoreError, check_score, reachable_scores
from .topage import ArbitralNote, Result, TableNote, topage

# typing is imported by none of ``rank``'s modules (issue 12: 2–3 ms a process); its names, used in
# annotations only (``from __future__ import annotations``), are imported for the type checkers alone
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

    # imported where used: the evening's changes and the PM (`ranking_output`), rare in a file
    from .evening import Substitution

__all__ = ["KINDS", "TournamentError", "ResultFault", "Entrant", "Tournament", "EntryLines", "credited_results", "load_tournament",
           "locate_entries", "out_of_ranking", "parse_tournament_text", "ranking_output", "read_tournament",
           "score_warnings"]

TOURNAMENT_FORMAT = "tarot-tournament/1"
_WS = " \t\n\r"


@dataclass(frozen=True)
class ResultFault:
    """Why a result is refused, as values: its rank among the results (``index``, 0-based), the fault in
    words without naming it (``text``), the result it clashes with (``clash``, 0-based, or None) — met
    before by the same entrant or étui where ``again``. The message of the file names both by their rank
    (« résultat n° 3 … (déjà au résultat n° 1) »); who checks one typed line names the clashing one
    otherwise (by its table), from these values."""

    index: int
    text: str
    clash: int | None = None
    again: bool = False


class TournamentError(ValueError):
    """A tournament file that cannot be used; ``line`` is the faulty line (1-based) when known, ``fault``
    the refused result's `ResultFault` when a result is refused."""

    def __init__(self, message: str, line: int | None = None, fault: ResultFault | None = None):
        self.line = line
        self.fault = fault
        message = one_line(message)  # a value quoted from the file may hold newlines or 5,000 characters
        super().__init__(f"ligne {line} : {message}" if line else message)


@dataclass(frozen=True)
class Entrant:
    """A player or a team, as ranked: id, display name, line (orientation)."""

    id: str
    name: str
    line: str
    members: tuple[str, ...] = ()
    bonus: Decimal = Decimal(0)
    out_of_ranking: bool = False
    withdrawn_from: int | None = None


@dataclass(frozen=True)
class Tournament:
    name: str
    kind: str
    players: Mapping[str, Entrant]
    teams: Mapping[str, Entrant]
    boards: Mapping[int, Mapping[str, Any]]
    results: tuple[Result, ...]
    penalties: tuple[Penalty, ...]
    movement: Mapping[str, Any] | None = None
    substitutions: tuple[Substitution, ...] = ()

    @property
    def format(self) -> Format:
        """The format of ``kind`` (`core.formats`)."""
        return format_for(self.kind)

    @property
    def entrants(self) -> Mapping[str, Entrant]:
        """Who is ranked: players in the individual, teams otherwise."""
        return self.players if self.format.ranks_players else self.teams


# --- line numbers -------------------------------------------------------------

def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WS:
        index += 1
    return index


def locate_entries(text: str) -> dict[str, list[int]]:
    """Line number (1-based) of each entry of the top-level arrays of a JSON object.

    ``{"results": [{...}, {...}]}`` → ``{"results": [2, 3], ...}``; keys whose
    value is not an array map to an empty list.  The text must be valid JSON.
    One pass: the newlines are counted between one entry and the next, never
    again from the start of the text.
    """
    decoder = json.JSONDecoder()
    found: dict[str, list[int]] = {}
    line, counted = 1, 0  # the line of text[counted]
    index = _skip(text, 0)
    if not text.startswith("{", index):
        return found
    index = _skip(text, index + 1)
    while index < len(text) and text[index] == '"':
        key, index = scanstring(text, index + 1)
        index = _skip(text, _skip(text, index) + 1)  # past the colon
        lines: list[int] = []
        if text.startswith("[", index):
            index = _skip(text, index + 1)
            while index < len(text) and text[index] != "]":
                line += text.count("\n", counted, index)
                counted = index
                lines.append(line)
                _, index = decoder.raw_decode(text, index)
                index = _skip(text, index)
                if text.startswith(",", index):
                    index = _skip(text, index + 1)
            index += 1
        else:
            _, index = decoder.raw_decode(text, index)
        found[key] = lines
        index = _skip(text, index)
        if text.startswith(",", index):
            index = _skip(text, index + 1)
    return found


class EntryLines(Mapping[str, list[int]]):
    """:func:`locate_entries` of a text, computed on first look only (when an error names a line)."""

    def __init__(self, text: str):
        self.text = text

    @cached_property
    def _found(self) -> dict[str, list[int]]:
        return locate_entries(self.text)

    def __getitem__(self, key: str) -> list[int]:
        return self._found[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._found)

    def __len__(self) -> int:
        return len(self._found)


# --- reading --------------------------------------------------------------------

def parse_tournament_text(text: str) -> dict:
    """The JSON object of a tournament file's text, read within the bounds of `core.filetext` (size,
    nesting, numbers, characters; a byte-order mark dropped), with its ``format`` and its players
    checked: raise TournamentError (French, with the line)."""
    try:
        data = parse_json(text)
    except FileTextError as error:
        raise TournamentError(error.reason, error.line) from None
    if not isinstance(data, dict):
        raise TournamentError("le fichier doit contenir un objet JSON « tarot-tournament/1 »", 1)
    text = text.removeprefix("\ufeff")
    if "format" in data and data["format"] != TOURNAMENT_FORMAT:
        raise TournamentError(f"format « {data['format']} » inconnu (attendu « {TOURNAMENT_FORMAT} »)",
                              key_line(text, "format"))
    if data.get("kind") in KINDS and not data.get("players"):
        raise TournamentError("tournoi vide : « players » ne nomme aucun joueur", key_line(text, "players"))
    return data


def load_tournament(text: str) -> Tournament:
    """Read a tournament file (its text), checking everything; raise TournamentError."""
    data = parse_tournament_text(text)
    return _Reader(data, EntryLines(text.removeprefix("\ufeff"))).tournament()


def key_line(text: str, key: str) -> int | None:
    """The line of the first ``"key":`` of the text (an error about a whole section names it)."""
    match = re.search(r'"%s"\s*:' % re.escape(key), text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def read_tournament(data: Mapping) -> Tournament:
    """Check and read a tournament already parsed (a dict), as `load_tournament` does a file's text;
    errors name results by their number (« résultat n° 3 »), there being no file lines."""
    return _Reader(data, {}).tournament()


#: Entrant ids (players, teams): short, ASCII, safe in a file name or a URL ("N1", "EW3", "joueur-12").
ENTRANT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
#: Our bounds: a penalty in percentage points cannot exceed the 100 % of a note; PM (quadrettes, team
#: match: penalties and bonuses) stay far under 10,000 in any real match.
MAX_PENALTY = 100
MAX_PM = 10_000
#: A team match result without ``table`` is at the table of its room (SPEC §9 names it by ``room``).
ROOM_TABLES = {"open": 1, "closed": 2}


def _whole(value) -> bool:
    """An integer of the file (``true`` is not one, though Python says so)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _finite_number(value) -> bool:
    return (_whole(value) or isinstance(value, float)) and value == value and abs(value) != float("inf")


def _line_fault(kind: str, section: str, line) -> str | None:
    """Why an explicit ``line`` of a ranked entrant cannot be, or None (the format's lines: individual
    N/S/E/W, triplettes NS/EW; quadrettes and team matches, whose roles split, do not read it)."""
    if line is None:
        return None
    if not isinstance(line, str) or not line:
        return "« line » doit être un texte"
    fmt = format_for(kind)
    expected = fmt.entrant_lines if section == fmt.entrants_key else None
    if expected and line not in expected:
        return f"ligne « {line} » inconnue ({', '.join(expected)})"
    return None


class _Reader:
    """Builds a Tournament from a parsed file, naming lines in its errors."""

    def __init__(self, data: Mapping, lines: Mapping[str, list[int]]):
        self.data = data
        self.lines = lines

    def fail(self, section: str, index: int, message: str, fault: ResultFault | None = None):
        entries = self.lines.get(section, [])
        raise TournamentError(message, entries[index] if index < len(entries) else None, fault)

    def whole(self, key: str, message: str):
        """Refuse the value of a top-level field: the line of its key when reading a file's text."""
        text = getattr(self.lines, "text", None)
        raise TournamentError(message, key_line(text, key) if text else None)

    def section(self, name: str) -> list:
        value = self.data.get(name, [])
        if not isinstance(value, list):
            self.whole(name, f"« {name} » doit être une liste")
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(name, index, f"{name} n° {index + 1} : un objet JSON est attendu")
        return value

    def tournament(self) -> Tournament:
        kind = self.data.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            self.whole("kind", f"type de tournoi inconnu « {kind} » (« kind » : {', '.join(KINDS)})")
        self.kind = kind
        self.format = fmt = format_for(kind)
        self.players = self.read_entrants("players", "joueur")
        self.teams = self.read_entrants("teams", "équipe")
        most = fmt.entrants_needed[1]
        if not fmt.ranks_players and most is not None and len(self.teams) > most:
            self.fail("teams", most, f"un {fmt.label.lower()} oppose {'deux' if most == 2 else most} équipes, "
                      f"pas {len(self.teams)}")
        self.boards = self.read_boards()
        self.movement_tables = self.read_movement()
        self.movement_seats = self.read_movement_seats()
        results = self.read_results()
        entrants = self.players if fmt.ranks_players else self.teams
        penalties = self.read_penalties(entrants)
        substitutions = self.read_substitutions(entrants)
        return Tournament(str(self.data.get("name", "")), kind, self.players, self.teams, self.boards,
                          tuple(results), tuple(penalties), self.data.get("movement"), tuple(substitutions))

    def read_entrants(self, section: str, noun: str) -> dict[str, Entrant]:
        entrants: dict[str, Entrant] = {}
        member_of: dict[str, str] = {}
        for index, item in enumerate(self.section(section)):
            ident = item.get("id")
            if not isinstance(ident, str) or not ident:
                self.fail(section, index, f"{noun} n° {index + 1} : identifiant « id » manquant")
            if not ENTRANT_ID.fullmatch(ident):
                self.fail(section, index, f"{noun} n° {index + 1} : identifiant « {ident} » invalide (au plus "
                          "32 lettres sans accent, chiffres, « - », « _ » ou « . »)")
            if ident in entrants:
                self.fail(section, index, f"{noun} « {ident} » déclaré deux fois")
            members = item.get("members", [])
            if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
                self.fail(section, index, f"{noun} « {ident} » : « members » doit être une liste d’identifiants")
            if section == "teams":
                unknown = [m for m in members if m not in self.players]
                if unknown:
                    self.fail(section, index, f"équipe « {ident} » : joueur inconnu « {unknown[0]} »")
                elsewhere = next((m for m in members if member_of.get(m, ident) != ident), None)
                if elsewhere is not None:
                    self.fail(section, index, f"équipe « {ident} » : « {elsewhere} » est déjà membre de "
                              f"l’équipe « {member_of[elsewhere]} »")
                member_of.update(dict.fromkeys(members, ident))
            bonus = item.get("bonus", 0)
            if not _finite_number(bonus) or abs(bonus) > MAX_PM:
                self.fail(section, index, f"{noun} « {ident} » : « bonus » doit être un nombre entre "
                          f"−{MAX_PM} et {MAX_PM}")
            bonus = Decimal(str(bonus))
            line = item.get("line")
            fault = _line_fault(self.kind, section, line)
            if fault:
                self.fail(section, index, f"{noun} « {ident} » : {fault}")
            line = line or ident.rstrip("0123456789")
            out_of_ranking = item.get("out_of_ranking", False)
            if not isinstance(out_of_ranking, bool):
                self.fail(section, index, f"{noun} « {ident} » : « out_of_ranking » vaut true ou false")
            withdrawn = item.get("withdrawn")
            position = withdrawn.get("position") if isinstance(withdrawn, dict) else None
            if withdrawn is not None and (not isinstance(position, int) or isinstance(position, bool)
                                          or position < 1):
                self.fail(section, index, f"{noun} « {ident} » : « withdrawn » attend {{\"position\": k}} "
                          "(k ≥ 1, la position où il a quitté le tournoi)")
            entrants[ident] = Entrant(ident, str(item.get("name", ident)), str(line), tuple(members), bonus,
                                      out_of_ranking, position)
        return entrants

    def read_substitutions(self, entrants: Mapping[str, Entrant]) -> list[Substitution]:
        substitutions: list[Substitution] = []
        items = self.section("substitutions")
        if items:
            from .evening import RESULTS_TO, Substitution
        for index, item in enumerate(items):
            def fail(message: str):
                self.fail("substitutions", index, f"remplacement n° {index + 1} : {message}")

            seat, player = item.get("seat"), item.get("player")
            position, results_to = item.get("from_position"), item.get("results_to", "player")
            if not isinstance(seat, str) or seat not in entrants:
                fail(f"place « {seat} » inconnue")
            if not isinstance(player, str) or player not in self.players or player == seat:
                fail(f"remplaçant « {player} » absent de « players »")
            if not isinstance(position, int) or isinstance(position, bool) or position < 1:
                fail("« from_position » doit être un numéro de position (1 ou plus)")
            if results_to not in RESULTS_TO:
                fail(f"« results_to » vaut « player » ou « substitute » (pas « {results_to} »)")
            if results_to == "substitute" and not self.format.ranks_players:
                fail("les résultats ne passent au remplaçant qu’en individuel")
            if any(s.player == player for s in substitutions):
                fail(f"« {player} » remplace déjà un autre joueur")
            substitutions.append(Substitution(seat, player, position, results_to))
        return substitutions

    def read_boards(self) -> dict[int, Mapping]:
        boards = {}
        for index, item in enumerate(self.section("boards")):
            number = item.get("number")
            if not _whole(number) or number < 1:
                self.fail("boards", index, f"étui n° {index + 1} : numéro « number » invalide")
            if number in boards:
                self.fail("boards", index, f"étui {number} déclaré deux fois")
            boards[number] = item
        return boards

    def read_movement(self) -> set[tuple[int, int]] | None:
        movement = self.data.get("movement")
        if movement is None:
            return None
        try:
            return {(int(board), int(round_["table"])) for round_ in movement["rounds"]
                    for board in round_["boards"]}
        except (KeyError, TypeError, ValueError):
            self.whole("movement", "mouvement « movement » mal formé : « rounds » avec table et boards attendus")

    def read_movement_seats(self) -> dict[tuple[int, int], list[tuple[int | None, dict]]] | None:
        """(étui, table) → [(position, seats)] of a ``movement`` whose rounds seat the players (SPEC §9), after
        two checks of the movement itself, each rule taken from the validator (`movements.validator`): its
        ``boards`` give each étui the taker seat of the file's ``boards`` (`taker_contradictions`), and no
        entrant sits at two tables in one position (`seated_twice`). None when no round has ``seats``."""
        movement = self.data.get("movement")
        rounds = movement.get("rounds") if isinstance(movement, Mapping) else None
        if not rounds or not any(isinstance(r, Mapping) and isinstance(r.get("seats"), Mapping) for r in rounds):
            return None
        from .movements.validator import seated_twice, taker_contradictions

        raw_boards = movement.get("boards")
        if isinstance(raw_boards, list):
            seats_of = [(b.get("number"), b.get("taker")) for b in raw_boards
                        if isinstance(b, Mapping) and isinstance(b.get("taker"), str)]
            file_seats = {number: item.get("taker") for number, item in self.boards.items() if "taker" in item}
            index = {number: i for i, number in enumerate(self.boards)}
            for number, seat, own in taker_contradictions(seats_of, file_seats):
                self.fail("boards", index[number], f"étui {number} : le mouvement le fait prendre en {seat}, "
                          f"« boards » en {own} : le preneur doit être le même")
            self.movement_takers = dict(seats_of)
        else:
            self.movement_takers = {}
        seated = [(r.get("position"), r["table"], r["seats"]) for r in rounds
                  if isinstance(r, Mapping) and isinstance(r.get("seats"), Mapping)]
        if not all(isinstance(seats, Mapping) and all(isinstance(w, str) for w in seats.values())
                   for _, _, seats in seated):
            self.whole("movement", "mouvement « movement » mal formé : « seats » associe des places à des "
                       "identifiants")
        split = self.format.split_roles
        for position, who, first, table in seated_twice(
                ((p, t, seats.items()) for p, t, seats in seated if p is not None), split):
            self.whole("movement", f"mouvement : en position {position}, « {who} » est placé à deux tables "
                       f"({first} et {table})")
        by_play: dict[tuple[int, int], list[tuple[int | None, dict]]] = {}
        for round_ in rounds:
            if isinstance(round_, Mapping) and isinstance(round_.get("seats"), Mapping):
                for board in round_["boards"]:
                    by_play.setdefault((int(board), int(round_["table"])), []).append(
                        (round_.get("position"), round_["seats"]))
        return by_play

    def check_movement_seats(self, results: list[Result]) -> None:
        """Each result's players are those the movement seats at its table for its étui, and its taker is the
        one at the étui's taker seat (`movements.validator.table_roles`: attack and defence otherwise
        swapped without a word). The étui's taker seat: the file's ``boards``, else the movement's."""
        from .movements.validator import table_roles

        kind, by_play = self.kind, self.movement_seats
        for index, result in enumerate(results):
            if index in self.room_only:
                continue
            rounds = by_play.get((result.board, result.table))
            if not rounds:
                continue
            position, seats = rounds[0]  # one round: a table that played an étui twice is refused before

            def where() -> str:  # built for a refusal only (thousands of results in a file)
                return "selon le mouvement" + (f" en position {position}" if position is not None else "")

            seated = seats.values()
            stranger = next((e for e in (result.taker, *result.defence) if e not in seated), None)
            if stranger is not None:
                self.refuse_result(index, result, f"{where()}, « {stranger} » n’est pas à la table {result.table} "
                                   f"({', '.join(f'{s} {w}' for s, w in seats.items())})")
            seat = self.boards.get(result.board, {}).get("taker") or self.movement_takers.get(result.board)
            roles = table_roles(kind, seats, seat)
            if roles is not None and roles[0] != result.taker:
                self.refuse_result(index, result, f"{where()}, l’étui {result.board} se prend en {seat} : le "
                                   f"preneur est « {roles[0]} », pas « {result.taker} » (qui est en défense)"
                                   if self.ranks_players else f"{where()}, l’attaque est « {roles[0]} », pas "
                                   f"« {result.taker} » (qui est en défense)")

    def read_results(self) -> list[Result]:
        """Every result, each checked alone (`read_result`) and against the others (`check_results`); the
        fault reported is the first in the file's order, as if each result were checked in full in turn."""
        results: list[Result] = []
        self.room_only: set[int] = set()  # team-match results that name their room, not their table
        fmt = self.format
        self.rooms, self.free_contracts, self.chosen_attacker = fmt.rooms, fmt.free_contracts, fmt.chosen_attacker
        self.ranks_players = fmt.ranks_players
        self.known, self.noun = (self.players, "joueur") if self.ranks_players else (self.teams, "équipe")
        self.garde_scores = (reachable_scores(Contract.GARDE, False), reachable_scores(Contract.GARDE, True))
        try:
            for index, item in enumerate(self.section("results")):
                results.append(self.read_result(index, item))
        except TournamentError:
            self.check_results(results)  # a clash between earlier results comes first
            raise
        self.check_results(results)
        if self.movement_seats is not None:
            self.check_movement_seats(results)
        self.played: dict[int, set[str]] = {}
        for result in results:
            self.played.setdefault(result.board, set()).update((result.taker, *result.defence))
        return results

    def check_results(self, results: list[Result]) -> None:
        """No étui scored twice at a table (a room, in a team match), no entrant playing an étui twice (a
        quadrette or a team: twice on one side), no étui at a table the movement does not send it to.

        Whole lists compared first (sets: a few ms for thousands of results); only when that finds a
        clash are the results gone through one by one, to name the first faulty one."""
        paired = self.format.split_roles
        by_room = self.format.rooms
        movement_tables = self.movement_tables
        tables = [(r.board, r.room if by_room else r.table) for r in results]
        if paired:
            plays = [(r.board, entrant, min(role, 1)) for r in results for role, entrant in enumerate(r.entrants)]
        else:
            plays = [(r.board, entrant) for r in results for entrant in (r.taker, *r.defence)]
        seats: dict[tuple, tuple[int, int]] = {}
        if (len(set(tables)) == len(tables) and len(set(plays)) == len(plays)
                and (movement_tables is None or {(r.board, r.table) for i, r in enumerate(results)
                                                 if i not in self.room_only} <= movement_tables)):
            if movement_tables is None:
                for index, result in enumerate(results):  # each at his line, each at one table a position
                    self.check_seats(index, result, seats)
                return
            if not self.ranks_players or _one_table_a_position(results):  # all `check_seats` looks at here
                return
        seen_tables: dict[tuple, int] = {}
        seen_entrants: dict[tuple, int] = {}
        for index, result in enumerate(results):
            board = result.board
            key = (board, result.room if by_room else result.table)
            if key in seen_tables:
                self.refuse_result(index, result, f"l’étui {board} a déjà un score à cette table",
                                   seen_tables[key])
            seen_tables[key] = index
            for role, entrant in enumerate(result.entrants):
                # a quadrette or a team plays each étui twice: once in attack, once in defence
                slot = (board, entrant, min(role, 1) if paired else 0)
                if slot in seen_entrants:
                    self.refuse_result(index, result, f"« {entrant} » joue l’étui {board} une deuxième fois",
                                       seen_entrants[slot], again=True)
                seen_entrants[slot] = index
            self.check_seats(index, result, seats)
            if movement_tables is not None and index not in self.room_only \
                    and (board, result.table) not in movement_tables:
                self.refuse_result(index, result, f"le mouvement n’envoie pas l’étui {board} à la table "
                                   f"{result.table}")

    @staticmethod
    def _where(index: int, result: Result) -> str:
        return f"résultat n° {index + 1} (étui {result.board}, table {result.table})"

    def check_seats(self, index: int, result: Result, seats: dict) -> None:
        """No player sits at two tables in one position (individual). Without a ``movement`` the lines
        are the only seating there is (SPEC §9 ids: N1 sits North), so each sits at his line: in the
        individual the four players come from the four lines and the taker from the étui's taker seat
        (``boards``); in triplettes an NS triplette plays an EW one. With a movement, the movement seats
        them (a relais seats a player off his line) and `read_results` checks the result against it."""
        def fail(message: str, clash: int | None = None):
            self.refuse_result(index, result, message, clash)

        by_lines = self.movement_tables is None
        lines = [self.entrants_line(e) for e in (result.taker, *result.defence)] if by_lines else ()
        own_lines = self.format.lines
        if self.format.ranks_players:
            if by_lines and all(line in own_lines for line in lines) and len(set(lines)) != len(own_lines):
                fail(f"deux joueurs de la même ligne à la table ({', '.join(lines)})")
            seat = self.boards.get(result.board, {}).get("taker")
            if by_lines and seat in own_lines and lines[0] in own_lines and lines[0] != seat:
                fail(f"le preneur « {result.taker} » est en ligne {lines[0]}, l’étui {result.board} se prend "
                     f"en {seat}")
            if result.position is not None:
                for entrant in (result.taker, *result.defence):
                    table, first = seats.setdefault((result.position, entrant), (result.table, index))
                    if table != result.table:
                        fail(f"« {entrant} » est aussi à la table {table} en position {result.position}", first)
        elif not self.format.split_roles and by_lines and all(line in own_lines for line in lines) \
                and lines[0] == lines[1]:
            fail(f"deux triplettes de la ligne {lines[0]} l’une contre l’autre")

    def entrants_line(self, ident: str) -> str:
        entrants = self.players if self.format.ranks_players else self.teams
        return entrants[ident].line

    def read_result(self, index: int, item: Mapping) -> Result:
        """One result, its checks in a fixed order (the first fault is the one reported); the messages
        are only built when a check fails, and what is the same for every result of the file is looked up
        once (`read_results`: a 150-table file has 4,200 results)."""
        get = item.get
        board, table = get("board"), get("table")
        rooms = self.rooms
        if rooms and table is None and isinstance(get("room"), str) \
                and item["room"] in ROOM_TABLES:
            table = ROOM_TABLES[item["room"]]  # a team match names its table by its room (SPEC §9)
            self.room_only.add(index)
        if not _whole(board) or not _whole(table) or board < 1 or table < 1:
            self.result_fault(index, "« board » et « table » (nombres entiers, 1 ou plus) sont obligatoires"
                              if not rooms else "« board » (nombre entier, 1 ou plus) et « room » (open ou closed)"
                              " ou « table » sont obligatoires")
        position, quarter = get("position"), get("quarter")
        if position is not None and (not _whole(position) or position < 1):
            self.result_fault(index, "« position » doit être un nombre entier (1 ou plus)")
        if quarter is not None and (not _whole(quarter) or quarter < 1 or quarter > 4):
            self.result_fault(index, "« quarter » doit être un nombre entier de 1 à 4")
        if self.boards and board not in self.boards:
            self.result_fault(index, f"étui {board} inconnu (absent de « boards »)")
        if self.ranks_players:
            taker, defence = get("taker"), get("defenders")
            if not isinstance(defence, list) or len(defence) != 3:
                self.result_fault(index, "il faut trois défenseurs dans « defenders »")
        else:
            taker, defence = get("taker_team"), [get("defence_team")]
        known = self.known
        for entrant in (taker, *defence):
            if not isinstance(entrant, str) or entrant not in known:
                self.result_fault(index, f"{self.noun} inconnu{'' if self.ranks_players else 'e'} « {entrant} »")
        if len({taker, *defence}) != len(defence) + 1:
            self.result_fault(index, f"le même {self.noun} figure deux fois à la table")
        attacker = get("attacker")
        if self.chosen_attacker and attacker is not None and attacker not in self.teams[taker].members:
            self.result_fault(index, f"l’attaquant « {attacker} » n’est pas de la quadrette « {taker} »")
        for flag in ("annulled", "adjusted", "chelem"):  # "annulled": "non" is not a true
            if type(get(flag, False)) is not bool:
                self.result_fault(index, f"« {flag} » vaut true ou false")
        annulled = bool(get("annulled", False))
        notes = None
        if get("notes") is not None:
            try:
                values = [item["notes"][side] for side in ("taker", "defence")]
                if not all(_finite_number(value) for value in values):
                    raise TypeError
                notes = ArbitralNote(*(Fraction(str(value)) for value in values))
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                self.result_fault(index, "note arbitrale « notes » illisible (taker et defence attendus)")
            if not all(0 <= value <= 100 for value in (notes.taker, notes.defence)):
                self.result_fault(index, "note arbitrale « notes » hors de 0 à 100")
        score = get("score")
        chelem = bool(get("chelem", False))
        if self.free_contracts:
            try:
                contract = Contract.parse(get("contract", "garde"))
            except ScoreError as error:
                self.result_fault(index, str(error))
            if contract is Contract.PRISE:
                self.result_fault(index, "en match par équipes, le contrat est Garde, Garde Sans ou Garde Contre")
            reachable = reachable_scores(contract, chelem)
        else:
            contract, reachable = Contract.GARDE, self.garde_scores[chelem]
        if score is None and not annulled and notes is None:
            self.result_fault(index, "score manquant")
        if score is not None:
            if not isinstance(score, int) or isinstance(score, bool):
                self.result_fault(index, f"score « {score} » : un nombre entier est attendu")
            if score not in reachable:  # what check_score accepts, its message if not
                self.result_fault(index, check_score(score, contract, chelem=chelem).message)
        room = get("room")
        if room is not None and room not in ("open", "closed"):
            self.result_fault(index, f"salle « {room} » inconnue (open ou closed)")
        if rooms and (room is None or not isinstance(quarter, int)):
            self.result_fault(index, "en match par équipes, « quarter » (1 à 4) et « room » (open ou closed) "
                              "sont obligatoires")
        return _result({
            "board": board, "table": table, "taker": taker, "defence": tuple(defence), "score": score,
            "position": position if isinstance(position, int) else None, "annulled": annulled,
            "adjusted": bool(get("adjusted", False)), "notes": notes, "chelem": chelem,
            "contract": contract.value if self.free_contracts else "garde",
            "quarter": quarter if isinstance(quarter, int) else None, "room": room,
        })

    def result_fault(self, index: int, message: str) -> NoReturn:
        """Refuse result ``index`` (0-based), naming it and its line."""
        self.refuse_result(index, None, message)

    def refuse_result(self, index: int, result: Result | None, text: str, clash: int | None = None,
                      again: bool = False) -> NoReturn:
        """Refuse result ``index`` (0-based) for ``text``: the message names it (with its étui and table when
        ``result`` is read), then the result it clashes with; the error carries the `ResultFault`."""
        named = self._where(index, result) if result is not None else f"résultat n° {index + 1}"
        clashing = "" if clash is None else f" ({'déjà au ' if again else ''}résultat n° {clash + 1})"
        self.fail("results", index, f"{named} : {text}{clashing}", ResultFault(index, one_line(text), clash, again))

    def read_penalties(self, entrants: Mapping[str, Entrant]) -> list[Penalty]:
        penalties = []
        for index, item in enumerate(self.section("penalties")):
            entrant = item.get("player", item.get("team"))
            if not isinstance(entrant, str) or entrant not in entrants:
                self.fail("penalties", index, f"pénalité n° {index + 1} : participant inconnu « {entrant} »")
            points = item.get("points")
            limit = MAX_PM if self.format.uses_pm else MAX_PENALTY
            if not _finite_number(points) or abs(points) > limit:
                self.fail("penalties", index, f"pénalité n° {index + 1} : « points » doit être un nombre entre "
                          f"−{limit} et {limit}")
            points = Fraction(str(points))
            board = item.get("board")
            if board is not None:
                if not _whole(board) or entrant not in self.played.get(board, ()):
                    self.fail("penalties", index, f"pénalité n° {index + 1} : « {entrant} » n’a pas joué l’étui "
                              f"« {board} »" + ("" if _whole(board) and board in self.boards
                                              or not self.boards else " (absent de « boards »)"))
            penalties.append(Penalty(entrant, points, str(item.get("reason", "")), board))
        return penalties


def _one_table_a_position(results: list[Result]) -> bool:
    """Whether no player sits at two tables in one position (what `_Reader.check_seats` checks result by
    result when the movement seats the players): counted at once, over the (position, table, player) of
    the results — a player is at a single table in a position when his (position, player) pair comes once."""
    seated = {(r.position, r.table, entrant) for r in results if r.position is not None
              for entrant in (r.taker, *r.defence)}
    return len(seated) == len({(position, entrant) for position, _, entrant in seated})


def _result(fields: dict[str, Any]) -> Result:
    """``Result(**fields)`` with every field given, for the reader of thousands of lines: the dict becomes
    the result's own instead of one frozen ``__setattr__`` at a time (0.3 µs a result instead of 3); equal
    and hashed like the dataclass's own."""
    result = object.__new__(Result)
    object.__setattr__(result, "__dict__", fields)
    return result


# --- ranking output ----------------------------------------------------------------

def _number(value) -> float | None:
    if type(value) is Fraction:  # what float() does, without its generic path
        return value.numerator / value.denominator
    return None if value is None else float(value)


def _board_rows(notes: Mapping[int, list[TableNote]], pm_by_play: Mapping[tuple, Decimal] | None = None):
    boards = []
    for number, rows in notes.items():
        lines = []
        for note in rows:
            result = note.result
            line: dict[str, Any] = {"table": result.table, "score": result.score}
            if result.position is not None:
                line["position"] = result.position
            if pm_by_play is None:
                taker_note, defence_note = note.taker_note, note.defence_note
                if taker_note is not None and type(taker_note) is type(defence_note) is Fraction:
                    line["taker_note"] = taker_note.numerator / taker_note.denominator  # = float(), faster
                    line["defence_note"] = defence_note.numerator / defence_note.denominator
                else:
                    line["taker_note"] = _number(taker_note)
                    line["defence_note"] = _number(defence_note)
            else:
                line["taker_team"], line["defence_team"] = result.taker, result.defence[0]
                line["pm"] = _number(pm_by_play.get((result.board, result.taker)))
            if result.annulled:
                line["annulled"] = True
            if result.adjusted:
                line["adjusted"] = True
            if result.notes is not None:
                line["arbitral_note"] = True
            if result.quarter is not None:
                line["quarter"], line["room"], line["contract"] = result.quarter, result.room, result.contract
            lines.append(line)
        boards.append({"number": number, "results": lines})
    return boards


def _standing_row(row: Standing, entrant: Entrant) -> dict:
    return {
        "id": row.entrant, "name": entrant.name, "line": row.line,
        "attack": _number(row.attack), "defence": _number(row.defence), "global": float(row.global_),
        "penalty": float(row.penalty), "rank": row.rank, "alternated_rank": row.alternated_rank,
        "attack_boards": row.attack_count, "defence_boards": row.defence_count, "flagged": row.flagged,
    }


def _evening_marks(output: dict, entrant: Entrant, unranked: bool) -> dict:
    """Add ``out_of_ranking`` / ``withdrawn`` to a ranking row when they apply (SPEC §11)."""
    if unranked:
        output["out_of_ranking"] = True
    if entrant.withdrawn_from is not None:
        output["withdrawn"] = {"position": entrant.withdrawn_from}
    return output


def _movement_positions(movement: Mapping[str, Any] | None) -> dict[tuple[int, int], int]:
    """(étui, table) → position, from the movement's rounds (an unreadable movement gives none)."""
    positions: dict[tuple[int, int], int] = {}
    for round_ in (movement or {}).get("rounds", []):
        if isinstance(round_, dict) and isinstance(round_.get("position"), int):
            for board in round_.get("boards", []):
                positions[(int(board), int(round_["table"]))] = round_["position"]
    return positions


def score_warnings(tournament: Tournament) -> list[str]:
    """A French warning for each score possible in theory only (SPEC §3: an extreme card distribution,
    `check_score`), naming its result: the arbiter checks them; the ranking is computed all the same.
    `check_score` words the warning; `reachable_scores` (cached) finds the few scores that need one."""
    warnings = []
    contracts = {contract.value: contract for contract in Contract}
    for index, result in enumerate(tournament.results):
        contract = contracts[result.contract or "garde"]  # a result built without one is a Garde
        if reachable_scores(contract, result.chelem).get(result.score):  # True: possible in theory only
            warning = check_score(result.score, contract, chelem=result.chelem).warning
            warnings.append(f"résultat n° {index + 1} (étui {result.board}, table {result.table}) : {warning}")
    return warnings


def credited_results(tournament: Tournament) -> tuple[Result, ...]:
    """The results with each seat's results credited to its substitute where the arbiter said so
    (`core.evening.credit_results`): what the ranking is computed from."""
    if not any(s.results_to == "substitute" for s in tournament.substitutions):
        return tournament.results  # nobody's results move: no need for the movement's positions
    from .evening import credit_results

    return credit_results(tournament.results, tournament.substitutions, _movement_positions(tournament.movement))


def out_of_ranking(tournament: Tournament) -> set[str]:
    """Entrants that get no place: flagged « hors classement » or named as a substitute."""
    flagged = {ident for ident, entrant in tournament.entrants.items() if entrant.out_of_ranking}
    return flagged | {s.player for s in tournament.substitutions}


def ranking_output(tournament: Tournament) -> dict:
    """The SPEC §9 ranking output, recomputed from the tournament's raw results."""
    notes = topage(credited_results(tournament))
    entrants = tournament.entrants
    unranked = out_of_ranking(tournament)
    fmt = tournament.format
    if not fmt.uses_pm:
        all_notes = [note for rows in notes.values() for note in rows]
        lines = {ident: entrant.line for ident, entrant in entrants.items()}
        withdrawn = {ident for ident, entrant in entrants.items() if entrant.withdrawn_from is not None}
        ranked = rank_standings(standings(tournament.kind, lines, all_notes, tournament.penalties),
                                withdrawn, unranked)
        return {"kind": tournament.kind, "boards": _board_rows(notes),
                "ranking": [_evening_marks(_standing_row(row, entrants[row.entrant]), entrants[row.entrant],
                                           row.entrant in unranked) for row in ranked]}
    from .pm import compare_pairs, pm_ranking, quadrette_totals, team_match_totals

    pm_by_play: dict[tuple[int, str], Decimal] = {}
    for comparison in compare_pairs(tournament.results)[0]:
        pm_by_play[(comparison.board, comparison.first.taker)] = comparison.pm
        pm_by_play[(comparison.board, comparison.second.taker)] = -comparison.pm
    penalty = {}
    for item in tournament.penalties:
        points = Decimal(item.points.numerator) / Decimal(item.points.denominator)
        penalty[item.entrant] = penalty.get(item.entrant, Decimal(0)) + points
    output: dict[str, Any] = {"kind": tournament.kind, "boards": _board_rows(notes, pm_by_play)}
    if not fmt.pm_to_winner:
        totals = quadrette_totals(tournament.results, entrants)
    else:
        scoreboard = team_match_totals(tournament.results, {i: e.bonus for i, e in entrants.items()}, entrants)
        totals = {team: row["total"] for team, row in scoreboard.items()}
        output["quarters"] = [
            {"team": team, "quarters": {str(q): float(v) for q, v in sorted(row["quarters"].items())},
             "bonus": float(row["bonus"]), "total": float(row["total"])}
            for team, row in scoreboard.items()
        ]
    totals = {team: value - penalty.get(team, Decimal(0)) for team, value in totals.items()}
    output["ranking"] = [
        {"id": team, "name": entrants[team].name if team in entrants else team, "pm": float(value), "rank": rank}
        for team, value, rank in pm_ranking(totals)
    ]
    return output
