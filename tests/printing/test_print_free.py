"""Free-play printing (SPEC §13, `duplicate.printing.freeplay`): the PDFs read back with pdftotext against values
derived by hand.

The evening: 18 players, so 5 tables and two Norths removed; the core removes those of tables 4 and 5 (the
test asserts it). The FFT movement at 5 tables has no exception (booklet: N fixed, S + 1, E + 2, W − 2), so by
hand, at position p the player who started at table t sits at:

* North: table t all evening;
* South: t + (p − 1), East: t + 2(p − 1), West: t − 2(p − 1), all modulo 5 (tables 1–5).

E1 (East, table 1): 1 → 3 → 5 → 7 ≡ 2 → 9 ≡ 4, at a table of 3 (tables 4, 5) at the 3rd and 5th positions;
O1 (West, table 1): 1 → −1 ≡ 4 → 2 → 5 → 3, at 3 at the 2nd and 4th; N1: table 1 five times.
At the 2nd position, table 1 seats N1, S5 (5 + 1 ≡ 1), E4 (4 + 2 ≡ 1), O3 (3 − 2); table 4 has no North and
seats S3, E2, O1. At the 3rd position table 3 seats N3, S1, E4 (4 + 4 ≡ 3), O2 (2 − 4 ≡ 3).

Marks (rules of play « La marque », SPEC §3; SPEC §13 for 3 players):

* position 1, table 1 (4 players): S1 takes a Garde with 2 bouts and 51 points (41 needed): (25 + 10) × 2 = 70
  → S1 +210, N1, E1, O1 −70 each;
* position 1, table 4 (3 players S4, E4, O4): E4 takes a Garde with 2 bouts and 40½ points: « le ½ point va au
  camp gagnant » → 40, failed by 1: (25 + 1) × 2 = 52 → E4 −104, S4 and O4 +52;
* E2 is 7 minutes late (art. 26): two started 5 minutes → −200; O5 withdraws at the 3rd position (art. 27).

Ranking by hand: S1 +210 1st; S4 and O4 +52 2nd ex æquo (same best position, no contract made); the nine
players at 0 (N2, N3, S2, S3, S5, E3, E5, O2, O3) 4th ex æquo; N1, E1, O1 −70 13th ex æquo; E4 −104 16th;
E2 −200 17th; O5 last, 18th.

PCN (booklet chapter 5): 5 tables, c = 0.66 + 0.05 = 0.71; the first 40 × 5 = 200, then 200 × 0.71 = 142,
200 × 0.71² = 100.82 → 100, 200 × 0.71³ = 71.58 → 71, then 50.8 → 50 and the floor 50; 18 players: 9 places.
S1 200; S4 and O4 share places 2–3: (142 + 100) / 2 = 121; the nine at 0 share places 4–12: (71 + 5 × 50 + 0
× 3) / 9 = 35.67 → 36, under the booklet's floor: 50 each (issue 29 point 7). In a regional final (indice 1,8): 360, (255 + 180) / 2 = 217.5 → 218, PP 3 and
(2 + 1) / 2 → 2.
"""

import copy
import re

import pytest

from duplicate import printing
from duplicate.core.freeplay.movements import free_movement, movement_to_dict
from duplicate.core.freeplay.tournament import federation_csv, rank_free
from duplicate.printing import freeplay as free

from print_helpers import page_count, page_texts, pdf_text

PLAYERS = 18


def _deal(table, taker, points, bouts=2, contract="garde"):
    return {"table": table, "position": 1, "deal": 1, "taker": taker, "partner": None, "contract": contract,
            "points": points, "bouts": bouts, "poignees": [], "petit_au_bout": None, "chelem": None}


@pytest.fixture(scope="module")
def evening():
    rounds, three = free_movement(players=PLAYERS)
    assert three == {4, 5}
    data = movement_to_dict(5, 5, rounds, three)
    ids = sorted({p for r in rounds for p in r.players()})
    players = [{"id": i, "name": f"NOM{i} Prénom", "licence": f"77{n:03d}", "club": "Club de Tarot d’Orléans"}
               for n, i in enumerate(ids)]
    players[ids.index("W5")]["withdrawn"] = {"position": 3}
    players[ids.index("N3")].pop("licence")  # a player without a licence: not in the federation's file
    return {"format": "tarot-tournament/1", "name": "Mardi libre", "kind": "free", "date": "2026-11-24",
            "players": players, "movement": data,
            "results": [_deal(1, "S1", 51), _deal(4, "E4", 40.5)],
            "penalties": [{"player": "E2", "late_minutes": 7, "reason": "Retard de 7 min (art. 26)"}]}


def _rows(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def test_fiche_personnelle_of_e1_o1_n1_by_hand(evening):
    pdf = printing.render_kind("free-cards", evening, players=["E1", "O1", "N1"])
    assert page_count(pdf) == 1
    context = free.personal_cards(evening, players=["E1"])
    assert [(r["position"], r["table"], r["orientation"], r["three"]) for r in context["items"][0]["rows"]] == [
        (1, 1, "Est", False), (2, 3, "Est", False), (3, 5, "Est", True), (4, 2, "Est", False), (5, 4, "Est", True)]
    pdf = printing.render_kind("free-cards", evening, players=["E1"])
    rows = _rows(pdf_text(pdf))
    assert "FICHE PERSONNELLE" in rows[0] or "FICHE PERSONNELLE" in " ".join(rows)
    assert "Joueur E1" in rows and "NOME1 Prénom · Club de Tarot d’Orléans" in rows
    assert any(row.startswith("Orientation : EST toute la soirée · départ : table 1") for row in rows)
    body = [row for row in rows if re.match(r"^\d(re|e) ", row)]
    assert body == ["1re 1 Est", "2e 3 Est", "3e 5 Est (à 3)", "4e 2 Est", "5e 4 Est (à 3)"]
    assert any("Mouvement : Nord fixe, Sud + 1, Est + 2, Ouest − 2." in row for row in rows)
    west = _rows(pdf_text(printing.render_kind("free-cards", evening, players=["W1"])))
    assert "Joueur O1" in west
    assert [row for row in west if re.match(r"^\d(re|e) ", row)] == [
        "1re 1 Ouest", "2e 4 Ouest (à 3)", "3e 2 Ouest", "4e 5 Ouest (à 3)", "5e 3 Ouest"]
    north = _rows(pdf_text(printing.render_kind("free-cards", evening, players=["N1"])))
    assert [row for row in north if re.match(r"^\d(re|e) ", row)] == [f"{o} 1 Nord" for o in ("1re", "2e", "3e", "4e", "5e")]


def test_every_player_has_a_fiche_eight_a_page(evening):
    pdf = printing.render_kind("free-cards", evening)
    assert page_count(pdf) == 3  # 18 fiches, 8 a page
    text = pdf_text(pdf, layout=False)
    for player in evening["players"]:
        assert f"Joueur {player['id'].replace('W', 'O')}" in text and player["name"] in text


def test_tableau_d_orientation_positions_2_and_3_by_hand(evening):
    pdf = printing.render_kind("free-orientation", evening)
    text = " ".join(pdf_text(pdf).split())
    assert "Tableau d’orientation des joueurs" in text and "Tables à 3 joueurs : 4, 5." in text
    second = text[text.index("2e position"):text.index("3e position")]
    assert "1 N1 NOMN1 Prénom S5 NOMS5 Prénom E4 NOME4 Prénom O3 NOMW3 Prénom" in second
    assert "4 — (table à 3) S3 NOMS3 Prénom E2 NOME2 Prénom O1 NOMW1 Prénom" in second
    third = text[text.index("3e position"):text.index("4e position")]
    assert "3 N3 NOMN3 Prénom S1 NOMS1 Prénom E4 NOME4 Prénom O2 NOMW2 Prénom" in third


def test_table_cards_name_every_seat(evening):
    pdf = printing.render_kind("free-table-cards", evening)
    assert page_count(pdf) == 3  # 5 tables, two a page
    pages = page_texts(pdf)
    table3 = " ".join(pages[1].split())
    assert "Table 3" in table3
    assert "1re N3 NOMN3 Prénom S3 NOMS3 Prénom E3 NOME3 Prénom O3 NOMW3 Prénom" in table3
    assert "3e N3 NOMN3 Prénom S1 NOMS1 Prénom E4 NOME4 Prénom O2 NOMW2 Prénom" in table3
    table5 = " ".join(pages[2].split())
    assert "Table 5" in table5 and "1re — (à 3) S5 NOMS5 Prénom E5 NOME5 Prénom O5 NOMW5 Prénom" in table5


def test_blank_feuilles_one_per_table_and_position(evening):
    pdf = printing.render_kind("free-sheets", evening)
    assert page_count(pdf) == 25  # 5 positions × 5 tables
    pages = [" ".join(page.split()) for page in page_texts(pdf)]
    first = pages[0]
    assert "FEUILLE DE MARQUE" in first and "Table n° 1" in first and "Position n° 1" in first
    assert re.search(r"NORD \(fixe\) N1 .*SUD S1 .*EST E1 .*OUEST O1", first)
    assert "NOMN1 Prénom" in first and "NOMW1 Prénom" in first and "Sous-totaux" in first
    assert "ensuite : + 1" in first and "ensuite : − 2" in first  # where each goes next
    # the 2nd position, table 4 (page 5 + 4 = 9): a table of 3, no North
    table4 = pages[8]
    assert "Table n° 4" in table4 and "Position n° 2" in table4 and "table à 3 joueurs" in table4
    assert "NORD" not in table4 and re.search(r"SUD S3 .*EST E2 .*OUEST O1", table4)
    assert "somme des 3 bilans" in table4 and "13, 15, 18 atouts" in table4
    last = pages[-1]
    assert "Position n° 5" in last and "ensuite" not in last


def test_ranking_by_hand(evening):
    pdf = printing.render_kind("free-ranking", evening)
    rows = _rows(pdf_text(pdf))
    line = {row.split()[1] if row.split()[1] != "ex" else row.split()[3]: row for row in rows
            if re.match(r"^\d+ ", row) and len(row.split()) > 3}
    assert line["S1"].startswith("1 S1 NOMS1 Prénom") and "+210" in line["S1"]
    assert line["S4"].startswith("2 ex æquo S4") and line["O4"].startswith("2 ex æquo O4") and "+52" in line["O4"]
    for who in ("N2", "N3", "S2", "S3", "S5", "E3", "E5", "O2", "O3"):
        assert line[who].startswith(f"4 ex æquo {who}"), line[who]
    for who in ("N1", "E1", "O1"):
        assert line[who].startswith(f"13 ex æquo {who}") and "−70" in line[who]
    assert line["E4"].startswith("16 E4") and "−104" in line["E4"]
    assert line["E2"].startswith("17 E2") and "0 −200 −200" in line["E2"]
    text = " ".join(rows)
    assert line["O5"].startswith("18 O5")  # its name cell wraps over three lines
    assert "NOMW5 Prénom (forfait à la 3e position, classé dernier)" in " ".join(pdf_text(pdf, layout=False).split())
    assert "Pénalité : NOME2 Prénom (E2), 200 points — Retard de 7 min (art. 26)." in text
    assert "18 joueurs classés" in text


def test_pcn_list_and_federation_file_by_hand(evening):
    rows = _rows(pdf_text(printing.render_kind("free-pcn", evening)))
    text = " ".join(rows)
    assert "Épreuve : donnes libres (individuel) · tournoi de club · 5 tables, 18 joueurs." in text
    assert "1 S1 NOMS1 Prénom" in text and any(row.startswith("1 S1") and row.endswith(" 200") for row in rows)
    assert any(row.startswith("2 ex æquo S4") and row.endswith(" 121") for row in rows)
    assert sum(1 for row in rows if row.startswith("4 ex æquo") and row.endswith(" 50")) == 9
    assert any(row.startswith("4 ex æquo N3") and "sans licence" in row for row in rows)
    assert "1 joueur sans licence" in text and "PP" not in text.split("Place", 1)[1].split("\n")[0][:40]
    final = _rows(pdf_text(printing.render_kind("free-pcn", evening, championship="regional_final")))
    assert any(row.startswith("1 S1") and row.endswith(" 360 3") for row in final)
    assert any(row.startswith("2 ex æquo O4") and row.endswith(" 218 2") for row in final)
    # the federation's file (what the web page downloads): the same numbers, N3 left out
    data = dict(copy.deepcopy(evening), pcn=True)
    csv = federation_csv(data, rank_free(data)).splitlines()
    assert csv[0] == "Licence;Nom;Place;PCN;PP" and csv[1].endswith(";NOMS1 Prénom;1;200;0")
    assert len(csv) == 1 + 1 + 2 + 8 and not any("NOMN3" in line for line in csv)


def test_small_event_prints_why_it_awards_no_pcn(evening):
    small = copy.deepcopy(evening)
    small["players"] = small["players"][:10]
    small["results"] = []
    small["penalties"] = []
    small.pop("movement")
    text = " ".join(pdf_text(printing.render_kind("free-pcn", small)).split())
    assert "Pas de PCN pour ce tournoi : 10 joueurs : il en faut 11 au moins" in text


def test_no_text_is_cut_with_long_names(evening, tmp_path):
    """A very long name wraps inside its cell (pdftotext finds every word), every page stays A4, and no card
    clips what it holds: the fiches and table cards grow (``min-height``, never ``overflow: hidden``), so
    long names make more pages rather than hide the last positions (looked at as PNG too)."""
    import pathlib

    templates = pathlib.Path(__file__).parents[2] / "templates" / "print"
    for template in templates.glob("free_*.html"):
        assert "overflow: hidden" not in template.read_text(encoding="utf-8"), template.name
    long = copy.deepcopy(evening)
    for player in long["players"]:
        player["name"] = f"DE LA TOUR D’AUVERGNE-{player['id']} Marie-Charlotte-Alexandrine"
        player["club"] = "Association Sportive et Culturelle du Tarot de la Vallée de la Loire"
    for kind in ("free-cards", "free-orientation", "free-table-cards", "free-ranking"):
        pdf = printing.render_kind(kind, long)
        words = " ".join(pdf_text(pdf, layout=False).split())
        for player in long["players"]:
            assert player["id"] in words.replace("O", "W") or player["id"] in words, (kind, player["id"])
            assert f"D’AUVERGNE-{player['id']}" in words, (kind, player["id"])
        from pypdf import PdfReader
        import io

        for page in PdfReader(io.BytesIO(pdf)).pages:
            assert round(float(page.mediabox.width)) == 595 and round(float(page.mediabox.height)) == 842
    text = pdf_text(printing.render_kind("free-cards", long), layout=False)
    assert text.count("Total") == PLAYERS and text.count("5e") == PLAYERS
    # the team ranking and its palmarès: long team names and members wrap, every word printed, A4 pages
    teams = _team_evening()
    for player in teams["players"]:
        player["name"] = f"DE LA TOUR D’AUVERGNE-{player['id']} Marie-Charlotte-Alexandrine"
    for team in teams["teams"]:
        team["name"] = f"Les Invincibles du Tarot de la Vallée de la Loire {team['id']}"
    pdf = printing.render_kind("free-ranking", teams)
    words = " ".join(pdf_text(pdf, layout=False).split())
    for team in teams["teams"]:
        assert words.count(f"Loire {team['id']}") >= 1, team["id"]
    for player in teams["players"]:
        assert words.count(f"D’AUVERGNE-{player['id']}") >= 2, player["id"]  # in its team and in the players
    from pypdf import PdfReader
    import io

    for page in PdfReader(io.BytesIO(pdf)).pages:
        assert round(float(page.mediabox.width)) == 595 and round(float(page.mediabox.height)) == 842


# --- team kinds, palmarès and carré final on paper ------------------------------------------------------------

def _team_evening():
    """Libre duo, 10 duos at 5 tables (core `team_movement`: the FFT movement from its 2nd position, teammates
    together at the skipped one). By hand, the individual 2nd position: table t seats N t, S t − 1, E t − 2,
    O t + 2 (mod 5) → table 1: N1, S5, E4, O3; table 2: N2, S1, E5, O4.

    * table 1: S5 takes a Garde, 2 bouts, 51 points: (25 + 10) × 2 = 70 → S5 +210, N1, E4, O3 −70;
    * table 2: E5 takes a Garde, 2 bouts, 42 points: (25 + 1) × 2 = 52 → E5 +156, N2, S1, O4 −52.

    Duos (sum of the two): NS5 = S5 + N5 = +210 (1st), EO5 = E5 + O5 = +156 (2nd), NS3, NS4, EO1, EO2 = 0
    (3rd ex æquo: same summed criteria, no contract made), NS2 = −52 (7th), EO3 = −70 (8th), NS1 = −70 − 52
    and EO4 = −70 − 52 = −122 (9th ex æquo: best positions −70 + −52 both, no contract).
    Palmarès: ⌈10 × 20 %⌉ = 2 duos, NS5 and EO5; only position 1 played, so the special prize of « 2
    dernières positions » goes to the best of the others there: the four duos at 0, ex æquo."""
    from duplicate.core.freeplay.movements import team_movement

    rounds, places = team_movement("free_duo", 5)
    movement = movement_to_dict(5, max(r.position for r in rounds), rounds, frozenset())
    movement["teams"] = places
    ids = sorted(p for members in places.values() for p in members)
    players = [{"id": i, "name": f"NOM{i} Prénom", "licence": f"88{n:03d}"} for n, i in enumerate(ids)]
    teams = [{"id": team, "name": f"Duo {team}", "members": members} for team, members in places.items()]
    return {"format": "tarot-tournament/1", "name": "Libre duo du jeudi", "kind": "free_duo", "date": "2026-11-26",
            "players": players, "teams": teams, "movement": movement,
            "results": [_deal(1, "S5", 51), _deal(2, "E5", 42)], "penalties": []}


def test_team_ranking_and_team_palmares_on_paper_by_hand():
    data = _team_evening()
    pdf = printing.render_kind("free-ranking", data)
    text = pdf_text(pdf)
    rows = _rows(text)
    teams_part = text.split("Classement individuel")[0]
    team_rows = {r.split()[1] if r.split()[1] != "ex" else r.split()[3]: r for r in _rows(teams_part)
                 if re.match(r"^\d+ ", r)}
    assert team_rows["NS5"].startswith("1 NS5 Duo NS5") and team_rows["NS5"].endswith("+210 +210 1")
    assert team_rows["EO5"].startswith("2 EO5 Duo EW5") and "+156" in team_rows["EO5"]
    for team in ("NS3", "NS4", "EO1", "EO2"):
        assert team_rows[team].startswith(f"3 ex æquo {team}"), team_rows[team]
    assert team_rows["NS2"].startswith("7 NS2") and "−52" in team_rows["NS2"]
    assert team_rows["EO3"].startswith("8 EO3") and "−70" in team_rows["EO3"]
    assert team_rows["NS1"].startswith("9 ex æquo NS1") and team_rows["EO4"].startswith("9 ex æquo EO4")
    assert "−122" in team_rows["NS1"]
    flat = " ".join(" ".join(pdf_text(pdf, layout=False).split()).split())
    assert "NOMN5 Prénom (N5), NOMS5 Prénom (S5)" in flat  # the members under the team's name
    assert "10 duos classés par la somme des totaux" in flat
    # the individual ranking follows: S5 first with +210
    individual = text.split("Classement individuel")[1]
    assert any(r.startswith("1 S5 NOMS5 Prénom") and "+210" in r for r in _rows(individual))
    # the palmarès of the teams
    palmares = " ".join(flat.split("Palmarès", 1)[1].split())
    assert palmares.startswith("2 prix pour 10 duos (20 % des duos, arrondi au-dessus).")
    assert "1er Duo NS5 (NOMN5 Prénom, NOMS5 Prénom) (NS5) — +210" in palmares
    assert "2e Duo EW5 (NOME5 Prénom, NOMW5 Prénom) (EO5) — +156" in palmares
    special = palmares.split("Prix spécial des deux dernières positions", 1)[1]
    assert "(position 1, équipes non récompensées au classement)" in special and "avec 0 (ex æquo)" in special
    for team in ("NS3", "NS4", "EO1", "EO2"):
        assert f"Duo {team.replace('EO', 'EW')} (" in special and f"({team})" in special
    assert "NS2" not in special and "Carré final" not in flat
    assert rows[0].startswith("Classement")


def test_carre_final_on_paper_by_hand(evening, tmp_path):
    """12 finalists after the 5 positions (booklet p. 13–14, core `final_square`): the k-th best at table
    ((k − 1) mod 3) + 1, N/S/E/O by (k − 1) div 3 → table 1: 1er, 4e, 7e, 10e; table 2: 2e, 5e, 8e, 11e;
    table 3: 3e, 6e, 9e, 12e. The finalists here: the players in place order N1, S1, E1, O1, N2… (the
    seating only reads the list)."""
    from duplicate.core.freeplay.movements import final_square

    data = copy.deepcopy(evening)
    order = ["N1", "S1", "E1", "W1", "N2", "S2", "E2", "W2", "N3", "S3", "E3", "W3"]
    rounds = final_square(order, 1)
    data["movement"]["rounds"] += [{"position": 6, "table": r.table, "seats": dict(r.seats)} for r in rounds]
    data["movement"]["positions"] = 6
    data["movement"]["final_square"] = {"finalists": 12, "positions": [6], "ranked": order, "regular_positions": 5}
    pdf = printing.render_kind("free-ranking", data)
    last = page_texts(pdf)[-1]
    assert "Carré final" in last and "Position de départ des 12 joueurs finalistes (position 6)" in " ".join(last.split())
    rows = _rows(last)
    table = {int(r.split()[1]): r for r in rows if re.match(r"^Table \d", r)}
    assert re.sub(r"\s+", " ", table[1]) == "Table 1 1er 4e 7e 10e"
    assert re.sub(r"\s+", " ", table[2]) == "Table 2 2e 5e 8e 11e"
    assert re.sub(r"\s+", " ", table[3]) == "Table 3 3e 6e 9e 12e"
    flat = " ".join(pdf_text(pdf, layout=False).split())
    # 1er = N1 at table 1 North, 4e = O1 (W1) South, 7e = E2 East, 12e = O3 (W3) West of table 3
    assert "NOMN1 Prénom (N1)" in flat.split("Table 1", 1)[1] and "NOMW3 Prénom (O3)" in flat.split("Table 3", 1)[1]
    # the individual palmarès still leaves the carré final's position out of « 2 dernières positions »
    palmares = " ".join(flat.split("Palmarès", 1)[1].split())
    assert palmares.startswith("4 prix pour 18 joueurs")  # ⌈18 × 20 %⌉ = ⌈3,6⌉
    assert "(position 1, joueurs non récompensés au classement)" in palmares
