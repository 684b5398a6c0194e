"""Entering the fiches ambulantes through the screens, corrections and their history, the arbiter's
adjustments, on SQLite and PostgreSQL."""

import html as entities
import json
import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.core.tournament import load_tournament, ranking_output
from duplicate.models import Result, ResultHistory
from duplicate.french import place_label
from duplicate.web.filters import fr_number, signed_number
from scoring_helpers import SIZES, board_numbers, fill_board, publish, ranking_only, give_scorers, ready, score_for


def html(response) -> str:
    return response.get_data(as_text=True)


def text(response) -> str:
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html(response))))


@pytest.fixture
def scorer(app, make_user, sign_in):
    """A second client, signed in as a scorer."""
    client = app.test_client()
    assert sign_in(client, make_user("marqueur", "scorer")).status_code == 302
    return client


def stored(app, tournament_id) -> list[Result]:
    with Session(db.get_engine(app)) as session:
        return list(session.exec(select(Result).where(Result.tournament_id == tournament_id)
                                 .order_by(Result.board, Result.table)))


def test_scoring_pages_are_for_staff_only(app, client):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    response = client.get(f"/saisie/tournois/{tournament_id}/etuis/1")
    assert response.status_code == 302 and "/connexion" in response.headers["Location"]


def test_fiche_lists_tables_in_movement_order_with_participants(app, scorer):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    page = html(scorer.get(f"/saisie/tournois/{tournament_id}/etuis/1"))
    keys = re.findall(r'name="score-([0-9]+-[0-9]+)"', page)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        lines = operations.traveller(session, tournament, 1)
        positions = [line.position for line in lines]
        first = lines[0]
        name = next(p.name for p in operations.players(session, tournament) if p.entrant_id == first.taker)
    assert keys == [line.key for line in lines] and len(keys) == 5 and positions == sorted(positions)
    assert name in page and first.taker in page
    assert 'inputmode="numeric"' in page and "autofocus" in page and "js/saisie.js" in page


def test_a_whole_individual_from_the_keyboard_and_rankings_agree(app, scorer, arbiter, runner, tmp_path):
    """Done when: the 5-table individual entered through the screens; the ranking on screen, in the API
    and from ``flask rank`` on the exported file agree exactly."""
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    numbers = board_numbers(app, tournament_id)
    assert len(numbers) == 20
    for number in numbers:
        response = fill_board(scorer, tournament_id, number)
        assert response.status_code == 302, text(response)
    assert len(stored(app, tournament_id)) == 100
    assert "0 fiche incomplète" in text(scorer.get(f"/saisie/tournois/{tournament_id}/"))

    publish(app, tournament_id)
    api = scorer.get(f"/api/tournaments/{tournament_id}/ranking").get_json()
    assert (api["complete"], api["missing"], api["published"]) == (True, 0, True)
    export = arbiter.get(f"/arbitre/tournois/{tournament_id}/export").get_data(as_text=True)
    api = ranking_only(api)
    assert api == json.loads(json.dumps(ranking_output(load_tournament(export))))
    path = tmp_path / "tournoi.json"
    path.write_text(export, encoding="utf-8")
    cli = runner.invoke(args=["rank", str(path)])
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.output) == api

    page = html(scorer.get(f"/tournois/{tournament_id}/"))
    general = page[page.index('class="ranking general"'):page.index('class="ranking alternated"')]
    rows = re.findall(r'<span class="place-id">(\w+)</span>.*?<strong>([0-9,−-]+)</strong>', general, re.S)
    assert rows == [(place_label(row["id"]), fr_number(row["global"])) for row in api["ranking"]]
    alternated = page[page.index('class="ranking alternated"'):]
    ids = re.findall(r'<span class="place-id">(\w+)</span>', alternated)
    assert ids == [place_label(r["id"]) for r in sorted(api["ranking"], key=lambda r: (r["alternated_rank"], r["id"]))]
    ties = {r["rank"] for r in api["ranking"]}
    assert ("ex æquo" in page) == (len(ties) < len(api["ranking"]))


@pytest.mark.parametrize("kind", [k for k in SIZES if k != "individual"])
def test_every_kind_through_the_screens_and_the_api(app, scorer, arbiter, kind):
    tournament_id = ready(app, kind)
    give_scorers(app, tournament_id)
    for number in board_numbers(app, tournament_id):
        response = fill_board(scorer, tournament_id, number)
        assert response.status_code == 302, text(response)
    publish(app, tournament_id)
    api = ranking_only(scorer.get(f"/api/tournaments/{tournament_id}/ranking").get_json())
    export = arbiter.get(f"/arbitre/tournois/{tournament_id}/export").get_data(as_text=True)
    assert api == json.loads(json.dumps(ranking_output(load_tournament(export))))
    page = text(scorer.get(f"/tournois/{tournament_id}/"))
    for row in api["ranking"]:
        # PM totals as the feuille de marque writes them: signed in quadrettes, unsigned in a team match
        value = ((fr_number(row["pm"], 3) if kind == "team_match" else signed_number(row["pm"])) if "pm" in row
                 else fr_number(row["global"]))
        assert f"{place_label(row['id'])} {row['name']}" in page and value in page
    if kind == "triplettes":
        assert "Classement alterné" in page
    else:
        assert "Classement en points de match" in page
    if kind == "team_match":
        assert "Tableau de marque par quart temps" in page
        for quarter in api["quarters"]:
            assert fr_number(quarter["total"], 3) in page


def test_impossible_score_refused_with_french_message_and_typing_kept(app, scorer):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    page = html(scorer.get(f"/saisie/tournois/{tournament_id}/etuis/2"))
    first, second = re.findall(r'name="score-([0-9]+-[0-9]+)"', page)[:2]
    response = scorer.post(f"/saisie/tournois/{tournament_id}/etuis/2",
                           data={f"score-{first}": "+56", f"score-{second}": "31"})
    assert response.status_code == 422
    body = html(response)
    assert "Score +31 impossible pour une Garde" in body and "toujours pair" in body
    assert 'value="+56"' in body and 'value="31"' in body and 'aria-invalid="true"' in body
    assert stored(app, tournament_id) == []  # nothing kept, not even the good line
    response = scorer.post(f"/saisie/tournois/{tournament_id}/etuis/2", data={f"score-{first}": "abc"})
    assert response.status_code == 422 and "Score illisible « abc »" in text(response)
    response = scorer.post(f"/saisie/tournois/{tournament_id}/etuis/2",
                           data={f"score-{first}": "−42", f"score-{second}": "+30"})
    assert response.status_code == 302
    assert sorted(r.score for r in stored(app, tournament_id)) == [-42, 30]


def test_chelem_score_needs_the_chelem_box(app, scorer):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    key = re.findall(r'name="score-([0-9]+-[0-9]+)"', html(scorer.get(f"/saisie/tournois/{tournament_id}/etuis/1")))[0]
    response = scorer.post(f"/saisie/tournois/{tournament_id}/etuis/1", data={f"score-{key}": "+582"})
    assert response.status_code == 422 and "chelem" in html(response) and f'name="chelem-{key}"' in html(response)
    response = scorer.post(f"/saisie/tournois/{tournament_id}/etuis/1", data={f"score-{key}": "+582", f"chelem-{key}": "1"})
    assert response.status_code == 302 and stored(app, tournament_id)[0].chelem


def test_check_endpoint_uses_the_core_validator(scorer):
    assert scorer.get("/saisie/verifier?score=%2B106").get_json()["ok"] is True
    answer = scorer.get("/saisie/verifier?score=-20").get_json()
    assert answer["ok"] is False and "aucun score n’est possible entre −32 et +30" in answer["message"]


def test_second_score_for_the_same_etui_and_table_is_refused(app, scorer, arbiter):
    """Two scorers open the same empty fiche; the second save is refused (409), never silently applied."""
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    url = f"/saisie/tournois/{tournament_id}/etuis/1"
    key = re.findall(r'name="score-([0-9]+-[0-9]+)"', html(scorer.get(url)))[0]
    assert scorer.post(url, data={f"score-{key}": "+56"}).status_code == 302
    response = arbiter.post(url, data={f"score-{key}": "+60"})  # built from the empty fiche
    assert response.status_code == 409
    assert "Un autre marqueur a enregistré cette fiche pendant votre saisie" in text(response)
    assert [r.score for r in stored(app, tournament_id)] == [56]


def test_correction_with_version_check_and_history(app, scorer, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    url = f"/saisie/tournois/{tournament_id}/etuis/1"
    key = re.findall(r'name="score-([0-9]+-[0-9]+)"', html(scorer.get(url)))[0]
    scorer.post(url, data={f"score-{key}": "+56"})
    page = html(scorer.get(url))
    version = re.search(rf'name="version-{key}" value="(\d+)"', page).group(1)
    # both open the fiche showing +56 (version 1); the arbiter saves +58 first
    assert arbiter.post(url, data={f"score-{key}": "+58", f"version-{key}": version}).status_code == 302
    response = scorer.post(url, data={f"score-{key}": "+62", f"version-{key}": version})
    assert response.status_code == 409
    assert "rien n’a été enregistré" in text(response) and 'value="+62"' in html(response)
    assert [r.score for r in stored(app, tournament_id)] == [58]
    # saving again (Enter) is refused again; « Remplacer » with the version now shown is the deliberate act
    shown = re.search(rf'name="version-{key}" value="(\d+)"', html(response)).group(1)
    assert scorer.post(url, data={f"score-{key}": "+62", f"version-{key}": shown}).status_code == 409
    seen = re.search(rf'name="replace-{key}" value="(\d+)"', html(response)).group(1)
    assert scorer.post(url, data={f"score-{key}": "+62", f"version-{key}": shown, f"replace-{key}": seen,
                                  "replace": "1"}).status_code == 302

    board = int(key.split("-")[0])
    history = text(arbiter.get(f"/arbitre/tournois/{tournament_id}/etuis/{board}/fiche"))
    assert "saisie marqueur" in history.replace("  ", " ") or ("saisie" in history and "marqueur" in history)
    assert "correction" in history and "+56 +58" in history and "+58 +62" in history and "arbitre" in history
    assert "remplacement (« Remplacer »)" in history
    with Session(db.get_engine(app)) as session:
        actions = session.exec(select(ResultHistory.action, ResultHistory.who).order_by(ResultHistory.id)).all()
    assert actions == [("create", "marqueur"), ("update", "arbitre"), ("replace", "marqueur")]
    publish(app, tournament_id)
    assert "corrigé" in text(scorer.get(f"/tournois/{tournament_id}/etuis/{board}"))


def test_table_by_table_entry(app, scorer):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    url = f"/saisie/tournois/{tournament_id}/tables/2/3"
    keys = re.findall(r'name="score-([0-9]+-[0-9]+)"', html(scorer.get(url)))
    assert len(keys) == 4 and all(key.endswith("-3") for key in keys)
    response = scorer.post(url, data={f"score-{key}": f"{score_for(*map(int, key.split('-'))):+d}" for key in keys})
    assert response.status_code == 302 and "/tables/" in response.headers["Location"]
    assert sorted(r.board for r in stored(app, tournament_id)) == sorted(int(k.split("-")[0]) for k in keys)
    assert {r.position for r in stored(app, tournament_id)} == {2}


def test_arbiter_adjustments_each_with_a_reason_visible_in_the_results(app, scorer, arbiter):
    tournament_id = ready(app)
    give_scorers(app, tournament_id)
    for number in (1, 2):
        assert fill_board(scorer, tournament_id, number).status_code == 302
    first, second, third = stored(app, tournament_id)[:3]
    base = f"/arbitre/tournois/{tournament_id}/resultats"
    response = arbiter.post(f"{base}/{first.id}/annul", data={"annul-{}-reason".format(first.id): "",
                                                              f"annul-{first.id}-version": "1"})
    assert response.status_code == 422 and "Indiquez le motif de la décision." in html(response)
    assert arbiter.post(f"{base}/{first.id}/annul", data={f"annul-{first.id}-reason": "Donne mal battue",
                                                          f"annul-{first.id}-version": "1"}).status_code == 302
    assert arbiter.post(f"{base}/{second.id}/adjust", data={
        f"adjust-{second.id}-score": "+72", f"adjust-{second.id}-reason": "Poignée oubliée",
        f"adjust-{second.id}-version": "1"}).status_code == 302
    assert arbiter.post(f"{base}/{third.id}/note", data={
        f"note-{third.id}-taker": "60", f"note-{third.id}-defence": "40",
        f"note-{third.id}-reason": "Erreur de l’arbitre", f"note-{third.id}-version": "1"}).status_code == 302
    stale = arbiter.post(f"{base}/{second.id}/adjust", data={
        f"adjust-{second.id}-score": "+74", f"adjust-{second.id}-reason": "x", f"adjust-{second.id}-version": "1"})
    assert stale.status_code == 409 and "modifié entre-temps" in text(stale)
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/penalites", data={
        "entrant_id": "N1", "points": "2,5", "reason": "Retard", "board": ""}).status_code == 302

    publish(app, tournament_id)
    page = text(scorer.get(f"/tournois/{tournament_id}/"))
    for phrase in ("donne annulée", "Donne mal battue", "score ajusté", "Poignée oubliée", "note arbitrale",
                   "Erreur de l’arbitre", "Pénalité de 2,50", "Retard"):
        assert phrase in page, phrase
    api = scorer.get(f"/api/tournaments/{tournament_id}/ranking").get_json()
    n1 = next(row for row in api["ranking"] if row["id"] == "N1")
    assert n1["penalty"] == 2.5
    lines = {(b["number"], r["table"]): r for b in api["boards"] for r in b["results"]}
    assert lines[(first.board, first.table)].get("annulled") and lines[(second.board, second.table)]["score"] == 72
    assert lines[(third.board, third.table)]["taker_note"] == 60.0
    history = text(arbiter.get(f"/arbitre/tournois/{tournament_id}/etuis/{second.board}/fiche"))
    assert "score ajusté" in history and "Poignée oubliée" in history
