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

__all__ = [
    "Contract", "Chelem", "PetitAuBout", "Poignee", "ScoreError", "ScoreCheck",
    "needed_points", "score_deal", "reachable_scores", "check_score", "hand_fault", "POIGNEE_SETS",
    "score_facts",
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

@lru_cache(maxsize=None)
def _value_classes() -> tuple[tuple[int, int, bool], ...]:
    """The pack by value: (half-points, cards, may go to the écart), from the card model.

    Bouts, then kings (neither may be put in the écart: « ni roi ni bout au chien »), then the other
    cards by value (dames, cavaliers, valets, the low cards — low trumps among them).

    The card model is imported here, on the first call: only the card model's own checks
    (`_pile_points`) need it, not `check_score` nor `reachable_scores`, so ``rank`` does not build
    the 78 cards (issue 12)."""
    from .cards import BOUTS, PACK

    kings = [c for c in PACK if not c.is_bout and not c.is_trump and c.rank == 14]
    rest = [c for c in PACK if not c.is_bout and c not in kings]
    values = sorted({c.half_points for c in rest}, reverse=True)
    return ((9, len(BOUTS), False), (kings[0].half_points, len(kings), False),
            *((v, sum(c.half_points == v for c in rest), True) for v in values))


_ECART = 6
#: The poignées that can be shown together, by the number of trumps they need at four players (simple
#: 10, double 13, triple 15, the Excuse counting as one): two simples (20 trumps) fit in the 22, no
#: other pair does.
POIGNEE_SETS = ((), ("simple",), ("double",), ("triple",), ("simple", "simple"))
_POIGNEE_TOTALS = tuple(sorted({sum(Poignee(p).bonus for p in poignees) for poignees in POIGNEE_SETS}))
#: Where the Excuse ends when a side wins every trick: with its owner (``None``, counts kept), or kept
#: by the side that won no trick — the defence after the taker's chelem (seed: « reste la propriété de
#: la défense »), the taker after the defence's (« il met l'excuse en évidence et donnera une carte à
#: l'autre camp dès qu'il en aura l'occasion »: he never has one).
_ENDS = tuple((tricks, None) for tricks in range(19)) + ((18, "defence"), (0, "taker"))


@lru_cache(maxsize=None)
def _pile_points(contract: Contract, tricks: int, excuse: str | None) -> dict[int, frozenset[int]]:
    """Bouts in the taker's pile → the whole points it can count, at that end of play.

    The pile is every card of his ``tricks`` (4 each) plus, in a Prise or a Garde, his écart of 6 cards
    that holds neither king nor bout, in a Garde Sans the unseen chien (any cards), in a Garde Contre
    nothing (the chien goes to the defence); ± the Excuse (`_ENDS`). Every card is worth an odd number
    of half-points, so a pile of an odd count (the Excuse kept) has a half point: it goes to the
    taker, as in the seed's +582 example (86,5 → 87).

    Every way of taking the pile's cards from the pack's value classes is covered, class by class
    (state: cards still to take, écart cards still to find among the low classes → the half-points
    reachable so far), so that each count of bouts gets the exact set of its points.  Each set is a run
    of consecutive numbers (the rule: between the smallest and the largest sum, SPEC §3): a pile can
    trade one of its cards for one of the other side worth a point more (0,5 → valet → cavalier → dame
    → roi), one point at a time, and the half point of an odd pile rounds up; ``test_card_model_mutants``
    checks it for every end of play.
    """
    cards = 4 * tricks + (_ECART if contract.taker_has_dog else 0) + {None: 0, "taker": 1, "defence": -1}[excuse]
    ecart = _ECART if contract in (Contract.PRISE, Contract.GARDE) else 0
    classes = _value_classes()
    bout_value, bout_count, _ = classes[0]
    if excuse == "defence":  # the taker holds the two other bouts at most
        bout_count -= 1
    found: dict[int, frozenset[int]] = {}
    last = len(classes) - 1
    for bouts in range(1 if excuse == "taker" else 0, min(bout_count, cards) + 1):  # "taker": he holds the Excuse
        # (cards still to take, écart cards still to find) → the half-points reachable, as a bit set
        states: dict[tuple[int, int], int] = {(cards - bouts, ecart): 1 << (bouts * bout_value)}
        for index, (value, count, ecartable) in enumerate(classes[1:], start=1):
            following: dict[tuple[int, int], int] = {}
            for (remaining, ecart_left), halves in states.items():
                # the last class must complete the pile: only one count of it is of use
                counts = (remaining,) if index == last else range(min(count, remaining) + 1)
                for taken in counts:
                    if taken > count:
                        continue
                    key = (remaining - taken, max(0, ecart_left - taken) if ecartable else ecart_left)
                    following[key] = following.get(key, 0) | (halves << (taken * value))
            states = following
        halves = states.get((0, 0), 0)
        if halves:
            found[bouts] = frozenset((half + 1) // 2 for half in range(halves.bit_length()) if halves >> half & 1)
    return found


def _petit_sides(tricks: int, bouts: int, mult: int) -> list[int]:
    """The petit au bout bonuses possible: none, the taker's (he wins a trick, the last, holding the
    petit: a bout in his pile), the defence's (it wins the last trick and the petit stays with it)."""
    sides = [0]
    if tricks >= 1 and bouts >= 1:
        sides.append(10 * mult)
    if tricks <= 17 and bouts <= 2:
        sides.append(-10 * mult)
    return sides


def _outcomes(contract: Contract):
    """Yield (scores, theoretical, with a chelem bonus) for every possible end of play; ``scores`` is a
    range: the pile's points are consecutive (`_pile_points`), and consecutive card points give made (or
    failed) bases one step of the multiplier apart."""
    mult = contract.multiplier
    for tricks, excuse in _ENDS:
        if tricks == 18:
            bonuses = [Chelem.UNANNOUNCED_MADE.bonus, Chelem.ANNOUNCED_MADE.bonus]
        elif tricks == 0:
            bonuses = [Chelem.DEFENCE.bonus, Chelem.DEFENCE.bonus + Chelem.ANNOUNCED_FAILED.bonus]
        else:
            bonuses = [0, Chelem.ANNOUNCED_FAILED.bonus]
        theoretical = tricks in (1, 17)
        for bouts, all_points in _pile_points(contract, tricks, excuse).items():
            pab_sides = _petit_sides(tricks, bouts, mult)
            needed = _NEEDED[bouts]
            points = range(min(all_points), max(all_points) + 1)  # consecutive numbers (`_pile_points`)
            for sign, span in ((1, range(max(points.start, needed), points.stop)),
                               (-1, range(points.start, min(points.stop, needed)))):
                if not span:
                    continue
                # base = sign × (25 + |points − needed|) × multiplier: one multiplier a point
                ends = [sign * (25 + abs(p - needed)) * mult for p in (span[0], span[-1])]
                low, high = min(ends), max(ends)
                for bonus in bonuses:
                    for poignee in _POIGNEE_TOTALS:
                        for pab in pab_sides:
                            offset = sign * poignee + pab + bonus
                            yield range(low + offset, high + offset + 1, mult), theoretical, bonus != 0


#: The ends of play each chelem mark of the calculator allows (``None``: the taker wins 1 to 17 tricks).
_CHELEM_ENDS = {
    None: tuple((t, None) for t in range(1, 18)),
    Chelem.ANNOUNCED_MADE: ((18, None), (18, "defence")),
    Chelem.UNANNOUNCED_MADE: ((18, None), (18, "defence")),
    Chelem.ANNOUNCED_FAILED: tuple((t, None) for t in range(1, 18)),
    Chelem.DEFENCE: ((0, None), (0, "taker")),
}
_CHELEM_WORDS = {None: "sans chelem", Chelem.ANNOUNCED_MADE: "avec un chelem réussi",
                 Chelem.UNANNOUNCED_MADE: "avec un chelem réussi", Chelem.ANNOUNCED_FAILED: "avec un chelem chuté",
                 Chelem.DEFENCE: "avec un chelem de la défense"}


def hand_fault(contract, points: int, bouts: int, poignees=(), petit_au_bout=None, chelem=None) -> str | None:
    """Why no deal can end with these (French), or None when one can (the calculator's check, `score`).

    Derived from the same card model as :func:`reachable_scores` (`_pile_points`), so that a score the
    calculator gives is one the validator accepts. A Chelem « announced and failed » is a taker who won
    1 to 17 tricks (no trick at all is the defence's chelem, « defence »)."""
    contract = Contract.parse(contract) if not isinstance(contract, Contract) else contract
    chelem = Chelem(chelem) if chelem is not None else None
    side = PetitAuBout(petit_au_bout) if petit_au_bout is not None else None
    shown = tuple(sorted(Poignee(p).value for p in poignees))
    if shown not in {tuple(sorted(s)) for s in POIGNEE_SETS}:
        return (f"poignées {' + '.join(shown)} impossibles dans une même donne : il y a 22 atouts (Excuse "
                "comprise) et une simple en demande 10, une double 13, une triple 15")
    if side is PetitAuBout.TAKER and bouts == 0:
        return "petit au bout au preneur avec 0 bout : le petit serait dans ses plis (1 bout au moins)"
    if side is PetitAuBout.DEFENCE and bouts == 3:
        return "petit au bout à la défense quand le preneur a les 3 bouts : le petit serait dans ses plis"
    ends = _CHELEM_ENDS[chelem]
    words = _CHELEM_WORDS[chelem]
    possible = sorted({p for tricks, excuse in ends for p in _pile_points(contract, tricks, excuse).get(bouts, ())})
    if not possible:
        return f"{bouts} {'bouts impossibles' if bouts > 1 else 'bout impossible'} pour le preneur {words}"
    if not any(points in _pile_points(contract, t, e).get(bouts, ()) for t, e in ends):
        return (f"{points} points avec {bouts} bout{'s' if bouts > 1 else ''} impossibles en {contract.french} {words} "
                f"(de {possible[0]} à {possible[-1]} points)")
    mult = contract.multiplier
    pab = 0 if side is None else (10 if side is PetitAuBout.TAKER else -10) * mult
    if not any(points in _pile_points(contract, t, e).get(bouts, ()) and pab in _petit_sides(t, bouts, mult)
               for t, e in ends):
        camp = "au preneur" if side is PetitAuBout.TAKER else "à la défense"
        return f"petit au bout {camp} impossible {words} : ce camp ne fait aucun pli"
    return None


@lru_cache(maxsize=None)
def reachable_scores(contract: Contract, chelem: bool = False) -> dict[int, bool]:
    """Every score the contract can produce → True when it is only theoretical, in increasing order.

    Without ``chelem`` only ends of play with no chelem bonus count (the taker
    wins 1 to 17 tricks and announced none); with it, every end of play.  A
    score is theoretical when every end of play giving it is.

    Read from `reachable_table`, the sets `derive_reachable_scores` computes from the card model, written
    out once by ``scripts/write_reachable_table.py``: deriving them takes about 60 ms a process, more than
    the ``rank`` of a 150-table file spends on everything else of its check (issue 12).
    ``tests/core/test_scoring.py`` fails when the table and the card model part.
    """
    from .reachable_table import REACHABLE

    contract = Contract.parse(contract) if not isinstance(contract, Contract) else contract
    scores, theoretical = REACHABLE[contract.value, bool(chelem)]
    theoretical = frozenset(theoretical)
    return {score: score in theoretical for score in scores}


def derive_reachable_scores(contract: Contract, chelem: bool = False) -> dict[int, bool]:
    """`reachable_scores` computed from the card model (`_outcomes`): what ``reachable_table`` holds."""
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


def signed(value: int) -> str:
    """A score as a fiche shows it, with a true minus sign: « +106 », « −42 », « 0 » (zero has no sign)."""
    return f"{value:+d}".replace("-", "−") if value else "0"


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
                       "(répartition extrême des cartes) : à vérifier par l’arbitre")
        return ScoreCheck(score, contract, True, f"score {signed(score)} possible pour une {name}", warning)
    reasons = []
    if all(value % 2 == 0 for value in reachable) and score % 2:
        reasons.append(f"un score de {name} est toujours pair")
    below = max((v for v in reachable if v < score), default=None)
    above = min((v for v in reachable if v > score), default=None)
    if below is not None and above is not None and below < 0 < above:
        reasons.append(f"aucun score n’est possible entre {signed(below)} et {signed(above)}")
    elif above is None:
        reasons.append(f"le plus fort score possible est {signed(below)}")
    elif below is None:
        reasons.append(f"le plus faible score possible est {signed(above)}")
    else:
        reasons.append(f"scores possibles les plus proches : {signed(below)} et {signed(above)}")
    if not chelem and score in reachable_scores(contract, True):
        reasons.append("ce score n’est possible qu’avec un chelem : indiquez-le et appelez l’arbitre")
    qualifier = "" if chelem else " sans chelem"
    return ScoreCheck(score, contract, False, f"score {signed(score)} impossible pour une {name}{qualifier} : "
                      + " ; ".join(reasons))


def score_facts(contract, points: int, bouts: int, poignees=(), petit_au_bout=None, chelem=None) -> int:
    """The score of a deal told by its facts, as the North types them at the table (SPEC §12), after
    refusing, with a French `ScoreError`, the combinations the cards cannot produce (`hand_fault`: the
    same card model as the validator and the `score` command), then a score `check_score` would refuse."""
    if not isinstance(points, int) or not 0 <= points <= 91:
        raise ScoreError(f"nombre de points impossible : {points} (0 à 91)")
    needed_points(bouts)
    kinds = tuple(sorted(Poignee(p).value for p in poignees))
    fault = hand_fault(contract, points, bouts, kinds, petit_au_bout, chelem)
    if fault:
        raise ScoreError(fault)
    chelem = Chelem(chelem) if chelem is not None else None
    side = PetitAuBout(petit_au_bout) if petit_au_bout is not None else None
    score = score_deal(contract, points, bouts, kinds, side, chelem)
    check = check_score(score, contract, chelem=chelem is not None)
    if not check.ok:
        raise ScoreError(check.message)
    return score
