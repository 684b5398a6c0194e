"""Issue 29 point 3: what the movement page says is computed from the validator's counts, never copied
from a generator's note.  For every relais headcount 12–60 at the default length (the relais keep as
many positions as they fit): the repeated meetings counted here by hand from the rounds (a pair of
players seated at the same table at two positions) are the validator's count, and the page says
« aucun joueur … deux fois » only when that count is 0, else gives the count.  By hand from the issue:
23 players meet 14 pairs twice, 26 players 12 pairs."""

import re
from collections import Counter
from itertools import combinations

import pytest

from duplicate.core.movements import check, generate
from duplicate.view_models.movement import movement_statements

NOBODY_MEETS = "Aucun joueur ne rencontre deux fois un autre joueur."
CLAIM = re.compile(r"deux fois|se rencontre|au plus une fois|sans rejouer")


def repeated_pairs(movement) -> int:
    """Pairs of players seated at one table at more than one position, counted from the rounds."""
    meetings = Counter()
    for r in movement.rounds:
        meetings.update(combinations(sorted(who for _, who in r.seats), 2))
    return sum(1 for n in meetings.values() if n > 1)


@pytest.mark.parametrize("players", range(12, 61))
def test_the_page_states_what_the_validator_counts(players):
    movement = generate("individual", None, players=players)
    report = check(movement)
    said = movement_statements(movement.to_dict(), report.counts)
    meetings = report.counts["repeated_meetings"]
    assert meetings == repeated_pairs(movement)
    assert report.summary[1] == f"Rencontres répétées : {meetings or 'aucune'}"
    # the notes make no claim: every claim is a statement made from a count
    assert not [note for note in said["notes"] if CLAIM.search(note)]
    text = " ".join(said["notes"] + said["statements"])
    if meetings:
        assert "ne rencontre deux fois" not in text
        pairs = "paire de joueurs se rencontre" if meetings == 1 else "paires de joueurs se rencontrent"
        assert f"{meetings} {pairs} plus d’une fois (liste dans les avertissements)." \
            in said["statements"]
    else:
        assert NOBODY_MEETS in said["statements"]
    repeats = report.counts["board_repeats"]
    assert ("Aucun joueur ne joue deux fois un étui." in said["statements"]) == (repeats == 0)
    if players % 4:
        assert any(s.startswith("Relais : ") for s in said["statements"])


@pytest.mark.parametrize("players,pairs", [(23, 14), (26, 12)])
def test_the_counts_of_the_issue(players, pairs):
    movement = generate("individual", None, players=players)
    assert check(movement).counts["repeated_meetings"] == pairs


def test_a_team_match_says_what_a_match_requires():
    """2 tables, 4 quarters of 5 étuis: each étui of a quarter at both tables, the rooms mirrored —
    20 of 20; never « Étui à deux tables dans la même position : aucun » above a grid where every étui is."""
    movement = generate("team_match", 2)
    report = check(movement)
    assert report.counts["mirrored"] == report.counts["board_groups"] == 20
    assert report.summary[2] == "Étuis joués en miroir dans les deux salles, comme le veut un match : 20 sur 20"
    assert "Étui à deux tables dans la même position" not in report.text()
    said = movement_statements(movement.to_dict(), report.counts)
    assert "Chaque étui est joué en miroir dans les deux salles de son quart temps, comme le veut un match." \
        in said["statements"]
    assert not [s for s in said["statements"] if "rencontre" in s]
