"""Coefficients between two positions (or two sessions) of a free-play championship, with elimination.

Sources (``seeds/fft-fascicule-free-play-ocr.txt``): the FFT software « permet en outre d'appliquer des
coefficients entre 2 positions ou 2 séances successives » (chapter 2, l. ~664–665); the regional
championship, art. 3 (chapter 3, l. ~1139–1148): « Il est possible d'appliquer un coefficient entre 2
séances (ou 2 positions) à condition d'éliminer au moins un pourcentage des participants : Elimination de
10 % des joueurs => Coeff de 1,10 ; 20 % => 1,15 ; 30 % => 1,20 ; 40 % => 1,25 ; 50 % => 1,30 », and « il
est souhaitable de tendre vers … élimination de joueurs à chaque position ».

The booklet does not say which score is multiplied. **Our reading** (what an FFT arbiter expects of a
championship with eliminations):

* A **stage** is (position k, coefficient c, e players eliminated). Before position k the ranking of the
  positions played so far (art. 29 ties, earlier stages' coefficients applied) is cut: the e last of the
  players still in the running are eliminated, the others qualified (ties at the cut: the ranking's order,
  as for the carré final). Withdrawn players (art. 27) are not counted and never qualify.
* From position k on, each position's bilan of a qualified player is multiplied by c; the positions before
  keep their weight. With several stages each coefficient holds from its position to the next stage's —
  they replace one another, they do not multiply (a stage at position 3 with 1,10 and one at position 5
  with 1,15: positions 1–2 × 1, 3–4 × 1,10, 5 and after × 1,15).
* An eliminated player keeps his total (the positions he played, with their coefficients) and is ranked
  after every player qualified at that stage: the last stage's qualified first, then those it eliminated,
  then those eliminated at the stage before, … each group by its total and art. 29. An eliminated player
  may not play (marks, or a seat in the movement) at his stage's position or after: refused, the
  elimination must be real (on the web: the carré final, which seats only the finalists).
* **The check** (`allowed_coefficient`): the share eliminated is e over the players in the running before
  the stage; the coefficient may not exceed the table's value for the largest threshold reached (22 players,
  5 eliminated: 22,7 % → at most 1,15), must be more than 1, and no coefficient is allowed under 10 %.
  A smaller coefficient than allowed is accepted (« au moins un pourcentage »).
* Arithmetic is exact (`Fraction`); penalties (art. 26, the code's faults) are taken off the weighted total
  unweighted. Totals with a coefficient are shown with two decimals (``duplicate.french.rounded``, the one
  rounding rule of the project, half away from zero); the ranking compares the exact values.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from .ranking import Entry, rank_entries

__all__ = ["ELIMINATION_COEFFICIENTS", "CoefficientError", "Stage", "allowed_coefficient", "check_stage",
           "parse_coefficient", "apply_stages", "french_decimal"]

#: Art. 3 of the regional championship: (share of players eliminated at least, highest coefficient allowed).
ELIMINATION_COEFFICIENTS: tuple[tuple[Fraction, Fraction], ...] = (
    (Fraction(10, 100), Fraction(110, 100)),
    (Fraction(20, 100), Fraction(115, 100)),
    (Fraction(30, 100), Fraction(120, 100)),
    (Fraction(40, 100), Fraction(125, 100)),
    (Fraction(50, 100), Fraction(130, 100)),
)


class CoefficientError(ValueError):
    """A coefficient or a stage that the rule refuses; the message is French."""


@dataclass(frozen=True)
class Stage:
    """From ``position`` on, the qualified players' bilans × ``coefficient``; ``eliminated`` players out."""

    position: int
    coefficient: Fraction
    eliminated: int


def french_decimal(value: Fraction, decimals: int = 2) -> str:
    """« 1,15 », « 22,73 » (half away from zero): for the messages of this module only (the core does not
    import the web's formatter; the same rule as ``duplicate.french.rounded``)."""
    scaled = abs(value) * 10 ** decimals
    units = int(scaled + Fraction(1, 2))
    text = str(units).rjust(decimals + 1, "0")
    text = f"{text[:-decimals]},{text[-decimals:]}" if decimals else text
    return ("−" if value < 0 and units else "") + text


def parse_coefficient(value) -> Fraction:
    """A coefficient as typed or stored: « 1,15 », "1.15", 1.15 → Fraction(23, 20); French error otherwise."""
    if isinstance(value, bool) or value is None:
        raise CoefficientError("coefficient attendu (par exemple 1,15)")
    text = str(value).strip().replace(",", ".")
    try:
        coefficient = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise CoefficientError(f"coefficient « {value} » illisible (par exemple 1,15)") from None
    return coefficient


def allowed_coefficient(eliminated: int, players: int) -> Fraction | None:
    """The highest coefficient art. 3 allows when ``eliminated`` of ``players`` are eliminated; None under
    10 %."""
    if players <= 0:
        return None
    share = Fraction(eliminated, players)
    allowed = None
    for threshold, coefficient in ELIMINATION_COEFFICIENTS:
        if share >= threshold:
            allowed = coefficient
    return allowed


def _eliminated(count: int) -> str:
    """« 1 éliminé », « 3 éliminés » (0 and 1 singular, as ``duplicate.french.counted``)."""
    return f"{count} éliminé{'s' if abs(count) > 1 else ''}"


def check_stage(stage: Stage, players: int) -> None:
    """Refuse (French `CoefficientError`) a stage the rule does not allow for ``players`` in the running."""
    if stage.position < 2:
        raise CoefficientError("un coefficient s’applique entre deux positions : à partir de la position 2")
    if not 1 <= stage.eliminated < players:
        raise CoefficientError(f"{_eliminated(stage.eliminated)} sur {players} joueurs : il faut en éliminer "
                               f"au moins 1 et en garder au moins 1")
    if stage.coefficient <= 1:
        raise CoefficientError(f"coefficient {french_decimal(stage.coefficient)} : il doit dépasser 1")
    allowed = allowed_coefficient(stage.eliminated, players)
    share = french_decimal(Fraction(100 * stage.eliminated, players))
    if allowed is None:
        raise CoefficientError(f"{_eliminated(stage.eliminated)} sur {players} ({share} %) : il faut éliminer "
                               "au moins 10 % des joueurs pour appliquer un coefficient")
    if stage.coefficient > allowed:
        raise CoefficientError(f"coefficient {french_decimal(stage.coefficient)} refusé : "
                               f"{_eliminated(stage.eliminated)} sur {players} ({share} %) permet{'tent' if stage.eliminated > 1 else ''} au plus {french_decimal(allowed)}")


def _weigh(entry: Entry, position: int, coefficient: Fraction, until: int | None) -> None:
    """Multiply the bilans of ``position`` ≤ p < ``until`` by ``coefficient`` (from weight 1)."""
    for p, bilan in list(entry.positions.items()):
        if p >= position and (until is None or p < until):
            weighted = bilan * coefficient
            entry.points += weighted - bilan
            entry.positions[p] = weighted


def apply_stages(table: Mapping[str, Entry], stages: Sequence[Stage],
                 seated: Mapping[str, Iterable[int]] | None = None) -> list[Entry]:
    """The ranking with the stages' coefficients and eliminations (module docstring), best first, each
    entry's ``rank`` set; the entries' points and position bilans become the weighted (exact) ones.
    `CoefficientError` (French) when a stage is not allowed or an eliminated player played after his cut —
    or, with ``seated`` (player → the positions the movement seats him at), is seated after it."""
    ordered = sorted(stages, key=lambda s: s.position)
    if len({s.position for s in ordered}) != len(ordered):
        raise CoefficientError("deux coefficients à la même position")
    for index, stage in enumerate(ordered):
        until = ordered[index + 1].position if index + 1 < len(ordered) else None
        for entry in table.values():
            _weigh(entry, stage.position, stage.coefficient, until)
    running = [entry for entry in table.values() if not entry.withdrawn]
    out_groups: list[list[Entry]] = []
    for stage in ordered:
        check_stage(stage, len(running))
        # the ranking before the cut: the positions before the stage, with the earlier coefficients
        before = {}
        for entry in running:
            copy = Entry(entry.id, penalty=entry.penalty, made=entry.made,
                         garde_contre_made=entry.garde_contre_made, garde_sans_made=entry.garde_sans_made,
                         positions={p: b for p, b in entry.positions.items() if p < stage.position})
            copy.points = sum(copy.positions.values(), Fraction(0))
            before[entry.id] = copy
        cut = [e.id for e in rank_entries(before)]
        kept = set(cut[:len(cut) - stage.eliminated])
        out = [entry for entry in running if entry.id not in kept]
        for entry in out:
            late = sorted(p for p in {*entry.positions, *((seated or {}).get(entry.id, ()))} if p >= stage.position)
            if late:
                raise CoefficientError(f"{entry.id} est éliminé avant la position {stage.position} mais joue "
                                       f"la position {late[0]}")
        for entry in out:
            entry.eliminated_at = stage.position
        out_groups.append(out)
        running = [entry for entry in running if entry.id in kept]
    withdrawn = [entry for entry in table.values() if entry.withdrawn]
    ranked: list[Entry] = []
    for group in [running, *reversed(out_groups), withdrawn]:
        offset = len(ranked)  # a group's places follow the groups above it
        for entry in rank_entries({e.id: e for e in group}):
            entry.rank += offset
            ranked.append(entry)
    return ranked
