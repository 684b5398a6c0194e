"""Word for word: the refusals of a typed-in movement (SPEC §9 ``tarot-movement/1``), the cards' plain data
(SPEC §8), the announced moves and the arbiter's triplettes schedule — on small movements written by hand."""

import pytest

from duplicate.core.movements import Board, Movement, MovementError, from_schedule, next_move
from duplicate.core.movements.cards_data import guide_cards, personal_cards
from duplicate.core.movements.model import Round, boards_per_position, default_takers
from duplicate.core.movements.moves import LineMove, Move, describe

NSEW = {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}


def base(**changes):
    data = {"kind": "individual", "tables": 1, "positions": 1,
            "rounds": [{"position": 1, "table": 1, "seats": dict(NSEW), "boards": [1, 2, 3, 4]}]}
    data.update(changes)
    return data


def round_(**changes):
    r = {"position": 1, "table": 1, "seats": dict(NSEW), "boards": [1, 2, 3, 4]}
    r.update(changes)
    return base(rounds=[r])


def refused(data):
    with pytest.raises(MovementError) as err:
        Movement.from_dict(data)
    return str(err.value)


# -- Movement.from_dict ------------------------------------------------------------------------

R1 = "tour n° 1 de la liste « rounds » (position 1, table 1)"


@pytest.mark.parametrize("data,message", [
    ([], "le mouvement doit être un objet JSON"),
    (base(format="tarot-movement/2"), "format « tarot-movement/2 » inconnu (attendu « tarot-movement/1 »)"),
    (base(kind="bridge"), "type de mouvement « bridge » inconnu (attendu : individual, triplettes, quadrettes, team_match)"),
    (base(tables=0), "« tables » doit être un entier positif (reçu : 0)"),
    (base(tables=True), "« tables » doit être un entier positif (reçu : True)"),
    (base(tables="2"), "« tables » doit être un entier positif (reçu : '2')"),
    (base(positions=-1), "« positions » doit être un entier positif (reçu : -1)"),
    (base(rounds=[]), "« rounds » doit être une liste non vide de tours"),
    (base(rounds="nope"), "« rounds » doit être une liste non vide de tours"),
    (base(boards="x"), "« boards » doit être une liste d’étuis"),
    (base(boards=[5]), "étui n° 1 de la liste « boards » : objet attendu"),
    (base(boards=[{"number": 1}, "x"]), "étui n° 2 de la liste « boards » : objet attendu"),
    (base(boards=[{"number": 0}]), "étui n° 1 de la liste « boards » : numéro invalide 0"),
    (base(boards=[{"number": True}]), "étui n° 1 de la liste « boards » : numéro invalide True"),
    (base(boards=[{"number": "3"}]), "étui n° 1 de la liste « boards » : numéro invalide '3'"),
    (base(boards=[{"number": 1, "taker": "x"}]), "étui 1 : preneur « x » inconnu (N, S, E ou O)"),
    (base(players=0), "« players » doit être un entier positif (reçu : 0)"),
    (base(rests="x"), "« rests » doit être une liste de positions avec leurs joueurs au relais"),
    (base(rests=[5]), "relais n° 1 de la liste « rests » : objet attendu"),
    (base(rests=[{"position": 1, "entrants": ["N1"]}, {"position": 0, "entrants": []}]),
     "relais n° 2 de la liste « rests » : « position » doit être un entier positif (reçu : 0)"),
    (base(rests=[{"position": True, "entrants": []}]),
     "relais n° 1 de la liste « rests » : « position » doit être un entier positif (reçu : True)"),
    (base(rests=[{"position": "1", "entrants": []}]),
     "relais n° 1 de la liste « rests » : « position » doit être un entier positif (reçu : '1')"),
    (base(rests=[{"position": 1, "entrants": "N1"}]),
     "relais n° 1 de la liste « rests » : « entrants » doit être une liste d’identifiants"),
    (base(rests=[{"position": 1, "entrants": [" "]}]),
     "relais n° 1 de la liste « rests » : « entrants » doit être une liste d’identifiants"),
    (base(rests=[{"position": 1, "entrants": [3]}]),
     "relais n° 1 de la liste « rests » : « entrants » doit être une liste d’identifiants"),
    (base(rounds=["x"]), "tour n° 1 de la liste « rounds » : objet attendu"),
    (round_(position=0), "tour n° 1 de la liste « rounds » : « position » doit être un entier positif (reçu : 0)"),
    (round_(table=True), "tour n° 1 de la liste « rounds » : « table » doit être un entier positif (reçu : True)"),
    (round_(table="1"), "tour n° 1 de la liste « rounds » : « table » doit être un entier positif (reçu : '1')"),
    (round_(seats={}), f"{R1} : « seats » doit associer des places à des participants"),
    (round_(seats="N1"), f"{R1} : « seats » doit associer des places à des participants"),
    (round_(seats={"N": "N1", "Z": "N9"}), f"{R1} : place « Z » inconnue (attendu : N, S, E, W)"),
    (round_(seats={"N": "N1", "S": ""}), f"{R1} : participant manquant à la place « S »"),
    (round_(seats={"N": "N1", "S": 5}), f"{R1} : participant manquant à la place « S »"),
    (round_(boards=[]), f"{R1} : « boards » doit être une liste non vide de numéros d’étuis"),
    (round_(boards=[0]), f"{R1} : « boards » doit être une liste non vide de numéros d’étuis"),
    (round_(boards=[True]), f"{R1} : « boards » doit être une liste non vide de numéros d’étuis"),
    (round_(boards=["1"]), f"{R1} : « boards » doit être une liste non vide de numéros d’étuis"),
    (round_(room="x"), f"{R1} : salle « x » inconnue (attendu : open ou closed)"),
    (base(kind="quadrettes", rounds=[{"position": 1, "table": 1, "seats": {"O": "Q1"}, "boards": [1]}]),
     f"{R1} : place « O » inconnue (attendu : attack, defence)"),
    (base(kind="quadrettes", rounds=[{"position": 1, "table": 1, "seats": {"Attack": "Q1"}, "boards": [1]}]),
     f"{R1} : place « Attack » inconnue (attendu : attack, defence)"),
])
def test_malformed_movements_are_refused_word_for_word(data, message):
    assert refused(data) == message


def test_a_read_movement_with_every_optional_field():
    m = Movement.from_dict(base(
        format="tarot-movement/1", tables=2, positions=2, players=26, notes=["a", 2],
        rounds=[{"position": 2, "table": 1, "seats": {"w": " W1 ", "o": "x", "n": "N1"}, "boards": [5, 6],
                 "room": "open", "chosen_by": 5},
                {"position": 1, "table": 2, "seats": {"S": "S1"}, "boards": [1]},
                {"position": 1, "table": 1, "seats": {"N": "N1"}, "boards": [2], "room": "closed"}],
        boards=[{"number": 1}, {"number": 2, "taker": "o"}, {"number": 3, "taker": "e"}, {"number": 6}],
        rests=[{"position": 2, "entrants": [" N7 ", "S7"]}, {"position": 1, "entrants": []}]))
    # seats upper-cased, « O » read as W, sorted N S E W (both West entries kept, in their order), names stripped
    assert m.rounds == (Round(1, 1, (("N", "N1"),), (2,), "closed"),
                        Round(1, 2, (("S", "S1"),), (1,)),
                        Round(2, 1, (("N", "N1"), ("W", "W1"), ("W", "x")), (5, 6), "open", "5"))
    # a taker missing is N, S, E, W by number (étui 6 → S); « o » is West
    assert m.boards == (Board(1, "N"), Board(2, "W"), Board(3, "E"), Board(6, "S"))
    assert (m.tables, m.positions, m.players) == (2, 2, 26)
    assert m.notes == ("a", "2")
    assert m.rests == ((1, ()), (2, ("N7", "S7")))


def test_defaults_when_optional_fields_are_absent():
    m = Movement.from_dict(base(rounds=[{"position": 1, "table": 1, "seats": dict(NSEW), "boards": [5, 6, 7, 8, 9]}]))
    assert m.boards == (Board(5, "N"), Board(6, "S"), Board(7, "E"), Board(8, "W"), Board(9, "N"))
    assert m.notes == () and m.players is None and m.rests == ()
    assert Movement.from_dict(base(boards=[], notes="not a list")).notes == ()
    assert Movement.from_dict(base(boards=[])).boards == (Board(1, "N"), Board(2, "S"), Board(3, "E"), Board(4, "W"))
    # the smallest positive values are accepted
    assert Movement.from_dict(base(players=1, rests=[{"position": 1, "entrants": ["N1"]}])).players == 1
    assert Movement.from_dict(base(boards=[{"number": 1, "taker": "N"}])).boards == (Board(1, "N"),)


def test_writing_a_movement_back():
    m = Movement("team_match", 2, 1, (Board(1, "S"),),
                 (Round(1, 1, (("attack", "A"), ("defence", "B")), (1,), "open", "A"),
                  Round(1, 2, (("attack", "B"), ("defence", "A")), (1,))),
                 ("une note",), 8, ((1, ("C",)),))
    assert m.to_dict() == {
        "format": "tarot-movement/1", "kind": "team_match", "tables": 2, "positions": 1,
        "boards": [{"number": 1, "taker": "S"}],
        "rounds": [{"position": 1, "table": 1, "seats": {"attack": "A", "defence": "B"}, "boards": [1],
                    "room": "open", "chosen_by": "A"},
                   {"position": 1, "table": 2, "seats": {"attack": "B", "defence": "A"}, "boards": [1]}],
        "players": 8, "rests": [{"position": 1, "entrants": ["C"]}], "notes": ["une note"]}
    assert Movement.from_dict(m.to_dict()) == m


def test_movement_queries():
    m = Movement("individual", 2, 2, (Board(1, "E"),),
                 (Round(1, 1, (("N", "N1"), ("S", "S1")), (1,)), Round(2, 2, (("N", "S1"), ("E", "N2")), (2,))),
                 rests=((1, ("N2",)), (2, ("N1",))))
    assert m.entrants() == ("N1", "S1", "N2")
    assert m.resting_at(1) == ("N2",) and m.resting_at(2) == ("N1",) and m.resting_at(3) == ()
    assert m.rounds_at(2) == (m.rounds[1],) and m.rounds_at(3) == ()
    assert m.round_at(2, 2) is m.rounds[1] and m.round_at(2, 1) is None and m.round_at(1, 2) is None
    assert m.taker_of(1) == "E"                               # from the list
    assert [m.taker_of(n) for n in (2, 3, 4, 5)] == ["S", "E", "W", "N"]   # not listed: N, S, E, W by number
    assert m.rounds[1].seat_of("N2") == "E" and m.rounds[1].seat_of("N1") is None


def test_boards_per_position_and_default_takers():
    assert boards_per_position(None) == 4 and boards_per_position(1) == 1 and boards_per_position(7) == 7
    with pytest.raises(MovementError) as err:
        boards_per_position(0)
    assert str(err.value) == "Il faut au moins un étui par position."
    assert default_takers(6) == (Board(1, "N"), Board(2, "S"), Board(3, "E"), Board(4, "W"), Board(5, "N"), Board(6, "S"))
    assert default_takers(0) == ()


# -- cards -------------------------------------------------------------------------------------

def _rests_movement():
    """Two tables, two positions: N1 rests at position 2 (N2 takes table 1's North), table 2 is empty at
    position 2 and its étuis 3–4 go to table 1; N9 is registered but rests at both positions."""
    return Movement("individual", 2, 2, default_takers(4),
                    (Round(1, 1, (("N", "N1"), ("S", "S1"), ("E", "E1"), ("W", "W1")), (1, 2)),
                     Round(1, 2, (("N", "N2"), ("S", "S2"), ("E", "E2"), ("W", "W2")), (3, 4)),
                     Round(2, 1, (("N", "N2"), ("S", "S1"), ("E", "E1"), ("W", "W1")), (3, 4))),
                    rests=((1, ("N9",)), (2, ("N1", "N9"))))


def test_guide_cards_word_for_word():
    relais = [{"position": 1, "entrants": ["N9"]}, {"position": 2, "entrants": ["N1", "N9"]}]
    assert guide_cards(_rests_movement()) == [
        {"table": 1, "kind": "individual", "relais": relais, "positions": [
            {"position": 1, "seats": {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}, "boards": [1, 2],
             "boards_next_table": None, "players_next_table": {"N": None, "S": 1, "E": 1, "W": 1}, "idle": False},
            {"position": 2, "seats": {"N": "N2", "S": "S1", "E": "E1", "W": "W1"}, "boards": [3, 4],
             "boards_next_table": None, "players_next_table": {"N": None, "S": None, "E": None, "W": None},
             "idle": False}]},
        {"table": 2, "kind": "individual", "relais": relais, "positions": [
            {"position": 1, "seats": {"N": "N2", "S": "S2", "E": "E2", "W": "W2"}, "boards": [3, 4],
             "boards_next_table": 1, "players_next_table": {"N": 1, "S": None, "E": None, "W": None}, "idle": False},
            {"position": 2, "seats": {}, "boards": [], "boards_next_table": None, "players_next_table": {},
             "idle": True}]},
    ]


def test_etuis_that_split_list_both_tables_and_rooms_are_named():
    m = Movement("individual", 2, 2, default_takers(2),
                 (Round(1, 1, (("N", "N1"),), (1, 2)), Round(2, 2, (("N", "N2"),), (2,)), Round(2, 1, (("N", "N3"),), (1,))))
    assert guide_cards(m)[0]["positions"][0]["boards_next_table"] == [1, 2]
    t = Movement("team_match", 2, 1, default_takers(1),
                 (Round(1, 1, (("attack", "A"), ("defence", "B")), (1,), "open"),
                  Round(1, 2, (("attack", "B"), ("defence", "A")), (1,), "closed")))
    rows = [card["positions"][0] for card in guide_cards(t)]
    assert [row["room"] for row in rows] == ["open", "closed"]
    assert "room" not in guide_cards(m)[0]["positions"][0]


def test_personal_cards_word_for_word():
    cards = personal_cards(_rests_movement())
    assert [c["entrant"] for c in cards] == ["N1", "S1", "E1", "W1", "N2", "S2", "E2", "W2", "N9"]
    by = {c["entrant"]: c for c in cards}
    assert by["N1"] == {"entrant": "N1", "positions": [
        {"position": 1, "table": 1, "seat": "N", "seat_fr": "Nord", "boards": [1, 2], "next_table": None},
        {"position": 2, "table": None, "seat": None, "seat_fr": "relais", "boards": [], "next_table": None}]}
    assert by["N2"] == {"entrant": "N2", "positions": [
        {"position": 1, "table": 2, "seat": "N", "seat_fr": "Nord", "boards": [3, 4], "next_table": 1},
        {"position": 2, "table": 1, "seat": "N", "seat_fr": "Nord", "boards": [3, 4], "next_table": None}]}
    assert by["S2"]["positions"][1] == {"position": 2, "table": None, "seat": None, "seat_fr": "relâche",
                                         "boards": [], "next_table": None}
    assert [row["seat_fr"] for row in by["N9"]["positions"]] == ["relais", "relais"]
    assert [by[w]["positions"][0]["seat_fr"] for w in ("S1", "E1", "W1")] == ["Sud", "Est", "Ouest"]


def test_team_cards_per_role_and_resting_teams_get_none():
    q = Movement("quadrettes", 1, 2, default_takers(2),
                 (Round(1, 1, (("attack", "Q1"), ("defence", "Q2")), (1,)),
                  Round(2, 1, (("attack", "Q2"), ("defence", "Q1")), (2,))),
                 rests=((1, ("Q3",)),))
    cards = personal_cards(q)
    assert [(c["entrant"], c["role"]) for c in cards] == [("Q1", "attack"), ("Q2", "defence"), ("Q2", "attack"),
                                                          ("Q1", "defence")]
    assert cards[0]["positions"] == [
        {"position": 1, "table": 1, "seat": "attack", "seat_fr": "attaque", "boards": [1], "next_table": None},
        {"position": 2, "table": None, "seat": None, "seat_fr": "relâche", "boards": [], "next_table": None}]
    assert cards[3]["positions"][1]["seat_fr"] == "défense"
    # a seat key without a French name is shown as it is
    odd = Movement("individual", 1, 1, default_takers(1), (Round(1, 1, (("X", "P1"),), (1,)),))
    assert personal_cards(odd)[0]["positions"][0]["seat_fr"] == "X"


# -- moves -------------------------------------------------------------------------------------

def test_players_changing_orientation_and_etuis_staying():
    # one table: N1 and S1 swap seats, E1 and W1 stay, the étuis stay
    m = Movement("individual", 1, 2, default_takers(2),
                 (Round(1, 1, (("N", "N1"), ("S", "S1"), ("E", "E1"), ("W", "W1")), (1, 2)),
                  Round(2, 1, (("N", "S1"), ("S", "N1"), ("E", "E1"), ("W", "W1")), (1, 2))))
    move = next_move(m, 1)
    assert move == Move(1, (LineMove("N", None), LineMove("S", None), LineMove("E", 0), LineMove("W", 0)), 0)
    assert describe(move) == ["Nord voir les cartes", "Sud voir les cartes", "Est fixe", "Ouest fixe", "Étuis fixes"]


def test_etuis_that_split_or_leave_are_not_announced():
    seats = lambda t: (("N", f"N{t}"),)   # noqa: E731
    split = Movement("individual", 2, 2, default_takers(4),
                     (Round(1, 1, seats(1), (1, 2)), Round(1, 2, seats(2), (3, 4)),
                      Round(2, 1, seats(1), (1, 3)), Round(2, 2, seats(2), (2, 4))))
    assert next_move(split, 1).boards is None                      # 1 stays, 2 goes +1
    gone = Movement("individual", 2, 2, default_takers(8),
                    (Round(1, 1, seats(1), (1, 2)), Round(1, 2, seats(2), (3, 4)),
                     Round(2, 1, seats(1), (5, 6)), Round(2, 2, seats(2), (7, 8))))
    move = next_move(gone, 1)
    assert move.boards is None and describe(move) == ["Nord fixe"]
    assert next_move(gone, 2) is None and next_move(gone, -1) is None


def test_joiners_are_listed_by_table_then_seat():
    m = Movement("individual", 2, 2, default_takers(2),
                 (Round(1, 1, (("N", "N1"),), (1,)), Round(1, 2, (("N", "N2"),), (2,)),
                  Round(2, 1, (("N", "N9"),), (2,)), Round(2, 2, (("N", "N10"),), (1,))),
                 rests=((1, ("N9", "N10")), (2, ("N1", "N2"))))
    move = next_move(m, 1)
    assert move.position == 1 and move.joining == (("N9", 1, "N"), ("N10", 2, "N"))
    assert move.resting == ("N1", "N2")


def test_a_team_match_announces_nothing_but_keeps_its_position():
    t = Movement("team_match", 2, 2, default_takers(2),
                 (Round(1, 1, (("attack", "A"), ("defence", "B")), (1,)), Round(2, 1, (("attack", "B"), ("defence", "A")), (2,))))
    assert next_move(t, 1) == Move(1, (), None)


def test_describe_names_unknown_lines_as_they_are():
    assert describe(Move(3, (LineMove("X", 1), LineMove("NS", -2)), 2)) == ["X +1", "Nord-Sud −2", "Étuis +2"]


# -- the arbiter's triplettes schedule ---------------------------------------------------------

def test_a_typed_schedule_becomes_a_movement():
    m = from_schedule([(1, 1, "NS1", "EW1", 1), ("2", "2", 7, "EW2", "2")], boards_per_position=2)
    assert m.kind == "triplettes" and (m.tables, m.positions) == (2, 2)
    assert m.rounds == (Round(1, 1, (("NS", "NS1"), ("EW", "EW1")), (1, 2)),
                        Round(2, 2, (("NS", "7"), ("EW", "EW2")), (3, 4)))
    assert m.boards == default_takers(4)
    assert m.notes == ("Mouvement saisi par l’arbitre.",)


@pytest.mark.parametrize("rows,message", [
    ([], "le tableau du mouvement est vide"),
    ([(1, 1, "NS1", "EW1", 1), (1, 2, "NS2")], "ligne 2 du tableau : attendu (position, table, NS, EO, série)"),
    ([("x", 1, "NS1", "EW1", 1)], "ligne 1 du tableau : attendu (position, table, NS, EO, série)"),
    ([(0, 1, "NS1", "EW1", 1)], "ligne 1 du tableau : position, table et série commencent à 1"),
    ([(1, 1, "NS1", "EW1", 1), (1, 0, "NS1", "EW1", 1)], "ligne 2 du tableau : position, table et série commencent à 1"),
    ([(1, 1, "NS1", "EW1", 0)], "ligne 1 du tableau : position, table et série commencent à 1"),
])
def test_a_faulty_schedule_is_refused_word_for_word(rows, message):
    with pytest.raises(MovementError) as err:
        from_schedule(rows)
    assert str(err.value) == message


def test_lines_outside_the_format_come_last_in_the_announcement():
    # a hand-built round with a seat key the individual format does not know: followed, announced after N S E W
    m = Movement("individual", 2, 2, default_takers(2),
                 (Round(1, 1, (("X", "P1"), ("N", "N1")), (1,)), Round(2, 2, (("X", "P1"), ("N", "N1")), (1,))))
    assert describe(next_move(m, 1)) == ["Nord +1", "X +1", "Étuis +1"]


def test_a_schedule_has_four_etuis_per_set_by_default():
    assert from_schedule([(1, 1, "NS1", "EW1", 2)]).rounds[0].boards == (5, 6, 7, 8)


def test_an_idle_table_then_a_played_one_and_team_cards_follow_each_role():
    m = Movement("individual", 2, 2, default_takers(2),
                 (Round(1, 1, (("N", "N1"),), (1,)), Round(2, 1, (("N", "N2"),), (2,)), Round(2, 2, (("N", "N1"),), (1,))))
    table2 = guide_cards(m)[1]["positions"]
    assert [row["idle"] for row in table2] == [True, False] and table2[1]["seats"] == {"N": "N1"}
    q = Movement("quadrettes", 2, 2, default_takers(2),
                 (Round(1, 1, (("attack", "Q1"), ("defence", "Q2")), (1,)), Round(1, 2, (("attack", "Q2"), ("defence", "Q1")), (2,)),
                  Round(2, 1, (("attack", "Q2"), ("defence", "Q1")), (1,)), Round(2, 2, (("attack", "Q1"), ("defence", "Q2")), (2,))))
    # position 1, table 1: Q1's attacker goes to table 2, Q2's defence to table 2
    assert guide_cards(q)[0]["positions"][0]["players_next_table"] == {"attack": 2, "defence": 2}


def test_every_player_only_resting_gets_a_card():
    m = Movement("individual", 1, 1, default_takers(1), (Round(1, 1, (("N", "N1"),), (1,)),),
                 rests=((1, ("N9", "N10")),))
    assert [c["entrant"] for c in personal_cards(m)] == ["N1", "N9", "N10"]
