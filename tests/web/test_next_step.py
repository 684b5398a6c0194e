"""The arbiter's menu grouped by the evening and the dashboard's « Prochaine étape » (issue 29 point 15), and
« Tout est prêt » said only when it is true (issue 29 point 8: a team match's attackers, the triplettes'
first colour).

The menu is one structure (`duplicate/web/arbiter/menu.py`): the groups « Préparer », « Jouer »,
« Résultats » and « Tournoi », each link present only for the formats that have its screen. The next step is
the first readiness step not done; once all are done, the evening's: launch position 1 (no clock started, no
result), enter the results (lines still expected), publish.
"""

import html as html_lib
import re

from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.french import counted
from duplicate.models import Team
from scoring_helpers import fill_board, ready
from test_team_match_screens import _members, _quarter


def _page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def menu(page: str) -> dict[str, list[str]]:
    """The tournament menu's groups: heading → link texts, in order."""
    nav = re.search(r'<nav class="steps-nav[^"]*"[^>]*>(.*?)</nav>', page, re.S).group(1)
    groups = {}
    for title, body in re.findall(r'class="menu-title"[^>]*>([^<]+)<.*?<ul[^>]*>(.*?)</ul>', nav, re.S):
        groups[html_lib.unescape(title)] = [html_lib.unescape(t) for t in re.findall(r"<a [^>]*>([^<]+)</a>", body)]
    return groups


def next_step(page: str) -> tuple[str, str] | None:
    """« Prochaine étape : <a href=…>label</a> »: (label, href), or None when the dashboard names none."""
    found = re.search(r'Prochaine étape : <a href="([^"]+)">([^<]+)</a>', page)
    return (html_lib.unescape(found.group(2)), found.group(1)) if found else None


TOURNOI = ["Compétition", "Journal", "Accès", "Exporter (JSON)"]


def test_the_menu_is_grouped_by_the_evening_for_each_format(app, arbiter):
    individual = _page(arbiter, f"/arbitre/tournois/{ready(app, 'individual')}/")
    assert menu(individual) == {
        "Préparer": ["Tableau de bord", "Joueurs", "Placement", "Étuis", "Mouvement", "Tables", "Impression"],
        "Jouer": ["Salle", "Saisie", "Changements"],
        "Résultats": ["Résultats", "Classements publics", "Feuilles de route"],
        "Tournoi": TOURNOI,
    }
    match = _page(arbiter, f"/arbitre/tournois/{ready(app, 'team_match')}/")
    assert menu(match) == {
        "Préparer": ["Tableau de bord", "Joueurs", "Équipes", "Placement", "Étuis", "Mouvement", "Match", "Tables",
                     "Impression"],
        "Jouer": ["Salle", "Saisie", "Changements", "Feuille de marque"],
        "Résultats": ["Résultats", "Classements publics", "Feuilles de route"],
        "Tournoi": TOURNOI,
    }
    triplettes = menu(_page(arbiter, f"/arbitre/tournois/{ready(app, 'triplettes')}/"))
    assert "Équipes" in triplettes["Préparer"] and "Match" not in triplettes["Préparer"]
    response = arbiter.post("/arbitre/tournois/nouveau", data={"name": "Libre", "kind": "free", "sessions": "1",
                                                               "timezone": "Europe/Paris"})
    free = _page(arbiter, response.headers["Location"])
    assert menu(free) == {
        "Préparer": ["Tableau de bord", "Joueurs", "Mouvement", "Impression"],
        "Jouer": ["Feuilles de marque"],
        "Résultats": ["Classement", "Classements publics"],
        "Tournoi": ["Journal", "Accès", "Exporter (JSON)"],
    }
    # the page shown is marked in the menu
    assert re.search(r'<a href="[^"]*/joueurs" aria-current="page">Joueurs</a>',
                     _page(arbiter, f"/arbitre/tournois/{ready(app, 'individual')}/joueurs"))


def test_a_team_match_is_not_all_ready_before_its_attackers_are_chosen(app, arbiter):
    tid = ready(app, "team_match")
    home = f"/arbitre/tournois/{tid}/"
    page = _page(arbiter, home)
    assert "Tout est prêt" not in page
    assert "0 attaquant choisi sur 8" in page
    assert next_step(page) == ("Attaquants", f"/arbitre/tournois/{tid}/match")

    members = _members(app, tid)
    for quarter, series in ((1, "1-5"), (2, "6-10"), (3, "11-15")):
        assert _quarter(arbiter, tid, quarter, series, "A", members["A"][quarter - 1],
                        members["B"][quarter - 1]).status_code == 302
    assert _quarter(arbiter, tid, 4, "16-20", "B", members["A"][3], "").status_code == 302
    page = _page(arbiter, home)
    assert "Tout est prêt" not in page and "7 attaquants choisis sur 8" in page
    assert next_step(page)[0] == "Attaquants"

    assert _quarter(arbiter, tid, 4, "16-20", "B", members["A"][3], members["B"][3]).status_code == 302
    page = _page(arbiter, home)
    assert "Tout est prêt." in page and "8 attaquants choisis sur 8" in page
    assert next_step(page) == ("Lancer la position 1", f"/arbitre/tournois/{tid}/salle")


def test_triplettes_are_not_all_ready_before_the_first_colour_is_drawn(app, arbiter):
    tid = ready(app, "triplettes")
    home = f"/arbitre/tournois/{tid}/"
    page = _page(arbiter, home)
    assert "Tout est prêt." in page and re.search(r"badge (Bleu|Blanc|Rouge) pour chaque triplette", page)  # the draw's
    # triplettes placed by hand (`place_by_hand` draws no colour): no attacker is planned, nothing is ready
    with Session(db.get_engine(app)) as session:
        for team in session.exec(select(Team).where(Team.tournament_id == tid)):
            team.first_colour = None
            session.add(team)
        session.commit()
    page = _page(arbiter, home)
    assert "Tout est prêt" not in page and "couleur du premier attaquant à tirer" in page
    assert next_step(page) == ("Premier attaquant", f"/arbitre/tournois/{tid}/equipes")
    assert arbiter.post(f"/arbitre/tournois/{tid}/equipes/premiere-couleur",
                        data={"colour": "Blanc"}).status_code == 302
    page = _page(arbiter, home)
    assert "Tout est prêt." in page and "badge Blanc pour chaque triplette" in page


def test_the_next_step_follows_the_evening_from_stored_facts(app, arbiter):
    tid = ready(app, "individual")
    home = f"/arbitre/tournois/{tid}/"
    page = _page(arbiter, home)
    assert "Tout est prêt." in page
    assert next_step(page) == ("Lancer la position 1", f"/arbitre/tournois/{tid}/salle")

    with Session(db.get_engine(app), expire_on_commit=False) as session:
        operations.start_position(session, operations.get_tournament(session, tid), 1)
        session.commit()
        expected = operations.completeness(session, operations.get_tournament(session, tid))["missing"]
    page = _page(arbiter, home)
    assert expected > 0 and next_step(page) == ("Saisir les résultats", f"/saisie/tournois/{tid}/")
    assert counted(expected, "ligne encore attendue", "lignes encore attendues") in page

    boards = {int(b) for r in _movement(app, tid)["rounds"] for b in r["boards"]}
    for number in sorted(boards):
        assert fill_board(arbiter, tid, number).status_code in (200, 302)
    page = _page(arbiter, home)
    assert next_step(page) == ("Publier les résultats", f"/arbitre/tournois/{tid}/#publication")
    assert 'id="publication"' in page

    assert arbiter.post(f"/arbitre/tournois/{tid}/publication", data={"publier": "1"}).status_code == 302
    page = _page(arbiter, home)
    assert next_step(page) is None and "Prochaine étape" not in page


def _movement(app, tid: int) -> dict:
    with Session(db.get_engine(app)) as session:
        return operations.get_movement(session, operations.get_tournament(session, tid)).data
