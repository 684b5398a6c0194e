"""A real tournament evening (issue 11), 26 and then 29 players, in real Chromium against the real server.

Several people at once, each in their own browser context: the arbiter, two scorers, a visitor (a player
with their phone). From an empty database the arbiter creates an individual and prepares it in the
« wrong » order (26 players: players, movement, étuis, draw; 29 players: étuis first, players, a
fill-in player, movement, draw), importing the players from an Excel CSV (Windows-1252, « ; ») with its
preview; the dashboard then says everything is ready, the fiches name as taker the player at the étui's
taker seat (as its label says), and the movement has its relais (26: 6 tables, 2 at rest per position;
29: 7 tables, 1 at rest).

Play, position by position: most lines come through the scoring API (a scorer's token), one table per
position through the « par table » screen, typed by a scorer. Before position 1 a lateness penalty
(art. 26); at position 3 a withdrawal (art. 27, ranked last) with a substitute at that seat from position
3 (26: the results go to the substitute; 29: they stay with the player), a penalty typed « 2,5 », a
player's name corrected — each in the journal. At the last position two scorers type the same line of
one fiche: the second one's save shows the conflict with both values, Enter does not overwrite,
« Remplacer » does, and the journal says so.

Until the arbiter publishes, the visitor sees no score, note, percentage or ranking — public page, étui
page, route sheet (HTML and PDF). Then the ranking shown equals ``GET /api/tournaments/<id>/ranking``
and ``flask rank`` of the file downloaded from « Exporter (JSON) »; the withdrawn player is last, the
substitute and the fill-in player are « hors classement »; a route sheet, HTML and PDF, shows the same
percentages as the ranking.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from dataclasses import dataclass

import pytest

from duplicate.french import counted

from live import create_token, create_users, flask
from screens import (ALLOWED, PASSWORD, create_tournament, download, fetch_pdf, fr2, give_access, pdf_text, shots,
                     sign_in, table_rows)

SEAT_NAMES = {"Nord": "N", "Sud": "S", "Est": "E", "Ouest": "W"}
SURNAMES = ["MARTIN", "BERNARD", "DUBOIS", "THOMAS", "ROBERT", "RICHARD", "PETIT", "DURAND", "LEROY", "MOREAU",
            "SIMON", "LAURENT", "LEFÈVRE", "MICHEL", "GARCIA", "DAVID", "BERTRAND", "ROUX", "VINCENT", "FOURNIER",
            "MOREL", "GIRARD", "ANDRÉ", "LEFEBVRE", "MERCIER", "DUPONT", "LAMBERT", "BONNET", "FRANÇOIS"]
FIRST_NAMES = ["Hélène", "Jérôme", "Cécile", "Noël", "Chloé", "Loïc", "Maëlle", "Gaëtan", "Françoise", "Béatrice",
               "Éric", "Agnès", "Frédéric", "Zoé", "Anaïs", "Rémi", "Léa", "Théo", "Inès", "Benoît", "Joël",
               "Célia", "Hervé", "Aurélie", "Stéphane", "Mélanie", "Raphaël", "Sébastien", "Clémence"]
CLUB = "Tarot Club d’Évreux"
CHANGE_AT = 3  # the position of the withdrawal and of the substitute


@dataclass(frozen=True)
class Evening:
    players: int          # at the tables, the fill-in player included
    csv_players: int      # in the CSV file
    tables: int
    rests: int            # players at the relais at each position
    order: tuple          # the preparation steps, in the order the arbiter does them
    results_to: str       # who keeps the results of the substituted seat: "player" | "substitute"
    late: int = 0         # a late arrival while position 1 is played (E7 for the 27th of 26): 0 or 1


EVENINGS = {
    26: Evening(26, 26, 6, 2, ("players", "movement", "boards", "draw"), "substitute", late=1),
    29: Evening(29, 28, 7, 1, ("boards", "players", "fill_in", "movement", "draw"), "player"),
}


def players_csv(count: int) -> bytes:
    """What Excel saves as « CSV (séparateur : point-virgule) » on a French Windows."""
    lines = ["Licence;Nom;Prénom;Club"]
    lines += [f"{9200 + i};{SURNAMES[i]};{FIRST_NAMES[i]};{CLUB}" for i in range(count)]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def place(ident: str) -> str:
    """An entrant id as the screens write it: W → O."""
    return "O" + ident[1:] if ident.startswith("W") else ident


def score_of(board: int, table: int) -> int:
    return random.Random(f"soirée-{board}-{table}").choice(ALLOWED)


def signed(score: int) -> str:
    return f"+{score}" if score > 0 else (f"−{-score}" if score < 0 else "0")


def post_results(base: str, tid: int, token: str, lines: list[dict]) -> None:
    """A scoring device sends lines to the scoring API (SPEC §9 form)."""
    request = urllib.request.Request(f"{base}/api/tournaments/{tid}/results", data=json.dumps(lines).encode(),
                                     method="POST", headers={"Authorization": f"Bearer {token}",
                                                             "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 201


def api_ranking(base: str, tid: int, token: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(f"{base}/api/tournaments/{tid}/ranking",
                                     headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def assert_secret(text: str, scores: set[int], where: str) -> None:
    """No entered score, no percentage, no ranking in a page's text (SPEC §11)."""
    shown = {int(m.replace("−", "-")) for m in re.findall(r"(?<![\w-])[+−]\d+", text)}
    assert not shown & {s for s in scores if s}, f"{where}: scores shown before publication: {shown & scores}"
    assert not re.search(r"\d\s*%", text), f"{where}: a percentage before publication"
    assert "Classement général" not in text and "hors classement" not in text, where


@pytest.mark.parametrize("headcount", sorted(EVENINGS))
def test_a_tournament_evening(headcount, live_server, new_page, artifacts, sqlite_url, tmp_path):
    evening = EVENINGS[headcount]
    base = live_server.url
    tag = f"soiree{headcount}"
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    create_users(sqlite_url, ("marqueur1", PASSWORD, "scorer"), ("marqueur2", PASSWORD, "scorer"))
    token = create_token(sqlite_url)

    # --- the arbiter prepares the evening, in the « wrong » order --------------------------------------------
    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid = create_tournament(arbiter, base, f"Individuel du jeudi ({headcount} joueurs)", "individual", "2026-03-05",
                            "Évreux")
    home = f"{base}/arbitre/tournois/{tid}"
    for name in ("marqueur1", "marqueur2"):  # the tournament is the arbiter's: the scorers are given it
        give_access(arbiter, base, tid, name)
    from duplicate.core.movements import generate  # the étuis the arbiter will need: one per movement étui
    board_count = len(generate("individual", None, None, players=evening.players).boards)

    for step in evening.order:
        if step == "players":
            csv_path = tmp_path / "inscrits.csv"
            csv_path.write_bytes(players_csv(evening.csv_players))
            arbiter.goto(f"{home}/joueurs/import")
            arbiter.set_input_files("#file", str(csv_path))
            arbiter.click("button:has-text('Voir l’aperçu')")
            preview = arbiter.inner_text("body")
            assert f"{evening.csv_players} joueurs à ajouter" in preview
            assert "LEFÈVRE" in preview and "Françoise" in preview and CLUB in preview  # Windows-1252 read right
            arbiter.goto(f"{home}/joueurs")
            assert "LEFÈVRE" not in arbiter.inner_text("body")  # a preview stores nothing
            arbiter.go_back()
            arbiter.click(f"button:has-text('Confirmer : importer {evening.csv_players} joueurs')")
            arbiter.wait_for_url(re.compile(r"/joueurs$"))
            assert f"{evening.csv_players} joueurs importés" in arbiter.inner_text("body")
        elif step == "fill_in":
            arbiter.goto(f"{home}/changements")
            arbiter.fill("#fill_in-surname", "COMPLÉMENT")
            arbiter.fill("#fill_in-first_name", "Gérard")
            arbiter.click("button:has-text('Inscrire le joueur de complément')")
            assert "COMPLÉMENT Gérard inscrit comme joueur de complément" in arbiter.inner_text("body")
        elif step == "movement":
            arbiter.goto(f"{home}/mouvement")
            arbiter.click("button[name=preview]")
            text = arbiter.inner_text("body")
            assert "Aperçu (pas encore choisi)" in text
            assert f"{evening.players} joueurs : {counted(evening.rests, 'joueur', 'joueurs')} au relais à chaque position" in text
            arbiter.locator("button[name=accept]").first.click()
            assert "Mouvement choisi" in arbiter.inner_text("body")
        elif step == "boards":
            arbiter.goto(f"{home}/etuis")
            arbiter.fill("#generate-count", str(board_count))
            arbiter.fill("#generate-seed", f"jeudi {headcount}")
            arbiter.click("button:has-text('Générer les étuis')")
            assert f"{board_count} étuis générés" in arbiter.inner_text("body")
        elif step == "draw":
            arbiter.goto(f"{home}/placement")
            arbiter.fill("#seed", f"tirage {headcount}")
            arbiter.click("button:has-text('Tirer les places')")
            assert "Places tirées au sort" in arbiter.inner_text("body")

    arbiter.goto(f"{home}/")
    assert "Tout est prêt." in arbiter.inner_text("body"), arbiter.inner_text("main")
    shots(arbiter, artifacts, f"{tag}-01-tableau-de-bord")
    arbiter.goto(f"{home}/mouvement")
    movement_text = arbiter.inner_text("body")
    assert f"{evening.tables} tables" in movement_text
    assert f"{counted(evening.rests, 'joueur', 'joueurs')} au relais à chaque position" in movement_text
    shots(arbiter, artifacts, f"{tag}-02-mouvement")

    if evening.late:
        # position 1 has started: a latecomer is placed at the next relais id, at the relais at position 1
        arbiter.goto(f"{home}/changements")
        arbiter.fill("#late-surname", "TARDIF")
        arbiter.fill("#late-first_name", "Léon")
        arbiter.click("button:has-text('Placer le joueur en retard')")
        assert "TARDIF Léon placé en E7 (arrivée en retard)" in arbiter.inner_text("body")
        arbiter.goto(f"{home}/mouvement")
        movement_text = arbiter.inner_text("body")
    headcount_now, rests_now = evening.players + evening.late, evening.rests + evening.late

    data = arbiter.request.get(f"{home}/export").json()
    movement = data["movement"]
    positions = movement["positions"]
    assert movement["tables"] == evening.tables and len(data["players"]) == headcount_now
    rounds = {(r["position"], r["table"]): r for r in movement["rounds"]}
    names = {p["id"]: p["name"] for p in data["players"]}
    resting = {rest["position"]: rest["entrants"] for rest in movement.get("rests", [])}
    assert all(len(resting[p]) == rests_now for p in range(1, positions + 1))
    assert not evening.late or ("E7" in resting[1] and all("E7" not in resting[p] for p in range(2, positions + 1)))
    assert f"Relais par position : 1 : {', '.join(resting[1])} ; 2 : " in movement_text  # who rests, when

    # the étuis' labels (the arbiter's étuis page) say which seat takes
    arbiter.goto(f"{home}/etuis")
    taker_seat = {int(cells[0]): SEAT_NAMES[cells[1]] for cells in table_rows(arbiter, "table.boards")}
    assert len(taker_seat) == board_count

    # every result line the evening expects: one per étui, table and position
    lines = []
    for r in movement["rounds"]:
        for number in r["boards"]:
            seat = taker_seat[number]
            lines.append({"board": number, "table": r["table"], "position": r["position"],
                          "taker": r["seats"][seat], "defenders": [r["seats"][s] for s in "NSEW" if s != seat],
                          "score": score_of(number, r["table"])})
    assert len(lines) == evening.tables * positions * 4
    scores = {line["score"] for line in lines}

    # --- two scorers on their devices; the fiches propose the right taker -------------------------------------
    scorers = []
    for name in ("marqueur1", "marqueur2"):
        page = new_page()
        sign_in(page, base, name)
        scorers.append(page)
    overview = scorers[0]
    overview.goto(f"{base}/saisie/tournois/{tid}/")
    by_table = overview.locator("a", has_text=re.compile(r"^Position \d+, table \d+$")).all_inner_texts()
    tables_at = {}
    for text in by_table:
        p, t = map(int, re.findall(r"\d+", text))
        tables_at.setdefault(p, set()).add(t)
    assert tables_at == {p: set(range(1, evening.tables + 1)) for p in range(1, positions + 1)}  # no 7th table
    for number in (1, 2, 7, board_count):
        overview.goto(f"{base}/saisie/tournois/{tid}/etuis/{number}")
        rows = table_rows(overview, "table.fiche")
        assert rows and len(rows) <= positions
        for cells in rows:
            position, table, taker = int(cells[0]), int(cells[1]), cells[2]
            expected = rounds[(position, table)]["seats"][taker_seat[number]]
            assert taker.split()[0] == place(expected), (number, cells)
            assert names[expected] in taker
    shots(overview, artifacts, f"{tag}-03-fiche")

    # --- the visitor's phone: before play, and the private links the arbiter hands out -----------------------
    arbiter.goto(f"{home}/feuilles")
    links = {}
    for row in arbiter.locator("table.private-links tbody tr").all():
        links[row.locator(".place-id").first.inner_text().strip()] = row.locator("td a").first.inner_text().strip()
    visitor = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)

    def visitor_sees_nothing(moment: str, board: int, entrant: str) -> None:
        visitor.goto(f"{base}/tournois/{tid}/")
        assert_secret(visitor.inner_text("body"), scores, f"{moment}: page publique")
        assert visitor.locator("table.ranking").count() == 0
        visitor.goto(f"{base}/tournois/{tid}/etuis/{board}")
        assert_secret(visitor.inner_text("body"), scores, f"{moment}: étui {board}")
        visitor.goto(links[place(entrant)])
        assert_secret(visitor.inner_text("body"), scores, f"{moment}: feuille de route")
        href = visitor.locator("a:has-text('Télécharger la feuille de route (PDF)')").get_attribute("href")
        path = fetch_pdf(visitor, base + href, tmp_path / "secret.pdf")
        assert_secret(pdf_text(path), scores, f"{moment}: feuille de route PDF")

    # the people whose evening changes
    seats_at = rounds[(CHANGE_AT, 2)]["seats"]
    late, leaver, typo = rounds[(1, 1)]["seats"]["E"], seats_at["S"], rounds[(1, 3)]["seats"]["N"]
    chatty = rounds[(1, 4)]["seats"]["W"]
    watched = rounds[(1, 5)]["seats"]["N"]  # the visitor: a player whose route sheet we follow
    assert len({late, leaver, typo, chatty, watched}) == 5

    # --- play, position by position ---------------------------------------------------------------------------
    conflict_line = next(line for line in lines if line["position"] == positions and line["table"] == 2)
    for position in range(1, positions + 1):
        if position == 1:
            # the late player arrives 7 minutes after the start: 2 steps of 5 minutes (art. 26)
            arbiter.goto(f"{home}/changements")
            arbiter.select_option("#lateness-entrant_id", late)
            arbiter.fill("#lateness-minutes", "7")
            arbiter.click("button:has-text('Donner la pénalité')")
            assert f"Pénalité de retard donnée à {place(late)}" in arbiter.inner_text("body")
        if position == CHANGE_AT:
            arbiter.goto(f"{home}/changements")
            option = arbiter.locator("#withdrawal-player_id option", has_text=names[leaver])
            arbiter.select_option("#withdrawal-player_id", option.get_attribute("value"))
            arbiter.fill("#withdrawal-position", str(CHANGE_AT))
            arbiter.click("button:has-text('Enregistrer le forfait')")
            assert f"a quitté le tournoi à la position {CHANGE_AT}" in arbiter.inner_text("body")
            arbiter.select_option("#substitute-seat", leaver)
            arbiter.fill("#substitute-from_position", str(CHANGE_AT))
            arbiter.check(f"#substitute-results_to input[value={evening.results_to}]")
            arbiter.fill("#substitute-surname", "REMPLAÇANT")
            arbiter.fill("#substitute-first_name", "Noémie")
            arbiter.click("button:has-text('Enregistrer le remplaçant')")
            assert f"Remplaçant de {place(leaver)} enregistré à partir de la position {CHANGE_AT}" \
                in arbiter.inner_text("body")
            arbiter.locator("table.players tbody tr", has_text=names[typo]).locator("a:has-text('Modifier')").click()
            arbiter.fill("#surname", names[typo].split()[0] + "-CORRIGÉ")
            arbiter.click("button:has-text('Enregistrer')")
            assert "-CORRIGÉ" in arbiter.inner_text("body")
            shots(arbiter, artifacts, f"{tag}-04-changements")
            # places read « O3 », never « W3 »: in the table, in every list, in the marks
            shown = [cells[0] for cells in table_rows(arbiter, "table.players")]
            shown += arbiter.locator("select option").all_inner_texts()
            assert not [text for text in shown if re.match(r"W\d", text)], shown
            assert any(text.startswith("O") for text in shown)
            arbiter.goto(f"{home}/resultats")
            arbiter.select_option("#entrant_id", chatty)
            arbiter.fill("#points", "2,5")
            arbiter.fill("#reason", "Téléphone en jeu")
            arbiter.click("button:has-text('Donner la pénalité')")
            body = arbiter.inner_text("body")
            assert f"Pénalité de 2,50 points donnée à {place(chatty)}" in body, body
            row = table_rows(arbiter, "table:has(th:has-text('Motif'))")
            penalty = next(cells for cells in row if cells[0].startswith(place(chatty)))
            assert penalty[1] == "2,50", penalty
            shots(arbiter, artifacts, f"{tag}-05-penalites")

        here = [line for line in lines if line["position"] == position and line is not conflict_line]
        # table 1 of each position is typed on the « par table » screen by a scorer
        scorer = scorers[position % 2]
        scorer.goto(f"{base}/saisie/tournois/{tid}/tables/{position}/1")
        typed = [line for line in here if line["table"] == 1]
        for line in typed:
            scorer.fill(f"input[name='score-{line['board']}-1']", f"{line['score']:+d}")
        with scorer.expect_navigation():
            scorer.locator(f"input[name='score-{typed[-1]['board']}-1']").press("Enter")
        assert f"{len(typed)} scores enregistrés" in scorer.inner_text("body"), scorer.inner_text("body")
        post_results(base, tid, token, [line for line in here if line["table"] != 1])

        if position == 2:
            visitor_sees_nothing("pendant le jeu", lines[0]["board"], watched)
            visitor.goto(f"{base}/tournois/{tid}/")
            shots(visitor, artifacts, f"{tag}-06-public-avant-publication")

    # --- two scorers, one fiche ---------------------------------------------------------------------------------
    number, key = conflict_line["board"], f"{conflict_line['board']}-{conflict_line['table']}"
    first, second = scorers
    for page in scorers:
        page.goto(f"{base}/saisie/tournois/{tid}/etuis/{number}")
    theirs, mine = conflict_line["score"], next(s for s in ALLOWED if s != conflict_line["score"] and s > 0)
    first.fill(f"input[name='score-{key}']", f"{theirs:+d}")
    second.fill(f"input[name='score-{key}']", f"{mine:+d}")
    with first.expect_navigation():
        first.press(f"input[name='score-{key}']", "Enter")
    assert "enregistré" in first.inner_text("body")
    with second.expect_navigation():
        second.press(f"input[name='score-{key}']", "Enter")
    conflict = second.locator(".conflict-values")
    assert conflict.locator(".stored-score").inner_text() == signed(theirs)
    assert conflict.locator(".typed-score").inner_text() == f"{mine:+d}"
    assert "marqueur1" in conflict.inner_text()
    shots(second, artifacts, f"{tag}-07-conflit")
    with second.expect_navigation():  # Enter again: still refused, nothing overwritten
        second.press(f"input[name='score-{key}']", "Enter")
    assert second.locator(".conflict-values").count() == 1
    first.goto(f"{base}/saisie/tournois/{tid}/etuis/{number}")
    assert first.locator(f"input[name='score-{key}']").input_value() == f"{theirs:+d}"
    with second.expect_navigation():
        second.click("button:has-text('Remplacer')")
    assert "enregistré" in second.inner_text("body")
    second.goto(f"{base}/saisie/tournois/{tid}/etuis/{number}")
    assert second.locator(f"input[name='score-{key}']").input_value() == f"{mine:+d}"
    conflict_line["score"] = mine
    scores.add(mine)

    overview.goto(f"{base}/saisie/tournois/{tid}/")
    assert f"{len(lines)} scores saisis sur {len(lines)}" in overview.inner_text("body")
    arbiter.goto(f"{home}/")
    assert "Toutes les lignes des fiches sont saisies." in arbiter.inner_text("body")
    visitor_sees_nothing("tout saisi, pas publié", number, watched)
    status, refused = api_ranking(base, tid)
    assert status == 403 and refused["complete"] is True and "ranking" not in refused

    # --- the journal tells the evening ------------------------------------------------------------------------
    arbiter.goto(f"{home}/journal")
    journal = arbiter.inner_text("body")
    (artifacts / f"{tag}-journal.txt").write_text(journal, encoding="utf-8")
    # the journal speaks French: places « O4 », never « W4 »
    assert chatty.startswith("W") and f"Pénalité à O{chatty[1:]} : Téléphone en jeu" in journal
    for expected in (f"Pénalité à {place(late)} : Retard de 7 min (art. 26)",
                     f"Forfait en cours de tournoi (classé dernier, art. 27) : {names[leaver]}",
                     f"Remplaçant (hors classement) de {names[leaver]}",
                     f"Joueur modifié : {names[typo].split()[0]}-CORRIGÉ",
                     f"Pénalité à {place(chatty)} : Téléphone en jeu",
                     f"Étui {number}, table {conflict_line['table']} : score {signed(theirs)} remplacé par"):
        assert expected in journal, (expected, journal)
    if "fill_in" in evening.order:
        assert "Joueur de complément inscrit (hors classement) : COMPLÉMENT Gérard" in journal
    shots(arbiter, artifacts, f"{tag}-08-journal")

    # --- publication; the ranking everywhere is the same ---------------------------------------------------------
    arbiter.goto(f"{home}/")
    exported = download(arbiter, lambda: arbiter.click("a:has-text('Exporter (JSON)')"))
    ranked = json.loads(flask(sqlite_url, "rank", str(exported)).stdout)
    final_names = {p["id"]: p["name"] for p in json.loads(exported.read_text(encoding="utf-8"))["players"]}
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Publier les résultats')")
    assert "Résultats publiés" in arbiter.inner_text("body")

    status, api = api_ranking(base, tid)
    assert status == 200 and api["published"] is True and api["complete"] is True
    assert api["ranking"] == ranked["ranking"] and api["boards"] == ranked["boards"]
    by_id = {row["id"]: row for row in ranked["ranking"]}
    assert by_id[chatty]["penalty"] == 2.5 and by_id[late]["penalty"] == 2  # « 2,5 » is 2.5, not 25

    visitor.goto(f"{base}/tournois/{tid}/")
    shots(visitor, artifacts, f"{tag}-09-classement-publie")
    rows = table_rows(visitor, "table.ranking.general")
    assert len(rows) == len(ranked["ranking"])
    for cells, expected in zip(rows, ranked["ranking"]):
        rank, who, _line, attack, defence, _penalty, global_ = cells
        assert who.split()[0] == place(expected["id"])
        if expected["rank"] is None:
            assert rank == "hors classement" and "hors classement" in who
        else:
            assert rank.split()[0] == str(expected["rank"])
        assert (attack, defence, global_) == (fr2(expected["attack"]), fr2(expected["defence"]),
                                              fr2(expected["global"]))
    ranked_rows = [r for r in ranked["ranking"] if r["rank"] is not None]
    assert ranked_rows[-1]["id"] == leaver and ranked_rows[-1]["withdrawn"] == {"position": CHANGE_AT}
    assert all(r["rank"] < ranked_rows[-1]["rank"] for r in ranked_rows[:-1])
    leaver_cells = next(cells for cells in rows if cells[1].startswith(place(leaver)))
    assert f"forfait à la position {CHANGE_AT}, classé dernier" in leaver_cells[1]
    outside = {final_names[r["id"]] for r in ranked["ranking"] if r["rank"] is None}
    assert outside == {"REMPLAÇANT Noémie"} | ({"COMPLÉMENT Gérard"} if "fill_in" in evening.order else set())
    assert next(cells for cells in rows if cells[1].startswith(place(chatty)))[5] == "−2,50"
    assert next(cells for cells in rows if cells[1].startswith(place(late)))[5] == "−2,00"
    assert f"{names[typo].split()[0]}-CORRIGÉ" in visitor.inner_text("body")

    # --- the visitor's route sheet agrees with the ranking, on screen and on paper --------------------------------
    visitor.goto(links[place(watched)])
    sheet = visitor.inner_text("body")
    standing = by_id[watched]
    for value in ("attack", "defence", "global"):
        assert f"{fr2(standing[value])} %" in sheet, (value, sheet)
    assert f"{standing['rank']}" in sheet
    shots(visitor, artifacts, f"{tag}-10-feuille-de-route")
    pdf = download(visitor, lambda: visitor.click("a:has-text('Télécharger la feuille de route (PDF)')"))
    text = pdf_text(pdf)
    for value in ("attack", "defence", "global"):
        assert fr2(standing[value]) in text, (value, text)
    for line in lines:
        if watched == line["taker"]:
            assert signed(line["score"]) in sheet
    if evening.late:
        # the latecomer: « relais » at position 1 on his route sheet, then a table at every position
        visitor.goto(links["E7"])
        sheet_rows = table_rows(visitor, "table.route-sheet")
        assert sheet_rows[0][:2] == ["1", "relais (pas de table à cette position)"], sheet_rows
        assert {int(cells[0]) for cells in sheet_rows[1:]} == set(range(2, positions + 1)), sheet_rows
        assert "TARDIF Léon" in {final_names[r["id"]] for r in ranked["ranking"] if r["rank"] is not None}
