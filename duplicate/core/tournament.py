"""The tournament interchange file and its ranking output (SPEC §9).

``{"format": "tarot-tournament/1", "name", "kind", "players", "teams",
"boards", "movement", "results", "penalties"}`` — every person is in
``players``; a team's ``members`` are player ids.  A file is read whole and
checked before anything is computed; the first fault found stops the reading
with a French message that names the faulty line of the file (line numbers
come from :func:`locate_entries`).

Checks: malformed JSON; unknown kind; duplicate ids; a team member, taker or
defender that is not registered; an étui not in ``boards`` (when given); an
impossible score for the contract (SPEC §3, :func:`~.scoring.check_score`);
two scores for one étui at one table; an entrant playing an étui twice; a
result at a table that the ``movement`` (when given) does not send that étui
to.  Team matches read ``contract`` per result; the other kinds impose the
Garde.  Extra fields are kept out of the way, as the SPEC allows.

Extensions (extra fields, our choice): a result may say ``"chelem": true``
(a chelem was announced or made: the score is checked against the chelem
outcomes too); a penalty may name a ``"board"`` (points off that étui's note
instead of the global %); a team may carry a PM ``"bonus"`` (team match).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from json.decoder import scanstring
from typing import Any, Mapping

from .pm import compare_pairs, pm_ranking, quadrette_totals, team_match_totals
from .ranking import Penalty, Standing, rank_standings, standings
from .scoring import Contract, ScoreError, check_score
from .topage import ArbitralNote, Result, TableNote, topage

__all__ = ["KINDS", "TournamentError", "Entrant", "Tournament", "load_tournament", "locate_entries",
           "ranking_output", "read_tournament"]

TOURNAMENT_FORMAT = "tarot-tournament/1"
KINDS = ("individual", "triplettes", "quadrettes", "team_match")
#: French names of the kinds, as screens and printouts show them.
KIND_LABELS = {"individual": "Individuel", "triplettes": "Triplettes", "quadrettes": "Quadrettes",
               "team_match": "Match par équipes"}
_WS = " \t\n\r"


class TournamentError(ValueError):
    """A tournament file that cannot be used; ``line`` is the faulty line (1-based) when known."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"ligne {line} : {message}" if line else message)


@dataclass(frozen=True)
class Entrant:
    """A player or a team, as ranked: id, display name, line (orientation)."""

    id: str
    name: str
    line: str
    members: tuple[str, ...] = ()
    bonus: Decimal = Decimal(0)


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

    @property
    def entrants(self) -> Mapping[str, Entrant]:
        """Who is ranked: players in the individual, teams otherwise."""
        return self.players if self.kind == "individual" else self.teams


# --- line numbers -------------------------------------------------------------

def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WS:
        index += 1
    return index


def locate_entries(text: str) -> dict[str, list[int]]:
    """Line number (1-based) of each entry of the top-level arrays of a JSON object.

    ``{"results": [{...}, {...}]}`` → ``{"results": [2, 3], ...}``; keys whose
    value is not an array map to an empty list.  The text must be valid JSON.
    """
    decoder = json.JSONDecoder()
    found: dict[str, list[int]] = {}
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
                lines.append(text.count("\n", 0, index) + 1)
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


# --- reading --------------------------------------------------------------------

def load_tournament(text: str) -> Tournament:
    """Read a tournament file (its text), checking everything; raise TournamentError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TournamentError(f"JSON mal formé ({error.msg}, colonne {error.colno})", error.lineno) from None
    if not isinstance(data, dict):
        raise TournamentError("le fichier doit contenir un objet JSON « tarot-tournament/1 »", 1)
    return _Reader(data, locate_entries(text)).tournament()


def read_tournament(data: Mapping) -> Tournament:
    """Check and read a tournament already parsed (a dict), as `load_tournament` does a file's text;
    errors name results by their number (« résultat n° 3 »), there being no file lines."""
    return _Reader(data, {}).tournament()


class _Reader:
    """Builds a Tournament from a parsed file, naming lines in its errors."""

    def __init__(self, data: Mapping, lines: Mapping[str, list[int]]):
        self.data = data
        self.lines = lines

    def fail(self, section: str, index: int, message: str):
        entries = self.lines.get(section, [])
        raise TournamentError(message, entries[index] if index < len(entries) else None)

    def section(self, name: str) -> list:
        value = self.data.get(name, [])
        if not isinstance(value, list):
            raise TournamentError(f"« {name} » doit être une liste")
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(name, index, f"{name} n° {index + 1} : un objet JSON est attendu")
        return value

    def tournament(self) -> Tournament:
        kind = self.data.get("kind")
        if kind not in KINDS:
            raise TournamentError(f"type de tournoi inconnu « {kind} » (individual, triplettes, quadrettes, team_match)")
        self.kind = kind
        self.players = self.read_entrants("players", "joueur")
        self.teams = self.read_entrants("teams", "équipe")
        self.boards = self.read_boards()
        self.movement_tables = self.read_movement()
        results = self.read_results()
        entrants = self.players if kind == "individual" else self.teams
        penalties = self.read_penalties(entrants)
        return Tournament(str(self.data.get("name", "")), kind, self.players, self.teams, self.boards,
                          tuple(results), tuple(penalties), self.data.get("movement"))

    def read_entrants(self, section: str, noun: str) -> dict[str, Entrant]:
        entrants: dict[str, Entrant] = {}
        for index, item in enumerate(self.section(section)):
            ident = item.get("id")
            if not isinstance(ident, str) or not ident:
                self.fail(section, index, f"{noun} n° {index + 1} : identifiant « id » manquant")
            if ident in entrants:
                self.fail(section, index, f"{noun} « {ident} » déclaré deux fois")
            members = item.get("members", [])
            if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
                self.fail(section, index, f"{noun} « {ident} » : « members » doit être une liste d'identifiants")
            if section == "teams":
                unknown = [m for m in members if m not in self.players]
                if unknown:
                    self.fail(section, index, f"équipe « {ident} » : joueur inconnu « {unknown[0]} »")
            try:
                bonus = Decimal(str(item.get("bonus", 0)))
            except ArithmeticError:
                self.fail(section, index, f"{noun} « {ident} » : bonus illisible")
            line = item.get("line") or ident.rstrip("0123456789")
            entrants[ident] = Entrant(ident, str(item.get("name", ident)), str(line), tuple(members), bonus)
        return entrants

    def read_boards(self) -> dict[int, Mapping]:
        boards = {}
        for index, item in enumerate(self.section("boards")):
            number = item.get("number")
            if not isinstance(number, int) or number < 1:
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
            raise TournamentError("mouvement « movement » mal formé : « rounds » avec table et boards attendus") from None

    def read_results(self) -> list[Result]:
        results: list[Result] = []
        seen_tables: dict[tuple, int] = {}
        seen_entrants: dict[tuple, int] = {}
        for index, item in enumerate(self.section("results")):
            result = self.read_result(index, item)
            where = f"résultat n° {index + 1} (étui {result.board}, table {result.table})"
            paired = self.kind in ("quadrettes", "team_match")
            key = (result.board, result.room if self.kind == "team_match" else result.table)
            if key in seen_tables:
                self.fail("results", index, f"{where} : l'étui {result.board} a déjà un score à cette "
                          f"table (résultat n° {seen_tables[key] + 1})")
            seen_tables[key] = index
            for role, entrant in enumerate(result.entrants):
                # a quadrette or a team plays each étui twice: once in attack, once in defence
                slot = (result.board, entrant, min(role, 1) if paired else 0)
                if slot in seen_entrants:
                    self.fail("results", index, f"{where} : « {entrant} » joue l'étui {result.board} une "
                              f"deuxième fois (déjà au résultat n° {seen_entrants[slot] + 1})")
                seen_entrants[slot] = index
            key = (result.board, result.table)
            if self.movement_tables is not None and key not in self.movement_tables:
                self.fail("results", index, f"{where} : le mouvement n'envoie pas l'étui {result.board} "
                          f"à la table {result.table}")
            results.append(result)
        return results

    def read_result(self, index: int, item: Mapping) -> Result:
        def fail(message: str):
            self.fail("results", index, f"résultat n° {index + 1} : {message}")

        board, table = item.get("board"), item.get("table")
        if not isinstance(board, int) or not isinstance(table, int):
            fail("« board » et « table » (nombres entiers) sont obligatoires")
        if self.boards and board not in self.boards:
            fail(f"étui {board} inconnu (absent de « boards »)")
        if self.kind == "individual":
            taker, defence = item.get("taker"), item.get("defenders")
            known, noun = self.players, "joueur"
            if not isinstance(defence, list) or len(defence) != 3:
                fail("il faut trois défenseurs dans « defenders »")
        else:
            taker, defence = item.get("taker_team"), [item.get("defence_team")]
            known, noun = self.teams, "équipe"
        for entrant in [taker, *defence]:
            if not isinstance(entrant, str) or entrant not in known:
                fail(f"{noun} inconnu{'e' if noun == 'équipe' else ''} « {entrant} »")
        if len(set([taker, *defence])) != len(defence) + 1:
            fail(f"le même {noun} figure deux fois à la table")
        annulled = bool(item.get("annulled", False))
        notes = None
        if item.get("notes") is not None:
            try:
                notes = ArbitralNote(Fraction(str(item["notes"]["taker"])), Fraction(str(item["notes"]["defence"])))
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                fail("note arbitrale « notes » illisible (taker et defence attendus)")
        score = item.get("score")
        contract = item.get("contract", "garde") if self.kind == "team_match" else "garde"
        try:
            contract = Contract.parse(contract)
        except ScoreError as error:
            fail(str(error))
        if self.kind == "team_match" and contract is Contract.PRISE:
            fail("en match par équipes, le contrat est Garde, Garde Sans ou Garde Contre")
        if score is None and not annulled and notes is None:
            fail("score manquant")
        if score is not None:
            if not isinstance(score, int) or isinstance(score, bool):
                fail(f"score « {score} » : un nombre entier est attendu")
            check = check_score(score, contract, chelem=bool(item.get("chelem", False)))
            if not check.ok:
                fail(check.message)
        position, quarter, room = item.get("position"), item.get("quarter"), item.get("room")
        if room is not None and room not in ("open", "closed"):
            fail(f"salle « {room} » inconnue (open ou closed)")
        if self.kind == "team_match" and (room is None or not isinstance(quarter, int)):
            fail("en match par équipes, « quarter » (1 à 4) et « room » (open ou closed) sont obligatoires")
        return Result(
            board=board, table=table, taker=taker, defence=tuple(defence), score=score,
            position=position if isinstance(position, int) else None, annulled=annulled,
            adjusted=bool(item.get("adjusted", False)), notes=notes, chelem=bool(item.get("chelem", False)),
            contract=contract.value, quarter=quarter if isinstance(quarter, int) else None,
            room=room,
        )

    def read_penalties(self, entrants: Mapping[str, Entrant]) -> list[Penalty]:
        penalties = []
        for index, item in enumerate(self.section("penalties")):
            entrant = item.get("player", item.get("team"))
            if not isinstance(entrant, str) or entrant not in entrants:
                self.fail("penalties", index, f"pénalité n° {index + 1} : participant inconnu « {entrant} »")
            try:
                points = item["points"]
                if isinstance(points, bool) or not isinstance(points, (int, float)):
                    raise ValueError
                points = Fraction(str(points))
            except (KeyError, ValueError, ZeroDivisionError):
                self.fail("penalties", index, f"pénalité n° {index + 1} : « points » illisible")
            board = item.get("board")
            penalties.append(Penalty(entrant, points, str(item.get("reason", "")),
                                     board if isinstance(board, int) else None))
        return penalties


# --- ranking output ----------------------------------------------------------------

def _number(value) -> float | None:
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
                line["taker_note"] = _number(note.taker_note)
                line["defence_note"] = _number(note.defence_note)
            else:
                line["taker_team"], line["defence_team"] = result.taker, result.defence[0]
                line["pm"] = _number(pm_by_play.get((result.board, result.taker)))
            for flag in ("annulled", "adjusted"):
                if getattr(result, flag):
                    line[flag] = True
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


def ranking_output(tournament: Tournament) -> dict:
    """The SPEC §9 ranking output, recomputed from the tournament's raw results."""
    notes = topage(tournament.results)
    entrants = tournament.entrants
    if tournament.kind in ("individual", "triplettes"):
        all_notes = [note for rows in notes.values() for note in rows]
        lines = {ident: entrant.line for ident, entrant in entrants.items()}
        ranked = rank_standings(standings(tournament.kind, lines, all_notes, tournament.penalties))
        return {"kind": tournament.kind, "boards": _board_rows(notes),
                "ranking": [_standing_row(row, entrants[row.entrant]) for row in ranked]}
    pm_by_play: dict[tuple[int, str], Decimal] = {}
    for comparison in compare_pairs(tournament.results)[0]:
        pm_by_play[(comparison.board, comparison.first.taker)] = comparison.pm
        pm_by_play[(comparison.board, comparison.second.taker)] = -comparison.pm
    penalty = {}
    for item in tournament.penalties:
        points = Decimal(item.points.numerator) / Decimal(item.points.denominator)
        penalty[item.entrant] = penalty.get(item.entrant, Decimal(0)) + points
    output: dict[str, Any] = {"kind": tournament.kind, "boards": _board_rows(notes, pm_by_play)}
    if tournament.kind == "quadrettes":
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
