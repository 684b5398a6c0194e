"""Relais: individual headcounts that are not a multiple of 4 (SPEC §7 « relais »).

Rule (SPEC §7, issue 11 point 2).  With n players, T = n // 4 full tables and r = n mod 4: at every
position exactly r players rest (« relais ») and everyone else plays at full tables; no one rests
twice before everyone has rested once; no one plays an étui twice; a resting player's percentages are
over the étuis played (the ranking only sees the étuis a player played).  The free-play booklet's
answer — a table of 3 — does not exist in duplicate.

Construction (ours; the seeds are silent).  We build the ordinary movement for T tables; its 4T
entrant ids are *trajectories* (a seat's path through tables and étui sets).  The r extra players
get the ids of the lines N, S, E of table T + 1 (``N7``, ``S7`` for 26 players; ``J13``… after
``J12`` for the 3- and 4-table movements whose players change orientation), see
:func:`individual_entrant_ids`.  At position 1 the extras rest.  At each position q ≥ 2, r
trajectories are *vacated*: their occupants rest at q, and the players who rested at q − 1 take them
over from q on.  A returner must never meet an étui again, so the trajectory B it takes must play,
from q to the end, no étui the returner already played.

The vacated trajectories are found by a deterministic depth-first search, position by position:

* only occupants who have rested the fewest times may rest (so no one rests twice before everyone
  has rested once);
* a returner first tries the trajectories that play, at q, the étui set it missed by resting (in
  the Rainbow that is the trajectory of its line « one step behind », which always works), then every
  other trajectory; the same line first (a player keeps their line when it can); among the first
  ones the fewest meetings with players already met; then the movement's order;
* when no choice works the search backtracks; after a fixed budget it gives up.  When a trajectory
  plays every étui set (as many positions as tables), a returner can only take a trajectory whose
  first sets cover its own: the Rainbow always has one, field designs and searched tables often not.
  So when the number of positions was not asked for, we look for the most positions where the relais
  fit (a bisection; a failed search still gives the prefix it reached) (:func:`generate_with_relais`);
  when it was asked for, a French :class:`MovementError` says so.

The result has ``players`` = n and ``rests`` = per position the resting ids; its rounds name the
real players, so fiches, the validator and the cards need nothing else.
"""

from __future__ import annotations

from dataclasses import replace

from .individual import generate_individual
from .model import Movement, MovementError, Round, build_rounds

__all__ = ["individual_entrant_ids", "add_relais", "generate_with_relais", "RELAIS_LINES"]

RELAIS_LINES = ("N", "S", "E")
_BUDGET = 300


def individual_entrant_ids(players: int) -> list[str]:
    """Every entrant id of an individual of ``players`` players, in draw order: N1, S1, E1, W1, N2…
    for T = players // 4 ≥ 5 tables, then the relais N(T+1), S(T+1), E(T+1); J1… for 3 and 4 tables
    (12 to 19 players)."""
    tables, rest = divmod(players, 4)
    if tables < 3:
        raise MovementError(f"Un tournoi individuel demande au moins 12 joueurs (3 tables) ; reçu {players}.")
    if tables in (3, 4):
        return [f"J{k}" for k in range(1, players + 1)]
    ids = [f"{line}{t}" for t in range(1, tables + 1) for line in ("N", "S", "E", "W")]
    return ids + [f"{line}{tables + 1}" for line in RELAIS_LINES[:rest]]


def generate_with_relais(players: int, positions: int | None, per: int | None) -> Movement:
    """The individual movement for ``players`` (relais included); see the module docstring."""
    tables = len(individual_entrant_ids(players)) // 4
    if positions is not None:
        return add_relais(generate_individual(tables, positions, per), players)
    best = add_relais(generate_individual(tables, None, per), players, shorten=True)
    low, high = best.positions, generate_individual(tables, None, per).positions - 1
    while low < high:   # a bisection on the number of positions: the longest where the relais fit
        middle = (low + high + 1) // 2
        found = add_relais(generate_individual(tables, middle, per), players, shorten=True)
        if found.positions == middle:
            best, low = found, middle
        else:
            high = middle - 1
            if found.positions > best.positions:
                best, low = found, found.positions
    return best


def _line(entrant: str) -> str:
    return entrant[:1] if entrant[:1] in "NSEW" else ""


def add_relais(base: Movement, players: int, shorten: bool = False) -> Movement:
    """``base`` (an individual movement for players // 4 tables) with the relais of ``players``;
    ``shorten``: keep the longest prefix of positions where the relais fit instead of failing."""
    ids = individual_entrant_ids(players)
    rest = players % 4
    if rest == 0:
        return base
    plan = _Plan(base, ids[:len(ids) - rest], ids[len(ids) - rest:])
    occupants = plan.solve(shorten)
    if len(occupants) < base.positions:
        base = replace(base, positions=len(occupants),
                       rounds=tuple(r for r in base.rounds if r.position <= len(occupants)))
        used = {b for r in base.rounds for b in r.boards}
        base = replace(base, boards=tuple(b for b in base.boards if b.number in used))
    rounds = []
    for r in base.rounds:
        occupant = occupants[r.position]
        rounds.append(Round(r.position, r.table, tuple((seat, occupant[who]) for seat, who in r.seats), r.boards))
    playing = {p: set(o.values()) for p, o in occupants.items()}
    rests = tuple((p, tuple(e for e in ids if e not in playing[p])) for p in range(1, base.positions + 1))
    notes = base.notes + (
        f"{players} joueurs : {rest} joueur(s) au relais à chaque position ; chacun passe au plus une fois "
        "au relais avant que tous y soient passés ; un joueur qui revient reprend la place d’un autre "
        "(même ligne autant que possible) sans rejouer un étui.",)
    return replace(base, rounds=build_rounds(rounds), notes=notes, players=players, rests=rests)


class _Plan:
    """The search of the module docstring: ``occupant[p][trajectory]`` for every position p."""

    def __init__(self, base: Movement, trajectories: list[str], extras: list[str]):
        self.positions = base.positions
        self.trajectories = trajectories
        self.extras = extras
        self.sets: dict[str, list[frozenset[int]]] = {t: [frozenset()] * (base.positions + 1) for t in trajectories}
        self.table: dict[tuple[int, str], int] = {}
        self.at_table: dict[tuple[int, int], list[str]] = {}
        self.playing_set: dict[tuple[int, frozenset[int]], list[str]] = {}
        self.tables_at: dict[int, list[int]] = {}
        for r in base.rounds:
            boards = frozenset(r.boards)
            for _, who in r.seats:
                if who not in self.sets:
                    raise MovementError(f"mouvement de base inattendu : {who} n’est pas une place de {len(trajectories)}")
                self.sets[who][r.position] = boards
                self.table[(r.position, who)] = r.table
                self.playing_set.setdefault((r.position, boards), []).append(who)
            self.at_table[(r.position, r.table)] = [who for _, who in r.seats]
            self.tables_at.setdefault(r.position, []).append(r.table)
        self.order = {t: i for i, t in enumerate(trajectories)}
        self.nodes = 0

    def solve(self, shorten: bool) -> dict[int, dict[str, str]]:
        occupant = {t: t for t in self.trajectories}
        rests = {who: 0 for who in self.trajectories + self.extras}
        for who in self.extras:
            rests[who] = 1
        played: dict[str, set[int]] = {who: set() for who in rests}
        met: dict[str, set[str]] = {who: set() for who in rests}
        last_traj: dict[str, str] = {}
        self._play(1, occupant, played, met, last_traj)
        self.best: dict[int, dict[str, str]] = {1: dict(occupant)}
        result = self._position(2, occupant, list(self.extras), rests, played, met, last_traj, {1: dict(occupant)})
        if result is None and shorten:
            return self.best
        if result is None:
            raise MovementError(
                f"Impossible de répartir les relais de {len(rests)} joueurs sur ce mouvement de "
                f"{self.positions} positions sans faire rejouer un étui ; proposez moins de positions "
                "(ou laissez le nombre de positions au choix du générateur).")
        return result

    def _play(self, p, occupant, played, met, last_traj) -> list:
        """Record position p as played; return what to undo."""
        undo = []
        for t, who in occupant.items():
            new = self.sets[t][p] - played[who]
            played[who] |= new
            undo.append(("played", who, new))
            undo.append(("last", who, last_traj.get(who)))
            last_traj[who] = t
        for table in self.tables_at[p]:
            group = [occupant[x] for x in self.at_table[(p, table)]]
            for a in group:
                new = set(group) - {a} - met[a]
                met[a] |= new
                undo.append(("met", a, new))
        return undo

    @staticmethod
    def _undo(undo, played, met, last_traj) -> None:
        for what, who, value in reversed(undo):
            if what == "played":
                played[who] -= value
            elif what == "met":
                met[who] -= value
            elif value is None:
                last_traj.pop(who, None)
            else:
                last_traj[who] = value

    def _candidates(self, q, returner, occupant, chosen, rests, played, met, last_traj):
        """Trajectories the returner may take at q, best first (see the module docstring)."""
        floor = min(rests[occupant[t]] for t in self.trajectories if t not in chosen)
        past = played[returner]
        line = _line(last_traj.get(returner, returner))

        def fits(t):
            if t in chosen or rests[occupant[t]] != floor:
                return False
            return all(not (self.sets[t][p] & past) for p in range(q, self.positions + 1))

        def cost(t):
            mates = set()
            for p in range(q, self.positions + 1):
                mates.update(occupant[x] for x in self.at_table[(p, self.table[(p, t)])] if x != t)
            return (_line(t) != line, len(mates & met[returner]), self.order[t])

        first: list[str] = []
        previous = last_traj.get(returner)
        if previous is not None:
            missed = self.sets[previous][q - 1]
            first = [t for t in self.playing_set.get((q, missed), []) if fits(t)]
        yield from sorted(first, key=cost)
        others = (t for t in self.trajectories if _line(t) == line and t not in first)
        yield from (t for t in others if fits(t))
        yield from (t for t in self.trajectories if _line(t) != line and t not in first and fits(t))

    def _position(self, q, occupant, resting, rests, played, met, last_traj, history):
        if q > self.positions:
            return history
        return self._assign(q, 0, occupant, resting, {}, rests, played, met, last_traj, history)

    def _assign(self, q, i, occupant, resting, chosen, rests, played, met, last_traj, history):
        if i == len(resting):
            new_occupant = dict(occupant)
            now_resting = [occupant[t] for t in chosen]
            for t, who in chosen.items():
                new_occupant[t] = who
            for who in now_resting:
                rests[who] += 1
            undo = self._play(q, new_occupant, played, met, last_traj)
            history[q] = new_occupant
            if len(history) > len(self.best):
                self.best = dict(history)
            found = self._position(q + 1, new_occupant, now_resting, rests, played, met, last_traj, history)
            if found is not None:
                return found
            del history[q]
            self._undo(undo, played, met, last_traj)
            for who in now_resting:
                rests[who] -= 1
            return None
        returner = resting[i]
        for t in self._candidates(q, returner, occupant, chosen, rests, played, met, last_traj):
            self.nodes += 1
            if self.nodes > _BUDGET:
                return None
            chosen[t] = returner
            found = self._assign(q, i + 1, occupant, resting, chosen, rests, played, met, last_traj, history)
            if found is not None:
                return found
            del chosen[t]
        return None
