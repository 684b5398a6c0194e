"""Printing a 13-player evening (issue 16): the 4-table Howell without J8, J12, J16 (`core.freeplay.movements`).

By hand, from the booklet's rows (p. 18–19) without 8, 12 and 16:

* row 1 « 1 2 3 4 | 5 6 7 8 | 9 10 11 12 | 13 14 15 16 »: J2 table 1 Sud (table of 4);
* row 2 « 1 8 10 15 | 16 9 7 2 | … »: J2 table 2 Ouest, J16's North empty → at 3;
* row 3 « … | 8 2 13 11 | … »: J2 table 3 Sud, J8's North empty → at 3;
* row 4 « … | 12 15 2 5 »: J2 table 4 Est, J12's North empty → at 3.

So J2's fiche reads 1 Sud, 2 Ouest (à 3), 3 Sud (à 3), 4 Est (à 3), and his orientation changes.
"""

import re

import pytest

from duplicate import printing
from duplicate.core.freeplay.movements import free_movement, movement_to_dict

from print_helpers import page_texts, pdf_text


@pytest.fixture(scope="module")
def evening():
    rounds, three = free_movement(players=13)
    ids = sorted({p for r in rounds for p in r.players()}, key=lambda i: int(i[1:]))
    return {"format": "tarot-tournament/1", "name": "Mardi à 13", "kind": "free", "date": "2026-11-24",
            "players": [{"id": i, "name": f"NOM{i} Prénom"} for i in ids],
            "movement": movement_to_dict(4, 4, rounds, three), "results": []}


def _rows(text):
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def test_fiche_of_j2_by_hand(evening):
    rows = _rows(pdf_text(printing.render_kind("free-cards", evening, players=["J2"])))
    assert "Joueur J2" in rows
    assert any(row.startswith("Départ : table 1, SUD (l’orientation change)") for row in rows)
    assert [row for row in rows if re.match(r"^\d(re|e) ", row)] == [
        "1re 1 Sud", "2e 2 Ouest (à 3)", "3e 3 Sud (à 3)", "4e 4 Est (à 3)"]
    assert not any(row.startswith("Mouvement :") for row in rows)


def test_orientation_names_the_absent_numbers(evening):
    text = " ".join(pdf_text(printing.render_kind("free-orientation", evening)).split())
    assert "Chaque joueur garde son numéro ; sa table et son orientation changent d’une position à l’autre." in text
    assert "Numéros absents : J8, J12, J16 — à chaque position, la table où leurs places se trouvent joue à 3." in text
    assert "garde son orientation toute la soirée" not in text and "Tables à 3 joueurs" not in text
    second = text[text.index("2e position"):text.index("3e position")]
    assert "2 — (table à 3) J9 NOMJ9 Prénom J7 NOMJ7 Prénom J2 NOMJ2 Prénom" in second


def test_table_card_and_blank_sheet_of_a_howell_table_of_3(evening):
    cards = [" ".join(page.split()) for page in page_texts(printing.render_kind("free-table-cards", evening))]
    table2 = next(page[page.index("Table 2"):] for page in cards if "Table 2" in page)
    assert "1re J5 NOMJ5 Prénom J6 NOMJ6 Prénom J7 NOMJ7 Prénom — (à 3)" in table2
    assert "2e — (à 3) J9 NOMJ9 Prénom J7 NOMJ7 Prénom J2 NOMJ2 Prénom" in table2
    sheets = [" ".join(page.split()) for page in page_texts(printing.render_kind("free-sheets", evening))]
    assert len(sheets) == 16  # 4 positions × 4 tables
    first = sheets[1]  # position 1, table 2: J8's West empty, the North fills it in
    assert "Table n° 2" in first and "Position n° 1" in first
    assert "table à 3 joueurs · le Nord remplit la feuille" in first and "OUEST" not in first
    assert re.search(r"NORD J5 .*SUD J6 .*EST J7", first) and "(fixe)" not in first
    second = sheets[5]  # position 2, table 2: J16's North empty
    assert "Position n° 2" in second and "table à 3 joueurs · un joueur remplit la feuille" in second
    assert "NORD" not in second and re.search(r"SUD J9 .*EST J7 .*OUEST J2", second)
