"""The evening's changes through the arbiter's screens (SPEC §11): each one end to end, with its journal
entry; a refused change changes nothing (no row, no journal entry) and keeps what was typed.

The tournament is the evening of ``tests/core/test_evening.py`` (3 tables, 2 étuis, 2 positions), whose
hand-computed globals are N1 62,5; S1 12,5; E1 = W1 25; N2 0; S2 100; E2 = W2 50; N3 87,5; S3 37,5;
E3 = W3 75.
"""

import json

import pytest
from sqlmodel import Session, select

from duplicate import db, interchange, operations
from duplicate.models import JournalEntry, Penalty, Player, Substitution, Tournament
from pages import without_tokens


def _result(board, table, taker_line, score):
    taker = f"{taker_line}{table}"
    return {"board": board, "table": table, "position": board, "taker": taker,
            "defenders": [f"{line}{table}" for line in "NSEW" if line != taker_line], "score": score}


def evening_file() -> str:
    players = [{"id": f"{line}{table}", "name": f"JOUEUR{table} {line}", "line": line, "licence": f"L{line}{table}"}
               for table in (1, 2, 3) for line in "NSEW"]
    results = [_result(1, 1, "N", 56), _result(1, 2, "N", -52), _result(1, 3, "N", 50),
               _result(2, 1, "S", 62), _result(2, 2, "S", 80), _result(2, 3, "S", -56)]
    movement = {"format": "tarot-movement/1", "kind": "individual", "tables": 3, "positions": 2,
                "rounds": [{"position": p, "table": t, "boards": [p],
                            "seats": {s: f"{s}{t}" for s in "NSEW"}} for p in (1, 2) for t in (1, 2, 3)]}
    return json.dumps({"format": "tarot-tournament/1", "name": "Soirée", "kind": "individual",
                       "players": players, "results": results, "movement": movement})


@pytest.fixture
def tid(app):
    with Session(db.get_engine(app)) as session:
        tournament = interchange.import_tournament(session, evening_file())
        session.commit()
        return tournament.id


def _session(app):
    return Session(db.get_engine(app))


def _journal(app, tid):
    with _session(app) as session:
        return [(e.action, e.who, e.before, e.after) for e in
                session.exec(select(JournalEntry).where(JournalEntry.tournament_id == tid).order_by(JournalEntry.id))]


def _player(app, tid, entrant_id):
    with _session(app) as session:
        return session.exec(select(Player).where(Player.tournament_id == tid, Player.entrant_id == entrant_id)).one()


def _ranking(app, tid):
    with _session(app) as session:
        tournament = session.get(Tournament, tid)
        return {row["id"]: row for row in operations.ranking(session, tournament)["ranking"]}


def _snapshot(app, tid):
    """Everything a refused change must leave as it was."""
    with _session(app) as session:
        players = [(p.entrant_id, p.surname, p.first_name, p.licence, p.club, p.out_of_ranking, p.withdrawn_from)
                   for p in session.exec(select(Player).where(Player.tournament_id == tid).order_by(Player.id))]
        counts = [len(session.exec(select(model).where(model.tournament_id == tid)).all())
                  for model in (Substitution, Penalty, JournalEntry)]
        return players, counts, session.get(Tournament, tid).archived_at


def test_changes_page_lists_players_and_forms(arbiter, tid):
    page = arbiter.get(f"/arbitre/tournois/{tid}/changements")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for words in ("Forfait en cours de tournoi", "Remplaçant", "Joueur de complément", "Pénalité de retard",
                  "JOUEUR1 N", "art. 27", "art. 26"):
        assert words in text


def test_edit_player_keeps_the_place_and_is_journalled(app, arbiter, tid):
    n1 = _player(app, tid, "N1")
    form = arbiter.get(f"/arbitre/tournois/{tid}/joueurs/{n1.id}")
    assert form.status_code == 200 and 'value="JOUEUR1"' in form.get_data(as_text=True)
    response = arbiter.post(f"/arbitre/tournois/{tid}/joueurs/{n1.id}",
                            data={"surname": "DUPONT", "first_name": "Jean", "licence": "LN1", "club": "TC Lyon"})
    assert response.status_code == 302
    edited = _player(app, tid, "N1")
    assert (edited.surname, edited.first_name, edited.club, edited.entrant_id) == ("DUPONT", "Jean", "TC Lyon", "N1")
    assert _journal(app, tid) == [("player.edit", "arbitre", {"nom": "JOUEUR1", "prénom": "N", "club": None},
                                   {"nom": "DUPONT", "prénom": "Jean", "club": "TC Lyon"})]
    assert "DUPONT Jean" in arbiter.get(f"/arbitre/tournois/{tid}/journal").get_data(as_text=True)
    assert _ranking(app, tid)["N1"]["name"] == "DUPONT Jean"


@pytest.mark.parametrize("data, message", [
    ({"surname": "X", "first_name": "Y", "licence": "LS1", "club": ""}, "déjà inscrite"),
    ({"surname": "", "first_name": "Y", "licence": "", "club": ""}, "obligatoire"),
])
def test_refused_player_edit_changes_nothing(app, arbiter, tid, data, message):
    n1 = _player(app, tid, "N1")
    before = _snapshot(app, tid)
    response = arbiter.post(f"/arbitre/tournois/{tid}/joueurs/{n1.id}", data=data)
    assert response.status_code == 422 and message in response.get_data(as_text=True)
    assert 'value="Y"' in response.get_data(as_text=True)  # what was typed is kept
    assert _snapshot(app, tid) == before


def test_fill_in_player_is_out_of_ranking(app, arbiter, tid):
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/complement",
                            data={"fill_in-surname": "MARTIN", "fill_in-first_name": "Lise"})
    assert response.status_code == 302
    with _session(app) as session:
        lise = session.exec(select(Player).where(Player.tournament_id == tid, Player.surname == "MARTIN")).one()
        assert lise.out_of_ranking and lise.entrant_id is None  # drawn later, like the others
    assert _journal(app, tid)[0][0] == "player.fill_in"
    page = arbiter.get(f"/arbitre/tournois/{tid}/changements").get_data(as_text=True)
    assert "joueur de complément, hors classement" in page


def test_refused_fill_in_changes_nothing(app, arbiter, tid):
    before = _snapshot(app, tid)
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/complement",
                            data={"fill_in-surname": "MARTIN", "fill_in-first_name": "", "fill_in-licence": "LN1"})
    assert response.status_code == 422
    assert 'value="MARTIN"' in response.get_data(as_text=True)
    assert _snapshot(app, tid) == before


def test_withdrawal_ranks_the_player_last_and_can_be_cancelled(app, arbiter, tid):
    s2 = _player(app, tid, "S2")
    assert _ranking(app, tid)["S2"]["rank"] == 1
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/forfait",
                            data={"withdrawal-player_id": s2.id, "withdrawal-position": "2"})
    assert response.status_code == 302
    rows = _ranking(app, tid)
    # S2 (100 %) is ranked after the 11 others; N3 (87,5 %) moves up to 1st
    assert (rows["S2"]["rank"], rows["S2"]["withdrawn"], rows["N3"]["rank"]) == (12, {"position": 2}, 1)
    assert _journal(app, tid)[-1][:2] == ("player.withdraw", "arbitre")
    page = arbiter.get(f"/arbitre/tournois/{tid}/changements").get_data(as_text=True)
    assert "forfait à la position 2 (classé dernier)" in page
    response = arbiter.post(f"/arbitre/tournois/{tid}/joueurs/{s2.id}/annuler-forfait")
    assert response.status_code == 302 and _ranking(app, tid)["S2"]["rank"] == 1
    assert [entry[0] for entry in _journal(app, tid)] == ["player.withdraw", "player.withdraw_cancel"]


@pytest.mark.parametrize("position, message", [("3", "entre 1 et 2"), ("0", "entre 1 et 2"), ("deux", "entier")])
def test_refused_withdrawal_changes_nothing(app, arbiter, tid, position, message):
    s2 = _player(app, tid, "S2")
    before = _snapshot(app, tid)
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/forfait",
                            data={"withdrawal-player_id": s2.id, "withdrawal-position": position})
    assert response.status_code == 422 and message in response.get_data(as_text=True)
    assert _snapshot(app, tid) == before


def _substitute(arbiter, tid, results_to, **data):
    return arbiter.post(f"/arbitre/tournois/{tid}/changements/remplacant", data={
        "substitute-seat": "N3", "substitute-from_position": "2", "substitute-results_to": results_to,
        "substitute-surname": "REMPLAÇANT", "substitute-first_name": "Paul", **data})


def test_substitute_with_the_results(app, arbiter, tid):
    assert _substitute(arbiter, tid, "substitute").status_code == 302
    x1 = _player(app, tid, "X1")
    assert (x1.name, x1.line, x1.out_of_ranking) == ("REMPLAÇANT Paul", "N", True)
    rows = _ranking(app, tid)
    # N3 keeps étui 1 (attack 50): 50 %; X1 gets étui 2 (defence 100), hors classement
    assert (rows["N3"]["global"], rows["N3"]["rank"]) == (50, 5)
    assert (rows["X1"]["global"], rows["X1"]["rank"], rows["X1"]["out_of_ranking"]) == (100, None, True)
    action, who, _before, after = _journal(app, tid)[0]
    assert (action, who, after["place"], after["à partir de la position"]) == ("player.substitute", "arbitre", "N3", 2)
    with _session(app) as session:
        data = interchange.export_tournament(session, session.get(Tournament, tid))
    assert data["substitutions"] == [{"seat": "N3", "player": "X1", "from_position": 2, "results_to": "substitute"}]


def test_substitute_without_the_results(app, arbiter, tid):
    assert _substitute(arbiter, tid, "player").status_code == 302
    rows = _ranking(app, tid)
    assert (rows["N3"]["global"], rows["N3"]["rank"], rows["X1"]["rank"]) == (87.5, 2, None)


@pytest.mark.parametrize("data, message", [
    ({"substitute-seat": "N9"}, "pas un choix valide"),
    ({"substitute-from_position": "5"}, "entre 1 et 2"),
    ({"substitute-surname": ""}, "obligatoire"),
])
def test_refused_substitute_changes_nothing(app, arbiter, tid, data, message):
    before = _snapshot(app, tid)
    response = _substitute(arbiter, tid, "substitute", **data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert _snapshot(app, tid) == before


def test_second_substitute_for_a_seat_is_refused(app, arbiter, tid):
    assert _substitute(arbiter, tid, "player").status_code == 302
    before = _snapshot(app, tid)
    response = _substitute(arbiter, tid, "player", **{"substitute-surname": "AUTRE"})
    assert response.status_code == 422 and "déjà un remplaçant" in response.get_data(as_text=True)
    assert _snapshot(app, tid) == before


def test_lateness_penalty_per_started_five_minutes(app, arbiter, tid):
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/retard", data={
        "lateness-entrant_id": "N1", "lateness-minutes": "7", "lateness-points_per_step": "1,5"})
    assert response.status_code == 302
    with _session(app) as session:
        penalty = session.exec(select(Penalty).where(Penalty.tournament_id == tid)).one()
        # 7 minutes: 2 started fractions of 5 minutes × 1,5 point
        assert (penalty.entrant_id, penalty.points, penalty.reason) == ("N1", 3.0, "Retard de 7 min (art. 26)")
    assert _ranking(app, tid)["N1"]["global"] == 62.5 - 3
    action, who, before, after = _journal(app, tid)[0]
    assert (action, who, before, after["points"], after["participant"]) == ("penalty.add", "arbitre", None, "3,00", "N1")
    response = arbiter.post(f"/arbitre/tournois/{tid}/penalites/{penalty.id}/supprimer")
    assert response.status_code == 302
    action, who, before, after = _journal(app, tid)[1]
    assert (action, who, before["points"], after) == ("penalty.remove", "arbitre", "3,00", None)


@pytest.mark.parametrize("minutes, step", [("0", "1"), ("5", "0"), ("cinq", "1"), ("5", "abc")])
def test_refused_lateness_changes_nothing(app, arbiter, tid, minutes, step):
    before = _snapshot(app, tid)
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/retard", data={
        "lateness-entrant_id": "N1", "lateness-minutes": minutes, "lateness-points_per_step": step})
    assert response.status_code == 422
    assert _snapshot(app, tid) == before


def test_archive_hides_and_restore_shows_again(app, arbiter, tid):
    assert "Soirée" in arbiter.get("/arbitre/").get_data(as_text=True)
    assert arbiter.post(f"/arbitre/tournois/{tid}/archiver").status_code == 302
    assert "Soirée" not in arbiter.get("/arbitre/").get_data(as_text=True)
    assert "Soirée" in arbiter.get("/arbitre/archives").get_data(as_text=True)
    assert arbiter.get(f"/arbitre/tournois/{tid}/").status_code == 200  # still readable
    assert arbiter.post(f"/arbitre/tournois/{tid}/archiver").status_code == 422  # twice: refused
    assert arbiter.post(f"/arbitre/tournois/{tid}/restaurer").status_code == 302
    assert "Soirée" in arbiter.get("/arbitre/").get_data(as_text=True)
    assert [entry[0] for entry in _journal(app, tid)] == ["tournament.archive", "tournament.restore"]


def test_delete_offers_the_export_and_wants_the_name(app, arbiter, tid):
    page = arbiter.get(f"/arbitre/tournois/{tid}/supprimer")
    assert page.status_code == 200
    assert f"/arbitre/tournois/{tid}/export" in page.get_data(as_text=True)
    before = _snapshot(app, tid)
    refused = arbiter.post(f"/arbitre/tournois/{tid}/supprimer", data={"confirm_name": "Soiree"})
    assert refused.status_code == 422 and "Recopiez exactement" in refused.get_data(as_text=True)
    assert _snapshot(app, tid) == before
    assert arbiter.post(f"/arbitre/tournois/{tid}/supprimer", data={"confirm_name": "Soirée"}).status_code == 302
    with _session(app) as session:
        assert session.get(Tournament, tid) is None
        assert session.exec(select(Player).where(Player.tournament_id == tid)).all() == []
    assert arbiter.get(f"/arbitre/tournois/{tid}/").status_code == 404


def test_scorers_cannot_make_changes(app, client, make_user, sign_in, tid):
    sign_in(client, make_user("marqueur", "scorer"))
    before = _snapshot(app, tid)
    response = client.post(f"/arbitre/tournois/{tid}/archiver")
    assert response.status_code == 403 and "Accès refusé" in response.get_data(as_text=True)
    assert _snapshot(app, tid) == before


def test_rankings_show_out_of_ranking_and_withdrawn(app, arbiter, tid):
    """The public and arbiter ranking page, the route sheet and the printed ranking say « hors classement »
    and « forfait »; an out-of-ranking player has no place in the alternated ranking."""
    s2 = _player(app, tid, "S2")
    arbiter.post(f"/arbitre/tournois/{tid}/changements/forfait",
                 data={"withdrawal-player_id": s2.id, "withdrawal-position": "2"})
    assert _substitute(arbiter, tid, "substitute").status_code == 302
    with _session(app) as session:
        tournament = session.get(Tournament, tid)
        output = operations.ranking(session, tournament)
        export = interchange.export_tournament(session, tournament)
    x1_token = _player(app, tid, "X1").token
    from duplicate.printing.results import rankings, route_sheets
    printed = rankings(export, output)
    general, alternated = printed["items"][0]["rows"], printed["items"][1]["rows"]
    assert [row["id"] for row in general][-2:] == ["S2", "X1"]
    assert general[-1]["rank"] is None and general[-1]["status"] == "hors classement"
    assert general[-2]["status"] == "forfait à la position 2, classé dernier" and general[-2]["rank"] == 12
    assert "X1" not in [row["id"] for row in alternated] and printed["count"] == 12
    sheets = {sheet["id"]: sheet for sheet in route_sheets(export, output)["items"]}
    assert sheets["X1"]["status"] == "hors classement"
    page = arbiter.get(f"/tournois/{tid}/").get_data(as_text=True)  # the arbiter always sees the ranking
    assert "forfait à la position 2, classé dernier" in page and "hors classement" in page
    assert "None" not in without_tokens(page)  # nor in an attribute; a CSRF token may hold it
    sheet = arbiter.get(f"/feuille/{x1_token}").get_data(as_text=True)
    assert "None" not in sheet


@pytest.mark.parametrize("url, post, get", [
    # (the answer to a POST, to a GET): 404 where the route takes that method, 405 where it does not
    ("/arbitre/tournois/{tid}/joueurs/99999", 404, 404),
    ("/arbitre/tournois/{tid}/joueurs/99999/annuler-forfait", 404, 405),
    ("/arbitre/tournois/99999/changements", 405, 404),
    ("/arbitre/tournois/99999/supprimer", 404, 404),
])
def test_unknown_player_or_tournament_is_404(arbiter, tid, url, post, get):
    url = url.format(tid=tid)
    assert arbiter.post(url, data={}).status_code == post
    assert arbiter.get(url).status_code == get


@pytest.mark.parametrize("data", [
    {"withdrawal-player_id": "abc", "withdrawal-position": "1"},
    {"withdrawal-player_id": "99999", "withdrawal-position": "1"},
    {"withdrawal-position": "1"},
])
def test_withdrawal_of_an_unknown_player_is_refused_in_french(app, arbiter, tid, data):
    before = _snapshot(app, tid)
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/forfait", data=data)
    assert response.status_code == 422
    assert "Not a valid" not in response.get_data(as_text=True)
    assert _snapshot(app, tid) == before


def test_cancel_withdrawal_of_a_player_still_playing_changes_nothing(app, arbiter, tid):
    before = _snapshot(app, tid)
    response = arbiter.post(f"/arbitre/tournois/{tid}/joueurs/{_player(app, tid, 'N1').id}/annuler-forfait")
    assert response.status_code == 422 and "pas quitté le tournoi" in response.get_data(as_text=True)
    assert _snapshot(app, tid) == before


def test_competition_leaves_out_the_out_of_ranking_and_credits_substitutes(app, arbiter, tid):
    """A competition of one séance: X1 (substitute with the results) is not in it, N3 has 50 (étui 1 only)."""
    assert _substitute(arbiter, tid, "substitute").status_code == 302
    with _session(app) as session:
        series = operations.create_series(session, "Coupe")
        operations.set_series(session, session.get(Tournament, tid), series)
        rows = {row["name"]: row for row in operations.series_ranking(session, series)["rows"]}
    assert "REMPLAÇANT Paul" not in rows
    assert rows["JOUEUR3 N"]["total"] == 50 and rows["JOUEUR2 S"]["total"] == 100


def test_lateness_penalty_for_a_triplette(app, arbiter):
    """Art. 26 « 100 points par joueur retardataire » in a team event: the team gets the penalty (1 started
    fraction of 5 minutes × 2 points)."""
    players = [{"id": f"p{i}", "name": f"NOM{i} Prénom"} for i in range(6)]
    teams = [{"id": "NS1", "line": "NS", "members": ["p0", "p1", "p2"]},
             {"id": "EW1", "line": "EW", "members": ["p3", "p4", "p5"]}]
    with _session(app) as session:
        tid = interchange.import_tournament(session, json.dumps(
            {"kind": "triplettes", "name": "Triplettes", "players": players, "teams": teams})).id
        session.commit()
    page = arbiter.get(f"/arbitre/tournois/{tid}/changements").get_data(as_text=True)
    assert "Pénalité de retard" in page and "Joueur de complément" not in page
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/retard", data={
        "lateness-entrant_id": "EW1", "lateness-minutes": "3", "lateness-points_per_step": "2"})
    assert response.status_code == 302
    with _session(app) as session:
        penalty = session.exec(select(Penalty).where(Penalty.tournament_id == tid)).one()
        assert (penalty.entrant_id, penalty.points) == ("EW1", 2.0)
    assert _journal(app, tid)[0][0] == "penalty.add"


def _relais_tournament(app, players):
    import datetime

    with _session(app) as session:
        tournament = operations.create_tournament(session, name="Relais", kind="individual",
                                                  date=datetime.date(2026, 5, 2))
        for i in range(players):
            operations.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOM{i}",
                                       first_name="Jean", club="Club")
        operations.draw_places(session, tournament, seed="relais")
        movement = operations.choose_movement(session, tournament, positions=2)
        operations.generate_boards(session, tournament, count=len(movement.data["boards"]), seed="relais")
        session.commit()
        return tournament.id


def test_late_arrival_through_the_changes_page(app, arbiter):
    """26 players: the newcomer is the 27th, place E7 (N7, S7, E7 at the relais)."""
    tid = _relais_tournament(app, 26)
    assert "Arrivée en retard" in arbiter.get(f"/arbitre/tournois/{tid}/changements").get_data(as_text=True)
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/arrivee-en-retard",
                            data={"late-surname": "TARDIF", "late-first_name": "Léo", "late-club": "Club"})
    assert response.status_code == 302
    assert _player(app, tid, "E7").surname == "TARDIF"
    action, who, before, after = _journal(app, tid)[-1]
    assert action == "player.late" and who == "arbitre" and after["place"] == "E7"


def test_refused_late_arrival_keeps_what_was_typed(app, arbiter):
    """27 players: a 28th would open table 7 → refused in French, nothing kept, the form refilled."""
    tid = _relais_tournament(app, 27)
    before = _snapshot(app, tid)
    response = arbiter.post(f"/arbitre/tournois/{tid}/changements/arrivee-en-retard",
                            data={"late-surname": "TARDIF", "late-first_name": "Léo"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "27 → 28 joueurs" in page and "joueur de complément" in page and 'value="TARDIF"' in page
    assert _snapshot(app, tid) == before
