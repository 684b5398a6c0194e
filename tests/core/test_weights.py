"""The ranking weights pinned by vectors worked out by hand (issue 17): individual ¼ attack + ¾ defence,
triplettes ½ + ½, with attack ≠ defence, several players, ex æquo and an alternated ranking that differs
from the general one.  The derivations are in ``tests/ranking_vectors.py``; the same vectors are checked
at the API, CLI and printed-ranking layers (tests/web/test_ranking_vectors.py)."""

from fractions import Fraction as F

import pytest

import ranking_vectors as vectors
from duplicate.core.ranking import WEIGHTS, rank_standings, standings
from duplicate.core.topage import topage
from duplicate.core.tournament import ranking_output, read_tournament


def _ranked(data):
    tournament = read_tournament(data)
    notes = [note for rows in topage(tournament.results).values() for note in rows]
    lines = {ident: entrant.line for ident, entrant in tournament.entrants.items()}
    return {row.entrant: row for row in rank_standings(standings(tournament.kind, lines, notes,
                                                                 tournament.penalties))}


def test_the_weights_are_the_seeds():
    assert WEIGHTS == {"individual": (F(1, 4), F(3, 4)), "triplettes": (F(1, 2), F(1, 2))}


@pytest.mark.parametrize("entrant", sorted(vectors.INDIVIDUAL))
def test_individual_vector(entrant):
    row = _ranked(vectors.individual_file())[entrant]
    attack, defence, global_, rank, alternated = vectors.INDIVIDUAL[entrant]
    assert (row.attack, row.defence, row.global_) == (attack, defence, global_)
    assert (row.rank, row.alternated_rank) == (rank, alternated)
    assert row.penalty == 0
    assert row.flagged == (entrant == "N4")


def test_individual_deal_counts():
    rows = _ranked(vectors.individual_file())
    # every player attacks his line's étui and defends the three others; N4 plays nothing
    assert {e: (r.attack_count, r.defence_count) for e, r in rows.items()} == {
        **{f"{line}{t}": (1, 3) for line in "NSEW" for t in (1, 2, 3)}, "N4": (0, 0)}


def test_individual_best_first_order():
    ranked = [row.entrant for row in rank_standings(_ranked(vectors.individual_file()).values())]
    # ties keep the id order: N1, N3, S3 at 43.75; S1, W3 at 56.25
    assert ranked == ["E3", "W1", "N2", "S1", "W3", "S2", "N1", "N3", "S3", "E2", "W2", "E1", "N4"]


@pytest.mark.parametrize("entrant", sorted(vectors.PENALISED))
def test_individual_penalties_vector(entrant):
    row = _ranked(vectors.individual_file(penalties=True))[entrant]
    attack, defence, global_, penalty, rank, alternated = vectors.PENALISED[entrant]
    assert (row.attack, row.defence, row.global_, row.penalty) == (attack, defence, global_, penalty)
    assert (row.rank, row.alternated_rank) == (rank, alternated)


@pytest.mark.parametrize("entrant", sorted(vectors.TRIPLETTES))
def test_triplettes_vector(entrant):
    row = _ranked(vectors.triplettes_file())[entrant]
    attack, defence, global_, rank, alternated = vectors.TRIPLETTES[entrant]
    assert (row.attack, row.defence, row.global_) == (attack, defence, global_)
    assert (row.rank, row.alternated_rank) == (rank, alternated)
    assert (row.attack_count, row.defence_count) == (2, 2)


def test_ranking_output_carries_the_vector():
    """The SPEC §9 output (what the API and the CLI serve) has the same numbers, as floats."""
    output = ranking_output(read_tournament(vectors.individual_file(penalties=True)))
    rows = {row["id"]: row for row in output["ranking"]}
    assert rows["E3"]["global"] == 90.25 and rows["E3"]["penalty"] == 3.5
    assert rows["N2"]["attack"] == 90.0 and rows["N2"]["defence"] == 50.0 and rows["N2"]["global"] == 60.0
    assert rows["S3"]["defence"] == pytest.approx(170 / 3) and rows["S3"]["alternated_rank"] == 10
    assert rows["N4"]["attack"] is None and rows["N4"]["flagged"] is True and rows["N4"]["rank"] == 13
    assert [row["id"] for row in output["ranking"]][:5] == ["E3", "W1", "N2", "S1", "W3"]
    # the per-étui penalties change the ranking, never the published notes of the étui
    board1 = output["boards"][0]["results"]
    assert [(r["taker_note"], r["defence_note"]) for r in board1] == [(50.0, 50.0), (100.0, 0.0), (0.0, 100.0)]
