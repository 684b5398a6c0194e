"""A free-play deal's facts → each player's score, at 3, 4 and 5 players (SPEC §13).

Sources: booklet (``seeds/fft-fascicule-free-play-ocr.txt``) chapter 1, « La marque en donnes libres »
(p. 8–9), « Le jeu à 3 joueurs » and « Le jeu à 5 joueurs » (p. 10–11), the same text in
``seeds/rules-of-play.txt`` (clean, used where the OCR garbles the « ½ » signs).

* **The deal's score** ``s`` (per defender, signed: + made, − failed) is the duplicate one
  (`duplicate.core.scoring.score_deal`: (25 + d) × multiplier, poignées 20/30/40 to the winning side,
  petit au bout 10 × multiplier, chelem +400/+200/−200, a defence's chelem 200 to each defender): the
  booklet says at 3 and at 5 « le calcul des points alloués aux défenseurs est le même qu'à quatre
  joueurs ».
* **Half points** (3 and 5 players): « il faut compter au ½ point près. Si le nombre de points n'est pas
  entier, le ½ point va toujours au camp gagnant » — 40½ with 2 bouts is 40 (failed by 1), 41½ is 42
  (made by 1). At 4 players the points are whole (SPEC §3).
* **Shares**: each defender marks −s; the attack marks s × (number of defenders), so that the deal sums
  to zero: ×3 at 4 players (« le preneur marque trois fois ce total »), ×2 at 3 (« les points du preneur
  sont multipliés par 2 »), at 5 with a partner 3s shared « 2/3 pour le preneur, 1/3 pour le
  partenaire » (2s and s), at 5 alone (« s'il s'est appelé » or the called card in the chien) 4s.
* **A table of 5**: the booklet (p. 11) gives two games, and we take both. Its preamble: « un des joueurs
  (le mort) procède à la distribution aux 4 autres joueurs et ne prend part à la partie en cours. Le mort
  ne compte pas dans les comptes de cette partie » — a deal at 4 (whole points, ×3) where the ``dead``
  player marks 0; its rules: 15 cards each, a chien of 3, a called king, « le total des cinq scores (du
  preneur, du Partenaire et de chacun des trois défenseurs) est donc égal à 0 » — the game at 5. A deal
  with a ``dead`` player is the first, a deal of five players the second.
* **Poignées** by table size: 3 players 13/15/18 trumps, 4 players 10/13/15, 5 players 8/10/13 (booklet
  p. 10–11); the bonus stays 20/30/40. Shown poignées must fit in the 22 trumps (Excuse included).
* A deal where everyone passed (« passed ») scores 0 for all (it is redealt: booklet p. 5).

Checks: at 4 players the facts go through the duplicate card model (`score_facts`: impossible points,
bouts, petit au bout, chelem are refused). At 3 and 5 players — our choice, the card model being built for
4 hands of 18 — the points (0 to 91 by halves), the bouts, the poignées that fit in the trumps and the petit
au bout's side (it needs a bout in the side's tricks) are checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from duplicate.core.scoring import (
    Chelem, Contract, PetitAuBout, Poignee, ScoreError, needed_points, score_deal, score_facts,
)

__all__ = ["TABLE_SIZES", "POIGNEE_TRUMPS", "DealFacts", "counted_points", "deal_score", "share", "parse_points"]

TABLE_SIZES = (3, 4, 5)
#: Trumps (the Excuse may stand for one) each poignée needs, by table size (booklet p. 7, 10, 11).
POIGNEE_TRUMPS = {
    3: {"simple": 13, "double": 15, "triple": 18},
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}
_TRUMPS = 22  # 21 trumps and the Excuse


def parse_points(value) -> Fraction:
    """The taker's card points as typed (int, float, « 40,5 », « 40½ ») → an exact Fraction, by halves."""
    if isinstance(value, bool):
        raise ScoreError(f"nombre de points illisible : {value!r}")
    if isinstance(value, str):
        text = value.strip().replace(",", ".").replace("½", ".5").replace(" ", "")
        if text.startswith(".5"):
            text = "0" + text
        try:
            value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ScoreError(f"nombre de points illisible : « {value} »") from None
    try:
        points = Fraction(value)
    except (TypeError, ValueError, OverflowError):
        raise ScoreError(f"nombre de points illisible : {value!r}") from None
    if points.denominator not in (1, 2) or not 0 <= points <= 91:
        raise ScoreError(f"nombre de points impossible : {value} (0 à 91, par demi-points)")
    return points


def counted_points(points, bouts: int, players: int) -> int:
    """The whole points the taker counts: at 3 and 5 players the half point goes to the winning side
    (booklet p. 10: 40½ with 2 bouts → 40, failed by 1; 41½ → 42, made by 1); at 4 they are whole."""
    points = parse_points(points)
    needed = needed_points(bouts)
    if points.denominator == 1:
        return int(points)
    if players == 4:
        raise ScoreError(f"à 4 joueurs les points sont entiers : {float(points):g}".replace(".", ","))
    whole = points.numerator // 2  # the lower whole number
    return whole + 1 if whole >= needed else whole


@dataclass(frozen=True)
class DealFacts:
    """What the North writes on the feuille de marque for one deal."""

    contract: Contract
    points: Fraction
    bouts: int
    poignees: tuple[Poignee, ...] = ()
    petit_au_bout: PetitAuBout | None = None
    chelem: Chelem | None = None

    @classmethod
    def of(cls, contract, points, bouts, poignees: Iterable = (), petit_au_bout=None, chelem=None) -> "DealFacts":
        """Facts from the interchange's words (SPEC §13), refused with a French `ScoreError`."""
        contract = contract if isinstance(contract, Contract) else Contract.parse(contract)
        if not isinstance(bouts, int) or isinstance(bouts, bool):
            raise ScoreError(f"nombre de bouts illisible : {bouts!r}")
        needed_points(bouts)
        try:
            kinds = tuple(sorted((Poignee(p) for p in poignees), key=lambda p: p.bonus))
            side = PetitAuBout(petit_au_bout) if petit_au_bout is not None else None
            chelem = Chelem(chelem) if chelem is not None else None
        except (ValueError, TypeError) as error:
            raise ScoreError(f"valeur inconnue : {error}") from None
        return cls(contract, parse_points(points), bouts, kinds, side, chelem)

    @property
    def made(self) -> bool:
        return self.points >= needed_points(self.bouts)


def _check(facts: DealFacts, players: int) -> None:
    """The checks at 3 and 5 players (module docstring); French `ScoreError`."""
    trumps = sum(POIGNEE_TRUMPS[players][p.value] for p in facts.poignees)
    if len(facts.poignees) > players or trumps > _TRUMPS:
        shown = " + ".join(p.value for p in facts.poignees)
        limits = ", ".join(f"{kind} {count}" for kind, count in POIGNEE_TRUMPS[players].items())
        raise ScoreError(f"poignées {shown} impossibles à {players} joueurs : il y a 22 atouts (Excuse "
                         f"comprise) et il en faut {limits}")
    if facts.petit_au_bout is PetitAuBout.TAKER and facts.bouts == 0:
        raise ScoreError("petit au bout au preneur avec 0 bout : le petit serait dans ses plis (1 bout au moins)")
    if facts.petit_au_bout is PetitAuBout.DEFENCE and facts.bouts == 3:
        raise ScoreError("petit au bout à la défense quand le preneur a les 3 bouts : le petit serait dans ses plis")


def deal_score(facts: DealFacts, players: int) -> int:
    """The deal's score per defender, signed (+ made), at ``players`` (3, 4 or 5) players."""
    if players not in TABLE_SIZES:
        raise ScoreError(f"table de {players} joueurs : le jeu se joue à 3, 4 ou 5")
    poignees = [p.value for p in facts.poignees]
    if players == 4:
        return score_facts(facts.contract, counted_points(facts.points, facts.bouts, 4), facts.bouts, poignees,
                           facts.petit_au_bout, facts.chelem)
    _check(facts, players)
    points = counted_points(facts.points, facts.bouts, players)
    return score_deal(facts.contract, points, facts.bouts, poignees, facts.petit_au_bout, facts.chelem)


def share(score: int, taker: str, defenders: Sequence[str], partner: str | None = None,
          dead: str | None = None) -> dict[str, int]:
    """Each player's mark for a deal of per-defender score ``score``: defenders −s, the attack s × the
    number of defenders (the taker alone, or 2/3 and 1/3 with a partner at 5), the « mort » 0.

    >>> share(106, "E", ["N", "S", "W"])
    {'E': 318, 'N': -106, 'S': -106, 'W': -106}
    """
    if partner == taker:
        partner = None  # « s'il s'est appelé » : he plays alone
    people = [taker, *defenders] + ([partner] if partner else []) + ([dead] if dead else [])
    if len(set(people)) != len(people):
        raise ScoreError("un même joueur figure deux fois dans la donne")
    size = len(people) - (1 if dead else 0)
    if size not in TABLE_SIZES or (partner and size != 5) or (dead and size != 4):
        raise ScoreError(f"donne à {size} joueurs{' avec un mort' if dead else ''}{' et un partenaire' if partner else ''} : "
                         "3 ou 4 joueurs, ou 5 dont un mort, avec ou sans partenaire appelé")
    attack = score * len(defenders)
    marks = {taker: attack if partner is None else 2 * attack // 3}
    if partner is not None:
        marks[partner] = attack // 3
    marks.update((defender, -score) for defender in defenders)
    if dead:
        marks[dead] = 0
    return marks
