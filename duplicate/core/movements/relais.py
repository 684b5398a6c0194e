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

from .individual import generate_individual, layout_notes
from .designs import layout_for
from .model import Movement, MovementError, Round, boards_per_position as per_position, build_rounds

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
    """The individual movement for ``players`` (relais included); see the module docstring.

    The bisection reuses the search over the longest movement whenever the shorter movement is its
    prefix (same design, fewer positions: :func:`_is_prefix`), only with a nearer horizon; so a
    150-table evening builds the big movement once."""
    tables = len(individual_entrant_ids(players)) // 4
    if positions is not None or players % 4 == 0:
        return add_relais(generate_individual(tables, positions, per), players)
    full = generate_individual(tables, None, per)
    plan = _Plan(full, players)
    best, base = plan.solve(True), full
    low, high = len(best) - 1, full.positions - 1
    while low < high:   # a bisection on the number of positions: the longest where the relais fit
        middle = (low + high + 1) // 2
        if _is_prefix(tables, full.positions, middle):
            candidate, found = full, plan.solve(True, middle)
        else:
            candidate = generate_individual(tables, middle, per)
            found = _Plan(candidate, players).solve(True)
        if len(found) - 1 == middle:
            base, best, low = candidate, found, middle
        else:
            high = middle - 1
            if len(found) > len(best):
                base, best, low = candidate, found, len(found) - 1
    reached = len(best) - 1
    if base is full and reached < full.positions and _is_prefix(tables, full.positions, reached):
        # the same rounds as generate_individual(tables, reached), so its notes
        base = replace(_cut(full, reached), notes=layout_notes(tables, reached, per_position(per)))
    return _with_relais(base, players, best)


def _is_prefix(tables: int, longest: int, positions: int) -> bool:
    """Whether the movement of ``positions`` positions is the first positions of the longest one."""
    if tables < 5:
        return False
    short, long = layout_for(tables, positions), layout_for(tables, longest)
    return len(short.parts) == len(long.parts) and all(
        a.mods == b.mods and a.offsets == b.offsets[:positions] for a, b in zip(short.parts, long.parts))


def _line(entrant: str) -> str:
    return entrant[:1] if entrant[:1] in "NSEW" else ""


def add_relais(base: Movement, players: int, shorten: bool = False) -> Movement:
    """``base`` (an individual movement for players // 4 tables) with the relais of ``players``;
    ``shorten``: keep the longest prefix of positions where the relais fit instead of failing."""
    if players % 4 == 0:
        return base
    return _with_relais(base, players, _Plan(base, players).solve(shorten))


def _with_relais(base: Movement, players: int, history: list[list[str]]) -> Movement:
    """``base`` cut to the positions of ``history`` (per position, the player on each trajectory),
    its seats given to those players."""
    ids = individual_entrant_ids(players)
    rest = players % 4
    reached = len(history) - 1
    base = _cut(base, reached)
    slot = {t: i for i, t in enumerate(ids[:len(ids) - rest])}
    history = [[ids[who] for who in occupant] for occupant in history]
    rounds = [Round(r.position, r.table, tuple((seat, history[r.position][slot[who]]) for seat, who in r.seats),
                    r.boards) for r in base.rounds]
    rests = []
    for p in range(1, reached + 1):
        seated = set(history[p])
        rests.append((p, tuple(e for e in ids if e not in seated)))
    notes = base.notes + (
        f"{players} joueurs : {rest} joueur{'s' if rest > 1 else ''} au relais à chaque position ; chacun passe au plus une fois "
        "au relais avant que tous y soient passés ; un joueur qui revient reprend la place d’un autre "
        "(même ligne autant que possible) sans rejouer un étui.",)
    return replace(base, rounds=build_rounds(rounds), notes=notes, players=players, rests=tuple(rests))


def _cut(base: Movement, positions: int) -> Movement:
    """The first ``positions`` positions of ``base`` with their étuis."""
    if positions >= base.positions:
        return base
    base = replace(base, positions=positions, rounds=tuple(r for r in base.rounds if r.position <= positions))
    used = {b for r in base.rounds for b in r.boards}
    return replace(base, boards=tuple(b for b in base.boards if b.number in used))


class _Plan:
    """The search of the module docstring over the base movement's trajectories (by index) with bit
    masks of étui sets.  Players 0 … 4T − 1 start on their own trajectory, the extras follow;
    :meth:`solve` gives, per position, the occupant of each trajectory.  The state of a player is
    kept only where it changes (going to the relais, coming back), so a position costs the few
    players who move, not the whole field."""

    def __init__(self, base: Movement, players: int):
        ids = individual_entrant_ids(players)
        trajectories, extras = ids[:4 * (players // 4)], ids[4 * (players // 4):]
        self.positions = last = base.positions
        self.size = size = len(trajectories)
        self.players = size + len(extras)
        index = {t: i for i, t in enumerate(trajectories)}
        set_ids: dict[tuple[int, ...], int] = {}
        self.mask = [[0] * (last + 2) for _ in range(size)]        # mask[t][p]: the set t plays at p
        self.table = [[0] * (last + 2) for _ in range(size)]       # table[t][p]
        self.at_table: list[dict[int, list[int]]] = [{} for _ in range(last + 2)]
        self.playing_set: dict[tuple[int, int], list[int]] = {}
        mask, table, at_table, playing_set = self.mask, self.table, self.at_table, self.playing_set
        for r in base.rounds:
            p, bit = r.position, 1 << set_ids.setdefault(r.boards, len(set_ids))
            try:
                group = [index[who] for _, who in r.seats]
            except KeyError as error:
                raise MovementError(f"mouvement de base inattendu : {error.args[0]} n’est pas une place de {size}") from None
            for t in group:
                mask[t][p] = bit
                table[t][p] = r.table
            at_table[p][r.table] = group
            playing_set.setdefault((p, bit), []).extend(group)
        self.prefix = []                                  # prefix[t][p]: the sets t plays up to p
        for row in mask:
            acc, sums = 0, [0] * (last + 1)
            for p in range(1, last + 1):
                acc |= row[p]
                sums[p] = acc
            self.prefix.append(sums)
        self.line = [_line(t) for t in trajectories] + [_line(e) for e in extras]   # by trajectory / player
        self.same_line = {line: [t for t in range(size) if self.line[t] == line] for line in set(self.line)}
        self.other_lines = {line: [t for t in range(size) if self.line[t] != line] for line in set(self.line)}

    def solve(self, shorten: bool, horizon: int | None = None) -> list[list[int]]:
        """Occupants per position (index 0 unused) up to ``horizon`` (default: every position);
        ``shorten``: the longest prefix reached instead of failing."""
        size, players = self.size, self.players
        self.horizon = horizon or self.positions
        self.nodes = 0
        self.rests = [0] * size + [1] * (players - size)
        self.seated_by_rests = {0: size}                 # how many seated players have rested k times
        self.since = [1] * size + [0] * (players - size)  # on their current trajectory since
        self.played = [0] * players                       # sets played up to their last rest
        self.last = list(range(size)) + [-1] * (players - size)   # trajectory occupied last
        self.segments: list[list[tuple[int, int, int]]] = [[] for _ in range(players)]
        self.history: list[list[int]] = [[], list(range(size))]
        self.best = list(self.history)
        if self._position(2, list(range(size, players))):
            return self.history
        if shorten:
            return self.best
        raise MovementError(
            f"Impossible de répartir les relais de {players} joueurs sur ce mouvement de "
            f"{self.horizon} positions sans faire rejouer un étui ; proposez moins de positions "
            "(ou laissez le nombre de positions au choix du générateur).")

    def _met(self, who: int) -> set[int]:
        """Everyone ``who`` met before its rest."""
        met = set()
        for start, end, t in self.segments[who]:
            for p in range(start, end + 1):
                occupant = self.history[p]
                met.update(occupant[x] for x in self.at_table[p][self.table[t][p]])
        met.discard(who)
        return met

    def _floor(self, occupant, chosen) -> int:
        """The fewest rests among the seated players not already chosen to rest."""
        for k in sorted(self.seated_by_rests):
            if self.seated_by_rests[k] > sum(1 for t in chosen if self.rests[occupant[t]] == k):
                return k
        return 0

    def _candidates(self, q, returner, occupant, chosen):
        """Trajectories the returner may take at q, best first (see the module docstring)."""
        floor = self._floor(occupant, chosen)
        rests, prefix, past, h = self.rests, self.prefix, self.played[returner], self.horizon
        previous = self.last[returner]
        line = self.line[previous] if previous >= 0 else self.line[returner]

        def fitting(among):   # free, rested the fewest times, no set of the returner's from q to the horizon
            return (t for t in among if not prefix[t][h] & ~prefix[t][q - 1] & past
                    and rests[occupant[t]] == floor and t not in chosen)

        first: list[int] = []
        if previous >= 0:
            first = list(fitting(self.playing_set.get((q, self.mask[previous][q - 1]), [])))
        if len(first) > 1:
            met = self._met(returner)

            def cost(t):
                mates = set()
                for p in range(q, h + 1):
                    mates.update(occupant[x] for x in self.at_table[p][self.table[t][p]] if x != t)
                return (self.line[t] != line, len(mates & met), t)

            first.sort(key=cost)
        yield from first
        taken = set(first)
        yield from (t for t in fitting(self.same_line[line]) if t not in taken)
        yield from (t for t in fitting(self.other_lines[line]) if t not in taken)

    def _position(self, q, resting) -> bool:
        if q > self.horizon:
            return True
        return self._assign(q, 0, self.history[-1], resting, {})

    def _assign(self, q, i, occupant, resting, chosen) -> bool:
        if i == len(resting):
            return self._advance(q, occupant, chosen)
        for t in self._candidates(q, resting[i], occupant, chosen):
            self.nodes += 1
            if self.nodes > _BUDGET:
                return False
            chosen[t] = resting[i]
            if self._assign(q, i + 1, occupant, resting, chosen):
                return True
            del chosen[t]
        return False

    def _advance(self, q, occupant, chosen) -> bool:
        """Play position q with ``chosen`` (trajectory → returner); go on; undo on failure."""
        new_occupant = list(occupant)
        now_resting = [occupant[t] for t in chosen]
        saved = []
        for t in chosen:
            who = occupant[t]
            saved.append((who, self.played[who], self.since[who], self.last[who]))
            row, mask = self.mask[t], self.played[who]
            for p in range(self.since[who], q):
                mask |= row[p]
            self.played[who] = mask
            self.segments[who].append((self.since[who], q - 1, t))
            self.seated_by_rests[self.rests[who]] -= 1
            self.rests[who] += 1
        for t, who in chosen.items():
            saved.append((who, self.played[who], self.since[who], self.last[who]))
            new_occupant[t] = who
            self.since[who], self.last[who] = q, t
            self.seated_by_rests[self.rests[who]] = self.seated_by_rests.get(self.rests[who], 0) + 1
        self.history.append(new_occupant)
        if len(self.history) > len(self.best):
            self.best = list(self.history)
        if self._position(q + 1, now_resting):
            return True
        self.history.pop()
        for t, who in chosen.items():
            self.seated_by_rests[self.rests[who]] -= 1
        for who in now_resting:
            self.rests[who] -= 1
            self.seated_by_rests[self.rests[who]] += 1
            self.segments[who].pop()
        for who, played, since, last in reversed(saved):
            self.played[who], self.since[who], self.last[who] = played, since, last
        return False
