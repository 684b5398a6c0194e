"""The étuis' generation checked against a reference written from its documented construction alone
(`duplicate.core.deals` module docstring, SPEC §2: the SHA-256 stream, rejection, Fisher–Yates, hands
cut 18 by 18, redeals, the strongest hand moved to the taker's seat, takers four by four, the dealer), and
the deal checker's refusals word for word. The reference reads 32-bit words with ``struct`` and counts
attempts itself: it shares no code with the module but the card model and the hand count (tested apart,
with worked examples, in test_deals.py)."""

import hashlib
import itertools
import struct

import pytest

from duplicate.core import deals
from duplicate.core.cards import PACK, SEATS, Seat, parse_cards
from duplicate.core.deals import (
    Board, Deal, DealError, deals_from_json, deals_to_json, generate_board, generate_boards, hand_strength,
    has_petit_sec,
)


def _stream(*parts):
    """Unsigned big-endian 32-bit words of SHA-256("tarot-deals/1|<parts>|<block>"), block 0, 1, 2…"""
    prefix = "tarot-deals/1|" + "|".join(str(part) for part in parts)
    for block in itertools.count():
        digest = hashlib.sha256(f"{prefix}|{block}".encode("utf-8")).digest()
        yield from struct.unpack(">8I", digest)


def _fisher_yates(items, *parts):
    words, order = _stream(*parts), list(items)
    for i in reversed(range(1, len(order))):
        n = i + 1
        word = next(words)
        while word >= 2 ** 32 - 2 ** 32 % n:  # rejection: only words below the largest multiple of n
            word = next(words)
        j = word % n
        order[i], order[j] = order[j], order[i]
    return order


def _reference(seed, number, threshold=56):
    """(taker, dealer, hands by seat letter, chien, attempt) as the docstring builds étui ``number``."""
    group, index = divmod(number - 1, 4)
    taker = _fisher_yates("NSEW", seed, "takers", group)[index]
    dealer = _fisher_yates("NSEW", seed, "dealer", number)[0]
    for attempt in itertools.count():
        cards = _fisher_yates(PACK, seed, number, attempt)
        hands = {seat: sorted(cards[18 * i:18 * (i + 1)]) for i, seat in enumerate("NSEW")}
        if any(has_petit_sec(hand) for hand in hands.values()):
            continue
        strength = {seat: hand_strength(hand) for seat, hand in hands.items()}
        strongest = next(seat for seat in "NSEW" if strength[seat] == max(strength.values()))
        if strength[strongest] < threshold:
            continue
        hands[taker], hands[strongest] = hands[strongest], hands[taker]
        return taker, dealer, hands, sorted(cards[72:]), attempt


def _as_reference(board: Board):
    hands = {seat.value: list(cards) for seat, cards in board.deal.hands.items()}
    return board.taker.value, board.dealer.value, hands, list(board.deal.dog)


@pytest.mark.parametrize("seed", ["FFT-2026", "Club de Villeurbanne — 14/03", ""])
def test_generated_etuis_follow_the_documented_construction(seed):
    attempts = []
    for number in range(1, 13):
        *expected, attempt = _reference(seed, number)
        assert _as_reference(generate_board(seed, number)) == tuple(expected), (seed, number)
        attempts.append(attempt)
    # most étuis need redeals (a Garde hand is not the rule): the redeal path is exercised
    assert max(attempts) >= 1


def test_a_lower_threshold_keeps_an_earlier_deal():
    *expected, attempt = _reference("FFT-2026", 3, threshold=0)
    assert _as_reference(deals.generate_board("FFT-2026", 3, threshold=0)) == tuple(expected)
    assert attempt <= _reference("FFT-2026", 3)[-1]


def test_the_shuffle_rejects_the_words_above_the_largest_multiple(monkeypatch):
    """Three items: 2³² = 1 (mod 3), so the word 2³² − 1 is rejected and the next one (4 → 4 mod 3 = 1)
    swaps items 2 and 1; then 5 mod 2 = 1 leaves item 1 in place: a, c, b. Without the rejection the
    first word would give 0 (c, b, a, then b, c, a)."""
    words = iter([2 ** 32 - 1, 4, 5])
    monkeypatch.setattr(deals, "_words", lambda *parts: words)
    assert deals._shuffled("abc", "x") == ["a", "c", "b"]
    # 2³² − 2 is the largest word kept for n = 3: (2³² − 2) mod 3 = 2, no swap; then 0 swaps 1 and 0
    words = iter([2 ** 32 - 2, 0])
    monkeypatch.setattr(deals, "_words", lambda *parts: words)
    assert deals._shuffled("abc", "x") == ["b", "a", "c"]


def test_no_takeable_deal_in_the_attempts_allowed_is_refused(monkeypatch):
    monkeypatch.setattr(deals, "MAX_ATTEMPTS", 3)
    with pytest.raises(DealError) as refused:
        generate_board("FFT-2026", 7, threshold=500)  # no hand counts 500
    assert str(refused.value) == "aucune donne prenable trouvée pour l’étui 7 après 3 essais"


def test_etuis_are_numbered_from_first():
    boards = generate_boards(2, "club", first=5)
    assert [board.number for board in boards] == [5, 6] and boards[0] == generate_board("club", 5)
    with pytest.raises(DealError) as refused:
        generate_boards(0, "club")
    assert str(refused.value) == "le nombre d’étuis doit être au moins 1"


def _deal(order):
    return Deal({seat: tuple(order[18 * i:18 * (i + 1)]) for i, seat in enumerate(SEATS)}, tuple(order[72:]))


def test_the_checker_names_every_fault_in_french():
    order = list(PACK)
    short = Deal({Seat.N: tuple(order[:17]), Seat.S: tuple(order[17:36]), Seat.E: tuple(order[36:54]),
                  Seat.W: tuple(order[54:72])}, tuple(order[72:77]))
    assert short.problems() == [
        "la main Nord a 17 cartes au lieu de 18", "la main Sud a 19 cartes au lieu de 18",
        "le chien a 5 cartes au lieu de 6",
        f"les 78 cartes ne sont pas toutes présentes une fois (manquent : {PACK[77]})",
    ]
    doubled = list(PACK)
    doubled[0] = doubled[1]  # 1S replaced by a second 2S: 78 cards, 77 different
    assert _deal(doubled).problems() == ["les 78 cartes ne sont pas toutes présentes une fois (manquent : 1S, "
                                         "doublons présents)"]
    with pytest.raises(DealError) as refused:
        _deal(doubled).validate()
    assert str(refused.value) == ("donne invalide : les 78 cartes ne sont pas toutes présentes une fois "
                                  "(manquent : 1S, doublons présents)")
    assert _deal(list(PACK)).validate() == _deal(list(PACK))


def test_a_petit_sec_is_named_by_its_seat():
    spare = [card for card in PACK if not card.is_trump]  # 56 suit cards; the 22 trumps kept apart
    trumps = [card for card in PACK if card.is_trump]
    petit = next(card for card in trumps if card.rank == 1 and card.suit == "T")
    others = [card for card in trumps if card is not petit]
    east = [petit] + spare[:17]  # the petit alone among suit cards: sec
    rest = spare[17:] + others  # 39 suit cards and 21 trumps (the Excuse among them) for N, S, W and the chien
    order = rest[:36] + east + rest[36:]
    assert _deal(order).problems() == ["petit sec en Est : la donne doit être refaite"]


def test_hand_strength_counts_each_trump_rank_and_each_suit_length():
    # 16 to 21 count 3, 2 to 15 count 2; the 21 adds 10 (rank boundary 15 | 16)
    assert hand_strength(parse_cards("15T")) == 2 + 6 * 4  # + four voids
    assert hand_strength(parse_cards("16T")) == 3 + 6 * 4
    # lengths 2, 3, 4 add nothing; 7 and 8 cards 9 (spades: 2 to 9, no honour)
    assert hand_strength(parse_cards("2S 3S")) == 6 * 3
    assert hand_strength(parse_cards("2S 3S 4S 5S")) == 6 * 3
    assert hand_strength(parse_cards("2S 3S 4S 5S 6S 7S 8S")) == 9 + 6 * 3
    assert hand_strength(parse_cards("2S 3S 4S 5S 6S 7S 8S 9S")) == 9 + 6 * 3
    # a queen without her king: 3, no mariage; a king without his queen: 6 (singletons: +3 each)
    assert hand_strength(parse_cards("QH")) == 3 + 3 + 6 * 3
    assert hand_strength(parse_cards("KH")) == 6 + 3 + 6 * 3
    assert hand_strength(parse_cards("KH QH")) == 6 + 3 + 1 + 6 * 3


def test_deals_documents_without_a_seed_and_refusals():
    board = generate_board("club", 1)
    assert set(deals_to_json([board])) == {"format", "boards"}  # no seed: no seed, hash nor threshold
    assert deals_to_json([board], "club")["threshold"] == 56
    assert Board(3, Seat.E, Seat.S).to_dict() == {"number": 3, "dealer": "E", "taker": "S"}
    with pytest.raises(DealError) as refused:
        deals_from_json({"boards": ["not an étui"]})
    assert str(refused.value) == "étui en position 1 mal formé : il faut number, dealer, taker, hands, dog"
    with pytest.raises(DealError) as refused:
        deals_from_json(["boards"])
    assert str(refused.value) == "fichier de donnes mal formé : il faut une liste « boards »"
    item = deals_to_json([board])["boards"][0]
    with pytest.raises(DealError) as refused:
        deals_from_json({"boards": [{**item, "hands": {**item["hands"], "N": ["ZZ", *item["hands"]["N"][1:]]}}]})
    assert str(refused.value) == "étui n° 1 : carte inconnue « ZZ »"
    with pytest.raises(DealError) as refused:
        deals_from_json({"boards": [{key: value for key, value in item.items() if key != "dog"}]})
    assert str(refused.value) == "étui n° 1 : donne mal formée : il faut « hands » (N, S, E, W) et « dog »"


def test_the_checker_lists_every_missing_card_a_missing_hand_and_extra_cards():
    order = list(PACK)
    three_hands = Deal({seat: tuple(order[18 * i:18 * (i + 1)]) for i, seat in enumerate(SEATS[:3])},
                       tuple(order[72:]))
    problems = three_hands.problems()
    assert problems[0] == "la main Ouest a 0 cartes au lieu de 18"
    assert problems[1].startswith("les 78 cartes ne sont pas toutes présentes une fois (manquent : ")
    assert problems[1].count(" ") > 18  # the 18 cards of West, one space between each
    extra = Deal({Seat.N: tuple(order[:18]) + (order[0],), **{seat: tuple(order[18 * i:18 * (i + 1)])
                                                             for i, seat in enumerate(SEATS) if i}},
                 tuple(order[72:]))
    assert extra.problems() == ["la main Nord a 19 cartes au lieu de 18",
                                "les 78 cartes ne sont pas toutes présentes une fois (manquent : aucune, doublons présents)"]
    with pytest.raises(DealError) as refused:
        extra.validate()
    assert str(refused.value) == ("donne invalide : la main Nord a 19 cartes au lieu de 18 ; les 78 cartes ne sont "
                                  "pas toutes présentes une fois (manquent : aucune, doublons présents)")
    two_missing = list(PACK)
    two_missing[0], two_missing[1] = two_missing[2], two_missing[3]  # 1S and 2S gone, 3S and 4S twice
    assert "manquent : 1S 2S, doublons présents" in _deal(two_missing).problems()[0]


def test_the_rejection_limit_is_the_largest_multiple_of_n_under_two_to_the_32(monkeypatch):
    """Five items: 2³² = 1 (mod 5), so words up to 2³² − 2 are kept: 2³² − 2 = 4 (mod 5) leaves item 4 in
    place; then three words 0 swap items 3, 2, 1 with item 0 in turn: a b c d e → d b c a e → c b d a e →
    b c d a e."""
    words = iter([2 ** 32 - 2, 0, 0, 0, 0])
    monkeypatch.setattr(deals, "_words", lambda *parts: words)
    assert deals._shuffled("abcde", "x") == list("bcdae")


def test_ties_for_the_strongest_hand_go_to_the_first_seat_in_n_s_e_w_order(monkeypatch):
    canonical = _deal(list(PACK))  # no petit sec: East holds no trump, West sixteen
    monkeypatch.setattr(deals, "_raw_deal", lambda seed, number, attempt: canonical)
    monkeypatch.setattr(deals, "hand_strength", lambda hand: 60)  # four hands alike: North's is « strongest »
    board = generate_board("club", 1)
    assert board.deal.hands[board.taker] == canonical.hands[Seat.N]
    if board.taker is not Seat.N:
        assert board.deal.hands[Seat.N] == canonical.hands[board.taker]


def test_one_etui_the_seed_in_the_document_and_a_faulty_etui_named_by_its_number():
    assert len(generate_boards(1, "club")) == 1
    data = deals_to_json(generate_boards(1, "club"), "club")
    assert (data["seed"], data["seed_sha256"]) == ("club", hashlib.sha256("club".encode("utf-8")).hexdigest())
    data["boards"][0]["number"] = 12
    data["boards"][0]["dog"] = data["boards"][0]["dog"][:5]
    with pytest.raises(DealError) as refused:
        deals_from_json(data)
    assert str(refused.value).startswith("étui n° 12 : donne invalide : le chien a 5 cartes au lieu de 6")
