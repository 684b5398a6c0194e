"""The hall during play (issue 13 points 4 and 5): the arbiter's live grid (salle.json), the countdown's
state transitions, the projector's page and its secrecy before publication.

The tournament is `scoring_helpers.ready`'s individual: 20 players, 5 tables, 5 positions, 4 étuis per
position, the Rainbow (étuis −1 table per position, SPEC §7). By hand: étui set k (étuis 4k+1 … 4k+4)
starts at table k+1 and goes down one table per position, so table t plays set (t−1)+(p−1) mod 5 at
position p — table 1: étuis 1–4 at position 1, 5–8 at position 2; table 4: étuis 13–16 at position 1.
"""

import datetime
import re

import pytest
from sqlmodel import Session

from duplicate import db, operations
from duplicate.models import PositionClock

from scoring_helpers import ALLOWED, publish, ready, score_for

T0 = datetime.datetime(2026, 3, 14, 20, 0, tzinfo=datetime.timezone.utc)


def boards_at(table: int, position: int) -> list[int]:
    """The étuis table ``table`` plays at ``position`` (the rule of the module docstring, by hand)."""
    k = (table - 1 + position - 1) % 5
    return [4 * k + n for n in range(1, 5)]


def enter(client, tournament_id: int, position: int, table: int, boards=None):
    """Type the scores of a table's position (only ``boards`` when given) on the entry page and save."""
    url = f"/saisie/tournois/{tournament_id}/tables/{position}/{table}"
    page = client.get(url).get_data(as_text=True)
    data = {}
    for key in re.findall(r'name="score-([0-9]+-[0-9]+)"', page):
        board, _ = map(int, key.split("-"))
        if boards is None or board in boards:
            data[f"score-{key}"] = f"{score_for(board, table):+d}"
    response = client.post(url, data=data)
    assert response.status_code == 302, response.get_data(as_text=True)


@pytest.fixture
def evening(app, arbiter):
    """The tournament with, by hand: position 1 complete at tables 1, 2, 3; table 4 has étuis 13 and 14
    only; table 5 nothing; position 2 complete at table 1 only."""
    tournament_id = ready(app)
    for table in (1, 2, 3):
        enter(arbiter, tournament_id, 1, table)
    enter(arbiter, tournament_id, 1, 4, boards={13, 14})
    enter(arbiter, tournament_id, 2, 1)
    return tournament_id


def test_the_grid_says_which_lines_are_in_and_which_tables_are_late(app, arbiter, evening):
    assert boards_at(1, 2) == [5, 6, 7, 8] and boards_at(4, 1) == [13, 14, 15, 16]
    response = arbiter.get(f"/arbitre/tournois/{evening}/salle.json")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    room = response.get_json()
    cells = room["cells"]
    assert len(cells) == 25  # 5 tables × 5 positions
    # a cell is one text (issue 30): its status letter, « L » late / « U » upcoming / « - », one letter per
    # line in the page's order (étuis 1–4 at table 1…): d saisi, p en attente, c conflit, m manquant
    for table in (1, 2, 3):
        assert cells[f"1-{table}"] == "d-dddd"
    # no clock started: late is behind the clock (issue 29 point 11), so no table is late, though tables 1–3
    # have finished position 1 and tables 4 and 5 have not
    assert cells["1-4"] == "m-ddmm"  # étuis 13 and 14 in, 15 and 16 missing
    assert cells["1-5"] == "m-mmmm" and cells["2-1"] == "d-dddd"
    assert room["late_tables"] == []
    # after the position in play, a cell with nothing entered is « à venir », not a problem
    assert [cells[f"2-{t}"] for t in range(1, 6)] == ["d-dddd"] + ["mUmmmm"] * 4
    assert not any(cells[f"1-{t}"][1] == "U" for t in range(1, 6))
    assert room["counts"] == {"done": 3 * 4 + 2 + 4, "missing": 100 - 18, "pending": 0, "conflict": 0}
    assert room["position"] == 1  # no clock started: the first position with lines missing
    assert room["clock"]["state"] == "idle"

    # the arbiter starts position 3: the time of positions 1 and 2 is up, their missing lines are late
    page = arbiter.post(f"/arbitre/tournois/{evening}/horloge", data={"action": "start", "position": "3"})
    assert page.status_code == 302
    room = arbiter.get(f"/arbitre/tournois/{evening}/salle.json").get_json()
    assert room["position"] == 3 and room["clock"]["state"] == "running"
    assert [room["cells"][f"2-{t}"] for t in range(1, 6)] == ["d-dddd"] + ["mLmmmm"] * 4
    assert not any(room["cells"][f"3-{t}"][1] == "L" for t in range(1, 6))
    assert room["late_tables"] == [2, 3, 4, 5]


def test_late_is_behind_the_clock_not_behind_the_other_tables(app, arbiter, evening):
    """Issue 29 point 11. By hand: position 1 has 4 étuis, 7 minutes each: 28 minutes. Tables 1–3 (the phones)
    have finished position 1, tables 4 and 5 (paper) have not. Started 20 minutes ago, 8 minutes are left:
    no table is late. Started 29 minutes ago, the time is up: tables 4 and 5 are late, the others not."""
    now = datetime.datetime.now(datetime.timezone.utc)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        operations.start_position(session, tournament, 1, now=now - datetime.timedelta(minutes=20))
        session.commit()
    room = arbiter.get(f"/arbitre/tournois/{evening}/salle.json").get_json()
    assert room["clock"]["state"] == "running" and 7 * 60 < room["clock"]["remaining"] <= 8 * 60
    assert room["late_tables"] == [] and not any(cell[1] == "L" for cell in room["cells"].values())
    page = arbiter.get(f"/arbitre/tournois/{evening}/salle").get_data(as_text=True)
    assert "En retard : table" not in page and 'class="late"' not in page
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        operations.start_position(session, tournament, 1, now=now - datetime.timedelta(minutes=29))
        session.commit()
    room = arbiter.get(f"/arbitre/tournois/{evening}/salle.json").get_json()
    assert room["clock"]["state"] == "over"
    assert [room["cells"][f"1-{t}"][1] == "L" for t in range(1, 6)] == [False, False, False, True, True]
    assert room["late_tables"] == [4, 5]  # position 2, the clock's no more than position 1's, is not late
    page = arbiter.get(f"/arbitre/tournois/{evening}/salle").get_data(as_text=True)
    assert "En retard : tables 4, 5." in page


def test_the_grid_page_links_each_cell_to_its_entry_and_each_etui_to_its_fiche(app, arbiter, evening):
    arbiter.post(f"/arbitre/tournois/{evening}/horloge", data={"action": "start", "position": "2"})
    page = arbiter.get(f"/arbitre/tournois/{evening}/salle").get_data(as_text=True)
    assert f'href="/saisie/tournois/{evening}/tables/1/4"' in page
    assert f'href="/arbitre/tournois/{evening}/etuis/15/fiche"' in page
    assert 'data-cell="1-4" class="cell status-missing late"' in page
    assert "<script>" not in page and "js/live-room.js" in page  # no inline script (CSP)


def test_only_the_arbiter_sees_the_grid(app, client, make_user, sign_in):
    tournament_id = ready(app)
    assert client.get(f"/arbitre/tournois/{tournament_id}/salle.json").status_code == 302  # to sign-in
    sign_in(client, make_user("marqueur", "scorer"))
    assert client.get(f"/arbitre/tournois/{tournament_id}/salle.json").status_code == 403
    assert client.post(f"/arbitre/tournois/{tournament_id}/horloge", data={"action": "stop"}).status_code == 403


def _clock(app, tournament_id, action, *args, now):
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        getattr(operations, action)(session, tournament, *args, now=now)
        session.commit()
        clock = session.get(PositionClock, operations.find_clock(session, tournament).id)
        return clock


def _state(app, tournament_id, now):
    with Session(db.get_engine(app)) as session:
        return operations.clock_state(operations.find_clock(session, operations.get_tournament(session, tournament_id)),
                                      now)


def test_the_countdown_starts_pauses_resumes_and_extends(app):
    tournament_id = ready(app)
    at = lambda minutes, seconds=0: T0 + datetime.timedelta(minutes=minutes, seconds=seconds)  # noqa: E731
    assert _state(app, tournament_id, T0)["state"] == "idle"
    # 7 minutes per étui by default, 4 étuis: 28 minutes
    _clock(app, tournament_id, "start_position", 2, now=T0)
    state = _state(app, tournament_id, at(10))
    assert state["state"] == "running" and state["position"] == 2 and state["remaining"] == 18 * 60
    assert state["ends_at"] == "2026-03-14T20:28:00+00:00"
    assert _state(app, tournament_id, at(10, -0.4))["remaining"] == 18 * 60 + 1  # seconds rounded up
    # paused at 10 min 30 s: 17 min 30 s left, and still 17 min 30 s a quarter of an hour later
    _clock(app, tournament_id, "pause_clock", now=at(10, 30))
    assert _state(app, tournament_id, at(25)) | {"now": None} == {
        "state": "paused", "position": 2, "remaining": 17 * 60 + 30, "ends_at": None, "now": None}
    # +2 minutes while paused: 19 min 30 s; resumed at 25 min: ends at 44 min 30 s
    _clock(app, tournament_id, "extend_clock", 2, now=at(20))
    _clock(app, tournament_id, "resume_clock", now=at(25))
    assert _state(app, tournament_id, at(30))["remaining"] == 14 * 60 + 30
    assert _state(app, tournament_id, at(44, 30)) | {"now": None} == {
        "state": "over", "position": 2, "remaining": 0, "ends_at": "2026-03-14T20:44:30+00:00", "now": None}
    # after the bell, +1 gives one minute from now; −5 then leaves nothing (never below zero)
    _clock(app, tournament_id, "extend_clock", 1, now=at(50))
    assert _state(app, tournament_id, at(50))["remaining"] == 60
    _clock(app, tournament_id, "extend_clock", -5, now=at(50))
    assert _state(app, tournament_id, at(50))["state"] == "over"
    _clock(app, tournament_id, "stop_clock", now=at(51))
    assert _state(app, tournament_id, at(51))["state"] == "idle"


def test_minutes_per_etui_and_refused_clock_actions(app, arbiter):
    tournament_id = ready(app)
    url = f"/arbitre/tournois/{tournament_id}/horloge"
    refused = arbiter.post(url, data={"action": "minutes", "minutes": "zéro"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "Indiquez un nombre entier de minutes par étui, de 1 à 60." in page and 'value="zéro"' in page
    assert arbiter.post(url, data={"action": "pause"}).status_code == 422  # nothing running
    refused = arbiter.post(url, data={"action": "start", "position": "9"})
    assert refused.status_code == 422 and "Position inconnue : choisissez de 1 à 5." in refused.get_data(as_text=True)
    assert arbiter.post(url, data={"action": "minutes", "minutes": "5"}).status_code == 302
    assert arbiter.post(url, data={"action": "start", "position": "1"}).status_code == 302
    clock = arbiter.get(f"/arbitre/tournois/{tournament_id}/salle.json").get_json()["clock"]
    assert clock["remaining"] in (20 * 60, 20 * 60 - 1)  # 5 min × 4 étuis, a second may have passed


def test_the_projector_shows_the_position_the_countdown_and_the_next_move(app, arbiter, evening):
    arbiter.post(f"/arbitre/tournois/{evening}/horloge", data={"action": "start", "position": "2"})
    anonymous = app.test_client()
    data = anonymous.get(f"/tournois/{evening}/projecteur.json").get_json()
    assert data["position"] == 2 and data["positions"] == 5
    assert data["clock"]["state"] == "running" and data["clock"]["position"] == 2
    assert data["move"]["parts"] == ["Nord fixe", "Sud +1", "Est +2", "Ouest −2", "Étuis −1"]  # SPEC §7 Rainbow
    assert data["progress"] == {"entered": 18, "lines": 100}
    assert data["published"] is False
    page = anonymous.get(f"/tournois/{evening}/projecteur")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "2e</span> position" in html and "Sud +1" in html and "<script>" not in html


def test_the_projector_shows_no_score_before_publication(app, arbiter, evening):
    """Not even on the arbiter's own computer: the hall's screen is public (SPEC §11)."""
    some_score = f"{score_for(1, 1):+d}".replace("-", "−")
    for who in (app.test_client(), arbiter):
        data = who.get(f"/tournois/{evening}/projecteur.json").get_data(as_text=True)
        html = who.get(f"/tournois/{evening}/projecteur").get_data(as_text=True)
        for text in (data, html):
            assert "Classement" not in text and "%" not in text and "score" not in text.lower()
        assert "p-ranking" not in html
    publish(app, evening)
    html = app.test_client().get(f"/tournois/{evening}/projecteur").get_data(as_text=True)
    assert "Classement général" in html and "Classement alterné" in html and "p-ranking" in html
    assert some_score not in html  # rankings only, no étui's score


def test_the_grid_follows_a_new_movement(app, arbiter):
    """The grid's layout is kept between polls; a movement chosen again (fewer positions) redraws it."""
    tournament_id = ready(app)
    assert len(arbiter.get(f"/arbitre/tournois/{tournament_id}/salle.json").get_json()["cells"]) == 25
    with Session(db.get_engine(app)) as session:
        operations.choose_movement(session, operations.get_tournament(session, tournament_id), positions=3)
        session.commit()
    room = arbiter.get(f"/arbitre/tournois/{tournament_id}/salle.json").get_json()
    assert len(room["cells"]) == 15 and sorted({key.split("-")[0] for key in room["cells"]}) == ["1", "2", "3"]


@pytest.mark.parametrize("kind", ["triplettes", "quadrettes", "team_match"])
def test_every_kind_has_its_grid_and_its_projector(app, arbiter, kind):
    """Every line the fiches expect is in one cell of the grid (as many as the public progress counts)."""
    tournament_id = ready(app, kind)
    room = arbiter.get(f"/arbitre/tournois/{tournament_id}/salle.json").get_json()
    with Session(db.get_engine(app)) as session:
        expected = operations.progress(session, operations.get_tournament(session, tournament_id))["lines"]
    assert sum(len(cell) - 2 for cell in room["cells"].values()) == room["counts"]["missing"] == expected > 0
    assert arbiter.get(f"/arbitre/tournois/{tournament_id}/salle").status_code == 200
    data = app.test_client().get(f"/tournois/{tournament_id}/projecteur.json").get_json()
    assert data["position"] == 1 and data["progress"] == {"entered": 0, "lines": expected}
    page = app.test_client().get(f"/tournois/{tournament_id}/projecteur").get_data(as_text=True)
    assert ("1er</span> quart temps" if kind == "team_match" else "1re</span> position") in page


def test_the_projector_before_the_movement(app):
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name="Sans mouvement", kind="individual")
        session.commit()
    page = app.test_client().get(f"/tournois/{tournament.id}/projecteur").get_data(as_text=True)
    assert "En attente du mouvement" in page
    data = app.test_client().get(f"/tournois/{tournament.id}/projecteur.json").get_json()
    assert data["position"] is None and data["move"] is None and data["clock"]["state"] == "idle"


def test_lines_entered_at_the_table_await_confirmation_and_disagreements_show(app, arbiter, evening):
    """By hand, on top of the evening: table 5 enters étui 17 on its phone (pending until a defender
    confirms); table 1 sends for étui 1 a score that disagrees with the paper fiche already saved (a
    conflict for the arbiter, never merged)."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        operations.start_position(session, tournament, 1)  # the phones take the étuis of launched positions
        operations.record_table_result(session, tournament, 5, {"board": 17, "score": score_for(17, 5)})
        other = next(score for score in ALLOWED if score != score_for(1, 1))
        with pytest.raises(operations.TableConflict):
            operations.record_table_result(session, tournament, 1, {"board": 1, "score": other})
        session.commit()
    room = arbiter.get(f"/arbitre/tournois/{evening}/salle.json").get_json()
    # étui 17 pending, 18–20 missing; still lines missing, but position 1's time is not up: not late
    assert room["cells"]["1-5"] == "m-pmmm"
    assert room["cells"]["1-1"] == "c-cddd"  # étui 1 in conflict, 2–4 done
    assert room["counts"] == {"done": 17, "conflict": 1, "pending": 1, "missing": 81}
    # the hall counts the lines that count: the disputed one (done until the arbiter decides), not the pending one
    assert app.test_client().get(f"/tournois/{evening}/projecteur.json").get_json()["progress"] == {
        "entered": 18, "lines": 100}
    page = arbiter.get(f"/arbitre/tournois/{evening}/salle").get_data(as_text=True)
    assert 'data-line="17-5" title="Étui 17 : en attente"' in page and 'title="Étui 1 : conflit"' in page


def test_the_projector_follows_each_line_at_once(app, evening):
    """The projector's data is kept between polls, never past a change: a pending line does not count,
    its confirmation does."""
    def entered():
        return app.test_client().get(f"/tournois/{evening}/projecteur.json").get_json()["progress"]["entered"]

    assert entered() == 18
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        operations.start_position(session, tournament, 1)
        operations.record_table_result(session, tournament, 5, {"board": 17, "score": score_for(17, 5)})
        session.commit()
    assert entered() == 18
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        line, = operations.all_lines(session, tournament, boards={17}, table=5, pending=True)
        seat = next(seat for seat in "ESW" if line.seats[seat] != line.taker)  # a defender, not the North
        operations.confirm_table_result(session, tournament, 5, 17, seat,
                                        operations.player_code(tournament, line.seats[seat]))
        session.commit()
    assert entered() == 19
