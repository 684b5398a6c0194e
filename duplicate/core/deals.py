"""Deals (donnes): validation and reproducible generation (SPEC §2).

Validity (``seeds/duplicate-tournaments.txt``, ``seeds/tournament-rules-club.txt``):
four hands of 18 cards and a chien of 6, the 78 cards all distinct; a hand
whose only trump is the petit without the Excuse ("petit sec") makes the deal
invalid — it is redealt.

Generation, for étuis prepared by the arbiter.  The seeds ask for hands that
are "incontestablement prenable" for the imposed Garde in the taker's seat;
they do not say how to measure that, nor how to shuffle.  Our choices:

* **Randomness** — a SHA-256 stream, like BigDeal for bridge: block ``i`` of
  the stream for étui ``b`` at attempt ``a`` is
  ``SHA-256("tarot-deals/1|<seed>|<b>|<a>|<i>")`` (UTF-8, decimal integers).
  Unsigned big-endian 32-bit words are read from the stream and turned into
  integers below ``n`` by rejection (words ≥ ``2**32 - 2**32 % n`` are
  skipped), then a Fisher–Yates shuffle (``i`` from 77 down to 1, swap ``i`` with
  ``randbelow(i + 1)``) of the canonical pack :data:`~duplicate.core.cards.PACK`
  gives the order; cards 0–17 go to N, 18–35 to S, 36–53 to E, 54–71 to W,
  72–77 to the chien.  Nothing depends on Python's ``random`` module, so the
  same seed gives the same deals on any machine and any Python version.
* **Redeal** — attempt ``a`` = 0, 1, 2… until the deal has no petit sec and its
  strongest hand reaches :data:`GARDE_THRESHOLD`.
* **Taker seat** — the strongest hand (ties: first in N, S, E, W order) is
  swapped into the étui's taker seat.
* **Takers** — in each group of four consecutive étuis (1–4, 5–8, …) the takers
  are N, S, E and W once each, in an order drawn from
  ``SHA-256("tarot-deals/1|<seed>|takers|<group>|<i>")`` (same shuffle), so that
  every player attacks one étui in four and takes each defensive place in turn.
* **Dealer** — drawn from ``SHA-256("tarot-deals/1|<seed>|dealer|<b>|<i>")``:
  any of the four seats, so the lead (by the dealer's right) varies.

**Hand evaluation** (:func:`hand_strength`) — a classic French club point count,
our documented choice: each trump 2 points and 1 more for each trump from 16 to
21; the 21 +10, the Excuse +7, the petit +8 when it has at least four other
trumps (+1 otherwise); each roi 6 (+1 with the dame of its suit, « mariage »),
dame 3, cavalier 2, valet 1; per suit, a void 6, a singleton 3, a length of 5
cards 5, of 6 cards 7, of 7 or more 9.  Usual reading: 40 a Prise, 56 a Garde,
71 a Garde Sans, 81 a Garde Contre; so a hand is "incontestablement prenable"
for the imposed Garde from :data:`GARDE_THRESHOLD` = 56.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterator, Mapping

from .cards import EXCUSE, PACK, PETIT, SEATS, Card, CardError, Seat, format_cards, parse_cards

__all__ = [
    "Deal", "Board", "DealError", "GARDE_THRESHOLD", "hand_strength", "has_petit_sec",
    "generate_boards", "generate_board", "seed_hash", "deals_to_json", "deals_from_json",
]

DEALS_FORMAT = "tarot-deals/1"
HAND_SIZE = 18
DOG_SIZE = 6
#: Strength from which a hand is "incontestablement prenable" for a Garde.
GARDE_THRESHOLD = 56
#: Safety net: no real seed needs more than a few dozen attempts.
MAX_ATTEMPTS = 10_000


class DealError(ValueError):
    """An invalid deal or deals file; the message is French."""


@dataclass(frozen=True)
class Deal:
    """The cards of one étui: four hands (seat → 18 cards) and the chien."""

    hands: Mapping[Seat, tuple[Card, ...]]
    dog: tuple[Card, ...]

    def problems(self) -> list[str]:
        """Every reason why the deal is invalid, in French (empty when valid)."""
        found: list[str] = []
        seen: set[Card] = set()
        for seat in SEATS:
            hand = self.hands.get(seat, ())
            if len(hand) != HAND_SIZE:
                found.append(f"la main {seat.french} a {len(hand)} cartes au lieu de {HAND_SIZE}")
            if has_petit_sec(hand):
                found.append(f"petit sec en {seat.french} : la donne doit être refaite")
            seen.update(hand)
        if len(self.dog) != DOG_SIZE:
            found.append(f"le chien a {len(self.dog)} cartes au lieu de {DOG_SIZE}")
        seen.update(self.dog)
        total = sum(len(self.hands.get(seat, ())) for seat in SEATS) + len(self.dog)
        if total != len(PACK) or len(seen) != total:
            missing = sorted(set(PACK) - seen)
            text = f"les 78 cartes ne sont pas toutes présentes une fois (manquent : {' '.join(map(str, missing)) or 'aucune'}"
            found.append(text + (", doublons présents)" if len(seen) != total else ")"))
        return found

    def validate(self) -> "Deal":
        problems = self.problems()
        if problems:
            raise DealError("donne invalide : " + " ; ".join(problems))
        return self

    def strengths(self) -> dict[Seat, int]:
        return {seat: hand_strength(self.hands[seat]) for seat in SEATS}

    def to_dict(self) -> dict:
        return {
            "hands": {seat.value: format_cards(self.hands[seat]) for seat in SEATS},
            "dog": format_cards(self.dog),
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> "Deal":
        try:
            hands = {Seat.parse(seat): parse_cards(cards) for seat, cards in data["hands"].items()}
            return cls(hands=hands, dog=parse_cards(data["dog"]))
        except CardError as error:
            raise DealError(str(error)) from None
        except (KeyError, TypeError, AttributeError):
            raise DealError("donne mal formée : il faut « hands » (N, S, E, W) et « dog »") from None


@dataclass(frozen=True)
class Board:
    """An étui: its number, dealer and taker seats, and (optionally) its deal."""

    number: int
    dealer: Seat
    taker: Seat
    deal: Deal | None = None

    def to_dict(self) -> dict:
        data: dict = {"number": self.number, "dealer": self.dealer.value, "taker": self.taker.value}
        if self.deal is not None:
            data.update(self.deal.to_dict())
            data["strength"] = {seat.value: value for seat, value in self.deal.strengths().items()}
        return data


def has_petit_sec(hand) -> bool:
    """True when the petit is the hand's only trump and the hand has no Excuse."""
    trumps = [card for card in hand if card.is_trump]
    return trumps == [PETIT] and EXCUSE not in hand


def hand_strength(hand) -> int:
    """Point count of an 18-card hand (the method is described in the module docstring)."""
    trumps = [card for card in hand if card.is_trump]
    points = sum(3 if card.rank >= 16 else 2 for card in trumps)
    ranks = {card.rank for card in trumps}
    if 21 in ranks:
        points += 10
    if 1 in ranks:
        points += 8 if len(trumps) >= 5 else 1
    if EXCUSE in hand:
        points += 7
    for suit in "SHDC":
        cards = [card.rank for card in hand if card.suit == suit]
        points += sum({14: 6, 13: 3, 12: 2, 11: 1}.get(rank, 0) for rank in cards)
        if 14 in cards and 13 in cards:
            points += 1
        length = len(cards)
        points += {0: 6, 1: 3, 5: 5, 6: 7}.get(length, 9 if length >= 7 else 0)
    return points


def seed_hash(seed: str) -> str:
    """SHA-256 of the seed (hex), publishable before the event; the seed after it."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def _words(*parts) -> Iterator[int]:
    prefix = "|".join([DEALS_FORMAT, *map(str, parts)])
    block = 0
    while True:
        digest = hashlib.sha256(f"{prefix}|{block}".encode("utf-8")).digest()
        for offset in range(0, len(digest), 4):
            yield int.from_bytes(digest[offset:offset + 4], "big")
        block += 1


def _shuffled(items, *parts) -> list:
    """Fisher–Yates shuffle driven by the SHA-256 stream named by ``parts``."""
    words = _words(*parts)
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        result[i], result[j] = result[j], result[i]
    return result


def _raw_deal(seed: str, number: int, attempt: int) -> Deal:
    cards = _shuffled(PACK, seed, number, attempt)
    hands = {seat: tuple(sorted(cards[i * HAND_SIZE:(i + 1) * HAND_SIZE])) for i, seat in enumerate(SEATS)}
    return Deal(hands=hands, dog=tuple(sorted(cards[4 * HAND_SIZE:])))


def taker_seat(seed: str, number: int) -> Seat:
    """The taker of étui ``number``: N, S, E, W once in each group of four étuis."""
    group, index = divmod(number - 1, 4)
    return _shuffled(SEATS, seed, "takers", group)[index]


def dealer_seat(seed: str, number: int) -> Seat:
    return _shuffled(SEATS, seed, "dealer", number)[0]


def generate_board(seed: str, number: int, threshold: int = GARDE_THRESHOLD) -> Board:
    """Étui ``number`` for ``seed``: same inputs, same étui, on any machine."""
    taker = taker_seat(seed, number)
    for attempt in range(MAX_ATTEMPTS):
        deal = _raw_deal(seed, number, attempt)
        if any(has_petit_sec(hand) for hand in deal.hands.values()):
            continue
        strengths = deal.strengths()
        strongest = max(SEATS, key=lambda seat: (strengths[seat], -SEATS.index(seat)))
        if strengths[strongest] < threshold:
            continue
        hands = dict(deal.hands)
        hands[taker], hands[strongest] = hands[strongest], hands[taker]
        return Board(number, dealer_seat(seed, number), taker, Deal(hands, deal.dog))
    raise DealError(f"aucune donne prenable trouvée pour l’étui {number} après {MAX_ATTEMPTS} essais")


def generate_boards(count: int, seed: str, first: int = 1) -> list[Board]:
    if count < 1:
        raise DealError("le nombre d’étuis doit être au moins 1")
    return [generate_board(seed, number) for number in range(first, first + count)]


def deals_to_json(boards, seed: str | None = None) -> dict:
    """The SPEC §9 deals document."""
    data: dict = {"format": DEALS_FORMAT}
    if seed is not None:
        data["seed"] = seed
        data["seed_sha256"] = seed_hash(seed)
        data["threshold"] = GARDE_THRESHOLD
    data["boards"] = [board.to_dict() for board in boards]
    return data


def deals_from_json(data: Mapping) -> list[Board]:
    """Read and validate a deals document; French message naming the faulty étui."""
    if not isinstance(data, Mapping) or not isinstance(data.get("boards"), list):
        raise DealError("fichier de donnes mal formé : il faut une liste « boards »")
    boards = []
    for index, item in enumerate(data["boards"], start=1):
        try:
            number = int(item["number"])
            deal = Deal.from_dict(item).validate()
            boards.append(Board(number, Seat.parse(item["dealer"]), Seat.parse(item["taker"]), deal))
        except (DealError, CardError) as error:
            raise DealError(f"étui n° {number} : {error}") from None  # its number was read first
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DealError(f"étui en position {index} mal formé : il faut number, dealer, taker, hands, dog") from None
    return boards
