"""The club's side of a simultané (issue 33): the arbiter of a tournament played on the organiser's deals
sends its file from « Envoyer au simultané » (`web.arbiter.simultaneous`), or downloads it signed.

The organiser's instance is the same application here, reached through its own test client in place of
the network (`send_file` replaced): the club's request goes through the real API, checks and storage.
"""

from __future__ import annotations

import json

import pytest

from duplicate.web.arbiter import simultaneous as club_side
from factories import club_evening
from test_simultaneous_api import CODE, _bearer, _setup

HOSTED = "http://simultane.test"


@pytest.fixture
def organiser(app, monkeypatch):
    """The organiser's instance: every file the club's page sends reaches its API (another client, no cookie)."""
    hosted = app.test_client()
    sent = []

    def send_file(url: str, body: bytes):
        assert url == f"{HOSTED}/api/simultanes/{CODE}/resultats"
        sent.append(body)
        answer = hosted.post(url.removeprefix(HOSTED), data=body, content_type="application/json")
        return answer.status_code, answer.get_json()

    monkeypatch.setattr(club_side, "send_file", send_file)
    return sent


def test_the_club_sends_its_evening_and_sends_it_again(app, runner, arbiter, organiser):
    setup = _setup(app, runner)
    evening = {**club_evening({1: {1: 56}, 2: {1: -56}}, setup["takers"]), "seed_sha256": setup["seed_sha256"]}
    imported = arbiter.post("/arbitre/import", data={"text": json.dumps(evening)})
    assert imported.status_code == 302, imported.get_data(as_text=True)
    tournament_id = int(imported.headers["Location"].split("/tournois/")[1].split("/")[0])
    dashboard = arbiter.get(f"/arbitre/tournois/{tournament_id}/").get_data(as_text=True)
    assert "Envoyer les résultats au simultané" in dashboard
    url = f"/arbitre/tournois/{tournament_id}/simultane"
    assert setup["seed_sha256"][:16] in arbiter.get(url).get_data(as_text=True)
    form = {"url": HOSTED, "code": CODE, "club": "A", "key": setup["keys"]["A"]}

    sent = arbiter.post(url, data=form, follow_redirects=True)
    assert "Fichier accepté par l’organisateur (envoi n° 1, 2 lignes)." in sent.get_data(as_text=True)
    again = arbiter.post(url, data=form, follow_redirects=True)
    assert "Fichier accepté par l’organisateur (envoi n° 2, 2 lignes) ; il remplace le précédent." in \
        again.get_data(as_text=True)

    wrong = arbiter.post(url, data={**form, "key": "une clé fausse"})
    assert wrong.status_code == 422
    page = wrong.get_data(as_text=True)
    assert ("Fichier refusé par l’organisateur : Signature refusée pour le club A : le fichier a été modifié après "
            "sa signature, ou signé avec une autre clé.") in page
    assert 'value="une clé fausse"' in page and f'value="{HOSTED}"' in page  # what was typed is kept

    # the organiser holds the club's lines: étui 1 at its two tables, topé together (56 beats −56)
    ranking = app.test_client().get(f"/api/simultanes/{CODE}/classement", headers=_bearer(setup["keys"]["B"]))
    [board] = [board for board in ranking.get_json()["boards"] if board["results"]]
    assert sorted((r["club"], r["club_table"], r["score"], r["taker_note"]) for r in board["results"]) == [
        ("A", 1, 56, 100.0), ("A", 2, -56, 0.0)]


def test_without_internet_the_signed_file_is_downloaded_and_accepted_later(app, runner, arbiter, monkeypatch):
    setup = _setup(app, runner)
    evening = {**club_evening({1: {1: 62}}, setup["takers"]), "seed_sha256": setup["seed_sha256"]}
    imported = arbiter.post("/arbitre/import", data={"text": json.dumps(evening)})
    tournament_id = int(imported.headers["Location"].split("/tournois/")[1].split("/")[0])
    url = f"/arbitre/tournois/{tournament_id}/simultane"
    form = {"url": HOSTED, "code": CODE, "club": "B", "key": setup["keys"]["B"]}

    def unreachable(url, body):
        raise OSError("Network is unreachable")

    monkeypatch.setattr(club_side, "send_file", unreachable)
    offline = arbiter.post(url, data=form)
    assert offline.status_code == 422
    assert ("L’organisateur est injoignable (Network is unreachable) : rien n’a été envoyé. Téléchargez le "
            "fichier signé et envoyez-le plus tard.") in offline.get_data(as_text=True)
    download = arbiter.post(url, data={**form, "url": "", "telecharger": "1"})
    assert download.status_code == 200
    assert download.headers["Content-Disposition"] == 'attachment; filename="simultane-B.json"'
    later = app.test_client().post(f"/api/simultanes/{CODE}/resultats", data=download.data,
                                   content_type="application/json")
    assert later.get_json() == {"club": "B", "replaced": False, "uploads": 1, "results": 1}


def test_a_tournament_is_sent_once_it_has_the_organisers_deals(app, runner, arbiter, tournament_factory):
    setup = _setup(app, runner)
    tournament_id = tournament_factory()
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/simultane").get_data(as_text=True)
    assert "Ce tournoi n’a pas les donnes d’un simultané" in page
    assert "Envoyer les résultats au simultané" not in arbiter.get(f"/arbitre/tournois/{tournament_id}/").get_data(
        as_text=True)
    refused = arbiter.post(f"/arbitre/tournois/{tournament_id}/simultane",
                           data={"url": HOSTED, "code": CODE, "club": "A", "key": "clé"})
    assert refused.status_code == 422
    assert "importez d’abord le fichier de donnes de l’organisateur" in refused.get_data(as_text=True)

    # the club downloads the deals with its key and imports them on « Étuis »: its tournament now has them
    deals = app.test_client().get(f"/api/simultanes/{CODE}/donnes", headers=_bearer(setup["keys"]["A"]))
    imported = arbiter.post(f"/arbitre/tournois/{tournament_id}/etuis/importer",
                            data={"deals-text": deals.get_data(as_text=True)})
    assert imported.status_code == 302, imported.get_data(as_text=True)
    assert setup["seed_sha256"][:16] in arbiter.get(f"/arbitre/tournois/{tournament_id}/simultane").get_data(
        as_text=True)
    assert "Envoyer les résultats au simultané" in arbiter.get(f"/arbitre/tournois/{tournament_id}/").get_data(
        as_text=True)
