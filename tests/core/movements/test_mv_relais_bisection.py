"""The relais keep the most positions where they fit (SPEC §7 relais; `movements.relais` docstring: « when
the number of positions was not asked for, we look for the most positions where the relais fit »).

The counts are the planner's (a bounded search, see `test_mv_relais_search_state.py`); what is checked is the
rule, for headcounts where the first search over the longest movement falls short and the bisection runs
(35 players: 8 tables, GF(8); 39: 9 tables, GF(9); 66: 16 tables, GF(16)): the count chosen works when
asked for, one more is refused with the French message, and the movement chosen is exactly the one asked
for with that count (the same rounds, rests and notes: the bisection only saves work).
"""

import pytest

from duplicate.core.movements import MovementError, check, generate, relais


@pytest.mark.parametrize("players,most", [(35, 7), (39, 8), (66, 11)])
def test_the_most_positions_where_the_relais_fit_and_no_more(players, most):
    chosen = generate("individual", None, players=players)
    assert chosen.positions == most
    assert check(chosen).ok
    asked = generate("individual", None, positions=most, players=players)
    assert asked == chosen and asked.notes == chosen.notes
    with pytest.raises(MovementError, match=f"Impossible de répartir les relais de {players} joueurs sur ce "
                                            f"mouvement de {most + 1} positions"):
        generate("individual", None, positions=most + 1, players=players)


@pytest.mark.parametrize("players,most,per", [(35, 7, None), (66, 11, None), (35, 7, 3)])
def test_the_bisection_without_the_prefix_shortcut_chooses_the_same(monkeypatch, players, most, per):
    """`_is_prefix` only lets the bisection reuse the longest search when the shorter movement is its prefix;
    a shorter movement that is not one is built and searched afresh.  No headcount of 12 to 259 players takes
    that path (every shorter movement the bisection tries is a prefix), so it is forced here: told that no
    shorter movement is a prefix, the bisection must still choose the movement asked with that count."""
    asked = generate("individual", None, positions=most, players=players, boards_per_position=per)
    monkeypatch.setattr(relais, "_is_prefix", lambda tables, longest, positions: False)
    chosen = generate("individual", None, players=players, boards_per_position=per)
    assert chosen == asked and chosen.notes == asked.notes
