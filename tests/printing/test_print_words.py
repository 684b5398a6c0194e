"""Issue 29 point 9 on paper: the count of ranked entrants agrees with its noun (« 4 équipes classées »,
« 1 joueur classé »), the team match's quarters read « 1er quart temps » (never « 1e quart »), and the
asterisk's footnote is printed only when a row carries the asterisk."""

import copy

from duplicate import french, printing
from print_helpers import pdf_text
from test_print_teams import quadrettes, triplettes

FOOTNOTE = "* : aucune donne dans un des deux rôles"


def test_the_words_agree_with_the_count():
    assert french.ranked(2, "équipes") == "2 équipes classées"
    assert french.ranked(10, "équipes") == "10 équipes classées"
    assert french.ranked(1, "équipes") == "1 équipe classée"
    assert french.ranked(23) == "23 joueurs classés" and french.ranked(1) == "1 joueur classé"
    assert french.ranked(3, "duos") == "3 duos classés"
    assert french.counted(1, "ligne vide ignorée", "lignes vides ignorées") == "1 ligne vide ignorée"
    assert french.counted(2, "ligne vide ignorée", "lignes vides ignorées") == "2 lignes vides ignorées"


def test_ordinals_and_quarters():
    assert [french.ordinal(n, feminine=False) for n in (1, 2, 3, 4)] == ["1er", "2e", "3e", "4e"]
    assert french.ordinal(1) == "1re"
    assert [french.quarter_label(n) for n in (1, 2)] == ["1er quart temps", "2e quart temps"]


def test_a_team_ranking_counts_its_teams_in_the_feminine():
    # triplettes: 4 teams (NS1, EW1, NS2, EW2), all ranked; quadrettes: 2 teams
    text = " ".join(pdf_text(printing.render_kind("ranking", triplettes()), layout=False).split())
    assert "4 équipes classées." in text and "équipes classés" not in text
    text = " ".join(pdf_text(printing.render_kind("ranking", quadrettes()), layout=False).split())
    assert "2 équipes classées." in text and "équipes classés" not in text


def test_the_asterisk_footnote_only_under_an_asterisk(demo_copy):
    export, ranking = demo_copy["export"], demo_copy["ranking"]
    for row in ranking["ranking"]:
        row["flagged"] = False
    text = " ".join(pdf_text(printing.render_kind("ranking", export, ranking), layout=False).split())
    assert "aucune donne" not in text and "moins les pénalités." in text
    flagged = copy.deepcopy(ranking)
    flagged["ranking"][3]["flagged"] = True
    text = " ".join(pdf_text(printing.render_kind("ranking", export, flagged), layout=False).split())
    assert FOOTNOTE in text
