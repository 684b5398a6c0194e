"""The translation designs at their edges (SPEC §7 individual; `movements.designs` and `movements.individual`
docstrings), every expected value worked out by hand from the construction, not read from the code:

* GF(27) = GF(3)[x] / (x³ + 2x + 1): the field's multiplication table takes the first monic cubic with a
  non-zero constant term and no root in GF(3), trying the tails in increasing base-3 order: x³ + 1
  (root 2), x³ + 2 (root 1), x³ + x + 1 (root 1), x³ + x + 2 (root 2), then x³ + 2x + 1 (values 1, 1, 1 at
  0, 1, 2: no root, so irreducible).  Elements are written in base 3, coefficient of x² first (9 = x²,
  3 = x, 5 = x + 2, 14 = x² + x + 2, 18 = 2x²); the offsets of position π + 1 are (1·π, 2·π, x·π, (x+1)·π)
  (the multipliers 1, 2, 3, 4 of the docstring's « four distinct non-zero a_L »).  At π = x²: x·x² = x³ =
  −2x − 1 = x + 2 → 5; (x + 1)·x² = x³ + x² = x² + x + 2 → 14.
* sections: the reach of a split a + (T − a) is the smaller of the two parts' reaches; the stored special
  moves reach 16 positions at 20 tables, 18 at 22 and 15 at 18, 17 at 21 (`offset_tables`: one offset
  quadruple per position); a prime count p ≥ 5 is a Rainbow of p positions (gcd(p, 6) = 1).
"""

import pytest

from duplicate.core.movements.designs import best_positions, field_design, layout_for
from duplicate.core.movements.individual import max_positions


def test_gf27_offsets_reduce_by_x3_plus_2x_plus_1():
    design = field_design(27)
    assert design.mods == (3, 3, 3) and design.positions == 27
    assert design.offsets[0] == (0, 0, 0, 0)
    # π = x (3): 1·x, 2x (6), x² (9), x² + x (12) — no reduction needed
    assert design.offsets[3] == (3, 6, 9, 12)
    # π = x² (9): x², 2x² (18), x³ = x + 2 (5), x³ + x² = x² + x + 2 (14)
    assert design.offsets[9] == (9, 18, 5, 14)


def test_a_prime_field_is_the_rainbow_and_small_counts_are_refused():
    # q = 5 is prime: the Rainbow (p, 2p, −2p, −p) mod 5 for p = 0 … 4
    assert field_design(5).offsets == ((0, 0, 0, 0), (1, 2, 3, 4), (2, 4, 1, 3), (3, 1, 4, 2), (4, 3, 2, 1))
    assert field_design(5).mods == (5,)
    for q in (4, 6, 12):   # 4 = 2² is under 5; 6 and 12 are not prime powers
        with pytest.raises(ValueError):
            field_design(q)


def test_no_individual_positions_below_three_tables():
    # « The most positions we generate »: nothing under 3 tables (12 players), 6 and 8 for the small clubs
    assert [max_positions(t) for t in (0, 1, 2)] == [0, 0, 0]
    assert (max_positions(3), max_positions(4)) == (6, 8)


def test_39_tables_reach_17_positions_by_sections_17_and_22():
    # 39 = 3 · 13: the Rainbow reaches 39 / 3 = 13, the product 3 × 13 as many (1 × 13).  The splits near
    # the middle: 17 + 22 → min(17, 18) = 17; 18 + 21 → min(15, 17) = 15; 19 + 20 → min(19, 16) = 16;
    # a smaller first part a ≤ 16 reaches at most a positions.  So 17, and no layout reaches 18.
    assert best_positions(39) == 17
    assert [part.tables for part in layout_for(39, 17).parts] == [17, 22]
    assert layout_for(39, 18) is None


def test_sections_are_cut_to_the_positions_asked():
    # 33 tables, 12 positions: the Rainbow and the product 3 × 11 reach 11; the first split with both parts
    # reaching 12 is 13 + 20 (13 and 16), each cut to 12 positions
    layout = layout_for(33, 12)
    assert [part.tables for part in layout.parts] == [13, 20]
    assert [part.positions for part in layout.parts] == [12, 12]
    assert layout.positions == 12
