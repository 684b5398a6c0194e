"""How many étuis (issue 29 point 10): the étuis page proposes the number the movement plays and says why
in one sentence; a team match is played with 16 étuis (4 a quarter) as well as 20, chosen on the movement
page (seed ``duplicate-tournaments.txt``, « DUPLICATE PAR ÉQUIPES » : « 16 à 24 donnes », « 4 quarts temps »).

Hand-derived numbers:

* a team match's default movement: 4 quarters × 5 étuis = 20 (étuis 1–5, 6–10, 11–15, 16–20);
* the same match with « 16 étuis »: 4 quarters × 4 = 16 — quarter q plays étuis 4q − 3 … 4q, both rooms;
* 20 players of an individual: 5 tables, the Rainbow's 5 positions, each table one series of 4 étuis a
  position, 5 series → 5 × 4 = 20 étuis;
* 18 players in triplettes: 6 triplettes, ⌈6 / 2⌉ = 3 tables, each table one series of 4 étuis a position,
  3 series → 12 étuis.
"""

import html as html_module
import re

from duplicate import db, operations
from sqlmodel import Session

from scoring_helpers import ready


def html(response) -> str:
    return html_module.unescape(response.get_data(as_text=True))


def _count_field(page: str) -> str:
    return re.search(r'<input[^>]*id="generate-count"[^>]*>', page).group(0)


def _help(page: str) -> str:
    return re.search(r'<p class="help" id="generate-count-aide">([^<]*)</p>', page).group(1)


def test_the_etuis_page_proposes_the_movements_number_and_says_why(app, arbiter):
    team = ready(app, "team_match")      # its movement: the default, 5 étuis a quarter
    page = html(arbiter.get(f"/arbitre/tournois/{team}/etuis"))
    assert 'value="20"' in _count_field(page)
    assert _help(page) == "Le mouvement choisi fait jouer 20 étuis : 4 quarts temps de 5 étuis."

    individual = ready(app, "individual")  # 20 players, 5 positions
    page = html(arbiter.get(f"/arbitre/tournois/{individual}/etuis"))
    assert 'value="20"' in _count_field(page)
    assert _help(page) == ("Le mouvement choisi fait jouer 20 étuis : 5 séries de 4 étuis, chaque table jouant "
                           "une série à chaque position (5 positions).")

    triplettes = ready(app, "triplettes")  # 18 players: 6 triplettes, 3 tables
    page = html(arbiter.get(f"/arbitre/tournois/{triplettes}/etuis"))
    assert 'value="12"' in _count_field(page)
    assert _help(page).startswith("Le mouvement choisi fait jouer 12 étuis : 3 séries de 4 étuis")


def test_without_a_movement_the_page_says_what_the_number_depends_on(arbiter, tournament_factory):
    individual = tournament_factory("individual", players=4)
    page = html(arbiter.get(f"/arbitre/tournois/{individual}/etuis"))
    assert 'value=' not in _count_field(page) or 'value=""' in _count_field(page)
    assert _help(page) == ("Le nombre d’étuis découle du mouvement : ses séries d’étuis (chaque table en joue "
                           "une à chaque position) × les étuis d’une série (4 par défaut) ; choisissez d’abord "
                           "le mouvement.")
    team = tournament_factory("team_match")
    page = html(arbiter.get(f"/arbitre/tournois/{team}/etuis"))
    assert _help(page) == ("Le nombre d’étuis découle du mouvement : 4 quarts temps de 4, 5 ou 6 étuis "
                           "(16 à 24 donnes), à choisir sur la page « Mouvement ».")


def test_a_16_etui_team_match_through_the_arbiters_pages(app, arbiter, tournament_factory):
    tid = tournament_factory("team_match", players=8, name="Match en 16")
    base = f"/arbitre/tournois/{tid}"
    with Session(db.get_engine(app)) as session:
        ids = [p.id for p in operations.players(session, operations.get_tournament(session, tid))]
    for name, chosen in (("Les Rois", ids[:4]), ("Les Dames", ids[4:])):
        response = arbiter.post(f"{base}/equipes", data={"name": name, "player_ids": chosen, "line": ""})
        assert response.status_code == 302, html(response)
    assert arbiter.post(f"{base}/placement", data={"seed": "s"}).status_code == 302

    # the movement page offers 16, 20 or 24 étuis; the preview and then the choice with 16
    page = html(arbiter.get(f"{base}/mouvement"))
    assert '<option selected value="5">20 étuis (5 par quart temps)</option>' in page
    assert '<option value="4">16 étuis (4 par quart temps)</option>' in page
    preview = html(arbiter.post(f"{base}/mouvement", data={"positions": "", "quarter_boards": "4", "preview": "1"}))
    assert "2 tables, 4 positions, 16 étuis." in preview
    assert 'name="quarter_boards" value="4"' in preview            # the preview's « Choisir » keeps the choice
    response = arbiter.post(f"{base}/mouvement", data={"positions": "", "quarter_boards": "4", "accept": "1"})
    assert response.status_code == 302, html(response)
    page = html(arbiter.get(f"{base}/mouvement"))
    assert "2 tables, 4 positions, 16 étuis." in page
    assert '<option selected value="4">16 étuis (4 par quart temps)</option>' in page  # chosen last time
    # 4 quarters × 2 rooms, each quarter's 4 étuis in both rooms
    assert re.findall(r'<span class="round-boards">([^<]*)</span>', page) == [
        "étuis 1, 2, 3, 4", "étuis 1, 2, 3, 4", "étuis 5, 6, 7, 8", "étuis 5, 6, 7, 8",
        "étuis 9, 10, 11, 12", "étuis 9, 10, 11, 12", "étuis 13, 14, 15, 16", "étuis 13, 14, 15, 16"]

    # the étuis page proposes 16; generated as proposed
    page = html(arbiter.get(f"{base}/etuis"))
    assert 'value="16"' in _count_field(page)
    assert _help(page) == "Le mouvement choisi fait jouer 16 étuis : 4 quarts temps de 4 étuis."
    response = arbiter.post(f"{base}/etuis/generer", data={"generate-count": "16", "generate-seed": "seize"})
    assert response.status_code == 302, html(response)
    assert "16 étuis." in html(arbiter.get(f"{base}/etuis"))

    # the match's page: each quarter's series is its 4 étuis, no series to edit by hand
    page = html(arbiter.get(f"{base}/match"))
    for quarter, series in enumerate(("1-4", "5-8", "9-12", "13-16"), start=1):
        field = re.search(rf'<input[^>]*id="q{quarter}-boards"[^>]*>', page).group(0)
        assert f'value="{series}"' in field, field
