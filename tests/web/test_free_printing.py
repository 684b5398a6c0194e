"""Free play on the web, data out (issue 16, SPEC §13): the printing page of a free tournament, the federation's
PCN file from the ranking page, and the ranking API with the duplicate's secrecy.

18 players (5 tables, two of them at 3). Marks by hand (as in test_free_play): at a table of 4, South takes a
Garde with 2 bouts and 51 points: (25 + 10) × 2 = 70 → South +210, the others −70. PCN (booklet chapter 5):
5 tables, c = 0.71, the first 40 × 5 = 200; 18 players, 9 places: 200, 142, 100, 71, 50, 50, 50, 50, 50.
With one deal played, the four who played take places 1 (+210), 2–15 (the 14 at 0) and 16 (−70, three):
the fourteen at 0 share places 2–9 and five empty ones: (142 + 100 + 71 + 5 × 50) / 14 = 40.2 → 41, under the
booklet's floor: 50 each (« L'attribution minimale de Pcn est fixée à 50 PCN », issue 29 point 7).
"""

import re
import subprocess

import pytest
from sqlmodel import Session

from duplicate import db, operations
from test_free_play import EVENING, PLAYERS, _four_and_three, _post_sheet

def pdf_text(pdf: bytes, layout: bool = True) -> str:
    args = ["pdftotext", *(["-layout"] if layout else []), "-", "-"]
    return subprocess.run(args, input=pdf, capture_output=True, check=True).stdout.decode("utf-8")


FREE_KINDS = ("free-cards", "free-orientation", "free-table-cards", "free-sheets", "free-ranking", "free-pcn")


@pytest.fixture
def seated(free_evening_factory) -> int:
    return free_evening_factory(PLAYERS, "mardi", form={"positions": ""}, **EVENING)


def _licences(app, tournament_id) -> dict[str, str]:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return {p.entrant_id: p.licence for p in operations.players(session, tournament)}


def test_printing_page_offers_the_free_kinds_and_renders_each(app, arbiter, seated):
    tid = seated
    page = arbiter.get(f"/arbitre/tournois/{tid}/impression/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for title in ("Fiches personnelles", "Tableau d’orientation des joueurs", "Feuilles de marque vierges", "PCN et PP"):
        assert title in html
    assert "Tout imprimer" not in html and "Diagrammes" not in html
    (four, seats), _ = _four_and_three(app, tid)
    assert _post_sheet(arbiter, tid, 1, four, [{"taker": seats["S"], "contract": "garde", "points": "51",
                                                "bouts": "2"}]).status_code == 302
    names = {}
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tid)
        names = operations.freeplay.player_names(session, tournament)
    printed = {}  # each kind rendered once: the fiches and the ranking are read from the same PDFs
    for kind in FREE_KINDS:
        response = arbiter.post(f"/arbitre/tournois/{tid}/impression/{kind}")
        assert response.status_code == 200, kind
        assert response.mimetype == "application/pdf" and response.data.startswith(b"%PDF"), kind
        assert f"tournoi-{tid}-" in response.headers["Content-Disposition"]
        printed[kind] = response.data
    fiche = pdf_text(printed["free-cards"], layout=False)
    assert all(name in fiche for name in names.values())  # every player has his fiche, named
    ranking = " ".join(pdf_text(printed["free-ranking"]).split())
    assert f"1 {seats['S'].replace('W', 'O')} {names[seats['S']]}" in ranking and "+210" in ranking
    # the duplicate kinds, the pack and the batch jobs are not a free tournament's
    assert arbiter.post(f"/arbitre/tournois/{tid}/impression/diagrams").status_code == 404
    assert arbiter.post(f"/arbitre/tournois/{tid}/impression/route-sheets").status_code == 404
    assert arbiter.post(f"/arbitre/tournois/{tid}/impression/tout").status_code == 404  # `web.freeplay.guard`


def test_printed_pcn_with_a_championship_and_bad_choices(app, arbiter, seated):
    tid = seated
    response = arbiter.post(f"/arbitre/tournois/{tid}/impression/free-pcn",
                            data={"championship": "regional_final", "tables": "5"})
    text = " ".join(pdf_text(response.data).split())
    # nobody has played: the 18 share the 9 places: (200 + 142 + 100 + 71 + 5 × 50) / 18 = 42.4 → 43,
    # × 1,8 in a regional final: (360 + 255 + 180 + 127 + 5 × 90) / 18 = 76.2 → 77, PP (3 + 2 + 1) / 18 → 1
    assert "finale régionale (indice 1,8) · 5 tables, 18 joueurs" in text and " 77 1 " in text + " "
    for data in ({"championship": "world"}, {"tables": "abc"}, {"tables": "0"}, {"tables": "99999999999999"}):
        response = arbiter.post(f"/arbitre/tournois/{tid}/impression/free-pcn", data=data)
        assert response.status_code == 302, data
    assert arbiter.post(f"/arbitre/tournois/{tid}/impression/inconnu").status_code == 404


def test_federation_file_from_the_ranking_page(app, arbiter, seated):
    tid = seated
    page = arbiter.get(f"/arbitre/tournois/{tid}/libre/classement").get_data(as_text=True)
    assert "Télécharger le fichier PCN (CSV)" in page and "Finale régionale (indice 1,8)" in page
    (four, seats), _ = _four_and_three(app, tid)
    _post_sheet(arbiter, tid, 1, four, [{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}])
    licences = _licences(app, tid)
    response = arbiter.get(f"/arbitre/tournois/{tid}/libre/pcn.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == f'attachment; filename="tournoi-{tid}-pcn.csv"'
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0] == "Licence;Nom;Place;PCN;PP"
    assert lines[1].startswith(f"{licences[seats['S']]};") and lines[1].endswith(";1;200;0")
    assert len(lines) == 1 + 1 + 14 and all(line.endswith(";2;50;0") for line in lines[2:])
    final = arbiter.get(f"/arbitre/tournois/{tid}/libre/pcn.csv?championnat=regional_final").get_data(as_text=True)
    assert final.splitlines()[1].endswith(";1;360;3")  # 200 × 1,8, PP 3
    # two sessions: the tables of both added (booklet p. 44): 10 tables → the first 400
    assert arbiter.get(f"/arbitre/tournois/{tid}/libre/pcn.csv?tables=10").get_data(as_text=True).splitlines()[1].endswith(";1;400;0")
    for query in ("championnat=x", "tables=abc", "tables=-1", "tables=1e99"):
        response = arbiter.get(f"/arbitre/tournois/{tid}/libre/pcn.csv?{query}")
        assert response.status_code == 302, query
        assert response.headers["Location"].endswith(f"/arbitre/tournois/{tid}/libre/classement")


def test_pcn_refused_redirects_with_the_reason(app, arbiter, monkeypatch, seated):
    tid = seated
    from duplicate.core.freeplay import pcn

    monkeypatch.setitem(pcn.MINIMUM, "free", 19)
    response = arbiter.get(f"/arbitre/tournois/{tid}/libre/pcn.csv", follow_redirects=True)
    assert "Pas de PCN pour ce tournoi : 18 joueurs : il en faut 19 au moins" in response.get_data(as_text=True)


def test_ranking_api_for_a_free_tournament_keeps_the_secret(app, arbiter, seated):
    tid = seated
    (four, seats), _ = _four_and_three(app, tid)
    _post_sheet(arbiter, tid, 1, four, [{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}])
    url = f"/api/tournaments/{tid}/ranking"
    mine = arbiter.get(url)  # the signed-in arbiter: always
    assert mine.status_code == 200
    body = mine.get_json()
    assert body["kind"] == "free" and body["published"] is False and body["complete"] is False
    assert body["missing"] == 25 - 1  # 5 tables × 5 positions, one feuille entered
    by_id = {row["id"]: row for row in body["ranking"]}
    assert by_id[seats["S"]]["total"] == 210 and by_id[seats["S"]]["rank"] == 1 and by_id[seats["N"]]["total"] == -70
    assert body["results"][0]["scores"][seats["S"]] == 210
    with Session(db.get_engine(app)) as session:  # what ``rank`` gives on the export
        tournament = operations.get_tournament(session, tid)
        assert body["ranking"] == operations.freeplay.free_ranking(session, tournament)["ranking"]
    with app.test_client() as public:
        hidden = public.get(url)
        assert hidden.status_code == 403
        assert set(hidden.get_json()) == {"error", "complete", "missing", "published"}
        assert "publiés" in hidden.get_json()["error"] and "210" not in hidden.get_data(as_text=True)
    # a second feuille is seen at once (the cache follows the feuilles)
    (four, seats2), (three, seats3) = _four_and_three(app, tid)
    _post_sheet(arbiter, tid, 1, three, [{"taker": seats3["E"], "contract": "garde", "points": "40,5", "bouts": "2"}])
    again = arbiter.get(url).get_json()
    assert again["missing"] == 25 - 2 and {row["id"]: row for row in again["ranking"]}[seats3["E"]]["total"] == -104
    with Session(db.get_engine(app)) as session:
        operations.publish(session, operations.get_tournament(session, tid), True, "arbitre")
        session.commit()
    with app.test_client() as public:
        shown = public.get(url)
        assert shown.status_code == 200 and shown.get_json()["published"] is True
        assert shown.get_json()["ranking"] == again["ranking"]
    assert app.test_client().get("/api/tournaments/999999/ranking").status_code == 404


def test_an_api_token_of_an_arbiter_reads_it_before_publication(app, arbiter, seated):
    tid = seated
    with Session(db.get_engine(app)) as session:
        token = operations.create_token(session, "arbiter", "classement")
        session.commit()
    with app.test_client() as robot:
        response = robot.get(f"/api/tournaments/{tid}/ranking", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200 and response.get_json()["kind"] == "free"
        assert re.match(r"^[NSEW]\d$", response.get_json()["ranking"][0]["id"])


def test_before_the_movement_every_kind_prints_and_says_so(app, arbiter, tournament_factory):
    tid = tournament_factory("free", PLAYERS, **EVENING)
    for kind in FREE_KINDS:
        response = arbiter.post(f"/arbitre/tournois/{tid}/impression/{kind}")
        assert response.status_code == 200 and response.data.startswith(b"%PDF"), kind
    assert "Pas encore de mouvement" in pdf_text(arbiter.post(f"/arbitre/tournois/{tid}/impression/free-cards").data)


def test_a_duplicate_tournament_keeps_its_kinds(arbiter):
    response = arbiter.post("/arbitre/tournois/nouveau", data={
        "name": "Vendredi", "kind": "individual", "date": "2026-11-27", "place": "Club", "sessions": "1",
        "timezone": "Europe/Paris"})
    tid = int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))
    page = arbiter.get(f"/arbitre/tournois/{tid}/impression/").get_data(as_text=True)
    assert "Tout imprimer" in page and "Fiches personnelles" not in page
    assert arbiter.post(f"/arbitre/tournois/{tid}/impression/free-cards").status_code == 404
    for page in ("libre/pcn.csv", "libre/classement", "libre/feuilles", "libre/feuilles/1/1", "libre/mouvement"):
        response = arbiter.get(f"/arbitre/tournois/{tid}/{page}")  # the free-play pages: back to the dashboard
        assert response.status_code == 302 and response.headers["Location"].endswith(f"/arbitre/tournois/{tid}/"), page


def test_print_command_prints_the_free_kinds(app, arbiter, runner, tmp_path, seated):
    tid = seated
    out = tmp_path / "fiches.pdf"
    result = runner.invoke(args=["print", "free-cards", "--tournament", str(tid), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 pages" in result.output and "FICHE PERSONNELLE" in pdf_text(out.read_bytes())  # 18 fiches, 8 a page
    result = runner.invoke(args=["print", "diagrams", "--tournament", str(tid), "--out", str(tmp_path / "d.pdf")])
    assert result.exit_code != 0 and "un tournoi en donnes libres imprime" in result.output


def test_a_libre_duo_prints_its_team_ranking_and_palmares(app, arbiter, tournament_factory):
    """8 duos (16 players, 4 tables): the printed ranking has the teams' ranking, then the players'; the
    palmarès gives ⌈8 × 20 %⌉ = ⌈1,6⌉ = 2 prizes to duos (docs/free-play.md « Palmarès »). One deal at table 1 of the
    1st position: South's Garde made by 10 → South +210, each defender −70 (module docstring)."""
    from test_free_play_teams import _form_teams, _post_sheet as post, _seats

    tid = tournament_factory("free_duo", 16, name="Duo du jeudi")
    _form_teams(app, arbiter, tid, 2)
    assert arbiter.post(f"/arbitre/tournois/{tid}/libre/mouvement", data={"seed": "duo"}).status_code == 302
    seats, data = _seats(app, tid)
    south = seats[1, 1]["S"]
    post(arbiter, tid, 1, 1, [{"taker": south, "contract": "garde", "points": "51", "bouts": "2"}])
    team = next(t for t, members in data["teams"].items() if south in members)
    pdf = arbiter.post(f"/arbitre/tournois/{tid}/impression/free-ranking").data
    text = " ".join(pdf_text(pdf).split())
    assert "Classement par équipes" in text and "Classement individuel" in text
    assert text.index("Classement par équipes") < text.index("Classement individuel") < text.index("Palmarès")
    assert re.search(rf"1 {team.replace('EW', 'EO')} Équipe \d+ .*\+210", text)
    assert "2 prix pour 8 duos (20 % des duos, arrondi au-dessus)" in text
