"""The movement validator: checks any movement, generated or typed in by the arbiter (SPEC §7).

Rule (SPEC §7, seed ``duplicate-tournaments.txt``): no player — or team — plays an étui twice (hard
rule); no two players meet twice; every étui is played by as many tables as possible; each player
attacks ¼ of the étuis (individual; ½ in triplettes) and takes each defensive place equally.

Errors (``report.ok`` is False) — the movement cannot be played or scored:

* a malformed round (position or table out of range, a table twice in a position, a seat missing,
  an entrant twice at one table, an entrant at two tables in the same position, an étui unknown to
  the « boards » list);
* an entrant playing an étui twice.  The entrant is the player (individual) or the triplette; in
  quadrettes and team matches the attacker and the defence of a team are different people, so the
  unit is (team, role);
* an étui at two tables in the same position — except in a team match, where both rooms play the
  quarter's series (with copies or exchanged) and must mirror each other;
* quadrettes and team matches: a team facing itself, or a comparison left half done (A's attacker
  met B's defence on some étuis but B's attacker did not meet A's defence on the same étuis).

Rests (« relais » of an individual whose headcount is not a multiple of 4, byes of teams; SPEC §7):
when the movement lists its ``rests``, gives its ``players``, or the caller gives the registered
``entrants``, every entrant is either seated or resting at every position, exactly once (an error
otherwise, as is a seated or resting id that is not registered — the phantom seat of a 7-table
movement for 26 players); in the individual exactly ``players mod 4`` rest per position; and no one
rests twice before everyone has rested once (an error).  The report lists the rests per position and
per player.

Warnings — the movement can be played but is not ideal: repeated meetings (unavoidable at 3 tables,
see ``small_clubs``), attack share or defensive places out of balance, an étui played only once
(its topage gives 50 % to everybody) or étuis played a different number of times, listed étuis never
played.  Choices where the seeds are silent: balance is judged per entrant, ±1 étui of the ideal;
each kind of problem lists at most 12 cases, then a count of the others.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from collections.abc import Iterable, Mapping
from itertools import combinations

from ..cards import default_taker
from .model import Movement

__all__ = ["Report", "check", "seated_twice", "table_roles", "taker_contradictions"]

LIMIT = 12
RIGHT = {"N": "W", "W": "S", "S": "E", "E": "N"}
LEFT = {v: k for k, v in RIGHT.items()}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


@dataclass
class Report:
    """Validation result.  ``errors`` break the movement; ``warnings`` do not."""

    title: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    #: the counts every statement about the movement is made from (issue 29 point 3; the movement page's
    #: sentences, `view_models.movement.movement_statements`): ``board_repeats`` (an entrant playing an
    #: étui twice), ``repeated_meetings`` (pairs meeting more than once; none by design in a team match),
    #: ``simultaneous`` (an étui at two tables in a position — in a team match, two rooms that do not
    #: mirror each other), ``mirrored`` / ``board_groups`` (team match: the (quarter, étui) played in
    #: mirror in both rooms / all the (quarter, étui) played), ``relais`` (errors of the rests), and the
    #: format's ``rooms`` and ``split_roles``.
    counts: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors

    def text(self) -> str:
        lines = [self.title,
                 "Résultat : mouvement valide." if self.ok
                 else f"Résultat : mouvement NON VALIDE ({len(self.errors)} erreur{'s' if len(self.errors) > 1 else ''})."]
        if self.errors:
            lines.append("Erreurs :")
            lines += [f"  – {e}" for e in self.errors]
        if self.warnings:
            lines.append("Avertissements :")
            lines += [f"  – {w}" for w in self.warnings]
        lines.append("Bilan :")
        lines += [f"  • {s}" for s in self.summary]
        return "\n".join(lines)


class _Collector:
    """Keeps at most LIMIT messages per category and counts the rest."""

    def __init__(self) -> None:
        self.items: dict[str, list[str]] = defaultdict(list)
        self.extra: Counter = Counter()

    def add(self, category: str, message: str) -> None:
        if len(self.items[category]) < LIMIT:
            self.items[category].append(message)
        else:
            self.extra[category] += 1

    def flush(self) -> list[str]:
        out = []
        for category, messages in self.items.items():
            out += messages
            if self.extra[category]:
                out.append(f"… et {self.extra[category]} autre{'s' if self.extra[category] > 1 else ''} cas du même genre "
                           f"({category}).")
        return out

    def count(self, category: str) -> int:
        return len(self.items.get(category, ())) + self.extra[category]


def check(movement: Movement, entrants: list[str] | None = None) -> Report:
    """Check ``movement``; ``entrants`` (the registered ids, when known) adds the rests checks."""
    m = movement
    fmt = m.format
    report = Report(f"Vérification du mouvement — {fmt.label.lower()}, {m.tables} tables, "
                    f"{m.positions} positions, {len(m.boards)} étuis")
    errors, warnings = _Collector(), _Collector()
    known_boards = {b.number for b in m.boards}
    if len(known_boards) != len(m.boards):
        errors.add("étuis", "la liste « boards » contient deux fois le même numéro d’étui")
    role_units = fmt.split_roles
    seats_needed = fmt.seats

    where_at: dict[tuple[int, str], int] = {}        # (position, entrant) → table
    table_seen: set[tuple[int, int]] = set()
    board_at: dict[tuple[int, int], list] = defaultdict(list)   # (position, board) → rounds
    played: dict[tuple, dict[int, tuple[int, int]]] = defaultdict(dict)   # unit → board → (pos, table)
    meetings: Counter = Counter()
    plays: Counter = Counter()
    for r in m.rounds:
        here = f"position {r.position}, table {r.table}"
        if not 1 <= r.position <= m.positions:
            errors.add("structure", f"{here} : position hors de 1…{m.positions}")
        if not 1 <= r.table <= m.tables:
            errors.add("structure", f"{here} : table hors de 1…{m.tables}")
        if (r.position, r.table) in table_seen:
            errors.add("structure", f"{here} : la table figure deux fois dans cette position")
        table_seen.add((r.position, r.table))
        missing = [s for s in seats_needed if s not in r.seat_map]
        if missing:
            errors.add("structure", f"{here} : place{'s' if len(missing) > 1 else ''} {', '.join(missing)} sans participant")
        if len(set(r.entrants)) != len(r.entrants) and not role_units:
            errors.add("structure", f"{here} : un même participant occupe deux places")
        if role_units and len(set(r.entrants)) != len(r.entrants):
            errors.add("face", f"{here} : l’équipe {r.entrants[0]} joue contre elle-même")
        for position, who, first, table in seated_twice([(r.position, r.table, r.seats)], role_units, where_at):
            errors.add("structure", f"position {position} : {who} est attendu à deux tables ({first} et {table})")
        if len(set(r.boards)) != len(r.boards):
            errors.add("étuis", f"{here} : un étui figure deux fois")
        for board in r.boards:
            if known_boards and board not in known_boards:
                errors.add("étuis", f"{here} : l’étui {board} n’est pas dans la liste des étuis")
            board_at[(r.position, board)].append(r)
            plays[board] += 1
            for seat, who in r.seats:
                unit = (who, seat) if role_units else (who,)
                if board in played[unit]:
                    p0, t0 = played[unit][board]
                    name = who if not role_units else f"{_role(seat)} de {who}"
                    errors.add("répétition joueur–étui",
                               f"{name} joue deux fois l’étui {board} (position {p0} table {t0}, "
                               f"position {r.position} table {r.table})")
                else:
                    played[unit][board] = (r.position, r.table)
        if not role_units:
            for a, b in combinations(sorted(set(r.entrants)), 2):
                meetings[(a, b)] += 1
        else:
            sm = r.seat_map
            if "attack" in sm and "defence" in sm:
                meetings[(sm["attack"], sm["defence"])] += 1

    mirrored = _check_simultaneous(m, board_at, errors)
    if role_units:
        _check_comparisons(m, errors)
    repeated = {pair: n for pair, n in meetings.items() if n > 1}
    if fmt.rooms:   # the same two teams meet every quarter, by design
        repeated = {}
    for (a, b), n in sorted(repeated.items(), key=lambda item: (_natural(item[0][0]), _natural(item[0][1]))):
        if role_units:
            warnings.add("rencontres répétées", f"l’attaquant de {a} rencontre {n} fois la défense de {b}")
        else:
            warnings.add("rencontres répétées", f"{a} et {b} se rencontrent {n} fois")
    balance = _balance(m, warnings) if not fmt.split_roles else "sans objet (preneur toujours Sud)"

    once = sorted(b for b, n in plays.items() if n == 1)
    if once:
        warnings.add("étuis", ("étuis joués" if len(once) > 1 else "étui joué")
                     + f" une seule fois (topage impossible) : {_ranges(once)}")
    unplayed = sorted(known_boards - set(plays))
    if unplayed:
        warnings.add("étuis", ("étuis jamais joués" if len(unplayed) > 1 else "étui jamais joué")
                     + f" : {_ranges(unplayed)}")
    if plays and max(plays.values()) - min(plays.values()) > 1:
        warnings.add("étuis", f"les étuis sont joués de {min(plays.values())} à {max(plays.values())} fois")

    rest_summary = _check_rests(m, entrants, errors) if (m.rests or m.players or entrants) else []

    report.errors = errors.flush()
    report.warnings = warnings.flush()
    by_count: dict[int, list[int]] = defaultdict(list)
    for board, n in sorted(plays.items()):
        by_count[n].append(board)
    report.summary = [
        f"Répétitions joueur–étui : {errors.count('répétition joueur–étui') or 'aucune'}",
        f"Rencontres répétées : {len(repeated) or 'aucune'}",
        # a team match plays every étui of a quarter in both rooms, mirrored: say how many are, not « aucun »
        f"Étuis joués en miroir dans les deux salles, comme le veut un match : {mirrored} sur {len(board_at)}"
        if fmt.rooms else
        f"Étui à deux tables dans la même position : {errors.count('simultané') or 'aucun'}",
        f"Équilibre : {balance}",
        "Nombre de fois que chaque étui est joué : "
        + ("; ".join(f"{n} fois : étuis {_ranges(bs)}" for n, bs in sorted(by_count.items(), reverse=True))
           or "aucun étui joué"),
    ] + rest_summary
    report.counts = {"board_repeats": errors.count("répétition joueur–étui"), "repeated_meetings": len(repeated),
                     "simultaneous": errors.count("simultané"), "mirrored": mirrored if fmt.rooms else 0,
                     "board_groups": len(board_at), "relais": errors.count("relais"),
                     "rooms": bool(fmt.rooms), "split_roles": bool(role_units), "rests": bool(m.rests)}
    report.stats = {"board_plays": dict(plays), "repeated_meetings": len(repeated),
                    "entrants": len({u[0] for u in played})}
    return report


def seated_twice(rounds: Iterable[tuple[int, int, Iterable[tuple[str, str]]]],
                 role_units: bool = False, where_at: dict[tuple[int, str], int] | None = None
                 ) -> list[tuple[int, str, int, int]]:
    """Every ``(position, entrant, first table, other table)`` where a movement seats an entrant at two tables
    in one position — the rule « no entrant at two tables in the same position », in one place for the
    validator (`check`) and for a tournament file's ``movement`` (`core.tournament`). ``rounds`` are
    ``(position, table, seats)`` with ``seats`` as ``(seat, entrant)`` pairs; when ``role_units`` (quadrettes,
    team match) the unit is the team in its role (its attacker and its defence are different people).
    ``where_at`` ((position, unit) → the table where last seen) carries the seats from one call to the next."""
    where_at = {} if where_at is None else where_at
    clashes = []
    for position, table, seats in rounds:
        for seat, who in seats:
            key = (position, f"{who}/{seat}" if role_units else who)
            if key in where_at and where_at[key] != table:
                clashes.append((position, who, where_at[key], table))
            where_at[key] = table
    return clashes


def table_roles(kind: str, seats: Mapping[str, str], taker_seat: str | None) -> tuple[str, tuple[str, ...]] | None:
    """Who takes an étui at a table seated so (``seats``: seat → entrant, SPEC §9), and who defends, in the
    order of the seats; None when the movement does not say (a seat missing, a taker seat unknown, a team
    match, whose rooms and quarters name the attacker, or triplettes, whose étui's seat does not choose the
    attacking line here).

    Individual: the player at the étui's taker seat takes, the three others defend (SPEC §2: « Each étui has
    a number, a dealer seat and a taker seat »). Quadrettes: the attacker's quadrette takes, whatever the
    étui says (the taker always sits South)."""
    if kind == "individual":
        if taker_seat not in RIGHT or any(seat not in seats for seat in RIGHT):
            return None
        return seats[taker_seat], tuple(seats[seat] for seat in ("N", "S", "E", "W") if seat != taker_seat)
    if kind == "quadrettes" and "attack" in seats and "defence" in seats:
        return seats["attack"], (seats["defence"],)
    return None


def taker_contradictions(movement_boards: Iterable[tuple[int, str]],
                         file_boards: Mapping[int, str]) -> list[tuple[int, str, str]]:
    """The étuis whose taker seat in the movement's ``boards`` is not the one of the étuis themselves
    (``file_boards``: number → taker seat): ``(number, movement's seat, étui's seat)``. Where the two lists
    disagree, the movement would seat the wrong player in attack."""
    return [(number, seat, file_boards[number]) for number, seat in movement_boards
            if number in file_boards and seat != file_boards[number]]


def _check_rests(m: Movement, entrants: list[str] | None, errors: _Collector) -> list[str]:
    """Seated or resting, exactly once per position; the relais count; nobody twice before all once."""
    role_units = m.format.split_roles
    known = list(entrants) if entrants is not None else sorted(m.entrants(), key=_natural)
    registered = set(known)
    if m.players is not None and m.format.ranks_players and len(registered) != m.players:
        errors.add("relais", f"le mouvement est prévu pour {m.players} joueurs, {len(registered)} sont inscrits")
    roles = m.format.seats if role_units else ("",)
    counts = {who: 0 for who in known}
    first_rest: dict[str, int] = {}
    per_position = []
    for position in range(1, m.positions + 1):
        seated: dict[str, set[str]] = defaultdict(set)
        for r in m.rounds_at(position):
            for seat, who in r.seats:
                seated[who].add(seat if role_units else "")
                if who not in registered:
                    errors.add("relais", f"position {position}, table {r.table} : {who} n’est pas inscrit "
                                         "(place sans joueur)")
        resting = m.resting_at(position)
        for who in resting:
            if who not in registered:
                errors.add("relais", f"position {position} : {who} est au relais mais n’est pas inscrit")
            elif len(seated.get(who, ())) == len(roles):
                errors.add("relais", f"position {position} : {who} est à la fois placé et au relais")
        if len(set(resting)) != len(resting):
            errors.add("relais", f"position {position} : un même joueur figure deux fois au relais")
        for who in known:
            if who not in resting and len(seated.get(who, ())) < len(roles):
                errors.add("relais", f"position {position} : {who} n’est ni placé ni au relais")
        if m.format.ranks_players and m.players is not None and len(resting) != m.players % len(m.format.seats):
            errors.add("relais", f"position {position} : {len(resting)} joueur{'s' if len(resting) > 1 else ''} au relais, "
                                 f"{m.players % 4} attendu{'s' if m.players % 4 > 1 else ''} ({m.players} joueurs)")
        for who in resting:
            if who in counts:
                counts[who] += 1
                first_rest.setdefault(who, position)
        never = [w for w in known if counts[w] == 0]
        for who in resting:
            if counts.get(who, 0) >= 2 and never:
                errors.add("relais", f"{who} passe une deuxième fois au relais (positions {first_rest[who]} et "
                                     f"{position}) alors que {never[0]} n’y est jamais passé")
        per_position.append(f"{position} : {', '.join(resting) if resting else 'personne'}")
    by_count: dict[int, list[str]] = defaultdict(list)
    for who, n in counts.items():
        by_count[n].append(who)
    return [
        "Relais par position : " + " ; ".join(per_position),
        "Relais par participant : " + " ; ".join(
            f"{'jamais' if n == 0 else f'{n} fois'} : {', '.join(sorted(ws, key=_natural))}"
            for n, ws in sorted(by_count.items(), reverse=True)),
    ]


def _role(seat: str) -> str:
    return "l’attaquant" if seat == "attack" else "la défense"


def _check_simultaneous(m: Movement, board_at: dict, errors: _Collector) -> int:
    """Errors for an étui at two tables in a position (team match: rooms that do not mirror each other);
    returns, in a team match, how many (quarter, étui) are played in mirror in both rooms."""
    mirrored = 0
    for (position, board), rounds in sorted(board_at.items()):
        if len(rounds) < 2:
            continue
        tables = ", ".join(str(r.table) for r in rounds)
        if not m.format.rooms:
            errors.add("simultané", f"position {position} : l’étui {board} est à plusieurs tables ({tables})")
            continue
        pairs = Counter((r.seat_map.get("attack"), r.seat_map.get("defence")) for r in rounds)
        if any(pairs[(b, a)] != n for (a, b), n in pairs.items()):
            errors.add("simultané", f"quart temps {position} : l’étui {board} est joué aux tables {tables} "
                                    "sans que les deux salles se répondent")
        else:
            mirrored += 1
    return mirrored


def _check_comparisons(m: Movement, errors: _Collector) -> None:
    """Quadrettes / team match: A's attacker vs B's defence needs B's attacker vs A's defence."""
    faced: dict[tuple[str, str], set[int]] = defaultdict(set)
    for r in m.rounds:
        sm = r.seat_map
        if "attack" in sm and "defence" in sm:
            faced[(sm["attack"], sm["defence"])].update(r.boards)
    for (a, d), boards in sorted(faced.items()):
        if a == d:
            continue
        mirror = faced.get((d, a), set())
        if boards != mirror:
            lost = sorted(boards - mirror)
            if lost:
                errors.add("comparaison", f"comparaison incomplète {a}–{d} : l’attaquant de {d} ne joue pas "
                                          f"contre la défense de {a} les étuis {_ranges(lost)}")


def _balance(m: Movement, warnings: _Collector) -> str:
    """Each entrant attacks 1 / (seats at a table) of its étuis: ¼ in the individual, ½ in triplettes (an NS
    triplette attacks the étuis taken N or S); the individual's defensive places equal (SPEC §7)."""
    individual = m.format.ranks_players
    takers = {b.number: b.taker for b in m.boards}
    attack: Counter = Counter()
    total: Counter = Counter()
    places: dict[str, Counter] = defaultdict(Counter)
    for r in m.rounds:
        for board in r.boards:
            taker = takers.get(board, default_taker(board))
            for seat, who in r.seats:
                total[who] += 1
                if individual:
                    if seat == taker:
                        attack[who] += 1
                    else:
                        place = ("devant" if seat == LEFT[taker] else
                                 "milieu" if seat == PARTNER[taker] else "fond")
                        places[who][place] += 1
                elif taker in seat:   # triplettes: NS attacks N/S takers, EW attacks E/W
                    attack[who] += 1
    share = len(m.format.seats)
    off = 0
    for who in total:
        ideal = total[who] / share
        if abs(attack[who] - ideal) >= 1:
            off += 1
            warnings.add("équilibre", f"{who} attaque {attack[who]} étui{'s' if attack[who] > 1 else ''} sur {total[who]} "
                                      f"(attendu {ideal:g})")
        if individual:
            counts = [places[who][p] for p in ("devant", "milieu", "fond")]
            if max(counts) - min(counts) > 1:
                off += 1
                warnings.add("équilibre", f"{who} : places en défense déséquilibrées (devant {counts[0]}, "
                                          f"milieu {counts[1]}, fond {counts[2]})")
    fraction = "¼" if share == 4 else "½"
    if off:
        return f"{off} déséquilibre{'s' if off > 1 else ''} (voir les avertissements)"
    extra = " ; places en défense équilibrées" if individual else ""
    return f"chaque participant attaque {fraction} des étuis{extra}"


def _natural(entrant: str) -> tuple[str, int, str]:
    """« J10 » after « J2 »: letters, then the number."""
    head = entrant.rstrip("0123456789")
    tail = entrant[len(head):]
    return (head, int(tail) if tail else -1, entrant)


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 5 → « 1–3, 5 »."""
    out: list[str] = []
    start = prev = None
    for n in numbers:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(f"{start}–{prev}" if prev != start else f"{start}")
            start = prev = n
    if start is not None:
        out.append(f"{start}–{prev}" if prev != start else f"{start}")
    return ", ".join(out)
