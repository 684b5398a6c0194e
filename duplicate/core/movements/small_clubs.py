"""Individual movements for small clubs: 3 and 4 tables (SPEC §7, seed « Mouvement Howell FFT »).

Rule.  The FFT booklet (seed ``fft-fascicule-free-play-ocr.txt``) has players change orientation at
3 and 4 tables: each player keeps a number (« joueur n° 7 ») and a personal card gives table and
orientation per position.  Its Howell tables are for free play: the 4-table one is an affine plane
(every pair meets once), which is exactly why it cannot carry étuis in duplicate — every table of a
later position holds one player from each earlier table, so no set of étuis could ever be played
twice.  The hard rule of duplicate comes first: no player plays an étui twice, no étui at two
tables at once; then meetings as few as possible.

Construction (ours; the seeds are silent).  A *block* is T positions played with T sets of étuis.
Each of the 4T players follows a permutation π of the sets (position p → set π(p)); the 4 players
with the same set at the same position sit at one table; set k sits at table ((k − p) mod T) + 1,
so the étuis go down one table per position as in the Rainbow.  Every étui of a block is therefore
played by all T tables (the most possible: a set can only be played by disjoint groups of 4) and
every player plays every étui of the block exactly once.  Two players meet once per position where
their permutations agree, so we pick permutations that agree rarely:

* 3 tables: the 6 permutations of S3, each for 2 players.  Six pairs (the « twins ») meet at each
  position of the block; every other pair meets at most once.  No 3-table movement avoids a repeated
  meeting after the first position (two partitions of 12 players into 3 tables of 4 always share a
  pair).
* 4 tables: the 12 even permutations (pairwise agreeing at most once) and the 4 odd permutations
  V4·(0 1) (a Latin square).  24 pairs meet twice, none three times.  Two positions without a repeat
  are already impossible with shared étuis (16 players but only 12 ordered pairs of distinct sets).

A second block (positions T+1 … 2T, new sets) reassigns the permutations to players by a
deterministic swap search that minimises the repeated meetings over the whole session.  Seats:
within a table, players take N, S, E, W in a rotating order so that orientations vary.  With 4 étuis
per set (takers N, S, E, W) every player attacks ¼ and takes each defensive place once per position,
whatever the orientation.  Default: 6 positions at 3 tables (as the FFT Howell), 4 at 4 tables (one
block: everybody plays every étui); at most 2T positions.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, permutations

from .model import Movement, MovementError, Round, build_rounds, default_takers

__all__ = ["generate_small", "SMALL_DEFAULT", "SMALL_MAX", "block_permutations"]

SMALL_DEFAULT = {3: 6, 4: 4}
SMALL_MAX = {3: 6, 4: 8}
SEAT_ORDER = ("N", "S", "E", "W")


def _parity(perm: tuple[int, ...]) -> int:
    return sum(1 for i, j in combinations(range(len(perm)), 2) if perm[i] > perm[j]) % 2


@lru_cache(maxsize=None)
def block_permutations(tables: int) -> tuple[tuple[int, ...], ...]:
    """The 4T permutations of one block (position → set), as chosen in the module docstring."""
    if tables == 3:
        return tuple(p for p in permutations(range(3)) for _ in range(2))
    if tables == 4:
        even = [p for p in permutations(range(4)) if _parity(p) == 0]
        klein = [(0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0)]
        odd = [tuple(k[i if i > 1 else 1 - i] for i in range(4)) for k in klein]   # k ∘ (0 1)
        return tuple(even + odd)
    raise ValueError(tables)


def _meetings(blocks: list[list[tuple[int, ...]]], positions: int, tables: int) -> dict[tuple[int, int], int]:
    count: dict[tuple[int, int], int] = {}
    players = len(blocks[0])
    for p in range(positions):
        b, q = divmod(p, tables)
        for x, y in combinations(range(players), 2):
            if blocks[b][x][q] == blocks[b][y][q]:
                count[(x, y)] = count.get((x, y), 0) + 1
    return count


def _cost(blocks: list[list[tuple[int, ...]]], positions: int, tables: int) -> int:
    return sum(m * (m - 1) for m in _meetings(blocks, positions, tables).values())


@lru_cache(maxsize=None)
def _assignments(tables: int, positions: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Permutation of each player for each block; the second block by deterministic swap search."""
    base = list(block_permutations(tables))
    blocks = [base]
    if positions > tables:
        second = base[3:] + base[:3]   # a deterministic start that already breaks the twins
        blocks.append(second)
        best = _cost(blocks, positions, tables)
        improved = True
        while improved:
            improved = False
            for i, j in combinations(range(len(second)), 2):
                if second[i] == second[j]:
                    continue
                second[i], second[j] = second[j], second[i]
                cost = _cost(blocks, positions, tables)
                if cost < best:
                    best, improved = cost, True
                else:
                    second[i], second[j] = second[j], second[i]
    return tuple(tuple(b) for b in blocks)


def generate_small(tables: int, positions: int | None, per: int) -> Movement:
    top = SMALL_MAX[tables]
    if positions is None:
        positions = SMALL_DEFAULT[tables]
    if positions < 1:
        raise MovementError("Il faut au moins une position.")
    if positions > top:
        raise MovementError(
            f"Avec {tables} tables, au plus {top} positions sans jouer deux fois un étui ; "
            f"proposez {top} positions.")
    blocks = _assignments(tables, positions)
    players = 4 * tables
    rounds = []
    for p in range(positions):
        b, q = divmod(p, tables)
        for k in range(tables):
            group = [x for x in range(players) if blocks[b][x][q] == k]
            seats = tuple((SEAT_ORDER[(i + p) % 4], f"J{x + 1}") for i, x in enumerate(group))
            seats = tuple(sorted(seats, key=lambda s: SEAT_ORDER.index(s[0])))
            board_set = b * tables + k
            table = (k - q) % tables + 1
            rounds.append(Round(p + 1, table, seats, tuple(range(board_set * per + 1, board_set * per + per + 1))))
    sets = tables * ((positions + tables - 1) // tables)
    meetings = _meetings([list(x) for x in blocks], positions, tables)
    repeated = sum(1 for m in meetings.values() if m > 1)
    notes = (f"Méthode : petit club à {tables} tables — les joueurs (J1 à J{players}) changent "
             "d’orientation ; chaque série d’étuis est jouée par toutes les tables de son bloc.",
             f"{sets} séries de {per} étuis ; aucun joueur ne joue deux fois un étui ; "
             f"{repeated} paire{'s' if repeated > 1 else ''} de joueurs se rencontre{'nt' if repeated > 1 else ''} "
             "plus d’une fois (minimum recherché).")
    if positions % tables == 1 and positions > tables:
        notes += ("La dernière position ouvre un nouveau bloc : ses étuis ne sont joués qu’une fois.",)
    return Movement("individual", tables, positions, default_takers(sets * per), build_rounds(rounds), notes)
