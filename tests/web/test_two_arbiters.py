"""Two arbiters at once on one tournament (issue 31, point 3; SPEC §11: nothing is overwritten without an
explicit act).

* Writes to the tournament's own row at once — publish, time zone, table options — never answer 500: the
  second waits for the first (the row is locked before it is read again) and applies its change to what
  the first saved.
* Two arbiters editing one form (a player, the time zone, the tables' options): the later save is refused
  with a French 409 when a field it changes was changed meanwhile to something else; the page shows what is
  stored now and keeps what this arbiter typed; saving again from that page is the explicit act that
  replaces. A change to other fields than those the other arbiter changed is merged, not refused.
"""

import html as entities
import re
import threading

import pytest
from sqlmodel import Session, select

from duplicate import db
from duplicate.models import JournalEntry, Player, Tournament
from scoring_helpers import browser_form, give
from test_free_play_teams import evening  # noqa: F401 (the fixture)


def _text(response) -> str:
    page = response.get_data(as_text=True)
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _shown(path: str, *clients) -> list[dict[str, str]]:
    """The form at ``path`` as each client's browser would send it, read now (`browser_form`)."""
    return [browser_form(client.get(path).get_data(as_text=True)) for client in clients]


@pytest.fixture
def arbiters(app, make_user, sign_in, tournament_factory, arbiter):
    """(tournament id, « arbitre »'s client, « bruno »'s client): bruno is the tournament's co-arbiter."""
    tid = tournament_factory("individual", 4)
    make_user("bruno")
    give(app, tid, "bruno")
    bruno = app.test_client()
    assert sign_in(bruno, "bruno").status_code == 302
    return tid, arbiter, bruno


def _player(app, tid) -> Player:
    with Session(db.get_engine(app)) as session:
        return session.exec(select(Player).where(Player.tournament_id == tid).order_by(Player.id)).first()


def _settings(app, tid) -> dict:
    with Session(db.get_engine(app)) as session:
        return dict(session.get(Tournament, tid).settings or {})


@pytest.mark.parametrize("database_url", ["postgresql", "sqlite"], indirect=True)
def test_tournament_writes_at_once_never_answer_500(app, arbiters):
    """Two arbiters press « Publier », change the time zone and the tables' options of one tournament at once:
    every request is answered (302), none 500 (`StaleDataError`), and the last state holds every change."""
    tid, alice, bruno = arbiters
    rounds = 15
    barrier = threading.Barrier(2)
    statuses: list[int] = []
    errors: list[BaseException] = []

    def hammer(client, zone: str, visible: bool) -> None:
        try:
            for i in range(rounds):
                barrier.wait(timeout=30)
                statuses.append(client.post(f"/arbitre/tournois/{tid}/publication",
                                            data={"publier": "1" if i % 2 else "0"}).status_code)
                barrier.wait(timeout=30)
                statuses.append(client.post(f"/arbitre/tournois/{tid}/fuseau", data={"timezone": zone}).status_code)
                barrier.wait(timeout=30)
                data = {"position": ""}
                if visible:
                    data["results_visible"] = "y"
                statuses.append(client.post(f"/arbitre/tournois/{tid}/tables", data=data).status_code)
        except BaseException as error:  # noqa: BLE001 -- reported by the test
            errors.append(error)
            barrier.abort()

    threads = [threading.Thread(target=hammer, args=(alice, "Europe/Paris", True)),
               threading.Thread(target=hammer, args=(bruno, "Indian/Reunion", False))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert len(statuses) == 6 * rounds
    assert sorted(set(statuses)) == [302], statuses
    settings = _settings(app, tid)
    assert settings["published"] is False  # both withdrew last
    assert settings["timezone"] in ("Europe/Paris", "Indian/Reunion")
    assert "table_results" in settings


@pytest.mark.parametrize("database_url", ["postgresql", "sqlite"], indirect=True)
def test_the_later_player_edit_gets_a_409_with_both_values(app, arbiters):
    tid, alice, bruno = arbiters
    player = _player(app, tid)
    path = f"/arbitre/tournois/{tid}/joueurs/{player.id}"
    form_a, form_b = _shown(path, alice, bruno)
    assert form_a["surname"] == player.surname
    assert alice.post(path, data={**form_a, "surname": "DURAND"}).status_code == 302
    response = bruno.post(path, data={**form_b, "surname": "MARTIN"})
    assert response.status_code == 409
    text = _text(response)
    assert "Un autre arbitre a enregistré" in text
    assert "DURAND" in text  # what is stored now
    page = response.get_data(as_text=True)
    assert browser_form(page)["surname"] == "MARTIN"  # what bruno typed, still in its input
    assert _player(app, tid).surname == "DURAND"  # nothing overwritten
    # Enregistrer again from the 409 page: the explicit act that replaces
    response = bruno.post(path, data=browser_form(page))
    assert response.status_code == 302
    assert _player(app, tid).surname == "MARTIN"
    with Session(db.get_engine(app)) as session:
        edits = session.exec(select(JournalEntry).where(JournalEntry.action == "player.edit")
                             .order_by(JournalEntry.id)).all()
    assert [(entry.who, entry.after["nom"]) for entry in edits] == [("arbitre", "DURAND"), ("bruno", "MARTIN")]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_changes_to_different_fields_are_merged(app, arbiters):
    tid, alice, bruno = arbiters
    player = _player(app, tid)
    path = f"/arbitre/tournois/{tid}/joueurs/{player.id}"
    form_a, form_b = _shown(path, alice, bruno)
    assert alice.post(path, data={**form_a, "surname": "DURAND"}).status_code == 302
    assert bruno.post(path, data={**form_b, "club": "Les Rois"}).status_code == 302
    stored = _player(app, tid)
    assert (stored.surname, stored.club) == ("DURAND", "Les Rois")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_same_change_twice_is_no_conflict(app, arbiters):
    tid, alice, bruno = arbiters
    player = _player(app, tid)
    path = f"/arbitre/tournois/{tid}/joueurs/{player.id}"
    form_a, form_b = _shown(path, alice, bruno)
    assert alice.post(path, data={**form_a, "surname": "DURAND"}).status_code == 302
    assert bruno.post(path, data={**form_b, "surname": "DURAND"}).status_code == 302


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_post_without_the_values_read_saves_as_before(app, arbiters):
    """A client that does not send the values it read (a script, an old page) saves as before."""
    tid, alice, _bruno = arbiters
    player = _player(app, tid)
    response = alice.post(f"/arbitre/tournois/{tid}/joueurs/{player.id}",
                          data={"surname": "DURAND", "first_name": "Paul", "licence": "", "club": ""})
    assert response.status_code == 302


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_later_time_zone_gets_a_409(app, arbiters):
    tid, alice, bruno = arbiters
    path = f"/arbitre/tournois/{tid}/"
    form_a = browser_form(alice.get(path).get_data(as_text=True).split('action="/arbitre/tournois/%d/fuseau"' % tid)[1])
    form_b = browser_form(bruno.get(path).get_data(as_text=True).split('action="/arbitre/tournois/%d/fuseau"' % tid)[1])
    assert alice.post(f"{path}fuseau", data={**form_a, "timezone": "Indian/Reunion"}).status_code == 302
    response = bruno.post(f"{path}fuseau", data={**form_b, "timezone": "America/Martinique"})
    assert response.status_code == 409
    assert "Indian/Reunion" in _text(response)
    assert _settings(app, tid)["timezone"] == "Indian/Reunion"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_table_options_keep_the_other_arbiters_box(app, arbiters):
    """A box is changed or not: bruno, who left it as he saw it, does not untick what alice ticked."""
    tid, alice, bruno = arbiters
    path = f"/arbitre/tournois/{tid}/tables"
    form_a, form_b = _shown(path, alice, bruno)
    assert "results_visible" not in form_a
    assert alice.post(path, data={**form_a, "results_visible": "y"}).status_code == 302
    response = bruno.post(path, data={**form_b, "position": ""})  # bruno leaves the box unticked: no change
    assert response.status_code == 302  # he changed nothing the other changed: alice's choice stays
    assert _settings(app, tid)["table_results"] is True


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_player_edits_at_once_one_saves_the_other_gets_409(app, arbiters):
    tid, alice, bruno = arbiters
    player = _player(app, tid)
    path = f"/arbitre/tournois/{tid}/joueurs/{player.id}"
    for round_ in range(5):
        forms = list(_shown(path, alice, bruno))
        barrier = threading.Barrier(2)
        answers: dict[str, int] = {}

        def save(name, client, form):
            barrier.wait(timeout=30)
            answers[name] = client.post(path, data={**form, "surname": f"{name.upper()}{round_}"}).status_code

        threads = [threading.Thread(target=save, args=("alice", alice, forms[0])),
                   threading.Thread(target=save, args=("bruno", bruno, forms[1]))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(answers.values()) == [302, 409], answers
        winner = next(name for name, status in answers.items() if status == 302)
        assert _player(app, tid).surname == f"{winner.upper()}{round_}"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("where", ["view", "commit"])
def test_a_row_changed_meanwhile_answers_a_french_409_never_a_500(app, arbiters, monkeypatch, where):
    """The safety net: wherever a version counter still refuses a write (`StaleDataError`), the page is a
    French 409 keeping what was sent, not a 500 — raised in the view, or at the commit after it (as in
    production: an exception of the commit reaches Flask as a 500, whose handler looks at its cause)."""
    from sqlalchemy.orm.exc import StaleDataError

    from duplicate import operations

    tid, alice, _bruno = arbiters

    def stale(*_args, **_kwargs):
        raise StaleDataError("UPDATE statement on table 'tournament' expected to update 1 row(s); 0 were matched.")

    if where == "view":
        monkeypatch.setattr(operations, "publish", stale)
    else:
        app.config["PROPAGATE_EXCEPTIONS"] = False

        def commit_refused(response):
            if response.status_code < 400 and response.headers.get("Location", "").endswith(f"/tournois/{tid}/"):
                stale()
            return response

        monkeypatch.setitem(app.after_request_funcs, None, [*app.after_request_funcs[None], commit_refused])
    response = alice.post(f"/arbitre/tournois/{tid}/publication", data={"publier": "1"},
                          headers={"Referer": f"http://localhost/arbitre/tournois/{tid}/"})
    assert response.status_code == 409
    assert f'href="http://localhost/arbitre/tournois/{tid}/">Abandonner' in response.get_data(as_text=True)
    text = _text(response)
    assert "Enregistré entre-temps" in text and "rien n’a été enregistré" in text
    assert "Résultats publiés" not in text  # the flashed success of the refused request is dropped
    assert browser_form(response.get_data(as_text=True))["publier"] == "1"  # kept, to send again
    assert "published" not in _settings(app, tid)
    assert alice.get(f"/arbitre/tournois/{tid}/").status_code == 200  # the session is usable again


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_later_deal_gets_a_409(app, arbiters):
    tid, alice, bruno = arbiters
    assert alice.post(f"/arbitre/tournois/{tid}/etuis/generer",
                      data={"generate-count": "2", "generate-seed": "g"}).status_code == 302
    path = f"/arbitre/tournois/{tid}/etuis/1"
    form_a, form_b = _shown(path, alice, bruno)
    seats = [seat for seat in "NESW" if seat != form_a["dealer"]]
    assert form_a["N"] and form_a["dog"]
    assert alice.post(path, data={**form_a, "dealer": seats[0]}).status_code == 302
    response = bruno.post(path, data={**form_b, "dealer": seats[1]})
    assert response.status_code == 409
    text = _text(response)
    assert "Un autre arbitre a enregistré" in text
    assert browser_form(response.get_data(as_text=True))["dealer"] == seats[1]
    assert browser_form(alice.get(path).get_data(as_text=True))["dealer"] == seats[0]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_later_seance_coefficient_gets_a_409(app, arbiters):
    tid, alice, bruno = arbiters
    path = f"/arbitre/tournois/{tid}/competition"
    form_a, form_b = _shown(path, alice, bruno)
    assert alice.post(path, data={**form_a, "coefficient": "1,5"}).status_code == 302
    response = bruno.post(path, data={**form_b, "coefficient": "2"})
    assert response.status_code == 409
    assert "« 1,5 »" in _text(response) and "« 2 »" in _text(response)
    with Session(db.get_engine(app)) as session:
        assert session.get(Tournament, tid).coefficient == 1.5
    # left as shown (« 1 »), the coefficient is no change of his: alice's 1,5 stays
    assert bruno.post(path, data=form_b).status_code == 302
    with Session(db.get_engine(app)) as session:
        assert session.get(Tournament, tid).coefficient == 1.5


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_later_team_match_bonus_gets_a_409(app, arbiter, make_user, sign_in):
    """The « Match » page holds several forms: the one posted is guarded, the others are left alone."""
    from scoring_helpers import ready

    tid = ready(app, "team_match")
    make_user("bruno")
    give(app, tid, "bruno")
    bruno = app.test_client()
    assert sign_in(bruno, "bruno").status_code == 302
    path = f"/arbitre/tournois/{tid}/match"
    page_a, page_b = arbiter.get(path).get_data(as_text=True), bruno.get(path).get_data(as_text=True)
    bonus = 'value="bonus">'
    form_a, form_b = (browser_form(page.split(bonus)[0].split("<form")[-1]) for page in (page_a, page_b))
    form_a["form"] = form_b["form"] = "bonus"
    form_a.update(bonus_A="2,5", bonus_B="0")
    assert arbiter.post(path, data=form_a).status_code == 302
    response = bruno.post(path, data={**form_b, "bonus_A": "1", "bonus_B": "0"})
    assert response.status_code == 409
    assert "« 2,5 »" in _text(response) and "« 1 »" in _text(response)
    with Session(db.get_engine(app)) as session:
        from duplicate.models import Team

        assert session.exec(select(Team.bonus).where(Team.tournament_id == tid, Team.entrant_id == "A")).one() == 2.5


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_later_coefficient_on_the_competition_page_gets_a_409(app, arbiters):
    """A séance's coefficient on its competition's page (« Gérer »), set by two of its managers at once."""
    from duplicate.models import Series

    tid, alice, bruno = arbiters
    assert alice.post("/arbitre/competitions", data={"name": "Coupe"}).status_code == 302
    with Session(db.get_engine(app)) as session:
        sid = session.exec(select(Series.id).where(Series.name == "Coupe")).one()
    assert alice.post(f"/arbitre/competitions/{sid}/acces/donner", data={"grant-username": "bruno"}).status_code == 302
    assert alice.post(f"/arbitre/tournois/{tid}/competition", data={"series_id": sid, "coefficient": "1"}).status_code == 302
    page, action = f"/arbitre/competitions/{sid}/gerer", f"/arbitre/competitions/{sid}/seances/{tid}/coefficient"

    def shown(client):
        return browser_form(client.get(page).get_data(as_text=True).split(f'action="{action}"')[1].split("</form>")[0])
    form_a, form_b = shown(alice), shown(bruno)
    field = f"coef-{tid}-coefficient"
    assert form_a[field] == "1" and form_a[f"coef-{tid}-valeurs_lues"]
    assert alice.post(action, data={**form_a, field: "1,5"}).status_code == 302
    response = bruno.post(action, data={**form_b, field: "2"})
    assert response.status_code == 409
    assert "« 1,5 »" in _text(response) and "« 2 »" in _text(response)
    again = browser_form(response.get_data(as_text=True).split(f'action="{action}"')[1].split("</form>")[0])
    assert again[field] == "2"  # what bruno typed is kept
    with Session(db.get_engine(app)) as session:
        assert session.get(Tournament, tid).coefficient == 1.5
    assert bruno.post(action, data=again).status_code == 302  # saving again, having seen 1,5: replaces
    with Session(db.get_engine(app)) as session:
        assert session.get(Tournament, tid).coefficient == 2


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_later_minutes_per_etui_get_a_409(app, arbiters):
    """The live room's « Minutes par étui », saved by two arbiters from the same page."""
    tid, alice, bruno = arbiters
    path = f"/arbitre/tournois/{tid}/salle"

    def shown(response):
        return browser_form(response.get_data(as_text=True).split('value="minutes">')[1].split("</form>")[0])
    form_a, form_b = shown(alice.get(path)), shown(bruno.get(path))
    assert form_a["minutes"] == "7" and form_a["valeurs_lues"]
    clock = f"/arbitre/tournois/{tid}/horloge"
    assert alice.post(clock, data={**form_a, "action": "minutes", "minutes": "9"}).status_code == 302
    response = bruno.post(clock, data={**form_b, "action": "minutes", "minutes": "12"})
    assert response.status_code == 409
    assert "Un autre arbitre a enregistré" in _text(response)
    assert "« 9 »" in _text(response) and "« 12 »" in _text(response)
    again = shown(response)
    assert again["minutes"] == "12"  # what bruno typed is kept
    assert _settings(app, tid)["minutes_per_board"] == 9
    assert bruno.post(clock, data={**again, "action": "minutes"}).status_code == 302  # again, having seen 9
    assert _settings(app, tid)["minutes_per_board"] == 12


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_later_free_play_coefficient_gets_a_409(app, arbiter, make_user, sign_in, evening):  # noqa: F811
    """The free-play coefficients (art. 3): two arbiters set the coefficient of the same position from one page."""
    tid = evening[0]
    make_user("bruno")
    give(app, tid, "bruno")
    bruno = app.test_client()
    assert sign_in(bruno, "bruno").status_code == 302
    assert arbiter.post(f"/arbitre/tournois/{tid}/libre/carre-final", data={"finalists": "16"}).status_code == 302
    path, action = f"/arbitre/tournois/{tid}/libre/classement", f"/arbitre/tournois/{tid}/libre/coefficients"

    def shown(response):
        return browser_form(response.get_data(as_text=True).split(f'action="{action}"')[1].split("</form>")[0])
    form_a, form_b = shown(arbiter.get(path)), shown(bruno.get(path))
    assert "coef-valeurs_lues" in form_a
    typed = {"coef-position": "6", "coef-eliminated": "6"}
    assert arbiter.post(action, data={**form_a, **typed, "coef-coefficient": "1,10"}).status_code == 302
    response = bruno.post(action, data={**form_b, **typed, "coef-coefficient": "1,15"})
    assert response.status_code == 409
    assert "Un autre arbitre a enregistré" in _text(response)
    assert "« 1,1 »" in _text(response) and "« 1,15 »" in _text(response)
    again = shown(response)
    assert again["coef-coefficient"] == "1,15"  # what bruno typed is kept
    coefficients = lambda: _settings(app, tid)["free_coefficients"]  # noqa: E731
    assert [item["coefficient"] for item in coefficients()] == ["1.1"]
    assert bruno.post(action, data=again).status_code == 302  # again, having seen 1,1: replaces
    assert [(item["position"], item["coefficient"]) for item in coefficients()] == [(6, "1.15")]
