"""A simultané on the hosted instance (issue 33): the organiser creates it and registers clubs on the command
line, the clubs send their signed files to ``POST /api/simultanes/<code>/resultats``, the national ranking
and the deals are the clubs' and the organiser's at once and the public's after the embargo only.

The figures are derived by hand as in `tests/core/test_simultaneous.py`: étui 1 scored 56 and −56 at club A,
62 at club B → taker notes 50, 0 and 100 over the field."""

from __future__ import annotations

import datetime
import json
import re

from sqlmodel import Session, select

from duplicate import db, models
from duplicate.core.deals import seed_hash
from duplicate.core.simultaneous import club_envelope
from factories import club_evening

CODE = "S2026-12"


def _setup(app, runner) -> dict:
    """The organiser's commands: the simultané (embargo in an hour) and three clubs; their keys."""
    embargo = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).isoformat()
    created = runner.invoke(args=["simultane-create", CODE, "--name", "Simultané de décembre", "--boards", "4",
                                  "--embargo", embargo])
    assert created.exit_code == 0, created.output
    keys = {}
    for club in ("A", "B", "C"):
        added = runner.invoke(args=["simultane-club", CODE, club, "--name", f"Club {club}"])
        assert added.exit_code == 0, added.output
        keys[club] = added.output.strip().splitlines()[-1]
    with app.app_context(), Session(db.get_engine(app)) as session:
        event = session.exec(select(models.Simultaneous)).one()
        assert created.output.strip().splitlines()[-1] == event.seed_sha256 == seed_hash(event.seed)
        takers = {board["number"]: board["taker"] for board in event.deals["boards"]}
        return {"keys": keys, "takers": takers, "seed_sha256": event.seed_sha256}


def _file(setup, club: str, scores, key: str | None = None) -> bytes:
    envelope = club_envelope(CODE, club, setup["seed_sha256"], club_evening(scores, setup["takers"]),
                             key or setup["keys"][club])
    return json.dumps(envelope, ensure_ascii=False).encode()


def _post(client, body: bytes):
    return client.post(f"/api/simultanes/{CODE}/resultats", data=body, content_type="application/json")


def _bearer(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def test_clubs_upload_and_the_field_is_ranked_under_embargo(app, client, runner):
    setup = _setup(app, runner)
    first = _post(client, _file(setup, "A", {1: {1: 56}, 2: {1: -56}}))
    assert first.status_code == 200, first.get_json()
    assert first.get_json() == {"club": "A", "replaced": False, "uploads": 1, "results": 2}
    again = _post(client, _file(setup, "A", {1: {1: 56}, 2: {1: -56}}))  # sent again: replaces, same figures
    assert again.get_json() == {"club": "A", "replaced": True, "uploads": 2, "results": 2}

    forged = _post(client, _file(setup, "B", {1: {1: 62}}, key=setup["keys"]["A"]))  # B's name, A's key
    assert forged.status_code == 422
    assert forged.get_json()["error"] == ("Signature refusée pour le club B : le fichier a été modifié après sa "
                                          "signature, ou signé avec une autre clé.")
    with app.app_context(), Session(db.get_engine(app)) as session:
        club_b = session.exec(select(models.SimultaneousClub).where(models.SimultaneousClub.code == "B")).one()
        assert club_b.envelope is None and club_b.uploads == 0  # refused: nothing stored
    assert _post(client, b"{pas du json").status_code == 422
    assert _post(client, _file(setup, "B", {1: {1: 62}})).status_code == 200

    # under embargo: the public gets the reason, a club and the organiser the ranking
    public = client.get(f"/api/simultanes/{CODE}/classement")
    assert public.status_code == 403
    assert "sous embargo jusqu’au" in public.get_json()["error"]
    assert public.headers["Cache-Control"] == "no-store"
    assert client.get(f"/api/simultanes/{CODE}/classement", headers=_bearer("une-autre-clé")).status_code == 403
    assert client.get(f"/api/simultanes/{CODE}/donnes").status_code == 403
    ranking = client.get(f"/api/simultanes/{CODE}/classement", headers=_bearer(setup["keys"]["C"]))
    assert ranking.status_code == 200
    output = ranking.get_json()
    [board] = [board for board in output["boards"] if board["results"]]
    assert sorted((r["club"], r["club_table"], r["score"], r["taker_note"]) for r in board["results"]) == [
        ("A", 1, 56, 50.0), ("A", 2, -56, 0.0), ("B", 1, 62, 100.0)]
    assert [(f["club"], f["uploads"]) for f in output["club_files"]] == [("A", 2), ("B", 1)]
    assert output["simultane"]["embargoed"] is True
    deals = client.get(f"/api/simultanes/{CODE}/donnes", headers=_bearer(setup["keys"]["A"])).get_json()
    assert len(deals["boards"]) == 4 and "hands" in deals["boards"][0] and "seed" not in deals

    # the embargo over: everyone, and the seed that anyone can check against the hash published before
    with app.app_context(), Session(db.get_engine(app)) as session:
        event = session.exec(select(models.Simultaneous)).one()
        event.embargo_at = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1)
        session.add(event)
        session.commit()
    assert client.get(f"/api/simultanes/{CODE}/classement").get_json()["ranking"] == output["ranking"]
    published = client.get(f"/api/simultanes/{CODE}/donnes").get_json()
    assert seed_hash(published["seed"]) == published["seed_sha256"] == setup["seed_sha256"]


def test_unknown_simultane_and_refusals_of_the_organisers_commands(app, client, runner):
    assert client.get("/api/simultanes/INCONNU/classement").status_code == 404
    assert client.get("/api/simultanes/INCONNU/classement").get_json()["error"] == "Simultané « INCONNU » inconnu."
    _setup(app, runner)
    twice = runner.invoke(args=["simultane-club", CODE, "A"])
    assert twice.exit_code == 1 and "Le club « A » est déjà inscrit à ce simultané." in twice.output
    naive = runner.invoke(args=["simultane-create", "S2", "--boards", "2", "--embargo", "2026-12-12T23:30"])
    assert naive.exit_code == 1 and "fuseau" in naive.output
    long_code = runner.invoke(args=["simultane-create", "SIMUL-2026-DECEMBRE", "--boards", "2", "--embargo",
                                    "2026-12-12T23:30+01:00"])
    assert long_code.exit_code == 0, long_code.output  # 19 characters with its dashes
    bad_code = runner.invoke(args=["simultane-create", "s 1", "--boards", "2", "--embargo", "2026-12-12T23:30+01:00"])
    assert bad_code.exit_code == 1 and "Code du simultané : lettres majuscules" in bad_code.output
    team_match = runner.invoke(args=["simultane-create", "S3", "--boards", "2", "--kind", "team_match",
                                     "--embargo", "2026-12-12T23:30+01:00"])
    assert team_match.exit_code == 2  # not a choice: click's usage message


def test_the_simultane_page_under_embargo_and_after(app, runner, arbiter):
    """The page: the public reads when the results come out; the organiser (signed in) sees the national
    ranking at once, marked « sous embargo »; after the embargo everyone sees it, with the seed."""
    setup = _setup(app, runner)
    public = app.test_client()
    assert _post(public, _file(setup, "A", {1: {1: 56}, 2: {1: -56}})).status_code == 200
    assert _post(public, _file(setup, "B", {1: {1: 62}})).status_code == 200

    hidden = public.get(f"/simultanes/{CODE}")
    assert hidden.status_code == 200 and hidden.headers["Cache-Control"] == "no-store"
    text = hidden.get_data(as_text=True)
    assert "sous embargo jusqu’au" in text and "Classement général national" not in text
    assert "JOUEUR" not in text and setup["seed_sha256"] in text and "Fréquences" not in text
    assert "Clubs : 3 inscrits, 2 fichiers reçus" in text

    organiser = arbiter.get(f"/simultanes/{CODE}").get_data(as_text=True)
    assert "Classement général national" in organiser
    assert "seuls l’organisateur et les clubs voient ce classement" in organiser
    assert "ex æquo" in organiser and "Club A" in organiser and "Club B" in organiser
    assert "100,00&nbsp;%" in organiser  # club B's taker beat both tables of club A
    assert "Fréquences nationales" in organiser and "joué à 3 tables" in organiser
    assert "<td class=\"number\">+62</td><td class=\"number\">1</td><td class=\"number\">100,00</td>" in organiser

    with app.app_context(), Session(db.get_engine(app)) as session:
        event = session.exec(select(models.Simultaneous)).one()
        event.embargo_at = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1)
        session.add(event)
        session.commit()
        seed = event.seed
    shown = public.get(f"/simultanes/{CODE}").get_data(as_text=True)
    assert "Classement général national" in shown and "seuls l’organisateur" not in shown and seed in shown
    assert public.get("/simultanes/INCONNU").status_code == 404


def test_the_national_ranking_is_ranked_again_only_after_an_upload(app, runner, monkeypatch):
    """Readers share the last computation; any new upload (through any process: read from the database)
    gives a new one."""
    from duplicate.operations import _simultaneous

    setup = _setup(app, runner)
    client = app.test_client()
    ranked = []
    real = _simultaneous.rank_national_file
    monkeypatch.setattr(_simultaneous, "rank_national_file", lambda *args: ranked.append(1) or real(*args))
    assert _post(client, _file(setup, "A", {1: {1: 56}, 2: {1: -56}})).status_code == 200
    first = [client.get(f"/api/simultanes/{CODE}/classement", headers=_bearer(setup["keys"]["A"])).get_json()
             for _ in range(3)]
    assert len(ranked) == 1 and first[0] == first[2]
    assert _post(client, _file(setup, "B", {1: {1: 62}})).status_code == 200
    after = client.get(f"/api/simultanes/{CODE}/classement", headers=_bearer(setup["keys"]["A"])).get_json()
    assert len(ranked) == 2 and len(after["ranking"]) == 12 and len(first[0]["ranking"]) == 8


def test_the_organisers_screens_create_a_simultane_and_register_a_club(app, arbiter):
    """« Simultanés »: a new simultané (its étuis dealt, the hash to publish shown), then a club registered
    whose key is shown once on the page that answers and works on the API at once; a refused form keeps
    what was typed."""
    refused = arbiter.post("/arbitre/simultanes", data={"code": "S1", "name": "Décembre", "kind": "individual",
                                                        "boards": "0", "embargo": "2026-12-12T23:30"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "Nombre d’étuis : de 1 à 100." in page and 'value="Décembre"' in page
    created = arbiter.post("/arbitre/simultanes", data={"code": "S1", "name": "Décembre", "kind": "individual",
                                                        "boards": "4", "embargo": "2026-12-12T23:30"})
    assert created.status_code == 302 and created.headers["Location"].endswith("/arbitre/simultanes/S1")
    with app.app_context(), Session(db.get_engine(app)) as session:
        event = session.exec(select(models.Simultaneous)).one()
        embargo = event.embargo_at.replace(tzinfo=event.embargo_at.tzinfo or datetime.timezone.utc)
        assert embargo == datetime.datetime(2026, 12, 12, 22, 30, tzinfo=datetime.timezone.utc)  # 23:30 in Paris
        assert len(event.deals["boards"]) == 4
    event_page = arbiter.get("/arbitre/simultanes/S1").get_data(as_text=True)
    assert event.seed_sha256 in event_page and "12/12/2026 23:30" in event_page
    assert "Aucun club inscrit pour l’instant." in event_page
    assert "S1" in arbiter.get("/arbitre/simultanes").get_data(as_text=True)

    joined = arbiter.post("/arbitre/simultanes/S1", data={"code": "C07", "name": "Tarot Club de Lyon"})
    assert joined.status_code == 200
    key = re.search(r'<code class="hash" id="club-key">([^<]+)</code>', joined.get_data(as_text=True)).group(1)
    assert app.test_client().get("/api/simultanes/S1/classement", headers=_bearer(key)).status_code == 200
    assert key not in arbiter.get("/arbitre/simultanes/S1").get_data(as_text=True)  # shown once
    twice = arbiter.post("/arbitre/simultanes/S1", data={"code": "C07", "name": "Autre"})
    assert twice.status_code == 422 and "Le club « C07 » est déjà inscrit à ce simultané." in twice.get_data(
        as_text=True)
    assert arbiter.get("/arbitre/simultanes/INCONNU").status_code == 404
    assert app.test_client().get("/arbitre/simultanes").status_code == 302  # signed-in arbiters only
