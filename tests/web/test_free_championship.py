"""Issue 29 point 7 on the web: the arbiter marks a free tournament as a championship when creating it (kept in
``settings["free_championship"]``, no migration), the SPEC §13 export says ``"championship": true`` and the
import keeps it; the ranking page says which tie rule applies, and why an event with a table of 5 gets no PCN."""

import json

from sqlmodel import Session

from duplicate import db, operations
from tests.core.freeplay.test_freeplay_ties_29 import twelve_players


def _create(client, kind, **extra):
    return client.post("/arbitre/tournois/nouveau", data={
        "name": "Championnat libre", "kind": kind, "sessions": "1", "timezone": "Europe/Paris", **extra})


def _tournament(app, tournament_id):
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return dict(tournament.settings or {}), operations.freeplay.free_export(session, tournament)


def test_the_championship_box_marks_a_free_tournament(app, arbiter):
    page = arbiter.get("/arbitre/tournois/nouveau").get_data(as_text=True)
    assert "Championnat (donnes libres) : ex æquo départagés par l’article 29" in page
    marked = _create(arbiter, "free", championship="y")
    plain = _create(arbiter, "free")
    assert marked.status_code == plain.status_code == 302
    ids = [int(r.headers["Location"].split("/tournois/")[1].split("/")[0]) for r in (marked, plain)]
    settings, export = _tournament(app, ids[0])
    assert settings.get("free_championship") is True and export["championship"] is True
    settings, export = _tournament(app, ids[1])
    assert "free_championship" not in settings and "championship" not in export
    assert "Championnat : les ex æquo sont départagés par l’article 29" in \
        arbiter.get(f"/arbitre/tournois/{ids[0]}/libre/classement").get_data(as_text=True)
    assert "Tournoi de club : les ex æquo partagent la place et les PCN" in \
        arbiter.get(f"/arbitre/tournois/{ids[1]}/libre/classement").get_data(as_text=True)


def test_a_duplicate_tournament_is_no_free_championship(app, arbiter):
    response = _create(arbiter, "individual", championship="y")
    assert response.status_code == 422
    assert "Seul un tournoi en donnes libres se déclare championnat" in response.get_data(as_text=True)


def _file(five: bool, championship: bool) -> str:
    """`twelve_players` as a SPEC §13 file with its movement (its tables at positions 1 and 2); with ``five``,
    a fifth player at table 3, the « mort » of its deal."""
    data = twelve_players()
    del data["pcn"]
    seats = {1: ["A", "a1", "a2", "a3"], 2: ["B", "b1", "b2", "b3"], 3: ["C1", "C2", "C3", "C4"]}
    if five:
        data["players"].append({"id": "C5"})
        data["results"][-1] = {"table": 3, "position": 1, "deal": 1, "players": seats[3] + ["C5"], "passed": True}
        seats[3] = seats[3] + ["C5"]
    rounds = [{"position": p, "table": t, "seats": dict(zip(("N", "S", "E", "W", "X"), people))}
              for p in (1, 2) for t, people in seats.items()]
    data.update(name="Libre importé", movement={"kind": "free", "tables": 3, "positions": 2, "rounds": rounds})
    for item in data["results"]:
        item.pop("players", None)
    if championship:
        data["championship"] = True
    # the web's ids are places of the movement (J1, J2…)
    ids = {p["id"]: f"J{n}" for n, p in enumerate(data["players"], start=1)}
    text = json.dumps(data, ensure_ascii=False)
    for old, new in sorted(ids.items(), key=lambda item: -len(item[0])):
        text = text.replace(f'"{old}"', f'"{new}"')
    return text


def test_import_keeps_the_mark_and_the_page_says_why_no_pcn(app, arbiter):
    with app.app_context():
        session = db.get_session()
        marked = operations.freeplay_import.import_free(session, _file(False, True))
        five = operations.freeplay_import.import_free(session, _file(True, False))
        session.commit()
        marked_id, five_id = marked.id, five.id
    settings, export = _tournament(app, marked_id)
    assert settings["free_championship"] is True and export["championship"] is True
    page = arbiter.get(f"/arbitre/tournois/{five_id}/libre/classement").get_data(as_text=True)
    assert ("Pas de PCN pour ce tournoi</strong> : une table de 5 joueurs (table 3, position 1) : « les tournois à 5 "
            "joueurs ne sont pas homologables » (fascicule FFT, le jeu à 5 joueurs).") in page
    assert "Pas de PCN pour ce tournoi" not in arbiter.get(
        f"/arbitre/tournois/{marked_id}/libre/classement").get_data(as_text=True)
