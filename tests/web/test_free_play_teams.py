"""Team free play and the evening's extras on the web (issue 16, points 5 and 7): libre duo, libre par 4, the
carré final and the palmarès — on SQLite and PostgreSQL (the ``app`` fixture).

Values derived by hand from the rules (rules-of-play « La marque », booklet p. 8–14; SPEC §3):

* 4 players, Garde made by t (2 bouts, 41 + t points): (25 + t) × 2 per defender → taker +3 × (50 + 2t),
  each defender −(50 + 2t): t = 1…4 → takers +156, +162, +168, +174.
* 3 players, Garde made by 10 (2 bouts, 51 points): (25 + 10) × 2 = 70 → taker +140 (× 2), defenders −70;
  made by 1 (42 points): 52 → taker +104, defenders −52.
* 4 players, Prise made by 0 (1 bout, 51 points): 25 → taker +75, defenders −25.
* A team's total is the sum of its members' totals (booklet p. 9, « Leurs scores sont cumulés »).
* Prizes: 22 players → ⌈22 × 20 %⌉ = ⌈4,4⌉ = 5 (booklet p. 12, « un minimum de 20 % »).
* Carré final of 16 (booklet p. 14): « Table 1 : 1er, 5ème, 9ème, 13ème … Table 4 : 4ème, 8ème, 12ème,
  16ème »: the k-th best at table ((k − 1) mod 4) + 1, in N, S, E, W by (k − 1) div 4.
"""

import json
import re
from itertools import combinations

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.core.freeplay.movements import max_positions, rounds_from_dict
from duplicate.core.freeplay.tournament import rank_free
from duplicate.models import JournalEntry, Player, Team


def _player_ids(app, tournament_id: int) -> list[int]:
    with Session(db.get_engine(app)) as session:
        return [p.id for p in session.exec(select(Player).where(Player.tournament_id == tournament_id).order_by(Player.id))]


def _form_teams(app, client, tournament_id: int, size: int) -> None:
    ids = _player_ids(app, tournament_id)
    for n, start in enumerate(range(0, len(ids) - size + 1, size), start=1):  # full teams only
        response = client.post(f"/arbitre/tournois/{tournament_id}/equipes",
                               data={"name": f"Équipe {n}", "player_ids": ids[start:start + size]})
        assert response.status_code == 302, response.get_data(as_text=True)


def _movement(app, tournament_id: int) -> dict:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return operations.freeplay.free_plan(session, tournament)


def _seats(app, tournament_id: int) -> dict:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        data = operations.get_movement(session, tournament).data
    return {(r.position, r.table): r.seats for r in rounds_from_dict(data)}, data


def _post_sheet(client, tournament_id, position, table, rows: list[dict]):
    data = {"rows": str(len(rows)), "version": ""}
    for i, row in enumerate(rows):
        data.update({f"{name}-{i}": value for name, value in row.items()})
    response = client.post(f"/arbitre/tournois/{tournament_id}/libre/feuilles/{position}/{table}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    return response


def _ranking(app, tournament_id: int) -> tuple[dict, dict]:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return operations.freeplay.free_ranking(session, tournament), operations.freeplay.free_export(session, tournament)


# --- libre duo ---------------------------------------------------------------------------------------------

@pytest.fixture
def duos(app, arbiter, tournament_factory):
    """8 duos (16 players): 4 tables — the 4-table Howell from its 2nd position."""
    tournament_id = tournament_factory("free_duo", 16, name="Mardi par équipes")
    _form_teams(app, arbiter, tournament_id, 2)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"positions": "", "seed": "duo"})
    assert response.status_code == 302, response.get_data(as_text=True)
    return tournament_id


def test_duos_start_together_skip_the_first_position_and_never_meet(app, arbiter, duos):
    seats, data = _seats(app, duos)
    assert data["tables"] == 4 and data["positions"] == max_positions(4) - 1  # one position fewer (p. 21)
    with Session(db.get_engine(app)) as session:
        teams = session.exec(select(Team).where(Team.tournament_id == duos)).all()
        members = {t.entrant_id: [p for p in operations.team_members(session, t)] for t in teams}
    assert sorted(members) == sorted(f"{line}{t}" for t in range(1, 5) for line in ("NS", "EW"))
    for team, people in members.items():
        assert len(people) == 2 and len({p.start_table for p in people}) == 1  # the same starting table
        assert people[0].start_table == int(team[2:])
        a, b = (p.entrant_id for p in people)
        assert data["teams"][team] == [a, b]
        for (position, table), seated in seats.items():  # teammates never at one table
            assert not {a, b} <= set(seated.values()), (team, position, table)
    page = arbiter.get(f"/arbitre/tournois/{duos}/libre/mouvement").get_data(as_text=True)
    assert "ne jouent pas cette position" in page and "(NS1)" in page and "Places de départ des équipes" in page
    dashboard = arbiter.get(f"/arbitre/tournois/{duos}/").get_data(as_text=True)
    assert "8 équipes formées, 0 joueur sans équipe" in dashboard
    teams_page = arbiter.get(f"/arbitre/tournois/{duos}/equipes")
    assert teams_page.status_code == 200 and "Équipe 8" in teams_page.get_data(as_text=True)


def test_a_duos_total_is_the_sum_of_its_members_and_rank_agrees(app, arbiter, client, duos, runner, tmp_path):
    seats, data = _seats(app, duos)
    marks: dict[str, int] = {}
    for table in range(1, 5):  # position 1: at table t, South takes a Garde made by t (module docstring)
        people = seats[1, table]
        _post_sheet(arbiter, duos, 1, table, [{"taker": people["S"], "contract": "garde",
                                               "points": str(41 + table), "bouts": "2"}])
        for seat, player in people.items():
            marks[player] = 3 * (50 + 2 * table) if seat == "S" else -(50 + 2 * table)
    assert sum(marks.values()) == 0 and marks[seats[1, 4]["S"]] == 174
    output, export = _ranking(app, duos)
    assert export["kind"] == "free_duo" and len(export["teams"]) == 8
    team_total = {row["id"]: row["total"] for row in output["ranking"]}
    for team, (a, b) in data["teams"].items():
        assert team_total[team] == marks[a] + marks[b]
    players = {row["id"]: row["total"] for row in output["players"]}
    assert players == marks
    # hidden until publication, then both rankings
    page = arbiter.get(f"/arbitre/tournois/{duos}/libre/classement").get_data(as_text=True)
    assert "Classement par équipes" in page and "Classement individuel" in page
    # palmarès of the teams (docs/free-play.md): ⌈8 × 20 %⌉ = ⌈1,6⌉ = 2 duos; only position 1 is played, so the special
    # prize's « 2 dernières positions » is position 1 and a team's score there is its total
    by_total = sorted(team_total.items(), key=lambda item: -item[1])
    with Session(db.get_engine(app)) as session:
        prizes = operations.freeplay_extras.free_prizes(session, operations.get_tournament(session, duos))
    assert prizes["count"] == 2 and prizes["entrants"] == 8 and prizes["teams"]
    # the two best totals, and whoever ties the 2nd on every art. 29 criterion (ex æquo share the place)
    assert by_total[0][1] >= by_total[1][1]
    assert {row["id"] for row in prizes["winners"]} == {row["id"] for row in output["ranking"] if row["rank"] <= 2}
    assert {row["total"] for row in prizes["winners"]} == {by_total[0][1], by_total[1][1]}
    best_left = max(total for ident, total in team_total.items()
                    if ident not in {row["id"] for row in prizes["winners"]})
    assert prizes["special"]["score"] == best_left and prizes["special"]["positions"] == [1]
    palmares = page[page.index("Palmarès"):]
    assert "2 prix pour 8 équipes (20 % des équipes" in palmares and "Équipe" in palmares
    assert "équipes non récompensées" in palmares
    arbiter.get("/deconnexion")
    with app.test_client() as public:
        hidden = public.get(f"/tournois/{duos}/").get_data(as_text=True)
        assert "pas encore publiés" in hidden and "Équipe 1" not in hidden and "+174" not in hidden
    with Session(db.get_engine(app)) as session:
        operations.publish(session, operations.get_tournament(session, duos), True, "arbitre")
        session.commit()
    with app.test_client() as public:
        visible = public.get(f"/tournois/{duos}/").get_data(as_text=True)
    best = output["ranking"][0]
    assert "Classement par équipes" in visible and "Classement individuel" in visible
    assert visible.index("free-team-ranking") < visible.index(f"{best['total']:+d}")
    # the exported file, through the ``rank`` command, gives the same two rankings
    path = tmp_path / "duo.json"
    path.write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(args=["rank", str(path)])
    assert result.exit_code == 0, result.output
    ranked = json.loads(result.output)
    assert ranked["ranking"] == output["ranking"] and ranked["players"] == output["players"]


def test_team_refusals_say_why(app, arbiter, tournament_factory):
    odd = tournament_factory("free_duo", 18, name="Impair")
    _form_teams(app, arbiter, odd, 2)  # 9 duos: two a table, one left over
    response = arbiter.post(f"/arbitre/tournois/{odd}/libre/mouvement", data={"seed": ""})
    assert response.status_code == 422 and "nombre pair" in response.get_data(as_text=True)
    alone = tournament_factory("free_team4", 17, name="Seul")
    _form_teams(app, arbiter, alone, 4)  # the 17th player cannot make a team of 4
    response = arbiter.post(f"/arbitre/tournois/{alone}/libre/mouvement", data={"seed": ""})
    assert response.status_code == 422 and "1 joueur sans équipe" in response.get_data(as_text=True)
    few = tournament_factory("free_team4", 12, name="Trois tables")
    _form_teams(app, arbiter, few, 4)
    response = arbiter.post(f"/arbitre/tournois/{few}/libre/mouvement", data={"seed": ""})
    assert response.status_code == 422 and "4 tables au moins" in response.get_data(as_text=True)
    for bad in ({"positions": "99"}, {"positions": "abc"}, {"seed": "x" * 300}):
        assert arbiter.post(f"/arbitre/tournois/{few}/libre/mouvement", data=bad).status_code == 422
    # an individual free tournament has no teams; a team one has no carré final
    solo = tournament_factory("free", 12, name="Solo")
    assert arbiter.get(f"/arbitre/tournois/{solo}/equipes").status_code == 302
    response = arbiter.post(f"/arbitre/tournois/{few}/libre/carre-final", data={"finalists": "16"}, follow_redirects=True)
    assert response.status_code == 200 and "tournoi libre individuel" in response.get_data(as_text=True)


def test_libre_par_4_teams_at_one_table_and_the_team_lateness(app, arbiter, runner, tmp_path, tournament_factory):
    tournament_id = tournament_factory("free_team4", 20, name="Libre par 4")
    _form_teams(app, arbiter, tournament_id, 4)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": "par4"})
    assert response.status_code == 302, response.get_data(as_text=True)
    seats, data = _seats(app, tournament_id)
    assert data["tables"] == 5 and data["positions"] == max_positions(5) - 1
    assert sorted(data["teams"]) == [f"T{t}" for t in range(1, 6)]
    for team, people in data["teams"].items():
        assert people == [f"{line}{team[1:]}" for line in "NSEW"]  # the whole table t (p. 21)
        for seated in seats.values():
            assert len(set(people) & set(seated.values())) <= 1
    # moves: into the 1st position played, the FFT move of the 2nd (the team's table is the skipped one)
    assert data["moves"][0] == {"position": 1, "N": 0, "S": 1, "E": 2, "W": -2}
    people = seats[1, 1]
    _post_sheet(arbiter, tournament_id, 1, 1, [{"taker": people["E"], "contract": "prise", "points": "51", "bouts": "1"}])
    # art. 26 in a team event: the late member's 100 points count in his team's total
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/retard", data={"entrant_id": people["N"], "minutes": "3"})
    assert response.status_code == 302
    output, export = _ranking(app, tournament_id)
    totals = {row["id"]: row["total"] for row in output["ranking"]}
    team_of = {m: t for t, ms in data["teams"].items() for m in ms}
    expected = dict.fromkeys(data["teams"], 0)
    for seat, player in people.items():
        expected[team_of[player]] += 75 if seat == "E" else -25
    expected[team_of[people["N"]]] -= 100
    assert totals == expected
    path = tmp_path / "par4.json"
    path.write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(args=["rank", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ranking"] == output["ranking"]
    # a withdrawn member (art. 27) puts his team last
    with Session(db.get_engine(app)) as session:
        player = session.exec(select(Player).where(Player.tournament_id == tournament_id,
                                                   Player.entrant_id == people["E"])).one()
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/forfait", data={"player_id": player.id, "position": "2"})
    assert response.status_code == 302, response.get_data(as_text=True)
    output, _ = _ranking(app, tournament_id)
    assert output["ranking"][-1]["id"] == team_of[people["E"]] and output["ranking"][-1]["withdrawn"]
    assert arbiter.get(f"/arbitre/tournois/{tournament_id}/libre/classement").status_code == 200


# --- the individual evening: palmarès and carré final ----------------------------------------------------------

PLAYERS = 22  # 6 tables, 5 positions, tables 5 and 6 at 3 (the core's choice)


@pytest.fixture
def evening(app, arbiter, tournament_factory):
    """22 players; every feuille entered: position 1 as the module docstring, a Prise made at a table of the
    last position where no taker of position 1 sits, passes elsewhere. Returns (tournament id, seats, hand-derived totals, the Prise's taker)."""
    tournament_id = tournament_factory("free", PLAYERS, name="Grosse dotation")
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": "dotation"})
    assert response.status_code == 302
    seats, data = _seats(app, tournament_id)
    assert data["positions"] == 5 and data["three_player_tables"] == [5, 6]
    totals: dict[str, int] = {p: 0 for s in seats.values() for p in s.values() if p}
    takers = set()
    for table in range(1, 7):
        people = seats[1, table]
        taker = people["E"] if table <= 4 else people["S"]  # mixed lines: some last table is free of them
        takers.add(taker)
        if table <= 4:
            points, each, win = str(41 + table), 50 + 2 * table, 3 * (50 + 2 * table)
        else:  # tables of 3: made by 10, then by 1
            points, each = ("51", 70) if table == 5 else ("42", 52)
            win = 2 * each
        _post_sheet(arbiter, tournament_id, 1, table, [{"taker": taker, "contract": "garde", "points": points, "bouts": "2"}])
        for player in filter(None, people.values()):
            totals[player] += win if player == taker else -each
    last = data["positions"]
    # a table of 4 at the last position where none of the six takers sits: the Prise there moves no prize
    quiet = next(t for t in range(1, 5) if not takers & set(seats[last, t].values()))
    late = seats[last, quiet]["W"]
    for position in range(2, last + 1):
        for table in range(1, 7):
            if (position, table) == (last, quiet):
                _post_sheet(arbiter, tournament_id, position, table,
                            [{"taker": late, "contract": "prise", "points": "51", "bouts": "1"}])
                for player in filter(None, seats[position, table].values()):
                    totals[player] += 75 if player == late else -25
            else:
                _post_sheet(arbiter, tournament_id, position, table, [{"passed": "1"}])
    return tournament_id, seats, totals, late


def test_palmares_twenty_percent_and_the_last_two_positions(app, arbiter, evening):
    tournament_id, seats, totals, late = evening
    output, _ = _ranking(app, tournament_id)
    assert {row["id"]: row["total"] for row in output["ranking"]} == totals
    best = sorted(totals.values(), reverse=True)[:5]
    assert best == [174, 168, 162, 156, 140]
    with Session(db.get_engine(app)) as session:
        prizes = operations.freeplay_extras.free_prizes(session, operations.get_tournament(session, tournament_id))
    assert prizes["count"] == 5 and prizes["entrants"] == 22  # ⌈4,4⌉
    assert [row["total"] for row in prizes["winners"]] == best
    # the last two positions are 4 and 5: only the Prise of position 5 scored there
    assert prizes["special"] == {"ids": [late], "score": 75, "positions": [4, 5]}
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/libre/classement").get_data(as_text=True)
    palmares = page[page.index("Palmarès"):]
    assert "5 prix pour 22 joueurs" in palmares and palmares.count("<li>") >= 5
    assert "Prix spécial des deux dernières positions" in palmares and "+75" in palmares


def test_carre_final_of_the_16_best_seated_by_rank(app, arbiter, evening):
    tournament_id, _, totals, late = evening
    output, _ = _ranking(app, tournament_id)
    ranked = [row["id"] for row in output["ranking"]]
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final", data={"finalists": "16"})
    assert response.status_code == 302, response.get_data(as_text=True)
    seats, data = _seats(app, tournament_id)
    assert data["positions"] == 6 and data["final_square"]["positions"] == [6]
    final = {table: seats[6, table] for table in range(1, 5)}
    assert (6, 5) not in seats  # 16 finalists: 4 tables
    for k in range(1, 17):  # k-th best: table ((k − 1) mod 4) + 1, N/S/E/W by (k − 1) div 4
        assert final[(k - 1) % 4 + 1]["NSEW"[(k - 1) // 4]] == ranked[k - 1], k
    assert [final[1][s] for s in "NSEW"] == [ranked[0], ranked[4], ranked[8], ranked[12]]  # 1er, 5e, 9e, 13e
    assert [final[4][s] for s in "NSEW"] == [ranked[3], ranked[7], ranked[11], ranked[15]]  # 4e, 8e, 12e, 16e
    # its feuilles are entered as the others; the special prize keeps positions 4 and 5
    sheets = arbiter.get(f"/arbitre/tournois/{tournament_id}/libre/feuilles").get_data(as_text=True)
    assert "/libre/feuilles/6/4" in sheets
    first = final[1]
    _post_sheet(arbiter, tournament_id, 6, 1, [{"taker": first["W"], "contract": "garde", "points": "51", "bouts": "2"}])
    output, export = _ranking(app, tournament_id)
    by_id = {row["id"]: row["total"] for row in output["ranking"]}
    assert by_id[first["W"]] == totals[first["W"]] + 210 and by_id[first["N"]] == totals[first["N"]] - 70
    assert rank_free(json.loads(json.dumps(export)))["ranking"] == output["ranking"]
    with Session(db.get_engine(app)) as session:
        prizes = operations.freeplay_extras.free_prizes(session, operations.get_tournament(session, tournament_id))
        assert session.exec(select(JournalEntry).where(JournalEntry.action == "freeplay.final_square")).one()
    assert prizes["special"]["positions"] == [4, 5]
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/libre/mouvement").get_data(as_text=True)
    assert "Position 6 — carré final des 16 meilleurs" in page
    # twice, or undone once a feuille of it is entered: refused, said in French
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final", data={"finalists": "12"})
    assert response.status_code == 422 and "déjà placé" in response.get_data(as_text=True)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final/annuler", follow_redirects=True)
    assert "Des feuilles du carré final sont saisies" in response.get_data(as_text=True)


def test_carre_final_waits_for_every_feuille_and_can_be_undone(app, arbiter, tournament_factory):
    tournament_id = tournament_factory("free", 20, name="Vingt")
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": "x"}).status_code == 302
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final", data={"finalists": "16"})
    assert response.status_code == 422 and "Il manque 25 feuilles" in response.get_data(as_text=True)
    seats, data = _seats(app, tournament_id)
    for position, table in seats:
        _post_sheet(arbiter, tournament_id, position, table, [{"passed": "1"}])
    for bad in ({"finalists": "15"}, {"finalists": ""}, {"finalists": "16", "one_deal_positions": "y"}):
        assert arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final", data=bad).status_code == 422
    # 20 finalists, 5 positions of one deal by the FFT movement (p. 13)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final",
                            data={"finalists": "20", "one_deal_positions": "y"})
    assert response.status_code == 302, response.get_data(as_text=True)
    seats, data = _seats(app, tournament_id)
    assert data["final_square"]["positions"] == [6, 7, 8, 9, 10] and data["positions"] == 10
    met = [frozenset(pair) for p in range(6, 11) for t in range(1, 6) for pair in combinations(seats[p, t].values(), 2)]
    assert len(met) == len(set(met))  # no two finalists meet twice
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final/annuler", follow_redirects=True)
    assert "Carré final annulé" in response.get_data(as_text=True)
    seats, data = _seats(app, tournament_id)
    assert data["positions"] == 5 and "final_square" not in data and (6, 1) not in seats



def test_migration_h5_adds_the_team_kinds_and_downgrades_without_them(app, arbiter, database_url, tournament_factory):
    import sqlalchemy as sa
    from alembic import command

    for kind in ("free", "free_duo", "free_team4"):  # the CHECK constraint of h5 takes the team kinds
        tournament_factory(kind, 0, name=kind)
    db.get_engine(app).dispose()
    with db.migration_connection(database_url) as conn:
        command.downgrade(db.alembic_config(conn), "h4_free_sheets")
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as conn:  # the team free-play tournaments are removed first, the others kept
            assert sorted(conn.execute(sa.text("SELECT kind FROM tournament")).scalars()) == ["free"]
            with pytest.raises(sa.exc.IntegrityError), conn.begin_nested():
                conn.execute(sa.text("UPDATE tournament SET kind = 'free_duo'"))
    finally:
        engine.dispose()


def test_libre_par_4_teams_from_a_csv_list_then_seated(app, arbiter, tournament_factory):
    import html
    import io

    tournament_id = tournament_factory("free_team4", 0, name="Interclubs")
    lines = ["Équipe;Licence;Nom;Prénom;Club"]
    lines += [f"Club {t};{9000 + 4 * t + m};JOUEUR{t}{m};Prénom;Club {t}" for t in range(1, 6) for m in range(4)]
    base = f"/arbitre/tournois/{tournament_id}/equipes/import"
    preview = arbiter.post(base, data={"file": (io.BytesIO("\n".join(lines).encode()), "equipes.csv")},
                           content_type="multipart/form-data")
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "5 équipes, 20 joueurs" in page
    fields = {"confirm": "1", "expected": re.search(r'name="expected" value="([0-9]+)"', page).group(1),
              "text": html.unescape(re.search(r'<textarea name="text" hidden>\n(.*?)</textarea>', page, re.S).group(1))}
    assert arbiter.post(base, data=fields).status_code == 302
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": "csv"}).status_code == 302
    _, data = _seats(app, tournament_id)
    with Session(db.get_engine(app)) as session:
        teams = {t.entrant_id: [p.surname for p in operations.team_members(session, t)]
                 for t in session.exec(select(Team).where(Team.tournament_id == tournament_id))}
    for team, surnames in teams.items():  # a club's four players: one team, the members in the list's order
        assert len({s[:-1] for s in surnames}) == 1 and surnames == sorted(surnames)
    assert sorted(teams) == sorted(data["teams"])
    assert arbiter.get(f"/arbitre/tournois/{tournament_id}/equipes/export.csv").status_code == 200
