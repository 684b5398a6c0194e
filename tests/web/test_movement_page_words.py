"""Issue 29 point 3 on the page itself: the movement page of a 23-player individual said « aucun joueur ne …
rencontre deux fois un autre joueur » above 14 repeated meetings; the team match's said « Étui à deux
tables dans la même position : aucun » above a grid where every étui is at both tables of its quarter."""

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
    assert "14 paire(s) de joueurs se rencontrent plus d’une fois" in text
    assert "Rencontres répétées : 14" in text
    assert "Aucun joueur ne joue deux fois un étui." in text


def test_a_team_match_page_says_the_rooms_mirror_each_other(app, arbiter):
    text = page(arbiter, ready(app, "team_match"))
    assert "Étui à deux tables dans la même position" not in text
    assert "Étuis joués en miroir dans les deux salles, comme le veut un match : 20 sur 20" in text
    assert "Chaque étui est joué en miroir dans les deux salles de son quart temps" in text
