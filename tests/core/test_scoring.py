"""Scoring one deal and the score validator (SPEC §3)."""

import pytest
from hypothesis import given, strategies as st

from duplicate.core.scoring import (
    Chelem, Contract, ScoreError, check_score, derive_reachable_scores, needed_points, reachable_scores, score_deal,
)


@pytest.mark.parametrize("kwargs, expected", [
    # seeds/rules-of-play.txt, « Exemples de marque de points »
    (dict(contract="garde", points=49, bouts=2, poignees=["simple"], petit_au_bout="taker"), 106),
    (dict(contract="garde_sans", points=55, bouts=1, petit_au_bout="defence"), 76),
    (dict(contract="prise", points=34, bouts=2, poignees=["simple"], petit_au_bout="taker"), -42),
    (dict(contract="garde", points=52, bouts=2, poignees=["simple"]), 92),   # poignée shown by the defence
    (dict(contract="garde", points=87, bouts=2, poignees=["simple"], petit_au_bout="taker",
          chelem="announced_made"), 582),
    # seeds/tournament-rules-club.txt, « Exemples de décompte »
    (dict(contract="garde", points=43, bouts=3, poignees=["simple"], petit_au_bout="taker"), 104),
    (dict(contract="garde_sans", points=51, bouts=1), 100),
    (dict(contract="prise", points=40, bouts=2, petit_au_bout="taker"), -16),
])
def test_seed_examples(kwargs, expected):
    assert score_deal(**kwargs) == expected


def test_needed_points_by_bouts():
    assert [needed_points(b) for b in range(4)] == [56, 51, 41, 36]
    with pytest.raises(ScoreError):
        needed_points(4)


def test_juste_fait_is_made_and_multipliers():
    assert [score_deal(c, 41, 2) for c in Contract] == [25, 50, 100, 150]
    assert score_deal("garde", 40, 2) == -52


def test_chelems_and_double_poignees():
    assert score_deal("garde", 91, 3, chelem="unannounced_made") == (25 + 55) * 2 + 200
    assert score_deal("garde", 60, 2, chelem="announced_failed") == (25 + 19) * 2 - 200
    assert score_deal("garde", 0, 0, chelem="defence") == -(25 + 56) * 2 - 200
    assert score_deal("garde", 50, 2, poignees=["simple", "simple"]) == (25 + 9) * 2 + 40


def test_contract_names_are_checked():
    with pytest.raises(ScoreError, match="contrat inconnu"):
        score_deal("petite", 50, 2)


# --- the validator ------------------------------------------------------------

@pytest.mark.parametrize("score", [31, -33, 107, 1])
def test_garde_refuses_odd_scores(score):
    check = check_score(score, "garde")
    assert not check.ok and "toujours pair" in check.message


@pytest.mark.parametrize("score", [-30, -2, 0, 10, 28])
def test_garde_refuses_between_minus_32_and_plus_30(score):
    check = check_score(score, "garde")
    assert not check.ok
    assert "aucun score n’est possible entre −32 et +30" in check.message


def test_garde_limits_without_chelem():
    garde = reachable_scores(Contract.GARDE)
    assert max(garde) == 216 and min(garde) == -212
    assert min(v for v in garde if v > 0) == 30 and max(v for v in garde if v < 0) == -32
    assert not check_score(218).ok and not check_score(-214).ok
    # every refusal says « sans chelem »: the check is that this one asks for the chelem
    assert "ce score n’est possible qu’avec un chelem" in check_score(582).message
    assert "ce score n’est possible qu’avec un chelem" not in check_score(218).message
    assert check_score(582, chelem=True).ok


def test_extremes_are_accepted_with_a_warning():
    assert check_score(216).ok and "théorie" in check_score(216).warning
    assert check_score(-212).ok and check_score(-212).warning
    assert check_score(106).warning is None


@pytest.mark.parametrize("contract, low, high", [
    ("prise", 15, -16), ("garde", 30, -32), ("garde_sans", 60, -64), ("garde_contre", 90, -96),
])
def test_smallest_scores_per_contract(contract, low, high):
    scores = reachable_scores(Contract(contract))
    assert min(v for v in scores if v > 0) == low
    assert max(v for v in scores if v < 0) == high


# A small model of the end of a deal consistent with the cards, to check that the
# enumeration contains every score that real play produces.
ends = st.builds(
    dict,
    contract=st.sampled_from(["garde", "garde_sans", "garde_contre"]),
    bouts=st.integers(0, 3),
    poignees=st.sampled_from([(), ("simple",), ("double",), ("triple",), ("simple", "simple")]),
    petit_au_bout=st.sampled_from([None, "taker", "defence"]),
)


@given(ends, st.integers(12, 78))
def test_every_ordinary_end_of_play_is_accepted(end, points):
    if end["petit_au_bout"] == "taker" and end["bouts"] == 0:
        end["petit_au_bout"] = None
    if end["petit_au_bout"] == "defence" and end["bouts"] == 3:
        end["petit_au_bout"] = None
    score = score_deal(points=points, **end)
    check = check_score(score, end["contract"])
    assert check.ok, check.message
    assert check.warning is None


@given(st.integers(-1000, 1000))
def test_garde_scores_are_even_and_in_range(score):
    check = check_score(score, "garde")
    if check.ok:
        assert score % 2 == 0 and -212 <= score <= 216 and not -32 < score < 30
    with_chelem = check_score(score, "garde", chelem=True)
    assert with_chelem.ok or not check.ok


def test_chelem_outcomes_need_the_chelem_flag():
    made = score_deal("garde", 91, 3, poignees=["triple"], petit_au_bout="taker", chelem=Chelem.ANNOUNCED_MADE)
    assert not check_score(made).ok
    assert check_score(made, chelem=True).ok


def _every_end_of_play(contract: Contract, chelem: bool) -> dict[int, bool]:
    """The reachable set enumerated one end of play at a time (tricks, bouts, card points, chelem bonus,
    poignée, petit au bout), as the rules read: the reference for `reachable_scores`, which works on runs
    of card points instead."""
    from duplicate.core.scoring import _ENDS, _pile_points

    found: dict[int, bool] = {}
    mult = contract.multiplier
    for tricks, excuse in _ENDS:
        bonuses = {18: [200, 400], 0: [-200, -400]}.get(tricks, [0, -200])
        for bouts, all_points in _pile_points(contract, tricks, excuse).items():
            sides = [0] + ([10 * mult] if tricks >= 1 and bouts >= 1 else []) \
                + ([-10 * mult] if tricks <= 17 and bouts <= 2 else [])
            for points in all_points:
                needed = needed_points(bouts)
                sign = 1 if points >= needed else -1
                for bonus in bonuses:
                    if bonus and not chelem:
                        continue
                    for poignee in (0, 20, 30, 40):
                        for side in sides:
                            score = sign * (25 + abs(points - needed)) * mult + sign * poignee + side + bonus
                            found[score] = found.get(score, True) and tricks in (1, 17)
    return found


@pytest.mark.parametrize("contract", list(Contract))
@pytest.mark.parametrize("chelem", [False, True])
def test_reachable_scores_are_every_end_of_play_in_increasing_order(contract, chelem):
    reachable = reachable_scores(contract, chelem)
    assert reachable == _every_end_of_play(contract, chelem)
    assert list(reachable) == sorted(reachable)
    derived = derive_reachable_scores(contract, chelem)  # the card model, not the written table
    assert derived == reachable and list(derived) == list(reachable)


def test_reachable_table_is_what_its_script_writes():
    """``duplicate/core/reachable_table.py`` is generated: edit the card model, then run the script."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("write_reachable_table", root / "scripts" / "write_reachable_table.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    written = (root / "duplicate" / "core" / "reachable_table.py").read_text(encoding="utf-8")
    assert written == script.table_text(), "run scripts/write_reachable_table.py"


def test_a_refused_zero_is_written_without_a_sign():
    """« score 0 », not « score +0 »: zero has no sign on a fiche (the +106 / −42 of the seed's examples)."""
    assert check_score(0, Contract.GARDE).message.startswith("score 0 impossible pour une Garde")
    assert check_score(-31, Contract.GARDE).message.startswith("score −31 impossible")  # a Garde is even


def test_derived_sets_default_to_no_chelem_and_read_a_contracts_name():
    assert derive_reachable_scores(Contract.GARDE) == derive_reachable_scores(Contract.GARDE, False)
    assert derive_reachable_scores("garde_sans", True) == reachable_scores(Contract.GARDE_SANS, True)


def test_a_score_below_every_end_of_play_names_the_lowest():
    # Garde, no chelem: the taker's worst is 1 trick, no bout, his écart of low cards: 10 cards of ½ point
    # = 5 points, 51 short of 56 → −(25 + 51) × 2 = −152; the defence's triple poignée −40 and its petit au
    # bout −10 × 2: −212.
    assert check_score(-2000, Contract.GARDE).message.endswith("le plus faible score possible est −212")
    # Prise with chelems: no trick at all (6 écart cards of ½: 3 points, 53 short → −78), triple −40, petit
    # −10, the defence's chelem −200 and the taker's announced chelem failed −200: −528.
    assert check_score(-2000, Contract.PRISE, chelem=True).message.endswith("le plus faible score possible est −528")
