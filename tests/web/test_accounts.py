"""Accounts and ownership (issue 13): who sees and changes which tournament, the scorer accounts, tokens and
passwords managed from the screens, and the lines the arbiter adjusted, which only the arbiter changes."""

import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import Result, Tournament, TournamentKind, User

from scoring_helpers import fields, fill_board, give, ready

PASSWORD = "mot-de-passe-solide"


@pytest.fixture
def signed_in(app, make_user, sign_in):
    """``signed_in(username, role="arbiter")``: a new client signed in as a new account."""

    def make(username: str, role: str = "arbiter"):
        client = app.test_client()
        assert sign_in(client, make_user(username, role)).status_code == 302
        return client

    return make


def _new_tournament(client, name: str) -> int:
    response = client.post("/arbitre/tournois/nouveau", data={"name": name, "kind": "individual", "sessions": 1,
                                                              "timezone": "Europe/Paris"})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(re.search(r"/arbitre/tournois/(\d+)/", response.location).group(1))


def _tournament(app, tid: int) -> Tournament:
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        return session.get(Tournament, tid)


def _own(app, tid: int, username: str) -> None:
    """Give the tournament `tid` (a shared one from `ready`) to the arbiter `username`."""
    with Session(db.get_engine(app)) as session:
        user = session.exec(select(User).where(User.username == username)).one()
        operations.take_over(session, session.get(Tournament, tid), user)
        session.commit()


TOURNAMENT_PAGES = ["/arbitre/tournois/{tid}/", "/arbitre/tournois/{tid}/tables", "/arbitre/tournois/{tid}/salle",
                    "/arbitre/tournois/{tid}/salle.json", "/arbitre/tournois/{tid}/joueurs",
                    "/arbitre/tournois/{tid}/etuis",
                    "/arbitre/tournois/{tid}/resultats", "/arbitre/tournois/{tid}/journal",
                    "/arbitre/tournois/{tid}/acces", "/arbitre/tournois/{tid}/export",
                    "/arbitre/tournois/{tid}/impression/", "/saisie/tournois/{tid}/"]


def test_a_tournament_belongs_to_the_arbiter_who_made_it(app, signed_in):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    tid = _new_tournament(alice, "Tournoi d’Alice")
    assert _tournament(app, tid).owner_id is not None
    assert "Tournoi d’Alice" in alice.get("/arbitre/").get_data(as_text=True)
    assert "Tournoi d’Alice" not in bruno.get("/arbitre/").get_data(as_text=True)
    assert "Tournoi d’Alice" not in bruno.get("/saisie/").get_data(as_text=True)
    for path in (p.format(tid=tid) for p in TOURNAMENT_PAGES):
        assert alice.get(path).status_code == 200, path
        response = bruno.get(path)
        assert response.status_code == 403, path
        assert "confié à un autre arbitre" in response.get_data(as_text=True) or path.startswith("/saisie"), path
    # nor can he change it
    response = bruno.post(f"/arbitre/tournois/{tid}/joueurs", data={"surname": "INTRUS", "first_name": "Ivan"})
    assert response.status_code == 403
    assert bruno.post(f"/arbitre/tournois/{tid}/archiver").status_code == 403
    assert bruno.post(f"/arbitre/tournois/{tid}/acces/prendre-en-charge").status_code == 403
    assert bruno.post(f"/arbitre/tournois/{tid}/acces/donner", data={"grant-username": "bruno"}).status_code == 403
    with Session(db.get_engine(app)) as session:
        assert operations.players(session, session.get(Tournament, tid)) == []
        assert session.get(Tournament, tid).archived_at is None
    assert bruno.get("/arbitre/tournois/999/").status_code == 404  # unknown stays unknown
    # nor the tables' secret links (SPEC §12), by his session or by his arbiter token
    assert alice.get(f"/api/tournaments/{tid}/tables").status_code == 200
    assert bruno.get(f"/api/tournaments/{tid}/tables").status_code == 403
    with Session(db.get_engine(app)) as session:
        other = operations.create_tournament(session, name="Autre", kind="individual")
        token = operations.create_token(session, "arbiter", "autre", tournament=other)
        session.commit()
    response = app.test_client().get(f"/api/tournaments/{tid}/tables", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 403 and "arbitre du tournoi" in response.get_json()["error"]


def test_a_co_arbiter_sees_and_changes_what_he_is_given(app, signed_in, make_user):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    make_user("chloe")
    tid = _new_tournament(alice, "Tournoi partagé à deux")
    response = alice.post(f"/arbitre/tournois/{tid}/acces/donner", data={"grant-username": "bruno"})
    assert response.status_code == 302
    assert "Tournoi partagé à deux" in bruno.get("/arbitre/").get_data(as_text=True)
    for path in (p.format(tid=tid) for p in TOURNAMENT_PAGES):
        assert bruno.get(path).status_code == 200, path
    response = bruno.post(f"/arbitre/tournois/{tid}/joueurs", data={"surname": "MARTIN", "first_name": "Paul"})
    assert response.status_code == 302
    # a co-arbiter does not name other co-arbiters
    response = bruno.post(f"/arbitre/tournois/{tid}/acces/donner", data={"grant-username": "chloe"})
    assert response.status_code == 422
    assert "Seul l’arbitre responsable du tournoi nomme des co-arbitres." in response.get_data(as_text=True)
    # the owner takes it back
    with Session(db.get_engine(app)) as session:
        bruno_id = session.exec(select(User.id).where(User.username == "bruno")).one()
    assert alice.post(f"/arbitre/tournois/{tid}/acces/{bruno_id}/retirer").status_code == 302
    assert bruno.get(f"/arbitre/tournois/{tid}/").status_code == 403
    journal = alice.get(f"/arbitre/tournois/{tid}/journal").get_data(as_text=True)
    assert "bruno a désormais accès au tournoi (co-arbitre)." in journal
    assert "bruno n’a plus accès au tournoi." in journal


def test_unpublished_results_are_shown_to_the_tournament_s_arbiters_only(app, signed_in):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    tid = ready(app)
    _own(app, tid, "alice")
    assert fill_board(alice, tid, 1).status_code == 302
    alice_page = alice.get(f"/tournois/{tid}/etuis/1").get_data(as_text=True)
    bruno_page = bruno.get(f"/tournois/{tid}/etuis/1").get_data(as_text=True)
    with Session(db.get_engine(app)) as session:
        score = session.exec(select(Result.score).where(Result.tournament_id == tid, Result.board == 1)).first()
    shown = f"+{score}" if score > 0 else f"−{-score}"
    assert shown in alice_page and shown not in bruno_page


def test_shared_tournaments_are_every_arbiter_s_until_one_takes_one_over(app, signed_in):
    """Tournaments without owner (made before 0007_accounts, or from the command line) are shared."""
    alice, bruno = signed_in("alice"), signed_in("bruno")
    tid = ready(app)
    assert _tournament(app, tid).owner_id is None
    assert alice.get(f"/arbitre/tournois/{tid}/").status_code == 200
    assert bruno.get(f"/arbitre/tournois/{tid}/").status_code == 200
    assert "partagé" in bruno.get(f"/arbitre/tournois/{tid}/acces").get_data(as_text=True)
    # no co-arbiter on a shared tournament: else one could name himself before another takes it over
    response = bruno.post(f"/arbitre/tournois/{tid}/acces/donner", data={"grant-username": "bruno"})
    assert response.status_code == 422 and "Prenez-le en charge pour nommer des co-arbitres." in response.get_data(
        as_text=True)
    assert bruno.post(f"/arbitre/tournois/{tid}/acces/prendre-en-charge").status_code == 302
    assert alice.get(f"/arbitre/tournois/{tid}/").status_code == 403
    assert bruno.get(f"/arbitre/tournois/{tid}/").status_code == 200
    assert "pris en charge par bruno" in bruno.get(f"/arbitre/tournois/{tid}/journal").get_data(as_text=True)


def test_a_scorer_account_made_for_a_tournament_enters_that_tournament_only(app, signed_in, sign_in):
    alice = signed_in("alice")
    mine, other = ready(app, seed="un"), ready(app, seed="deux")
    shared = ready(app, seed="trois")
    _own(app, mine, "alice")
    _own(app, other, "alice")
    response = alice.post(f"/arbitre/tournois/{mine}/acces/marqueur",
                          data={"scorer-username": "table-marque", "scorer-password": PASSWORD})
    assert response.status_code == 302
    assert "table-marque" in alice.get(f"/arbitre/tournois/{mine}/acces").get_data(as_text=True)
    scorer = app.test_client()
    assert sign_in(scorer, "table-marque").status_code == 302
    listing = scorer.get("/saisie/").get_data(as_text=True)
    assert f"/saisie/tournois/{mine}/" in listing
    assert f"/saisie/tournois/{other}/" not in listing and f"/saisie/tournois/{shared}/" not in listing
    assert fill_board(scorer, mine, 1).status_code == 302
    for tid in (other, shared):
        assert scorer.get(f"/saisie/tournois/{tid}/").status_code == 403
        assert scorer.get(f"/saisie/tournois/{tid}/etuis/1").status_code == 403
        assert fill_board(scorer, tid, 1).status_code == 403
    for path in ("/arbitre/", f"/arbitre/tournois/{mine}/", f"/arbitre/tournois/{mine}/acces", "/arbitre/comptes"):
        assert scorer.get(path).status_code == 403, path
    with Session(db.get_engine(app)) as session:
        counts = {tid: len(session.exec(select(Result.id).where(Result.tournament_id == tid)).all())
                  for tid in (mine, other, shared)}
    assert counts[mine] > 0 and counts[other] == counts[shared] == 0


def test_a_scorer_given_no_tournament_enters_none(app, signed_in, sign_in):
    """A scorer made from the command line (or before the accounts) enters only what an arbiter gives him."""
    alice = signed_in("alice")
    scorer = signed_in("ancien", "scorer")
    owned, shared = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, owned, "alice")
    for tid in (owned, shared):
        assert scorer.get(f"/saisie/tournois/{tid}/").status_code == 403
        assert fill_board(scorer, tid, 1).status_code == 403
    assert f"/saisie/tournois/{shared}/" not in scorer.get("/saisie/").get_data(as_text=True)
    # given by the arbiter, the owned one; from then on, only what he is given
    assert alice.post(f"/arbitre/tournois/{owned}/acces/donner", data={"grant-username": "ancien"}).status_code == 302
    assert scorer.get(f"/saisie/tournois/{owned}/").status_code == 200
    assert scorer.get(f"/saisie/tournois/{shared}/").status_code == 403


def test_new_scorer_refused_in_french_keeps_what_was_typed(signed_in, app):
    alice = signed_in("alice")
    tid = _new_tournament(alice, "Tournoi")
    response = alice.post(f"/arbitre/tournois/{tid}/acces/marqueur",
                          data={"scorer-username": "ok", "scorer-password": "court"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Identifiant invalide" in html and 'value="ok"' in html
    response = alice.post(f"/arbitre/tournois/{tid}/acces/marqueur",
                          data={"scorer-username": "alice", "scorer-password": PASSWORD})
    assert response.status_code == 422
    assert "L’identifiant « alice » est déjà pris." in response.get_data(as_text=True)
    response = alice.post(f"/arbitre/tournois/{tid}/acces/donner", data={"grant-username": "personne"})
    assert response.status_code == 422 and "Aucun compte « personne »." in response.get_data(as_text=True)


def _user_id(app, username: str) -> int:
    with Session(db.get_engine(app)) as session:
        return session.exec(select(User.id).where(User.username == username)).one()


def test_the_arbiter_disables_a_scorer_and_resets_his_password(app, signed_in, sign_in):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    tid = _new_tournament(alice, "Tournoi")
    alice.post(f"/arbitre/tournois/{tid}/acces/marqueur",
               data={"scorer-username": "table-sept", "scorer-password": PASSWORD})
    scorer = app.test_client()
    assert sign_in(scorer, "table-sept").status_code == 302
    uid = _user_id(app, "table-sept")
    assert "table-sept" in alice.get("/arbitre/comptes").get_data(as_text=True)
    assert "table-sept" not in bruno.get("/arbitre/comptes").get_data(as_text=True)  # not his tournament's
    assert bruno.post(f"/arbitre/comptes/{uid}/desactiver").status_code == 422

    assert alice.post(f"/arbitre/comptes/{uid}/desactiver").status_code == 302
    assert scorer.get(f"/saisie/tournois/{tid}/").status_code == 302  # his session is over
    response = sign_in(app.test_client(), "table-sept")
    assert response.status_code == 422
    assert "Ce compte a été désactivé" in response.get_data(as_text=True)
    assert alice.post(f"/arbitre/comptes/{uid}/activer").status_code == 302
    assert sign_in(scorer, "table-sept").status_code == 302

    response = alice.post(f"/arbitre/comptes/{uid}/mot-de-passe", data={f"reset-{uid}-password": "court"})
    assert response.status_code == 422 and "au moins 8 caractères" in response.get_data(as_text=True)
    response = alice.post(f"/arbitre/comptes/{uid}/mot-de-passe", data={f"reset-{uid}-password": "nouveau-secret"})
    assert response.status_code == 302
    assert scorer.get(f"/saisie/tournois/{tid}/").status_code == 302  # signed out by the new password
    assert sign_in(app.test_client(), "table-sept").status_code == 422
    assert sign_in(app.test_client(), "table-sept", "nouveau-secret").status_code == 302


def test_arbiters_are_not_managed_by_other_arbiters(app, signed_in):
    alice, _ = signed_in("alice"), signed_in("bruno")
    bruno_id = _user_id(app, "bruno")
    assert alice.post(f"/arbitre/comptes/{bruno_id}/desactiver").status_code == 422
    assert alice.post(f"/arbitre/comptes/{bruno_id}/mot-de-passe",
                      data={f"reset-{bruno_id}-password": "pirate-pirate"}).status_code == 422
    with Session(db.get_engine(app)) as session:
        assert session.get(User, bruno_id).active
        assert operations.authenticate(session, "bruno", PASSWORD) is not None


def test_one_changes_one_s_own_password(app, signed_in, sign_in):
    alice = signed_in("alice")
    other_device = app.test_client()
    assert sign_in(other_device, "alice").status_code == 302
    response = alice.post("/compte/mot-de-passe", data={"current": "faux-faux-faux", "password": "nouveau-secret",
                                                        "confirm": "nouveau-secret"})
    assert response.status_code == 422 and "Mot de passe actuel incorrect." in response.get_data(as_text=True)
    response = alice.post("/compte/mot-de-passe", data={"current": PASSWORD, "password": "nouveau-secret",
                                                        "confirm": "autre-chose"})
    assert response.status_code == 422 and "Les deux mots de passe diffèrent." in response.get_data(as_text=True)
    response = alice.post("/compte/mot-de-passe", data={"current": PASSWORD, "password": "nouveau-secret",
                                                        "confirm": "nouveau-secret"})
    assert response.status_code == 302
    assert alice.get("/arbitre/").status_code == 200  # this session goes on
    assert other_device.get("/arbitre/").status_code == 302  # the others end
    assert sign_in(app.test_client(), "alice", "nouveau-secret").status_code == 302
    scorer = signed_in("marqueur", "scorer")
    assert scorer.get("/compte/mot-de-passe").status_code == 200  # scorers too


def test_api_tokens_are_made_and_revoked_from_the_screens(app, signed_in, client):
    alice = signed_in("alice")
    mine, other = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, mine, "alice")
    page = alice.post(f"/arbitre/tournois/{mine}/jetons", data={"token-label": "tablette 1", "token-role": "scorer"})
    assert page.status_code == 200
    token = re.search(r'<code class="token">([^<]+)</code>', page.get_data(as_text=True)).group(1)
    assert token not in alice.get(f"/arbitre/tournois/{mine}/acces").get_data(as_text=True)  # shown once
    with Session(db.get_engine(app)) as session:
        traveller = operations.traveller(session, session.get(Tournament, mine), 1)
        item = dict(traveller[0].fields(TournamentKind.individual), score=56)
        token_id = operations.authenticate_token(session, token).id
    headers = {"Authorization": f"Bearer {token}"}
    response = client.post(f"/api/tournaments/{other}/results", json=[item], headers=headers)
    assert response.status_code == 403 and "un autre tournoi" in response.get_json()["error"]
    assert client.post(f"/api/tournaments/{mine}/results", json=[item], headers=headers).status_code == 201
    assert alice.post(f"/arbitre/tournois/{mine}/jetons/{token_id}/revoquer").status_code == 302
    item["board"], item["score"] = 2, 80
    assert client.post(f"/api/tournaments/{mine}/results", json=[item], headers=headers).status_code == 401
    assert "révoqué" in alice.get(f"/arbitre/tournois/{mine}/acces").get_data(as_text=True)


def test_an_arbiter_s_token_for_one_tournament_does_not_read_another_s_secret_ranking(app, client):
    one, two = ready(app, seed="un"), ready(app, seed="deux")
    with Session(db.get_engine(app)) as session:
        token = operations.create_token(session, "arbiter", "classement", tournament=session.get(Tournament, one))
        session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get(f"/api/tournaments/{one}/ranking", headers=headers).status_code == 200
    assert client.get(f"/api/tournaments/{two}/ranking", headers=headers).status_code == 403


# --- the lines the arbiter adjusted --------------------------------------------------------------------------

def _adjust_first_line(app, tid: int, score: int) -> tuple[str, int]:
    with Session(db.get_engine(app)) as session:
        result = session.exec(select(Result).where(Result.tournament_id == tid, Result.board == 1)
                               .order_by(Result.table)).first()
        operations.adjust_score(session, result, score=score, version_id=result.version_id, who="alice",
                                reason="Erreur de marque")
        session.commit()
        return f"{result.board}-{result.table}", result.id


def _post_line(client, tid: int, key: str, score: str):
    page = client.get(f"/saisie/tournois/{tid}/etuis/1").get_data(as_text=True)
    assert key in fields(page)
    version = re.search(rf'name="version-{key}" value="([0-9]+)"', page).group(1)
    return client.post(f"/saisie/tournois/{tid}/etuis/1", data={f"score-{key}": score, f"version-{key}": version})


def test_a_scorer_cannot_change_a_score_the_arbiter_adjusted(app, signed_in):
    scorer, arbiter = signed_in("marqueur", "scorer"), signed_in("alice")
    tid = ready(app)
    give(app, tid, "marqueur")
    assert fill_board(scorer, tid, 1).status_code == 302
    key, result_id = _adjust_first_line(app, tid, 106)
    response = _post_line(scorer, tid, key, "+56")
    assert response.status_code == 409  # SPEC §12: a settled line is a 409 (issue 28), never « Remplacer »
    html = response.get_data(as_text=True)
    assert (f"L’arbitre a tranché cette ligne (étui 1, table {key.split('-')[1]} : score ajusté ; score enregistré +106)"
            in html) and 'name="replace"' not in html
    assert 'value="+56"' in html  # what was typed stays in its box
    with Session(db.get_engine(app)) as session:
        result = session.get(Result, result_id)
        assert (result.score, result.adjusted, result.reason) == (106, True, "Erreur de marque")
    # the arbiter, on the same screen, can
    assert _post_line(arbiter, tid, key, "+56").status_code == 302
    with Session(db.get_engine(app)) as session:
        assert session.get(Result, result_id).score == 56


def test_a_scorer_cannot_change_an_annulled_line_either(app, signed_in):
    scorer = signed_in("marqueur", "scorer")
    tid = ready(app)
    give(app, tid, "marqueur")
    assert fill_board(scorer, tid, 1).status_code == 302
    with Session(db.get_engine(app)) as session:
        result = session.exec(select(Result).where(Result.tournament_id == tid, Result.board == 1)
                               .order_by(Result.table)).first()
        before = result.score
        operations.annul_result(session, result, version_id=result.version_id, who="alice", reason="Donne faussée")
        session.commit()
        key, result_id = f"1-{result.table}", result.id
    changed = "+80" if before != 80 else "+56"
    response = _post_line(scorer, tid, key, changed)
    assert response.status_code == 409
    assert "L’arbitre a tranché cette ligne (étui 1, table" in response.get_data(as_text=True)
    from duplicate import french
    assert f"donne annulée ; score enregistré {french.score(before)})" in response.get_data(as_text=True)
    with Session(db.get_engine(app)) as session:
        assert session.get(Result, result_id).annulled
