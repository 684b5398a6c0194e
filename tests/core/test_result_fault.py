"""A refused result carries its fault as values (`core.tournament.ResultFault`): what is wrong, and the result
it clashes with — so a screen that checks one typed line names the clash its own way (by its table, in
`operations._results`) without rewriting the file's message. The messages are those of
`tests/core/test_tournament.py`, unchanged."""

import pytest

from duplicate.core.tournament import ResultFault, TournamentError, load_tournament, read_tournament
from tests.core.test_tournament import individual, result, text


def _error(data, *, file=True) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        load_tournament(text(data)) if file else read_tournament(data)
    return caught.value


def test_a_table_scoring_an_etui_twice_clashes_with_the_first_score():
    error = _error(individual([result(1, 1, 56), {**result(1, 2, 50), "table": 1}]))
    assert str(error) == ("ligne 3 : résultat n° 2 (étui 1, table 1) : l’étui 1 a déjà un score à cette table "
                          "(résultat n° 1)")
    assert error.fault == ResultFault(1, "l’étui 1 a déjà un score à cette table", clash=0, again=False)


def test_an_entrant_playing_an_etui_twice_clashes_with_his_first_play():
    error = _error(individual([result(1, 1, 56), {**result(1, 2, 50), "defenders": ["S2", "E2", "N1"]}]),
                   file=False)
    assert str(error) == ("résultat n° 2 (étui 1, table 2) : « N1 » joue l’étui 1 une deuxième fois "
                          "(déjà au résultat n° 1)")
    assert error.fault == ResultFault(1, "« N1 » joue l’étui 1 une deuxième fois", clash=0, again=True)


def test_a_player_at_two_tables_and_a_fault_of_one_result_alone():
    twice = [result(1, 1, 56, position=1), {**result(2, 3, 50, position=1), "defenders": ["S1", "E3", "W3"]}]
    assert _error(individual(twice)).fault == ResultFault(
        1, "« S1 » est aussi à la table 1 en position 1", clash=0)
    two_north = {**result(1, 2, 50), "defenders": ["S2", "N3", "W2"]}
    assert _error(individual([result(1, 1, 56), two_north])).fault == ResultFault(
        1, "deux joueurs de la même ligne à la table (N, S, N, W)")


def test_an_error_outside_the_results_has_no_result_fault():
    error = _error(individual([result(1, 1, 56)], penalties=[{"player": "Z9", "points": 1}]))
    assert error.fault is None
