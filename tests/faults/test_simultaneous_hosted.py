"""A simultané end to end over HTTP (issue 33, « Done means »): the hosted side as docs/serving.md deploys it —
nginx on loopback in front of three `make run` processes on one PostgreSQL — and three clubs, each its own
`make run` on its own SQLite file, their arbiters working through their pages (session, CSRF token, forms)
as a browser would (`clients.Browser`; the browser test of the same evening is
tests/e2e/test_simultaneous_browser.py).

* Club A pushes its evening online from « Envoyer au simultané ».
* Club B pushes online, then corrects a score (its evening imported again, corrected) and sends again: the
  second file replaces the first.
* Club C has no Internet in its hall: its arbiter downloads the signed file; a forged copy (a score
  changed after signing) is refused with its reason and changes nothing; the genuine file is uploaded by
  hand after the evening.
* The embargo: before it, every public page and API of the simultané (its page, ranking, deals) answers
  without a score or a hand, through nginx; a club's key reads the ranking at once.
* The national ranking is checked against an independent recomputation here — SPEC §4's topage of every
  club's raw scores, SPEC §5's ¼ attack + ¾ defence — and each club's own ranking (its laptop's) is the same
  before and after the national one moved.

Skipped, with the reason, without nginx or PostgreSQL (`make test` installs nginx-light)."""

from __future__ import annotations

import datetime
import json
import random
import re
import shutil
import urllib.error
import urllib.request
from collections import defaultdict

import pytest

from clients import Browser
from factories import club_evening
from live import LiveServer, create_users, flask, pg_schema, postgres_reachable
from screens import PASSWORD
from test_behind_a_proxy import Proxy

CODE = "S2026-12"
BOARDS = 4
SCORES = (56, 62, -56, -52, 50, 70, -70, 90, 110, -110)


def _get(url: str, key: str | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"} if key else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _post(url: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _import(arbiter: Browser, evening: dict) -> int:
    _, page, _ = arbiter.request("/arbitre/import")
    status, _, location = arbiter.request("/arbitre/import", {"csrf_token": arbiter.csrf(page),
                                                              "text": json.dumps(evening)})
    assert status == 302, status
    return int(location.split("/tournois/")[1].split("/")[0])


def _send(arbiter: Browser, tournament_id: int, fields: dict) -> tuple[int, str, str | None]:
    page = f"/arbitre/tournois/{tournament_id}/simultane"
    _, form, _ = arbiter.request(page)
    return arbiter.request(page, {"csrf_token": arbiter.csrf(form), **fields})


def _expected(evenings: dict[str, dict[int, dict[int, int]]], takers: dict[int, str]) -> dict[str, float]:
    """Each player's national global %, recomputed here from the raw scores: SPEC §4's note per étui over
    every table of every club, SPEC §5's ¼ attack + ¾ defence."""
    attack, defence = {}, defaultdict(list)
    for board in range(1, BOARDS + 1):
        field = [scores[board] for tables in evenings.values() for scores in tables.values()]
        for club, tables in evenings.items():
            for table, scores in tables.items():
                score = scores[board]
                note = 100 * (sum(s < score for s in field) + 0.5 * (field.count(score) - 1)) / (len(field) - 1)
                for seat in "NSEW":
                    ident = f"{club}.{seat}{table}"
                    if seat == takers[board]:
                        attack[ident] = note
                    else:
                        defence[ident].append(100 - note)
    return {ident: attack[ident] / 4 + 3 / 4 * sum(notes) / len(notes) for ident, notes in defence.items()}


def test_a_simultane_of_three_clubs_through_nginx(tmp_path, sqlite_copy):
    if shutil.which("nginx") is None:
        pytest.skip("nginx absent : `make test` l’installe (nginx-light)")
    if not postgres_reachable():
        pytest.skip("PostgreSQL injoignable sur 127.0.0.1:5432")
    rnd = random.Random(33)
    with pg_schema("duplicate_faults_simultane") as url:
        embargo = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).isoformat()
        flask(url, "simultane-create", CODE, "--name", "Simultané de décembre", "--boards", str(BOARDS),
              "--embargo", embargo)
        keys = {club: flask(url, "simultane-club", CODE, club, "--name", f"Club {club}").stdout.split()[-1]
                for club in "ABC"}
        env = {"SERVER_CPU": "all", "PROXY_FIX": "1"}
        hosted = [LiveServer(url, tmp_path / f"hosted{i}.log", production=True, env=env).start() for i in range(3)]
        clubs = {}
        try:
            with Proxy(tmp_path, [server.port for server in hosted]) as proxy:
                api = f"{proxy.url}/api/simultanes/{CODE}"
                status, body = _get(f"{api}/donnes", keys["A"])
                assert status == 200
                deals = json.loads(body)
                takers = {board["number"]: board["taker"] for board in deals["boards"]}
                evenings = {club: {table: {board: rnd.choice(SCORES) for board in takers}
                                   for table in range(1, tables + 1)} for club, tables in zip("ABC", (3, 2, 4))}
                for club in "ABC":
                    club_url = sqlite_copy(f"club-{club}.sqlite3")
                    create_users(club_url, ("arbitre", PASSWORD, "arbiter"))
                    clubs[club] = LiveServer(club_url, tmp_path / f"club-{club}.log", production=True).start()
                arbiters, tournaments, local = {}, {}, {}
                for club, server in clubs.items():
                    arbiters[club] = Browser(server.url)
                    arbiters[club].sign_in("arbitre", PASSWORD)
                    tournaments[club] = _import(arbiters[club], {
                        **club_evening(evenings[club], takers), "name": f"Club {club}",
                        "seed_sha256": deals["seed_sha256"]})
                    _, page, _ = arbiters[club].request(f"/api/tournaments/{tournaments[club]}/ranking")
                    local[club] = json.loads(page)["ranking"]

                online = {"url": proxy.url, "code": CODE}
                # club A online
                status, _, location = _send(arbiters["A"], tournaments["A"], {**online, "club": "A", "key": keys["A"]})
                assert status == 302, status
                assert "Fichier accepté par l’organisateur (envoi n° 1, 12 lignes)." in arbiters["A"].request(location)[1]
                # club B online, then corrected and sent again: the second file replaces the first
                assert _send(arbiters["B"], tournaments["B"], {**online, "club": "B", "key": keys["B"]})[0] == 302
                evenings["B"][1][1] = 110 if evenings["B"][1][1] != 110 else -110
                corrected = _import(arbiters["B"], {**club_evening(evenings["B"], takers), "name": "Club B corrigé",
                                                    "seed_sha256": deals["seed_sha256"]})
                status, _, location = _send(arbiters["B"], corrected, {**online, "club": "B", "key": keys["B"]})
                assert "(envoi n° 2, 8 lignes) ; il remplace le précédent." in arbiters["B"].request(location)[1]
                # club C: the signed file downloaded in the hall, a forged copy refused, the file sent by hand
                status, signed, _ = _send(arbiters["C"], tournaments["C"],
                                          {"url": "", "code": CODE, "club": "C", "key": keys["C"], "telecharger": "1"})
                assert status == 200
                forged = json.loads(signed)
                forged["tournament"]["results"][0]["score"] = -forged["tournament"]["results"][0]["score"]
                status, answer = _post(f"{api}/resultats", json.dumps(forged).encode())
                assert status == 422 and answer["error"].startswith("Signature refusée pour le club C")
                assert _post(f"{api}/resultats", signed.encode()) == (
                    200, {"club": "C", "replaced": False, "uploads": 1, "results": 16})

                # the embargo: nothing of a score or a hand for the public, on the page or the API
                for path in ("/classement", "/donnes"):
                    status, body = _get(api + path)
                    assert status == 403 and "sous embargo jusqu’au" in json.loads(body)["error"]
                status, page = _get(f"{proxy.url}/simultanes/{CODE}")
                assert status == 200 and b"sous embargo jusqu" in page and b"JOUEUR" not in page
                assert not re.search(rb"\d+,\d\d(&nbsp;| )%", page)

                # a club's key reads the national ranking at once: checked against the recomputation
                status, body = _get(f"{api}/classement", keys["C"])
                national = json.loads(body)
                expected = _expected(evenings, takers)
                assert {row["id"]: row["global"] for row in national["ranking"]} == pytest.approx(expected)
                assert len(national["ranking"]) == 4 * (3 + 2 + 4)
                assert [(f["club"], f["uploads"]) for f in national["club_files"]] == [("A", 1), ("B", 2), ("C", 1)]
                # each club's own ranking, on its laptop: as its evening gave it
                for club, server in clubs.items():
                    _, page, _ = arbiters[club].request(f"/api/tournaments/{tournaments[club]}/ranking")
                    assert json.loads(page)["ranking"] == local[club]
        finally:
            for server in [*hosted, *clubs.values()]:
                server.stop()
