"""A libre duo evening (« donnes libres par équipes de 2 », issue 16 point 5) in real Chromium, from an empty
database (CSRF on) to the published ranking.

8 duos (16 players) on 4 tables: the core's team movement (`core.freeplay.movements.team_movement`) is the
4-table Howell from its 2nd position — teammates start at their team's table and skip that position (booklet
p. 21), so 4 positions are played and teammates never meet. The arbiter creates the tournament, imports the
16 players, forms the 8 duos on the « Équipes » screen, makes the movement, enters the four feuilles of
position 1 from the keyboard (at table t, South takes a Garde made by t: +3 × (50 + 2t) to him, −(50 + 2t)
to each defender), publishes, and the public sees the team ranking (a duo's total: the sum of its two
members') above the individual one. Screenshots at 390 px and 1920 px (tests/e2e/artifacts/).
"""

from __future__ import annotations

import re

from duplicate.core.freeplay.movements import team_movement

from live import flask
from screens import (PASSWORD, create_tournament, import_players, make_free_movement, numbered_players_csv, shots,
                     sign_in)

PLAYERS = 16


def test_a_libre_duo_evening_of_8_duos(live_server, new_page, artifacts, sqlite_url, tmp_path):
    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    rounds, teams = team_movement("free_duo", 4)
    seats = {(r.position, r.table): r.seats for r in rounds}
    positions = max(r.position for r in rounds)

    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid = create_tournament(arbiter, base, "Jeudi duo", "free_duo", "2026-11-26")
    assert "libre duo" in arbiter.inner_text("body")

    csv_path = tmp_path / "joueurs.csv"
    csv_path.write_text(numbered_players_csv("DUO", PLAYERS, 8200, "Club de Tarot de Tours"), encoding="utf-8")
    import_players(arbiter, base, tid, csv_path, PLAYERS)

    # the duos, on the team screen the triplettes use (no line: the movement seats them)
    arbiter.click("nav.steps-nav >> text=Équipes")
    for duo in range(1, 9):
        arbiter.fill("#name", f"Duo {duo}")
        for member in (2 * duo - 1, 2 * duo):
            arbiter.get_by_label(f"DUO{member:02d} Prénom{member}", exact=True).check()
        arbiter.click("button:has-text('Former l’équipe')")
        assert f"Équipe « Duo {duo} » formée" in arbiter.inner_text("body")
    assert "Tous les joueurs inscrits sont dans une équipe" in arbiter.inner_text("body")
    assert arbiter.locator("#line").count() == 0
    shots(arbiter, artifacts, "duo-01-equipes")

    body = make_free_movement(arbiter, base, tid, "jeudi e2e")
    assert "Mouvement fait et joueurs placés" in body
    assert f"4 tables, {positions} positions" in body and "ne jouent pas cette position" in body
    shots(arbiter, artifacts, "duo-02-mouvement")

    marks: dict[str, int] = {}
    for table in range(1, 5):  # position 1: at table t, South takes a Garde made by t, keyboard only
        people = seats[1, table]
        arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/1/{table}")
        arbiter.select_option("[name=taker-0]", people["S"])
        arbiter.select_option("[name=contract-0]", "garde")
        arbiter.fill("[name=points-0]", str(41 + table))
        arbiter.fill("[name=bouts-0]", "2")
        arbiter.press("[name=bouts-0]", "Enter")
        assert f"Feuille de la table {table}, position 1 enregistrée" in arbiter.inner_text("body")
        for seat, player in people.items():
            marks[player] = 3 * (50 + 2 * table) if seat == "S" else -(50 + 2 * table)
        if table == 4:
            shots(arbiter, artifacts, "duo-03-feuille")
    totals = {team: marks[a] + marks[b] for team, (a, b) in teams.items()}
    best_team, best_total = max(totals.items(), key=lambda item: (item[1], item[0]))

    public = new_page()
    public.goto(f"{base}/tournois/{tid}/")
    assert "pas encore publiés" in public.inner_text("body")
    assert "Duo 1" not in public.inner_text("body") and "DUO" not in public.inner_text("body")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    arbiter.click("button:has-text('Publier les résultats')")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    assert "Résultats publiés" in arbiter.inner_text("body")
    shots(arbiter, artifacts, "duo-04-classement-arbitre")

    public.goto(f"{base}/tournois/{tid}/")
    text = public.inner_text("body")
    assert text.index("Classement par équipes") < text.index("Classement individuel")
    rows = public.locator("table.free-team-ranking tbody tr")
    assert rows.count() == 8
    first = rows.first.inner_text()
    label = best_team.replace("EW", "EO")
    assert label in first and f"{best_total:+d}".replace("-", "−") in first
    assert sorted(totals.values(), reverse=True)[0] == best_total
    assert public.locator("table.free-ranking:not(.free-team-ranking) tbody tr").count() == PLAYERS
    shots(public, artifacts, "duo-05-classement-public")


def test_palmares_and_carre_final_of_a_12_player_evening(live_server, new_page, artifacts, sqlite_url):
    """The individual evening's extras (issue 16 point 7): 12 players (the 3-table Howell, 6 positions), every
    feuille entered (position 1: at table t, South takes a Garde made by t; passes elsewhere), the palmarès
    (⌈12 × 20 %⌉ = 3 prizes), then the carré final of the 12 best as a 7th position — its feuille entered as
    the others."""
    from duplicate.core.freeplay.movements import free_movement

    base = live_server.url
    flask(sqlite_url, "create-arbiter", "--username", "arbitre", "--password", PASSWORD)
    rounds, _ = free_movement(players=12)
    seats = {(r.position, r.table): r.seats for r in rounds}
    arbiter = new_page()
    sign_in(arbiter, base, "arbitre")
    tid = create_tournament(arbiter, base, "Grosse dotation", "free")
    for i in range(1, 13):
        arbiter.goto(f"{base}/arbitre/tournois/{tid}/joueurs")
        arbiter.fill("#surname", f"DOTATION{i:02d}")
        arbiter.fill("#first_name", f"Prénom{i}")
        arbiter.press("#first_name", "Enter")
        arbiter.wait_for_url(re.compile(r"/joueurs$"))
    assert "3 tables, 6 positions" in make_free_movement(arbiter, base, tid, "dotation")
    for (position, table) in sorted(seats):
        arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/{position}/{table}")
        if position == 1:
            arbiter.select_option("[name=taker-0]", seats[1, table]["S"])
            arbiter.select_option("[name=contract-0]", "garde")
            arbiter.fill("[name=points-0]", str(41 + table))
            arbiter.fill("[name=bouts-0]", "2")
        else:
            arbiter.check("[name=passed-0]")
        arbiter.press("[name=points-0]", "Enter")
        assert "enregistrée" in arbiter.inner_text("body")

    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    palmares = arbiter.inner_text("section.palmares")
    assert "3 prix pour 12 joueurs" in palmares
    winners = arbiter.locator("section.palmares .prize-list li")
    assert winners.count() == 3 and "+168" in winners.first.inner_text()  # Garde made by 3: 3 × (25 + 3) × 2
    arbiter.select_option("#finalists", "12")
    arbiter.click("button:has-text('Placer le carré final')")
    assert "Carré final placé" in arbiter.inner_text("body")
    assert "Les 12 meilleurs jouent la position 7" in arbiter.inner_text("section.final-square")
    shots(arbiter, artifacts, "libre-carre-01-classement")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/mouvement#position-7")
    assert "Position 7 — carré final des 12 meilleurs" in arbiter.inner_text("body")
    best = seats[1, 3]["S"]  # +168, the best: table 1, North of the carré final
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/feuilles/7/1")
    assert arbiter.locator(f"[name=taker-0] option[value='{best}']").count() == 1
    arbiter.select_option("[name=taker-0]", best)
    arbiter.select_option("[name=contract-0]", "prise")
    arbiter.fill("[name=points-0]", "51")
    arbiter.fill("[name=bouts-0]", "1")
    arbiter.press("[name=points-0]", "Enter")
    assert "Feuille de la table 1, position 7 enregistrée" in arbiter.inner_text("body")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/libre/classement")
    assert "+243" in arbiter.locator("table.free-ranking tbody tr").first.inner_text()  # 168 + 75
    shots(arbiter, artifacts, "libre-carre-02-apres-finale")
