"""The arbiter's screens through the test client, on SQLite and PostgreSQL: a tournament from creation to
« tout est prêt », the refusals in French, import and export."""

import io
import json
import re

from sqlmodel import Session

from duplicate import db, operations
from duplicate.core.deals import seed_hash
from pages import visible_text, without_tokens

PLAYERS_CSV = """Licence;Nom;Prénom;Club
1001;Dupont;Jean;Lyon
1002;Martin;Claire;Lyon
1003;Bernard;Luc;Villeurbanne
1004;Petit;Anne;Villeurbanne
1005;Durand;Paul;Vienne
1006;Leroy;Sophie;Vienne
"""


def html(response) -> str:
    return response.get_data(as_text=True)


def create(client, **fields) -> int:
    """Create a tournament through the form; return its id (from the redirect)."""
    data = {"name": "Open de Lyon", "kind": "individual", "date": "2026-03-01", "place": "Salle des fêtes",
            "colour": "vert", "sessions": "1", **fields}
    response = client.post("/arbitre/tournois/nouveau", data=data)
    assert response.status_code == 302, html(response)
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def in_db(app, function, *args, **kwargs):
    """Call an operation in a session of its own; what it returns stays readable afterwards."""
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        value = function(session, *args, **kwargs)
        session.commit()
        return value


def test_create_tournament_and_see_it_listed(arbiter):
    tournament_id = create(arbiter)
    page = html(arbiter.get(f"/arbitre/tournois/{tournament_id}/"))
    assert "Open de Lyon" in page and "Individuel" in page and "1er mars 2026" in page and "vert" in page
    assert "À faire" in page
    # no movement, nothing expected: the dashboard says so, not « Lignes encore attendues : 0 »
    assert "Lignes encore attendues" not in page
    assert "Aucune ligne attendue pour l’instant : le mouvement n’en prévoit pas encore." in page
    listing = html(arbiter.get("/arbitre/"))
    assert "Open de Lyon" in listing and f"/arbitre/tournois/{tournament_id}/" in listing


def test_rejected_tournament_form_keeps_what_was_typed(arbiter):
    response = arbiter.post("/arbitre/tournois/nouveau", data={
        "name": "", "kind": "quadrettes", "date": "pas une date", "place": "Gymnase <Nord>", "sessions": "0",
    })
    assert response.status_code == 422
    page = html(response)
    assert "Ce champ est obligatoire." in page
    assert "Date" in page and "field-error" in page
    assert 'value="Gymnase &lt;Nord&gt;"' in page  # kept, and escaped
    assert '<option selected value="quadrettes">' in page
    assert "field-error" in page
    assert html(arbiter.get("/arbitre/")).count("Gymnase") == 0


def test_unknown_tournament_is_404(arbiter):
    assert arbiter.get("/arbitre/tournois/999/").status_code == 404
    assert arbiter.get("/arbitre/tournois/999/joueurs").status_code == 404


def test_register_player_by_hand(arbiter):
    tournament_id = create(arbiter)
    url = f"/arbitre/tournois/{tournament_id}/joueurs"
    response = arbiter.post(url, data={"licence": "1234", "surname": "Dupont", "first_name": "Jean", "club": "Lyon"})
    assert response.status_code == 302
    page = html(arbiter.get(url))
    assert "Dupont" in page and "Jean" in page and "1234" in page and "1 joueur inscrit." in page

    response = arbiter.post(url, data={"licence": "1234", "surname": "Durand", "first_name": "Paul", "club": ""})
    assert response.status_code == 422
    page = html(response)
    assert "La licence 1234 est déjà inscrite dans ce tournoi." in page
    assert 'value="Durand"' in page


def test_csv_with_bad_lines_shows_them_in_the_preview_and_stores_nothing(app, arbiter):
    tournament_id = create(arbiter)
    bad = PLAYERS_CSV + "1007;;Sans nom;Lyon\n1008;Trop;De;Colonnes;En;Plus\n"
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/joueurs/import", data={"text": bad})
    assert response.status_code == 200
    page = html(response)
    assert "2 lignes refusées" in page and "6 joueurs à ajouter" in page
    assert "ligne 8 : Le nom est obligatoire." in page
    assert "ligne 9 :" in page
    assert "1007;;Sans nom;Lyon" in page  # the textarea keeps what was pasted
    tournament = in_db(app, operations.get_tournament, tournament_id)
    assert in_db(app, operations.players, tournament) == []


def test_csv_import_by_paste_and_by_upload(arbiter):
    tournament_id = create(arbiter)
    url = f"/arbitre/tournois/{tournament_id}/joueurs/import"
    preview = arbiter.post(url, data={"text": PLAYERS_CSV})
    assert preview.status_code == 200 and "Confirmer : importer 6 joueurs" in html(preview)
    assert "aucun joueur inscrit" in html(arbiter.get(f"/arbitre/tournois/{tournament_id}/joueurs")).lower() or \
        "Leroy" not in html(arbiter.get(f"/arbitre/tournois/{tournament_id}/joueurs"))
    response = arbiter.post(url, data={"text": PLAYERS_CSV, "confirm": "1", "expected": "6"})
    assert response.status_code == 302
    upload = "1007;Moreau;Julie;Lyon\n1008;Simon;Marc;Lyon\n".encode("utf-8-sig")
    response = arbiter.post(url, data={"file": (io.BytesIO(upload), "joueurs.csv"), "text": ""},
                            content_type="multipart/form-data")
    assert response.status_code == 200 and "2 joueurs à ajouter" in html(response)
    response = arbiter.post(url, data={"text": "1007;Moreau;Julie;Lyon\n1008;Simon;Marc;Lyon\n", "confirm": "1",
                                       "expected": "2"})
    assert response.status_code == 302
    page = html(arbiter.get(f"/arbitre/tournois/{tournament_id}/joueurs"))
    assert "8 joueurs inscrits." in page and "Moreau" in page and "Leroy" in page


def test_empty_csv_form_is_refused(arbiter):
    tournament_id = create(arbiter)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/joueurs/import", data={"text": "  "})
    assert response.status_code == 422
    assert "Choisissez un fichier ou collez son contenu." in html(response)


def test_draw_places_is_reproducible_and_printable(app, arbiter):
    tournament_id = create(arbiter)
    arbiter.post(f"/arbitre/tournois/{tournament_id}/joueurs/import", data={"text": PLAYERS_CSV, "confirm": "1", "expected": "6"})
    url = f"/arbitre/tournois/{tournament_id}/placement"
    response = arbiter.post(url, data={"seed": "tirage-1"})
    assert response.status_code == 302
    page = html(arbiter.get(url))
    shown = visible_text(page)
    assert "tirage-1" in page and "Nord" in shown and "N1" in shown
    assert "W2" not in without_tokens(page)  # nowhere but in the random CSRF token, which held « W2 » once
    tournament = in_db(app, operations.get_tournament, tournament_id)
    first = {p.licence: p.entrant_id for p in in_db(app, operations.players, tournament)}
    arbiter.post(url, data={"seed": "tirage-1"})
    assert {p.licence: p.entrant_id for p in in_db(app, operations.players, tournament)} == first
    printed = html(arbiter.get(f"{url}/impression"))
    assert "places de départ" in printed and "tirage-1" in printed

    arbiter.post(url, data={"seed": ""})  # blank: a random seed, recorded
    assert in_db(app, operations.get_tournament, tournament_id).draw_seed not in ("", None, "tirage-1")


def test_place_by_hand(app, arbiter):
    tournament_id = create(arbiter)
    arbiter.post(f"/arbitre/tournois/{tournament_id}/joueurs/import", data={"text": PLAYERS_CSV, "confirm": "1", "expected": "6"})
    tournament = in_db(app, operations.get_tournament, tournament_id)
    players = in_db(app, operations.players, tournament)
    url = f"/arbitre/tournois/{tournament_id}/placement/manuel"
    response = arbiter.post(url, data={f"place-{players[0].id}": "n1", f"place-{players[1].id}": "S1"})
    assert response.status_code == 302
    placed = {p.id: p.entrant_id for p in in_db(app, operations.players, tournament)}
    assert placed[players[0].id] == "N1" and placed[players[1].id] == "S1"

    response = arbiter.post(url, data={f"place-{players[2].id}": "N1", f"place-{players[3].id}": "X9"})
    assert response.status_code == 422
    assert "invalide" in html(response) or "deux fois" in html(response)
    assert 'value="X9"' in html(response)
    assert {p.id: p.entrant_id for p in in_db(app, operations.players, tournament)} == placed


def test_a_place_typed_and_shown_as_o_is_stored_as_w(app, arbiter):
    tournament_id = create(arbiter)
    arbiter.post(f"/arbitre/tournois/{tournament_id}/joueurs/import", data={"text": PLAYERS_CSV, "confirm": "1", "expected": "6"})
    tournament = in_db(app, operations.get_tournament, tournament_id)
    players = in_db(app, operations.players, tournament)
    url = f"/arbitre/tournois/{tournament_id}/placement/manuel"
    assert arbiter.post(url, data={f"place-{players[0].id}": "o1"}).status_code == 302
    assert in_db(app, operations.players, tournament)[0].entrant_id == "W1"  # the data keep W (SPEC §9)
    page = html(arbiter.get(f"/arbitre/tournois/{tournament_id}/placement"))
    assert 'value="O1"' in page and ">O1</span>" in page and "W1" not in without_tokens(page)


def test_generate_boards_shows_seed_hash(app, arbiter):
    tournament_id = create(arbiter)
    url = f"/arbitre/tournois/{tournament_id}/etuis"
    page = html(arbiter.get(url))
    assert "Générer les étuis" in page and 'name="generate-seed"' in page

    response = arbiter.post(f"{url}/generer", data={"generate-count": "8", "generate-seed": "Open 2026", "hash": "1"})
    assert seed_hash("Open 2026") in html(response)
    assert in_db(app, operations.boards, in_db(app, operations.get_tournament, tournament_id)) == []

    response = arbiter.post(f"{url}/generer", data={"generate-count": "8", "generate-seed": "Open 2026"})
    assert response.status_code == 302
    page = html(arbiter.get(url))
    assert seed_hash("Open 2026") in page and "8 étuis." in page and "connue" in page

    response = arbiter.post(f"{url}/generer", data={"generate-count": "0", "generate-seed": "x"})
    assert response.status_code == 422
    assert "étuis doit être compris entre 1 et 500." in html(response)


def test_an_empty_seed_draws_one_at_random_and_the_dashboard_never_says_published(app, arbiter):
    """Issue 29 point 4: the help says « Laissez vide pour une graine tirée au hasard »; an empty seed was
    refused as obligatory. Now it is drawn (16 hex digits), used, shown afterwards, and its SHA-256 is what
    the étuis and the dashboard show. The app records no publication of the hash: the dashboard calls it
    « empreinte SHA-256 de la graine », never « graine publiée »."""
    tournament_id = create(arbiter)
    url = f"/arbitre/tournois/{tournament_id}/etuis"
    assert "Laissez vide pour une graine tirée au hasard" in html(arbiter.get(url))

    preview = html(arbiter.post(f"{url}/generer", data={"generate-count": "4", "generate-seed": "", "hash": "1"}))
    shown = re.search(r"Empreinte SHA-256 de la graine « ([0-9a-f]{16}) »", preview)
    assert shown and seed_hash(shown.group(1)) in preview

    response = arbiter.post(f"{url}/generer", data={"generate-count": "4", "generate-seed": "  "})
    assert response.status_code == 302
    tournament = in_db(app, operations.get_tournament, tournament_id)
    assert re.fullmatch(r"[0-9a-f]{16}", tournament.deal_seed)
    assert tournament.seed_sha256 == seed_hash(tournament.deal_seed)
    assert len(in_db(app, operations.boards, tournament)) == 4
    page = html(arbiter.get(url))
    assert f"avec la graine tirée au hasard « {tournament.deal_seed} »" in page and tournament.deal_seed in page

    dashboard = html(arbiter.get(f"/arbitre/tournois/{tournament_id}/"))
    assert "graine publiée" not in dashboard and "publiée" not in dashboard
    assert f"empreinte SHA-256 de la graine {tournament.seed_sha256[:12]}…" in dashboard


def test_import_deals_and_enter_hands(app, arbiter, runner):
    tournament_id = create(arbiter)
    url = f"/arbitre/tournois/{tournament_id}/etuis"
    deals = runner.invoke(args=["deal", "--boards", "4", "--seed", "club"]).output
    response = arbiter.post(f"{url}/importer", data={"deals-text": deals})
    assert response.status_code == 302, html(response)
    response = arbiter.post(f"{url}/importer", data={"deals-text": "{pas du json"})
    assert response.status_code == 422 and "JSON illisible" in html(response)

    board = json.loads(deals)["boards"][0]
    hands_url = f"{url}/1"
    page = html(arbiter.get(hands_url))
    assert " ".join(board["hands"]["N"]) in page
    form = {seat: " ".join(board["hands"][seat]) for seat in "NSEW"}
    form.update(dog=" ".join(board["dog"]), dealer="E", taker="W")
    response = arbiter.post(hands_url, data=form)
    assert response.status_code == 302, html(response)
    stored = in_db(app, operations.boards, in_db(app, operations.get_tournament, tournament_id))[0]
    assert (stored.dealer, stored.taker) == ("E", "W")

    form["N"], form["S"] = form["S"], form["N"] + " EX"  # 19 cards in the South
    response = arbiter.post(hands_url, data=form)
    assert response.status_code == 422
    assert form["N"] in html(response)  # kept as typed
    assert arbiter.get(f"{url}/99").status_code == 404


def test_movement_then_dashboard_all_ready(app, arbiter):
    tournament_id = create(arbiter)
    base = f"/arbitre/tournois/{tournament_id}"
    twenty = "".join(f"{2000 + n};Joueur{n};Jean;Lyon\n" for n in range(20))  # 5 tables: a Rainbow
    assert arbiter.post(f"{base}/joueurs/import", data={"text": twenty, "confirm": "1",
                                                           "expected": "20"}).status_code == 302
    assert arbiter.post(f"{base}/placement", data={"seed": "s"}).status_code == 302

    preview = arbiter.post(f"{base}/mouvement", data={"positions": "", "preview": "1"})
    assert preview.status_code == 200, html(preview)
    page = html(preview)
    assert "Aperçu (pas encore choisi)" in page and "Rapport de validation" in page and "Table 5" in page
    assert "Mouvement valide." in page
    tournament = in_db(app, operations.get_tournament, tournament_id)
    assert in_db(app, operations.get_movement, tournament) is None  # a preview keeps nothing

    response = arbiter.post(f"{base}/mouvement", data={"positions": "", "accept": "1"})
    assert response.status_code == 302
    movement = in_db(app, operations.get_movement, tournament)
    assert movement is not None
    assert "Mouvement choisi" in html(arbiter.get(f"{base}/mouvement"))

    count = len({n for r in movement.data["rounds"] for n in r["boards"]})
    response = arbiter.post(f"{base}/etuis/generer", data={"generate-count": str(count), "generate-seed": "graine"})
    assert response.status_code == 302
    page = html(arbiter.get(f"{base}/"))
    assert "Tout est prêt." in page and "À faire" not in page
    movement = in_db(app, operations.get_movement, tournament)  # its takers now copy the étuis'

    broken = {**movement.data, "rounds": movement.data["rounds"][:1] * 2}  # one round twice
    response = arbiter.post(f"{base}/mouvement/importer", data={"movement-text": json.dumps(broken)})
    assert response.status_code == 422
    assert "Mouvement refusé" in html(response) and "NON VALIDE" in html(response)
    assert in_db(app, operations.get_movement, tournament).data == movement.data
    response = arbiter.post(f"{base}/mouvement/importer", data={"movement-text": json.dumps(movement.data)})
    assert response.status_code == 302


def test_export_then_import_round_trip(app, arbiter):
    tournament_id = create(arbiter, name="Tournoi « export »")
    base = f"/arbitre/tournois/{tournament_id}"
    arbiter.post(f"{base}/joueurs/import", data={"text": PLAYERS_CSV, "confirm": "1", "expected": "6"})
    arbiter.post(f"{base}/placement", data={"seed": "s"})
    arbiter.post(f"{base}/etuis/generer", data={"generate-count": "4", "generate-seed": "g"})

    response = arbiter.get(f"{base}/export")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == f'attachment; filename="tournoi-{tournament_id}.json"'
    exported = response.get_json()
    assert exported["format"] == "tarot-tournament/1" and len(exported["players"]) == 6

    response = arbiter.post("/arbitre/import", data={"file": (io.BytesIO(response.data), "tournoi.json")},
                            content_type="multipart/form-data")
    assert response.status_code == 302
    new_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    assert new_id != tournament_id
    again = arbiter.get(f"/arbitre/tournois/{new_id}/export").get_json()
    assert again == exported


def test_import_error_names_its_line_and_changes_nothing(app, arbiter):
    text = '{\n  "format": "tarot-tournament/1",\n  "name": "Faux",\n  "kind": "individual",\n' \
           '  "players": [\n    {"id": "N1", "name": "A"},\n    {"id": "N1", "name": "B"}\n  ]\n}\n'
    response = arbiter.post("/arbitre/import", data={"text": text})
    assert response.status_code == 422
    page = html(response)
    assert "ligne 7" in page and "Rien n’a été importé." in page
    assert "Faux" in page  # the pasted text is kept
    assert in_db(app, operations.list_tournaments) == []


def test_team_formation_for_triplettes(app, arbiter):
    tournament_id = create(arbiter, kind="triplettes")
    base = f"/arbitre/tournois/{tournament_id}"
    arbiter.post(f"{base}/joueurs/import", data={"text": PLAYERS_CSV, "confirm": "1", "expected": "6"})
    tournament = in_db(app, operations.get_tournament, tournament_id)
    ids = [p.id for p in in_db(app, operations.players, tournament)]
    response = arbiter.post(f"{base}/equipes", data={"name": "Les Lyonnais", "player_ids": ids[:3], "line": ""})
    assert response.status_code == 302, html(response)
    response = arbiter.post(f"{base}/equipes", data={"name": "Trop peu", "player_ids": ids[3:5]})
    assert response.status_code == 422
    assert "Il faut 3 joueurs différents par équipe (2 choisis)." in html(response)
    page = html(arbiter.get(f"{base}/equipes"))
    assert "Les Lyonnais" in page and "Dupont Jean" in page
    assert arbiter.get(f"/arbitre/tournois/{create(arbiter)}/equipes").status_code == 302  # individual


def test_user_data_is_escaped(arbiter):
    tournament_id = create(arbiter, name="<script>alert(1)</script>")
    page = html(arbiter.get(f"/arbitre/tournois/{tournament_id}/"))
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;" in page
