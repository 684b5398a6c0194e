"""The tournament file (SPEC §9): reading, French errors naming the line, ranking output."""

import json

import pytest

from duplicate.core.tournament import TournamentError, load_tournament, locate_entries, ranking_output

PLAYERS = [{"id": f"{line}{table}", "name": f"JOUEUR {line}{table}", "line": line}
           for table in (1, 2, 3, 4, 5) for line in "NSEW"]


def individual(results, **extra):
    return {"format": "tarot-tournament/1", "name": "Essai", "kind": "individual",
            "players": PLAYERS, "results": results, **extra}


def result(board, table, score, taker=None, **extra):
    taker = taker or f"N{table}"
    return {"board": board, "table": table, "taker": taker,
            "defenders": [f"{line}{table}" for line in "NSEW" if f"{line}{table}" != taker], "score": score, **extra}


def text(data):
    """One result per line, as a person or another program would write it."""
    head = {k: v for k, v in data.items() if k != "results"}
    lines = json.dumps(head, ensure_ascii=False)[:-1] + ', "results": [\n'
    lines += ",\n".join(json.dumps(r, ensure_ascii=False) for r in data.get("results", []))
    return lines + "\n]}\n"


SEED_BOARD = [result(1, 1, 56), result(1, 5, 62), result(1, 4, -56), result(1, 3, -52), result(1, 2, 50)]


def test_seed_board_through_the_file():
    output = ranking_output(load_tournament(text(individual(SEED_BOARD))))
    notes = {row["table"]: (row["taker_note"], row["defence_note"]) for row in output["boards"][0]["results"]}
    assert notes == {1: (75.0, 25.0), 5: (100.0, 0.0), 4: (0.0, 100.0), 3: (25.0, 75.0), 2: (50.0, 50.0)}
    by_id = {row["id"]: row for row in output["ranking"]}
    assert by_id["N5"]["attack"] == 100.0 and by_id["N5"]["global"] == 100.0 and by_id["N5"]["rank"] == 1
    assert by_id["S4"]["defence"] == 100.0 and by_id["S4"]["attack"] is None and by_id["S4"]["flagged"]


def test_locate_entries_gives_line_numbers():
    lines = locate_entries(text(individual(SEED_BOARD)))
    assert lines["results"] == [2, 3, 4, 5, 6]


@pytest.mark.parametrize("bad, fragment", [
    (result(2, 1, 31), "ligne 3 : résultat n° 2 : score +31 impossible pour une Garde"),
    ({**result(2, 1, 56), "taker": "X9"}, "ligne 3 : résultat n° 2 : joueur inconnu « X9 »"),
    (result(1, 1, 60), "ligne 3 : résultat n° 2 (étui 1, table 1) : l’étui 1 a déjà un score"),
    ({**result(1, 2, 60), "defenders": ["S1", "E2", "W2"]}, "« S1 » joue l’étui 1 une deuxième fois"),
    ({"board": 1, "table": 2, "taker": "N2", "defenders": ["S2", "E2"], "score": 60}, "trois défenseurs"),
    ({"board": 1, "table": 2, "taker": "N2", "defenders": ["S2", "E2", "W2"]}, "score manquant"),
    ({"board": 1, "table": 2, "taker": "N2", "defenders": ["S2", "E2", "W2"], "score": "56"}, "nombre entier"),
])
def test_faulty_result_is_named_by_line(bad, fragment):
    with pytest.raises(TournamentError) as error:
        load_tournament(text(individual([result(1, 1, 56), bad])))
    assert fragment in str(error.value)
    assert error.value.line == 3


def test_malformed_json_names_line_and_column():
    with pytest.raises(TournamentError, match=r"ligne 2 : JSON mal formé"):
        load_tournament('{"kind": "individual",\n "players": [}')


def test_unknown_kind_and_non_object():
    with pytest.raises(TournamentError, match="type de tournoi inconnu"):
        load_tournament('{"kind": "libre"}')
    with pytest.raises(TournamentError, match="objet JSON"):
        load_tournament("[1, 2]")


def test_movement_check_refuses_a_table_that_should_not_play_the_board():
    movement = {"format": "tarot-movement/1", "rounds": [{"position": 1, "table": 1, "boards": [1, 2]}]}
    with pytest.raises(TournamentError, match="le mouvement n’envoie pas l’étui 1 à la table 2"):
        load_tournament(text(individual([result(1, 1, 56), result(1, 2, 60)], movement=movement)))


def test_annulled_adjusted_arbitral_notes_and_penalties():
    results = [result(1, 1, 56), result(1, 2, 62, annulled=True), result(1, 3, -52, adjusted=True),
               {**result(1, 4, None), "notes": {"taker": 60, "defence": 40}}]
    data = individual(results, penalties=[{"player": "N1", "points": 2.5, "reason": "retard"}])
    output = ranking_output(load_tournament(text(data)))
    rows = {row["table"]: row for row in output["boards"][0]["results"]}
    assert rows[2]["annulled"] and rows[2]["taker_note"] is None
    assert rows[3]["adjusted"] and rows[3]["taker_note"] == 0.0 and rows[1]["taker_note"] == 100.0
    assert rows[4]["arbitral_note"] and rows[4]["taker_note"] == 60.0
    n1 = next(row for row in output["ranking"] if row["id"] == "N1")
    assert n1["global"] == 97.5 and n1["penalty"] == 2.5


def test_triplettes_file():
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(12)]
    teams = [{"id": "NS1", "line": "NS", "members": ["p0", "p1", "p2"]},
             {"id": "EW1", "line": "EW", "members": ["p3", "p4", "p5"]},
             {"id": "NS2", "line": "NS", "members": ["p6", "p7", "p8"]},
             {"id": "EW2", "line": "EW", "members": ["p9", "p10", "p11"]}]
    results = [{"board": 1, "table": 1, "taker_team": "NS1", "defence_team": "EW1", "score": 56},
               {"board": 1, "table": 2, "taker_team": "NS2", "defence_team": "EW2", "score": 80},
               {"board": 2, "table": 1, "taker_team": "EW1", "defence_team": "NS1", "score": 60},
               {"board": 2, "table": 2, "taker_team": "EW2", "defence_team": "NS2", "score": -52}]
    data = {"kind": "triplettes", "players": players, "teams": teams, "results": results}
    output = ranking_output(load_tournament(json.dumps(data)))
    ranks = {row["id"]: (row["global"], row["rank"], row["alternated_rank"]) for row in output["ranking"]}
    # NS2 and EW1: attack 100, defence 100; NS1 and EW2: 0 and 0 — ex æquo in pairs
    assert ranks == {"NS2": (100.0, 1, 1), "EW1": (100.0, 1, 1), "NS1": (0.0, 3, 3), "EW2": (0.0, 3, 3)}
    bad = dict(data, teams=teams[:3] + [{"id": "EW2", "members": ["p9", "zz"]}])
    with pytest.raises(TournamentError, match="joueur inconnu « zz »"):
        load_tournament(json.dumps(bad))


def _quadrettes(results):
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(8)]
    teams = [{"id": "Q1", "members": ["p0", "p1", "p2", "p3"]}, {"id": "Q2", "members": ["p4", "p5", "p6", "p7"]}]
    return json.dumps({"kind": "quadrettes", "players": players, "teams": teams, "results": results})


def test_quadrettes_file_and_seed_examples():
    results = [{"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82},
               {"board": 1, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": 66},
               {"board": 2, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": -68},
               {"board": 2, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": -58}]
    output = ranking_output(load_tournament(_quadrettes(results)))
    assert output["ranking"] == [{"id": "Q1", "name": "Q1", "pm": 0.838, "rank": 1},
                                 {"id": "Q2", "name": "Q2", "pm": -0.838, "rank": 2}]
    assert output["boards"][0]["results"][0]["pm"] == 4.0


def test_quadrette_attacking_a_board_twice_is_refused():
    results = [{"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82},
               {"board": 1, "table": 2, "taker_team": "Q1", "defence_team": "Q2", "score": 66}]
    with pytest.raises(TournamentError, match="« Q1 » joue l’étui 1 une deuxième fois"):
        load_tournament(_quadrettes(results))


def test_team_match_file_checks_contracts_and_adds_bonus():
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(8)]
    teams = [{"id": "A", "members": ["p0", "p1", "p2", "p3"], "bonus": 2},
             {"id": "B", "members": ["p4", "p5", "p6", "p7"]}]
    results = [{"board": 1, "table": 1, "quarter": 1, "room": "open", "contract": "garde_sans",
                "taker_team": "A", "defence_team": "B", "score": 136},
               {"board": 1, "table": 2, "quarter": 1, "room": "closed", "contract": "garde",
                "taker_team": "B", "defence_team": "A", "score": 56}]
    data = {"kind": "team_match", "players": players, "teams": teams, "results": results}
    output = ranking_output(load_tournament(json.dumps(data)))
    assert output["ranking"][0] == {"id": "A", "name": "A", "pm": 2 + 8.944, "rank": 1}
    assert output["ranking"][1]["pm"] == 0.0
    results[0]["score"] = 58   # below the smallest made Garde Sans (+60)
    with pytest.raises(TournamentError, match="impossible pour une Garde Sans"):
        load_tournament(json.dumps(data))


def test_results_read_equal_the_dataclass_built_ones():
    """The reader builds its results without the dataclass's __init__ (`tournament._result`): every field is
    set, equal and hashed as ``Result(...)`` would be."""
    from dataclasses import fields, replace

    from duplicate.core.topage import Result
    from duplicate.core.tournament import _result

    values = dict(board=3, table=2, taker="N1", defence=("S1", "E1", "W1"), score=56, position=1, annulled=False,
                  adjusted=True, notes=None, chelem=False, contract="garde", quarter=None, room=None)
    assert {field.name for field in fields(Result)} == set(values)
    built = _result(dict(values))  # the dict becomes the result's own
    assert built == Result(**values) and hash(built) == hash(Result(**values)) and built.__dict__ == values
    players = [{"id": f"{seat}{t}"} for t in (1, 2) for seat in "NSEW"]
    text = json.dumps({"kind": "individual", "players": players, "results": [
        {"board": 1, "table": t, "taker": f"N{t}", "defenders": [f"S{t}", f"E{t}", f"W{t}"], "score": 56,
         "position": 1} for t in (1, 2)]})
    for result in load_tournament(text).results:
        assert result == replace(result) and set(result.__dict__) == set(values)


def test_the_first_fault_in_the_file_is_reported():
    """Result 2 plays étui 1 twice at table 1, result 3 names an unknown player: result 2 is reported; with
    result 2 mended, result 3; and a clash after an unreadable result waits for it."""
    players = [{"id": f"{seat}{t}"} for t in (1, 2, 3) for seat in "NSEW"]

    def result(table, taker=None, board=1):
        return {"board": board, "table": table, "taker": taker or f"N{table}",
                "defenders": [f"S{table}", f"E{table}", f"W{table}"], "score": 56}

    def error(results):
        with pytest.raises(TournamentError) as caught:
            load_tournament(json.dumps({"kind": "individual", "players": players, "results": results}, indent=1))
        return str(caught.value)

    clash, unknown = result(1), result(3, taker="Z9")
    assert "résultat n° 2 (étui 1, table 1) : l’étui 1 a déjà un score" in error([result(1), clash, unknown])
    assert "résultat n° 3 : joueur inconnu « Z9 »" in error([result(1), result(2), unknown])
    assert "résultat n° 2 : joueur inconnu « Z9 »" in error([result(1), {**unknown, "table": 1}, result(1)])


def test_the_whole_ranking_output_of_the_seed_board():
    """Every field of the SPEC §9 output, for the seed's étui at five tables (notes pinned above; table 1
    also says its position). One étui: each player has one role, so his global % is that role's (flagged),
    ¼ + ¾ never mixes. Globals: 100 for N5 (attack) and S4, E4, W4 (defence at table 4), then 75, 50, 25, 0
    by the same reading: four ex aequo at each, ranks 1, 5, 9, 13, 17. Each line's k-th is at the k-th
    global, so the alternated ranking (the firsts of the lines, then the seconds…) gives the same places."""
    data = individual([result(1, 1, 56, position=1), result(1, 5, 62), result(1, 4, -56), result(1, 3, -52),
                       result(1, 2, 50)])
    output = ranking_output(load_tournament(text(data)))
    assert set(output) == {"kind", "boards", "ranking"} and output["kind"] == "individual"
    (board,) = output["boards"]
    assert board["number"] == 1
    assert {row["table"]: row for row in board["results"]} == {
        1: {"table": 1, "score": 56, "position": 1, "taker_note": 75.0, "defence_note": 25.0},
        2: {"table": 2, "score": 50, "taker_note": 50.0, "defence_note": 50.0},
        3: {"table": 3, "score": -52, "taker_note": 25.0, "defence_note": 75.0},
        4: {"table": 4, "score": -56, "taker_note": 0.0, "defence_note": 100.0},
        5: {"table": 5, "score": 62, "taker_note": 100.0, "defence_note": 0.0},
    }
    defence_at = {4: 100.0, 3: 75.0, 2: 50.0, 1: 25.0, 5: 0.0}
    attack_at = {5: 100.0, 1: 75.0, 2: 50.0, 3: 25.0, 4: 0.0}
    rank_of = {100.0: 1, 75.0: 5, 50.0: 9, 25.0: 13, 0.0: 17}
    expected = {}
    for table in range(1, 6):
        value = attack_at[table]
        expected[f"N{table}"] = {"id": f"N{table}", "name": f"JOUEUR N{table}", "line": "N", "attack": value,
                                 "defence": None, "global": value, "penalty": 0.0, "rank": rank_of[value],
                                 "alternated_rank": rank_of[value], "attack_boards": 1, "defence_boards": 0,
                                 "flagged": True}
        for line in "SEW":
            value = defence_at[table]
            expected[f"{line}{table}"] = {"id": f"{line}{table}", "name": f"JOUEUR {line}{table}", "line": line,
                                          "attack": None, "defence": value, "global": value, "penalty": 0.0,
                                          "rank": rank_of[value], "alternated_rank": rank_of[value],
                                          "attack_boards": 0, "defence_boards": 1, "flagged": True}
    assert {row["id"]: row for row in output["ranking"]} == expected
    assert [row["rank"] for row in output["ranking"]] == sorted(row["rank"] for row in output["ranking"])


def test_the_flags_of_arbiters_corrections_in_the_output():
    results = [result(1, 1, 56), result(1, 2, 62, annulled=True), result(1, 3, -52, adjusted=True),
               {**result(1, 4, None), "notes": {"taker": 60, "defence": 40}}]
    rows = {row["table"]: row for row in ranking_output(load_tournament(text(individual(results))))["boards"][0]["results"]}
    # an annulled deal has no notes; the adjusted and the noted lines say so; the plain one has no flag
    assert rows[2] == {"table": 2, "score": 62, "taker_note": None, "defence_note": None, "annulled": True}
    assert rows[3]["adjusted"] is True and "annulled" not in rows[3] and "arbitral_note" not in rows[3]
    assert rows[4]["arbitral_note"] is True and (rows[4]["taker_note"], rows[4]["defence_note"]) == (60.0, 40.0)
    assert set(rows[1]) == {"table", "score", "taker_note", "defence_note"}


def _refusal(data) -> str:
    with pytest.raises(TournamentError) as refused:
        load_tournament(text(data))
    return str(refused.value)


@pytest.mark.parametrize("penalty, message", [
    ({"player": "Z9", "points": 1}, "pénalité n° 1 : participant inconnu « Z9 »"),
    ({"player": 5, "points": 1}, "pénalité n° 1 : participant inconnu « 5 »"),
    ({"points": 1}, "pénalité n° 1 : participant inconnu « None »"),
    ({"player": "N1"}, "pénalité n° 1 : « points » doit être un nombre entre −100 et 100"),
    ({"player": "N1", "points": 100.5}, "pénalité n° 1 : « points » doit être un nombre entre −100 et 100"),
    ({"player": "N1", "points": -101}, "pénalité n° 1 : « points » doit être un nombre entre −100 et 100"),
    ({"player": "N1", "points": True}, "pénalité n° 1 : « points » doit être un nombre entre −100 et 100"),
    ({"player": "N1", "points": "2"}, "pénalité n° 1 : « points » doit être un nombre entre −100 et 100"),
    ({"player": "N1", "points": 1, "board": 2}, "pénalité n° 1 : « N1 » n’a pas joué l’étui « 2 »"),
    ({"player": "S2", "points": 1, "board": 1}, "pénalité n° 1 : « S2 » n’a pas joué l’étui « 1 »"),
])
def test_a_faulty_penalty_is_refused_in_french(penalty, message):
    # N1 took étui 1 at table 1 against S1, E1, W1; nobody played étui 2; S2 sat at table 2, which did not play
    data = individual([result(1, 1, 56)], penalties=[{"player": "N1", "points": 1}, penalty])
    assert _refusal(data) == "ligne 1 : " + message.replace("n° 1", "n° 2")


def test_a_penalty_on_an_etui_absent_from_the_boards_says_so():
    data = individual([result(1, 1, 56)], boards=[{"number": 1, "taker": "N"}],
                      penalties=[{"player": "N1", "points": 1, "board": 3}])
    assert _refusal(data) == "ligne 1 : pénalité n° 1 : « N1 » n’a pas joué l’étui « 3 » (absent de « boards »)"
    data["penalties"] = [{"player": "N1", "points": 1, "board": "1"}]  # a text is no étui number
    assert _refusal(data) == "ligne 1 : pénalité n° 1 : « N1 » n’a pas joué l’étui « 1 » (absent de « boards »)"


def test_penalties_at_the_bounds_add_up_with_their_reasons():
    # −100 and +100 are the bounds (accepted), 0,5 a fraction; each keeps its reason and étui, in file order
    data = individual([result(1, 1, 56), result(1, 2, -56)],
                      penalties=[{"player": "N1", "points": -100, "board": 1, "reason": "erreur"},
                                 {"player": "N1", "points": 100}, {"player": "N1", "points": 0.5}])
    tournament = load_tournament(text(data))
    assert [(p.entrant, p.points, p.reason, p.board) for p in tournament.penalties] == [
        ("N1", -100, "erreur", 1), ("N1", 100, "", None), ("N1", 0.5, "", None)]


def _with_player(**fields) -> dict:
    """The five-table individual with a 21st player (or a changed first one) as ``fields`` say."""
    return individual([result(1, 1, 56)], players=[*PLAYERS, {"id": "X1", "name": "JOUEUR X1", "line": "N", **fields}])


@pytest.mark.parametrize("fields, message", [
    ({"id": None}, "joueur n° 21 : identifiant « id » manquant"),
    ({"id": ""}, "joueur n° 21 : identifiant « id » manquant"),
    ({"id": "é1"}, "joueur n° 21 : identifiant « é1 » invalide (au plus 32 lettres sans accent, chiffres, « - », "
                   "« _ » ou « . »)"),
    ({"id": "A" * 33}, f"joueur n° 21 : identifiant « {'A' * 33} » invalide (au plus 32 lettres sans accent, "
                       "chiffres, « - », « _ » ou « . »)"),
    ({"id": "N1"}, "joueur « N1 » déclaré deux fois"),
    ({"members": "N1"}, "joueur « X1 » : « members » doit être une liste d’identifiants"),
    ({"members": [1]}, "joueur « X1 » : « members » doit être une liste d’identifiants"),
    ({"bonus": 10001}, "joueur « X1 » : « bonus » doit être un nombre entre −10000 et 10000"),
    ({"bonus": "1"}, "joueur « X1 » : « bonus » doit être un nombre entre −10000 et 10000"),
    ({"line": "NS"}, "joueur « X1 » : ligne « NS » inconnue (N, S, E, W)"),
    ({"line": 3}, "joueur « X1 » : « line » doit être un texte"),
    ({"line": ""}, "joueur « X1 » : « line » doit être un texte"),
    ({"out_of_ranking": "oui"}, "joueur « X1 » : « out_of_ranking » vaut true ou false"),
    ({"withdrawn": {"position": 0}}, "joueur « X1 » : « withdrawn » attend {\"position\": k} (k ≥ 1, la position "
                                     "où il a quitté le tournoi)"),
    ({"withdrawn": {"position": True}}, "joueur « X1 » : « withdrawn » attend {\"position\": k} (k ≥ 1, la "
                                        "position où il a quitté le tournoi)"),
    ({"withdrawn": 2}, "joueur « X1 » : « withdrawn » attend {\"position\": k} (k ≥ 1, la position où il a quitté "
                       "le tournoi)"),
])
def test_a_faulty_player_is_refused_in_french(fields, message):
    assert _refusal(_with_player(**fields)) == "ligne 1 : " + message


def test_a_player_as_read():
    """The id's 32 characters are allowed; without a line, the id's letters are the line (« X » of « X12 »);
    the name defaults to the id; a withdrawal keeps its position; a bonus is a Decimal."""
    tournament = load_tournament(text(individual([result(1, 1, 56)], players=[
        *PLAYERS, {"id": "A" * 32, "line": "W"}, {"id": "X12", "withdrawn": {"position": 2}, "bonus": 1.5,
                                                  "out_of_ranking": True}])))
    long, x12 = tournament.players["A" * 32], tournament.players["X12"]
    assert (long.name, long.line, long.withdrawn_from, long.out_of_ranking) == ("A" * 32, "W", None, False)
    assert (x12.name, x12.line, x12.withdrawn_from, x12.out_of_ranking, str(x12.bonus)) == ("X12", "X", 2, True, "1.5")


def test_a_faulty_team_is_refused_in_french():
    players = [{"id": f"P{k}", "name": f"JOUEUR {k}"} for k in range(1, 7)]

    def triplettes(teams):
        return {"format": "tarot-tournament/1", "name": "Essai", "kind": "triplettes", "players": players,
                "teams": teams, "results": []}
    assert _refusal(triplettes([{"id": "NS1", "members": ["P1", "P2", "P9"]}])) == \
        "ligne 1 : équipe « NS1 » : joueur inconnu « P9 »"
    assert _refusal(triplettes([{"id": "NS1", "members": ["P1", "P2", "P3"]},
                                {"id": "EW1", "members": ["P4", "P2", "P5"]}])) == \
        "ligne 1 : équipe « EW1 » : « P2 » est déjà membre de l’équipe « NS1 »"
    assert _refusal(triplettes([{"id": "NS1", "members": ["P1", "P2", "P3"], "line": "N"}])) == \
        "ligne 1 : équipe « NS1 » : ligne « N » inconnue (NS, EW)"
    ok = load_tournament(json.dumps(triplettes([{"id": "NS1", "members": ["P1", "P2", "P3"]},
                                                {"id": "EW1", "members": ["P4", "P5", "P6"], "line": "EW"}])))
    assert (ok.teams["NS1"].members, ok.teams["NS1"].line, ok.teams["EW1"].line) == (("P1", "P2", "P3"), "NS", "EW")


R = "résultat n° 2 : "  # the faulty result is the second, on the file's third line (one result a line)


@pytest.mark.parametrize("bad, message", [
    ({"board": None}, "« board » et « table » (nombres entiers, 1 ou plus) sont obligatoires"),
    ({"board": 0}, "« board » et « table » (nombres entiers, 1 ou plus) sont obligatoires"),
    ({"table": True}, "« board » et « table » (nombres entiers, 1 ou plus) sont obligatoires"),
    ({"table": 0}, "« board » et « table » (nombres entiers, 1 ou plus) sont obligatoires"),
    ({"position": 0}, "« position » doit être un nombre entier (1 ou plus)"),
    ({"position": "1"}, "« position » doit être un nombre entier (1 ou plus)"),
    ({"quarter": 5}, "« quarter » doit être un nombre entier de 1 à 4"),
    ({"quarter": 0}, "« quarter » doit être un nombre entier de 1 à 4"),
    ({"defenders": ["S2", "E2"]}, "il faut trois défenseurs dans « defenders »"),
    ({"defenders": "S2 E2 W2"}, "il faut trois défenseurs dans « defenders »"),
    ({"taker": "Z2"}, "joueur inconnu « Z2 »"),
    ({"defenders": ["S2", "E2", 7]}, "joueur inconnu « 7 »"),
    ({"defenders": ["S2", "E2", "N2"]}, "le même joueur figure deux fois à la table"),
    ({"notes": {"taker": 60}}, "note arbitrale « notes » illisible (taker et defence attendus)"),
    ({"notes": {"taker": "60", "defence": 40}}, "note arbitrale « notes » illisible (taker et defence attendus)"),
    ({"notes": {"taker": 101, "defence": 40}}, "note arbitrale « notes » hors de 0 à 100"),
    ({"notes": {"taker": 60, "defence": -1}}, "note arbitrale « notes » hors de 0 à 100"),
    ({"score": None}, "score manquant"),
    ({"score": 5.5}, "score « 5.5 » : un nombre entier est attendu"),
    ({"score": True}, "score « True » : un nombre entier est attendu"),
    ({"score": 3}, "score +3 impossible pour une Garde sans chelem : un score de Garde est toujours pair ; aucun "
                   "score n’est possible entre −32 et +30"),
    ({"room": "salon"}, "salle « salon » inconnue (open ou closed)"),
])
def test_a_faulty_result_is_refused_word_for_word(bad, message):
    data = individual([result(1, 1, 56), {**result(1, 2, 50), **bad}])
    assert _refusal(data) == f"ligne 3 : {R}{message}"


def test_a_result_on_an_etui_absent_from_the_boards():
    data = individual([result(1, 1, 56), result(2, 2, 50)], boards=[{"number": 1, "taker": "N"}])
    assert _refusal(data) == f"ligne 3 : {R}étui 2 inconnu (absent de « boards »)"


def test_notes_at_the_bounds_and_an_annulled_deal_without_score_are_read():
    data = individual([{**result(1, 1, None), "notes": {"taker": 0, "defence": 100}},
                       {**result(1, 2, None), "annulled": True}, result(1, 3, -52)])
    tournament = load_tournament(text(data))
    assert tournament.results[0].notes.taker == 0 and tournament.results[0].notes.defence == 100
    assert tournament.results[1].annulled and tournament.results[1].score is None


def test_seats_without_a_movement_follow_the_lines():
    """Without a movement the lines seat the players (SPEC §9: N1 sits North): a table holds one player of
    each line, the taker on the étui's taker seat, and nobody sits at two tables in one position."""
    two_north = {**result(1, 2, 50), "defenders": ["S2", "N3", "W2"]}
    assert _refusal(individual([result(1, 1, 56), two_north])) == (
        "ligne 3 : résultat n° 2 (étui 1, table 2) : deux joueurs de la même ligne à la table (N, S, N, W)")
    boards = [{"number": 1, "taker": "N"}]
    wrong_taker = {**result(1, 2, 50, taker="E2")}
    assert _refusal(individual([result(1, 1, 56), wrong_taker], boards=boards)) == (
        "ligne 3 : résultat n° 2 (étui 1, table 2) : le preneur « E2 » est en ligne E, l’étui 1 se prend en N")
    twice = [result(1, 1, 56, position=1), {**result(2, 3, 50, position=1), "defenders": ["S1", "E3", "W3"]}]
    assert _refusal(individual(twice)) == (
        "ligne 3 : résultat n° 2 (étui 2, table 3) : « S1 » est aussi à la table 1 en position 1 (résultat n° 1)")
    # the same player at two tables in two different positions is no clash
    assert load_tournament(text(individual([result(1, 1, 56, position=1),
                                            {**result(2, 3, 50, position=2), "defenders": ["S1", "E3", "W3"]}])))


def test_the_files_envelope_is_refused_word_for_word():
    def refusal(text):
        with pytest.raises(TournamentError) as refused:
            load_tournament(text)
        return str(refused.value)

    assert refusal("[1, 2]") == "ligne 1 : le fichier doit contenir un objet JSON « tarot-tournament/1 »"
    assert refusal('{"name": "x",\n "format": "tarot-tournament/2",\n "kind": "individual"}') == \
        "ligne 2 : format « tarot-tournament/2 » inconnu (attendu « tarot-tournament/1 »)"
    assert refusal('{"name": "x",\n "kind": "individual",\n\n "players": []}') == \
        "ligne 4 : tournoi vide : « players » ne nomme aucun joueur"
    assert refusal('{"name": "x",\n "kind": "individual"}') == "tournoi vide : « players » ne nomme aucun joueur"
    assert refusal('{"name": "x",\n "kind": "belote",\n "players": []}') == \
        "ligne 2 : type de tournoi inconnu « belote » (« kind » : individual, triplettes, quadrettes, team_match)"
    assert refusal('{"kind": "individual", "players": [{"id": "N1"}],\n "results": {}}') == \
        "ligne 2 : « results » doit être une liste"
    assert refusal('{"kind": "individual", "players": [{"id": "N1"}], "results": [\n1]}') == \
        "ligne 2 : results n° 1 : un objet JSON est attendu"
    # a byte-order mark does not shift the lines; a file with no « format » is read as the current one
    assert refusal('\ufeff{"name": "x",\n "format": 1}') == "ligne 2 : format « 1 » inconnu (attendu « tarot-tournament/1 »)"
    assert load_tournament(text(individual([result(1, 1, 56)]))).name == "Essai"


def test_a_team_match_opposes_two_teams():
    players = [{"id": f"P{k}"} for k in range(1, 13)]
    teams = [{"id": ident, "members": [f"P{4 * i + k}" for k in range(1, 5)]} for i, ident in enumerate("ABC")]
    data = {"format": "tarot-tournament/1", "kind": "team_match", "players": players, "teams": teams, "results": []}
    with pytest.raises(TournamentError) as refused:
        load_tournament(json.dumps(data))
    assert str(refused.value) == "ligne 1 : un match par équipes oppose deux équipes, pas 3"  # the third team's


def test_a_chelem_marks_a_score_only_a_chelem_gives():
    """0 is a Garde's score only with a chelem (+ 200 made then − 200 failed… SPEC §3; `check_score`): read
    with « chelem », refused without; « annulled » defaults to false."""
    ok = load_tournament(text(individual([result(1, 1, 56), {**result(1, 2, 0), "chelem": True}])))
    assert (ok.results[1].chelem, ok.results[1].annulled, ok.results[0].chelem) == (True, False, False)
    with pytest.raises(TournamentError, match="ce score n’est possible qu’avec un chelem"):
        load_tournament(text(individual([result(1, 1, 56), result(1, 2, 0)])))


def test_a_quadrettes_attacker_must_be_of_the_attacking_quadrette():
    line = {"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82}
    assert load_tournament(_quadrettes([{**line, "attacker": "p2"}])).results[0].score == 82  # a member: read
    with pytest.raises(TournamentError) as refused:
        load_tournament(_quadrettes([{**line, "attacker": "p5"}]))
    assert str(refused.value) == "ligne 1 : résultat n° 1 : l’attaquant « p5 » n’est pas de la quadrette « Q1 »"
    with pytest.raises(TournamentError) as refused:
        load_tournament(_quadrettes([{**line, "taker_team": "Q3"}]))
    assert str(refused.value) == "ligne 1 : résultat n° 1 : équipe inconnue « Q3 »"


def _match(results):
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(8)]
    teams = [{"id": "A", "members": ["p0", "p1", "p2", "p3"]}, {"id": "B", "members": ["p4", "p5", "p6", "p7"]}]
    return json.dumps({"kind": "team_match", "players": players, "teams": teams, "results": results})


def test_a_team_match_result_named_by_its_room():
    """SPEC §9: a team match's result may name its room instead of its table (open: table 1, closed: 2)."""
    plays = [{"board": 1, "quarter": 4, "room": "open", "taker_team": "A", "defence_team": "B", "score": 56},
             {"board": 1, "quarter": 4, "room": "closed", "taker_team": "B", "defence_team": "A", "score": 56}]
    tournament = load_tournament(_match(plays))
    assert [(r.table, r.room, r.quarter) for r in tournament.results] == [(1, "open", 4), (2, "closed", 4)]
    with pytest.raises(TournamentError) as refused:
        load_tournament(_match([{**plays[0], "board": None}]))
    assert str(refused.value) == ("ligne 1 : résultat n° 1 : « board » (nombre entier, 1 ou plus) et « room » (open "
                                  "ou closed) ou « table » sont obligatoires")
    with pytest.raises(TournamentError) as refused:
        load_tournament(_match([{**plays[0], "room": "salon"}]))
    assert str(refused.value) == ("ligne 1 : résultat n° 1 : « board » (nombre entier, 1 ou plus) et « room » (open "
                                  "ou closed) ou « table » sont obligatoires")
    with pytest.raises(TournamentError) as refused:
        load_tournament(_match([{**plays[0], "table": 1, "room": None}]))
    assert str(refused.value) == ("ligne 1 : résultat n° 1 : en match par équipes, « quarter » (1 à 4) et « room » "
                                  "(open ou closed) sont obligatoires")


def test_the_whole_output_of_a_quadrettes_file():
    """Étui 1: Q1 +82 against Q2's +66 at the other table: gap +16 → √16 = 4 PM to Q1's play, −4 to Q2's
    (SPEC §6, seed « +82 vs +66 → +4 »). Étui 2: Q2's play annulled, so no comparison: no PM on either line.
    A penalty of 1,5 PM on Q2: totals Q1 +4, Q2 −4 − 1,5 = −5,5."""
    results = [{"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82, "position": 1},
               {"board": 1, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": 66},
               {"board": 2, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": -68},
               {"board": 2, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": -58, "annulled": True}]
    data = json.loads(_quadrettes(results))
    data["penalties"] = [{"team": "Q2", "points": 1.5}]
    output = ranking_output(load_tournament(json.dumps(data)))
    assert set(output) == {"kind", "boards", "ranking"} and output["kind"] == "quadrettes"
    rows = {(board["number"], row["table"]): row for board in output["boards"] for row in board["results"]}
    assert rows == {
        (1, 1): {"table": 1, "score": 82, "position": 1, "taker_team": "Q1", "defence_team": "Q2", "pm": 4.0},
        (1, 2): {"table": 2, "score": 66, "taker_team": "Q2", "defence_team": "Q1", "pm": -4.0},
        (2, 1): {"table": 1, "score": -68, "taker_team": "Q1", "defence_team": "Q2", "pm": None},
        (2, 2): {"table": 2, "score": -58, "taker_team": "Q2", "defence_team": "Q1", "pm": None, "annulled": True},
    }
    assert output["ranking"] == [{"id": "Q1", "name": "Q1", "pm": 4.0, "rank": 1},
                                 {"id": "Q2", "name": "Q2", "pm": -5.5, "rank": 2}]


def test_the_quarters_of_a_team_match_in_the_output():
    """Quarter 1, étui 1: A's Garde Sans +136 against B's Garde +56: gap +80 → √80 = 8,944 PM to A only;
    A's bonus 2 → total 10,944; B 0. Each team's quarters list the quarters played."""
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(8)]
    teams = [{"id": "A", "name": "Les Rois", "members": ["p0", "p1", "p2", "p3"], "bonus": 2},
             {"id": "B", "members": ["p4", "p5", "p6", "p7"]}]
    results = [{"board": 1, "table": 1, "quarter": 1, "room": "open", "contract": "garde_sans",
                "taker_team": "A", "defence_team": "B", "score": 136},
               {"board": 1, "table": 2, "quarter": 1, "room": "closed", "contract": "garde",
                "taker_team": "B", "defence_team": "A", "score": 56}]
    output = ranking_output(load_tournament(json.dumps({"kind": "team_match", "players": players, "teams": teams,
                                                        "results": results})))
    assert output["quarters"] == [{"team": "A", "quarters": {"1": 8.944}, "bonus": 2.0, "total": 10.944},
                                  {"team": "B", "quarters": {"1": 0.0}, "bonus": 0.0, "total": 0.0}]
    assert output["ranking"] == [{"id": "A", "name": "Les Rois", "pm": 10.944, "rank": 1},
                                 {"id": "B", "name": "B", "pm": 0.0, "rank": 2}]
    rows = {row["table"]: row for row in output["boards"][0]["results"]}
    assert rows[1] == {"table": 1, "score": 136, "taker_team": "A", "defence_team": "B", "pm": 8.944,
                       "quarter": 1, "room": "open", "contract": "garde_sans"}
    # a line's « pm » is its play's signed comparison, as in quadrettes; the quarters and the ranking give B
    # nothing for it (only the better attack scores, `Format.scored_pm`)
    assert rows[2]["pm"] == -8.944 and (rows[2]["room"], rows[2]["contract"]) == ("closed", "garde")


# --- the file's sections line by line: substitutions, boards, movement (SPEC §9, §11) -----------------------

def spread(data) -> str:
    """Each top-level field on its own line, and each entry of a list on its own line after its key's
    line: ``{"kind": …,`` is line 1, the second field's key line 2, and so on."""
    parts = []
    for key, value in data.items():
        if isinstance(value, list):
            parts.append(json.dumps(key) + ": [\n" + ",\n".join(json.dumps(v, ensure_ascii=False) for v in value)
                         + "]")
        else:
            parts.append(json.dumps(key) + ": " + json.dumps(value, ensure_ascii=False))
    return "{" + ",\n".join(parts) + "}\n"


def _spread_refusal(data) -> str:
    with pytest.raises(TournamentError) as refused:
        load_tournament(spread(data))
    return str(refused.value)


SUBSTITUTES = [{"id": "X1", "line": "N"}, {"id": "X2", "line": "N"}]


def _substitutions(*items, kind="individual", players=PLAYERS + SUBSTITUTES, **extra):
    # line 1: the kind; line 2: « "substitutions": [ »; the substitutions on lines 3, 4…
    return {"kind": kind, "substitutions": list(items), "players": players, **extra}


FIRST = {"seat": "N1", "player": "X1", "from_position": 1}  # from position 1: the smallest there is


@pytest.mark.parametrize("bad, message", [
    ({"seat": "N9", "player": "X2", "from_position": 2}, "place « N9 » inconnue"),
    ({"seat": 5, "player": "X2", "from_position": 2}, "place « 5 » inconnue"),
    ({"player": "X2", "from_position": 2}, "place « None » inconnue"),
    ({"seat": "N2", "player": "X9", "from_position": 2}, "remplaçant « X9 » absent de « players »"),
    ({"seat": "N2", "player": "N2", "from_position": 2}, "remplaçant « N2 » absent de « players »"),
    ({"seat": "N2", "player": 7, "from_position": 2}, "remplaçant « 7 » absent de « players »"),
    ({"seat": "N2", "player": "X2", "from_position": 0}, "« from_position » doit être un numéro de position (1 ou plus)"),
    ({"seat": "N2", "player": "X2", "from_position": True}, "« from_position » doit être un numéro de position (1 ou "
                                                            "plus)"),
    ({"seat": "N2", "player": "X2", "from_position": "2"}, "« from_position » doit être un numéro de position (1 ou "
                                                           "plus)"),
    ({"seat": "N2", "player": "X2"}, "« from_position » doit être un numéro de position (1 ou plus)"),
    ({"seat": "N2", "player": "X2", "from_position": 2, "results_to": "both"},
     "« results_to » vaut « player » ou « substitute » (pas « both »)"),
    ({"seat": "N2", "player": "X2", "from_position": 2, "results_to": None},
     "« results_to » vaut « player » ou « substitute » (pas « None »)"),
    ({"seat": "N2", "player": "X1", "from_position": 2}, "« X1 » remplace déjà un autre joueur"),
])
def test_a_faulty_substitution_is_refused_word_for_word(bad, message):
    assert _spread_refusal(_substitutions(FIRST, bad)) == f"ligne 4 : remplacement n° 2 : {message}"


def test_substitutions_as_read():
    """Two substitutes, each for one seat: « results_to » defaults to « player »; a position is a number
    from 1 on."""
    from duplicate.core.evening import Substitution

    tournament = load_tournament(spread(_substitutions(
        FIRST, {"seat": "N2", "player": "X2", "from_position": 3, "results_to": "substitute"})))
    assert tournament.substitutions == (Substitution("N1", "X1", 1, "player"), Substitution("N2", "X2", 3, "substitute"))


def test_a_substitute_in_triplettes_keeps_the_results_to_the_team():
    """In triplettes the seat is a triplette; its results cannot pass to the substitute (individual only),
    but the substitute may be named (results to the team, the default)."""
    players = [{"id": f"P{k}"} for k in range(1, 8)]
    teams = [{"id": "NS1", "members": ["P1", "P2", "P3"]}, {"id": "EW1", "members": ["P4", "P5", "P6"]}]
    named = {"seat": "NS1", "player": "P7", "from_position": 2}
    ok = load_tournament(spread(_substitutions(named, kind="triplettes", players=players, teams=teams)))
    assert [(s.seat, s.player, s.results_to) for s in ok.substitutions] == [("NS1", "P7", "player")]
    credited = {**named, "results_to": "substitute"}
    assert _spread_refusal(_substitutions(credited, kind="triplettes", players=players, teams=teams)) == \
        "ligne 3 : remplacement n° 1 : les résultats ne passent au remplaçant qu’en individuel"


@pytest.mark.parametrize("bad, message", [
    ({"number": 0}, "étui n° 2 : numéro « number » invalide"),
    ({"number": "2"}, "étui n° 2 : numéro « number » invalide"),
    ({"number": True}, "étui n° 2 : numéro « number » invalide"),
    ({"taker": "N"}, "étui n° 2 : numéro « number » invalide"),
    ({"number": 1, "taker": "S"}, "étui 1 déclaré deux fois"),
])
def test_a_faulty_board_is_refused_word_for_word(bad, message):
    # line 1: the kind; line 2: « "boards": [ »; étui n° 1 on line 3, n° 2 on line 4
    data = {"kind": "individual", "boards": [{"number": 1, "taker": "N"}, bad], "players": PLAYERS}
    assert _spread_refusal(data) == f"ligne 4 : {message}"


def test_the_boards_and_the_name_as_read():
    """The « boards » are kept by number, as given; a file without « name » has an empty name."""
    boards = [{"number": 2, "taker": "S", "dealer": "E"}, {"number": 1, "taker": "N"}]
    tournament = load_tournament(spread({"kind": "individual", "boards": boards, "players": PLAYERS}))
    assert tournament.boards == {2: boards[0], 1: boards[1]} and tournament.name == ""


def test_a_malformed_movement_names_its_line():
    movement = {"rounds": [{"position": 1, "boards": [1]}]}  # no table
    assert _spread_refusal({"kind": "individual", "movement": movement, "players": PLAYERS}) == \
        "ligne 2 : mouvement « movement » mal formé : « rounds » avec table et boards attendus"


def test_a_parsed_tournament_is_refused_without_lines():
    """`read_tournament` (a dict, no text): the same refusals, with no line to name."""
    from duplicate.core.tournament import read_tournament

    def refusal(data):
        with pytest.raises(TournamentError) as refused:
            read_tournament(data)
        assert refused.value.line is None
        return str(refused.value)

    assert refusal(individual([result(1, 1, 56), {**result(2, 1, 56), "taker": "Z9"}])) == \
        "résultat n° 2 : joueur inconnu « Z9 »"
    assert refusal(individual([{**result(1, 1, 56), "taker": "Z9"}])) == "résultat n° 1 : joueur inconnu « Z9 »"
    assert refusal({"kind": "belote"}) == \
        "type de tournoi inconnu « belote » (« kind » : individual, triplettes, quadrettes, team_match)"
    assert refusal(individual([], movement={"rounds": 3})) == \
        "mouvement « movement » mal formé : « rounds » avec table et boards attendus"
    assert read_tournament(individual([result(1, 1, 56)])).results[0].score == 56


def test_a_newline_or_a_byte_order_mark_before_the_object_keeps_the_lines():
    # the key « kind » is on line 2 when the text opens with a newline
    with pytest.raises(TournamentError) as refused:
        load_tournament('\n{"kind": "belote", "players": []}')
    assert str(refused.value) == ("ligne 2 : type de tournoi inconnu « belote » (« kind » : individual, triplettes, "
                                  "quadrettes, team_match)")
    # a byte-order mark: the results are still found on their lines (the second on line 3)
    assert _refusal_text("\ufeff" + text(individual([result(1, 1, 56), result(2, 1, 3)]))) == \
        ("ligne 3 : résultat n° 2 : score +3 impossible pour une Garde sans chelem : un score de Garde est toujours "
         "pair ; aucun score n’est possible entre −32 et +30")


def _refusal_text(file_text: str) -> str:
    with pytest.raises(TournamentError) as refused:
        load_tournament(file_text)
    return str(refused.value)


def test_locate_entries_after_a_leading_newline_and_in_compact_json():
    from duplicate.core.tournament import EntryLines

    spaced = '\n {"name": "x", "results": [\n{"a": 1},\n {"b": [2, 3]}\n], "players": []}'
    # line 1 is empty; the object opens on line 2, where « results » opens; its entries on lines 3 and 4
    assert locate_entries(spaced) == {"name": [], "results": [3, 4], "players": []}
    compact = json.dumps({"name": "x", "players": [{"id": "N1"}, {"id": "S1"}], "results": [{"board": 1}]},
                         separators=(",", ":"))
    assert locate_entries(compact) == {"name": [], "players": [1, 1], "results": [1]}
    lines = EntryLines(compact)
    assert list(lines) == ["name", "players", "results"] and len(lines) == 3 and lines["players"] == [1, 1]
    assert locate_entries("[1, 2]") == {}


# --- results against each other, seats, contracts --------------------------------------------------------------

def _team_match(results, **extra):
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(8)]
    teams = [{"id": "A", "members": ["p0", "p1", "p2", "p3"]}, {"id": "B", "members": ["p4", "p5", "p6", "p7"]}]
    return {"kind": "team_match", "players": players, "teams": teams, "results": results, **extra}


def _play(board, table, room, taker, score, **extra):
    return {"board": board, "table": table, "quarter": 1, "room": room, "taker_team": taker,
            "defence_team": "B" if taker == "A" else "A", "score": score, **extra}


def test_a_team_match_etui_scored_twice_in_one_room_is_refused():
    """In a team match the room is the table (SPEC §9): two scores of étui 1 in the open room clash, even
    under two table numbers."""
    data = _team_match([_play(1, 1, "open", "A", 56), _play(1, 2, "open", "B", 56)])
    assert _refusal(data) == ("ligne 3 : résultat n° 2 (étui 1, table 2) : l’étui 1 a déjà un score à cette table "
                              "(résultat n° 1)")


def test_results_named_by_room_are_not_checked_against_the_movements_tables():
    movement = {"rounds": [{"position": 1, "table": 7, "boards": [1]}]}
    plays = [{**_play(1, None, "open", "A", 56)}, {**_play(1, None, "closed", "B", 56)}]
    for play in plays:
        del play["table"]
    tournament = load_tournament(text(_team_match(plays, movement=movement)))
    assert [(r.table, r.room) for r in tournament.results] == [(1, "open"), (2, "closed")]


def test_two_scores_at_one_table_by_different_players_are_refused():
    # table 1 scores étui 1 twice, the second time under the players of table 2
    data = individual([result(1, 1, 56), {**result(1, 2, 50), "table": 1}])
    assert _refusal(data) == ("ligne 3 : résultat n° 2 (étui 1, table 1) : l’étui 1 a déjà un score à cette table "
                              "(résultat n° 1)")


def test_a_taker_defending_the_same_etui_is_refused():
    # N1 took étui 1 at table 1, then defends it at table 2: he plays it twice, whatever his role
    data = individual([result(1, 1, 56), {**result(1, 2, 50), "defenders": ["S2", "E2", "N1"]}])
    assert _refusal(data) == ("ligne 3 : résultat n° 2 (étui 1, table 2) : « N1 » joue l’étui 1 une deuxième fois "
                              "(déjà au résultat n° 1)")


def test_a_quadrette_attacks_and_defends_an_etui_until_a_table_clashes():
    """Q1 attacks étui 1 at table 1 and defends it at table 2 (and Q2 the converse): no fault; the third
    result, étui 1 again at table 1, is the fault."""
    results = [{"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82},
               {"board": 1, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": 66},
               {"board": 1, "table": 1, "taker_team": "Q2", "defence_team": "Q1", "score": 60}]
    data = {**json.loads(_quadrettes(results)), "format": "tarot-tournament/1"}
    assert _refusal(data) == ("ligne 4 : résultat n° 3 (étui 1, table 1) : l’étui 1 a déjà un score à cette table "
                              "(résultat n° 1)")


def test_a_seat_fault_before_a_table_clash_is_reported_first():
    # result 2 seats S1 at table 3 in position 1, where he is at table 1; result 3 scores étui 1 again at table 1
    data = individual([result(1, 1, 56, position=1), {**result(2, 3, 50, position=1), "defenders": ["S1", "E3", "W3"]},
                       {**result(1, 2, 60), "table": 1}])
    assert _refusal(data) == ("ligne 3 : résultat n° 2 (étui 2, table 3) : « S1 » est aussi à la table 1 en "
                              "position 1 (résultat n° 1)")


def test_the_movement_refusal_word_for_word():
    movement = {"format": "tarot-movement/1", "rounds": [{"position": 1, "table": 1, "boards": [1, 2]}]}
    assert _refusal(individual([result(1, 1, 56), result(1, 2, 60)], movement=movement)) == \
        "ligne 3 : résultat n° 2 (étui 1, table 2) : le mouvement n’envoie pas l’étui 1 à la table 2"


def test_two_triplettes_of_one_line_facing_each_other_are_refused():
    players = [{"id": f"P{k}"} for k in range(1, 7)]
    teams = [{"id": "NS1", "members": ["P1", "P2", "P3"]}, {"id": "NS2", "members": ["P4", "P5", "P6"]}]
    data = {"kind": "triplettes", "players": players, "teams": teams,
            "results": [{"board": 1, "table": 1, "taker_team": "NS1", "defence_team": "NS2", "score": 56}]}
    assert _refusal(data) == ("ligne 2 : résultat n° 1 (étui 1, table 1) : deux triplettes de la ligne NS l’une "
                              "contre l’autre")


def test_a_player_off_the_lines_may_take_any_etui():
    """A fill-in named « X12 » has the line « X », none of N, S, E, W: the étui's taker seat is not asked of
    him (nor are the lines of his table)."""
    data = individual([result(1, 1, 56, taker="X12")], players=[*PLAYERS, {"id": "X12"}],
                      boards=[{"number": 1, "taker": "N"}])
    data["results"][0]["defenders"] = ["S1", "E1", "W1"]
    assert load_tournament(text(data)).results[0].taker == "X12"


@pytest.mark.parametrize("contract, message", [
    ("petite", "contrat inconnu « petite » (prise, garde, garde_sans, garde_contre)"),
    ("prise", "en match par équipes, le contrat est Garde, Garde Sans ou Garde Contre"),
])
def test_a_team_match_contract_is_refused_word_for_word(contract, message):
    data = _team_match([_play(1, 1, "open", "A", 56), _play(1, 2, "closed", "B", 56, contract=contract)])
    assert _refusal(data) == f"ligne 3 : résultat n° 2 : {message}"


def test_a_refused_score_with_a_chelem_is_weighed_against_the_chelem_scores():
    # +218: above the +216 of a Garde without chelem; with one, between +216 and +342 (test_rules_pinned)
    data = individual([result(1, 1, 56), result(1, 2, 218, chelem=True)])
    assert _refusal(data) == ("ligne 3 : résultat n° 2 : score +218 impossible pour une Garde : scores possibles les "
                              "plus proches : +216 et +342")


# --- penalties and entrants at their bounds -------------------------------------------------------------------

def test_a_penalty_on_an_etui_of_the_boards_not_played_says_no_more():
    data = individual([result(1, 1, 56)], boards=[{"number": 1, "taker": "N"}, {"number": 2, "taker": "S"}],
                      penalties=[{"player": "N1", "points": 1, "board": 2}])
    assert _refusal(data) == "ligne 1 : pénalité n° 1 : « N1 » n’a pas joué l’étui « 2 »"


def test_pm_penalties_are_bounded_by_ten_thousand():
    results = [{"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82}]
    data = json.loads(_quadrettes(results))
    data["penalties"] = [{"team": "Q2", "points": 150}, {"team": "Q1", "points": -10000}]
    assert [p.points for p in load_tournament(json.dumps(data)).penalties] == [150, -10000]
    data["penalties"] = [{"team": "Q2", "points": 10000.5}]
    assert _refusal(data) == "ligne 1 : pénalité n° 1 : « points » doit être un nombre entre −10000 et 10000"


def test_bonuses_at_the_bounds_and_lines_that_split_roles():
    """±10 000 are the bonus's bounds (accepted). The lines of the PM kinds are not read: a quadrette's
    « line » may be anything; nor those of the players of a team kind."""
    tournament = load_tournament(text(_with_player(bonus=10000)))
    assert (tournament.players["X1"].id, tournament.players["X1"].bonus) == ("X1", 10000)
    assert load_tournament(text(_with_player(bonus=-10000))).players["X1"].bonus == -10000
    data = json.loads(_quadrettes([]))
    data["teams"][0]["line"] = "Z"
    assert load_tournament(json.dumps(data)).teams["Q1"].line == "Z"
    players = [{"id": f"P{k}", "line": "N"} for k in range(1, 7)]
    teams = [{"id": "NS1", "members": ["P1", "P2", "P3"]}, {"id": "EW1", "members": ["P4", "P5", "P6"]}]
    ok = load_tournament(json.dumps({"kind": "triplettes", "players": players, "teams": teams}))
    assert ok.players["P1"].line == "N"


# --- output: penalties summed, an idle quadrette, a movement's positions, warnings ----------------------------------

def test_a_quadrettes_ranking_sums_penalties_and_lists_an_idle_quadrette():
    """Étui 1: Q1 +82 against Q2 +66: +4 / −4 PM. Q2 has two penalties, 1 and 0,5: −5,5. Q3 played no
    compared étui: 0, between them."""
    players = [{"id": f"p{i}"} for i in range(12)]
    teams = [{"id": f"Q{k}", "members": [f"p{4 * k - 4 + i}" for i in range(4)]} for k in (1, 2, 3)]
    results = [{"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82},
               {"board": 1, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": 66}]
    data = {"kind": "quadrettes", "players": players, "teams": teams, "results": results,
            "penalties": [{"team": "Q2", "points": 1}, {"team": "Q2", "points": 0.5}]}
    assert ranking_output(load_tournament(json.dumps(data)))["ranking"] == [
        {"id": "Q1", "name": "Q1", "pm": 4.0, "rank": 1}, {"id": "Q3", "name": "Q3", "pm": 0.0, "rank": 2},
        {"id": "Q2", "name": "Q2", "pm": -5.5, "rank": 3}]


def test_notes_in_thirds_in_the_output():
    """Four tables: n − 1 = 3, so the notes are thirds. +62 beats 3 tables: 100; +56 beats 2: 200/3;
    +50 beats 1: 100/3; −56 none: 0. Defence: 100 − the taker's."""
    data = individual([result(1, 1, 56), result(1, 2, 62), result(1, 3, -56), result(1, 4, 50)])
    rows = {row["table"]: (row["taker_note"], row["defence_note"])
            for row in ranking_output(load_tournament(text(data)))["boards"][0]["results"]}
    assert rows == {1: (200 / 3, 100 / 3), 2: (100.0, 0.0), 3: (0.0, 100.0), 4: (100 / 3, 200 / 3)}


def test_a_movement_round_without_a_position_places_no_result():
    """Results without a position are placed by the movement's rounds (SPEC §11); a round without its
    position places nothing. N1's seat passes to X1 from position 2: étui 2 (a round of position 2) is X1's,
    étui 1 (round with no position, the result saying position 1) stays N1's."""
    movement = {"rounds": [{"table": 1, "boards": [1]}, {"position": 2, "table": 1, "boards": [2]}]}
    data = individual([result(1, 1, 56, position=1), result(2, 1, 62, taker="S1")],
                      players=PLAYERS + [{"id": "X1", "line": "N"}], movement=movement,
                      substitutions=[{"seat": "N1", "player": "X1", "from_position": 2, "results_to": "substitute"}])
    rows = {row["id"]: row for row in ranking_output(load_tournament(text(data)))["ranking"]}
    assert (rows["N1"]["attack_boards"], rows["N1"]["defence_boards"]) == (1, 0)
    assert (rows["X1"]["attack_boards"], rows["X1"]["defence_boards"], rows["X1"]["out_of_ranking"]) == (0, 1, True)


def test_score_warnings_name_the_theoretical_scores():
    """+216 is a Garde's score only in theory (test_rules_pinned); so is a Garde Contre's −774 with a chelem
    (−574 on one trick, and the failed announced chelem's −200). An annulled deal without score, a plain
    +56: no warning."""
    from dataclasses import replace

    from duplicate.core.topage import Result
    from duplicate.core.tournament import score_warnings

    tournament = load_tournament(text(individual([result(1, 1, 56), {**result(1, 3, None), "annulled": True},
                                                  result(1, 2, 216)])))
    assert score_warnings(tournament) == [
        "résultat n° 3 (étui 1, table 2) : score +216 possible en théorie seulement pour une Garde (répartition "
        "extrême des cartes) : à vérifier par l’arbitre"]
    match = load_tournament(text(_team_match([_play(1, 1, "open", "A", -774, contract="garde_contre", chelem=True)])))
    assert score_warnings(match) == [
        "résultat n° 1 (étui 1, table 1) : score −774 possible en théorie seulement pour une Garde Contre "
        "(répartition extrême des cartes) : à vérifier par l’arbitre"]
    # a result without a contract (built by a program, not read) is a Garde's
    bare = replace(tournament, results=(Result(1, 1, "N1", ("S1", "E1", "W1"), 216, contract=None),))
    assert score_warnings(bare) == [
        "résultat n° 1 (étui 1, table 1) : score +216 possible en théorie seulement pour une Garde (répartition "
        "extrême des cartes) : à vérifier par l’arbitre"]


def test_with_a_movement_a_player_at_two_tables_in_one_position_is_refused():
    """When the movement seats the players, the seats are counted at once (`_one_table_a_position`); a clash
    sends the reader back result by result, which names the first faulty result. S1 plays at table 1 and, in
    the same position, at table 3 (result 3); at table 3 in position 2 he would be no clash."""
    rounds = [{"table": t, "position": p, "boards": [b]} for t, p, b in ((1, 1, 1), (1, 1, 2), (3, 1, 3), (3, 2, 4))]
    clash = {**result(3, 3, 50, position=1), "defenders": ["S1", "E3", "W3"]}
    results = [result(1, 1, 56, position=1), result(2, 1, -56, position=1), clash]
    assert _refusal(individual(results, movement={"rounds": rounds})) == (
        "ligne 4 : résultat n° 3 (étui 3, table 3) : « S1 » est aussi à la table 1 en position 1 (résultat n° 1)")
    apart = {**result(4, 3, 50, position=2), "defenders": ["S1", "E3", "W3"]}
    tournament = load_tournament(text(individual(results[:2] + [apart], movement={"rounds": rounds})))
    assert [(r.table, r.position, r.defence) for r in tournament.results][-1] == (3, 2, ("S1", "E3", "W3"))
