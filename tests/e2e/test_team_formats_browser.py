"""Triplettes (5 tables) and quadrettes (7 tables) in real Chromium, from an empty database as an arbiter
does it (issue 15, points 1–3): create the tournament, import the players, form the teams, draw the places,
(triplettes) draw the first attacking colour, choose the movement, prepare the étuis, type every fiche from
the keyboard, publish, read a route sheet, print the whole pack (« Tout imprimer »).

Checked on the way: each member's badge on « Équipes »; on the fiches, who of a triplette attacks (at the
first position a triplette's first étui attacked is the drawn colour's, its second the next colour's);
the quadrette attacker chosen on the fiche, proposed again on the quadrette's next line, on its route sheet
and in the pack's frequencies; the duplication duty on the labels and guide cards of the pack. The key
screens are photographed at 390 and 1920 px (``artifacts/formats-*.png``) and must not scroll sideways;
one page of each pack is saved as PNG (``artifacts/formats-*-pack-*.png``) to be looked at.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from live import create_users
from screens import (PASSWORD, create_tournament, download, enter_board, import_players, pdf_text, score_for, shots,
                     sign_in)

SURNAMES = ["MARTIN", "BERNARD", "DUBOIS", "THOMAS", "ROBERT", "RICHARD", "PETIT", "DURAND", "LEROY", "MOREAU",
            "SIMON", "LAURENT", "LEFÈVRE", "MICHEL", "GARCIA", "DAVID", "BERTRAND", "ROUX", "VINCENT", "FOURNIER",
            "MOREL", "GIRARD", "ANDRÉ", "LEFEBVRE", "MERCIER", "DUPONT", "LAMBERT", "BONNET", "FRANÇOIS", "ÉTIENNE"]
FIRST_NAMES = ["Hélène", "Jérôme", "Cécile", "Noël", "Chloé", "Loïc", "Maëlle", "Gaëtan", "Françoise", "Béatrice",
               "Éric", "Agnès", "Frédéric", "Zoé", "Anaïs", "Rémi", "Léa", "Théo", "Inès", "Benoît", "Joël",
               "Célia", "Hervé", "Aurélie", "Stéphane", "Mélanie", "Raphaël", "Sébastien", "Clémence", "Yves"]
COLOURS = ("Bleu", "Blanc", "Rouge")


def players_csv(count: int) -> bytes:
    lines = ["Licence;Nom;Prénom;Club"] + [f"{7100 + i};{SURNAMES[i]};{FIRST_NAMES[i]};Tarot Club de Caen"
                                          for i in range(count)]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def name(i: int) -> str:
    return f"{SURNAMES[i]} {FIRST_NAMES[i]}"


def fits(page, artifacts: Path, label: str) -> None:
    """Screenshots at 390 and 1920 px; no sideways scrolling at either width."""
    shots(page, artifacts, f"formats-{label}")


def prepare(arbiter, base: str, tmp_path: Path, kind: str, title: str, teams: int, size: int) -> tuple[int, str]:
    """Create the tournament, import the players, form the teams (team k: players k·size … k·size + size − 1),
    draw the places; returns (id, dashboard URL)."""
    tid = create_tournament(arbiter, base, title, kind, "2026-04-02", "Caen")
    home = f"{base}/arbitre/tournois/{tid}"
    csv_path = tmp_path / f"{kind}.csv"
    csv_path.write_bytes(players_csv(teams * size))
    import_players(arbiter, base, tid, csv_path, teams * size)
    for k in range(teams):
        arbiter.goto(f"{home}/equipes")
        arbiter.fill("#name", f"Équipe {k + 1}")
        for i in range(k * size, k * size + size):
            arbiter.get_by_label(name(i), exact=True).check()
        arbiter.click("button:has-text('Former l’équipe')")
        assert f"Équipe « Équipe {k + 1} » formée." in arbiter.inner_text("body"), arbiter.inner_text("main")
    arbiter.goto(f"{home}/placement")
    arbiter.fill("#seed", f"tirage {kind}")
    arbiter.click("button:has-text('Tirer les places')")
    assert "Places tirées au sort" in arbiter.inner_text("body")
    return tid, home


def movement_and_boards(arbiter, home: str) -> dict:
    """Choose the proposed movement, generate its étuis; returns the exported tournament file."""
    arbiter.goto(f"{home}/mouvement")
    arbiter.click("button[name=preview]")
    arbiter.locator("button[name=accept]").first.click()
    assert "Mouvement choisi" in arbiter.inner_text("body")
    data = arbiter.request.get(f"{home}/export").json()
    count = max(n for r in data["movement"]["rounds"] for n in r["boards"])
    arbiter.goto(f"{home}/etuis")
    arbiter.fill("#generate-count", str(count))
    arbiter.fill("#generate-seed", "étuis du jeudi")
    arbiter.click("button:has-text('Générer les étuis')")
    assert f"{count} étuis générés" in arbiter.inner_text("body")
    arbiter.goto(f"{home}/")
    assert "Tout est prêt." in arbiter.inner_text("body"), arbiter.inner_text("main")
    return arbiter.request.get(f"{home}/export").json()


def publish_and_pack(arbiter, home: str, tid: int, artifacts: Path, label: str) -> str:
    """Publish, then « Tout imprimer »: the pack's text; its guide-card page saved as PNG."""
    arbiter.goto(f"{home}/")
    arbiter.click("button:has-text('Publier les résultats')")
    arbiter.goto(f"{home}/impression/")
    arbiter.get_by_role("button", name="Tout imprimer").click()
    link = arbiter.get_by_role("link", name="Télécharger le PDF")
    link.wait_for(timeout=600_000)
    pdf = download(arbiter, link.click)
    assert pdf.name == f"tournoi-{tid}-tout.pdf"
    pages = pdf_text(pdf).split("\f")
    card = next(i for i, page in enumerate(pages, start=1) if "Table 1" in page and "Étuis ensuite à" in page)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", str(card), "-l", str(card), "-singlefile", str(pdf),
                    str(artifacts / f"formats-{label}-pack-guide-card")], check=True, timeout=120)
    return "\f".join(pages)


def private_link(arbiter, home: str, entrant: str) -> str:
    arbiter.goto(f"{home}/feuilles")
    for row in arbiter.locator("table.private-links tbody tr").all():
        if row.locator(".place-id").first.inner_text().strip() == entrant:
            return row.locator("td").nth(1).locator("a").first.inner_text().strip()  # the team's own link
    raise AssertionError(f"no private link for {entrant}")


def draw_first_colour(arbiter, home: str, colour: str) -> None:
    """« Équipes »: the arbiter records the first attacking colour of the triplettes (SPEC §5)."""
    arbiter.goto(f"{home}/equipes")
    arbiter.select_option("#first-colour", colour)
    arbiter.click("button:has-text('Enregistrer le tirage')")
    assert f"Premier attaquant de chaque triplette : badge {colour}." in arbiter.inner_text("body")


def test_triplettes_five_tables(live_server, new_page, sqlite_url, artifacts, tmp_path):
    base = live_server.url
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"))
    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid, home = prepare(arbiter, base, tmp_path, "triplettes", "Triplettes du jeudi", 10, 3)

    # the arbiter draws the first attacking colour; every member wears the badge of his surname's rank
    draw_first_colour(arbiter, home, "Rouge")
    # team 1 is MARTIN, BERNARD, DUBOIS: BERNARD Bleu, DUBOIS Blanc, MARTIN Rouge; team 10 BONNET,
    # FRANÇOIS, ÉTIENNE (accents ignored: « etienne » < « francois »): BONNET Bleu, ÉTIENNE Blanc, FRANÇOIS Rouge
    rows = arbiter.locator("table tbody tr").all_inner_texts()
    team1 = next(r for r in rows if r.startswith("Équipe 1\t"))
    team10 = next(r for r in rows if r.startswith("Équipe 10\t"))
    assert "Rouge MARTIN Hélène\nBleu BERNARD Jérôme\nBlanc DUBOIS Cécile" in team1, team1  # in team order
    assert "Bleu BONNET Sébastien\nRouge FRANÇOIS Clémence\nBlanc ÉTIENNE Yves" in team10, team10
    fits(arbiter, artifacts, "triplettes-equipes")

    data = movement_and_boards(arbiter, home)
    assert data["movement"]["tables"] == 5 and data["movement"]["positions"] == 5
    taker = {b["number"]: b["taker"] for b in data["boards"]}
    members = {t["id"]: [p for p in t["members"]] for t in data["teams"]}
    names = {p["id"]: p["name"] for p in data["players"]}

    # type every fiche from the keyboard; check who attacks on those of the first position
    numbers = sorted({n for r in data["movement"]["rounds"] for n in r["boards"]})
    scorer = arbiter
    first_round = {r["table"]: r for r in data["movement"]["rounds"] if r["position"] == 1}
    for number in numbers:
        enter_board(scorer, base, tid, number)
        round_ = next((r for r in first_round.values() if number in r["boards"]), None)
        if round_ is not None:
            # at the first position a triplette's first étui attacked (in number order) is the drawn colour's,
            # Rouge, its second the next one's, Bleu (Rouge → Bleu → Blanc)
            line = "NS" if taker[number] in "NS" else "EW"
            attacked = [n for n in round_["boards"] if ("NS" if taker[n] in "NS" else "EW") == line]
            colour = ("Rouge", "Bleu")[attacked.index(number)]
            team = round_["seats"][line]
            row = scorer.locator("table.fiche tbody tr").filter(has_text=f"{team[:2].replace('EW', 'EO')}{team[2:]} ")
            text = row.first.inner_text()
            found = re.search(r"attaque : (.+?) (Bleu|Blanc|Rouge)", text)
            assert found and found.group(2) == colour, (number, colour, text)
            assert found.group(1) in [names[m] for m in members[team]], (number, text)
            if number == 1:
                fits(scorer, artifacts, "triplettes-fiche")
        with scorer.expect_navigation():
            scorer.keyboard.press("Enter")
        assert "refusée" not in scorer.inner_text("body"), scorer.inner_text("main")

    text = publish_and_pack(arbiter, home, tid, artifacts, "triplettes")
    flat = " ".join(text.split())
    assert "Duplication : NS" in flat and "Duplication : EO" in flat  # labels of odd and even étuis
    assert "la triplette Nord-Sud duplique les étuis impairs" in flat  # guide cards
    assert re.search(r"étui 1 \S+ \S+ \((Bleu|Blanc|Rouge)\)", flat)
    assert "Classement alterné" in flat

    # a triplette's route sheet (its private link, on a phone): its attacks with the badge worn
    visitor = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    visitor.goto(private_link(arbiter, home, "NS1"))
    sheet = visitor.inner_text("main")
    assert len(re.findall(r"Attaque contre\s\S+ · .+? \((Bleu|Blanc|Rouge)\)", sheet)) == 10, sheet  # 5 positions × 2 attacks
    fits(visitor, artifacts, "triplettes-feuille-de-route")


def test_quadrettes_seven_tables(live_server, new_page, sqlite_url, artifacts, tmp_path):
    base = live_server.url
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"))
    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid, home = prepare(arbiter, base, tmp_path, "quadrettes", "Quadrettes du samedi", 7, 4)
    arbiter.goto(f"{home}/equipes")
    fits(arbiter, artifacts, "quadrettes-equipes")
    data = movement_and_boards(arbiter, home)
    assert data["movement"]["tables"] == 7
    # each quadrette's captain chose its last member (players 3, 7, 11…) as its attacker
    attackers = {name(4 * k + 3) for k in range(7)}
    numbers = sorted({n for r in data["movement"]["rounds"] for n in r["boards"]})
    proposed = 0
    for number in numbers:
        arbiter.goto(f"{base}/saisie/tournois/{tid}/etuis/{number}")
        for row in arbiter.locator("table.fiche tbody tr").all():
            select = row.locator("select[name^=attacker-]")
            mine = next(o for o in select.locator("option").all_inner_texts() if o in attackers)
            chosen = select.evaluate("s => s.options[s.selectedIndex].text")
            if chosen == mine:
                proposed += 1  # the quadrette's attacker of its latest line, proposed again
            else:
                assert chosen == "—", (number, chosen)
                select.focus()  # a keyboard user reaches it with Tab and types the name's initial
                arbiter.keyboard.type(mine[:3])
                assert select.evaluate("s => s.options[s.selectedIndex].text") == mine
            key = row.locator("input.score-input").get_attribute("name").removeprefix("score-")
            board, table = map(int, key.split("-"))
            row.locator("input.score-input").click()
            arbiter.keyboard.type(f"{score_for(board, table):+d}")
        if number == 1:
            fits(arbiter, artifacts, "quadrettes-fiche")
        with arbiter.expect_navigation():
            arbiter.keyboard.press("Enter")
        assert "refusée" not in arbiter.inner_text("body"), arbiter.inner_text("main")
    lines = sum(len(r["boards"]) for r in data["movement"]["rounds"])
    assert proposed == lines - 7  # every line but each quadrette's first proposed its attacker

    exported = arbiter.request.get(f"{home}/export").json()
    by_id = {p["id"]: p["name"] for p in exported["players"]}
    assert {by_id[r["attacker"]] for r in exported["results"]} == attackers
    assert len(exported["results"]) == lines

    text = publish_and_pack(arbiter, home, tid, artifacts, "quadrettes")
    flat = " ".join(text.split())
    assert "attaque : table" in flat  # frequencies name the attacker of each score
    assert all(attacker in flat for attacker in attackers)
    visitor = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    visitor.goto(private_link(arbiter, home, "Q1"))
    sheet = visitor.inner_text("main")
    assert any(f"· {attacker}" in sheet for attacker in attackers), sheet
    fits(visitor, artifacts, "quadrettes-feuille-de-route")
