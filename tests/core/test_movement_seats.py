"""A tournament file with its movement (issue 29 point 6): each result is checked against the seats the
movement gives its table, the movement's takers against the étuis', and the movement itself for a player at
two tables in one position — the rules of `core.movements.validator` (`table_roles`,
`taker_contradictions`, `seated_twice`), read by `core.tournament`."""

import json

import pytest

from duplicate.core.movements import generate
from duplicate.core.movements.relais import individual_entrant_ids
from duplicate.core.movements.validator import seated_twice, table_roles, taker_contradictions
from duplicate.core.tournament import TournamentError, load_tournament, ranking_output

HEADCOUNTS = (12, 13, 26, 61)


def tournament_file(players: int, positions: int = 2) -> dict:
    """A whole individual file: the generated movement (relais when ``players`` is not a multiple of 4), its
    étuis in ``boards``, one result for every étui at every table, its taker at the étui's taker seat."""
    movement = generate("individual", None, positions, players=players).to_dict()
    takers = {b["number"]: b["taker"] for b in movement["boards"]}
    results = []
    for round_ in movement["rounds"]:
        seats = round_["seats"]
        for board in round_["boards"]:
            taker = seats[takers[board]]
            results.append({"board": board, "table": round_["table"], "position": round_["position"],
                            "taker": taker, "defenders": [seats[s] for s in "NSEW" if seats[s] != taker],
                            "score": 56 + 2 * (round_["table"] % 3)})
    return {"format": "tarot-tournament/1", "name": "Essai", "kind": "individual",
            "players": [{"id": ident} for ident in individual_entrant_ids(players)],
            "boards": [dict(b) for b in movement["boards"]], "movement": movement, "results": results}


def text(data: dict) -> str:
    """One entry a line (players, boards, results), so that the refusals name a line."""
    head = {k: v for k, v in data.items() if k not in ("players", "boards", "results")}
    out = json.dumps(head, ensure_ascii=False)[:-1]
    for key in ("players", "boards", "results"):
        out += f',\n"{key}": [\n' + ",\n".join(json.dumps(item, ensure_ascii=False) for item in data[key]) + "\n]"
    return out + "}\n"


def refusal(data: dict) -> str:
    with pytest.raises(TournamentError) as refused:
        load_tournament(text(data))
    return str(refused.value)


def line_of(data: dict, section: str, index: int) -> int:
    """The line of entry ``index`` of ``section`` in `text`."""
    lines = text(data).splitlines()
    wanted = json.dumps(data[section][index], ensure_ascii=False)
    return next(n for n, line in enumerate(lines, start=1) if line.rstrip(",") == wanted)


def swap_taker(data: dict, index: int) -> tuple[str, str]:
    """Result ``index``'s taker and its first defender exchanged: (the true taker, the false one)."""
    result = data["results"][index]
    true, false = result["taker"], result["defenders"][0]
    result["taker"], result["defenders"][0] = false, true
    return true, false


# --- a correct file --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", HEADCOUNTS)
def test_a_correct_file_with_its_movement_is_ranked(players):
    data = tournament_file(players)
    output = ranking_output(load_tournament(text(data)))
    assert len(output["ranking"]) == players
    assert sum(len(board["results"]) for board in output["boards"]) == len(data["results"])


# --- (a) a taker in a defender's seat ------------------------------------------------------------------------

@pytest.mark.parametrize("players", HEADCOUNTS)
def test_a_taker_in_a_defenders_seat_is_refused_at_every_try(players):
    """Every result of the file, its taker swapped with a defender in turn: each is refused, naming the
    line, the étui, the table, the position and both players (attack and defence notes would swap)."""
    data = tournament_file(players)
    for index in range(0, len(data["results"]), max(1, len(data["results"]) // 24)):
        tried = json.loads(json.dumps(data))
        true, false = swap_taker(tried, index)
        result = tried["results"][index]
        seat = tried["boards"][[b["number"] for b in tried["boards"]].index(result["board"])]["taker"]
        assert refusal(tried) == (
            f"ligne {line_of(tried, 'results', index)} : résultat n° {index + 1} (étui {result['board']}, table "
            f"{result['table']}) : selon le mouvement en position {result['position']}, l’étui "
            f"{result['board']} se prend en {seat} : le preneur est « {true} », pas « {false} » (qui est en défense)")


def test_the_taker_seat_is_the_movements_when_the_boards_do_not_give_it():
    data = tournament_file(12)
    for board in data["boards"]:
        del board["taker"]
    load_tournament(text(data))
    true, false = swap_taker(data, 5)
    assert f"le preneur est « {true} », pas « {false} »" in refusal(data)


def test_a_player_not_seated_at_the_table_is_refused():
    """At 13 players one rests at each position (relais): named at a table in position 1 where he rests, he
    clashes with no other result, the movement alone says he is not there."""
    data = tournament_file(13)
    result = data["results"][0]
    stranger = next(r["entrants"][0] for r in data["movement"]["rests"] if r["position"] == 1)
    result["defenders"][2] = stranger
    seats = data["movement"]["rounds"][0]["seats"]
    assert refusal(data) == (
        f"ligne {line_of(data, 'results', 0)} : résultat n° 1 (étui {result['board']}, table 1) : selon le "
        f"mouvement en position 1, « {stranger} » n’est pas à la table 1 "
        f"(N {seats['N']}, S {seats['S']}, E {seats['E']}, W {seats['W']})")


def test_a_movement_without_seats_is_checked_as_before():
    """A movement that lists étuis and tables only seats nobody: the results are checked against its tables
    alone (and the lines)."""
    data = tournament_file(12)
    for round_ in data["movement"]["rounds"]:
        del round_["seats"]
    swap_taker(data, 0)
    assert load_tournament(text(data)).results[0].taker == data["results"][0]["taker"]


# --- (b) the movement's takers against the étuis' ------------------------------------------------------------

@pytest.mark.parametrize("players", HEADCOUNTS)
def test_a_movement_taker_contradicting_the_etuis_is_refused(players):
    data = tournament_file(players)
    index = len(data["boards"]) // 2
    number, seat = data["boards"][index]["number"], data["boards"][index]["taker"]
    other = {"N": "E", "E": "S", "S": "W", "W": "N"}[seat]
    data["movement"]["boards"][index]["taker"] = other
    assert refusal(data) == (f"ligne {line_of(data, 'boards', index)} : étui {number} : le mouvement le fait "
                             f"prendre en {other}, « boards » en {seat} : le preneur doit être le même")


def test_etuis_without_a_taker_contradict_nothing():
    data = tournament_file(12)
    del data["boards"][0]["taker"]
    data["movement"]["boards"][1]["taker"] = data["boards"][1]["taker"]
    load_tournament(text(data))


# --- (c) one player at two tables in one position ---------------------------------------------------------------

@pytest.mark.parametrize("players", HEADCOUNTS)
def test_a_player_at_two_tables_in_one_position_is_refused(players):
    """The movement seats a player of table 1 at table 2 too in position 2 (the results follow it, and carry
    no position: nothing but the movement says where each sits)."""
    data = tournament_file(players)
    rounds = data["movement"]["rounds"]
    first = next(r for r in rounds if r["position"] == 2 and r["table"] == 1)
    second = next(r for r in rounds if r["position"] == 2 and r["table"] == 2)
    twice = first["seats"]["E"]
    second["seats"]["E"] = twice
    for result in data["results"]:
        del result["position"]
    key_line = text(data).splitlines().index(next(line for line in text(data).splitlines()
                                                  if line.startswith('{"format"'))) + 1
    assert refusal(data) == (f"ligne {key_line} : mouvement : en position 2, « {twice} » est placé à deux tables "
                             "(1 et 2)")


# --- the rules themselves, as the validator keeps them ----------------------------------------------------------

def test_seated_twice_names_each_clash_and_carries_the_seats_across_calls():
    rounds = [(1, 1, [("N", "A"), ("S", "B")]), (1, 2, [("N", "C"), ("S", "A")]), (2, 2, [("N", "A")]),
              (1, 3, [("E", "A")])]
    assert seated_twice(rounds) == [(1, "A", 1, 2), (1, "A", 2, 3)]
    where = {}
    assert seated_twice(rounds[:1], False, where) == [] and seated_twice(rounds[1:2], False, where) == [(1, "A", 1, 2)]
    # quadrettes: a team's attacker and its defence are two units
    assert seated_twice([(1, 1, [("attack", "Q1"), ("defence", "Q2")]), (1, 2, [("attack", "Q2"), ("defence", "Q1")])],
                        True) == []
    assert seated_twice([(1, 1, [("attack", "Q1")]), (1, 2, [("attack", "Q1")])], True) == [(1, "Q1", 1, 2)]


def test_table_roles_by_kind():
    seats = {"N": "a", "S": "b", "E": "c", "W": "d"}
    assert table_roles("individual", seats, "N") == ("a", ("b", "c", "d"))
    assert table_roles("individual", seats, "E") == ("c", ("a", "b", "d"))
    assert table_roles("individual", seats, "W") == ("d", ("a", "b", "c"))
    assert table_roles("individual", seats, None) is None
    assert table_roles("individual", {"N": "a", "S": "b", "E": "c"}, "N") is None
    assert table_roles("quadrettes", {"attack": "Q1", "defence": "Q2"}, "N") == ("Q1", ("Q2",))
    assert table_roles("quadrettes", {"attack": "Q1"}, "N") is None
    assert table_roles("triplettes", {"NS": "NS1", "EW": "EW1"}, "N") is None
    assert table_roles("team_match", {"attack": "A", "defence": "B"}, "S") is None


def test_taker_contradictions_compare_the_etuis_given_on_both_sides():
    assert taker_contradictions([(1, "N"), (2, "S"), (3, "E")], {1: "N", 2: "W"}) == [(2, "S", "W")]
    assert taker_contradictions([], {1: "N"}) == []


def test_a_round_without_its_position_still_seats_its_table():
    """A round with seats but no position: its players are checked all the same, the message names no
    position (and no seat clash is counted for it)."""
    data = tournament_file(12)
    for round_ in data["movement"]["rounds"]:
        del round_["position"]
    for result in data["results"]:
        del result["position"]
    load_tournament(text(data))
    true, false = swap_taker(data, 0)
    assert refusal(data).endswith(f"résultat n° 1 (étui 1, table 1) : selon le mouvement, l’étui 1 se prend en N : "
                                  f"le preneur est « {true} », pas « {false} » (qui est en défense)")


def test_seats_that_are_not_ids_are_refused():
    data = tournament_file(12)
    data["movement"]["rounds"][2]["seats"]["E"] = 7
    assert refusal(data).endswith("mouvement « movement » mal formé : « seats » associe des places à des "
                                  "identifiants")


def test_a_movement_boards_list_without_takers_or_not_a_list_gives_no_taker():
    data = tournament_file(12)
    for board in data["boards"]:
        del board["taker"]
    data["movement"]["boards"] = {"1": "N"}
    swap_taker(data, 0)
    load_tournament(text(data))  # no taker seat anywhere: the players are checked, not the roles
    data["movement"]["boards"] = [{"number": 1}, "N"]
    load_tournament(text(data))
    data["boards"][0]["taker"] = "N"  # the étui's seat, the movement's étui silent: no contradiction
    data["movement"]["boards"] = [{"number": 1}]
    assert "le preneur est" in refusal(data)


def test_quadrettes_the_attacking_quadrette_takes():
    """A generated quadrettes movement (3 tables): the attack quadrette of each table is the ``taker_team``;
    a quadrette attacking at one table and defending at another in the same position is no clash (its
    attacker and its defence are different players); the two exchanged are refused."""
    assert generate("quadrettes", 3, None).rounds[0].boards == (9, 10, 11, 12)
    movement = generate("quadrettes", 3, None).to_dict()
    results = [{"board": board, "table": r["table"], "taker_team": r["seats"]["attack"],
                "defence_team": r["seats"]["defence"], "score": 56 + 2 * r["table"]}
               for r in movement["rounds"] for board in r["boards"]]
    players = [{"id": f"p{k}"} for k in range(12)]
    teams = [{"id": f"Q{q}", "members": [f"p{4 * q - 4 + i}" for i in range(4)]} for q in (1, 2, 3)]
    data = {"kind": "quadrettes", "players": players, "teams": teams, "boards": movement["boards"],
            "movement": movement, "results": results}
    assert len(load_tournament(json.dumps(data)).results) == len(results)
    first = results[0]
    first["taker_team"], first["defence_team"] = first["defence_team"], first["taker_team"]
    with pytest.raises(TournamentError, match="joue l’étui 9 une deuxième fois"):  # the swap clashes with another
        load_tournament(json.dumps(data))
    data["results"] = [first]  # alone, only the movement says it
    with pytest.raises(TournamentError) as refused:
        load_tournament(json.dumps(data))
    assert str(refused.value) == (
        f"ligne 1 : résultat n° 1 (étui {first['board']}, table 1) : selon le mouvement en position 1, l’attaque est "
        f"« {first['defence_team']} », pas « {first['taker_team']} » (qui est en défense)")
