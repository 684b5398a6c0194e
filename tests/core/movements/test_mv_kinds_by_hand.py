"""Each kind's movement for a few small table counts, worked out by hand from SPEC §7 and the seeds'
arithmetic (Rainbow: N fixe, S +1, E +2, O −2, étuis −1; Mitchell: EO +1, étuis −1; quadrettes: attackers
+2, étuis +1; team match: four quarters, mirrored rooms), and the generators' refusals word for word."""

import pytest

from duplicate.core.movements import MovementError, generate, individual_entrant_ids, reach
from duplicate.core.movements.designs import (
    Design, Layout, best_positions, candidates, field_design, layout_for, prime_power, product, rainbow, searched)
from duplicate.core.movements.model import Round, default_takers
from duplicate.core.movements.small_clubs import block_permutations

RAINBOW = "Rainbow FFT (N fixe, S +1, E +2, O −2, étuis −1)"


def refused(*args, **kwargs):
    with pytest.raises(MovementError) as err:
        generate(*args, **kwargs)
    return str(err.value)


def quad(p, t, attack, defence, first):
    return Round(p, t, (("attack", attack), ("defence", defence)), tuple(range(first, first + 4)))


def trip(p, t, ns, ew, first):
    return Round(p, t, (("NS", ns), ("EW", ew)), tuple(range(first, first + 4)))


# -- the entry points --------------------------------------------------------------------------

@pytest.mark.parametrize("kind,expected", [
    ("Individuel", "individual"), ("quadrette", "quadrettes"), ("triplette", "triplettes"),
    ("team-match", "team_match"), ("equipes", "team_match"), ("équipes", "team_match"), ("TRIPLETTES", "triplettes"),
])
def test_kind_aliases(kind, expected):
    assert generate(kind, 6 if expected != "individual" else 5).kind == expected


@pytest.mark.parametrize("args,kwargs,message", [
    (("bridge", 5), {}, "type de mouvement « bridge » inconnu (attendu : individual, triplettes, quadrettes, team_match)"),
    (("quadrettes", None), {"players": 21}, "le nombre de joueurs (relais) ne s’applique qu’à l’individuel"),
    (("individual", None), {"players": True}, "nombre de joueurs invalide : True"),
    (("individual", None), {"players": "21"}, "nombre de joueurs invalide : '21'"),
    (("individual", None), {"players": 11}, "Un tournoi individuel demande au moins 12 joueurs (3 tables) ; reçu 11."),
    (("individual", 6), {"players": 21}, "21 joueurs occupent 5 tables, pas 6."),
    (("individual", "5"), {}, "nombre de tables invalide : '5'"),
    (("triplettes", True), {}, "nombre de tables invalide : True"),
])
def test_generate_refusals(args, kwargs, message):
    assert refused(*args, **kwargs) == message


def test_players_with_the_matching_table_count_or_none():
    assert generate("individual", 5, players=21).players == 21
    assert generate("individual", None, players=21).players == 21
    assert generate("individual", None, players=20).rests == ()


@pytest.mark.parametrize("kind,tables,expected", [
    ("individual", 2, (0, 0)), ("individual", 3, (1, 6)), ("individual", 4, (1, 8)), ("individual", 5, (5, 5)),
    ("individual", 6, (5, 5)), ("individual", 8, (8, 8)), ("individual", 12, (10, 10)),
    ("triplettes", 1, (0, 0)), ("triplettes", 2, (1, 1)), ("triplettes", 5, (5, 5)), ("triplettes", 6, (5, 5)),
    ("quadrettes", 1, (0, 0)), ("quadrettes", 2, (2, 2)), ("quadrettes", 7, (6, 6)), ("quadrettes", 8, (8, 8)),
    ("team_match", 1, (0, 0)), ("team_match", 2, (4, 4)), ("team_match", 3, (0, 0)), ("team_match", 4, (4, 4)),
])
def test_reach(kind, tables, expected):
    assert reach(kind, tables) == expected


def test_reach_of_an_unknown_kind():
    with pytest.raises(MovementError) as err:
        reach("bridge", 5)
    assert str(err.value) == "type de mouvement « bridge » inconnu"


def test_reach_of_a_format_without_a_generator_names_its_id():
    """Free play's `Format` has no duplicate movement (its movements are `core.freeplay.movements`'):
    refused, named by its id, not by the object's text."""
    from duplicate.core.formats import format_for
    with pytest.raises(MovementError) as err:
        reach(format_for("free_duo"), 5)
    assert str(err.value) == "type de mouvement « free_duo » inconnu"


def test_entrant_ids():
    assert individual_entrant_ids(12) == [f"J{k}" for k in range(1, 13)]
    assert individual_entrant_ids(19) == [f"J{k}" for k in range(1, 20)]
    five = [f"{line}{t}" for t in range(1, 6) for line in "NSEW"]
    assert individual_entrant_ids(20) == five
    assert individual_entrant_ids(21) == five + ["N6"]
    assert individual_entrant_ids(23) == five + ["N6", "S6", "E6"]
    with pytest.raises(MovementError) as err:
        individual_entrant_ids(11)
    assert str(err.value) == "Un tournoi individuel demande au moins 12 joueurs (3 tables) ; reçu 11."


# -- individual --------------------------------------------------------------------------------

def test_the_five_table_rainbow_seat_by_seat():
    m = generate("individual", 5)
    for p in range(1, 6):
        for t in range(1, 6):
            d = p - 1
            first = (t - 1 + d) % 5          # the set that started at table first + 1 is here (étuis −1)
            assert m.round_at(p, t) == Round(p, t, (
                ("N", f"N{t}"), ("S", f"S{(t - 1 - d) % 5 + 1}"), ("E", f"E{(t - 1 - 2 * d) % 5 + 1}"),
                ("W", f"W{(t - 1 + 2 * d) % 5 + 1}")), tuple(range(4 * first + 1, 4 * first + 5)))
    assert m.boards == default_takers(20) and len(m.rounds) == 25
    assert m.notes == (f"Méthode : {RAINBOW}.",
                       "5 tables, 5 positions de 4 étuis : aucun joueur ne joue deux fois un étui ni ne "
                       "rencontre deux fois un autre joueur.")


def test_individual_notes_with_three_etuis_and_refusals():
    m = generate("individual", 7, 2, boards_per_position=3)
    assert m.notes[1:] == ("7 tables, 2 positions de 3 étuis : aucun joueur ne joue deux fois un étui ni ne "
                           "rencontre deux fois un autre joueur.",
                           "Le nombre d’étuis par position n’est pas un multiple de 4 : l’attaque et les places "
                           "en défense ne sont pas équilibrées.")
    assert m.round_at(2, 1).boards == (4, 5, 6)      # table 1 at position 2 plays set 2 (étuis 4–6)
    assert m.boards == default_takers(21)
    assert len(generate("individual", 7, 2, boards_per_position=8).notes) == 2
    assert refused("individual", 2) == "Un tournoi individuel demande au moins 3 tables (12 joueurs) ; reçu 2 tables."
    assert refused("individual", 5, 0) == "Il faut au moins une position."
    assert refused("individual", 5, 6) == "Avec 5 tables, au plus 5 positions sans répétition ; proposez 5 positions."
    assert refused("individual", 5, 1, boards_per_position=0) == "Il faut au moins un étui par position."
    assert generate("individual", 5, 1).positions == 1


def test_thirty_three_tables_play_two_sections():
    # Rainbow 33 // 3 = 11 positions; 16 + 17 tables: GF(16) and the 17-table Rainbow, 16 positions each
    m = generate("individual", 33)
    assert m.positions == 16
    assert m.notes[0] == ("Méthode : sections (16 + 17 tables : arithmétique du corps à 16 éléments ; "
                          f"{RAINBOW}).")
    # table 17 is the first of the second section: its own North, South and étuis (sets 16… of its part)
    assert m.round_at(1, 17).seats == (("N", "N17"), ("S", "S17"), ("E", "E17"), ("W", "W17"))
    assert m.round_at(1, 17).boards == (65, 66, 67, 68)
    # at position 2 the set that started at table 18 (set 17) has come down one table
    assert m.round_at(2, 17).boards == (69, 70, 71, 72)
    assert m.round_at(2, 17).seat_map["S"] == "S33"      # S +1 within the 17 tables: from table 33 to 17
    assert m.round_at(2, 1).seat_map["N"] == "N1"


# -- designs -----------------------------------------------------------------------------------

def test_prime_powers():
    assert [prime_power(n) for n in (0, 1, 2, 7, 8, 9, 12, 25, 49, 100)] == [
        None, None, (2, 1), (7, 1), (2, 3), (3, 2), None, (5, 2), (7, 2), None]


def test_field_designs_by_hand():
    with pytest.raises(ValueError) as err:
        field_design(4)
    assert str(err.value) == "4 n’est pas une puissance d’un nombre premier ≥ 5"
    with pytest.raises(ValueError):
        field_design(6)
    seven = field_design(7)
    assert seven == Design((7,), tuple((x, 2 * x % 7, -2 * x % 7, -x % 7) for x in range(7)), RAINBOW)
    # GF(8) = GF(2)[x] / (x³ + x + 1), the first irreducible polynomial tried; element index = bits of
    # (x², x, 1); offsets 1·π, x·π, (x+1)·π, x²·π
    eight = field_design(8)
    assert eight.mods == (2, 2, 2) and eight.method == "arithmétique du corps à 8 éléments"
    assert eight.offsets[0] == (0, 0, 0, 0)
    assert eight.offsets[1] == (1, 2, 3, 4)
    assert eight.offsets[2] == (2, 4, 6, 3)           # π = x: x, x², x² + x, x³ = x + 1
    assert eight.offsets[4] == (4, 3, 7, 6)           # π = x²: x², x + 1, x² + x + 1, x⁴ = x² + x
    assert eight.clean_prefix() == 8 and eight.tables == 8 and eight.positions == 8
    # GF(9) = GF(3)[x] / (x² + 1) (x² + 1 has no root mod 3); index = 3·(coefficient of x) + constant, so the
    # four multipliers (indices 1–4) are 1, 2, x, x + 1
    nine = field_design(9)
    assert nine.mods == (3, 3) and nine.offsets[1] == (1, 2, 3, 4)
    assert nine.offsets[3] == (3, 6, 2, 5)            # π = x: x, 2x, x² = −1 = 2, x² + x = x + 2


def test_group_arithmetic():
    z7 = Design((7,), ((0, 0, 0, 0),), "z")
    assert z7.sub(2, 5) == 4 and z7.add(2, 5) == 0 and z7.tables == 7
    z2z3 = Design((2, 3), ((0, 0, 0, 0),), "z")     # (a, b) encoded 3a + b
    assert z2z3.tables == 6
    assert z2z3.sub(3, 2) == 4                       # (1, 0) − (0, 2) = (1, 1)
    assert z2z3.add(3, 2) == 5                       # (1, 0) + (0, 2) = (1, 2)
    assert z2z3.add(5, 5) == 1                       # (1, 2) + (1, 2) = (0, 1)
    z222 = Design((2, 2, 2), ((0, 0, 0, 0),), "z")
    assert z222.sub(5, 3) == 6 and z222.add(5, 3) == 6   # exclusive or


def test_clean_prefix_stops_at_the_first_clash():
    assert Design((7,), ((0, 0, 0, 0), (1, 1, 3, 5)), "x").clean_prefix() == 1        # S − E = 0 twice
    assert Design((7,), ((0, 0, 0, 0), (1, 3, 5, 6), (2, 1, 3, 5)), "x").clean_prefix() == 2   # E − W = −2 at positions 2 and 3
    assert Design((7,), ((0, 0, 0, 0), (1, 3, 5, 6)), "x").clean_prefix() == 2
    assert rainbow(6).positions == 2 and rainbow(6).offsets == ((0, 0, 0, 0), (1, 2, 4, 5))
    assert rainbow(7).truncate(3).offsets == ((0, 0, 0, 0), (1, 2, 5, 6), (2, 4, 3, 5))


def test_products_sections_and_stored_moves():
    p = product(rainbow(5), rainbow(7))
    assert p.mods == (5, 7) and p.tables == 35 and p.positions == 35
    assert p.method == "produit (5 × 7 tables)"
    assert p.offsets[:2] == ((0, 0, 0, 0), (1, 2, 5, 6))       # (0, rainbow 7 position 2): 0·7 + …
    assert p.offsets[7] == (7, 14, 21, 28)                     # (rainbow 5 position 2 = 1, 2, 3, 4; 0): ·7
    s = Layout((rainbow(5), rainbow(7)))
    assert s.tables == 12 and s.positions == 5
    assert s.method == f"sections (5 + 7 tables : {RAINBOW} ; {RAINBOW})"
    assert s.truncate(3).positions == 3 and Layout((rainbow(5),)).method == RAINBOW
    six = searched(6)
    assert six.method == "mouvements spéciaux par position (table FFT généralisée)"
    assert six.offsets == ((0, 0, 0, 0), (4, 2, 1, 3), (1, 3, 5, 2), (2, 1, 4, 5), (3, 4, 2, 1)) and six.mods == (6,)
    assert searched(7) is None


def test_candidates_in_order_of_preference():
    # 10 tables: Rainbow 10 // 2 = 5; the stored moves, 9; 2 × 5: 1 × 5; sections 5 + 5: 5
    assert candidates(10) == [(5, "rainbow", ()), (9, "searched", ()), (5, "product", (2, 5)), (5, "sections", (5, 5))]
    # 8 tables: Rainbow 8 // 4 = 2; GF(8): 8; 2 × 4: 1 × 1; no sections (5 + 3 is not two parts of 5 or more)
    assert candidates(8) == [(2, "rainbow", ()), (8, "field", ()), (1, "product", (2, 4))]
    assert candidates(4) == [] and best_positions(4) == 1
    assert best_positions(12) == 10 and best_positions(8) == 8 and best_positions(36) == 25   # 6 × 6: 5 × 5
    assert layout_for(10, 10) is None
    assert layout_for(10, 9).parts[0].method.startswith("mouvements spéciaux")
    assert layout_for(10, 5).parts[0].method == RAINBOW and layout_for(10, 5).positions == 5
    assert layout_for(36, 25).method == "produit (6 × 6 tables)"
    assert [part.tables for part in layout_for(33, 16).parts] == [16, 17]


# -- small clubs -------------------------------------------------------------------------------

def test_block_permutations():
    assert block_permutations(3) == ((0, 1, 2), (0, 1, 2), (0, 2, 1), (0, 2, 1), (1, 0, 2), (1, 0, 2),
                                     (1, 2, 0), (1, 2, 0), (2, 0, 1), (2, 0, 1), (2, 1, 0), (2, 1, 0))
    even = ((0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2), (1, 0, 3, 2), (1, 2, 0, 3), (1, 3, 2, 0),
            (2, 0, 1, 3), (2, 1, 3, 0), (2, 3, 0, 1), (3, 0, 2, 1), (3, 1, 0, 2), (3, 2, 1, 0))
    odd = ((1, 0, 2, 3), (0, 1, 3, 2), (3, 2, 0, 1), (2, 3, 1, 0))     # the Klein group's four, then (0 1)
    assert block_permutations(4) == even + odd
    with pytest.raises(ValueError):
        block_permutations(5)


def test_three_tables_first_two_positions_by_hand():
    m = generate("individual", 3)
    assert m.positions == 6 and m.boards == default_takers(24)
    # position 1: the players whose permutation starts with set k sit at table k + 1, seats N S E W in order
    assert m.rounds_at(1) == (
        Round(1, 1, (("N", "J1"), ("S", "J2"), ("E", "J3"), ("W", "J4")), (1, 2, 3, 4)),
        Round(1, 2, (("N", "J5"), ("S", "J6"), ("E", "J7"), ("W", "J8")), (5, 6, 7, 8)),
        Round(1, 3, (("N", "J9"), ("S", "J10"), ("E", "J11"), ("W", "J12")), (9, 10, 11, 12)))
    # position 2: set 0 (J5, J6, J9, J10: permutations (1 0 2), (2 0 1)) at table (0 − 1) mod 3 + 1 = 3,
    # seats rotated by one: J5 S, J6 E, J9 W, J10 N
    assert m.round_at(2, 3) == Round(2, 3, (("N", "J10"), ("S", "J5"), ("E", "J6"), ("W", "J9")), (1, 2, 3, 4))
    assert m.notes[0] == ("Méthode : petit club à 3 tables — les joueurs (J1 à J12) changent d’orientation ; "
                          "chaque série d’étuis est jouée par toutes les tables de son bloc.")
    assert m.notes[1].startswith("6 séries de 4 étuis ; aucun joueur ne joue deux fois un étui ; ")
    assert len(m.notes) == 2


def test_small_club_notes_and_refusals():
    # one block: the six twin pairs meet 3 times at 3 tables; 24 pairs meet twice at 4 tables
    assert generate("individual", 3, 3).notes[1] == ("3 séries de 4 étuis ; aucun joueur ne joue deux fois un étui ; "
                                                     "6 paires de joueurs se rencontrent plus d’une fois (minimum recherché).")
    assert generate("individual", 4, 4, boards_per_position=2).notes[1] == (
        "4 séries de 2 étuis ; aucun joueur ne joue deux fois un étui ; "
        "24 paires de joueurs se rencontrent plus d’une fois (minimum recherché).")
    assert generate("individual", 4, 4, boards_per_position=2).round_at(1, 2).boards == (3, 4)
    four = generate("individual", 3, 4)
    assert four.notes[2] == "La dernière position ouvre un nouveau bloc : ses étuis ne sont joués qu’une fois."
    assert four.notes[1].startswith("6 séries de 4 étuis")
    assert len(generate("individual", 3, 5).notes) == 2 and len(generate("individual", 3, 1).notes) == 2
    assert refused("individual", 3, 0) == "Il faut au moins une position."
    assert refused("individual", 3, 7) == ("Avec 3 tables, au plus 6 positions sans jouer deux fois un étui ; "
                                           "proposez 6 positions.")
    assert refused("individual", 4, 9) == ("Avec 4 tables, au plus 8 positions sans jouer deux fois un étui ; "
                                           "proposez 8 positions.")
    assert generate("individual", 4).positions == 4 and generate("individual", 4, 8).positions == 8


# -- triplettes --------------------------------------------------------------------------------

def test_three_table_mitchell_by_hand():
    # table t, position p (from 0): EW of table t − p, étuis set t + p (mod 3)
    m = generate("triplettes", 3)
    assert m.rounds == (
        trip(1, 1, "NS1", "EW1", 1), trip(1, 2, "NS2", "EW2", 5), trip(1, 3, "NS3", "EW3", 9),
        trip(2, 1, "NS1", "EW3", 5), trip(2, 2, "NS2", "EW1", 9), trip(2, 3, "NS3", "EW2", 1),
        trip(3, 1, "NS1", "EW2", 9), trip(3, 2, "NS2", "EW3", 1), trip(3, 3, "NS3", "EW1", 5))
    assert m.notes == ("Méthode : Mitchell (NS fixes, EO +1 table, étuis −1 table).",)
    assert m.boards == default_takers(12) and m.kind == "triplettes"


def test_four_table_mitchell_skips_a_table():
    m = generate("triplettes", 4)
    # EW1 at tables 1, 2, then 4 (the skip before position 2 + 1 = 3)
    assert [r.table for r in m.rounds if r.seat_map["EW"] == "EW1"] == [1, 2, 4]
    assert m.notes[1] == "Nombre pair de tables : les EO sautent une table avant la position 3."
    assert len(generate("triplettes", 4, 2).notes) == 1
    assert [r.table for r in generate("triplettes", 4, 2).rounds if r.seat_map["EW"] == "EW1"] == [1, 2]
    assert refused("triplettes", 1) == "Un Mitchell en triplettes demande au moins 2 tables ; reçu 1."
    assert refused("triplettes", 4, 0) == "Il faut au moins une position."
    assert refused("triplettes", 4, 4) == ("Avec 4 tables, au plus 3 positions sans répétition (Mitchell avec saut) ; "
                                           "proposez 3 positions.")
    assert refused("triplettes", 5, 6) == "Avec 5 tables, au plus 5 positions sans répétition (Mitchell) ; proposez 5 positions."
    assert generate("triplettes", 2).positions == 1 and generate("triplettes", 5, 1).positions == 1


# -- quadrettes --------------------------------------------------------------------------------

def test_three_quadrettes_by_hand():
    # offsets d = 1, 2: the attacker of x sits at table x + 2d, the étuis of table s at s + d
    m = generate("quadrettes", 3)
    assert m.rounds == (
        quad(1, 1, "Q2", "Q1", 9), quad(1, 2, "Q3", "Q2", 1), quad(1, 3, "Q1", "Q3", 5),
        quad(2, 1, "Q3", "Q1", 5), quad(2, 2, "Q1", "Q2", 9), quad(2, 3, "Q2", "Q3", 1))
    assert m.notes == ("Méthode : défenses fixes, attaquants +2 tables, étuis +1 table ; "
                       "chaque paire de quadrettes est comparée une fois sur les mêmes étuis.",)
    assert m.boards == default_takers(12) and (m.tables, m.positions) == (3, 2)


def test_two_quadrettes_and_their_phantom():
    m = generate("quadrettes", 2)
    # Q3 is the phantom: only Q2 → Q1 (position 1) and Q1 → Q2 (position 2) are played, on the one set used
    assert m.rounds == (quad(1, 1, "Q2", "Q1", 1), quad(2, 2, "Q1", "Q2", 1))
    assert m.boards == default_takers(4)
    assert m.notes[1] == ("Nombre pair de quadrettes : une quadrette fictive (Q3) est ajoutée ; à chaque position, "
                          "un attaquant et une défense sont au repos.")


def test_four_quadrettes_in_two_positions_leave_the_phantoms_set_out():
    # 5 with the phantom Q5; offsets 1 and 4 (= −1); at position p with offset d, table t + 1 is defended by
    # Q(t+1), attacked by Q((t − 2d) mod 5 + 1), on set (t − d) mod 5.  Position 1: Q5's table 5 and the table
    # Q5 would attack (t = 1) are idle; tables 1, 3, 4 play sets 4, 1, 2.  Position 2: tables 5 and 3 (Q5
    # attacks t = 2) idle; tables 1, 2, 4 play sets 1, 2, 4.  Set 3 is never played: sets 1, 2, 4 are
    # numbered 1, 2, 3 (étuis 1–4, 5–8, 9–12).
    m = generate("quadrettes", 4, 2)
    assert sorted(m.rounds, key=lambda r: (r.position, r.table)) == [
        quad(1, 1, "Q4", "Q1", 9), quad(1, 3, "Q1", "Q3", 1), quad(1, 4, "Q2", "Q4", 5),
        quad(2, 1, "Q3", "Q1", 1), quad(2, 2, "Q4", "Q2", 5), quad(2, 4, "Q1", "Q4", 9)]
    assert m.boards == default_takers(12)


def test_fewer_quadrette_positions():
    m = generate("quadrettes", 7, 2)
    # offsets 1 and 6 (= −1): Q1's attacker at table 3 then at table 1 + 12 = 13 ≡ 6
    assert [r.table for r in m.rounds if r.seat_map["attack"] == "Q1"] == [3, 6]
    assert m.notes[1] == "2 positions sur 6 : seules les paires d’écart ±1 à ±1 sont comparées."
    assert generate("quadrettes", 7, 4).notes[1] == "4 positions sur 6 : seules les paires d’écart ±1 à ±2 sont comparées."
    assert len(generate("quadrettes", 7).notes) == 1


@pytest.mark.parametrize("tables,positions,message", [
    (1, None, "Un tournoi en quadrettes demande au moins 2 quadrettes ; reçu 1."),
    (5, 0, "Il faut au moins une position."),
    (7, 7, "Avec 7 quadrettes, au plus 6 positions sans répétition (chaque paire comparée une fois) ; "
           "proposez 6 positions."),
    (7, 3, "En quadrettes, chaque comparaison se joue en deux positions : avec 3 positions une comparaison "
           "resterait incomplète ; proposez 2 ou 4 positions."),
    (7, 5, "En quadrettes, chaque comparaison se joue en deux positions : avec 5 positions une comparaison "
           "resterait incomplète ; proposez 4 ou 6 positions."),
    # one position: the only even neighbour is 2 (0 positions is refused)
    (7, 1, "En quadrettes, chaque comparaison se joue en deux positions : avec 1 positions une comparaison "
           "resterait incomplète ; proposez 2 positions."),
])
def test_quadrette_refusals(tables, positions, message):
    assert refused("quadrettes", tables, positions) == message


# -- team match --------------------------------------------------------------------------------

def test_a_team_match_by_hand():
    m = generate("team_match", 2)
    a_b, b_a = (("attack", "A"), ("defence", "B")), (("attack", "B"), ("defence", "A"))
    assert m.rounds == (
        Round(1, 1, a_b, (1, 2, 3, 4, 5), "open", "A"), Round(1, 2, b_a, (1, 2, 3, 4, 5), "closed", "A"),
        Round(2, 1, b_a, (6, 7, 8, 9, 10), "open", "B"), Round(2, 2, a_b, (6, 7, 8, 9, 10), "closed", "B"),
        Round(3, 1, a_b, (11, 12, 13, 14, 15), "open", "A"), Round(3, 2, b_a, (11, 12, 13, 14, 15), "closed", "A"),
        Round(4, 1, b_a, (16, 17, 18, 19, 20), "open", "B"), Round(4, 2, a_b, (16, 17, 18, 19, 20), "closed", "B"))
    assert m.notes == ("Match par équipes : 4 quarts temps ; séries d’étuis et salles choisies par A aux 1er et 3e "
                       "quarts temps, par B aux 2e et 4e ; le preneur est toujours en Sud.",)
    assert (m.kind, m.tables, m.positions, m.boards) == ("team_match", 2, 4, default_takers(20))
    assert generate("team_match", 2, 4).positions == 4


def test_two_team_matches_side_by_side_and_etui_counts():
    m = generate("team_match", 4)
    assert m.round_at(1, 3).seats == (("attack", "A2"), ("defence", "B2")) and m.round_at(1, 3).room == "open"
    assert m.round_at(2, 2).seats == (("attack", "A1"), ("defence", "B1"))
    assert m.notes[1] == "2 matchs simultanés : chaque match joue les mêmes étuis avec ses propres copies."
    assert generate("team_match", 2, boards_per_position=3).notes[1] == "12 étuis : le règlement prévoit de 16 à 24 étuis."
    assert generate("team_match", 2, boards_per_position=7).notes[1] == "28 étuis : le règlement prévoit de 16 à 24 étuis."
    assert len(generate("team_match", 2, boards_per_position=4).notes) == 1
    assert len(generate("team_match", 2, boards_per_position=6).notes) == 1
    assert generate("team_match", 2, boards_per_position=4).rounds[2].boards == (5, 6, 7, 8)


@pytest.mark.parametrize("tables,positions,per,message", [
    (3, None, None, "Un match par équipes se joue sur 2 tables par match (salle ouverte et salle fermée) ; "
                    "3 tables ne conviennent pas : proposez 2 ou 4 tables."),
    (5, None, None, "Un match par équipes se joue sur 2 tables par match (salle ouverte et salle fermée) ; "
                    "5 tables ne conviennent pas : proposez 4 ou 6 tables."),
    (1, None, None, "Un match par équipes se joue sur 2 tables par match (salle ouverte et salle fermée) ; "
                    "1 table ne convient pas : proposez 2 tables."),
    (0, None, None, "Un match par équipes se joue sur 2 tables par match (salle ouverte et salle fermée) ; "
                    "0 table ne convient pas : proposez 2 tables."),
    (2, 5, None, "Un match par équipes se joue en 4 quarts temps ; proposez 4 positions (reçu 5)."),
    (2, None, 0, "Il faut au moins un étui par quart temps."),
])
def test_team_match_refusals(tables, positions, per, message):
    assert refused("team_match", tables, positions, boards_per_position=per) == message


def test_fewer_than_five_tables_are_one_trivial_position():
    from duplicate.core.movements.designs import _build_single
    for tables in (2, 4):
        assert _build_single(tables) == Design((tables,), ((0, 0, 0, 0),), "une seule position")


@pytest.mark.parametrize("kind", ["individual", "triplettes", "quadrettes", "team_match"])
def test_no_reach_without_tables(kind):
    assert reach(kind, 0) == (0, 0) and reach(kind, -1) == (0, 0)


def test_team_match_defaults_and_edges():
    from duplicate.core.movements.team_match import generate_team_match
    assert generate_team_match().tables == 2
    one = generate("team_match", 2, boards_per_position=1)
    assert one.notes[1] == "4 étuis : le règlement prévoit de 16 à 24 étuis." and one.rounds[0].boards == (1,)
    assert refused("team_match", 9) == ("Un match par équipes se joue sur 2 tables par match (salle ouverte et salle "
                                        "fermée) ; 9 tables ne conviennent pas : proposez 8 ou 10 tables.")
    assert refused("team_match", -2) == ("Un match par équipes se joue sur 2 tables par match (salle ouverte et salle "
                                         "fermée) ; -2 table ne convient pas : proposez 2 tables.")


def test_triplettes_with_two_etuis_per_position():
    m = generate("triplettes", 3, boards_per_position=2)
    assert [r.boards for r in m.rounds_at(1)] == [(1, 2), (3, 4), (5, 6)] and m.boards == default_takers(6)


def test_quadrettes_with_two_etuis_per_position():
    m = generate("quadrettes", 3, boards_per_position=2)
    # the sets of test_three_quadrettes_by_hand (2, 0, 1 at position 1) with 2 étuis each
    assert [r.boards for r in m.rounds_at(1)] == [(5, 6), (1, 2), (3, 4)] and m.boards == default_takers(6)
