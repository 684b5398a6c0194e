"""Issue 29 point 3 on the page itself: the movement page of a 23-player individual said « aucun joueur ne …
rencontre deux fois un autre joueur » above 14 repeated meetings; the team match's said « Étui à deux
tables dans la même position : aucun » above a grid where every étui is at both tables of its quarter."""

import re

import scoring_helpers
from scoring_helpers import ready


def page(arbiter, tid: int) -> str:
    return arbiter.get(f"/arbitre/tournois/{tid}/mouvement").get_data(as_text=True)


def test_a_23_player_movement_page_gives_its_14_repeated_meetings(app, arbiter, monkeypatch):
    # 23 players, 5 full tables, 3 at the relais, 5 positions: 14 pairs meet twice (the validator's count,
    # checked by hand from the rounds in tests/test_movement_statements.py)
    monkeypatch.setitem(scoring_helpers.SIZES, "individual", (23, 0))
    text = page(arbiter, ready(app, "individual"))
    assert "rencontre deux fois un autre joueur" not in text
    assert "14 paires de joueurs se rencontrent plus d’une fois" in text
    assert "Rencontres répétées : 14" in text
    assert "Aucun joueur ne joue deux fois un étui." in text


def test_a_team_match_page_says_the_rooms_mirror_each_other(app, arbiter):
    text = page(arbiter, ready(app, "team_match"))
    assert "Étui à deux tables dans la même position" not in text
    assert "Étuis joués en miroir dans les deux salles, comme le veut un match : 20 sur 20" in text
    assert "Chaque étui est joué en miroir dans les deux salles de son quart temps" in text


def test_the_grid_reads_o1_never_w1(app, arbiter):
    # the 20-player individual: West of table 1 at position 1 is the player at starting place W1, read « O1 »
    text = page(arbiter, ready(app, "individual"))
    grid = text.split('<table class="movement">')[1].split("</table>")[0]
    assert '<span class="seat">O</span> O1' in grid
    assert not re.search(r"\bW\d+\b", grid) and not re.search(r"\bO W\d", grid)


def test_too_many_positions_are_refused_in_the_form_s_words(app, arbiter):
    # 5 tables: at most 5 positions without repetition; the arbiter typed 9 — the answer names the field's
    # value, not the command line's option
    tid = ready(app, "individual")
    response = arbiter.post(f"/arbitre/tournois/{tid}/mouvement", data={"positions": "9", "preview": "1"})
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "au plus 5 positions sans répétition ; proposez 5 positions." in text
    assert "--positions" not in text
