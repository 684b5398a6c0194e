"""Libre par 4 as « 4 tournois en parallèle » on the web (booklet p. 21): the arbiter's choice on the movement
page, the seating, the four tournaments' rankings and the team ranking — on SQLite and PostgreSQL.

Derived by hand: 12 teams → 4 tournaments of 3 tables (the 3-table Howell), A tables 1–3, B 4–6, C 7–9,
D 10–12; team place T1's members are N1, N4, N7, N10 (table 1 of each tournament, North), T2's S1, S4, S7,
S10… At table 1 (A) and table 4 (B), North takes a garde, 2 bouts, 49 points: d = 8, (25 + 8) × 2 = 66 a
defender, taker +198. T1 = 198 + 198 = +396; T2, T3, T4 = −66 − 66 = −132; the 8 other teams 0.
"""

import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.core.freeplay.movements import check, rounds_from_dict
from duplicate.core.freeplay.tournament import rank_free
from duplicate.models import JournalEntry, Player, Team, TeamMember

from test_free_play_teams import _form_teams, _post_sheet, _ranking, _seats


def _movement_page(arbiter, tournament_id, **data):
    return arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": "par4", **data})


@pytest.fixture
def parallel(app, arbiter, tournament_factory):
    tournament_id = tournament_factory("free_team4", 48, name="Libre par 4 en parallèle")
    _form_teams(app, arbiter, tournament_id, 4)
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/libre/mouvement").get_data(as_text=True)
    assert "Mouvement : équipes à la même table" in page and "4 tournois en parallèle" in page
    response = _movement_page(arbiter, tournament_id, mode="parallel")
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    return tournament_id


def test_each_member_plays_his_own_tournament(app, arbiter, parallel):
    seats, data = _seats(app, parallel)
    assert data["parallel"] == {"tables": 3, "tournaments": ["A", "B", "C", "D"]}
    assert data["tables"] == 12 and data["positions"] == 6 and "moves" not in data  # the Howell
    assert data["teams"]["T1"] == ["N1", "N4", "N7", "N10"] and data["teams"]["T6"] == ["S2", "S5", "S8", "S11"]
    rounds = rounds_from_dict(data)
    assert not check(rounds, data["teams"]).teammates  # no two teammates ever at one table
    with Session(db.get_engine(app)) as session:
        for team in session.exec(select(Team).where(Team.tournament_id == parallel)):
            links = session.exec(select(TeamMember).where(TeamMember.team_id == team.id).order_by(TeamMember.order)).all()
            members = [session.get(Player, link.player_id) for link in links]
            # the k-th member (the « Équipes » order) plays tournament k: tables 3k + 1 … 3k + 3
            assert [(p.start_table - 1) // 3 for p in members] == [0, 1, 2, 3]
            assert [p.entrant_id for p in members] == data["teams"][team.entrant_id]
        entry = session.exec(select(JournalEntry).where(JournalEntry.tournament_id == parallel,
                                                        JournalEntry.action == "freeplay.movement")).one()
    assert entry.summary.startswith("Mouvement « 4 tournois en parallèle » : 12 équipes, 4 tournois de 3 tables "
                                    "(A 1–3, B 4–6, C 7–9, D 10–12), 6 positions")
    assert entry.after["mouvement"] == "parallel"
    page = arbiter.get(f"/arbitre/tournois/{parallel}/libre/mouvement").get_data(as_text=True)
    assert "4 tournois en parallèle de 3 tables, 6 positions" in page
    assert "tournoi <strong>B</strong> 4 à 6" in page
    assert re.search(r'value="parallel" checked', page)


def test_team_and_tournament_rankings_and_the_choice_is_locked(app, arbiter, parallel):
    seats, data = _seats(app, parallel)
    garde = {"contract": "garde", "points": "49", "bouts": "2"}
    _post_sheet(arbiter, parallel, 1, 1, [{"taker": seats[1, 1]["N"], **garde}])
    _post_sheet(arbiter, parallel, 1, 4, [{"taker": seats[1, 4]["N"], **garde}])
    assert (seats[1, 1]["N"], seats[1, 4]["N"]) == ("N1", "N4")
    output, export = _ranking(app, parallel)
    totals = {row["id"]: row["total"] for row in output["ranking"]}
    assert totals == {"T1": 396, "T2": -132, "T3": -132, "T4": -132, **{f"T{i}": 0 for i in range(5, 13)}}
    a = output["tournaments"][0]
    assert a["tournament"] == "A" and (a["ranking"][0]["id"], a["ranking"][0]["total"]) == ("N1", 198)
    assert {row["id"]: row["total"] for row in a["ranking"] if row["rank"] == 10} == {"S1": -66, "E1": -66, "W1": -66}
    assert rank_free(export)["tournaments"] == output["tournaments"]  # the file says the same
    page = arbiter.get(f"/arbitre/tournois/{parallel}/libre/classement").get_data(as_text=True)
    assert "Tournoi A — classement individuel" in page and "Tournoi D — classement individuel" in page
    # rankings stay secret until published
    public = app.test_client().get(f"/tournois/{parallel}/")
    assert public.status_code == 200 and "Tournoi A — classement individuel" not in public.get_data(as_text=True)
    assert "Les résultats ne sont pas encore publiés" in public.get_data(as_text=True)
    # a feuille is saved: the movement (and the choice) can no longer change
    response = _movement_page(arbiter, parallel, mode="same_table")
    assert response.status_code == 422
    assert "Des feuilles de marque sont déjà saisies" in response.get_data(as_text=True)
    assert _seats(app, parallel)[1]["parallel"] == {"tables": 3, "tournaments": ["A", "B", "C", "D"]}


def test_back_to_the_same_table_before_any_feuille_is_journalled(app, arbiter, parallel):
    response = _movement_page(arbiter, parallel, mode="same_table")
    assert response.status_code == 302
    _, data = _seats(app, parallel)
    assert "parallel" not in data and data["teams"]["T1"] == ["N1", "S1", "E1", "W1"]
    with Session(db.get_engine(app)) as session:
        entries = session.exec(select(JournalEntry).where(JournalEntry.tournament_id == parallel,
                                                          JournalEntry.action == "freeplay.movement")
                               .order_by(JournalEntry.id)).all()
    assert [e.after["mouvement"] for e in entries] == ["parallel", "same_table"]
    assert entries[1].before["mouvement"] == "parallel"
    assert entries[1].summary.startswith("Mouvement FFT par équipes : 12 équipes, 12 tables")


def test_parallel_refusals_in_french_keep_the_form(app, arbiter, tournament_factory):
    five = tournament_factory("free_team4", 20, name="Mardi par équipes")
    _form_teams(app, arbiter, five, 4)
    response = _movement_page(arbiter, five, mode="parallel", positions="3")
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "5 équipes (4 tournois) : 5 équipes : 4 tournois en parallèle demandent un nombre d’équipes multiple de 4." in text
    assert 'value="parallel" checked' in text and 'value="3"' in text  # what was typed is kept
    eight = tournament_factory("free_team4", 32, name="Mardi par équipes")
    _form_teams(app, arbiter, eight, 4)
    response = _movement_page(arbiter, eight, mode="parallel")
    assert response.status_code == 422 and "12 équipes au moins (3 tables par tournoi)" in response.get_data(as_text=True)
    response = _movement_page(arbiter, eight, mode="n’importe quoi")
    assert response.status_code == 422 and "Mouvement inconnu" in response.get_data(as_text=True)
    with Session(db.get_engine(app)) as session:
        assert operations.get_movement(session, operations.get_tournament(session, eight)) is None


def test_export_import_export_keeps_the_parallel_tournaments(app, arbiter, parallel):
    import json

    seats, _ = _seats(app, parallel)
    _post_sheet(arbiter, parallel, 1, 4, [{"taker": seats[1, 4]["N"], "contract": "garde", "points": "49", "bouts": "2"}])
    first = arbiter.get(f"/arbitre/tournois/{parallel}/export").get_data(as_text=True)
    response = arbiter.post("/arbitre/import", data={"text": first})
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    new_id = int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))
    assert json.loads(arbiter.get(f"/arbitre/tournois/{new_id}/export").get_data(as_text=True)) == json.loads(first)
    output, _ = _ranking(app, new_id)
    assert output["tournaments"] == _ranking(app, parallel)[0]["tournaments"]
    assert output["tournaments"][1]["ranking"][0]["id"] == "N4"
    with Session(db.get_engine(app)) as session:  # each member at his own first table, not his team's
        tables = {p.entrant_id: p.start_table for p in session.exec(select(Player).where(Player.tournament_id == new_id))}
    assert tables["N4"] == 4 and tables["W12"] == 12
