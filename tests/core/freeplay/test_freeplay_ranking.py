"""The free-play ranking (`duplicate.core.freeplay.ranking`, `.tournament`): booklet chapter 1 p. 9,
chapter 3 art. 26, 27, 29 — vectors derived by hand in the comments."""

import copy

import pytest

from duplicate.core.freeplay.ranking import Entry, ScoredDeal, entries, lateness_penalty, rank_entries, team_entries
from duplicate.core.freeplay.tournament import FreePlayError, rank_free
from duplicate.core.scoring import Contract


@pytest.mark.parametrize("minutes, points", [(0, 0), (1, 100), (5, 100), (6, 200), (10, 200), (11, 300),
                                             (15, 300), (16, 400)])
def test_art_26_lateness(minutes, points):
    """« 100 points d'abaissement par fraction de 5 minutes de retard »: a started fraction counts."""
    assert lateness_penalty(minutes) == points


def _ranked(deals, players="ABCD", **kw):
    return [(e.id, e.total, e.rank) for e in rank_entries(entries(players, deals, **kw))]


def test_art_29_best_position_then_contracts_then_sur_contrats():
    """A and B both end on 0. A's positions: +300, −300; B's: +200, −200 → A first (best position).
    C and D: +100 and −100 each at two positions, same best; C made 2 contracts, D 1 → C first."""
    deals = [ScoredDeal(1, {"A": 300, "B": 200}), ScoredDeal(2, {"A": -300, "B": -200})]
    assert _ranked(deals, "AB") == [("A", 0, 1), ("B", 0, 2)]
    deals = [ScoredDeal(1, {"C": 100}, "C", Contract.PRISE, True),
             ScoredDeal(1, {"C": 0}, "C", Contract.PRISE, True),
             ScoredDeal(2, {"C": -100}, "C", Contract.PRISE, False),
             ScoredDeal(1, {"D": 100}, "D", Contract.GARDE, True),
             ScoredDeal(2, {"D": -100})]
    assert _ranked(deals, "CD") == [("C", 0, 1), ("D", 0, 2)]


def test_art_29_sur_contrats_by_height():
    """Same totals, bests and contracts made (1 each): E made a Garde Contre, F a Garde Sans, G a Garde
    → E (the higher sur-contrat), F, G. H like G: G and H share 3rd (« ex æquo »)."""
    deals = [ScoredDeal(1, {p: 50}, p, c, True) for p, c in
             (("E", Contract.GARDE_CONTRE), ("F", Contract.GARDE_SANS), ("G", Contract.GARDE), ("H", Contract.GARDE))]
    assert _ranked(deals, "EFGH") == [("E", 50, 1), ("F", 50, 2), ("G", 50, 3), ("H", 50, 3)]


def test_art_27_withdrawn_last_and_penalty():
    """A withdrew with the best total: ranked last; B's 100-point penalty puts him under C."""
    deals = [ScoredDeal(1, {"A": 500, "B": 150, "C": 100, "D": -750})]
    assert _ranked(deals, penalties={"B": 100}, withdrawn=["A"]) == [
        ("C", 100, 1), ("B", 50, 2), ("D", -750, 3), ("A", 500, 4)]


# The booklet's feuille de marque (p. 9): table 3, position 1, the five examples, takers E, W, S, N, S.
SHEET = {
    "format": "tarot-tournament/1", "kind": "free", "name": "15 août 2008",
    "players": [{"id": i, "name": n} for i, n in
                (("N3", "DURAND"), ("S3", "DUPONT"), ("E3", "DUBOIS"), ("W3", "DESPRES"))],
    "movement": {"format": "tarot-movement/1", "kind": "free", "tables": 1, "positions": 1,
                 "rounds": [{"position": 1, "table": 3, "seats": {"N": "N3", "S": "S3", "E": "E3", "W": "W3"}}]},
    "results": [
        {"table": 3, "position": 1, "deal": 1, "taker": "E3", "contract": "garde", "points": 49, "bouts": 2,
         "poignees": ["simple"], "petit_au_bout": "taker", "chelem": None, "partner": None},
        {"table": 3, "position": 1, "deal": 2, "taker": "W3", "contract": "garde_sans", "points": 45, "bouts": 2,
         "petit_au_bout": "defence"},
        {"table": 3, "position": 1, "deal": 3, "taker": "S3", "contract": "prise", "points": 44, "bouts": 1,
         "poignees": ["simple"], "petit_au_bout": "taker"},
        {"table": 3, "position": 1, "deal": 4, "taker": "N3", "contract": "garde", "points": 52, "bouts": 2,
         "poignees": ["simple"]},
        {"table": 3, "position": 1, "deal": 5, "taker": "S3", "contract": "garde", "points": 87, "bouts": 2,
         "poignees": ["simple"], "petit_au_bout": "taker", "chelem": "announced_made"},
        {"table": 3, "position": 1, "deal": 6, "passed": True},
    ],
}


def test_booklet_sheet_ranked():
    """Bilans read on the sheet: N −446, S 1346, E −390, W −510 → S, E, N, W. The passed deal marks 0.
    Contracts made: S 1 (deal 5; deal 3 failed), E 1, N 1, W 1."""
    out = rank_free(copy.deepcopy(SHEET))
    assert [(r["id"], r["total"], r["rank"]) for r in out["ranking"]] == [
        ("S3", 1346, 1), ("E3", -390, 2), ("N3", -446, 3), ("W3", -510, 4)]
    assert out["results"][0]["scores"] == {"E3": 318, "N3": -106, "S3": -106, "W3": -106}
    assert out["results"][5]["scores"] == {"N3": 0, "S3": 0, "E3": 0, "W3": 0}
    assert all(sum(r["scores"].values()) == 0 for r in out["results"])
    assert {r["id"]: r["contracts_made"] for r in out["ranking"]} == {"S3": 1, "E3": 1, "N3": 1, "W3": 1}
    assert {r["id"]: r["best_position"] for r in out["ranking"]}["S3"] == 1346


def test_tables_of_3_and_5_in_a_file():
    """Table 1 at 3 (N empty): garde 41½ with 2 bouts → 42, made by 1: 52; taker S1 +104.
    Table 2 at 5 with a partner: garde 49, 2 bouts: (25 + 8) × 2 = 66; taker 132, partner 66, 3 × −66.
    Table 2 deal 2, a mort: prise 56 with 1 bout: 25 + 5 = 30 at 4: taker 90, mort 0."""
    data = {
        "kind": "free", "players": [{"id": p} for p in ("S1", "E1", "W1", "A", "B", "C", "D", "X")],
        "movement": {"rounds": [{"position": 1, "table": 1, "seats": {"N": None, "S": "S1", "E": "E1", "W": "W1"}}]},
        "results": [
            {"table": 1, "position": 1, "deal": 1, "taker": "S1", "contract": "garde", "points": 41.5, "bouts": 2},
            {"table": 2, "position": 1, "deal": 1, "players": ["A", "B", "C", "D", "X"], "taker": "A",
             "partner": "B", "contract": "garde", "points": 49, "bouts": 2},
            {"table": 2, "position": 1, "deal": 2, "players": ["A", "B", "C", "D", "X"], "taker": "C",
             "dead": "X", "contract": "prise", "points": 56, "bouts": 1},
        ],
    }
    out = rank_free(data)
    assert out["results"][0]["scores"] == {"S1": 104, "E1": -52, "W1": -52}
    assert out["results"][1]["scores"] == {"A": 132, "B": 66, "C": -66, "D": -66, "X": -66}
    assert out["results"][2]["scores"] == {"C": 90, "A": -30, "B": -30, "D": -30, "X": 0}
    totals = {r["id"]: r["total"] for r in out["ranking"]}
    assert totals == {"S1": 104, "E1": -52, "W1": -52, "A": 102, "B": 36, "C": 24, "D": -96, "X": -66}


def test_duo_teams_and_lateness():
    """Duo T1 = N3 + S3: −446 + 1346 = 900, N3 late 7 minutes (200) → 700; T2 = E3 + W3 = −900."""
    data = copy.deepcopy(SHEET)
    data["kind"] = "free_duo"
    data["teams"] = [{"id": "T1", "members": ["N3", "S3"]}, {"id": "T2", "members": ["E3", "W3"]}]
    data["penalties"] = [{"player": "N3", "late_minutes": 7}]
    out = rank_free(data)
    assert [(r["id"], r["total"], r["penalty"], r["rank"]) for r in out["ranking"]] == [
        ("T1", 700, 200, 1), ("T2", -900, 0, 2)]
    # players: S3 1346, E3 −390, W3 −510, N3 −446 − 200 = −646 (4th)
    assert out["players"][3] == {"id": "N3", "total": -646, "points": -446, "penalty": 200,
                                 "best_position": -446, "contracts_made": 1, "rank": 4}


@pytest.mark.parametrize("change, message", [
    (lambda d: d["results"][0].update(taker="ZZ"), "résultat n° 1 .*preneur « ZZ » absent"),
    (lambda d: d["results"][1].update(points=40.5), "résultat n° 2 .*entiers"),
    (lambda d: d["results"].append(dict(d["results"][0])), "résultat n° 7 .*deux fois"),
    (lambda d: d["results"][0].update(table=4), "résultat n° 1 .*ni « players » ni mouvement"),
    (lambda d: d["results"][0].update(partner="N3"), "partenaire appelé"),
    (lambda d: d["results"][0].update(contract="grande"), "contrat inconnu"),
    (lambda d: d["results"][0].update(dead="N3"), "donne à 3 joueurs avec un mort"),  # a mort at 4
    (lambda d: d.update(kind="individual"), "free, free_duo ou free_team4"),
    (lambda d: d["penalties"].append({"player": "Q"}), "pénalité n° 1 : joueur inconnu"),
])
def test_refusals_name_the_result(change, message):
    data = copy.deepcopy(SHEET)
    data["penalties"] = []
    change(data)
    with pytest.raises(FreePlayError, match=message):
        rank_free(data)


def test_pcn_in_the_ranking():
    """12 players (3 tables), one deal: P1 takes a garde, 76 points with 1 bout: (25 + 25) × 2 = 100, so
    P1 +300, P2 P3 P4 −100; the other 8 play no deal (0). Ranking: P1 1st; the 8 at 0 share places 2–9;
    P2–P4 10th. 3 tables: 120, 82, 57, 50, 50, 50 for places 1–6: the 8 at 0 share 82 + 57 + 50 × 3 = 289
    (places 7–9 have none) → 36.125 → 37, under the floor of 50: 50 each (issue 29 point 7); P2–P4 nothing. A regional final (×1.8, PP 3, 2, 1): P1 216
    and 3 PP; the 8 share 147 + 102 + 90 × 3 = 519 → 64.875 → 65, and PP (2 + 1) / 8 → 1 (rounded up)."""
    ids = [f"P{i}" for i in range(1, 13)]
    data = {"kind": "free", "players": [{"id": i} for i in ids], "pcn": True,
            "results": [{"table": 1, "position": 1, "deal": 1, "players": ids[:4], "taker": "P1",
                         "contract": "garde", "points": 76, "bouts": 1}]}
    rows = {row["id"]: row for row in rank_free(data)["ranking"]}
    assert rows["P1"]["total"] == 300 and (rows["P1"]["pcn"], rows["P1"]["pp"]) == (120, 0)
    assert {rows[f"P{i}"]["pcn"] for i in range(5, 13)} == {50}
    assert {rows[p]["pcn"] for p in ("P2", "P3", "P4")} == {0} and rows["P2"]["rank"] == 10
    data["pcn"] = {"championship": "regional_final"}
    rows = {row["id"]: row for row in rank_free(data)["ranking"]}
    assert (rows["P1"]["pcn"], rows["P1"]["pp"]) == (216, 3)
    assert (rows["P5"]["pcn"], rows["P5"]["pp"]) == (65, 1)
    data["players"] = data["players"][:10]  # 10 players: below the 11 of an homologated tournament
    data["results"][0]["players"] = ids[:4]
    out = rank_free(data)
    assert "11 au moins" in out["pcn_refused"] and "pcn" not in out["ranking"][0]
    data["pcn"] = "oui"
    with pytest.raises(FreePlayError, match="« pcn »"):
        rank_free(data)


def test_a_player_in_two_teams_is_refused():
    data = copy.deepcopy(SHEET)
    data["kind"] = "free_duo"
    data["teams"] = [{"id": "T1", "members": ["N3", "S3"]}, {"id": "T2", "members": ["S3", "W3"]}]
    with pytest.raises(FreePlayError, match="équipe « T2 » : S3 figure dans deux équipes"):
        rank_free(data)


def test_art_29_counts_every_sur_contrat():
    """Totals, bests (50 at position 1) and contracts made (2) equal. A made a Garde Contre then a Garde,
    B two Gardes: A has one sur-contrat, B none → A first. C made a Garde Sans then a Garde, D two Gardes
    → C first. The count is the number of sur-contrats made, not the last deal's."""
    for sur in (Contract.GARDE_CONTRE, Contract.GARDE_SANS):
        deals = [ScoredDeal(1, {"A": 25}, "A", sur, True), ScoredDeal(1, {"A": 25}, "A", Contract.GARDE, True),
                 ScoredDeal(1, {"B": 25}, "B", Contract.GARDE, True), ScoredDeal(1, {"B": 25}, "B", Contract.GARDE, True)]
        assert _ranked(deals, "AB") == [("A", 50, 1), ("B", 50, 2)]
    table = entries("A", [ScoredDeal(1, {"A": 0}, "A", Contract.GARDE_CONTRE, True),
                          ScoredDeal(2, {"A": 0}, "A", Contract.GARDE_CONTRE, True),
                          ScoredDeal(2, {"A": 0}, "A", Contract.GARDE_SANS, True),
                          ScoredDeal(3, {"A": 0}, "A", Contract.GARDE_SANS, True),
                          ScoredDeal(3, {"A": 0}, "A", Contract.GARDE_SANS, False)])
    assert (table["A"].made, table["A"].garde_contre_made, table["A"].garde_sans_made) == (4, 2, 2)


def test_all_equal_share_the_first_place():
    """Three players with nothing to tell them apart (« ex æquo »): all three are 1st."""
    deals = [ScoredDeal(1, {"A": 0, "B": 0, "C": 0})]
    assert _ranked(deals, "ABC") == [("A", 0, 1), ("B", 0, 1), ("C", 0, 1)]


def test_team_entry_sums_its_members():
    """« Le tournoi libre par équipes »: the members' « scores sont cumulés ». Team X = a + b: a +100 at
    position 1 and −50 at position 2, made 2 (one Garde Contre, one Garde Sans); b +30 and +20, made 1 (a
    Garde Contre); b withdrew (art. 27: the team is last). X: positions 130 and −30, total 100, penalty
    10 + 5 = 15, made 3, Gardes Contre 2, Gardes Sans 1, withdrawn. Team Y = c + d (positions −60 and −40),
    nobody withdrawn; team Z = e + f, e withdrawn, listed first: Z is withdrawn whichever member withdrew.
    Ranked: Y (−100), then the withdrawn X (85) and Z (0)."""
    players = {
        "a": Entry("a", points=50, penalty=10, positions={1: 100, 2: -50}, made=2, garde_contre_made=1,
                   garde_sans_made=1),
        "b": Entry("b", points=50, penalty=5, positions={1: 30, 2: 20}, made=1, garde_contre_made=1,
                   withdrawn=True),
        "c": Entry("c", points=-60, positions={1: -60}),
        "d": Entry("d", points=-40, positions={2: -40}),
        "e": Entry("e", withdrawn=True), "f": Entry("f"),
    }
    teams = team_entries({"X": ["a", "b"], "Y": ["c", "d"], "Z": ["e", "f"]}, players)
    x = teams["X"]
    assert (x.points, x.penalty, x.total, x.positions, x.best_position) == (100, 15, 85, {1: 130, 2: -30}, 130)
    assert (x.made, x.garde_contre_made, x.garde_sans_made, x.withdrawn) == (3, 2, 1, True)
    assert (teams["Y"].positions, teams["Y"].withdrawn, teams["Z"].withdrawn) == ({1: -60, 2: -40}, False, True)
    assert [(e.id, e.rank) for e in rank_entries(teams)] == [("Y", 1), ("X", 2), ("Z", 3)]


def test_team_best_position_decides():
    """Two duos of equal total 0 (art. 29 with the members' bilans summed by position): U = u1 (+200 at
    position 1, −100 at 2) + u2 (+100 at 1, −200 at 2): positions +300 and −300; V = v1 (+200 at 1, −200
    at 2) + v2 (−100 at 1, +100 at 2): +100 and −100. U's best position (300) ranks it first; a member's
    best alone (200 each) would not tell them apart."""
    deals = [ScoredDeal(1, {"u1": 200, "u2": 100, "v1": 200, "v2": -100}),
             ScoredDeal(2, {"u1": -100, "u2": -200, "v1": -200, "v2": 100})]
    players = entries(["u1", "u2", "v1", "v2"], deals)
    teams = team_entries({"V": ["v1", "v2"], "U": ["u1", "u2"]}, players)
    assert [(e.id, e.total, e.best_position, e.rank) for e in rank_entries(teams)] == [("U", 0, 300, 1), ("V", 0, 100, 2)]


def test_pcn_options_in_the_file():
    """13 players make 4 tables (one of 3, ⌈13 / 4⌉): the first gets 40 × 4 = 160 PCN; « tables »: 5
    given → 200. P1 takes a garde, 76 points with 1 bout: +300."""
    ids = [f"P{i}" for i in range(1, 14)]
    data = {"kind": "free", "players": [{"id": i} for i in ids], "pcn": True,
            "results": [{"table": 1, "position": 1, "deal": 1, "players": ids[:4], "taker": "P1",
                         "contract": "garde", "points": 76, "bouts": 1}]}
    assert rank_free(copy.deepcopy(data))["ranking"][0]["pcn"] == 160
    data["pcn"] = {"tables": 5}
    assert rank_free(copy.deepcopy(data))["ranking"][0]["pcn"] == 200
    for asked, message in (("oui", "« pcn » : true ou {\"championship\": …, \"tables\": …} attendu"),
                           ({"tables": "4"}, "« pcn » : « tables » (entier) attendu"),
                           ({"championship": 3}, "« pcn » : « championship » (texte) attendu")):
        data["pcn"] = asked
        with pytest.raises(FreePlayError) as caught:
            rank_free(copy.deepcopy(data))
        assert str(caught.value) == message


def test_withdrawn_row():
    """Art. 27: W3 (−510) withdrew at position 2: last, and his row says so; the others' rows do not."""
    data = copy.deepcopy(SHEET)
    data["players"][3]["withdrawn"] = {"position": 2}
    rows = rank_free(data)["ranking"]
    assert rows[-1] == {"id": "W3", "total": -510, "points": -510, "penalty": 0, "best_position": -510,
                        "contracts_made": 1, "rank": 4, "withdrawn": True}
    assert all("withdrawn" not in row for row in rows[:-1])


def _refusal(data):
    with pytest.raises(FreePlayError) as caught:
        rank_free(data)
    return str(caught.value)


def _with_players(*extra):
    data = copy.deepcopy(SHEET)
    data["players"] += [{"id": p} for p in extra]
    return data


R1 = "résultat n° 1 (table 3, position 1, donne 1)"
R2 = "résultat n° 2 (table 3, position 1, donne 2)"


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(players="N3"), "« joueur » : liste attendue"),
    (lambda d: d["players"].__setitem__(1, {"name": "DUPONT"}), "joueur n° 2 : « id » (texte) attendu"),
    (lambda d: d["players"].append({"id": "N3"}), "joueur n° 5 : identifiant « N3 » en double"),
    (lambda d: d.update(movement={"rounds": "x"}), "mouvement illisible : « rounds » (liste) attendu"),
    (lambda d: d.update(results={}), "« results » : liste attendue"),
    (lambda d: d["results"].__setitem__(1, "donne 2"), "résultat n° 2 : objet attendu"),
    (lambda d: d["results"][0].update(deal=0),
     "résultat n° 1 : « position », « table » et « deal » : entiers positifs attendus"),
    (lambda d: d["results"][1].update(players="N3"), f"{R2} : « players » : liste d’identifiants attendue"),
    (lambda d: d.pop("movement"), f"{R1} : ni « players » ni mouvement pour dire qui joue à cette table"),
    (lambda d: d["results"][1].update(players=["N3", "S3", "E3", "ZZ"]), f"{R2} : joueur inconnu « ZZ »"),
    (lambda d: d["results"][1].update(players=["N3", "N3", "S3", "E3"]),
     f"{R2} : table de 4 joueurs : 3, 4 ou 5 joueurs distincts attendus"),
    (lambda d: d["results"][1].update(partner=5), f"{R2} : partenaire : identifiant (texte) attendu"),
    (lambda d: d["results"][1].update(partner="ZZ"), f"{R2} : partenaire « ZZ » absent de la table (N3, S3, E3, W3)"),
    (lambda d: d["results"][1].update(dead="ZZ"), f"{R2} : mort « ZZ » absent de la table (N3, S3, E3, W3)"),
    (lambda d: d["results"][1].pop("taker"), f"{R2} : « taker » manquant (ou « passed »: true si tous ont passé)"),
    (lambda d: d["results"][1].update(partner="N3"), f"{R2} : un partenaire appelé seulement quand cinq joueurs jouent"),
    (lambda d: d["results"][1].update(poignees="simple"), f"{R2} : « poignees » : liste attendue (simple, double, triple)"),
])
def test_file_refusals_word_for_word(change, message):
    data = copy.deepcopy(SHEET)
    change(data)
    assert _refusal(data) == message


def test_file_refusals_of_tables_and_teams_word_for_word():
    """Six players at a table; N3 at tables 3 and 4 at position 1; duo teams: not a list, a team of 2
    with an unknown member, a member twice."""
    data = _with_players("A", "B", "C")
    data["results"][1]["players"] = ["N3", "S3", "E3", "W3", "A", "B"]
    assert _refusal(data) == f"{R2} : table de 6 joueurs : 3, 4 ou 5 joueurs distincts attendus"
    data = _with_players("A", "B", "C")
    data["results"].append({"table": 4, "position": 1, "deal": 1, "players": ["N3", "A", "B", "C"], "passed": True})
    assert _refusal(data) == "résultat n° 7 (table 4, position 1, donne 1) : N3 joue aussi à la table 3 à cette position"
    data = copy.deepcopy(SHEET)
    data["kind"] = "free_duo"
    data["teams"] = "T1"
    assert _refusal(data) == "« équipe » : liste attendue"
    data["teams"] = [{"id": "T1", "members": ["N3", "ZZ"]}]
    assert _refusal(data) == "équipe « T1 » : 2 membres (joueurs connus) attendus"
    data["teams"] = [{"id": "T1", "members": ["N3", "N3"]}]
    assert _refusal(data) == "équipe « T1 » : un joueur figure dans deux équipes ou deux fois"


def test_a_duo_file_whose_scorer_is_in_no_team_is_refused():
    """Libre duo on the booklet's sheet with a fifth player A: teams NS1 = N3 + S3 and EW1 = E3 + A; W3 plays
    the six deals but is in no team — his marks would count for nobody (« les joueurs d'une équipe cumulent
    leurs points »): refused, naming him. With W3 and A swapped, A is in no team but never plays: ranked,
    the teams' totals being their members' (N3 −446 + S3 1346 = 900, E3 −390 + W3 −510 = −900). With no
    team at all (and deals played) the teams are what is missing: the message says so."""
    data = _with_players("A")
    data["kind"] = "free_duo"
    data["teams"] = [{"id": "NS1", "members": ["N3", "S3"]}, {"id": "EW1", "members": ["E3", "A"]}]
    assert _refusal(data) == ("joueur W3 : joue sans être membre d’une équipe (dans un tournoi par équipes, "
                              "chaque joueur marque pour son équipe)")
    data["teams"] = []   # nobody in a team: the teams are what is missing
    assert _refusal(data) == "« teams » : les équipes de 2 joueurs sont attendues"
    data["kind"] = "free_team4"
    assert _refusal(data) == "« teams » : les équipes de 4 joueurs sont attendues"
    data["kind"] = "free_duo"
    data["teams"] = [{"id": "NS1", "members": ["N3", "S3"]}, {"id": "EW1", "members": ["E3", "W3"]}]
    out = rank_free(data)
    assert [(r["id"], r["total"], r["rank"]) for r in out["ranking"]] == [("NS1", 900, 1), ("EW1", -900, 2)]


def test_coefficients_are_refused_in_a_team_file():
    """The coefficients between positions are the regional championship's, an individual tournament (art. 3):
    a libre duo file that gives some is refused, word for word."""
    data = copy.deepcopy(SHEET)
    data["kind"] = "free_duo"
    data["teams"] = [{"id": "NS1", "members": ["N3", "S3"]}, {"id": "EW1", "members": ["E3", "W3"]}]
    data["coefficients"] = [{"position": 2, "coefficient": "1,15", "eliminated": 0}]
    assert _refusal(data) == "« coefficients » : prévus pour le tournoi individuel (championnat, art. 3)"


def test_a_taker_calling_himself_at_four_plays_alone():
    """« s'il s'est appelé »: partner = taker is no partner; deal 1 of the sheet is unchanged (E3 +318)."""
    data = copy.deepcopy(SHEET)
    data["results"][0]["partner"] = "E3"
    out = rank_free(data)
    assert out["kind"] == "free"
    assert out["results"][0]["scores"] == {"E3": 318, "N3": -106, "S3": -106, "W3": -106}


def test_art_29_sur_contrat_read_from_the_file():
    """Two tables at position 1, no movement. A: garde sans 56 points without a bout, made by 0: (25 + 0)
    × 4 = 100, A +300. B: garde 76 with 1 bout, made by 25: (25 + 25) × 2 = 100, B +300. Same total, best
    position (300) and contracts made (1): A's garde sans is a sur-contrat → A 1st, B 2nd in a championship
    (art. 29); in a club tournament both are 1st (booklet ch. 5 « Ex-aequo »)."""
    ids = ["A", "a1", "a2", "a3", "B", "b1", "b2", "b3"]
    data = {"kind": "free", "players": [{"id": i} for i in ids], "results": [
        {"table": 1, "position": 1, "deal": 1, "players": ids[:4], "taker": "A", "contract": "garde_sans",
         "points": 56, "bouts": 0},
        {"table": 2, "position": 1, "deal": 1, "players": ids[4:], "taker": "B", "contract": "garde",
         "points": 76, "bouts": 1}]}
    rows = rank_free({**data, "championship": True})["ranking"]
    assert [(r["id"], r["total"], r["rank"]) for r in rows[:2]] == [("A", 300, 1), ("B", 300, 2)]
    rows = rank_free(data)["ranking"]
    assert [(r["id"], r["total"], r["rank"]) for r in rows[:2]] == [("A", 300, 1), ("B", 300, 1)]


def test_sheet_marks_one_feuille_de_marque():
    """One sheet scored alone (what the web's feuille de marque shows): the booklet's 1st example, E3
    takes, garde with a poignée and the petit au bout, 49 points with 2 bouts: (25 + 8) × 2 + 20 + 20 = 106,
    E3 +318 (« le preneur marque trois fois ce total »), the defenders −106; everyone passed: 0 for all.
    At 3 players the same garde without the bonuses, (25 + 8) × 2 = 66, the taker ×2: +132, −66, −66."""
    from duplicate.core.freeplay.tournament import sheet_marks

    people = ["N3", "S3", "E3", "W3"]
    first = {key: value for key, value in SHEET["results"][0].items() if key not in ("table", "position")}
    assert sheet_marks(people, [first, {"deal": 2, "passed": True}]) == [
        {"E3": 318, "N3": -106, "S3": -106, "W3": -106}, {"N3": 0, "S3": 0, "E3": 0, "W3": 0}]
    assert sheet_marks(["A", "B", "C"], [{"taker": "A", "contract": "garde", "points": 49, "bouts": 2}]) == [
        {"A": 132, "B": -66, "C": -66}]
    assert sheet_marks(people, []) == []


def test_sheet_marks_names_the_faulty_deal():
    """The deal's place in the list (from 1) before the core's message, word for word."""
    from duplicate.core.freeplay.tournament import sheet_marks
    from duplicate.core.scoring import ScoreError

    deals = [{"passed": True}, {"taker": "ZZ", "contract": "garde", "points": 49, "bouts": 2}]
    with pytest.raises(ScoreError) as caught:
        sheet_marks(["N3", "S3", "E3", "W3"], deals)
    assert str(caught.value) == "donne 2 : preneur « ZZ » absent de la table (N3, S3, E3, W3)"
    with pytest.raises(ScoreError) as caught:
        sheet_marks(["N3", "S3", "E3", "W3"], [{"taker": "E3", "contract": "garde", "points": 92, "bouts": 2}])
    assert str(caught.value) == "donne 1 : nombre de points impossible : 92 (0 à 91, par demi-points)"
