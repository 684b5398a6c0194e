"""PCN and PP attribution (`duplicate.core.freeplay.pcn`): booklet chapter 5, p. 44–45.

The three attribution tables of p. 45 are pasted below as the OCR gave them (row label, then the values
of the right-most columns: a row only covers the tables where its place gets PCN). Every legible cell
is compared with `attribution`; the cells below the floor of 50 are OCR losses (« 8 » for 85, 81, 84:
see `GARBLED`) and are checked to be the only ones."""

from math import ceil

import pytest

from duplicate.core.freeplay.pcn import PcnError, abattement, attribution, share_ties

INDIVIDUAL = """
ler 120 160 200 240 280 320 360 400 440 480 520 560 640 720 800 880 960 1040 1120 1200
2eme 82 112 142 172 204 236 270 304 338 374 410 448 524 604 688 774 864 956 1052 1140
3eme 57 78 100 124 149 175 202 231 260 292 324 358 430 508 591 681 777 880 989 1083
4eme 50 54 71 89 108 129 151 175 200 227 256 286 352 426 508 599 699 809 930 1028
5eme 50 50 50 64 79 95 113 133 154 177 202 229 289 358 437 527 629 745 874 977
6eme 50 50 50 50 58 71 8 101 119 138 160 183 237 301 376 464 566 685 821 928
7éme 50 50 50 50 52 64 77 91 108 126 146 194 252 323 408 510 630 772 882
8éme 50 50 50 50 50 50 58 70 8 99 117 159 212 278 359 459 580 726 838
9éme 50 50 50 50 50 50 54 65 78 93 130 178 239 316 413 533 682 796
10éme 50 50 50 50 50 50 50 51 62 75 107 149 205 278 371 491 641 756
1lléme 50 50 50 50 50 50 50 50 60 87 125 177 245 334 451 603 718
12éme 50 50 50 50 50 50 50 50 50 72 105 152 215 301 415 567 682
13éme 50 50 50 50 50 50 50 50 59 88 130 189 271 382 533 648
14éme 50 50 50 50 50 50 50 50 50 74 112 167 244 351 501 616
15éme 50 50 50 50 50 50 50 50 62 96 146 219 323 470 585
16éme 50 50 50 50 50 50 50 50 52 83 129 197 297 442 555
17éme 50 50 50 50 50 50 50 50 71 113 177 273 416 528
18éme 50 50 50 50 50 50 50 50 61 100 160 252 391 501
19éme 50 50 50 50 50 50 50 52 88 144 231 367 476
20éme 50 50 50 50 50 50 50 50 77 129 213 345 452
21éme 50 50 50 50 50 50 50 68 116 196 324 430
22éme 50 50 50 50 50 50 50 60 105 180 305 408
23éme 50 50 50 50 50 50 52 94 166 287 388
24éme 50 50 50 50 50 50 50 85 152 269 368
25éme 50 50 50 50 50 50 76 140 253 350
26eme 50 50 50 50 50 50 68 129 238 332
27éme 50 50 50 50 50 62 118 224 316
28éme 50 50 50 50 50 55 109 210 300
29éme 50 50 50 50 50 100 198 285
30éme 50 50 50 50 50 92 186 271
31éme 50 50 50 50 50 8 175 257
32éme 50 50 50 50 50 78 164 244
33éme 50 50 50 50 72 154 232
34éme 50 50 50 50 66 145 220
35éme 50 50 50 50 61 136 209
36eme 50 50 50 50 56 128 199
37éme 50 50 50 51 120 189
38éme 50 50 50 50 113 179
39eéme 50 50 50 50 106 170
40eme 50 50 50 50 100 162
41eme 50 50 50 94 154
42éme 50 50 50 88 146
43eme Plafond supérieur des Pcn : | 1500 50 50 50 83 139
44eme Coefficient d'abattement & 4 tables : | 0.70 50 50 50 78 132
45eme Progression : | 0.01 50 50 73 125
46eme Coefficient d'abattement Maxi : | 0.95 50 50 69 119
47éme Plafond inférieur des Pcn : | 50 50 50 65 113
48eme 50 50 61 107
"""

DUO = """
lére 200 240 280 320 360 400 440 480 520 560 640 720 800 880 960 1040 1120 1200
2éme 100 124 149 175 202 231 260 292 324 358 430 508 591 681 777 880 989 1083
3éme 50 64 79 95 113 133 154 177 202 229 289 358 437 527 629 745 874 977
4éme 50 50 50 52 64 77 91 108 126 146 194 252 323 408 510 630 772 882
5eéme 50 50 50 50 50 50 54 65 78 93 130 178 239 316 413 533 682 796
6eme 50 50 50 50 50 50 50 50 60 87 125 177 245 334 451 603 718
7eme 50 50 50 50 50 50 50 50 59 88 130 189 271 382 533 648
8eme 50 50 50 50 50 50 50 50 62 96 146 219 323 470 585
9éme 50 50 50 50 50 50 50 50 71 113 177 273 416 528
10eéme 50 50 50 50 50 50 50 52 88 144 231 367 476
1lleme 50 50 50 50 50 50 50 68 116 196 324 430
12éme 50 50 50 50 50 50 52 94 166 287 388
13éme 50 50 50 50 50 50 76 140 253 350
l4éme 50 50 50 50 50 62 118 224 316
15eme 50 50 50 50 50 100 198 285
16éme 50 50 50 50 50 85 175 257
17éme 50 50 50 50 72 154 232
18eéme 50 50 50 50 61 136 209
19éme 50 50 50 51 120 189
20éme 50 50 50 50 106 170
21éeme 50 50 50 94 154
22éme Plafond supérieur des Pcn : | 1500 50 50 50 83 139
23éeme Coefficient d'abattement & 5 tables : | 0,712 50 50 73 125
24éme Coefficient d'abattement Maxi : | 0,952 50 50 65 113
25eme Plafond inférieur des Pcn : | 50 50 57 102
26eme 50 50 92
"""

TEAM4 = """
lére 200 240 280 320 360 400 440 480 520 560 640 720 800 880 960 1040 1120 1200
2éme 100 120 140 160 180 200 220 240 260 280 320 360 437 527 629 745 874 977
3éme 50 60 70 80 90 100 110 120 130 140 160 180 239 316 413 533 682 796
4eme 50 50 50 50 55 60 65 70 80 90 130 189 271 382 533 648
5éme 50 50 50 50 50 50 50 50 71 113 177 273 416 528
6eme 50 50 50 50 50 50 50 68 116 196 324 430
7éme 50 50 50 50 50 50 76 140 253 350
8eme 50 50 50 50 50 100 198 285
9éme 50 50 50 50 72 154 232
10éme 50 50 50 51 120 189
11éme Plafond supérieur des Pcn : | 1500 50 50 50 94 154
12eme Coefficient d'abattement a 5 tables : | 0,5 50 50 73 125
13éme Coefficient d'abattement Maxi : | 0,815 50 57 102
14éme Plafond inférieur des Pcn: | 50 50 83
15éme 67
"""

COLUMNS = {
    "free": [*range(3, 15), *range(16, 31, 2)],
    "free_duo": [*range(5, 15), *range(16, 31, 2)],
    "free_team4": [*range(5, 15), *range(16, 31, 2)],
}
TABLES = {"free": INDIVIDUAL, "free_duo": DUO, "free_team4": TEAM4}
#: (event, place, tables) → what the OCR printed where the cell is illegible, and the value computed
#: (derivation: 40 × tables × c^(place − 1), truncated).
GARBLED = {
    ("free", 6, 9): "8",    # 360 × 0.75⁵ = 85.4 → 85
    ("free", 8, 12): "8",   # 480 × 0.78⁷ = 84.2 → 84
    ("free", 31, 26): "8",  # 1040 × 0.92³⁰ = 85.2 → 85
}


def ocr_cells(event):
    """(place, tables) → the printed value, each row right-aligned on the columns."""
    cells = {}
    rows = [line for line in TABLES[event].strip().splitlines() if line.strip()]
    for place, line in enumerate(rows, start=1):
        tokens = line.split("|")[-1].split()[1:] if "|" in line else line.split()[1:]
        # a row covers the tables whose places with PCN reach it: half the entrants, rounded up
        entrants = {"free": 4, "free_duo": 2, "free_team4": 1}[event]
        columns = [t for t in COLUMNS[event] if ceil(entrants * t / 2) >= place]
        assert len(tokens) == len(columns), (event, place, tokens)
        cells.update(((place, t), token) for t, token in zip(columns, tokens))
    return cells


@pytest.mark.parametrize("event", ["free", "free_duo", "free_team4"])
def test_the_booklet_tables(event):
    """Every legible cell of the booklet's table equals the computed attribution; the places with PCN
    are half the entrants (the rows' lengths above)."""
    garbled = {}
    for (place, tables), printed in ocr_cells(event).items():
        computed = attribution(event, tables)[place - 1].pcn
        if int(printed) < 50:
            garbled[event, place, tables] = printed
            continue
        assert computed == int(printed), (event, place, tables, printed, computed)
    assert garbled == {k: v for k, v in GARBLED.items() if k[0] == event}
    for event_, place, tables in garbled:
        assert str(attribution(event_, tables)[place - 1].pcn).startswith("8")


def test_abattement_row():
    """The printed rows: 0.69 at 3 tables, 0.70 at 4 (« Progression : 0.01 »), 0.95 from 29 on; duo 0,71²
    at 5 tables and 0.5 where c² < 0.5 (3, 4 tables: 0.4761, 0.49); teams of 4: 0.5 up to 18 tables
    (0.84⁴ = 0.4979), 0.86⁴ at 20 (« 0547 »), 0.95⁴ = 0.8145… (« 0,815 ») at 30."""
    assert [float(abattement("free", t)) for t in (3, 4, 14, 28, 29, 40)] == [0.69, 0.7, 0.8, 0.94, 0.95, 0.95]
    assert float(abattement("free_duo", 5)) == pytest.approx(0.5041)
    assert abattement("free_duo", 3) == abattement("free_duo", 4) == 0.5
    assert abattement("free_team4", 18) == 0.5
    assert round(float(abattement("free_team4", 20)), 3) == 0.547
    assert round(float(abattement("free_team4", 30)), 3) == 0.815


def test_cap_floor_and_index():
    """40 tables: 40 × 40 = 1600 → « plafonnées à 1500 »; the 2nd 1600 × 0.95 = 1520 → 1500 too, the 3rd
    1444. A regional final (indice 1,8, cap 3000): 3 tables: 120 × 1.8 = 216, 82 × 1.8 = 147.6 → 147, the
    floor 50 × 1.8 = 90; PP 3, 2, 1 then 0."""
    places = attribution("free", 40)
    assert [p.pcn for p in places[:3]] == [1500, 1500, 1444] and places[-1].pcn == 50
    assert all(p.pp == 0 for p in places)
    final = attribution("free", 3, championship="regional_final")
    assert [(p.pcn, p.pp) for p in final] == [(216, 3), (147, 2), (102, 1), (90, 0), (90, 0), (90, 0)]
    assert attribution("free", 40, championship="regional")[0].pcn == 1600  # cap 3000, indice 1


def test_minimum_sizes_and_places():
    """11 players (3 tables, one of 3): ⌈11 / 2⌉ = 6 places; 10 players, 5 duos, 4 teams: refused."""
    assert len(attribution("free", 3, entrants=11)) == 6
    assert len(attribution("free_duo", 3)) == 3  # 6 duos → 3 places
    assert len(attribution("free_team4", 5)) == 3  # 5 teams → 2.5 → 3
    for event, tables, entrants in (("free", 3, 10), ("free_duo", 3, 5), ("free_team4", 4, 4)):
        with pytest.raises(PcnError, match="au moins"):
            attribution(event, tables, entrants)
    with pytest.raises(PcnError):
        attribution("duplicate", 5)


def test_ex_aequo_share_rounded_up():
    """3 tables: 120, 82, 57, 50, 50, 50. Ranks 1, 2, 2, 4, 5, 6, 6: the two 2nds share 82 + 57 = 139 →
    69.5 → 70 each; the two 6ths share place 6 (50) and place 7 (none: 0) → 25, under the booklet's floor
    (« L'attribution minimale de Pcn est fixée à 50 PCN »): 50 each (issue 29 point 7). Two 8ths, past the
    last place with PCN: nothing. Regional PP: a tie for 1st shares 3 + 2 → 2.5 → 3 each."""
    table = attribution("free", 3)
    assert share_ties([1, 2, 2, 4, 5, 6, 6, 8, 8], table) == [
        (120, 0), (70, 0), (70, 0), (50, 0), (50, 0), (50, 0), (50, 0), (0, 0), (0, 0)]
    # three across the last place: (50 + 50 + 0) / 3 = 33.3 → 34, floored to 50; three on 4th, 5th, 6th: 50
    assert share_ties([1, 2, 3, 4, 5, 5, 5], table)[4:] == [(50, 0)] * 3
    assert share_ties([1, 2, 3, 3, 3], table)[2:] == [(53, 0)] * 3  # (57 + 50 + 50) / 3 = 52.3 → 53
    regional = attribution("free", 3, championship="regional")
    assert share_ties([1, 1, 3], regional)[:2] == [(101, 3), (101, 3)]  # (120 + 82) / 2 = 101


def test_refusals_word_for_word():
    """The minimum entrants (p. 44): « minimum 11 joueurs ; libre duo : minimum 6 duos ; libre par 4 :
    minimum 5 équipes »."""
    cases = [(("duplicate", 5), "épreuve « duplicate » : free, free_duo ou free_team4"),
             (("free", 5, None, "national"), "niveau « national » : regional, regional_semifinal ou regional_final"),
             (("free", 0, 12), "nombre de tables : 1 au moins"),
             (("free", 3, 10), "10 joueurs : il en faut 11 au moins pour un tournoi homologué"),
             (("free_duo", 3, 5), "5 duos : il en faut 6 au moins pour un tournoi homologué"),
             (("free_team4", 4, 4), "4 équipes de 4 : il en faut 5 au moins pour un tournoi homologué")]
    for args, message in cases:
        with pytest.raises(PcnError) as caught:
            attribution(*args)
        assert str(caught.value) == message


def test_one_table_is_enough_for_the_table_count():
    """The count of tables only needs to be 1 (the entrants are checked apart): 1 table, 11 entrants:
    ⌈11 / 2⌉ = 6 places, the first 40 × 1 = 40, under the floor: 50 each."""
    assert [p.pcn for p in attribution("free", 1, entrants=11)] == [50] * 6


def _csv_tournament(kind):
    """12 players, one deal at table 1: P1 takes a garde, 76 points with 1 bout: +300, P2 P3 P4 −100."""
    ids = [f"P{i}" for i in range(1, 13)]
    players = [{"id": i} for i in ids]
    players[0].update(licence="L001", name="DURAND")
    players[1].update(licence="L002")
    players[2].update(licence="L003", name="DUPUIS")
    players[4].update(licence=" 0042 ", name="DUPONT")
    players[5].update(licence="  ")
    players[11].update(licence="L012")
    data = {"kind": kind, "players": players, "pcn": True,
            "results": [{"table": 1, "position": 1, "deal": 1, "players": ids[:4], "taker": "P1",
                         "contract": "garde", "points": 76, "bouts": 1}]}
    return data


def test_federation_csv_individual():
    """The ranking of `test_pcn_in_the_ranking`: P1 1st, 120 PCN; the 8 at 0 share 2nd (289 / 8 = 36.1 → 37,
    under the floor: 50 each, issue 29 point 7), listed by
    id (P10, P11, P12, P5…); P2–P4 none (P3's licence is not listed). Lines only for a licence: P12 (L012),
    P5 (« 0042 », trimmed; a blank licence is none); the name, or the id when there is none."""
    from duplicate.core.freeplay.tournament import federation_csv, rank_free

    data = _csv_tournament("free")
    assert federation_csv(data, rank_free(data)) == (
        "Licence;Nom;Place;PCN;PP\nL001;DURAND;1;120;0\nL012;P12;2;50;0\n0042;DUPONT;2;50;0\n")


def test_federation_csv_duos():
    """6 duos D1 = P1 + P2 … D6 = P11 + P12 (3 tables): D1 +200, D2 −200, D3–D6 0. Duo at 3 tables:
    0.69² = 0.4761 → 0.5; 3 places: 120, 60, 50. D1 1st: 120 for each member; D3–D6 share places 2–5:
    (60 + 50) / 4 = 27.5 → 28, under the floor: 50 (issue 29 point 7); D2, 6th, none. One line a member with a licence, the team's place."""
    from duplicate.core.freeplay.tournament import federation_csv, rank_free

    data = _csv_tournament("free_duo")
    data["teams"] = [{"id": f"D{k}", "members": [f"P{2 * k - 1}", f"P{2 * k}"]} for k in range(1, 7)]
    answer = rank_free(data)
    assert [(r["id"], r["rank"], r["pcn"]) for r in answer["ranking"]] == [
        ("D1", 1, 120), ("D3", 2, 50), ("D4", 2, 50), ("D5", 2, 50), ("D6", 2, 50), ("D2", 6, 0)]
    assert federation_csv(data, answer) == (
        "Licence;Nom;Place;PCN;PP\nL001;DURAND;1;120;0\nL002;P2;1;120;0\n0042;DUPONT;2;50;0\nL012;P12;2;50;0\n")


def test_federation_csv_regional_points():
    """A regional final (×1,8; PP 3, 2, 1): P1 216 PCN and 3 PP; the 8 at 0 share 147 + 102 + 90 × 3 = 519
    → 65 and PP (2 + 1) / 8 → 1."""
    from duplicate.core.freeplay.tournament import federation_csv, rank_free

    data = _csv_tournament("free")
    data["pcn"] = {"championship": "regional_final"}
    assert federation_csv(data, rank_free(data)) == (
        "Licence;Nom;Place;PCN;PP\nL001;DURAND;1;216;3\nL012;P12;2;65;1\n0042;DUPONT;2;65;1\n")


def test_federation_csv_reads_the_ranking_as_given():
    """A line for PCN or PP (P2 has PP only: a line); a row with neither is skipped and the rows after it
    are still read; a ranked id that is no player (P9) or a team listed without members (D1) has no
    licence, hence no line; a file without « players » gives the header alone."""
    from duplicate.core.freeplay.tournament import federation_csv

    answer = {"ranking": [{"id": "P1", "rank": 1, "pcn": 10, "pp": 0},
                          {"id": "P3", "rank": 2, "pcn": 0, "pp": 0},
                          {"id": "P2", "rank": 3, "pcn": 0, "pp": 2},
                          {"id": "P9", "rank": 4, "pcn": 8, "pp": 0},
                          {"id": "D1", "rank": 5, "pcn": 5, "pp": 0}]}
    data = {"players": [{"id": "P1", "licence": "L1"}, {"id": "P2", "licence": "L2", "name": "MARTIN"},
                        {"id": "P3", "licence": "L3"}],
            "teams": [{"id": "D1"}]}
    assert federation_csv(data, answer) == "Licence;Nom;Place;PCN;PP\nL1;P1;1;10;0\nL2;MARTIN;3;0;2\n"
    assert federation_csv({}, answer) == "Licence;Nom;Place;PCN;PP\n"
