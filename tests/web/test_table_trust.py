"""Trust at the table (issue 28 points 1–2, docs/table-phones.md), from the side of a cheater: a table's link
shows scores only at the position in play, takes entries only at launched positions, and a line counts only
once a defender — not the North, not the taker — confirms it with his own code."""

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import JournalEntry, Player
from scoring_helpers import ready
from test_table_api import code_of, defence, launch, lines_of, secret_of, set_settings, stored

SCORE = 106  # garde, 2 bouts, 49 points, poignée simple, petit au bout by the taker: a score seen nowhere else
FACTS = {"contract": "garde", "points": 49, "bouts": 2, "poignees": ["simple"], "petit_au_bout": "taker"}


def journal(app, tournament_id, action):
    with Session(db.get_engine(app)) as session:
        return [(e.summary, e.after) for e in session.exec(
            select(JournalEntry).where(JournalEntry.tournament_id == tournament_id, JournalEntry.action == action)
            .order_by(JournalEntry.id))]


def first_line(app, tournament_id, table, position, taker_seat=None):
    lines = sorted(lines_of(app, tournament_id, table=table, position=position), key=lambda line: line.board)
    return next(line for line in lines if taker_seat is None or line.seats[taker_seat] == line.taker)


@pytest.fixture
def evening(app):
    """An individual tournament of 5 tables, position 1 launched."""
    tournament_id = ready(app)
    launch(app, tournament_id, 1)
    return tournament_id


def enter_and_confirm(app, client, tournament_id, line, payload):
    secret = secret_of(app, tournament_id, line.table)
    assert client.post(f"/api/table/{secret}/results", json={"board": line.board, **payload}).status_code == 202
    response = client.post(f"/api/table/{secret}/results/{line.board}/confirm", json=defence(app, tournament_id, line))
    assert response.status_code == 200, response.get_json()


def test_a_moved_player_reads_no_score_of_another_position(app, client, evening):
    """E1 holds table 1's link; once position 2 is launched he plays elsewhere the étuis table 1 played in
    position 1: no score of them in the JSON, the page, a 409 or a confirmation's answer."""
    line = first_line(app, evening, 1, 1)
    secret = secret_of(app, evening, 1)
    enter_and_confirm(app, client, evening, line, FACTS)
    assert stored(app, evening, line.board, 1).score == SCORE
    shown = client.get(f"/api/table/{secret}").get_json()  # position 1 is in play: the table sees its score
    assert shown["scores_shown"] is True and shown["boards"][0]["score"] == SCORE
    launch(app, evening, 2)
    for url in (f"/api/table/{secret}?position=1", f"/api/table/{secret}", f"/table/{secret}"):
        response = client.get(url)
        assert response.status_code == 200 and str(SCORE) not in response.get_data(as_text=True), url
    view = client.get(f"/api/table/{secret}?position=1").get_json()
    assert view["position"] == 1 and view["scores_shown"] is False and view["in_play"] == 2
    assert [b["status"] for b in view["boards"]][0] == "done"
    assert not any("score" in b or "chelem" in b for b in view["boards"])
    assert client.get(f"/api/table/{secret}").get_json()["position"] == 2  # the position in play by default
    # sending a score for it — a wrong guess or the exact one: the same answer, no stored score in it
    answers = []
    for guess in (56, SCORE):
        response = client.post(f"/api/table/{secret}/results", json={"board": line.board, "score": guess})
        body = response.get_json()
        assert response.status_code == 409 and "score" not in body, body
        answers.append(body)
    assert answers[0] == answers[1] and str(SCORE) not in str(answers[0])
    assert "déjà confirmé" in answers[0]["error"] and "plus en jeu" in answers[0]["error"]
    with Session(db.get_engine(app)) as session:  # the wrong guess is flagged to the arbiter, the exact one not
        tournament = operations.get_tournament(session, evening)
        assert [(c.board, c.score) for c in operations.conflicts(session, tournament)] == [(line.board, 56)]
    response = client.post(f"/api/table/{secret}/results/{line.board}/confirm", json=defence(app, evening, line))
    assert response.status_code == 200 and str(SCORE) not in response.get_data(as_text=True)
    # after publication everything may be shown
    set_settings(app, evening, published=True)
    assert client.get(f"/api/table/{secret}?position=1").get_json()["boards"][0]["score"] == SCORE


def test_a_late_table_finishes_an_earlier_position(app, client, evening):
    """An earlier launched position takes entries: the answer echoes the score sent; the GET then shows
    its status only."""
    launch(app, evening, 2)
    line = first_line(app, evening, 3, 1)
    secret = secret_of(app, evening, 3)
    response = client.post(f"/api/table/{secret}/results", json={"board": line.board, **FACTS})
    assert response.status_code == 202 and response.get_json()["score"] == SCORE
    board = next(b for b in client.get(f"/api/table/{secret}?position=1").get_json()["boards"]
                 if b["number"] == line.board)
    assert board["status"] == "pending" and "score" not in board


def test_nothing_launched_nothing_entered(app, client):
    tournament_id = ready(app)
    secret = secret_of(app, tournament_id, 1)
    view = client.get(f"/api/table/{secret}").get_json()
    assert view["launched"] is False and view["in_play"] is None
    line = first_line(app, tournament_id, 1, 1)
    response = client.post(f"/api/table/{secret}/results", json={"board": line.board, "score": 56})
    assert response.status_code == 422 and "pas encore lancé la position 1" in response.get_json()["error"]
    assert stored(app, tournament_id, line.board, 1) is None


def test_an_etui_of_a_position_not_launched_is_refused_and_journalled_once(app, client, evening):
    line = first_line(app, evening, 1, 3)
    secret = secret_of(app, evening, 1)
    for _ in range(3):
        response = client.post(f"/api/table/{secret}/results", json={"board": line.board, "score": 56})
        assert response.status_code == 422 and "pas encore lancé la position 3" in response.get_json()["error"]
    assert stored(app, evening, line.board, 1) is None
    assert [after for _, after in journal(app, evening, "table.not_launched")] == [
        {"table": 1, "position": 3, "étui": line.board}]
    assert client.get(f"/api/table/{secret}?position=3").get_json()["launched"] is False


def test_the_north_confirms_neither_with_his_seat_nor_with_his_code(app, client, evening):
    line = first_line(app, evening, 1, 1, taker_seat="S")  # the North defends: still, he does not confirm
    secret = secret_of(app, evening, 1)
    confirm = f"/api/table/{secret}/results/{line.board}/confirm"
    assert client.post(f"/api/table/{secret}/results", json={"board": line.board, "score": 56}).status_code == 202
    north = code_of(app, evening, line.seats["N"])
    response = client.post(confirm, json={"seat": "N", "code": north})
    assert response.status_code == 422 and "place du Nord" in response.get_json()["error"]
    response = client.post(confirm, json={"seat": "E", "code": north})  # his code at a defender's seat
    assert response.status_code == 422 and "Code incorrect pour Est" in response.get_json()["error"]
    assert stored(app, evening, line.board, 1).status == "pending"
    refused = journal(app, evening, "table.code_refused")
    assert len(refused) == 2 and "place du Nord" in refused[0][0]
    assert f"code refusé pour Est ({line.seats['E']}" in refused[1][0]
    assert f"c’est celui de {line.seats['N']} " in refused[1][0]  # whose code it was: the North's


def test_the_takers_seat_and_the_takers_code_are_refused_and_journalled(app, client, evening):
    line = first_line(app, evening, 1, 1, taker_seat="E")
    secret = secret_of(app, evening, 1)
    confirm = f"/api/table/{secret}/results/{line.board}/confirm"
    assert client.post(f"/api/table/{secret}/results", json={"board": line.board, "score": 56}).status_code == 202
    taker = code_of(app, evening, line.taker)
    response = client.post(confirm, json={"seat": "E", "code": taker})
    assert response.status_code == 422 and "le preneur ne confirme pas son propre score" in response.get_json()["error"]
    response = client.post(confirm, json={"seat": "S", "code": taker})
    assert response.status_code == 422 and "code du preneur" in response.get_json()["error"]
    assert stored(app, evening, line.board, 1).status == "pending"
    refused = [summary for summary, _ in journal(app, evening, "table.code_refused")]
    assert "place du preneur (Est" in refused[0] and f"c’est celui du preneur {line.taker}" in refused[1]


def test_five_wrong_codes_lock_the_phone_for_that_position(app, client, evening):
    line = first_line(app, evening, 2, 1)
    secret = secret_of(app, evening, 2)
    confirm = f"/api/table/{secret}/results/{line.board}/confirm"
    assert client.post(f"/api/table/{secret}/results", json={"board": line.board, "score": 56}).status_code == 202
    good = defence(app, evening, line)
    wrong = f"{(int(good['code']) + 1) % 10000:04d}"
    for _ in range(operations.MAX_REFUSED_CODES):
        response = client.post(confirm, json={**good, "code": wrong})
        assert response.status_code == 422 and "Code incorrect" in response.get_json()["error"]
    response = client.post(confirm, json=good)  # even the good code: the arbiter settles it now
    assert response.status_code == 422 and "appelez l’arbitre, la fiche papier fait foi" in response.get_json()["error"]
    assert stored(app, evening, line.board, 2).status == "pending"
    assert client.get(f"/api/table/{secret}").get_json()["locked"] is True
    assert len(journal(app, evening, "table.code_refused")) == operations.MAX_REFUSED_CODES  # no more entries
    assert client.get(f"/api/table/{secret_of(app, evening, 3)}").get_json()["locked"] is False  # other tables


def test_a_good_code_confirms_and_the_journal_names_the_confirmer(app, client, evening):
    line = first_line(app, evening, 1, 1, taker_seat="N")
    enter_and_confirm(app, client, evening, line, {"score": 56})
    assert stored(app, evening, line.board, 1).status == "done"
    with Session(db.get_engine(app)) as session:
        names = {p.entrant_id: p.name for p in operations.players(session, operations.get_tournament(session, evening))}
    (summary, after), = journal(app, evening, "table.confirm")
    who = line.seats["E"]
    assert f"confirmé par la défense (Est, {who} {names[who]})" in summary
    assert after["confirmé par"] == {"place": "E", "joueur": who, "nom": names[who]}


def test_a_substitute_confirms_with_his_own_code(app, client, evening):
    launch(app, evening, 2)
    line = first_line(app, evening, 1, 2, taker_seat="N")
    replaced = line.seats["E"]
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        substitution = operations.name_substitute(session, tournament, seat=replaced, from_position=2,
                                                  results_to="player", licence="9999", surname="REMPLAÇANT",
                                                  first_name="Paul", club="Club")
        substitute = session.get(Player, substitution.player_id).entrant_id
        session.commit()
    secret = secret_of(app, evening, 1)
    confirm = f"/api/table/{secret}/results/{line.board}/confirm"
    assert client.post(f"/api/table/{secret}/results", json={"board": line.board, "score": 56}).status_code == 202
    response = client.post(confirm, json={"seat": "E", "code": code_of(app, evening, replaced)})
    assert response.status_code == 422  # the replaced player's code no longer confirms at his seat
    response = client.post(confirm, json={"seat": "E", "code": code_of(app, evening, substitute)})
    assert response.status_code == 200
    (summary, _), = journal(app, evening, "table.confirm")
    assert f"(Est, {substitute} REMPLAÇANT Paul)" in summary
    codes = {item["id"]: item["code"] for item in operations_codes(app, evening)}
    assert codes[substitute] == code_of(app, evening, substitute) and replaced in codes


def test_the_phone_names_the_substitute_from_his_position_on(app, client, evening):
    """SPEC §11 on the phone's view (read as columns, issue 30): at the substitute's position and after, his
    name at the replaced player's seat (the seat keeps the replaced id); before it, the replaced player's."""
    launch(app, evening, 2)
    line = first_line(app, evening, 1, 2, taker_seat="N")
    replaced = line.seats["E"]
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        original = next(p.name for p in operations.players(session, tournament) if p.entrant_id == replaced)
        operations.name_substitute(session, tournament, seat=replaced, from_position=2, results_to="player",
                                   licence="9999", surname="REMPLAÇANT", first_name="Paul", club="Club")
        session.commit()
        before = [seat for t in operations.table_numbers(session, tournament)
                  for seat in operations.table_view(session, tournament, t, 1)["seats"].values()
                  if seat["id"] == replaced]
    view = client.get(f"/api/table/{secret_of(app, evening, 1)}?position=2").get_json()
    assert view["position"] == 2 and view["seats"]["E"] == {"id": replaced, "name": "REMPLAÇANT Paul"}
    assert before == [{"id": replaced, "name": original}]
    assert original != "REMPLAÇANT Paul"


def operations_codes(app, tournament_id):
    with Session(db.get_engine(app)) as session:
        return operations.table_codes(session, operations.get_tournament(session, tournament_id))


def test_free_play_codes_are_the_same_function(app):
    """One code function: free play's codes did not change (its HMAC label is kept)."""
    import hashlib
    import hmac

    from duplicate.operations import freeplay_table
    assert freeplay_table.player_code is operations.player_code
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, ready(app))
        mac = hmac.new(tournament.table_key.encode(), f"tarot-free-player/1|{tournament.id}|N1".encode(),
                       hashlib.sha256).digest()
        assert operations.player_code(tournament, "N1") == f"{int.from_bytes(mac[:8], 'big') % 10000:04d}"


def test_where_a_player_finds_his_code(app, client, arbiter, make_user, sign_in):
    """His private link's page shows his code (to its holder only: the link is the secret); the arbiter's
    codes page, linked from « Tables » and the live room, lists every code; a scorer and the public do not
    reach it."""
    tournament_id = ready(app)
    with Session(db.get_engine(app)) as session:
        player = session.exec(select(Player).where(Player.tournament_id == tournament_id,
                                                   Player.entrant_id == "E2")).one()
        token = player.token
    code = code_of(app, tournament_id, "E2")
    page = app.test_client().get(f"/feuille/{token}").get_data(as_text=True)
    assert f"Code de confirmation : <strong>{code}</strong>" in page
    codes_url = f"/arbitre/tournois/{tournament_id}/tables/codes"
    for screen in (f"/arbitre/tournois/{tournament_id}/tables", f"/arbitre/tournois/{tournament_id}/salle"):
        assert codes_url in arbiter.get(screen).get_data(as_text=True), screen
    page = arbiter.get(codes_url).get_data(as_text=True)
    assert page.count("<tr>") == 21 and f"<strong>{code}</strong>" in page
    scorer = app.test_client()
    sign_in(scorer, make_user("marqueur", "scorer"))
    assert scorer.get(codes_url).status_code in (302, 403)
    response = app.test_client().get(codes_url)
    assert response.status_code in (302, 401, 403) and code not in response.get_data(as_text=True)
