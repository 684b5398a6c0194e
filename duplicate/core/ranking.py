"""Percentages and rankings: individual and triplettes (SPEC §5).

Source: ``seeds/duplicate-tournaments.txt``, « 2ème étape » and « 3ème étape »
(individual) and « Le classement en triplettes ».

* Attack % = mean of the notes as taker; defence % = mean of the notes as
  defender.
* Global % = ¼ attack + ¾ defence (individual), ½ attack + ½ defence
  (triplettes).  With no attack deal the global is the defence % (and the
  converse), and the row is flagged — our reading of SPEC §5.
* Penalties: percentage points, either taken off one étui's note (``board``
  given) or off the global % (our choice of representation of the seed's
  « pénalités »).
* General ranking: global % descending; exact ties share the place
  (« ex æquo »: 1, 2, 2, 4).
* Alternated ranking (the reference for a one-session tournament): each line
  (N, S, E, W; or NS, EW) is ranked by global %; the firsts of every line,
  sorted by global %, take places 1..L, the seconds the next L places, and so
  on; when a line runs out the later groups are smaller.  Ties inside a line
  are ordered by id (the seed is silent); exact ties inside a group share the
  place.
* Withdrawn and « hors classement » entrants (SPEC §11, `core.evening`): an entrant
  out of the ranking (fill-in player, substitute) gets no place and takes none
  from anyone: the others are ranked as if it were absent.  A withdrawn entrant
  (booklet, art. 27: « classé dernier ») is ranked after everyone who stayed;
  the withdrawn are ordered among themselves by global %, ex æquo as usual, in
  the general and in the alternated ranking alike.
* Several sessions: total = Σ session global % × session coefficient (default
  1); the general ranking of the totals is the reference.

All arithmetic is exact (:class:`fractions.Fraction`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from collections.abc import Collection, Iterable, Mapping

from .formats import FORMATS
from .topage import TableNote

__all__ = [
    "WEIGHTS", "Penalty", "Standing", "standings", "general_ranks", "alternated_ranks",
    "rank_standings", "session_totals", "shared_places",
]

#: (attack weight, defence weight) by kind of tournament ranked by percentage (`core.formats`, SPEC §5).
WEIGHTS = {f.id: f.weights for f in FORMATS if f.weights is not None}


_ZERO = Fraction(0)


@dataclass(frozen=True)
class Penalty:
    """Percentage points taken off an entrant's global % (or off one étui's note)."""

    entrant: str
    points: Fraction
    reason: str = ""
    board: int | None = None


@dataclass(frozen=True)
class Standing:
    """One entrant's percentages; ``rank``/``alternated_rank`` once ranked."""

    entrant: str
    line: str
    attack: Fraction | None
    defence: Fraction | None
    global_: Fraction
    attack_count: int
    defence_count: int
    penalty: Fraction = Fraction(0)
    rank: int | None = None
    alternated_rank: int | None = None

    @property
    def flagged(self) -> bool:
        """True when the global % rests on attack or defence alone."""
        return self.attack is None or self.defence is None


def _mean(sums: dict[int, int], count: int) -> Fraction | None:
    """The exact mean of ``count`` notes from their numerators summed in integers per denominator
    (`_add`; a tournament's notes have few denominators, one per number of tables an étui was played
    at): one Fraction made at the end."""
    if not count:
        return None
    common = lcm(*sums)
    return Fraction(sum(numerator * (common // denominator) for denominator, numerator in sums.items()),
                    common * count)


def _add(sums: dict[int, int], note: Fraction) -> None:
    """Add a note to the sums of `_mean`: its numerator to those over its denominator."""
    denominator = note.denominator
    sums[denominator] = sums.get(denominator, 0) + note.numerator


def _less(note: Fraction, penalty: Fraction | None) -> Fraction:
    """A note less an étui penalty, if any (no new Fraction when there is none)."""
    return note if penalty is None else note - penalty


def standings(kind: str, lines: Mapping[str, str], notes: Iterable[TableNote],
              penalties: Iterable[Penalty] = ()) -> list[Standing]:
    """Percentages of every entrant named in ``lines`` (entrant id → line).

    Each table note is split into numerator and denominator once, for its taker and its defenders alike
    (a 150-table individual has 4,200 table notes and 16,800 notes of players)."""
    attack_weight, defence_weight = WEIGHTS[kind]
    board_penalty: dict[tuple[str, int], Fraction] = {}
    global_penalty: dict[str, Fraction] = {}
    for penalty in penalties:
        if penalty.board is None:
            global_penalty[penalty.entrant] = global_penalty.get(penalty.entrant, 0) + penalty.points
        else:
            key = (penalty.entrant, penalty.board)
            board_penalty[key] = board_penalty.get(key, 0) + penalty.points
    attack: dict[str, dict[int, int]] = {entrant: {} for entrant in lines}
    defence: dict[str, dict[int, int]] = {entrant: {} for entrant in lines}
    attack_count = dict.fromkeys(lines, 0)
    defence_count = dict.fromkeys(lines, 0)
    for note in notes:
        taker_note = note.taker_note
        if taker_note is None:
            continue
        result = note.result
        taker = result.taker
        attack_count[taker] += 1
        if board_penalty:
            board = result.board
            _add(attack[taker], _less(taker_note, board_penalty.get((taker, board))))
            for defender in result.defence:
                defence_count[defender] += 1
                _add(defence[defender], _less(note.defence_note, board_penalty.get((defender, board))))
            continue
        denominator, numerator = taker_note.denominator, taker_note.numerator
        sums = attack[taker]
        sums[denominator] = sums.get(denominator, 0) + numerator
        denominator, numerator = note.defence_note.denominator, note.defence_note.numerator
        for defender in result.defence:
            defence_count[defender] += 1
            sums = defence[defender]
            sums[denominator] = sums.get(denominator, 0) + numerator
    rows = []
    for entrant, line in lines.items():
        a, d = _mean(attack[entrant], attack_count[entrant]), _mean(defence[entrant], defence_count[entrant])
        if a is None and d is None:
            global_ = Fraction(0)
        elif a is None:
            global_ = d
        elif d is None:
            global_ = a
        else:
            global_ = attack_weight * a + defence_weight * d
        penalty = global_penalty.get(entrant, _ZERO)
        rows.append(Standing(entrant, line, a, d, global_ - penalty if penalty else global_, attack_count[entrant],
                             defence_count[entrant], penalty))
    return rows


def _exact_keys(scores: Mapping[str, Fraction]) -> Mapping[str, object]:
    """Sort keys in the exact order of the scores: for Fractions (and ints) their numerators over a common
    denominator — integers, equal exactly when the scores are, and compared far faster than Fractions;
    any other numbers (the PM's Decimals) are their own keys."""
    values = scores.values()
    if not all(type(value) in (Fraction, int) for value in values):
        return scores
    common = lcm(*(value.denominator for value in values))
    return {entrant: value.numerator * (common // value.denominator) for entrant, value in scores.items()}


def general_ranks(scores: Mapping[str, Fraction]) -> dict[str, int]:
    """Competition ranking by score descending: equal scores share the place."""
    keys = _exact_keys(scores)
    ordered = sorted(keys, key=lambda entrant: (-keys[entrant], entrant))
    ranks: dict[str, int] = {}
    for index, entrant in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        same = previous is not None and keys[previous] == keys[entrant]
        ranks[entrant] = ranks[previous] if same else index + 1
    return ranks


def alternated_ranks(scores: Mapping[str, Fraction], lines: Mapping[str, str]) -> dict[str, int]:
    """The alternated ranking: k-th of every line together, group after group."""
    keys = _exact_keys(scores)
    by_line: dict[str, list[str]] = {}
    for entrant in sorted(keys, key=lambda e: (-keys[e], e)):
        by_line.setdefault(lines[entrant], []).append(entrant)
    ranks: dict[str, int] = {}
    place = 1
    depth = max((len(members) for members in by_line.values()), default=0)
    for k in range(depth):
        group = {members[k]: keys[members[k]] for members in by_line.values() if k < len(members)}
        for entrant, rank in general_ranks(group).items():
            ranks[entrant] = place + rank - 1
        place += len(group)
    return ranks


def rank_standings(rows: Iterable[Standing], withdrawn: Collection[str] = (),
                   out_of_ranking: Collection[str] = ()) -> list[Standing]:
    """Fill in general and alternated ranks; best first, then the out-of-ranking rows (no rank).

    ``withdrawn`` entrants come after all the others; ``out_of_ranking`` ones get no place."""
    rows = list(rows)
    keys = _exact_keys({row.entrant: row.global_ for row in rows})
    general: dict[str, int] = {}
    alternated: dict[str, int] = {}
    offset = 0
    for last in (False, True):
        group = [row for row in rows if row.entrant not in out_of_ranking and (row.entrant in withdrawn) == last]
        scores = {row.entrant: keys[row.entrant] for row in group}
        lines = {row.entrant: row.line for row in group}
        general.update({e: offset + rank for e, rank in general_ranks(scores).items()})
        alternated.update({e: offset + rank for e, rank in alternated_ranks(scores, lines).items()})
        offset += len(group)
    ranked = [_ranked(row, general.get(row.entrant), alternated.get(row.entrant)) for row in rows]
    return sorted(ranked, key=lambda row: (row.rank is None, row.rank or 0, -keys[row.entrant], row.entrant))


def _ranked(row: Standing, rank: int | None, alternated_rank: int | None) -> Standing:
    """``dataclasses.replace(row, rank=…, alternated_rank=…)``, its fields copied at once rather than
    through ``__init__`` and one frozen ``__setattr__`` each (10 µs a row); equal and hashed alike."""
    ranked = object.__new__(Standing)
    object.__setattr__(ranked, "__dict__", {**row.__dict__, "rank": rank, "alternated_rank": alternated_rank})
    return ranked


def session_totals(sessions: Iterable[tuple[Fraction | int, Mapping[str, Fraction]]]) -> dict[str, Fraction]:
    """Σ session global % × coefficient, for every entrant of any session."""
    totals: dict[str, Fraction] = {}
    for coefficient, globals_ in sessions:
        for entrant, value in globals_.items():
            totals[entrant] = totals.get(entrant, Fraction(0)) + Fraction(coefficient) * value
    return totals


def shared_places(rows: Iterable[Mapping], key: str = "rank") -> set:
    """The places (``row[key]``) held by more than one row: the « ex æquo » a ranking marks. A row without a
    place (None) shares none."""
    counts: dict[object, int] = {}
    for row in rows:
        if row.get(key) is not None:
            counts[row[key]] = counts.get(row[key], 0) + 1
    return {place for place, count in counts.items() if count > 1}
