"""Import of libre duo and libre par 4 files (issue 16): the SPEC §13 file with ``teams`` makes a new team
free tournament, all or nothing; export → import → export gives back the same file — on SQLite and
PostgreSQL (the ``app`` fixture).

Values derived by hand (rules-of-play « La marque », SPEC §3): at 4 players a Garde made by t (2 bouts,
41 + t points) is worth (25 + t) × 2 per defender, so the taker gets +3 × (50 + 2t) and each defender
−(50 + 2t): t = 1 → +156 / −52, t = 2 → +162 / −54. A team's total is the sum of its members' (booklet p. 9,
« Leurs scores sont cumulés »); lateness of 7 minutes: 2 started 5-minute periods → 200 points (art. 26).
"""

import json
import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import JournalEntry, Player, Team, Tournament

from test_free_play_teams import _form_teams, _post_sheet, _ranking, _seats


def _import(client, text: str):
    return client.post("/arbitre/import", data={"text": text})


def _tournament_count(app) -> int:
    with Session(db.get_engine(app)) as session:
        return len(session.exec(select(Tournament)).all())


def _seated(app, arbiter, tournament_factory, kind: str, players: int, seed: str) -> int:
    tournament_id = tournament_factory(kind, players, name=f"Import {kind}")
    _form_teams(app, arbiter, tournament_id, 2 if kind == "free_duo" else 4)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": seed})
    assert response.status_code == 302, response.get_data(as_text=True)
    return tournament_id


def _played(app, arbiter, tournament_id: int) -> dict[str, int]:
    """Position 1, tables 1 and 2: South takes a Garde made by t (module docstring); the marks by hand.
    Then 7 minutes of lateness for table 1's East and a phone ringing twice for table 2's West."""
    seats, _ = _seats(app, tournament_id)
    marks = {player: 0 for seated in seats.values() for player in seated.values() if player}
    for table in (1, 2):
        people = seats[1, table]
        _post_sheet(arbiter, tournament_id, 1, table, [{"taker": people["S"], "contract": "garde",
                                                        "points": str(41 + table), "bouts": "2"}, {"passed": "1"}])
        for seat, player in people.items():
            marks[player] = 3 * (50 + 2 * table) if seat == "S" else -(50 + 2 * table)
    assert marks[seats[1, 1]["S"]] == 156 and marks[seats[1, 2]["N"]] == -54
    east, west = seats[1, 1]["E"], seats[1, 2]["W"]
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/retard",
                        data={"entrant_id": east, "minutes": "7"}).status_code == 302
    for _ in range(2):
        assert arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/faute",
                            data={"faute-entrant_id": west, "faute-fault": "telephone_sonne"}).status_code == 302
    marks[east] -= 200
    marks[west] -= 500  # a warning, then 500
    return marks


@pytest.mark.parametrize("kind, players, seed", [("free_duo", 16, "duo"), ("free_team4", 16, "par4")])
def test_team_file_export_import_export_round_trips(app, arbiter, tournament_factory, kind, players, seed):
    tournament_id = _seated(app, arbiter, tournament_factory, kind, players, seed)
    marks = _played(app, arbiter, tournament_id)
    first = arbiter.get(f"/arbitre/tournois/{tournament_id}/export").get_data(as_text=True)
    assert json.loads(first)["kind"] == kind and len(json.loads(first)["teams"]) == (8 if kind == "free_duo" else 4)
    response = _import(arbiter, first)
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    new_id = int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))
    assert new_id != tournament_id
    again = arbiter.get(f"/arbitre/tournois/{new_id}/export").get_data(as_text=True)
    assert json.loads(again) == json.loads(first)
    output, export = _ranking(app, new_id)
    assert {row["id"]: row["total"] for row in output["players"]} == marks
    team_total = {row["id"]: row["total"] for row in output["ranking"]}
    for team in export["teams"]:
        assert team_total[team["id"]] == sum(marks[m] for m in team["members"]), team
    assert output == _ranking(app, tournament_id)[0]
    # the teams are rows as if formed on screen: members in order, each starting at his team's table
    with Session(db.get_engine(app)) as session:
        teams = session.exec(select(Team).where(Team.tournament_id == new_id)).all()
        for team in teams:
            members = operations.team_members(session, team)
            assert [p.entrant_id for p in members] == export["movement"]["teams"][team.entrant_id]
            assert {p.start_table for p in members} == {team.start_table}
            assert team.start_table == int(team.entrant_id.lstrip("NSEWT"))
        entry = session.exec(select(JournalEntry).where(JournalEntry.tournament_id == new_id,
                                                        JournalEntry.action == "tournament.import")).one()
        assert f"16 joueurs, {len(teams)} équipes, 2 feuilles, 3 pénalités" in entry.summary
    page = arbiter.get(f"/arbitre/tournois/{new_id}/libre/classement").get_data(as_text=True)
    assert "Classement par équipes" in page and "Classement individuel" in page
    dashboard = arbiter.get(f"/arbitre/tournois/{new_id}/").get_data(as_text=True)
    assert f"{len(teams)} équipes formées, 0 joueur sans équipe" in dashboard


def _swap_members(f):
    a, b = f["teams"][0], f["teams"][1]
    a["members"][0], b["members"][0] = b["members"][0], a["members"][0]


@pytest.mark.parametrize("change, named", [
    (lambda f: f.pop("teams"), "« équipe » : liste attendue"),
    (lambda f: f.update(teams=[]), "« teams »"),
    (lambda f: f["teams"].pop(), "dans aucune équipe"),
    (lambda f: f["teams"][0].update(id="T1"), "équipe n° 1 (T1) : identifiant"),
    (lambda f: f["teams"][0].update(id="NS" + "9" * 50), "identifiant"),
    (lambda f: f["teams"][0].update(name="x" * 300), "équipe n° 1"),
    (lambda f: f["teams"][0]["members"].pop(), "2 membres"),
    (lambda f: f["teams"][1].update(members=list(f["teams"][0]["members"])), "deux équipes"),
    (_swap_members, "ne sont pas ceux que le mouvement place"),
    (lambda f: f["results"][0].update(points=95), "résultat n° 1 (table"),
    (lambda f: f.update(kind="free"), "« teams » : un tournoi libre individuel"),
])
def test_a_faulty_team_file_changes_nothing_and_names_the_item(app, arbiter, tournament_factory, change, named):
    tournament_id = _seated(app, arbiter, tournament_factory, "free_duo", 16, "duo")
    _played(app, arbiter, tournament_id)
    file = json.loads(arbiter.get(f"/arbitre/tournois/{tournament_id}/export").get_data(as_text=True))
    change(file)
    before = _tournament_count(app)
    with Session(db.get_engine(app)) as session:
        rows = len(session.exec(select(Player)).all()), len(session.exec(select(Team)).all())
    response = _import(arbiter, json.dumps(file, ensure_ascii=False))
    assert response.status_code == 422
    page = response.get_data(as_text=True).replace("&#34;", '"').replace("&#39;", "'")
    assert "Fichier refusé : " in page and "Rien n’a été importé." in page
    assert named in page, page[page.index("Fichier refusé"):][:300]
    assert _tournament_count(app) == before
    with Session(db.get_engine(app)) as session:
        assert (len(session.exec(select(Player)).all()), len(session.exec(select(Team)).all())) == rows
