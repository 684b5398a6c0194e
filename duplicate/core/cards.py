"""Cards, seats and the interchange notation (SPEC §2).

The tarot pack has 78 cards: four suits of 14 (1–10, Valet, Cavalier, Dame, Roi),
21 trumps (atouts) and the Excuse.  Source: ``seeds/rules-of-play.txt``
("Valeur de chaque carte") for the card values, SPEC §2 for the notation.

Interchange notation (files, JSON, command line):

* suit cards: rank + suit — ranks ``1``–``10``, ``J`` (valet), ``C`` (cavalier),
  ``Q`` (dame), ``K`` (roi); suits ``S`` pique, ``H`` cœur, ``D`` carreau,
  ``C`` trèfle — e.g. ``KS``, ``CC`` (cavalier de trèfle), ``10D``, ``1H``;
* trumps ``1T``–``21T``;
* the Excuse ``EX``.

``Card.parse(text).notation == text`` for every card (and the converse), which
is what lets tests and files be written in notation strings.  French display
(``R♠``, ``C♣``, ``21``, ``Excuse``) is given by :attr:`Card.french`.

Card points: bouts (petit, 21, Excuse) and kings 4.5, queens 3.5, cavaliers 2.5,
valets 1.5, every other card 0.5; 91 in all.  Points are kept as *half-points*
(integers) so that arithmetic stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property

__all__ = [
    "Card", "Seat", "SEATS", "SUITS", "PACK", "EXCUSE", "PETIT", "VINGT_ET_UN",
    "BOUTS", "TOTAL_HALF_POINTS", "CardError", "parse_cards", "format_cards",
    "default_taker", "SEAT_NAMES", "LINE_NAMES",
]


class CardError(ValueError):
    """A card or a list of cards that cannot be read; the message is French."""


class Seat(str, Enum):
    """A seat at the table.  Play turns counter-clockwise: N → W → S → E → N."""

    N = "N"
    S = "S"
    E = "E"
    W = "W"

    @property
    def right(self) -> "Seat":
        """The player to the right, who plays next (right of N is W, of W is S...)."""
        return _RIGHT[self]

    @property
    def left(self) -> "Seat":
        """The player to the left (left of N is E)."""
        return _LEFT[self]

    @property
    def partner(self) -> "Seat":
        """The player facing (N–S, E–W)."""
        return _RIGHT[_RIGHT[self]]

    @property
    def french(self) -> str:
        return _SEAT_FRENCH[self]

    def defensive_places(self) -> dict[str, "Seat"]:
        """Defensive places relative to this seat as taker (SPEC §2).

        Left of the taker is the « place de devant », facing is the « place du
        milieu », right is the « place du fond »: taker N → devant E, milieu S,
        fond W.
        """
        return {"devant": self.left, "milieu": self.partner, "fond": self.right}

    @classmethod
    def parse(cls, text: str) -> "Seat":
        try:
            return cls(str(text).strip().upper())
        except ValueError:
            raise CardError(f"orientation inconnue « {text} » (attendu N, S, E ou O/W)") from None


_RIGHT = {Seat.N: Seat.W, Seat.W: Seat.S, Seat.S: Seat.E, Seat.E: Seat.N}
_LEFT = {v: k for k, v in _RIGHT.items()}
_SEAT_FRENCH = {Seat.N: "Nord", Seat.S: "Sud", Seat.E: "Est", Seat.W: "Ouest"}

#: Seats in the conventional order used by files and printouts.
SEATS: tuple[Seat, ...] = (Seat.N, Seat.S, Seat.E, Seat.W)

#: A seat's French name, by its letter (as screens, printouts and messages write it).
SEAT_NAMES: dict[str, str] = {seat.value: name for seat, name in _SEAT_FRENCH.items()}
#: A line's French name: a seat, a triplettes line (NS, EW) or a role of the PM kinds (attack, defence).
LINE_NAMES: dict[str, str] = {**SEAT_NAMES, "NS": "Nord-Sud", "EW": "Est-Ouest",
                              "attack": "Attaque", "defence": "Défense"}


def default_taker(number: int) -> str:
    """The taker seat of étui ``number`` when the deal names none: N, S, E, W in turn from étui 1
    (SPEC §2), ``(number − 1) mod 4``."""
    return SEATS[(int(number) - 1) % 4].value

#: Suit letter → (French name, symbol); the order is the traditional one
#: (pique, cœur, carreau, trèfle), also used to sort hands.
SUITS: dict[str, tuple[str, str]] = {
    "S": ("pique", "♠"),
    "H": ("cœur", "♥"),
    "D": ("carreau", "♦"),
    "C": ("trèfle", "♣"),
}
TRUMP = "T"
_FACE_RANKS = {"J": 11, "C": 12, "Q": 13, "K": 14}
_FACE_LETTERS = {v: k for k, v in _FACE_RANKS.items()}
_FACE_FRENCH = {11: "V", 12: "C", 13: "D", 14: "R"}
#: Half-points of suit cards by rank: valet 3, cavalier 5, dame 7, roi 9, others 1.
_SUIT_HALF_POINTS = {11: 3, 12: 5, 13: 7, 14: 9}


@dataclass(frozen=True, order=True)
class Card:
    """One card.  ``suit`` is ``S``/``H``/``D``/``C``, ``T`` (trump) or ``X`` (Excuse)."""

    sort_key: int
    suit: str
    rank: int

    @classmethod
    def make(cls, suit: str, rank: int) -> "Card":
        order = {"S": 0, "H": 1, "D": 2, "C": 3, TRUMP: 4, "X": 5}[suit]
        return cls(order * 100 + rank, suit, rank)

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read a card in interchange notation (case-insensitive)."""
        raw = str(text).strip().upper()
        card = _BY_NOTATION.get(raw)
        if card is None:
            raise CardError(f"carte inconnue « {text} »")
        return card

    @cached_property
    def notation(self) -> str:
        if self.suit == "X":
            return "EX"
        if self.suit == TRUMP:
            return f"{self.rank}T"
        return f"{_FACE_LETTERS.get(self.rank, self.rank)}{self.suit}"

    @property
    def french(self) -> str:
        """French display: ``R♠``, ``C♣``, ``10♦``, ``21``, ``Excuse``."""
        if self.suit == "X":
            return "Excuse"
        if self.suit == TRUMP:
            return str(self.rank)
        return f"{_FACE_FRENCH.get(self.rank, self.rank)}{SUITS[self.suit][1]}"

    @property
    def is_trump(self) -> bool:
        return self.suit == TRUMP

    @property
    def is_bout(self) -> bool:
        """The three bouts (oudlers): petit (1 of trump), 21 of trump, Excuse."""
        return self.suit == "X" or (self.suit == TRUMP and self.rank in (1, 21))

    @property
    def half_points(self) -> int:
        """Card value in half-points (bouts and kings 9, i.e. 4.5 points)."""
        if self.is_bout:
            return 9
        if self.suit == TRUMP:
            return 1
        return _SUIT_HALF_POINTS.get(self.rank, 1)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Card.parse({self.notation!r})"


def _build_pack() -> tuple[Card, ...]:
    cards = [Card.make(suit, rank) for suit in SUITS for rank in range(1, 15)]
    cards += [Card.make(TRUMP, rank) for rank in range(1, 22)]
    cards.append(Card.make("X", 0))
    return tuple(cards)


#: The 78 cards in a fixed canonical order (♠ ♥ ♦ ♣ by rank, trumps 1–21, Excuse).
PACK: tuple[Card, ...] = _build_pack()
_BY_NOTATION = {card.notation: card for card in PACK}
EXCUSE = Card.parse("EX")
PETIT = Card.parse("1T")
VINGT_ET_UN = Card.parse("21T")
BOUTS = frozenset({EXCUSE, PETIT, VINGT_ET_UN})
TOTAL_HALF_POINTS = sum(card.half_points for card in PACK)
assert len(PACK) == 78 and TOTAL_HALF_POINTS == 182


def parse_cards(items) -> tuple[Card, ...]:
    """Read a list of cards: a JSON-style list of strings or one space-separated string."""
    if isinstance(items, str):
        items = items.split()
    return tuple(Card.parse(item) for item in items)


def format_cards(cards) -> list[str]:
    """Cards sorted in canonical order, in notation."""
    return [card.notation for card in sorted(cards)]
