"""A simultané's evening in real Chromium against real servers (issue 33): the organiser's instance and a
club's laptop, each a ``make run`` server on its own database, talking over HTTP as they would over the
Internet.

From empty databases: the organiser, signed in on his instance, creates the simultané on « Simultanés » (4
étuis, the embargo in an hour, typed in Paris time) and registers clubs A and B there, copying each key
the page shows once. Club A's arbiter, on the club's laptop, imports his evening's file (played on
the simultané's deals, whose hash it carries), opens « Envoyer les résultats au simultané » from the
dashboard, types the organiser's address, the codes and the key, and sends: the page says the organiser
accepted it. Club B's evening is on the same laptop (another tournament); its arbiter has no Internet in
the hall: he downloads the signed file, which is sent later by hand (as ``curl`` would) — once altered
first (refused with its reason), then as it was. On the organiser's instance the public's phone reads
that the results are under embargo; the organiser, signed in, sees the national ranking (club B's taker
first at 100 %, ex æquo with club A's second table's defenders); the embargo over, the phone shows it too.

Screenshots (the test's tmp dir and ``tests/e2e/artifacts/``): ``simultane-organiser-clubs-1920.png``,
``simultane-club-sent-1920.png``,
``simultane-embargo-390.png``, ``simultane-organiser-1920.png``, ``simultane-public-390.png``.
"""

from __future__ import annotations

import datetime
import json
import shutil
import sqlite3
import urllib.error
import urllib.request
from zoneinfo import ZoneInfo

from factories import club_evening
from live import LiveServer, create_users
from screens import PASSWORD, sign_in

CODE = "S2026-12"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WIDE = {"viewport": {"width": 1920, "height": 1080}}


def keep(page, tmp_path, artifacts, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, artifacts / path.name)


def _upload(base: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(f"{base}/api/simultanes/{CODE}/resultats", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _import(page, base: str, evening: dict) -> int:
    """The club's arbiter imports his evening's file (« Importer un tournoi », the text pasted)."""
    page.goto(f"{base}/arbitre/import")
    page.fill("textarea[name='text']", json.dumps(evening, ensure_ascii=False))
    with page.expect_navigation():
        page.click("button:has-text('Importer')")
    return int(page.url.split("/tournois/")[1].split("/")[0])


def _fill(page, hosted: str, club: str, key: str) -> None:
    page.click("a:has-text('Envoyer les résultats au simultané')")
    page.fill("#url", hosted)
    page.fill("#code", CODE)
    page.fill("#club", club)
    page.fill("#key", key)


def test_two_clubs_send_their_evenings_and_the_field_is_ranked(live_server, sqlite_url, sqlite_copy, new_page,
                                                               artifacts, tmp_path):
    hosted = live_server.url
    create_users(sqlite_url, ("organisateur", PASSWORD, "arbiter"))
    organiser = new_page(**WIDE)
    sign_in(organiser, hosted, "organisateur")
    organiser.goto(f"{hosted}/arbitre/")
    organiser.click("a:has-text('Simultanés')")
    organiser.fill("#code", CODE)
    organiser.fill("#name", "Simultané de décembre")
    organiser.select_option("#kind", "individual")
    organiser.fill("#boards", "4")
    in_an_hour = datetime.datetime.now(ZoneInfo("Europe/Paris")) + datetime.timedelta(hours=1)
    organiser.fill("#embargo", in_an_hour.strftime("%Y-%m-%dT%H:%M"))
    with organiser.expect_navigation():
        organiser.click("button:has-text('Créer le simultané')")
    assert "4 étuis donnés" in organiser.inner_text(".flashes")
    keys = {}
    for club in ("A", "B"):
        organiser.fill("#code", club)
        organiser.fill("#name", f"Club {club}")
        with organiser.expect_navigation():
            organiser.click("button:has-text('Inscrire le club')")
        keys[club] = organiser.inner_text("#club-key").strip()
    assert organiser.locator("table tbody tr").count() == 2
    keep(organiser, tmp_path, artifacts, "simultane-organiser-clubs-1920")
    with urllib.request.urlopen(urllib.request.Request(f"{hosted}/api/simultanes/{CODE}/donnes",
                                                       headers={"Authorization": f"Bearer {keys['A']}"})) as answer:
        deals = json.loads(answer.read())
    takers = {board["number"]: board["taker"] for board in deals["boards"]}

    club_url = sqlite_copy("club.sqlite3")
    create_users(club_url, ("arbitre", PASSWORD, "arbiter"))
    with LiveServer(club_url, tmp_path / "club.log", production=True) as laptop:
        club = new_page(**WIDE)
        sign_in(club, laptop.url, "arbitre")
        # club A: étui 1 at its two tables, 56 and −56; sent from its page
        _import(club, laptop.url, {**club_evening({1: {1: 56}, 2: {1: -56}}, takers), "name": "Club A, soirée",
                                   "seed_sha256": deals["seed_sha256"]})
        _fill(club, hosted, "A", keys["A"])
        with club.expect_navigation():
            club.click("button:has-text('Envoyer à l’organisateur')")
        assert "Fichier accepté par l’organisateur (envoi n° 1, 2 lignes)." in club.inner_text("body")
        keep(club, tmp_path, artifacts, "simultane-club-sent-1920")

        # club B: 62 at its one table; no Internet in the hall — the signed file downloaded, sent later
        _import(club, laptop.url, {**club_evening({1: {1: 62}}, takers), "name": "Club B, soirée",
                                   "seed_sha256": deals["seed_sha256"]})
        _fill(club, "", "B", keys["B"])
        with club.expect_download() as download:
            club.click("button:has-text('Télécharger le fichier signé')")
        signed = download.value.path().read_bytes()
        assert download.value.suggested_filename == "simultane-B.json"

    forged = json.loads(signed)
    forged["tournament"]["results"][0]["score"] = 90
    status, answer = _upload(hosted, json.dumps(forged).encode())
    assert status == 422 and answer["error"].startswith("Signature refusée pour le club B")
    assert _upload(hosted, signed) == (200, {"club": "B", "replaced": False, "uploads": 1, "results": 1})

    phone = new_page(**PHONE)  # the public, on the organiser's instance
    phone.goto(f"{hosted}/simultanes/{CODE}")
    assert "sous embargo jusqu’au" in phone.inner_text("body")
    assert phone.locator("table.ranking").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # the hash wraps: no sideways scroll
    keep(phone, tmp_path, artifacts, "simultane-embargo-390")

    organiser.goto(f"{hosted}/simultanes/{CODE}")
    rows = organiser.locator("table.ranking tbody tr").all_inner_texts()
    assert len(rows) == 12  # 8 players at club A, 4 at club B
    first = [row for row in rows if row.startswith("1")]
    assert len(first) == 4 and all("ex æquo" in row and "100,00\u00a0%" in row for row in first)
    assert sum("Club B" in row for row in first) == 1  # club B's taker beat both tables of club A
    assert "seuls l’organisateur et les clubs voient ce classement" in organiser.inner_text("body")
    keep(organiser, tmp_path, artifacts, "simultane-organiser-1920")

    connection = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))  # the evening is over everywhere
    with connection:
        connection.execute("UPDATE simultaneous SET embargo_at = ?", (
            (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1)).isoformat(" "),))
    connection.close()
    phone.reload()
    assert phone.locator("table.ranking tbody tr").count() == 12
    assert "Graine, publiée après l’embargo" in phone.inner_text("body")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    keep(phone, tmp_path, artifacts, "simultane-public-390")
