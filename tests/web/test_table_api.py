"""Scoring at the table (SPEC §12, issue 13): every status code of the table API, idempotency, the pending
line counting nowhere (values by hand), the conflict with a paper fiche — on SQLite and PostgreSQL."""

import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import JournalEntry, Result, ResultHistory
from scoring_helpers import ready
from test_results_api import token


def lines_of(app, tournament_id, **where):
    """The movement's lines (board, table, position, taker, defence, seats) matching ``where``."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return [line for line in operations.all_lines(session, tournament, pending=True)
                if all(getattr(line, k) == v for k, v in where.items())]


def secret_of(app, tournament_id, table) -> str:
    with Session(db.get_engine(app)) as session:
        return operations.table_secret(operations.get_tournament(session, tournament_id), table)


def stored(app, tournament_id, board, table):
    with Session(db.get_engine(app)) as session:
        return session.exec(select(Result).where(Result.tournament_id == tournament_id, Result.board == board,
                                                 Result.table == table)
                            .execution_options(with_pending=True)).first()


def set_settings(app, tournament_id, **values):
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        tournament.settings = {**(tournament.settings or {}), **values}
        session.commit()


def seat_of(line, ident):
    return next(seat for seat, who in line.seats.items() if who == ident)


def launch(app, tournament_id, position):
    """The arbiter's « Lancer la position » (the live room's clock): ``position`` is in play."""
    with Session(db.get_engine(app)) as session:
        operations.start_position(session, operations.get_tournament(session, tournament_id), position)
        session.commit()


def code_of(app, tournament_id, entrant):
    with Session(db.get_engine(app)) as session:
        return operations.player_code(operations.get_tournament(session, tournament_id), entrant)


def defence(app, tournament_id, line, seat=None):
    """The body of a defender's confirmation of ``line``: his seat (the first defender's unless ``seat``) and
    his code."""
    seat = seat or next(s for s in "ESW" if line.seats[s] != line.taker)  # the North does not confirm
    return {"seat": seat, "code": code_of(app, tournament_id, line.seats[seat])}


@pytest.fixture
def evening(app):
    """An individual tournament of 5 tables (20 players), no result yet, position 1 launched."""
    tournament_id = ready(app)
    launch(app, tournament_id, 1)
    return tournament_id


def test_tables_links_for_the_arbiter_only(app, client, evening):
    app.config["PUBLIC_URL"] = "https://tarot.example/"  # links on the configured address, never the Host
    assert client.get(f"/api/tournaments/{evening}/tables").status_code == 401
    assert client.get(f"/api/tournaments/{evening}/tables",
                      headers={"Authorization": "Bearer faux"}).status_code == 401
    response = client.get(f"/api/tournaments/{evening}/tables", headers={"Authorization": f"Bearer {token(app)}"})
    assert response.status_code == 403 and "arbitre" in response.get_json()["error"]
    response = client.get(f"/api/tournaments/{evening}/tables",
                          headers={"Authorization": f"Bearer {token(app, 'arbiter')}"})
    assert response.status_code == 200
    tables = response.get_json()["tables"]
    assert [t["table"] for t in tables] == [1, 2, 3, 4, 5]
    assert len({t["secret"] for t in tables}) == 5
    for item in tables:
        assert re.fullmatch(rf"{evening}\.{item['table']}\.[A-Za-z0-9_-]{{22}}", item["secret"])
        assert item["url"] == f"https://tarot.example/table/{item['secret']}"
    app.config["PUBLIC_URL"] = "https://tarot.club.example/"
    try:
        response = client.get(f"/api/tournaments/{evening}/tables",
                              headers={"Authorization": f"Bearer {token(app, 'arbiter', 'a2')}", "Host": "evil.example"})
        assert response.get_json()["tables"][0]["url"] == f"https://tarot.club.example/table/{tables[0]['secret']}"
    finally:
        app.config.pop("PUBLIC_URL")


def test_a_secret_is_valid_for_its_tournament_and_table_only(app, client, evening):
    other = ready(app, seed="autre")
    secret = secret_of(app, evening, 2)
    assert client.get(f"/api/table/{secret}").status_code == 200
    forged = [f"{other}.2.{secret.split('.')[2]}", f"{evening}.3.{secret.split('.')[2]}", secret[:-1] + "A"
              if not secret.endswith("A") else secret[:-1] + "B", f"{evening}.9.{secret.split('.')[2]}", "1.1", "x"]
    for bad in forged:
        response = client.get(f"/api/table/{bad}")
        assert response.status_code == 404, bad
        assert "Lien de table inconnu" in response.get_json()["error"]
    assert client.get(f"/table/{forged[0]}").status_code == 404
    assert client.post(f"/api/table/{forged[0]}/results", json={"board": 1, "score": 56}).status_code == 404


def test_view_shows_position_seats_names_and_boards(app, client, evening):
    secret = secret_of(app, evening, 1)
    first = min(line.position for line in lines_of(app, evening, table=1))
    here = sorted(lines_of(app, evening, table=1, position=first), key=lambda line: line.board)
    body = client.get(f"/api/table/{secret}").get_json()
    assert body["tournament"] == evening and body["table"] == 1 and body["position"] == first == 1
    # the draw seats N1, S1, E1, W1 at table 1 in the first position (Rainbow: North fixed)
    assert {seat: who["id"] for seat, who in body["seats"].items()} == {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}
    with Session(db.get_engine(app)) as session:
        names = {p.entrant_id: p.name for p in operations.players(session, operations.get_tournament(session, evening))}
    assert body["seats"]["N"]["name"] == names["N1"] and re.fullmatch(r"NOM\d+ Prénom", names["N1"])
    assert [b["number"] for b in body["boards"]] == [line.board for line in here]
    assert [b["taker"] for b in body["boards"]] == [line.taker for line in here]
    assert {b["status"] for b in body["boards"]} == {"todo"}
    # takers N, S, E, W once each in a set of four étuis (SPEC §2)
    assert sorted(b["taker_seat"] for b in body["boards"]) == ["E", "N", "S", "W"]
    assert client.get(f"/api/table/{secret}?position=3").get_json()["position"] == 3


def test_entry_idempotent_correction_confirmation_409(app, client, evening):
    secret = secret_of(app, evening, 1)
    line = sorted(lines_of(app, evening, table=1, position=1), key=lambda line: line.board)[0]
    url = f"/api/table/{secret}/results"
    response = client.post(url, json={"board": line.board, "score": 56})
    assert response.status_code == 202 and response.get_json() == {"board": line.board, "status": "pending", "score": 56}
    # a retry after a lost answer: the same write, nothing doubled
    response = client.post(url, json={"board": line.board, "score": 56})
    assert response.status_code == 202 and response.get_json()["status"] == "pending"
    result = stored(app, evening, line.board, 1)
    assert result.status == "pending" and result.origin == "table" and result.entered_by == "table 1"
    with Session(db.get_engine(app)) as session:
        assert len(session.exec(select(ResultHistory).where(ResultHistory.result_id == result.id)).all()) == 1
    # the North corrects before confirmation
    assert client.post(url, json={"board": line.board, "score": "+62"}).get_json() == {
        "board": line.board, "status": "pending", "score": 62}
    # impossible scores and combinations, in French
    response = client.post(url, json={"board": line.board, "score": 31})
    assert response.status_code == 422 and "Score +31 impossible pour une Garde" in response.get_json()["error"]
    response = client.post(url, json={"board": line.board, "points": 10, "bouts": 3})
    assert response.status_code == 422 and "10 points avec 3 bouts impossibles en Garde" in response.get_json()["error"]
    response = client.post(url, json={"board": line.board, "contract": "prise", "points": 60, "bouts": 1})
    assert response.status_code == 422 and "contrat est imposé : Garde" in response.get_json()["error"]
    response = client.post(url, json={"board": line.board, "points": 60, "bouts": 1, "poignees": ["double", "double"]})
    assert response.status_code == 422 and "poignées double + double impossibles" in response.get_json()["error"].lower()
    response = client.post(url, json={"board": 999, "score": 56})
    assert response.status_code == 422 and "ne se joue pas à la table 1" in response.get_json()["error"]
    assert client.post(url, data="pas du JSON").status_code == 422
    assert stored(app, evening, line.board, 1).score == 62
    # the taker cannot confirm his own score; his seat is the étui's taker seat
    taker_seat = seat_of(line, line.taker)
    confirm = f"/api/table/{secret}/results/{line.board}/confirm"
    response = client.post(confirm, json={"seat": taker_seat, "code": code_of(app, evening, line.taker)})
    assert response.status_code == 422 and "défenseur le confirme" in response.get_json()["error"]
    assert client.post(confirm, json={"seat": "X"}).status_code == 422
    assert stored(app, evening, line.board, 1).status == "pending"
    body = defence(app, evening, line)
    response = client.post(confirm, json=body)
    assert response.status_code == 200 and response.get_json() == {"board": line.board, "status": "done"}
    assert client.post(confirm, json=body).status_code == 200  # again: nothing changes
    assert stored(app, evening, line.board, 1).status == "done"
    # done: the same content is still 202; a different score is 409 and flagged once to the arbiter
    response = client.post(url, json={"board": line.board, "score": 62})
    assert response.status_code == 202 and response.get_json()["status"] == "done"
    for _ in range(2):
        response = client.post(url, json={"board": line.board, "score": 56})
        assert response.status_code == 409 and "signalé à l’arbitre" in response.get_json()["error"]
    assert stored(app, evening, line.board, 1).score == 62
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        flagged = operations.conflicts(session, tournament)
        assert [(c.board, c.table, c.source, c.score) for c in flagged] == [(line.board, 1, "table", 56)]
        actions = [e.action for e in session.exec(select(JournalEntry).where(JournalEntry.tournament_id == evening)
                                                  .order_by(JournalEntry.id))]
    assert actions == ["table.enter", "table.correct", "table.code_refused", "table.confirm", "result.conflict"]
    # nothing entered yet on another étui: nothing to confirm
    other = sorted(lines_of(app, evening, table=1, position=1), key=lambda line: line.board)[1]
    assert client.post(f"/api/table/{secret}/results/{other.board}/confirm",
                       json=defence(app, evening, other)).status_code == 404


def test_facts_are_scored_by_the_core(app, client, evening):
    secret = secret_of(app, evening, 2)
    boards = sorted(line.board for line in lines_of(app, evening, table=2, position=1))
    url = f"/api/table/{secret}/results"
    # seed examples (SPEC §3): garde, 2 bouts, 49 points, poignée simple, petit au bout by the taker → +106
    response = client.post(url, json={"board": boards[0], "contract": "garde", "points": 49, "bouts": 2,
                                      "poignees": ["simple"], "petit_au_bout": "taker", "chelem": None})
    assert response.status_code == 202 and response.get_json()["score"] == 106
    # garde with announced chelem made, 2 bouts, 87 points, poignée, petit au bout → +582
    response = client.post(url, json={"board": boards[1], "points": 87, "bouts": 2, "poignees": ["simple"],
                                      "petit_au_bout": "taker", "chelem": "announced_made"})
    assert response.status_code == 202 and response.get_json()["score"] == 582
    assert stored(app, evening, boards[1], 2).chelem is True
    # 1 bout, 40 points: needed 51, failed by 11 → −(25 + 11) × 2 = −72
    response = client.post(url, json={"board": boards[2], "points": 40, "bouts": 1})
    assert response.status_code == 202 and response.get_json()["score"] == -72


def test_other_tables_scores_only_after_done_at_the_position_in_play_and_if_allowed(app, client, evening):
    """``boards/<n>``: 403 unless the arbiter allows it, this table's line of the étui is done, and its
    position is the one in play; after publication the position in play no longer matters."""
    board = 1
    played = sorted(lines_of(app, evening, board=board), key=lambda line: line.position)
    first, second, third = played[0], played[1], played[2]
    assert first.position < second.position < third.position
    secrets_ = {line.table: secret_of(app, evening, line.table) for line in played}

    def enter(line, score, confirm=True):
        assert client.post(f"/api/table/{secrets_[line.table]}/results",
                           json={"board": board, "score": score}).status_code == 202
        if confirm:
            assert client.post(f"/api/table/{secrets_[line.table]}/results/{board}/confirm",
                               json=defence(app, evening, line)).status_code == 200

    look = f"/api/table/{secrets_[second.table]}/boards/{board}"
    launch(app, evening, second.position)
    enter(first, 56)
    response = client.get(look)
    assert response.status_code == 403 and "L’arbitre ne montre pas" in response.get_json()["error"]
    set_settings(app, evening, table_results=True)
    response = client.get(look)
    assert response.status_code == 403 and "une fois votre score de cet étui confirmé" in response.get_json()["error"]
    enter(second, 62, confirm=False)
    assert client.get(look).status_code == 403  # pending is not done
    assert client.post(f"/api/table/{secrets_[second.table]}/results/{board}/confirm",
                       json=defence(app, evening, second)).status_code == 200
    response = client.get(look)
    assert response.status_code == 200
    assert [(r["table"], r["score"], r["own"]) for r in response.get_json()["results"]] == [
        (first.table, 56, False), (second.table, 62, True)]
    # the table that played it earlier no longer sees it: its position is over, its players have moved
    response = client.get(f"/api/table/{secrets_[first.table]}/boards/{board}")
    assert response.status_code == 403 and f"pendant la position {first.position} seulement" in response.get_json()["error"]
    set_settings(app, evening, table_results=False)
    assert client.get(look).status_code == 403
    set_settings(app, evening, table_results=True)
    launch(app, evening, third.position)  # the next position: the second table's players have moved on
    enter(third, -52, confirm=False)  # pending: never shown
    response = client.get(look)
    assert response.status_code == 403 and "pendant la position" in response.get_json()["error"]
    # an étui the table does not play
    other = next(n for n in range(1, 30) if not lines_of(app, evening, board=n, table=second.table))
    assert client.get(f"/api/table/{secrets_[second.table]}/boards/{other}").status_code == 403
    # after publication: as before the trust rules (the option, the table's own line done)
    set_settings(app, evening, published=True)
    response = client.get(look)
    assert response.status_code == 200 and [r["score"] for r in response.get_json()["results"]] == [56, 62]
    assert client.get(f"/api/table/{secrets_[third.table]}/boards/{board}").status_code == 403  # pending


def test_pending_counts_nowhere(app, client, evening):
    """Étui 1, three tables: two done (+62, +56), one pending (−56). Topage by hand (SPEC §4): with n = 2
    the +62 beats one table → 100, the +56 → 0; once the third is confirmed (n = 3) +62 → 100, +56 → 50,
    −56 → 0."""
    arbiter = {"Authorization": f"Bearer {token(app, 'arbiter')}"}
    board = 1
    played = sorted(lines_of(app, evening, board=board), key=lambda line: line.position)
    launch(app, evening, played[2].position)
    scores = {played[0].table: 62, played[1].table: 56, played[2].table: -56}
    for line in played[:3]:
        secret = secret_of(app, evening, line.table)
        assert client.post(f"/api/table/{secret}/results", json={"board": board, "score": scores[line.table]}).status_code == 202
    for line in played[:2]:
        assert client.post(f"/api/table/{secret_of(app, evening, line.table)}/results/{board}/confirm",
                           json=defence(app, evening, line)).status_code == 200
    ranking = client.get(f"/api/tournaments/{evening}/ranking", headers=arbiter).get_json()
    notes = {r["table"]: r["taker_note"] for b in ranking["boards"] if b["number"] == board for r in b["results"]}
    assert notes == {played[0].table: 100.0, played[1].table: 0.0}
    total = len(lines_of(app, evening))
    assert ranking["missing"] == total - 2
    # exports, public pages and the fiches count done lines only
    client.get(f"/api/tournaments/{evening}/ranking", headers=arbiter)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        from duplicate.interchange import export_tournament
        assert sorted(r["score"] for r in export_tournament(session, tournament)["results"]) == [56, 62]
        assert operations.progress(session, tournament)["entered"] == 2
        from duplicate.operations._table_view import phone_status
        statuses = {(line.board, line.table): phone_status(line.result)
                    for line in operations.all_lines(session, tournament, pending=True)}
    assert statuses[(board, played[2].table)] == "pending" and statuses[(board, played[0].table)] == "done"
    assert statuses[(board, played[3].table)] == "todo"
    third = played[2]
    assert client.post(f"/api/table/{secret_of(app, evening, third.table)}/results/{board}/confirm",
                       json=defence(app, evening, third)).status_code == 200
    ranking = client.get(f"/api/tournaments/{evening}/ranking", headers=arbiter).get_json()
    notes = {r["table"]: r["taker_note"] for b in ranking["boards"] if b["number"] == board for r in b["results"]}
    assert notes == {played[0].table: 100.0, played[1].table: 50.0, played[2].table: 0.0}
    assert ranking["missing"] == total - 3


def test_paper_fiche_disagreeing_with_the_table_is_flagged(app, arbiter, evening):
    client = arbiter
    board = 2
    played = sorted(lines_of(app, evening, board=board), key=lambda line: line.position)
    at_table, agreeing = played[0], played[1]
    launch(app, evening, agreeing.position)
    for line, score in ((at_table, 56), (agreeing, 62)):
        assert client.post(f"/api/table/{secret_of(app, evening, line.table)}/results",
                           json={"board": board, "score": score}).status_code == 202
    page = client.get(f"/saisie/tournois/{evening}/etuis/{board}").get_data(as_text=True)
    assert "saisi à la table — « en attente » de confirmation" in page
    versions = dict(re.findall(r'name="version-([0-9]+-[0-9]+)" value="([0-9]+)"', page))
    data = {f"score-{board}-{at_table.table}": "+60", f"version-{board}-{at_table.table}": versions[f"{board}-{at_table.table}"],
            f"score-{board}-{agreeing.table}": "+62", f"version-{board}-{agreeing.table}": versions[f"{board}-{agreeing.table}"],
            f"score-{board}-{played[2].table}": "-52"}
    response = client.post(f"/saisie/tournois/{evening}/etuis/{board}", data=data, follow_redirects=True)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert f"Étui {board}, table {at_table.table} : la fiche papier (+60) ne dit pas comme la table (+56)" in text
    # never merged: the table's line is as it was, still pending; the paper line of another table is written
    kept = stored(app, evening, board, at_table.table)
    assert (kept.score, kept.status) == (56, "pending")
    assert (stored(app, evening, board, played[2].table).score, stored(app, evening, board, played[2].table).status) == (-52, "done")
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        flagged = operations.conflicts(session, tournament)
        assert [(c.table, c.source, c.score) for c in flagged] == [(at_table.table, "paper", 60)]
        conflict_id = flagged[0].id
    page = client.get(f"/arbitre/tournois/{evening}/tables").get_data(as_text=True)
    assert "Conflits à trancher" in page and "Garder +56" in page and "Garder +60" in page
    response = client.post(f"/arbitre/tournois/{evening}/conflits/{conflict_id}", data={"keep": "entry"})
    assert response.status_code == 302
    kept = stored(app, evening, board, at_table.table)
    assert (kept.score, kept.status) == (60, "done")
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, evening)
        assert operations.conflicts(session, tournament) == []
        actions = [e.action for e in session.exec(select(JournalEntry).where(JournalEntry.tournament_id == evening)
                                                  .order_by(JournalEntry.id))]
    assert actions.count("result.conflict") == 1 and actions[-1] == "result.resolve"
    # the table now sees its étui done with the arbiter's score; a resend of its old score is a 409
    response = client.post(f"/api/table/{secret_of(app, evening, at_table.table)}/results", json={"board": board, "score": 56})
    assert response.status_code == 409


def test_phone_page_and_arbiter_tables_page(app, arbiter, evening):
    app.config["PUBLIC_URL"] = "https://tarot.example"
    secret = secret_of(app, evening, 3)
    response = arbiter.get(f"/table/{secret}")
    assert response.status_code == 200 and response.headers["Referrer-Policy"] == "no-referrer"
    page = response.get_data(as_text=True)
    assert 'src="/static/js/table.js"' in page and "Table 3" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script
    page = arbiter.get(f"/arbitre/tournois/{evening}/tables").get_data(as_text=True)
    assert f"https://tarot.example/table/{secret}" in page and page.count("<svg") == 5
    response = arbiter.post(f"/arbitre/tournois/{evening}/tables", data={"results_visible": "y", "position": "2"})
    assert response.status_code == 302
    body = arbiter.get(f"/api/table/{secret}").get_json()
    assert body["position"] == 1 and body["others_visible"] is True  # the position in play comes first
    with Session(db.get_engine(app)) as session:
        operations.stop_clock(session, operations.get_tournament(session, evening))
        session.commit()
    body = arbiter.get(f"/api/table/{secret}").get_json()  # nothing launched: the arbiter's position
    assert body["position"] == 2 and body["launched"] is False and body["others_visible"] is False


def test_guide_cards_carry_the_tables_qr_codes(app, evening):
    from duplicate.interchange import export_tournament
    from duplicate.printing.contexts import guide_cards

    with Session(db.get_engine(app)) as session:
        export = export_tournament(session, operations.get_tournament(session, evening))
    context = guide_cards(export, table_urls={1: "http://192.0.2.5:5000/table/1.1.abc"})
    assert context["items"][0]["url"] == "http://192.0.2.5:5000/table/1.1.abc"
    assert context["items"][0]["qr"].startswith("data:image/png;base64,") and context["items"][1]["qr"] == ""


@pytest.mark.parametrize("kind", ["triplettes", "quadrettes"])
def test_teams_confirm_by_a_defending_seat(app, client, kind):
    """Triplettes: the taker's line (NS for a taker N or S) does not confirm, the other does; quadrettes and
    team matches: the taker sits South (SPEC §2), North, East and West defend. The North, who entered the
    score, never confirms it."""
    tournament_id = ready(app, kind)
    launch(app, tournament_id, 1)
    secret = secret_of(app, tournament_id, 1)
    body = client.get(f"/api/table/{secret}").get_json()
    assert set(body["seats"]) == ({"NS", "EW"} if kind == "triplettes" else {"attack", "defence"})
    board = body["boards"][0]
    seat = board["taker_seat"]
    if kind == "triplettes":
        partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[seat]
        refused, accepted = [seat, partner], [s for s in "ESW" if s not in (seat, partner)]
    else:
        assert seat == "S"
        refused, accepted = ["S", "N"], ["E", "W"]
    assert set(board["confirm_seats"]) == set(accepted)
    assert client.post(f"/api/table/{secret}/results", json={"board": board["number"], "score": 56}).status_code == 202
    # the code of the team holding the seat: the taker's team's at its seats, the defending team's elsewhere
    taker_code = code_of(app, tournament_id, board["taker"])
    defending = next(who["id"] for who in body["seats"].values() if who["id"] != board["taker"])
    for bad in refused:
        response = client.post(f"/api/table/{secret}/results/{board['number']}/confirm",
                               json={"seat": bad, "code": taker_code})
        assert response.status_code == 422 and "défenseur le confirme" in response.get_json()["error"]
    response = client.post(f"/api/table/{secret}/results/{board['number']}/confirm",
                           json={"seat": accepted[0], "code": taker_code})
    assert response.status_code == 422 and "code du preneur" in response.get_json()["error"]
    response = client.post(f"/api/table/{secret}/results/{board['number']}/confirm",
                           json={"seat": accepted[0], "code": code_of(app, tournament_id, defending)})
    assert response.status_code == 200 and response.get_json()["status"] == "done"
