"""Scoring one deal at four players, and the score validator (SPEC §3).

Sources: ``seeds/rules-of-play.txt`` (« Le calcul des scores », « La poignée »,
« Le petit au bout », « Le chelem ») and ``seeds/tournament-rules-club.txt``
(whose poignée recap "10/20/30" is wrong; 20/30/40 is used).

* Points needed by the bouts the taker holds at the end: 0 → 56, 1 → 51,
  2 → 41, 3 → 36.  ``d = |points − needed|``; "juste fait" is made.
* Base = (25 + d) × multiplier (prise 1, garde 2, garde sans 4, garde contre 6).
* Poignées (simple 20, double 30, triple 40), shown by any player, are not
  multiplied and go to the side that wins the contract.
* Petit au bout: 10 × multiplier to the side that takes the last trick holding
  the petit, whatever the result.
* Chelem: announced and made +400, made unannounced +200, announced and failed
  −200; a chelem by the defence gives each defender 200 more.

The *score* is the taker's per-defender score, signed (+ made, − failed); it is
what the fiche ambulante records.  The taker's own total is three times it.

**Validation.**  Duplicate imposes the Garde (team matches: Garde, Garde Sans,
Garde Contre).  :func:`reachable_scores` enumerates every (tricks won, bouts,
card points, poignées, petit au bout, chelem) the cards allow and scores each:

* the taker's pile holds ``4 × tricks`` cards, plus the 6 of the chien/écart
  except in a Garde Contre; at the end the Excuse stays with the side that held
  it, a low card being given back, so counts are kept — except in a chelem where
  the defence plays its Excuse (it keeps it: 77 cards to the taker, the half
  point going to the taker as in the seed's +582 example, 87 points);
* the taker's card points with ``k`` cards and ``b`` bouts lie between the
  smallest and the largest sum those cards can make, and the defence's pile
  must be possible too (both sums of real card values);
* taking no trick is a chelem by the defence, taking all 18 is a made chelem;
  the petit au bout needs the petit on the side that wins the last trick;
* poignées sum to 0, 20, 30 or 40 (two simples = 40; the 22 trumps and Excuse
  allow no other pair).

Our choice where the seeds are silent: a score only reachable when the taker
wins exactly one trick, or all tricks but one without a chelem, is accepted
with a warning for the arbiter ("théorique"): such card distributions happen
on paper, almost never at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from .cards import PACK, TOTAL_HALF_POINTS

__all__ = [
    "Contract", "Chelem", "PetitAuBout", "Poignee", "ScoreError", "ScoreCheck",
    "needed_points", "score_deal", "reachable_scores", "check_score",
]


class ScoreError(ValueError):
    """A score that cannot be computed or accepted; the message is French."""


class Contract(str, Enum):
    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    @property
    def multiplier(self) -> int:
        return {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}[self.value]

    @property
    def french(self) -> str:
        return {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde Sans",
                "garde_contre": "Garde Contre"}[self.value]

    @property
    def taker_has_dog(self) -> bool:
        """The chien (or the écart) counts for the taker, except in a Garde Contre."""
        return self is not Contract.GARDE_CONTRE

    @classmethod
    def parse(cls, text: str) -> "Contract":
        key = str(text).strip().lower().replace(" ", "_").replace("-", "_")
        try:
            return cls(key)
        except ValueError:
            raise ScoreError(f"contrat inconnu « {text} » (prise, garde, garde_sans, garde_contre)") from None


class Poignee(str, Enum):
    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"

    @property
    def bonus(self) -> int:
        return {"simple": 20, "double": 30, "triple": 40}[self.value]


class PetitAuBout(str, Enum):
    TAKER = "taker"
    DEFENCE = "defence"


class Chelem(str, Enum):
    ANNOUNCED_MADE = "announced_made"
    UNANNOUNCED_MADE = "unannounced_made"
    ANNOUNCED_FAILED = "announced_failed"
    DEFENCE = "defence"

    @property
    def bonus(self) -> int:
        return {"announced_made": 400, "unannounced_made": 200,
                "announced_failed": -200, "defence": -200}[self.value]


_NEEDED = {0: 56, 1: 51, 2: 41, 3: 36}


def needed_points(bouts: int) -> int:
    """Points the taker needs with ``bouts`` bouts in his tricks at the end."""
    if bouts not in _NEEDED:
        raise ScoreError(f"nombre de bouts impossible : {bouts} (0 à 3)")
    return _NEEDED[bouts]


def score_deal(contract, points: int, bouts: int, poignees=(), petit_au_bout=None, chelem=None) -> int:
    """The taker's per-defender score, signed.

    >>> score_deal("garde", 49, 2, ["simple"], "taker")
    106
    """
    contract = Contract.parse(contract) if not isinstance(contract, Contract) else contract
    if not 0 <= points <= 91:
        raise ScoreError(f"nombre de points impossible : {points} (0 à 91)")
    needed = needed_points(bouts)
    made = points >= needed
    sign = 1 if made else -1
    total = sign * (25 + abs(points - needed)) * contract.multiplier
    total += sign * sum(Poignee(p).bonus for p in poignees)
    if petit_au_bout is not None:
        side = PetitAuBout(petit_au_bout)
        total += (10 if side is PetitAuBout.TAKER else -10) * contract.multiplier
    if chelem is not None:
        total += Chelem(chelem).bonus
    return total


# --- reachable set ------------------------------------------------------------

_NON_BOUT_HALF_POINTS = sorted((c.half_points for c in PACK if not c.is_bout), reverse=True)
_POIGNEE_TOTALS = (0, 20, 30, 40)


def _pile_bounds(cards: int, bouts: int) -> tuple[int, int] | None:
    """Smallest and largest half-point sum of ``cards`` cards holding ``bouts`` bouts."""
    others = cards - bouts
    if others < 0 or others > len(_NON_BOUT_HALF_POINTS) or not 0 <= bouts <= 3:
        return None
    low = 9 * bouts + others
    high = 9 * bouts + sum(_NON_BOUT_HALF_POINTS[:others])
    return low, high


def _point_range(taker_cards: int, bouts: int, half_to_taker: bool):
    """Whole points the taker can count with that pile (and the defence the rest)."""
    mine = _pile_bounds(taker_cards, bouts)
    theirs = _pile_bounds(len(PACK) - taker_cards, 3 - bouts)
    if mine is None or theirs is None:
        return range(0)
    low = max(mine[0], TOTAL_HALF_POINTS - theirs[1])
    high = min(mine[1], TOTAL_HALF_POINTS - theirs[0])
    # an odd half-point total (77 cards) is rounded to the side named.
    to_points = (lambda h: (h + 1) // 2) if half_to_taker else (lambda h: h // 2)
    return range(to_points(low), to_points(high) + 1) if low <= high else range(0)


def _piles(contract: Contract):
    """(tricks, taker's card count, Excuse to the defence in a chelem)."""
    dog = 6 if contract.taker_has_dog else 0
    for tricks in range(19):
        yield tricks, 4 * tricks + dog, False
    yield 18, 72 + dog - 1, True


def _outcomes(contract: Contract):
    """Yield (scores, theoretical, with a chelem bonus) for every possible end of play; ``scores`` is a
    range: the card points a pile allows give made (or failed) bases in steps of the multiplier."""
    mult = contract.multiplier
    for tricks, cards, excuse_to_defence in _piles(contract):
        if tricks == 18:
            bonuses = [Chelem.UNANNOUNCED_MADE.bonus, Chelem.ANNOUNCED_MADE.bonus]
        elif tricks == 0:
            bonuses = [Chelem.DEFENCE.bonus, Chelem.DEFENCE.bonus + Chelem.ANNOUNCED_FAILED.bonus]
        else:
            bonuses = [0, Chelem.ANNOUNCED_FAILED.bonus]
        theoretical = tricks in (1, 17)
        for bouts in range(4 if not excuse_to_defence else 3):
            pab_sides = [0]
            if tricks >= 1 and bouts >= 1:
                pab_sides.append(10 * mult)
            if tricks <= 17 and bouts <= 2:
                pab_sides.append(-10 * mult)
            points = _point_range(cards, bouts, half_to_taker=excuse_to_defence)
            needed = _NEEDED[bouts]
            for sign, span in ((1, range(max(points.start, needed), points.stop)),
                               (-1, range(points.start, min(points.stop, needed)))):
                if not span:
                    continue
                # base = sign × (25 + |points − needed|) × multiplier: one step of the multiplier a point
                ends = [sign * (25 + abs(p - needed)) * mult for p in (span[0], span[-1])]
                low, high = min(ends), max(ends)
                for bonus in bonuses:
                    for poignee in _POIGNEE_TOTALS:
                        for pab in pab_sides:
                            offset = sign * poignee + pab + bonus
                            yield range(low + offset, high + offset + 1, mult), theoretical, bonus != 0


@lru_cache(maxsize=None)
def reachable_scores(contract: Contract, chelem: bool = False) -> dict[int, bool]:
    """Every score the contract can produce → True when it is only theoretical, in increasing order.

    Without ``chelem`` only ends of play with no chelem bonus count (the taker
    wins 1 to 17 tricks and announced none); with it, every end of play.  A
    score is theoretical when every end of play giving it is.  Computed once a
    process per (contract, chelem).
    """
    contract = Contract.parse(contract) if not isinstance(contract, Contract) else contract
    every: list[range] = []
    practical: list[range] = []
    for scores, theoretical, with_chelem in _outcomes(contract):
        if chelem or not with_chelem:
            every.append(scores)
            if not theoretical:
                practical.append(scores)
    practical_scores = _union(practical)
    return {score: score not in practical_scores for score in sorted(_union(every))}


def _union(ranges: list[range]) -> set[int]:
    """The numbers of many ranges (one step, several of them overlapping), overlaps merged first."""
    found: set[int] = set()
    by_residue: dict[tuple[int, int], list[range]] = {}
    for span in ranges:
        by_residue.setdefault((span.step, span.start % span.step), []).append(span)
    for (step, _), spans in by_residue.items():
        spans.sort(key=lambda span: span.start)
        start, stop = spans[0].start, spans[0].stop
        for span in spans[1:]:
            if span.start > stop:
                found.update(range(start, stop, step))
                start = span.start
            stop = max(stop, span.stop)
        found.update(range(start, stop, step))
    return found


@dataclass(frozen=True)
class ScoreCheck:
    """Outcome of :func:`check_score`: ``ok`` is False for an impossible score."""

    score: int
    contract: Contract
    ok: bool
    message: str
    warning: str | None = None


def signed(value) -> str:
    """A signed number with a true minus sign, as printed on a fiche: +106, −42."""
    return f"{value:+d}".replace("-", "−")


def check_score(score: int, contract="garde", chelem: bool = False) -> ScoreCheck:
    """Accept or refuse an entered score for the contract, with a French message.

    A score that needs a chelem bonus is refused unless ``chelem`` says the
    fiche marks one (the arbiter is called for every chelem, announced or made).
    """
    contract = Contract.parse(contract) if not isinstance(contract, Contract) else contract
    reachable = reachable_scores(contract, chelem)
    name = contract.french
    if score in reachable:
        warning = None
        if reachable[score]:
            warning = (f"score {signed(score)} possible en théorie seulement pour une {name} "
                       "(répartition extrême des cartes) : à vérifier par l'arbitre")
        return ScoreCheck(score, contract, True, f"score {signed(score)} possible pour une {name}", warning)
    reasons = []
    if all(value % 2 == 0 for value in reachable) and score % 2:
        reasons.append(f"un score de {name} est toujours pair")
    below = max((v for v in reachable if v < score), default=None)
    above = min((v for v in reachable if v > score), default=None)
    if below is not None and above is not None and below < 0 < above:
        reasons.append(f"aucun score n'est possible entre {signed(below)} et {signed(above)}")
    elif above is None:
        reasons.append(f"le plus fort score possible est {signed(below)}")
    elif below is None:
        reasons.append(f"le plus faible score possible est {signed(above)}")
    else:
        reasons.append(f"scores possibles les plus proches : {signed(below)} et {signed(above)}")
    if not chelem and score in reachable_scores(contract, True):
        reasons.append("ce score n'est possible qu'avec un chelem : indiquez-le et appelez l'arbitre")
    qualifier = "" if chelem else " sans chelem"
    return ScoreCheck(score, contract, False, f"score {signed(score)} impossible pour une {name}{qualifier} : "
                      + " ; ".join(reasons))
