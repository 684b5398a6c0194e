"""The tournament's journal: an entry is kept with its change and shown to the arbiter only."""

from sqlmodel import Session

from duplicate import db, operations


def test_journal_entry_is_shown_to_the_arbiter_newest_first(app, client, make_user, sign_in):
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name="Mardi", kind="individual")
        operations.journal(session, tournament, action="player.edit", who="arbitre",
                           summary="Joueur N1 : nom « DUPONT » → « DUPOND »",
                           before={"nom": "DUPONT"}, after={"nom": "DUPOND"})
        operations.journal(session, tournament, action="penalty.add", who="arbitre",
                           summary="Pénalité de retard : 1 point à S2")
        session.commit()
        url = f"/arbitre/tournois/{tournament.id}/journal"
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous.headers["Location"].startswith("/connexion?next=")
    assert "DUPOND" not in anonymous.get_data(as_text=True)
    sign_in(client, make_user("arbitre"))
    page = client.get(url).get_data(as_text=True)
    assert "Joueur N1 : nom « DUPONT » → « DUPOND »" in page
    assert page.index("Pénalité de retard") < page.index("Joueur N1")
