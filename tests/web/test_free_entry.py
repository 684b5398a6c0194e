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


@pytest.fixture
def seated(free_evening_factory):
    return free_evening_factory(PLAYERS, "jeudi", name="Jeudi libre", date="2026-11-26")


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
        assert "18 joueurs, 2 feuilles, 5 pénalités" in entry.summary


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
    (lambda f: f.update(kind="free_duo", teams=[]), "« teams » : les équipes de 2 joueurs"),
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


# --- scorers enter feuilles; the live marks ---------------------------------------------------------------------

@pytest.fixture
def scorer(app, arbiter, seated, make_user, sign_in):
    """A scorer given the tournament (« Accès ») in his own browser."""
    make_user("marqueur", "scorer")
    assert arbiter.post(f"/arbitre/tournois/{seated}/acces/donner", data={"grant-username": "marqueur"}).status_code == 302
    client = app.test_client()
    assert sign_in(client, "marqueur").status_code == 302
    return client


def test_a_scorer_enters_a_feuille_with_the_same_form_and_conflict_guard(app, arbiter, scorer, seated, make_user,
                                                                          sign_in):
    table, seats = _four(app, seated)
    assert scorer.get(f"/saisie/tournois/{seated}/").headers["Location"].endswith(f"/saisie/tournois/{seated}/libre/feuilles")
    listing = scorer.get(f"/saisie/tournois/{seated}/libre/feuilles").get_data(as_text=True)
    assert f"/saisie/tournois/{seated}/libre/feuilles/1/{table}" in listing and "Position 1" in listing
    form = scorer.get(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}").get_data(as_text=True)
    assert 'name="taker-0"' in form and "/arbitre/" not in form.split("<main", 1)[-1].split("</main>")[0]
    # the arbiter saves first; the scorer's form, built before, gets the 409 and only « Remplacer » overwrites
    mine = [{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}]
    theirs = [{"taker": seats["E"], "contract": "prise", "points": "45", "bouts": "1"}]
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/feuilles/1/{table}", data=_sheet_data(mine)).status_code == 302
    response = scorer.post(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}", data=_sheet_data(theirs))
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "enregistrée entre-temps par arbitre" in page and 'value="45"' in page
    with Session(db.get_engine(app)) as session:
        current = session.exec(select(FreeSheet)).one().version_id
    response = scorer.post(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}",
                           data=_sheet_data(theirs, replace="1", replace_version=str(current)))
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}")
    # a refused sheet keeps what the scorer typed
    response = scorer.post(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}", data=_sheet_data(
        [{"taker": seats["E"], "contract": "garde", "points": "95", "bouts": "2"}], version=str(current + 1)))
    assert response.status_code == 422 and 'value="95"' in response.get_data(as_text=True)
    with Session(db.get_engine(app)) as session:
        sheet = session.exec(select(FreeSheet)).one()
        assert sheet.entered_by == "marqueur" and sheet.deals[0]["taker"] == seats["E"]
        entry = session.exec(select(JournalEntry).where(JournalEntry.action == "freeplay.sheet.replace")).one()
        assert entry.who == "marqueur" and entry.after["donnes"][0]["points"] == 45
    # the scorer has no arbiter's screen, and a scorer not given the tournament none of its feuilles
    assert scorer.get(f"/arbitre/tournois/{seated}/libre/classement").status_code in (302, 403)
    assert scorer.post(f"/arbitre/tournois/{seated}/libre/faute", data={}).status_code in (302, 403)
    make_user("autre", "scorer")
    other = app.test_client()
    assert sign_in(other, "autre").status_code == 302
    assert other.get(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}").status_code == 403
    assert other.get(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}/marques?rows=0").status_code == 403


def test_a_feuille_saved_on_a_full_disk_comes_back_as_typed(app, scorer, seated):
    """Issue 31, point 6: the database cannot store the sheet (disk full): 503, the French reason, every typed
    field in its input, nothing saved; saved again once there is room."""
    from test_fiche_storage_full import disk_switch

    table, seats = _four(app, seated)
    address = f"/saisie/tournois/{seated}/libre/feuilles/1/{table}"
    typed = _sheet_data([{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}])
    full = disk_switch(app)
    full(True)
    response = scorer.post(address, data=typed)
    page = response.get_data(as_text=True)
    assert response.status_code == 503, page[:2000]
    assert "disque" in page and "Rien n’a été enregistré" in page and "enregistrée." not in page
    assert 'value="51"' in page and 'name="taker-0"' in page and "Traceback" not in page
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(FreeSheet)).all() == []
    full(False)
    assert scorer.post(address, data=typed).status_code == 302
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(FreeSheet)).one().deals[0]["points"] == 51


def test_live_marks_are_the_cores_and_nothing_is_saved(app, scorer, seated):
    table, seats = _four(app, seated)
    north, south, east, west = seats["N"], seats["S"], seats["E"], seats["W"]
    url = f"/saisie/tournois/{seated}/libre/feuilles/1/{table}/marques"
    # deal 1: Garde made by 10 → S +210, the others −70; deal 2 blank; deal 3: Prise failed by 6 → E −93, +31
    query = _sheet_data([{"taker": south, "contract": "garde", "points": "51", "bouts": "2"}, {},
                         {"taker": east, "contract": "prise", "points": "45", "bouts": "1"},
                         {"taker": west, "contract": "garde", "points": "95", "bouts": "2"}])
    answer = scorer.get(url, query_string=query).get_json()
    assert answer["rows"][0]["marks"] == {north: "−70", south: "+210", east: "−70", west: "−70"}
    assert answer["rows"][1]["marks"] is None and answer["rows"][3]["marks"] is None
    assert answer["rows"][2]["marks"] == {north: "+31", south: "+31", east: "−93", west: "+31"}
    assert answer["foot"][south] == {"plus": "241", "minus": "0", "bilan": "+241"}
    assert answer["foot"][east] == {"plus": "0", "minus": "163", "bilan": "−163"}
    assert answer["balance"] == "0" and answer["balanced"] is True
    assert answer["message"].startswith("Donne 3 :")  # the impossible deal, numbered as when saving
    # a table of 3: the half point to the winning side, −104 / +52
    three = next(t for t in range(1, 6) if None in _seats(app, seated, 1, t).values())
    people = [p for p in _seats(app, seated, 1, three).values() if p]
    answer = scorer.get(f"/saisie/tournois/{seated}/libre/feuilles/1/{three}/marques", query_string=_sheet_data(
        [{"taker": people[0], "contract": "garde", "points": "40,5", "bouts": "2"}])).get_json()
    assert sorted(answer["rows"][0]["marks"].values()) == ["+52", "+52", "−104"]
    for junk in ({"rows": "abc"}, {"rows": "-4"}, {"rows": "999999"}, {"rows": "1", "points-0": "1e999", "taker-0": south,
                 "contract-0": "garde", "bouts-0": "9"}, {"rows": "2", "poignees-0": "zz", "taker-0": "x"}):
        response = scorer.get(url, query_string=junk)
        assert response.status_code == 200 and response.is_json, junk
    assert scorer.get(f"/saisie/tournois/{seated}/libre/feuilles/9/99/marques").status_code == 404
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(FreeSheet)).all() == []
    # the form shows the same marks before any typing (rendered by the server, updated by static/js/free-sheet.js)
    page = scorer.post(f"/saisie/tournois/{seated}/libre/feuilles/1/{table}", data=query).get_data(as_text=True)
    assert 'data-player="{}">+210</td>'.format(south) in page and "free-sheet.js" in page


def test_the_free_play_pages_are_closed_to_a_duplicate_tournament(app, arbiter, scorer):
    response = arbiter.post("/arbitre/tournois/nouveau", data={
        "name": "Duplicate", "kind": "individual", "date": "2026-11-26", "place": "Club", "sessions": "1",
        "timezone": "Europe/Paris"})
    assert response.status_code == 302, response.get_data(as_text=True)
    tid = int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))
    for url in ("libre/classement", "libre/feuilles", "libre/feuilles/1/1", "libre/mouvement"):
        response = arbiter.get(f"/arbitre/tournois/{tid}/{url}")
        assert response.status_code == 302 and response.headers["Location"].endswith(f"/arbitre/tournois/{tid}/"), url
    assert arbiter.post(f"/arbitre/tournois/{tid}/libre/faute", data={}).status_code == 302
    for url in ("libre/feuilles", "libre/feuilles/1/1", "libre/feuilles/1/1/marques"):
        assert arbiter.get(f"/saisie/tournois/{tid}/{url}").status_code == 404, url


def test_a_free_withdrawal_cancelled_unknown_or_refused(app, arbiter, seated):
    """Cancelling a withdrawal on the free ranking page: an unknown player is a 404, a player who has not
    withdrawn is refused in French on the ranking page, a withdrawn one comes back."""
    with Session(db.get_engine(app)) as session:
        player = next(p for p in operations.players(session, operations.get_tournament(session, seated))
                      if p.entrant_id)
    ranking = f"/arbitre/tournois/{seated}/libre/classement"
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/annuler-forfait/999999").status_code == 404
    refused = arbiter.post(f"/arbitre/tournois/{seated}/libre/annuler-forfait/{player.id}")
    assert refused.status_code == 302 and refused.headers["Location"].endswith(ranking)
    assert "pas quitté le tournoi" in arbiter.get(ranking).get_data(as_text=True)
    withdrawn = arbiter.post(f"/arbitre/tournois/{seated}/libre/forfait",
                             data={"player_id": player.id, "position": "2"})
    assert withdrawn.status_code == 302
    cancelled = arbiter.post(f"/arbitre/tournois/{seated}/libre/annuler-forfait/{player.id}")
    assert cancelled.status_code == 302
    assert "annulé" in arbiter.get(ranking).get_data(as_text=True)
    with Session(db.get_engine(app)) as session:
        assert session.get(type(player), player.id).withdrawn_from is None
