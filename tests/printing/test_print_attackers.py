"""Who attacks, on paper (issue 15, points 1–2): triplette badges and duplication duty on the labels,
fiches, guide cards, movement cards and route sheets; the quadrette attacker on the fiches, route sheets
and frequencies. Hand-built SPEC §9 files, values derived by hand in the comments."""

import copy

from duplicate import printing
from duplicate.printing.contexts import build_context
from print_helpers import pdf_text

# Two tables, two positions, 4 étuis a position, takers N, S, E, W (étuis 1 N, 2 S, 3 E, 4 W, 5 N…):
#   position 1: table 1 NS1 v EW1 étuis 1–4; table 2 NS2 v EW2 étuis 5–8
#   position 2: table 1 NS1 v EW2 étuis 9–12; table 2 NS2 v EW1 étuis 13–16
# Badges (surname order): NS1 DUPONT Bleu, ÉVRARD Blanc, MARTIN Rouge; EW1 ADAM Bleu, BRUN Blanc, COSTE Rouge.
# First colour drawn: Blanc for everyone, rotation Blanc → Rouge → Bleu → Blanc.
#   NS1 attacks 1, 2 (position 1), 9, 10 (position 2): turns 0–3 Blanc ÉVRARD, Rouge MARTIN, Bleu DUPONT, Blanc ÉVRARD
#   EW1 attacks 3, 4 (position 1), 15, 16 (position 2): Blanc BRUN, Rouge COSTE, Bleu ADAM, Blanc BRUN
NAMES = {"p1": "MARTIN Paul", "p2": "ÉVRARD Anne", "p3": "DUPONT Jean", "q1": "ADAM Luc", "q2": "BRUN Léa",
         "q3": "COSTE Marc", "r1": "GARNIER Ana", "r2": "HENRY Bob", "r3": "IBERT Cécile", "s1": "JOLY Dan",
         "s2": "KLEIN Eve", "s3": "LEROY Fred"}


def triplettes() -> dict:
    rounds = [
        {"position": 1, "table": 1, "seats": {"NS": "NS1", "EW": "EW1"}, "boards": [1, 2, 3, 4]},
        {"position": 1, "table": 2, "seats": {"NS": "NS2", "EW": "EW2"}, "boards": [5, 6, 7, 8]},
        {"position": 2, "table": 1, "seats": {"NS": "NS1", "EW": "EW2"}, "boards": [9, 10, 11, 12]},
        {"position": 2, "table": 2, "seats": {"NS": "NS2", "EW": "EW1"}, "boards": [13, 14, 15, 16]},
    ]
    teams = [{"id": ident, "name": f"Équipe {ident}", "line": ident[:2], "first_colour": "Blanc", "members": members}
             for ident, members in (("NS1", ["p1", "p2", "p3"]), ("EW1", ["q1", "q2", "q3"]),
                                    ("NS2", ["r1", "r2", "r3"]), ("EW2", ["s1", "s2", "s3"]))]
    return {
        "format": "tarot-tournament/1", "name": "Triplettes du jeudi", "kind": "triplettes",
        "players": [{"id": ident, "name": name} for ident, name in NAMES.items()], "teams": teams,
        "boards": [{"number": n, "taker": "NSEW"[(n - 1) % 4], "dealer": "W"} for n in range(1, 17)],
        "movement": {"format": "tarot-movement/1", "kind": "triplettes", "tables": 2, "positions": 2,
                     "boards": [{"number": n, "taker": "NSEW"[(n - 1) % 4]} for n in range(1, 17)],
                     "rounds": rounds},
        "results": [
            {"board": 1, "table": 1, "position": 1, "taker_team": "NS1", "defence_team": "EW1", "score": 56},
            {"board": 9, "table": 1, "position": 2, "taker_team": "NS1", "defence_team": "EW2", "score": 62},
            {"board": 5, "table": 2, "position": 1, "taker_team": "NS2", "defence_team": "EW2", "score": -56}],
    }


def test_labels_print_the_duplication_duty():
    # seed: « la triplette Nord/Sud pour les étuis impairs et […] Est-Ouest pour les étuis pairs »
    context = build_context("labels", triplettes(), pockets=False)
    cases = [label for page in context["items"] for label in page]
    assert [(c["board"], c["duty"]) for c in cases[:4]] == [(1, "NS"), (2, "EO"), (3, "NS"), (4, "EO")]
    assert "Duplication : NS" in pdf_text(printing.render_kind("labels", triplettes(), pockets=False, boards=[1]))


def test_guide_card_names_the_attacker_of_each_etui_and_the_duty():
    card = build_context("guide-cards", triplettes(), tables=[1])["items"][0]
    assert [(a["board"], a["who"]) for a in card["rows"][0]["attacks"]] == [
        (1, "ÉVRARD Anne (Blanc)"), (2, "MARTIN Paul (Rouge)"), (3, "BRUN Léa (Blanc)"), (4, "COSTE Marc (Rouge)")]
    # position 2 at table 1: NS1 attacks 9, 10 (turns 2, 3: Bleu, Blanc); EW2 (JOLY Bleu, KLEIN Blanc, LEROY
    # Rouge) attacks 11, 12 at its turns 2, 3 (it attacked 7, 8 at table 2 first): Bleu JOLY, Blanc KLEIN
    assert [a["who"] for a in card["rows"][1]["attacks"]] == [
        "DUPONT Jean (Bleu)", "ÉVRARD Anne (Blanc)", "JOLY Dan (Bleu)", "KLEIN Eve (Blanc)"]
    assert card["duty"] == "NS : 1, 3 ; EO : 2, 4"
    text = " ".join(pdf_text(printing.render_kind("guide-cards", triplettes(), tables=[1])).split())
    assert "étui 1 ÉVRARD Anne (Blanc)" in text and "ici NS : 1, 3 ; EO : 2, 4" in text


def test_movement_card_carries_the_members_their_badges_and_attacks():
    items = {item["id"]: item for item in build_context("movement-cards", triplettes())["items"]}
    ns1, ew1 = items["NS1"], items["EW1"]
    assert [(m["colour"], m["name"]) for m in ns1["members"]] == [
        ("Bleu", "DUPONT Jean"), ("Blanc", "ÉVRARD Anne"), ("Rouge", "MARTIN Paul")]
    assert [row["attacks"] for row in ns1["rows"]] == ["1 Blanc, 2 Rouge", "9 Bleu, 10 Blanc"]
    assert [row["attacks"] for row in ew1["rows"]] == ["3 Blanc, 4 Rouge", "15 Bleu, 16 Blanc"]
    assert (ns1["duty"], ew1["duty"]) == ("1re position, étuis 1, 3", "1re position, étuis 2, 4")
    text = " ".join(pdf_text(printing.render_kind("movement-cards", triplettes(), entrants=["NS1"])).split())
    assert "Bleu DUPONT Jean · Blanc ÉVRARD Anne · Rouge MARTIN Paul" in text
    assert "1 Blanc, 2 Rouge" in text and "étuis 1, 3" in text


def test_fiche_and_route_sheet_name_the_attacker_and_a_later_seance_runs_on():
    fiche = build_context("travellers", triplettes(), boards=[1])["items"][0]
    assert [(line["table"], line["attacker"]) for line in fiche["lines"]] == [(1, "ÉVRARD Anne (Blanc)")]
    sheet = build_context("route-sheets", triplettes(), entrants=["NS1"])["items"][0]
    assert [(row["board"], row["attacker"]) for row in sheet["rows"]] == [
        (1, "ÉVRARD Anne (Blanc)"), (9, "DUPONT Jean (Bleu)")]
    # a second séance: NS1 attacked 4 times before (Blanc, Rouge, Bleu, Blanc): its turns 4–7 are Rouge
    # (étui 1), Bleu, Blanc (étui 9), Rouge
    later = copy.deepcopy(triplettes())
    later["teams"][0]["attacked_before"] = 4
    sheet = build_context("route-sheets", later, entrants=["NS1"])["items"][0]
    assert [row["attacker"] for row in sheet["rows"]] == ["MARTIN Paul (Rouge)", "ÉVRARD Anne (Blanc)"]
    text = " ".join(pdf_text(printing.render_kind("route-sheets", triplettes(), entrants=["NS1"])).split())
    assert "ÉVRARD Anne (Blanc)" in text


def quadrettes() -> dict:
    # 2 quadrettes, 1 étui each way: Q1 attacks étui 1 at table 2 (against Q2's defence), Q2 at table 1
    players = [{"id": f"{q}{i}", "name": f"{name} {q}"} for q in ("a", "b")
               for i, name in enumerate(("ARNAUD", "BLANC", "CARON", "DUVAL"), start=1)]
    return {
        "format": "tarot-tournament/1", "name": "Quadrettes", "kind": "quadrettes", "players": players,
        "teams": [{"id": "Q1", "name": "Équipe A", "members": ["a1", "a2", "a3", "a4"]},
                  {"id": "Q2", "name": "Équipe B", "members": ["b1", "b2", "b3", "b4"]}],
        "boards": [{"number": 1, "taker": "S", "dealer": "W"}],
        "results": [{"board": 1, "table": 2, "position": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82,
                     "attacker": "a4"},
                    {"board": 1, "table": 1, "position": 1, "taker_team": "Q2", "defence_team": "Q1", "score": 66,
                     "attacker": "b2"}],
    }


def test_quadrette_attacker_on_route_sheet_fiche_and_frequencies():
    sheet = build_context("route-sheets", quadrettes(), entrants=["Q1"])["items"][0]
    # Q1's row as attacker names DUVAL a; its defence row names nobody (the attacker there is Q2's)
    assert [(row["role"], row["attacker"]) for row in sheet["rows"]] == [("Attaque", "DUVAL a"), ("Défense", "")]
    # +82 against +66 on the same étui: 82 − 66 = 16, √16 = 4 PM to Q1 (seed example)
    assert sheet["pm"] == "+4,000"  # PM print with three decimals
    lines = build_context("travellers", quadrettes(), scored=True)["items"][0]["lines"]
    assert [(line["table"], line["attacker"]) for line in lines] == [(1, "BLANC b"), (2, "DUVAL a")]
    frequencies = build_context("frequencies", quadrettes())["items"][0]["lines"]
    assert [(line["score"], line["attackers"]) for line in frequencies] == [
        ("+82", ["table 2 : DUVAL a"]), ("+66", ["table 1 : BLANC b"])]
    text = " ".join(pdf_text(printing.render_kind("frequencies", quadrettes())).split())
    assert "+82 — attaque : table 2 : DUVAL a" in text
