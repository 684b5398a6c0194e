"""No arbiter reaches another's (issue 28 point 3; docs/accounts.md), from the attacker's side: another
arbiter's scorer cannot be taken over by giving him a tournament; a withdrawn scorer enters nothing; a
competition is changed by its managers only; a withdrawn co-arbiter's API token stops; the command line's
tokens are revoked on the command line only. Every refusal answers in French and changes nothing."""

import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import ApiToken, Result, Series, Tournament, TournamentKind, User

from scoring_helpers import fill_board, ready

PASSWORD = "mot-de-passe-solide"


@pytest.fixture
def signed_in(app, make_user, sign_in):
    """``signed_in(username, role="arbiter")``: a new client signed in as a new account."""

    def make(username: str, role: str = "arbiter"):
        client = app.test_client()
        assert sign_in(client, make_user(username, role)).status_code == 302
        return client

    return make


def _own(app, tid: int, username: str) -> None:
    with Session(db.get_engine(app)) as session:
        user = session.exec(select(User).where(User.username == username)).one()
        operations.take_over(session, session.get(Tournament, tid), user)
        session.commit()


def _user_id(app, username: str) -> int:
    with Session(db.get_engine(app)) as session:
        return session.exec(select(User.id).where(User.username == username)).one()


def _scores(app, tid: int) -> list[tuple]:
    with Session(db.get_engine(app)) as session:
        return [tuple(row) for row in session.exec(
            select(Result.board, Result.table, Result.score, Result.entered_by).where(Result.tournament_id == tid)
            .order_by(Result.board, Result.table)).all()]


def _text(response) -> str:
    return response.get_data(as_text=True)


def _listed(app, client, username: str) -> bool:
    """Whether the account is on the client's « Comptes » page (with its forms)."""
    return f'id="compte-{_user_id(app, username)}"' in _text(client.get("/arbitre/comptes"))


# --- accounts ------------------------------------------------------------------------------------------------

def test_an_arbiter_cannot_take_over_another_arbiter_s_scorer(app, signed_in, sign_in):
    """The auditor's attack: X gives his tournament to Y's scorer S, resets S's password, takes his tournament
    back, signs in as S and rewrites Y's unpublished scores. Giving is allowed; it hands over nothing."""
    alice, bruno = signed_in("alice"), signed_in("bruno")  # alice attacks bruno
    hers, his = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, hers, "alice")
    _own(app, his, "bruno")
    assert bruno.post(f"/arbitre/tournois/{his}/acces/marqueur",
                      data={"scorer-username": "marqueur-bruno", "scorer-password": PASSWORD}).status_code == 302
    scorer = app.test_client()
    assert sign_in(scorer, "marqueur-bruno").status_code == 302
    assert fill_board(scorer, his, 1).status_code == 302
    before = _scores(app, his)
    assert before
    uid = _user_id(app, "marqueur-bruno")

    # 1. she gives him her tournament: allowed, but the account stays bruno's
    assert alice.post(f"/arbitre/tournois/{hers}/acces/donner",
                      data={"grant-username": "marqueur-bruno"}).status_code == 302
    assert not _listed(app, alice, "marqueur-bruno")
    # 2. new password, disable: refused in French, nothing changed
    response = alice.post(f"/arbitre/comptes/{uid}/mot-de-passe", data={f"reset-{uid}-password": "pirate-pirate"})
    assert response.status_code == 422 and "géré par un autre arbitre" in _text(response)
    response = alice.post(f"/arbitre/comptes/{uid}/desactiver")
    assert response.status_code == 422 and "géré par un autre arbitre" in _text(response)
    # 3. she takes her tournament back: still not hers
    assert alice.post(f"/arbitre/tournois/{hers}/acces/{uid}/retirer").status_code == 302
    response = alice.post(f"/arbitre/comptes/{uid}/mot-de-passe", data={f"reset-{uid}-password": "pirate-pirate"})
    assert response.status_code == 422
    # 4. she cannot sign in as him; his session goes on; bruno's scores are as they were
    assert sign_in(app.test_client(), "marqueur-bruno", "pirate-pirate").status_code == 422
    assert scorer.get(f"/saisie/tournois/{his}/").status_code == 200
    with Session(db.get_engine(app)) as session:
        user = session.get(User, uid)
        assert user.active and operations.authenticate(session, "marqueur-bruno", PASSWORD) is not None
    assert _scores(app, his) == before
    # bruno, who made the account, still manages it
    assert _listed(app, bruno, "marqueur-bruno")


def test_an_arbiter_manages_the_scorers_he_made_and_those_whose_every_tournament_he_manages(app, signed_in):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    signed_in("ancien", "scorer")  # made from the command line: nobody made it
    hers, his = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, hers, "alice")
    _own(app, his, "bruno")
    # given no tournament: managed by nobody
    assert not _listed(app, alice, "ancien")
    # given alice's tournament only: alice manages it
    assert alice.post(f"/arbitre/tournois/{hers}/acces/donner", data={"grant-username": "ancien"}).status_code == 302
    assert _listed(app, alice, "ancien")
    assert not _listed(app, bruno, "ancien")
    # given bruno's too: neither manages it any more (each would reach the other's tournament)
    assert bruno.post(f"/arbitre/tournois/{his}/acces/donner", data={"grant-username": "ancien"}).status_code == 302
    uid = _user_id(app, "ancien")
    for client in (alice, bruno):
        assert not _listed(app, client, "ancien")
        assert client.post(f"/arbitre/comptes/{uid}/desactiver").status_code == 422
    with Session(db.get_engine(app)) as session:
        assert session.get(User, uid).active


def test_a_withdrawn_scorer_has_no_tournament(app, signed_in, sign_in):
    """Withdrawing a scorer's only tournament does not make him a scorer of the shared tournaments."""
    alice = signed_in("alice")
    mine, shared = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, mine, "alice")
    assert alice.post(f"/arbitre/tournois/{mine}/acces/marqueur",
                      data={"scorer-username": "marqueur-soir", "scorer-password": PASSWORD}).status_code == 302
    scorer = app.test_client()
    assert sign_in(scorer, "marqueur-soir").status_code == 302
    assert scorer.get(f"/saisie/tournois/{mine}/").status_code == 200
    uid = _user_id(app, "marqueur-soir")
    assert alice.post(f"/arbitre/tournois/{mine}/acces/{uid}/retirer").status_code == 302
    listing = _text(scorer.get("/saisie/"))
    assert "Aucun tournoi pour l’instant : l’arbitre d’un tournoi vous le donne" in listing
    for tid in (mine, shared):
        assert f"/saisie/tournois/{tid}/" not in listing
        response = scorer.get(f"/saisie/tournois/{tid}/")
        assert response.status_code == 403 and "l’arbitre du tournoi vous la donne" in _text(response)
        assert fill_board(scorer, tid, 1).status_code == 403
    assert _scores(app, mine) == _scores(app, shared) == []
    # alice made the account: she still manages it (a new password, disable)
    assert _listed(app, alice, "marqueur-soir")


# --- competitions ----------------------------------------------------------------------------------------------

def _series_id(app, name: str) -> int:
    with Session(db.get_engine(app)) as session:
        return session.exec(select(Series.id).where(Series.name == name)).one()


def _séance(app, tid: int) -> tuple:
    with Session(db.get_engine(app)) as session:
        tournament = session.get(Tournament, tid)
        return tournament.series_id, tournament.coefficient


def test_a_rival_arbiter_cannot_put_his_séance_in_another_s_competition(app, signed_in, client):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    hers, his = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, hers, "alice")
    _own(app, his, "bruno")
    assert alice.post("/arbitre/competitions", data={"name": "Championnat d’Alice"}).status_code == 302
    sid = _series_id(app, "Championnat d’Alice")
    alice_id = _user_id(app, "alice")
    with Session(db.get_engine(app)) as session:
        assert session.get(Series, sid).owner_id == alice_id
    assert alice.post(f"/arbitre/tournois/{hers}/competition",
                      data={"series_id": sid, "coefficient": "1"}).status_code == 302
    assert _séance(app, hers) == (sid, 1.0)

    # bruno does not see it among his, and cannot put his séance in it, with coefficient 100
    assert "Championnat d’Alice" not in _text(bruno.get("/arbitre/competitions"))
    assert "Championnat d’Alice" not in _text(bruno.get(f"/arbitre/tournois/{his}/competition"))
    response = bruno.post(f"/arbitre/tournois/{his}/competition", data={"series_id": sid, "coefficient": "100"})
    assert response.status_code == 403 and "confiée à un autre arbitre" in _text(response)
    assert _séance(app, his) == (None, 1.0)
    # nor change a coefficient, nor take a séance out, nor open its page
    response = bruno.post(f"/arbitre/competitions/{sid}/seances/{hers}/coefficient", data={f"coef-{hers}-coefficient": "100"})
    assert response.status_code == 403 and "confiée à un autre arbitre" in _text(response)
    assert bruno.post(f"/arbitre/competitions/{sid}/seances/{hers}/retirer").status_code == 403
    assert bruno.get(f"/arbitre/competitions/{sid}/gerer").status_code == 403
    assert bruno.post(f"/arbitre/competitions/{sid}/acces/donner", data={"grant-username": "bruno"}).status_code == 403
    assert bruno.post(f"/arbitre/competitions/{sid}/prendre-en-charge").status_code == 403
    assert _séance(app, hers) == (sid, 1.0)
    # and alice cannot put bruno's tournament in it either: she does not manage it
    with Session(db.get_engine(app)) as session:
        alice_user = session.exec(select(User).where(User.username == "alice")).one()
        with pytest.raises(operations.Refused):
            operations.set_series(session, session.get(Tournament, his), session.get(Series, sid), 1.0, by=alice_user)
        session.rollback()
    assert alice.post(f"/arbitre/tournois/{his}/competition", data={"series_id": sid, "coefficient": "1"}).status_code == 403
    assert _séance(app, his) == (None, 1.0)
    # the public ranking shows only alice's séance
    page = _text(client.get(f"/competitions/{sid}"))
    assert f'href="/tournois/{hers}/' in page and f'href="/tournois/{his}/' not in page and "coef. 100" not in page


def test_the_competition_s_owner_takes_any_séance_out(app, signed_in, client):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    hers, his = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, hers, "alice")
    _own(app, his, "bruno")
    assert alice.post("/arbitre/competitions", data={"name": "Coupe"}).status_code == 302
    sid = _series_id(app, "Coupe")
    # co-arbiter bruno puts his séance in, with his coefficient
    assert alice.post(f"/arbitre/competitions/{sid}/acces/donner", data={"grant-username": "bruno"}).status_code == 302
    response = bruno.post(f"/arbitre/competitions/{sid}/acces/donner", data={"grant-username": "alice"})
    assert response.status_code == 403 and "Seul l’arbitre responsable de la compétition" in _text(response)
    assert bruno.post(f"/arbitre/tournois/{his}/competition", data={"series_id": sid, "coefficient": "100"}).status_code == 302
    assert _séance(app, his) == (sid, 100.0)
    # the owner sets its coefficient, and takes it out, though she does not manage bruno's tournament
    assert alice.get(f"/arbitre/tournois/{his}/").status_code == 403
    page = _text(alice.get(f"/arbitre/competitions/{sid}/gerer"))
    assert "Tournoi individual" in page and "bruno" in page
    assert alice.post(f"/arbitre/competitions/{sid}/seances/{his}/coefficient",
                      data={f"coef-{his}-coefficient": "2"}).status_code == 302
    assert _séance(app, his) == (sid, 2.0)
    assert alice.post(f"/arbitre/competitions/{sid}/seances/{his}/retirer").status_code == 302
    assert _séance(app, his) == (None, 1.0)
    # bruno withdrawn: he puts it back no more
    bruno_id = _user_id(app, "bruno")
    assert alice.post(f"/arbitre/competitions/{sid}/acces/{bruno_id}/retirer").status_code == 302
    response = bruno.post(f"/arbitre/tournois/{his}/competition", data={"series_id": sid, "coefficient": "1"})
    assert response.status_code == 403
    assert _séance(app, his) == (None, 1.0)
    assert f'href="/tournois/{his}/' not in _text(client.get(f"/competitions/{sid}"))


def test_a_shared_competition_stays_every_arbiter_s_until_one_takes_it_over(app, signed_in):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    with Session(db.get_engine(app)) as session:
        sid = operations.create_series(session, "Ancienne coupe").id  # made before the owners: shared
        session.commit()
    for client in (alice, bruno):
        assert "Ancienne coupe" in _text(client.get("/arbitre/competitions"))
        assert client.get(f"/arbitre/competitions/{sid}/gerer").status_code == 200
    assert bruno.post(f"/arbitre/competitions/{sid}/prendre-en-charge").status_code == 302
    assert alice.get(f"/arbitre/competitions/{sid}/gerer").status_code == 403
    assert "Ancienne coupe" not in _text(alice.get("/arbitre/competitions"))


# --- API tokens --------------------------------------------------------------------------------------------------

def _make_token(client, tid: int, role: str = "arbiter", label: str = "tablette") -> str:
    page = client.post(f"/arbitre/tournois/{tid}/jetons", data={"token-label": label, "token-role": role})
    assert page.status_code == 200
    return re.search(r'<code class="token">([^<]+)</code>', _text(page)).group(1)


def _line(app, tid: int, board: int = 1, score: int = 56) -> dict:
    with Session(db.get_engine(app)) as session:
        traveller = operations.traveller(session, session.get(Tournament, tid), board)
        return dict(traveller[0].fields(TournamentKind.individual), score=score)


def test_a_withdrawn_co_arbiter_s_token_stops_working(app, signed_in, client):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    tid = ready(app)
    _own(app, tid, "alice")
    assert alice.post(f"/arbitre/tournois/{tid}/acces/donner", data={"grant-username": "bruno"}).status_code == 302
    reader, writer = _make_token(bruno, tid, "arbiter", "lecture"), _make_token(bruno, tid, "scorer", "saisie")
    read = {"Authorization": f"Bearer {reader}"}
    write = {"Authorization": f"Bearer {writer}"}
    assert client.get(f"/api/tournaments/{tid}/ranking", headers=read).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/results", json=[_line(app, tid, 1)], headers=write).status_code == 201
    # a co-arbiter does not revoke the owner's tokens; the owner revokes anyone's
    own = _make_token(alice, tid, "scorer", "de la propriétaire")
    with Session(db.get_engine(app)) as session:
        own_id = operations.authenticate_token(session, own).id
    response = bruno.post(f"/arbitre/tournois/{tid}/jetons/{own_id}/revoquer")
    assert response.status_code == 403 and "créé par un autre arbitre" in _text(response)
    with Session(db.get_engine(app)) as session:
        assert not operations.authenticate_token(session, own).revoked

    bruno_id = _user_id(app, "bruno")
    assert alice.post(f"/arbitre/tournois/{tid}/acces/{bruno_id}/retirer").status_code == 302
    before = _scores(app, tid)
    response = client.get(f"/api/tournaments/{tid}/ranking", headers=read)
    assert response.status_code in (401, 403) and "ranking" not in response.get_json()
    response = client.post(f"/api/tournaments/{tid}/results", json=[_line(app, tid, 2, 80)], headers=write)
    assert response.status_code in (401, 403) and "error" in response.get_json()
    assert _scores(app, tid) == before
    with Session(db.get_engine(app)) as session:
        rows = session.exec(select(ApiToken).where(ApiToken.user_id == bruno_id)).all()
        assert len(rows) == 2 and all(row.revoked for row in rows)
    assert "Ses jetons d’API pour ce tournoi sont révoqués (2)." in _text(alice.get(f"/arbitre/tournois/{tid}/journal"))
    # given the tournament again, his old tokens stay revoked
    assert alice.post(f"/arbitre/tournois/{tid}/acces/donner", data={"grant-username": "bruno"}).status_code == 302
    assert client.get(f"/api/tournaments/{tid}/ranking", headers=read).status_code in (401, 403)


def test_a_token_stops_when_its_maker_loses_the_tournament_or_is_disabled(app, signed_in, client):
    alice, bruno = signed_in("alice"), signed_in("bruno")
    shared, other = ready(app, seed="un"), ready(app, seed="deux")
    token = _make_token(bruno, shared, "scorer")
    headers = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/tournaments/{shared}/results", json=[_line(app, shared, 1)], headers=headers).status_code == 201
    # alice takes the shared tournament over: bruno no longer has it, and his token is revoked
    assert alice.post(f"/arbitre/tournois/{shared}/acces/prendre-en-charge").status_code == 302
    before = _scores(app, shared)
    response = client.post(f"/api/tournaments/{shared}/results", json=[_line(app, shared, 2, 80)], headers=headers)
    assert response.status_code == 401
    assert _scores(app, shared) == before
    assert "Jetons d’API des autres arbitres pour ce tournoi révoqués : 1." in _text(
        alice.get(f"/arbitre/tournois/{shared}/journal"))
    # disabled, an arbiter's tokens stop too (the page says so)
    token = _make_token(bruno, other, "scorer")
    headers = {"Authorization": f"Bearer {token}"}
    with Session(db.get_engine(app)) as session:
        operations.set_active(session, session.exec(select(User).where(User.username == "bruno")).one(), False)
        session.commit()
    response = client.post(f"/api/tournaments/{other}/results", json=[_line(app, other, 1)], headers=headers)
    assert response.status_code == 403 and "n’a plus accès à ce tournoi" in response.get_json()["error"]
    assert _scores(app, other) == []
    assert "sans effet" in _text(alice.get(f"/arbitre/tournois/{other}/acces"))


def test_an_arbiter_who_loses_a_tournament_loses_it_through_his_scorers_too(app, signed_in, sign_in):
    """Else a withdrawn co-arbiter would reset the password of a scorer he made for the tournament, and
    enter its fiches as that scorer."""
    alice, bruno = signed_in("alice"), signed_in("bruno")
    hers, shared = ready(app, seed="un"), ready(app, seed="deux")
    _own(app, hers, "alice")
    assert alice.post(f"/arbitre/tournois/{hers}/acces/donner", data={"grant-username": "bruno"}).status_code == 302
    for tid, name in ((hers, "marqueur-co"), (shared, "marqueur-partage")):
        assert bruno.post(f"/arbitre/tournois/{tid}/acces/marqueur",
                          data={"scorer-username": name, "scorer-password": PASSWORD}).status_code == 302
    assert alice.post(f"/arbitre/tournois/{hers}/acces/marqueur",
                      data={"scorer-username": "marqueur-alice", "scorer-password": PASSWORD}).status_code == 302
    scorers = {}
    for name in ("marqueur-co", "marqueur-partage", "marqueur-alice"):
        scorers[name] = app.test_client()
        assert sign_in(scorers[name], name).status_code == 302
    assert alice.post(f"/arbitre/tournois/{hers}/acces/{_user_id(app, 'bruno')}/retirer").status_code == 302
    assert alice.post(f"/arbitre/tournois/{shared}/acces/prendre-en-charge").status_code == 302
    # bruno still manages the accounts he made, but they no longer reach alice's tournaments
    assert _listed(app, bruno, "marqueur-co") and _listed(app, bruno, "marqueur-partage")
    assert scorers["marqueur-co"].get(f"/saisie/tournois/{hers}/").status_code == 403
    assert scorers["marqueur-partage"].get(f"/saisie/tournois/{shared}/").status_code == 403
    assert fill_board(scorers["marqueur-co"], hers, 1).status_code == 403
    assert _scores(app, hers) == []
    # alice's own scorer keeps it
    assert scorers["marqueur-alice"].get(f"/saisie/tournois/{hers}/").status_code == 200
    journal = _text(alice.get(f"/arbitre/tournois/{hers}/journal"))
    assert "Les comptes de marqueur qu’il a créés n’y ont plus accès non plus : marqueur-co." in journal


def test_a_command_line_token_is_revoked_on_the_command_line_only(app, signed_in, client, runner):
    bruno = signed_in("bruno")
    tid = ready(app)
    made = runner.invoke(args=["create-token", "--role", "scorer", "--label", "tablette-du-club"])
    assert made.exit_code == 0, made.output
    token = made.output.strip().splitlines()[-1]
    with Session(db.get_engine(app)) as session:
        token_id = operations.authenticate_token(session, token).id
    # not listed to arbiters, and refused in French on both addresses
    assert "tablette-du-club" not in _text(bruno.get("/arbitre/comptes"))  # a token: never listed here
    assert "tablette-du-club" not in _text(bruno.get(f"/arbitre/tournois/{tid}/acces"))
    for path in (f"/arbitre/jetons/{token_id}/revoquer", f"/arbitre/tournois/{tid}/jetons/{token_id}/revoquer"):
        response = bruno.post(path)
        assert response.status_code == 403, path
        assert "se révoque en ligne de commande" in _text(response), path
    headers = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/api/tournaments/{tid}/results", json=[_line(app, tid, 1)], headers=headers).status_code == 201

    # the command line lists it and revokes it
    listed = runner.invoke(args=["tokens"])
    assert listed.exit_code == 0 and "tablette-du-club" in listed.output and "tous les tournois" in listed.output
    assert f"{token_id}\t" in listed.output and "valide" in listed.output
    revoked = runner.invoke(args=["revoke-token", str(token_id)])
    assert revoked.exit_code == 0 and "révoqué" in revoked.output, revoked.output
    assert client.post(f"/api/tournaments/{tid}/results", json=[_line(app, tid, 2, 80)], headers=headers).status_code == 401
    assert "révoqué" in runner.invoke(args=["tokens"]).output
    unknown = runner.invoke(args=["revoke-token", "9999"])
    assert unknown.exit_code == 1 and "Jeton n° 9999 introuvable." in unknown.output
