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
    (result(1, 1, 60), "ligne 3 : résultat n° 2 (étui 1, table 1) : l'étui 1 a déjà un score"),
    ({**result(1, 2, 60), "defenders": ["S1", "E2", "W2"]}, "« S1 » joue l'étui 1 une deuxième fois"),
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
    with pytest.raises(TournamentError, match="le mouvement n'envoie pas l'étui 1 à la table 2"):
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
    with pytest.raises(TournamentError, match="« Q1 » joue l'étui 1 une deuxième fois"):
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
    built = _result(**values)
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
    assert "résultat n° 2 (étui 1, table 1) : l'étui 1 a déjà un score" in error([result(1), clash, unknown])
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
    ({"player": "N1", "points": 1, "board": 2}, "pénalité n° 1 : « N1 » n'a pas joué l'étui « 2 »"),
    ({"player": "S2", "points": 1, "board": 1}, "pénalité n° 1 : « S2 » n'a pas joué l'étui « 1 »"),
])
def test_a_faulty_penalty_is_refused_in_french(penalty, message):
    # N1 took étui 1 at table 1 against S1, E1, W1; nobody played étui 2; S2 sat at table 2, which did not play
    data = individual([result(1, 1, 56)], penalties=[{"player": "N1", "points": 1}, penalty])
    assert _refusal(data) == "ligne 1 : " + message.replace("n° 1", "n° 2")


def test_a_penalty_on_an_etui_absent_from_the_boards_says_so():
    data = individual([result(1, 1, 56)], boards=[{"number": 1, "taker": "N"}],
                      penalties=[{"player": "N1", "points": 1, "board": 3}])
    assert _refusal(data) == "ligne 1 : pénalité n° 1 : « N1 » n'a pas joué l'étui « 3 » (absent de « boards »)"
    data["penalties"] = [{"player": "N1", "points": 1, "board": "1"}]  # a text is no étui number
    assert _refusal(data) == "ligne 1 : pénalité n° 1 : « N1 » n'a pas joué l'étui « 1 » (absent de « boards »)"


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
    ({"members": "N1"}, "joueur « X1 » : « members » doit être une liste d'identifiants"),
    ({"members": [1]}, "joueur « X1 » : « members » doit être une liste d'identifiants"),
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
        "ligne 1 : équipe « EW1 » : « P2 » est déjà membre de l'équipe « NS1 »"
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
                   "score n'est possible entre −32 et +30"),
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
        "ligne 3 : résultat n° 2 (étui 1, table 2) : le preneur « E2 » est en ligne E, l'étui 1 se prend en N")
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
    with pytest.raises(TournamentError, match="ce score n'est possible qu'avec un chelem"):
        load_tournament(text(individual([result(1, 1, 56), result(1, 2, 0)])))


def test_a_quadrettes_attacker_must_be_of_the_attacking_quadrette():
    line = {"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82}
    assert load_tournament(_quadrettes([{**line, "attacker": "p2"}])).results[0].score == 82  # a member: read
    with pytest.raises(TournamentError) as refused:
        load_tournament(_quadrettes([{**line, "attacker": "p5"}]))
    assert str(refused.value) == "ligne 1 : résultat n° 1 : l'attaquant « p5 » n'est pas de la quadrette « Q1 »"
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
