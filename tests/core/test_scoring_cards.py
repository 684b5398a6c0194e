"""Issue 14, points 2 and 3: the score calculator and the validator, proved against the card model.

The piles are recomputed here by a different road than `core.scoring` (which counts cards by value
class): a subset-sum over the 78 real cards of `core.cards.PACK`, each card read for itself (bout, king,
half-points). Both directions are tested on the whole space: every (bouts, points) the core allows comes
from a real pile, and every real pile is allowed; then every score, and the calculator against its own
``--check``."""

from __future__ import annotations

from itertools import product

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from duplicate.cli import score_command
from duplicate.core.cards import PACK
from duplicate.core.scoring import (
    POIGNEE_SETS, Chelem, Contract, _ENDS, _pile_points, check_score, hand_fault, reachable_scores, score_deal,
)

NEEDED = {0: 56, 1: 51, 2: 41, 3: 36}


def _real_piles():
    """{(cards, bouts, holds the Excuse, écart-legal cards capped at 6): bitmask of half-point sums}
    over every subset of the real pack."""
    states = {(0, 0, False, 0): 1}
    for card in PACK:
        bout = card.is_bout
        king = not card.is_trump and card.suit != "X" and card.rank == 14
        excuse = card.suit == "X"
        new = dict(states)
        for (n, b, x, e), sums in states.items():
            key = (n + 1, b + bout, x or excuse, min(6, e + (not bout and not king)))
            new[key] = new.get(key, 0) | (sums << card.half_points)
        states = new
    return states


REAL = _real_piles()


def real_pile_points(contract: Contract, tricks: int, excuse: str | None) -> dict[int, set[int]]:
    """The same as `_pile_points`, from the real cards: the taker's pile is his tricks, plus the écart
    (Prise, Garde: six cards, no king, no bout) or the chien (Garde Sans: any six), ± the Excuse."""
    dog = 6 if contract is not Contract.GARDE_CONTRE else 0
    cards = 4 * tricks + dog + {None: 0, "taker": 1, "defence": -1}[excuse]
    ecart = 6 if contract in (Contract.PRISE, Contract.GARDE) else 0
    found: dict[int, set[int]] = {}
    for (n, b, x, e), sums in REAL.items():
        if n != cards or e < ecart or (excuse == "defence" and x) or (excuse == "taker" and not x):
            continue
        for half in range(183):
            if sums >> half & 1:
                found.setdefault(b, set()).add((half + 1) // 2)
    return found


@pytest.mark.parametrize("contract", list(Contract))
def test_the_piles_are_exactly_those_of_the_real_cards(contract):
    for tricks, excuse in _ENDS:
        model = {b: set(points) for b, points in _pile_points(contract, tricks, excuse).items()}
        assert model == real_pile_points(contract, tricks, excuse), (contract, tricks, excuse)


def test_hand_derived_piles():
    """By hand: a Garde lost without a trick leaves the taker his écart alone, six cards that are neither
    king nor bout: at least six small cards (3 points), at most the four dames and two cavaliers
    (4 × 3,5 + 2 × 2,5 = 19). Keeping his Excuse (he never wins a trick to give a card for it) adds
    4,5: 7,5 → 8 to 23,5 → 24 (the half point to the taker). In a Garde Sans the unseen chien may hold
    the four kings and two dames: 4 × 4,5 + 2 × 3,5 = 25 without a bout."""
    assert _pile_points(Contract.GARDE, 0, None) == {0: frozenset(range(3, 20))}
    assert _pile_points(Contract.GARDE, 0, "taker") == {1: frozenset(range(8, 25))}
    assert max(_pile_points(Contract.GARDE_SANS, 0, None)[0]) == 25
    assert _pile_points(Contract.GARDE_CONTRE, 0, None) == {0: frozenset({0})}
    # the seed's +582: every card but the Excuse the defence kept, 86,5 → 87 points with 2 bouts
    assert _pile_points(Contract.GARDE, 18, "defence") == {2: frozenset({87})}


def _scores(contract: Contract, chelem: bool) -> set[int]:
    """Every score from the real piles, computed here from SPEC §3."""
    mult = contract.multiplier
    found = set()
    for tricks, excuse in _ENDS:
        if tricks == 18:
            bonuses = [200, 400]
        elif tricks == 0:
            bonuses = [-200, -400]
        else:
            bonuses = [0, -200]
        if not chelem:
            bonuses = [b for b in bonuses if b == 0]
        for bouts, points in real_pile_points(contract, tricks, excuse).items():
            petits = [0] + ([10 * mult] if tricks and bouts else []) + ([-10 * mult] if tricks < 18 and bouts < 3 else [])
            for p, bonus, poignee, petit in product(points, bonuses, (0, 20, 30, 40), petits):
                sign = 1 if p >= NEEDED[bouts] else -1
                found.add(sign * (25 + abs(p - NEEDED[bouts])) * mult + sign * poignee + petit + bonus)
    return found


@pytest.mark.parametrize("contract", list(Contract))
@pytest.mark.parametrize("chelem", [False, True])
def test_the_validator_accepts_exactly_the_scores_of_real_deals(contract, chelem):
    assert set(reachable_scores(contract, chelem)) == _scores(contract, chelem)


def test_scores_no_deal_can_produce_with_a_chelem_are_refused():
    """Issue 14, point 3: in a Garde marked chelem, −468 to −502 were accepted. By hand: without a trick the
    taker's pile is his écart, ± his Excuse: 0 bout and 3 to 19 points, or 1 bout and 8 to 24. The
    harshest scores are then −(25 + 56 − 3) × 2 − 400 − 40 − 20 = −616 … and the mildest with the
    announced chelem lost −(25 + 51 − 24) × 2 − 400 = −504; with the defence's chelem alone (−200) the
    lowest is −(25 + 56 − 3) × 2 − 200 − 60 = −416. Nothing lies strictly between −504 and −416 but
    those, and −468 … −502 (two bouts in the écart) cannot be."""
    for score in range(-502, -467, 2):
        check = check_score(score, "garde", chelem=True)
        assert not check.ok, score
    assert check_score(-504, "garde", chelem=True).ok and check_score(-416, "garde", chelem=True).ok
    assert not any(-504 < s < -416 for s in reachable_scores(Contract.GARDE, True))


# --- the calculator: every combination of its options ------------------------------------------------

POIGNEES = [(), ("simple",), ("double",), ("triple",), ("simple", "simple"), ("simple", "double"),
            ("triple", "triple"), ("double", "double"), ("simple", "simple", "simple")]
PETITS = [None, "taker", "defence"]
CHELEMS = [None, *(c.value for c in Chelem)]


def test_the_calculator_refuses_the_issue_examples_with_their_reason():
    assert "22 atouts" in hand_fault("garde", 50, 2, ("triple", "triple"))
    assert "0 points avec 3 bouts impossibles en Garde avec un chelem réussi" in hand_fault(
        "garde", 0, 3, chelem="announced_made")
    assert "91 points avec 0 bout impossibles en Garde sans chelem (de 5 à 77 points)" == hand_fault("garde", 91, 0)
    assert "petit au bout au preneur avec 0 bout" in hand_fault("garde", 50, 0, petit_au_bout="taker")
    assert hand_fault("garde", 87, 2, ("simple",), "taker", "announced_made") is None  # the seed's +582


def test_every_combination_is_refused_or_agrees_with_check():
    """The whole input space of ``score``: 4 contracts × 92 points × 4 bouts × 9 poignée sets × 3 petits au
    bout × 5 chelems = 397,440 combinations. A refused one has a reason; an accepted one is a real deal
    (its (bouts, points) in a real pile of an end its chelem allows) whose score ``--check`` accepts."""
    accepted = refused = 0
    real = {}
    for contract in Contract:
        for tricks, excuse in _ENDS:
            real[contract, tricks, excuse] = real_pile_points(contract, tricks, excuse)
    for contract, points, bouts, poignees, petit, chelem in product(
            Contract, range(92), range(4), POIGNEES, PETITS, CHELEMS):
        fault = hand_fault(contract, points, bouts, poignees, petit, chelem)
        if fault is not None:
            refused += 1
            assert fault
            continue
        accepted += 1
        assert poignees in POIGNEE_SETS
        tricks = {None: range(1, 18), "announced_failed": range(1, 18), "defence": [0]}.get(chelem, [18])
        assert any(points in real[contract, t, e].get(bouts, ()) for t in tricks for e in (None, "taker", "defence")
                   if (contract, t, e) in real), (contract, points, bouts, chelem)
        score = score_deal(contract, points, bouts, poignees, petit, chelem)
        assert check_score(score, contract, chelem=chelem is not None).ok, (contract, points, bouts, poignees,
                                                                               petit, chelem, score)
    assert accepted + refused == 4 * 92 * 4 * 9 * 3 * 5
    assert accepted > 10_000 and refused > 10_000


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([c.value for c in Contract]), st.integers(0, 91), st.integers(0, 3),
       st.sampled_from(POIGNEES), st.sampled_from(PETITS), st.sampled_from(CHELEMS))
def test_the_score_command_agrees_with_its_own_check(contract, points, bouts, poignees, petit, chelem):
    args = ["--contract", contract, "--points", str(points), "--bouts", str(bouts)]
    args += [a for p in poignees for a in ("--poignee", p)]
    args += ["--petit-au-bout", petit] if petit else []
    args += ["--chelem", chelem] if chelem else []
    runner = CliRunner()
    result = runner.invoke(score_command, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 1:
        assert result.stderr.startswith("Erreur : donne impossible : ") and len(result.stderr.splitlines()) == 1
        return
    assert result.exit_code == 0
    score = result.stdout.splitlines()[0]
    check = runner.invoke(score_command, ["--contract", contract, "--check", score]
                          + (["--chelem", chelem] if chelem else []))
    assert check.exit_code == 0, (args, score, check.stderr)
