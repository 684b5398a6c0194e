"""Real time in the hall (issue 30): the grid and the projector ask every second or half second, and a poll
that finds nothing new is answered ``304`` before anything is computed; what they show changes the version
they send back (a line, the clock, its countdown running out, the publication); the projector, once
published, names the ranking it should show and gets it again when a line arrives; pages and JSON travel
compressed.

The tournament is `scoring_helpers.ready`'s individual (20 players, 5 tables, 5 positions of 4 étuis), as in
`test_live.py`: table 1 plays étuis 1–4 at position 1.
"""

import datetime
import gzip
import json
import re

from sqlmodel import Session

from duplicate import db, operations

from scoring_helpers import publish, ready
from test_live import enter

GRID = "/arbitre/tournois/{}/salle.json"
PROJECTOR = "/tournois/{}/projecteur.json"


def _again(client, url: str, response):
    """The same poll, sending back the version of ``response`` as the pages' scripts do."""
    return client.get(url, headers={"If-None-Match": response.headers["ETag"]})


def test_a_poll_that_finds_nothing_new_is_answered_304(app, arbiter):
    tournament_id = ready(app)
    for url in (GRID.format(tournament_id), PROJECTOR.format(tournament_id)):
        who = arbiter if url.startswith("/arbitre") else app.test_client()
        first = who.get(url)
        assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
        unchanged = _again(who, url, first)
        assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == first.headers["ETag"]
        assert unchanged.headers["Cache-Control"] == "no-store"
        assert who.get(url, headers={"If-None-Match": 'W/"autre"'}).status_code == 200


def test_a_line_the_clock_and_the_publication_each_change_what_the_screens_are_sent(app, arbiter):
    tournament_id = ready(app)
    grid, projector = GRID.format(tournament_id), PROJECTOR.format(tournament_id)
    public = app.test_client()
    seen = {grid: arbiter.get(grid), projector: public.get(projector)}

    def changed() -> bool:
        """Whether both screens are sent something new; what they were sent becomes the last seen."""
        answers = {grid: _again(arbiter, grid, seen[grid]), projector: _again(public, projector, seen[projector])}
        if all(answer.status_code == 200 for answer in answers.values()):
            seen.update(answers)
            return True
        assert all(answer.status_code == 304 for answer in answers.values())
        return False

    assert not changed()
    enter(arbiter, tournament_id, 1, 1, boards={1})  # one line of table 1
    assert changed() and seen[grid].get_json()["cells"]["1-1"] == "m-dmmm"
    assert seen[projector].get_json()["progress"]["entered"] == 1
    assert not changed()
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/horloge",
                        data={"action": "start", "position": "1"}).status_code == 302
    assert changed() and seen[projector].get_json()["clock"]["state"] == "running"
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/horloge", data={"action": "pause"}).status_code == 302
    assert changed() and seen[grid].get_json()["clock"]["state"] == "paused"
    assert not changed()
    publish(app, tournament_id)
    assert changed() and seen[projector].get_json()["published"] is True


def test_a_conflict_reaches_the_grid(app, arbiter):
    """A table's phone sends, for a line the paper fiche already holds, another score: nothing is stored but
    the conflict the arbiter settles — the grid's poll must be told (the line turns « conflit »)."""
    from test_live import ALLOWED, score_for

    tournament_id = ready(app)
    enter(arbiter, tournament_id, 1, 1)  # table 1's four lines, on paper
    with Session(db.get_engine(app)) as session:
        operations.start_position(session, operations.get_tournament(session, tournament_id), 1)
        session.commit()
    seen = arbiter.get(GRID.format(tournament_id))
    assert seen.get_json()["cells"]["1-1"] == "d-dddd"
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        other = next(score for score in ALLOWED if score != score_for(1, 1))
        try:
            operations.record_table_result(session, tournament, 1, {"board": 1, "score": other})
        except operations.TableConflict:
            session.commit()  # as the table API does: the conflict is kept for the arbiter
    answer = _again(arbiter, GRID.format(tournament_id), seen)
    assert answer.status_code == 200 and answer.get_json()["cells"]["1-1"] == "c-cddd"


def test_the_countdown_running_out_changes_the_version(app):
    """Time changes one thing by itself: past the end of the countdown, the tables with lines missing are
    late. By hand: position 1, 4 étuis × 7 minutes, started at 20:00 — over at 20:28."""
    tournament_id = ready(app)
    start = datetime.datetime(2026, 3, 14, 20, 0, tzinfo=datetime.timezone.utc)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        operations.start_position(session, tournament, 1, now=start)
        session.commit()
        tournament = operations.get_tournament(session, tournament_id)

        def version(minutes: float) -> str:
            return operations.hall_version(session, tournament, start + datetime.timedelta(minutes=minutes))
        assert version(1) == version(27.9) != version(28) == version(40)


def test_the_published_projector_is_told_of_a_new_ranking_and_gets_it(app, arbiter):
    tournament_id = ready(app)
    for table in (1, 2):
        enter(arbiter, tournament_id, 1, table)
    public = app.test_client()
    assert public.get(PROJECTOR.format(tournament_id)).get_json()["ranking"] is None  # nothing to rank publicly
    assert public.get(f"/tournois/{tournament_id}/projecteur/classements").data == b""  # not before publication
    publish(app, tournament_id)
    first = public.get(PROJECTOR.format(tournament_id)).get_json()["ranking"]
    page = public.get(f"/tournois/{tournament_id}/projecteur").get_data(as_text=True)
    assert f'data-ranking="{first}"' in page and "Classement général" in page
    enter(arbiter, tournament_id, 1, 3)  # table 3's four lines: the percentages change
    newer = public.get(PROJECTOR.format(tournament_id)).get_json()["ranking"]
    assert newer > first
    rankings = public.get(f"/tournois/{tournament_id}/projecteur/classements").get_data(as_text=True)
    assert rankings.lstrip().startswith('<div class="p-rankings"') and f'data-ranking="{newer}"' in rankings
    shown = re.findall(r'class="p-value">([^<]+)<', rankings)
    assert shown != re.findall(r'class="p-value">([^<]+)<', page)  # what the projector shows moves


def test_the_grid_travels_compressed(app, arbiter):
    tournament_id = ready(app)
    plain = arbiter.get(GRID.format(tournament_id))
    packed = arbiter.get(GRID.format(tournament_id), headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    unpacked, expected = json.loads(gzip.decompress(packed.data)), plain.get_json()
    assert unpacked["clock"].pop("now") and expected["clock"].pop("now")  # the server's clock, read each time
    assert unpacked == expected
    assert len(packed.data) < len(plain.data) / 2
    assert packed.headers["ETag"] == plain.headers["ETag"]  # one version, whichever encoding
    assert _again(arbiter, GRID.format(tournament_id), packed).status_code == 304
    static = arbiter.get("/static/js/live-room.js", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in static.headers  # the browser keeps static files: not compressed each time


def test_a_waiting_phone_is_answered_304_until_its_table_changes(app, client):
    """The phone asks again while it waits (another phone's confirmation, the launch); « nothing new » is
    a 304, and every change it shows — a line, a confirmation, a refused code (the lock), the launch, the
    position asked for — is a new answer."""
    from test_table_api import code_of, defence, launch, lines_of, secret_of

    tournament_id = ready(app)
    api = f"/api/table/{secret_of(app, tournament_id, 1)}"
    last = client.get(api)
    assert last.get_json()["launched"] is False

    def changed(url: str = api) -> bool:
        nonlocal last
        answer = client.get(url, headers={"If-None-Match": last.headers["ETag"]})
        if answer.status_code == 304:
            assert answer.data == b""
            return False
        assert answer.status_code == 200
        last = answer
        return True

    assert not changed()
    launch(app, tournament_id, 1)
    assert changed() and last.get_json()["launched"] is True and not changed()
    line = min(lines_of(app, tournament_id, table=1, position=1), key=lambda line: line.board)
    assert client.post(f"{api}/results", json={"board": line.board, "score": 56}).status_code == 202
    assert changed() and last.get_json()["boards"][0]["status"] == "pending" and not changed()
    defender = defence(app, tournament_id, line)
    wrong = {"seat": defender["seat"], "code": str((int(defender["code"]) + 1) % 10000).zfill(4)}
    assert code_of(app, tournament_id, line.seats[defender["seat"]]) != wrong["code"]
    assert client.post(f"{api}/results/{line.board}/confirm", json=wrong).status_code == 422  # journalled only
    assert changed() and not changed()
    assert client.post(f"{api}/results/{line.board}/confirm", json=defender).status_code == 200
    assert changed() and last.get_json()["boards"][0]["status"] == "done"
    assert changed(f"{api}?position=2") and last.get_json()["position"] == 2


def test_the_results_page_names_the_version_it_shows_and_learns_of_a_newer_one(app, arbiter):
    tournament_id = ready(app)
    public = app.test_client()
    url = f"/tournois/{tournament_id}/version.json"
    first = public.get(url)
    assert first.status_code == 200 and _again(public, url, first).status_code == 304
    page = public.get(f"/tournois/{tournament_id}/").get_data(as_text=True)
    shown = int(re.search(r'data-results-version="(\d+)"', page).group(1))
    assert shown == first.get_json()["version"] and "js/follow.js" in page and "<script>" not in page
    enter(arbiter, tournament_id, 1, 1)
    newer = _again(public, url, first)
    assert newer.status_code == 200 and newer.get_json()["version"] > shown
    page = public.get(f"/tournois/{tournament_id}/").get_data(as_text=True)
    assert f'data-results-version="{newer.get_json()["version"]}"' in page and "4 lignes saisies sur 100" in page
