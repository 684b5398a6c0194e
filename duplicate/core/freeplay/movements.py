"""The FFT free-play movements and their validator (SPEC §13; booklet chapter 2, « Mouvements des
joueurs », p. 17–20 of ``seeds/fft-fascicule-free-play-ocr.txt``).

**5 tables and more** (« Mouvement normal FFT »): each player keeps his orientation; at every position
« NORD RESTE FIXE, SUD MONTE D'UNE TABLE (+1), EST MONTE DE DEUX TABLES (+2), OUEST DESCEND DE DEUX
TABLES (−2) », tables counted round (table T + 1 is table 1). The booklet says it holds « dans la limite
de 7 positions jouées » for 5, 7, 11, 13, 17, 19, 21, 22, 23 « et jusqu'à 150 tables », and gives special
moves for 6, 8, 9, 10, 12, 14, 15, 16, 18, 20 tables. A special move replaces the base move of one line
*into* the position named (« 3ème +3 »: the move made before the 3rd position is played).

What the OCR let us read of those tables, and how each was settled — the columns were lost (the OCR
prints a row's numbers without the column they stood in), so each reading below is the only placement of
the printed numbers into the S/E/W columns that gives no repeated meeting over the stated positions
(checked by `check` and by the tests, which try every placement):

* 6 tables, « ATTENTION : OUEST (−1) », « 5 positions maximum »: 3ème « +3 », 4ème « −2 » → E +3 into the
  3rd, W −2 into the 4th.
* 8 tables, W −1, « 6 positions maximum »: 5ème « +2 +3 », 6ème (OCR « ©eme ») « +4 » → S +2 and E +3 into
  the 5th, E +4 into the 6th.
* 9 tables: 4ème « +3 3 » (the second sign lost), 5ème (OCR « Héme ») « +3 −3 » → E +3 and W −3 into the
  4th and into the 5th.
* 10 tables, W −1: 6ème (OCR « B6eme ») « +3 −2 » → E +3, W −2 into the 6th. No placement avoids a repeat
  at the 7th position: 10 tables play 6 positions at most (the OCR shows no maximum; our reading).
* 12 tables: 4ème « −3 », 7ème « +3 » → W −3 into the 4th, E +3 into the 7th.
* 14 and 15 tables: « Béme » « −3 » → W −3; « B » is 5 or 6 elsewhere in the OCR and both give 7
  positions without repeat: we take the 6th (the last one that mends 15 tables, whose base movement
  repeats at the 6th).
* 16 tables: 5ème (« Heme ») « 3 » (sign lost), 6ème « −3 » → W −3 into the 5th and into the 6th.
* 18 and 20 tables: 6ème « −3 » → W −3 into the 6th.

Found by the validator, not in the booklet: 5 tables repeat at the 6th position (5 positions at most), and
24 tables at the 7th (East and West of a same starting table meet again: +12 and −12 are 24 apart). The
generator refuses more positions than a movement plays without repeat.

**3 and 4 tables** (« Mouvement Howell FFT »): players are numbered 1–12 (1–16) and change orientation;
the booklet's schedules are copied below (all rows legible; each row checked as a permutation, and
against the booklet's « fiche individuelle » of player 7). Player ids are ``J1``… (joueur n°).

**Tables of 3 in a Howell** (11 players; 13, 14 and 15): the booklet's answer to a headcount that is not a
multiple of 4 is the table of 3 (p. 15, below; « Le jeu à 3 joueurs est admis et homologué par la F.F.T. »,
p. 10, while « Les tournois à 5 joueurs ne sont pas homologables », p. 11, even if « certains petits
tournois libres … peuvent inclure des tables de 5 joueurs »). So 11 players play the 12-player Howell and 13–15 the
16-player one (our choice, docs/free-play.md: not 3 tables with tables of 5), with one, two or three
player numbers absent — the Howell's answer to « supprimer le NORD »: whoever would sit in the absent
number's seat finds it empty, his table plays at 3 at that position (the absent seat changes table and
orientation with the number). The absent numbers are chosen as the Norths are (`_howell_absent`): no table
may fall below 3 players, then no player at a table of 3 twice if the schedule allows, else the fewest
visits as below; among equals the highest numbers (they start at the highest table, as the booklet's
removed North). What that gives, over the default positions (checked by `check` and the tests):

* **15 players**: J16 absent, 5 positions: every player meets J16's seat once, so each plays exactly once
  at a table of 3, and nobody meets twice (the 16-player schedule has no repeat).
* **14 players**: two numbers meet once in the 16-player schedule, and where they meet their table would be
  a table of 2: J12 and J16 meet at the 5th position only, so 14 players play the first **4 positions**;
  12 of them play twice at 3 (each meets J12 and J16 at two different positions of the four: no choice of
  two numbers does better), J4 and J8 never. No repeated meeting.
* **13 players**: three numbers must never share a table where they are absent: J8, J12 and J16 (the
  5th position's table 4 without J4), **4 positions**, tables 4, 3, 3, 3 at each (13 = 4 + 3 × 3): J4 always
  plays at 4, the 12 others once at 4 and three times at 3 — 9 seats of 13 are at tables of 3 at every
  position, whatever the schedule. No repeated meeting.
* **11 players**: J12 absent, 6 positions; 6 tables of 3 × 3 seats = 18 visits for 11 players, so someone
  plays twice at 3 whatever the absent number. With J12 absent nobody plays at 3 more than 3 times and 5
  players do so more than once (J2 and J11 three times, J5, J7, J9 twice), the fewest of any number (J6
  or J8 absent sends a player 4 times to a table of 3; J4, J5, J7 or J9 sends six players there more than
  once; J1, J2, J3, J10, J11 are as good as J12, which is the highest). The repeated meetings are the
  12-player schedule's (3 tables × 6 positions must repeat), none more.

The arbiter may ask for fewer positions: the absent numbers are then chosen for those positions.

**Tables of 3** (booklet p. 15, « Accueil des joueurs »): when the headcount is not a multiple of 4,
« supprimer le NORD de la table la plus élevée : les joueurs de cette table joueront à 3 », and with
several tables of 3, remove the Norths « de façon à ce qu'un joueur ne repasse une nouvelle fois à une
table à 3 joueurs ». We remove up to 3 Norths, choosing the highest tables for which no player visits a
table of 3 twice (the validator counts the visits); when no choice does (more positions than tables of 4
allow), the one where no player plays at 3 more often than needed, then with the fewest players at 3 twice.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

__all__ = [
    "MovementError", "Round", "SPECIAL_MOVES", "WEST_BASE", "HOWELL", "MAX_POSITIONS", "free_movement", "team_movement",
    "fft_moves", "max_positions", "check", "MovementReport", "movement_to_dict", "rounds_from_dict",
    "final_square", "best_against_best", "random_seating", "personal_card", "table_card",
    "parallel_tournaments", "parallel_movement", "parallel_letter", "PARALLEL_LETTERS",
]

SEATS = ("N", "S", "E", "W")
BASE_MOVES = {"N": 0, "S": 1, "E": 2, "W": -2}
#: Tables where West moves −1 (booklet: « ATTENTION : OUEST (−1) »).
WEST_BASE = {6: -1, 8: -1, 10: -1}
#: tables → {position: {line: move into that position}} (module docstring: the readings).
SPECIAL_MOVES = {
    6: {3: {"E": 3}, 4: {"W": -2}},
    8: {5: {"S": 2, "E": 3}, 6: {"E": 4}},
    9: {4: {"E": 3, "W": -3}, 5: {"E": 3, "W": -3}},
    10: {6: {"E": 3, "W": -2}},
    12: {4: {"W": -3}, 7: {"E": 3}},
    14: {6: {"W": -3}},
    15: {6: {"W": -3}},
    16: {5: {"W": -3}, 6: {"W": -3}},
    18: {6: {"W": -3}},
    20: {6: {"W": -3}},
}
#: The booklet's limits: « dans la limite de 7 positions jouées », « 5 positions maximum » at 6 tables,
#: « 6 positions maximum » at 8 (`max_positions` lowers them where the validator finds a repeat).
MAX_POSITIONS = 7
_BOOKLET_LIMITS = {6: 5, 8: 6}

#: The booklet's Howell schedules (p. 18–19): position → the players at table 1 N S E W, table 2 …
HOWELL = {
    3: (
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
        (1, 2, 7, 12, 5, 6, 11, 3, 9, 10, 4, 8),
        (1, 8, 7, 10, 5, 2, 11, 12, 9, 3, 4, 6),
        (1, 8, 6, 11, 5, 2, 4, 10, 9, 3, 12, 7),
        (1, 9, 5, 3, 7, 11, 4, 10, 2, 6, 12, 8),
        (1, 9, 7, 2, 5, 11, 4, 12, 10, 6, 3, 8),
    ),
    4: (
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16),
        (1, 8, 10, 15, 16, 9, 7, 2, 6, 3, 13, 12, 11, 14, 4, 5),
        (1, 7, 12, 14, 15, 9, 6, 4, 8, 2, 13, 11, 10, 16, 3, 5),
        (1, 6, 11, 16, 14, 9, 8, 3, 7, 4, 13, 10, 12, 15, 2, 5),
        (1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16),
    ),
}


class MovementError(ValueError):
    """A movement that cannot be made or read; the message is French."""


@dataclass(frozen=True)
class Round:
    """Who sits where at one table for one position (``None``: the seat is empty, a table of 3)."""

    position: int
    table: int
    seats: dict[str, str | None]

    def players(self) -> list[str]:
        return [player for player in self.seats.values() if player]


def fft_moves(tables: int, position: int) -> dict[str, int]:
    """Each line's move into ``position`` (2, 3, …) at ``tables`` tables: the base move or the booklet's
    special one."""
    moves = dict(BASE_MOVES, W=WEST_BASE.get(tables, -2))
    moves.update(SPECIAL_MOVES.get(tables, {}).get(position, {}))
    return moves


def _offsets(tables: int, positions: int) -> list[dict[str, int]]:
    """Each line's table shift from its starting table, at every position (cumulated moves)."""
    shifts = [dict.fromkeys(SEATS, 0)]
    for position in range(2, positions + 1):
        moves = fft_moves(tables, position)
        shifts.append({line: shifts[-1][line] + moves[line] for line in SEATS})
    return shifts


def max_positions(tables: int) -> int:
    """How many positions ``tables`` tables play without a repeated meeting: the booklet's limit, lowered
    while the validator finds a repeat (5, 10 and 24 tables: module docstring)."""
    if tables in HOWELL:
        return len(HOWELL[tables])
    limit = _BOOKLET_LIMITS.get(tables, MAX_POSITIONS)
    while limit > 1 and check(_fft_rounds(tables, limit, frozenset())).repeats:
        limit -= 1
    return limit


def _fft_rounds(tables: int, positions: int, empty_norths: frozenset[int]) -> list[Round]:
    rounds = []
    for position, shift in enumerate(_offsets(tables, positions), start=1):
        sitting = {}
        for line in SEATS:
            for start in range(1, tables + 1):
                table = (start - 1 + shift[line]) % tables + 1
                sitting[table, line] = None if line == "N" and start in empty_norths else f"{line}{start}"
        rounds += [Round(position, table, {line: sitting[table, line] for line in SEATS})
                   for table in range(1, tables + 1)]
    return rounds


def _howell_rounds(tables: int, positions: int, absent: frozenset[int] = frozenset()) -> list[Round]:
    """The booklet's Howell rows, the ``absent`` numbers' seats empty (``None``)."""
    def seat(number: int) -> str | None:
        return None if number in absent else f"J{number}"
    return [Round(position, table, {line: seat(row[4 * (table - 1) + index]) for index, line in enumerate(SEATS)})
            for position, row in enumerate(HOWELL[tables][:positions], start=1) for table in range(1, tables + 1)]


@lru_cache(maxsize=None)
def _howell_absent(tables: int, positions: int, missing: int) -> frozenset[int] | None:
    """The Howell numbers left empty (module docstring): no table below 3 players over ``positions``, then
    nobody twice at a table of 3, else the fewest visits (`_three_player_tables`' order), the highest
    numbers among equals; ``None`` when every choice leaves a table below 3."""
    best = None
    for chosen in sorted(combinations(range(1, 4 * tables + 1), missing), key=lambda c: sorted(c, reverse=True),
                         reverse=True):
        rounds = _howell_rounds(tables, positions, frozenset(chosen))
        if any(len(r.players()) < 3 for r in rounds):
            continue
        visits = check(rounds).three_twice
        if not visits:
            return frozenset(chosen)
        key = (max(map(len, visits.values())), len(visits))
        if best is None or key < best[0]:
            best = (key, frozenset(chosen))
    return best[1] if best else None


def _howell_limit(tables: int, missing: int) -> int:
    """The most positions of the Howell with ``missing`` numbers absent and no table below 3 (6 for 11
    players, 5 for 15, 4 for 13 and 14: module docstring)."""
    limit = len(HOWELL[tables])
    while limit > 1 and _howell_absent(tables, limit, missing) is None:
        limit -= 1
    return limit


def _three_player_tables(tables: int, positions: int, missing: int) -> frozenset[int]:
    """The tables whose North is removed (module docstring): the highest ones with no player twice at a
    table of 3, else the fewest such visits."""
    best = None
    for chosen in sorted(combinations(range(1, tables + 1), missing), key=lambda c: sorted(c, reverse=True),
                         reverse=True):
        visits = check(_fft_rounds(tables, positions, frozenset(chosen))).three_twice
        if not visits:
            return frozenset(chosen)
        key = (max(map(len, visits.values())), len(visits))
        if best is None or key < best[0]:
            best = (key, frozenset(chosen))
    return best[1]


def team_movement(event: str, tables: int, positions: int | None = None) -> tuple[list[Round], dict[str, list[str]]]:
    """The free-play team movement and its teams (booklet p. 21, « Tournoi libre par équipes »): the
    members « commencent à la même table. Cependant ils ne jouent pas la première position et passent
    directement à la deuxième position. Les mouvements FFT … restent valables »: the individual movement
    from its 2nd position on, renumbered from 1 — one position fewer than the individual one at most.
    Duos (``free_duo``) sit N–S (team ``NS<t>``) or E–W (``EW<t>``), teams of 4 (``free_team4``, team
    ``T<t>``) the whole table ``t``. Full tables only, 4 at least (our choice: the booklet has no team table
    of 3, and its 3-table Howell seats teammates together again: the validator shows it)."""
    if event not in ("free_duo", "free_team4"):
        raise MovementError(f"épreuve « {event} » : free_duo ou free_team4")
    if tables < 4:
        raise MovementError("par équipes, 4 tables au moins : le Howell à 3 tables fait se rencontrer des "
                            "coéquipiers")
    limit = max_positions(tables) - 1
    positions = limit if positions is None else positions
    if not 1 <= positions <= limit:
        raise MovementError(f"par équipes, {tables} tables jouent au plus {max(limit, 0)} positions sans "
                            f"répétition ({positions} demandées)")
    rounds, _ = free_movement(tables, positions + 1)
    first = [r for r in rounds if r.position == 1]
    played = [Round(r.position - 1, r.table, r.seats) for r in rounds if r.position > 1]
    teams: dict[str, list[str]] = {}
    for r in first:
        if event == "free_duo":
            teams[f"NS{r.table}"] = [r.seats["N"], r.seats["S"]]
            teams[f"EW{r.table}"] = [r.seats["E"], r.seats["W"]]
        else:
            teams[f"T{r.table}"] = [r.seats[line] for line in SEATS]
    return played, teams


def free_movement(tables: int | None = None, positions: int | None = None,
                  players: int | None = None) -> tuple[list[Round], frozenset[int]]:
    """The rounds of the FFT free-play movement, and the tables played at 3.

    ``players`` (when not a multiple of 4) sets the tables (⌈players / 4⌉) and removes the Norths, or at 3
    and 4 tables leaves Howell numbers absent (module docstring; the tables of 3 then change with the
    position, and the second value is empty); ``positions`` defaults to the most the movement plays without
    repeat (in a Howell with absent numbers, without a table below 3)."""
    if players is not None:
        if players < 11:
            raise MovementError(f"{players} joueurs : il en faut au moins 11 (3 tables, dont une à 3)")
        needed = -(-players // 4)
        if tables is not None and tables != needed:
            raise MovementError(f"{players} joueurs font {needed} tables, pas {tables}")
        tables = needed
    if tables is None or tables < 3:
        raise MovementError("le mouvement en donnes libres demande 3 tables au moins")
    missing = 4 * tables - players if players is not None else 0
    if missing and tables in HOWELL:
        limit = _howell_limit(tables, missing)
        positions = limit if positions is None else positions
        if not 1 <= positions <= limit:
            numbers = "1 numéro absent" if missing == 1 else f"{missing} numéros absents"
            reason = (f"le Howell du fascicule en a {limit}" if limit == len(HOWELL[tables])
                      else "au-delà, une table aurait moins de 3 joueurs")
            raise MovementError(f"{players} joueurs (Howell à {tables} tables, {numbers}) jouent au plus {limit} "
                                f"positions : {reason} ({positions} demandées)")
        return _howell_rounds(tables, positions, _howell_absent(tables, positions, missing)), frozenset()
    limit = max_positions(tables)
    positions = limit if positions is None else positions
    if not 1 <= positions <= limit:
        raise MovementError(f"{tables} tables jouent au plus {limit} positions sans que deux joueurs se "
                            f"rencontrent deux fois ({positions} demandées)")
    if tables in HOWELL:
        return _howell_rounds(tables, positions), frozenset()
    empty = _three_player_tables(tables, positions, missing) if missing else frozenset()
    return _fft_rounds(tables, positions, empty), empty


@dataclass
class MovementReport:
    """What `check` found: ``meetings`` pair → positions, the ``repeats`` among them, the players seated
    twice at a position, and the players at a table of 3 more than once (``three_twice``)."""

    meetings: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    seated_twice: list[tuple[int, str]] = field(default_factory=list)
    three_twice: dict[str, list[int]] = field(default_factory=dict)
    teammates: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    @property
    def repeats(self) -> dict[tuple[str, str], list[int]]:
        return {pair: positions for pair, positions in self.meetings.items() if len(positions) > 1}

    @property
    def ok(self) -> bool:
        return not self.repeats and not self.seated_twice and not self.three_twice and not self.teammates

    def text(self) -> str:
        """The report in French, one finding a line."""
        lines = [f"{len(self.meetings)} rencontre{'s' if len(self.meetings) > 1 else ''}, "
                 f"{len(self.repeats)} répétée{'s' if len(self.repeats) > 1 else ''}"]
        lines += [f"{a} et {b} se rencontrent aux positions {', '.join(map(str, p))}"
                  for (a, b), p in sorted(self.repeats.items())]
        lines += [f"position {p} : {player} est placé deux fois" for p, player in self.seated_twice]
        lines += [f"{player} joue à 3 aux positions {', '.join(map(str, p))}"
                  for player, p in sorted(self.three_twice.items())]
        lines += [f"{a} et {b}, coéquipiers, se rencontrent aux positions {', '.join(map(str, p))}"
                  for (a, b), p in sorted(self.teammates.items())]
        lines.append("mouvement correct" if self.ok else "mouvement défectueux")
        return "\n".join(lines)


def check(rounds: list[Round], teams: dict[str, list[str]] | None = None) -> MovementReport:
    """Meetings and repeats of a free-play movement (any seating: FFT, Howell, random, best-vs-best);
    with ``teams``, the teammates who meet (« les joueurs d'une même équipe ne se rencontrent pas »)."""
    report = MovementReport()
    seen: set[tuple[int, str]] = set()
    three: dict[str, list[int]] = {}
    for round_ in sorted(rounds, key=lambda r: (r.position, r.table)):
        people = round_.players()
        for player in people:
            if (round_.position, player) in seen:
                report.seated_twice.append((round_.position, player))
            seen.add((round_.position, player))
            if len(people) == 3:
                three.setdefault(player, []).append(round_.position)
        for a, b in combinations(sorted(people), 2):
            report.meetings.setdefault((a, b), []).append(round_.position)
    report.three_twice = {player: p for player, p in three.items() if len(p) > 1}
    for members in (teams or {}).values():
        for pair in combinations(sorted(m for m in members if m), 2):
            if pair in report.meetings:
                report.teammates[pair] = report.meetings[pair]
    return report


def movement_to_dict(tables: int, positions: int, rounds: list[Round], three: frozenset[int]) -> dict:
    """The SPEC §9 movement format with ``"kind": "free"`` (no étuis: ``boards`` is empty); ``moves``
    gives each line's move into every position (what the arbiter announces), ``three_player_tables`` the
    tables played at 3 (their North removed); a Howell with numbers nobody holds (11, 13–15 players) adds
    ``absent_players`` (``["J12"]``): whichever table their seat is at plays at 3 at that position."""
    data = {"format": "tarot-movement/1", "kind": "free", "tables": tables, "positions": positions,
            "boards": []}
    if tables not in HOWELL:
        data["moves"] = [{"position": p, **fft_moves(tables, p)} for p in range(2, positions + 1)]
    data["three_player_tables"] = sorted(three)
    if tables in HOWELL:
        seated = {player for r in rounds for player in r.players()}
        absent = [f"J{n}" for n in range(1, 4 * tables + 1) if f"J{n}" not in seated]
        if absent:
            data["absent_players"] = absent
    data["rounds"] = [{"position": r.position, "table": r.table, "seats": dict(r.seats)} for r in rounds]
    return data


def rounds_from_dict(data) -> list[Round]:
    """The rounds of a movement file (SPEC §9): seats N, S, E, W (and a fifth at a table of 5), ``null``
    for an empty seat; French `MovementError` on a malformed file."""
    if not isinstance(data, dict) or not isinstance(data.get("rounds"), list):
        raise MovementError("mouvement illisible : « rounds » (liste) attendu")
    rounds = []
    for index, item in enumerate(data["rounds"], start=1):
        try:
            position, table, seats = item["position"], item["table"], item["seats"]
        except (TypeError, KeyError):
            raise MovementError(f"position n° {index} du mouvement : position, table et seats attendus") from None
        if (not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in (position, table))
                or not isinstance(seats, dict)
                or not all(isinstance(p, str) or p is None for p in seats.values())):
            raise MovementError(f"entrée n° {index} du mouvement illisible")
        rounds.append(Round(position, table, dict(seats)))
    return rounds


def _seat_in_order(players: list[str], position: int, empty_norths: int = 0) -> list[Round]:
    """Players in order, 4 a table (N, S, E, W), the last ``empty_norths`` tables without a North."""
    tables = -(-len(players) // 4)
    rounds, index = [], 0
    for table in range(1, tables + 1):
        lines = SEATS[1:] if table > tables - empty_norths else SEATS
        seats = dict.fromkeys(SEATS)
        for line in lines:
            seats[line] = players[index]
            index += 1
        rounds.append(Round(position, table, seats))
    return rounds


def final_square(ranked: list[str], positions: int = 1) -> list[Round]:
    """The « carré final » (booklet p. 13–14): the 12, 16 or 20 best play one more position, seated by rank.

    The booklet's tables: 16 finalists, « Table 1 : 1er, 5ème, 9ème, 13ème … Table 4 : 4ème, 8ème,
    12ème, 16ème » (N, S, E, W; the OCR prints « Qéme » for both the 9th and the 12th: the columns run by
    four); 20 finalists, « Table 1 : 1er, 6ème, 11ème, 16ème … Table 5 : 5ème, 10ème, 15ème, 20ème », for
    « 5 positions de UNE donne avec le mouvement normal de rotation : S + 1 ; E + 2 ; O − 2 ». So the k-th
    best sits at table ((k − 1) mod T) + 1, in line N, S, E, W by (k − 1) div T; the later positions follow
    the FFT movement (`fft_moves`)."""
    if len(ranked) % 4 or not ranked:
        raise MovementError(f"carré final de {len(ranked)} joueurs : un multiple de 4 (12, 16 ou 20)")
    tables = len(ranked) // 4
    if positions > 1 and positions > max_positions(tables):
        raise MovementError(f"carré final à {tables} tables : {max_positions(tables)} positions au plus")
    rounds = []
    for position, shift in enumerate(_offsets(tables, positions), start=1):
        for table in range(1, tables + 1):
            seats = {}
            for column, line in enumerate(SEATS):
                start = (table - 1 - shift[line]) % tables + 1
                seats[line] = ranked[column * tables + start - 1]
            rounds.append(Round(position, table, seats))
    return rounds


def best_against_best(ranked: list[str], position: int) -> list[Round]:
    """« Mise en place faisant jouer les meilleurs scores avec les meilleurs, suivant le classement à
    l'issue des positions précédentes » (booklet p. 17). Our seating: the 4 best at table 1 (N, S, E, W
    in ranking order), the next 4 at table 2…; when the count is not a multiple of 4, the last tables lose
    their North (tables of 3 at the bottom of the ranking)."""
    if len(ranked) < 3:
        raise MovementError("il faut 3 joueurs au moins")
    return _seat_in_order(list(ranked), position, -len(ranked) % 4)


def random_seating(players: list[str], position: int, seed: str, earlier: list[Round] = (),
                   tries: int = 20) -> list[Round]:
    """« Mise en place aléatoire » (booklet p. 17): players drawn in the order of SHA-256 of (seed,
    position, try, id) — the same on every machine and Python version — each put at the first table with
    room where he meets the fewest of his ``earlier`` opponents; tables filled N, S, E, W, the last ones
    without a North when the count is not a multiple of 4. Of ``tries`` draws the first with the fewest
    repeated meetings is kept (our choice: the booklet says nothing of repeats in a random set-up; the
    validator reports what is left)."""
    if len(players) < 3:
        raise MovementError("il faut 3 joueurs au moins")
    met: dict[str, set[str]] = {}
    for (a, b) in check(list(earlier)).meetings:
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    tables = -(-len(players) // 4)
    sizes = [3 if table > tables - (-len(players) % 4) else 4 for table in range(1, tables + 1)]
    best = None
    for attempt in range(tries):
        def draw(player: str) -> bytes:
            return hashlib.sha256(f"{seed}\x1f{position}\x1f{attempt}\x1f{player}".encode()).digest()
        groups: list[list[str]] = [[] for _ in sizes]
        for player in sorted(players, key=draw):
            open_tables = [t for t, size in enumerate(sizes) if len(groups[t]) < size]
            table = min(open_tables, key=lambda t: (len(met.get(player, set()) & set(groups[t])), t))
            groups[table].append(player)
        seating = []
        for table, group in enumerate(groups, start=1):
            lines = SEATS if len(group) == 4 else SEATS[1:]
            seating.append(Round(position, table, {**dict.fromkeys(SEATS), **dict(zip(lines, group))}))
        repeats = len(check([*earlier, *seating]).repeats)
        if best is None or repeats < best[0]:
            best = (repeats, seating)
        if repeats == 0:
            break
    return best[1]


def personal_card(rounds: list[Round], player: str) -> list[tuple[int, int, str]]:
    """The « fiche personnelle » (booklet p. 16, 18–19): (position, table, orientation) for each position
    the player plays, in order — what the printed card and the screen show."""
    return sorted((r.position, r.table, line) for r in rounds for line, who in r.seats.items() if who == player)


def table_card(rounds: list[Round], table: int) -> list[tuple[int, dict[str, str | None]]]:
    """A table's card: (position, seats) for every position, in order (the « tableau d'orientation »
    is every table's first line)."""
    return sorted(((r.position, dict(r.seats)) for r in rounds if r.table == table), key=lambda item: item[0])


#: The four parallel tournaments of libre par 4 (booklet p. 21), member k of every team in the k-th.
PARALLEL_LETTERS = ("A", "B", "C", "D")


def parallel_letter(table: int, tables: int) -> str:
    """The parallel tournament of a (room-wide) ``table`` when each tournament has ``tables`` tables:
    A for tables 1…t, B for t + 1…2t, C, D."""
    return PARALLEL_LETTERS[(table - 1) // tables]


def parallel_movement(team_count: int, positions: int | None = None) -> tuple[list[Round], dict[str, list[str]]]:
    """Libre par 4 as « 4 tournois libres en parallèle, chaque joueur de l'équipe étant affecté dans un
    tournoi différent » (booklet p. 21, ``seeds/fft-fascicule-free-play-ocr.txt`` l. ~1100–1104: « Dans la
    mesure où le nombre d'équipes est multiple de 4 … Les logiciels … permettent de jumeler ces 4 tournois
    et d'établir le classement par équipes »): the rounds and the teams ``{"T1": [a, b, c, d], …}``.

    * **Who plays where**: the k-th member of every team (in the team's order: the order of the
      « Équipes » screen) plays tournament k — A, B, C, D. Each tournament is the individual FFT movement
      (`free_movement`) of ``team_count / 4`` tables, the Howell at 3 and 4 tables, all four the same
      movement and the same positions.
    * **Table numbers** run on through the room, so that no two tournaments share one: tournament A has
      tables 1…t, B t + 1…2t, C 2t + 1…3t, D 3t + 1…4t (t = teams / 4; `parallel_letter`). A player's id
      is his seat at the first position, on that room-wide table (``N1``, ``E6``…, also in a Howell, whose
      ``J5`` is renamed after his first seat).
    * **Teams' starting seats** (the booklet gives none, our choice): team i (1-based, in the order given)
      sits in each tournament at its table ⌈i / 4⌉, line N, S, E, W by (i − 1) mod 4 — teams T1–T4 start at
      table 1 of A, B, C and D. Teammates never meet (they are in different tournaments); the same teams
      may meet in the four tournaments at the same time (the draw of the teams' order is the arbiter's).
    * The team ranking is the sum of the members' totals (`ranking.team_entries`, as for the same-table
      movement); each tournament also has its own individual ranking (``rank_free``'s ``"tournaments"``).

    Refused in French when the teams are not a multiple of 4, or fewer than 12 (3 tables a tournament: the
    FFT has no 2-table movement, and 8 players at 2 tables cannot play a second position without two of
    them meeting again)."""
    if team_count < 1 or team_count % 4:
        raise MovementError(f"{team_count} équipes : 4 tournois en parallèle demandent un nombre d’équipes "
                            "multiple de 4")
    tables = team_count // 4
    if tables < 3:
        raise MovementError("4 tournois en parallèle : 12 équipes au moins (3 tables par tournoi)")
    single, _ = free_movement(tables, positions)
    first = sorted((r for r in single if r.position == 1), key=lambda r: r.table)
    starts = [r.seats[line] for r in first for line in SEATS]  # the i-th: team i's member's movement id
    rounds: list[Round] = []
    teams: dict[str, list[str]] = {f"T{i}": [] for i in range(1, team_count + 1)}
    for k in range(4):
        shift = k * tables
        rename = {start: f"{line}{shift + r.table}" for r in first for line, start in r.seats.items()}
        rounds += [Round(r.position, shift + r.table, {line: rename[who] for line, who in r.seats.items()})
                   for r in single]
        for i, start in enumerate(starts, start=1):
            teams[f"T{i}"].append(rename[start])
    return rounds, teams


def parallel_tournaments(teams: dict[str, list[str]], positions: int | None = None) -> list[Round]:
    """`parallel_movement` with the teams' own members' ids: the k-th member of the i-th team given
    (teams of 4, a multiple of 4 of them) takes the seat ``parallel_movement`` gives member k of ``T<i>``."""
    ordered = list(teams.items())
    if not ordered or len(ordered) % 4 or any(len(members) != 4 for _, members in ordered):
        raise MovementError(f"{len(ordered)} équipes : des équipes de 4, en nombre multiple de 4")
    rounds, places = parallel_movement(len(ordered), positions)
    name = {seat: members[k] for (_, members), seats in zip(ordered, places.values())
            for k, seat in enumerate(seats)}
    return [Round(r.position, r.table, {line: name[who] for line, who in r.seats.items()}) for r in rounds]
