"""Free play entry complete (issue 16): the arbitration code's penalties on the ranking screen, the import of a
SPEC §13 free file, scorers entering feuilles, the live marks of a typed sheet.

Sanctions derived by hand from the booklet (chapter 4, « Autres cas prévus par le code d'arbitrage »,
``seeds/fft-fascicule-free-play-ocr.txt``):

* « L'arbitre donnera un avertissement pour un téléphone qui sonne. En cas de récidive … une pénalité de
  500 points »: the first ring is a warning (0 point), the second costs 500.
* « Non-retour de la feuille de marque (feuille « disparue ») 400 points »: 400 the first time.
* « Interdiction de fumer … : pénalité » without an amount: the arbiter's points (here 150).
* Cards touched during the deal: « un avertissement … puis en cas de récidive une pénalité de 100 points ».
"""

import json
import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.core.freeplay.movements import free_movement
from duplicate.core.freeplay.tournament import rank_free
from duplicate.models import FreeSheet, JournalEntry, Penalty, Tournament

PLAYERS = 18  # 5 tables, two of them at 3


def _create(client, players: int = PLAYERS) -> int:
    response = client.post("/arbitre/tournois/nouveau", data={
        "name": "Jeudi libre", "kind": "free", "date": "2026-11-26", "place": "Club", "sessions": "1",
        "timezone": "Europe/Paris"})
    assert response.status_code == 302, response.get_data(as_text=True)
    tournament_id = int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))
    for i in range(players):
        response = client.post(f"/arbitre/tournois/{tournament_id}/joueurs", data={
            "licence": f"L{i:04d}", "surname": f"NOM{i:02d}", "first_name": "Prénom", "club": "Club"})
        assert response.status_code == 302
    return tournament_id


@pytest.fixture
def seated(arbiter):
    tournament_id = _create(arbiter)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": "jeudi"})
    assert response.status_code == 302, response.get_data(as_text=True)
    return tournament_id


def _seats(app, tournament_id: int, position: int, table: int) -> dict:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return operations.freeplay.table_seats(session, tournament, position, table)


def _four(app, tournament_id):
    rounds, _ = free_movement(players=PLAYERS)
    table = next(r.table for r in rounds if r.position == 1 and len(r.players()) == 4)
    return table, _seats(app, tournament_id, 1, table)


def _sheet_data(rows: list[dict], version="", **extra) -> dict:
    data = {"rows": str(len(rows)), "version": version, **extra}
    for i, row in enumerate(rows):
        data.update({f"{name}-{i}": value for name, value in row.items()})
    return data


def _fault(client, tournament_id, player, fault, **extra):
    data = {"faute-entrant_id": player, "faute-fault": fault}
    data.update({f"faute-{key}": value for key, value in extra.items()})
    return client.post(f"/arbitre/tournois/{tournament_id}/libre/faute", data=data)


def _export(app, tournament_id) -> dict:
    with Session(db.get_engine(app)) as session:
        return operations.freeplay.free_export(session, operations.get_tournament(session, tournament_id))


def _totals(app, tournament_id) -> dict:
    with Session(db.get_engine(app)) as session:
        output = operations.freeplay.free_ranking(session, operations.get_tournament(session, tournament_id))
    assert "error" not in output, output
    return {row["id"]: row for row in output["ranking"]}


# --- penalties of the arbitration code -------------------------------------------------------------------------

def test_phone_rings_twice_warning_then_500_and_removal_recounts(app, arbiter, seated):
    table, seats = _four(app, seated)
    south, east = seats["S"], seats["E"]
    response = _fault(arbiter, seated, south, "telephone_sonne")
    assert response.status_code == 302
    assert "Avertissement enregistré (0 point)." in arbiter.get(response.headers["Location"]).get_data(as_text=True)
    assert _totals(app, seated)[south]["penalty"] == 0
    assert _fault(arbiter, seated, south, "telephone_sonne").status_code == 302
    assert _totals(app, seated)[south]["penalty"] == 500 and _totals(app, seated)[south]["total"] == -500
    # another player's first ring is his own warning; the lost feuille costs 400 at once
    assert _fault(arbiter, seated, east, "telephone_sonne").status_code == 302
    assert _fault(arbiter, seated, east, "feuille_disparue").status_code == 302
    assert _totals(app, seated)[east]["penalty"] == 400
    page = arbiter.get(f"/arbitre/tournois/{seated}/libre/classement").get_data(as_text=True)
    assert "Téléphone qui sonne : avertissement" in page and "Téléphone qui sonne : pénalité de 500 points" in page
    assert "−500" in page and "−400" in page
    file = _export(app, seated)
    assert file["penalties"] == [{"player": south, "fault": "telephone_sonne"},
                                 {"player": south, "fault": "telephone_sonne"},
                                 {"player": east, "fault": "telephone_sonne"},
                                 {"player": east, "fault": "feuille_disparue"}]
    assert {r["id"]: r["penalty"] for r in rank_free(file)["ranking"]}[south] == 500  # the rank command agrees
    with Session(db.get_engine(app)) as session:
        entries = session.exec(select(JournalEntry).where(JournalEntry.action == "penalty.add")).all()
        assert len(entries) == 4 and entries[0].summary.startswith("Avertissement à NOM")
        assert entries[1].after == {"entrant": south, "fault": "telephone_sonne", "points": 500, "warning": False}
        first = session.exec(select(Penalty).order_by(Penalty.id)).first().id
    # removing the warning: the second ring becomes the first, so a warning (the core counts the same way)
    response = arbiter.post(f"/arbitre/tournois/{seated}/libre/penalites/{first}/supprimer")
    assert response.status_code == 302
    assert _totals(app, seated)[south]["penalty"] == 0
    with Session(db.get_engine(app)) as session:
        rest = session.exec(select(Penalty).where(Penalty.entrant_id == south)).all()
        assert [(p.points, p.reason) for p in rest] == [(0, "Téléphone qui sonne : avertissement")]
        assert session.exec(select(JournalEntry).where(JournalEntry.action == "penalty.remove")).one()


def test_faults_without_an_amount_take_the_arbiters_points_and_reason(app, arbiter, seated):
    _, seats = _four(app, seated)
    north = seats["W"]
    response = _fault(arbiter, seated, north, "fumer")  # the code gives no amount: points asked
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "indiquez les points" in page
    assert re.search(r"<option selected value=\"fumer\"", page)  # the choice stays
    assert _fault(arbiter, seated, north, "fumer", points="150", reason="cigarette électronique").status_code == 302
    response = _fault(arbiter, seated, north, "autre", points="30")  # another penalty needs its reason
    assert response.status_code == 422 and "Indiquez le motif" in response.get_data(as_text=True)
    assert _fault(arbiter, seated, north, "autre", points="30", reason="Retour tardif à la table").status_code == 302
    # cards touched during the deal: warning, then 100
    assert _fault(arbiter, seated, north, "cartes_touchees").status_code == 302
    assert _fault(arbiter, seated, north, "cartes_touchees").status_code == 302
    assert _totals(app, seated)[north]["penalty"] == 150 + 30 + 0 + 100
    assert _export(app, seated)["penalties"] == [
        {"player": north, "fault": "fumer", "points": 150, "reason": "cigarette électronique"},
        {"player": north, "points": 30, "reason": "Retour tardif à la table"},
        {"player": north, "fault": "cartes_touchees"}, {"player": north, "fault": "cartes_touchees"}]
    for data in ({"faute-entrant_id": "ZZ", "faute-fault": "fumer", "faute-points": "10"},
                 {"faute-entrant_id": north, "faute-fault": "inconnue"},
                 {"faute-entrant_id": north, "faute-fault": "autre", "faute-points": "-5", "faute-reason": "x"},
                 {"faute-entrant_id": north, "faute-fault": "autre", "faute-points": "1e9", "faute-reason": "x"},
                 {"faute-entrant_id": north, "faute-fault": "autre", "faute-points": "5", "faute-reason": "x" * 300},
                 {}):
        response = arbiter.post(f"/arbitre/tournois/{seated}/libre/faute", data=data)
        assert response.status_code == 422, data
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/penalites/999999/supprimer").status_code == 404


# --- import of a SPEC §13 free file ----------------------------------------------------------------------------

def _import(client, text: str):
    return client.post("/arbitre/import", data={"text": text})


def _tournament_count(app) -> int:
    with Session(db.get_engine(app)) as session:
        return len(session.exec(select(Tournament)).all())


def test_export_import_export_round_trips_unchanged(app, arbiter, seated):
    table, seats = _four(app, seated)
    data = _sheet_data([{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}, {"passed": "1"},
                        {"taker": seats["N"], "contract": "garde", "points": "46", "bouts": "3", "poignees": "s",
                         "petit": "taker"}])
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/feuilles/1/{table}", data=data).status_code == 302
    _, (small, three) = None, next((t, _seats(app, seated, 2, t)) for t in range(1, 6)
                                   if None in _seats(app, seated, 2, t).values())
    people = [p for p in three.values() if p]
    data = _sheet_data([{"taker": people[0], "contract": "garde", "points": "40,5", "bouts": "2"}])
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/feuilles/2/{small}", data=data).status_code == 302
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/retard",
                        data={"entrant_id": seats["E"], "minutes": "7"}).status_code == 302
    assert _fault(arbiter, seated, seats["W"], "telephone_sonne").status_code == 302
    assert _fault(arbiter, seated, seats["W"], "telephone_sonne").status_code == 302
    assert _fault(arbiter, seated, seats["W"], "fumer", points="50", reason="terrasse").status_code == 302
    assert _fault(arbiter, seated, seats["S"], "autre", points="20", reason="Bruit").status_code == 302
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, seated)
        player = next(p for p in operations.players(session, tournament) if p.entrant_id == seats["N"])
        operations.withdraw_player(session, tournament, player, position=2, who="arbitre")
        session.commit()
    first = arbiter.get(f"/arbitre/tournois/{seated}/export").get_data(as_text=True)
    response = _import(arbiter, first)
    assert response.status_code == 302, response.get_data(as_text=True)
    new_id = int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))
    assert new_id != seated
    again = arbiter.get(f"/arbitre/tournois/{new_id}/export").get_data(as_text=True)
    assert json.loads(again) == json.loads(first)
    assert _totals(app, new_id) == _totals(app, seated)
    # the imported tournament is a free one like the others: its sheets open, its ranking shows the penalties
    page = arbiter.get(f"/arbitre/tournois/{new_id}/libre/feuilles/1/{table}").get_data(as_text=True)
    assert 'value="51"' in page and "Somme des bilans : 0" in page
    ranking = arbiter.get(f"/arbitre/tournois/{new_id}/libre/classement").get_data(as_text=True)
    assert "Téléphone qui sonne : pénalité de 500 points" in ranking and "Retard de 7 min" in ranking
    with Session(db.get_engine(app)) as session:
        entry = session.exec(select(JournalEntry).where(JournalEntry.tournament_id == new_id,
                                                        JournalEntry.action == "tournament.import")).one()
        assert "18 joueurs, 2 feuille(s), 5 pénalité(s)" in entry.summary


@pytest.mark.parametrize("change, named", [
    (lambda f: f["results"][1].update(points=95), "résultat n° 2 (table"),
    (lambda f: f["results"][0].update(taker="ZZ9"), "résultat n° 1 (table"),
    (lambda f: f["results"].append({**f["results"][0], "table": 99}), "résultat n° 3 (table 99"),
    (lambda f: f["penalties"].append({"player": "ZZ9", "fault": "telephone_sonne"}), "pénalité n° 2 : joueur inconnu"),
    (lambda f: f["penalties"].append({"player": f["players"][0]["id"], "fault": "chanter"}), "pénalité n° 2 : faute inconnue"),
    (lambda f: f["penalties"].append({"player": f["players"][0]["id"], "fault": "fumer"}), "pénalité n° 2 : Fumer"),
    (lambda f: f["players"][1].update(id=f["players"][0]["id"]), "joueur n° 2 : identifiant"),
    (lambda f: f["players"][1].update(name="x" * 300), "joueur n° 2"),
    (lambda f: f["players"][1].update(withdrawn={"position": "deux"}), "joueur n° 2"),
    (lambda f: f.pop("movement"), "mouvement"),
    (lambda f: f.update(kind="free_duo", teams=[]), "free_duo"),
    (lambda f: f.update(date="24/11/2026"), "« date »"),
    (lambda f: f.update(name=""), "« name »"),
    (lambda f: f["results"][0].update(players=["N1", "S1", "E1", "W1"]), "« players »"),
])
def test_a_faulty_free_file_changes_nothing_and_names_the_item(app, arbiter, seated, change, named):
    table, seats = _four(app, seated)
    data = _sheet_data([{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"},
                        {"taker": seats["E"], "contract": "prise", "points": "45", "bouts": "1"}])
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/feuilles/1/{table}", data=data).status_code == 302
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/retard",
                        data={"entrant_id": seats["E"], "minutes": "3"}).status_code == 302
    file = json.loads(arbiter.get(f"/arbitre/tournois/{seated}/export").get_data(as_text=True))
    change(file)
    before = _tournament_count(app)
    response = _import(arbiter, json.dumps(file, ensure_ascii=False))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Fichier refusé : " in page and "Rien n’a été importé." in page
    assert named in page.replace("&#34;", '"').replace("&#39;", "'"), page[page.index("Fichier refusé"):][:300]
    assert _tournament_count(app) == before


def test_free_file_junk_is_a_french_refusal(app, arbiter):
    for text in ('{"kind": "free"', '{"kind": "free", "players": "x"}', '{"kind": "free", "players": [], "results": 3}',
                 '[' * 5000 + ']' * 5000, '{"kind": "free", "name": "x", "players": [{"id": "N1"}], "results": [],'
                 ' "movement": {"kind": "free", "tables": "a"}}'):
        response = _import(arbiter, text)
        assert response.status_code == 422, text[:80]
        assert "Fichier refusé" in response.get_data(as_text=True)
    assert _tournament_count(app) == 0
