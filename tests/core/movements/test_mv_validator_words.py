"""The validator's report word for word (SPEC §7): hand-made movements whose faults are counted by hand.

Helpers build rounds directly (no generator), so that every expected message follows from the rounds
written here: ``R(position, table, "N1 S1 E1 W1", boards)`` seats the four players N, S, E, W in that order."""

from dataclasses import replace

import pytest

from duplicate.core.movements import Board, Movement, check, generate
from duplicate.core.movements.model import Round, default_takers
from duplicate.core.movements.validator import _natural, _ranges

SEATS = {"individual": ("N", "S", "E", "W"), "triplettes": ("NS", "EW"),
         "quadrettes": ("attack", "defence"), "team_match": ("attack", "defence")}


def R(position, table, who, boards, kind="individual"):
    names = who.split()
    return Round(position, table, tuple(zip(SEATS[kind][:len(names)], names)), tuple(boards))


def M(rounds, tables, positions, boards, kind="individual", **extra):
    return Movement(kind, tables, positions, tuple(boards), tuple(rounds), **extra)


# -- the clean case ----------------------------------------------------------------------------

def test_the_seed_five_table_rainbow_report_word_for_word():
    report = check(generate("individual", 5))
    assert report.title == "Vérification du mouvement — individuel, 5 tables, 5 positions, 20 étuis"
    assert report.errors == [] and report.warnings == [] and report.ok is True
    assert report.summary == [
        "Répétitions joueur–étui : aucune",
        "Rencontres répétées : aucune",
        "Étui à deux tables dans la même position : aucun",
        "Équilibre : chaque participant attaque ¼ des étuis ; places en défense équilibrées",
        "Nombre de fois que chaque étui est joué : 5 fois : étuis 1–20",
    ]
    # 20 players (N, S, E, W of 5 tables), each of the 20 étuis at the 5 tables once
    assert report.stats == {"board_plays": {b: 5 for b in range(1, 21)}, "repeated_meetings": 0, "entrants": 20}
    assert report.text() == "\n".join([
        "Vérification du mouvement — individuel, 5 tables, 5 positions, 20 étuis",
        "Résultat : mouvement valide.",
        "Bilan :",
        "  • Répétitions joueur–étui : aucune",
        "  • Rencontres répétées : aucune",
        "  • Étui à deux tables dans la même position : aucun",
        "  • Équilibre : chaque participant attaque ¼ des étuis ; places en défense équilibrées",
        "  • Nombre de fois que chaque étui est joué : 5 fois : étuis 1–20",
    ])


def test_a_report_with_errors_and_warnings_reads_in_that_order():
    # one table, one position; the étui list has 5 and 5 again; étui 5 is never played
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2, 3, 4))], 1, 1, default_takers(5) + (Board(5, "N"),))
    report = check(m)
    assert report.ok is False
    assert report.errors == ["la liste « boards » contient deux fois le même numéro d’étui"]
    assert report.warnings == ["étuis joués une seule fois (topage impossible) : 1–4",
                               "étui jamais joué : 5"]
    assert report.text() == "\n".join([
        "Vérification du mouvement — individuel, 1 tables, 1 positions, 6 étuis",
        "Résultat : mouvement NON VALIDE (1 erreur).",
        "Erreurs :",
        "  – la liste « boards » contient deux fois le même numéro d’étui",
        "Avertissements :",
        "  – étuis joués une seule fois (topage impossible) : 1–4",
        "  – étui jamais joué : 5",
        "Bilan :",
        "  • Répétitions joueur–étui : aucune",
        "  • Rencontres répétées : aucune",
        "  • Étui à deux tables dans la même position : aucun",
        # each player sees takers N, S, E, W once: 1 attack of 4, one étui at each defensive place
        "  • Équilibre : chaque participant attaque ¼ des étuis ; places en défense équilibrées",
        "  • Nombre de fois que chaque étui est joué : 1 fois : étuis 1–4",
    ])
    assert report.stats == {"board_plays": {1: 1, 2: 1, 3: 1, 4: 1}, "repeated_meetings": 0, "entrants": 4}


# -- errors of structure -----------------------------------------------------------------------

def test_positions_and_tables_out_of_range_and_a_table_twice():
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2, 3, 4)),
           R(1, 3, "N2 S2 E2 W2", (5, 6, 7, 8)),          # table 3 of 2
           R(0, 2, "N3 S3 E3 W3", (9, 10, 11, 12)),       # position 0
           R(1, 1, "N4 S4 E4 W4", (13, 14, 15, 16)),      # table 1 again at position 1
           R(2, 2, "N5 S5 E5 W5", (17, 18, 19, 20)),      # the last position and table are in range
           R(3, 2, "N6 S6 E6 W6", (21, 22, 23, 24))],     # position 3 of 2
          2, 2, default_takers(24))
    assert check(m).errors == [
        "position 1, table 3 : table hors de 1…2",
        "position 0, table 2 : position hors de 1…2",
        "position 1, table 1 : la table figure deux fois dans cette position",
        "position 3, table 2 : position hors de 1…2",
    ]


def test_missing_seats_and_one_player_in_two_seats():
    m = M([R(1, 1, "N1 S1", (1, 2, 3, 4)),
           R(1, 2, "N2 N2 E2 W2", (5, 6, 7, 8))], 2, 1, default_takers(8))
    assert check(m).errors == [
        "position 1, table 1 : places E, W sans participant",
        "position 1, table 2 : un même participant occupe deux places",
        # N2 at N and at S plays each étui of the table twice
        "N2 joue deux fois l’étui 5 (position 1 table 2, position 1 table 2)",
        "N2 joue deux fois l’étui 6 (position 1 table 2, position 1 table 2)",
        "N2 joue deux fois l’étui 7 (position 1 table 2, position 1 table 2)",
        "N2 joue deux fois l’étui 8 (position 1 table 2, position 1 table 2)",
    ]


def test_a_player_expected_at_two_tables():
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2, 3, 4)),
           R(1, 2, "N1 S2 E2 W2", (5, 6, 7, 8)),
           R(2, 1, "N1 S3 E3 W3", (9, 10, 11, 12))], 2, 2, default_takers(12))
    assert check(m).errors == ["position 1 : N1 est attendu à deux tables (1 et 2)"]


def test_etui_faults_a_player_replaying_and_an_etui_at_two_tables():
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 1, 2, 3)),
           R(1, 2, "N2 S2 E2 W2", (9, 5, 6, 7))],
          2, 1, default_takers(8) + (Board(8, "W"),))
    report = check(m)
    assert report.errors == [
        "la liste « boards » contient deux fois le même numéro d’étui",
        "position 1, table 1 : un étui figure deux fois",
        "position 1, table 2 : l’étui 9 n’est pas dans la liste des étuis",
        "N1 joue deux fois l’étui 1 (position 1 table 1, position 1 table 1)",
        "S1 joue deux fois l’étui 1 (position 1 table 1, position 1 table 1)",
        "E1 joue deux fois l’étui 1 (position 1 table 1, position 1 table 1)",
        "W1 joue deux fois l’étui 1 (position 1 table 1, position 1 table 1)",
        "position 1 : l’étui 1 est à plusieurs tables (1, 1)",
    ]
    assert report.summary[0] == "Répétitions joueur–étui : 4"
    assert report.summary[2] == "Étui à deux tables dans la même position : 1"


def test_a_replay_names_both_positions_and_tables():
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2, 3, 4)),
           R(2, 2, "N2 S1 E2 W2", (3, 5, 6, 7))], 2, 2, default_takers(7))
    report = check(m)
    assert report.errors == ["S1 joue deux fois l’étui 3 (position 1 table 1, position 2 table 2)"]
    assert report.summary[0] == "Répétitions joueur–étui : 1"
    assert report.stats["board_plays"] == {1: 1, 2: 1, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1}
    assert report.stats["entrants"] == 7


def test_no_known_etui_list_accepts_any_number():
    m = M([R(1, 1, "N1 S1 E1 W1", (7, 8, 9, 10))], 1, 1, ())
    report = check(m)
    assert report.errors == []
    assert report.summary[-1] == "Nombre de fois que chaque étui est joué : 1 fois : étuis 7–10"


def test_the_twelfth_case_is_listed_the_thirteenth_counted():
    twelve = [R(1, t, f"N{t} S{t} E{t} W{t}", (4 * t - 3, 4 * t - 2, 4 * t - 1, 4 * t)) for t in range(2, 14)]
    m = M(twelve, 1, 1, default_takers(52))
    assert check(m).errors == [f"position 1, table {t} : table hors de 1…1" for t in range(2, 14)]
    m = M(twelve + [R(1, 14, "N14 S14 E14 W14", (53, 54, 55, 56))], 1, 1, default_takers(56))
    assert check(m).errors == [f"position 1, table {t} : table hors de 1…1" for t in range(2, 14)] + [
        "… et 1 autre cas du même genre (structure)."]


def test_thirteen_replays_are_counted_in_the_summary():
    # the same four players replay étuis 1–4 at positions 2, 3 and 4: 4 players × 4 étuis × 3 = 48 errors;
    # once the étuis are at several positions, not at several tables
    rounds = [R(p, 1, "N1 S1 E1 W1", (1, 2, 3, 4)) for p in range(1, 5)]
    report = check(M(rounds, 1, 4, default_takers(4)))
    assert len(report.errors) == 13
    assert report.errors[-1] == "… et 36 autres cas du même genre (répétition joueur–étui)."
    assert report.summary[0] == "Répétitions joueur–étui : 48"
    # the six pairs of the table meet 4 times each
    assert report.summary[1] == "Rencontres répétées : 6"
    assert report.warnings[0] == "E1 et N1 se rencontrent 4 fois"   # pairs in sorted order: E1 < N1
    assert report.stats["repeated_meetings"] == 6


# -- quadrettes and team matches ---------------------------------------------------------------

def test_quadrettes_replays_self_play_and_half_done_comparisons():
    q = "quadrettes"
    m = M([R(1, 1, "Q1 Q2", (1, 2), q),
           R(2, 1, "Q2 Q1", (1, 2), q),          # the mirror of the first: a complete comparison
           R(2, 2, "Q1 Q3", (1, 3), q),          # Q1's attacker replays 1; 1 at tables 1 and 2
           R(3, 1, "Q4 Q2", (2,), q),            # Q2's defence replays 2
           R(3, 2, "Q5 Q5", (9,), q),            # Q5 against itself
           R(4, 1, "Q1 Q2", (7,), q)],           # Q1's attacker meets Q2's defence again
          2, 4, default_takers(9), q)
    report = check(m)
    assert report.errors == [
        "l’attaquant de Q1 joue deux fois l’étui 1 (position 1 table 1, position 2 table 2)",
        "la défense de Q2 joue deux fois l’étui 2 (position 1 table 1, position 3 table 1)",
        "position 3, table 2 : l’équipe Q5 joue contre elle-même",
        "position 2 : l’étui 1 est à plusieurs tables (1, 2)",
        "comparaison incomplète Q1–Q2 : l’attaquant de Q2 ne joue pas contre la défense de Q1 les étuis 7",
        "comparaison incomplète Q1–Q3 : l’attaquant de Q3 ne joue pas contre la défense de Q1 les étuis 1, 3",
        "comparaison incomplète Q4–Q2 : l’attaquant de Q2 ne joue pas contre la défense de Q4 les étuis 2",
    ]
    assert report.warnings[0] == "l’attaquant de Q1 rencontre 2 fois la défense de Q2"
    assert report.summary[3] == "Équilibre : sans objet (preneur toujours Sud)"
    assert report.summary[1] == "Rencontres répétées : 1"
    assert report.stats["entrants"] == 5


def test_team_match_rooms_must_mirror_and_repeated_meetings_are_by_design():
    t = "team_match"
    bad = M([R(1, 1, "A B", (1, 2), t), R(1, 2, "A B", (1, 2), t)], 2, 1, default_takers(2), t)
    report = check(bad)
    # A attacks and B defends in both rooms at once
    assert report.errors == [
        "position 1 : A est attendu à deux tables (1 et 2)",
        "position 1 : B est attendu à deux tables (1 et 2)",
        "l’attaquant de A joue deux fois l’étui 1 (position 1 table 1, position 1 table 2)",
        "la défense de B joue deux fois l’étui 1 (position 1 table 1, position 1 table 2)",
        "l’attaquant de A joue deux fois l’étui 2 (position 1 table 1, position 1 table 2)",
        "la défense de B joue deux fois l’étui 2 (position 1 table 1, position 1 table 2)",
        "quart temps 1 : l’étui 1 est joué aux tables 1, 2 sans que les deux salles se répondent",
        "quart temps 1 : l’étui 2 est joué aux tables 1, 2 sans que les deux salles se répondent",
        "comparaison incomplète A–B : l’attaquant de B ne joue pas contre la défense de A les étuis 1–2",
    ]
    # A's attacker meets B's defence twice: a team match's teams meet every quarter, no warning
    assert report.warnings == [] and report.summary[1] == "Rencontres répétées : aucune"
    good = M([R(1, 1, "A B", (1, 2), t), R(1, 2, "B A", (1, 2), t),
              R(2, 1, "A B", (3, 4), t), R(2, 2, "B A", (3, 4), t)], 2, 2, default_takers(4), t)
    assert check(good).errors == [] and check(good).warnings == []


# -- warnings ----------------------------------------------------------------------------------

def test_repeated_meetings_listed_in_natural_order():
    m = M([R(1, 1, "J10 J2 J3 J1", (1, 2, 3, 4)), R(2, 1, "J10 J2 J3 J1", (5, 6, 7, 8))],
          1, 2, default_takers(10))
    report = check(m)
    assert report.errors == []
    assert report.warnings == [
        "J1 et J2 se rencontrent 2 fois", "J1 et J3 se rencontrent 2 fois", "J1 et J10 se rencontrent 2 fois",
        "J2 et J3 se rencontrent 2 fois", "J10 et J2 se rencontrent 2 fois", "J10 et J3 se rencontrent 2 fois",
        "étuis joués une seule fois (topage impossible) : 1–8",
        "étuis jamais joués : 9–10",
    ]
    assert report.summary[1] == "Rencontres répétées : 6"
    assert report.summary[3] == "Équilibre : chaque participant attaque ¼ des étuis ; places en défense équilibrées"


def test_etuis_played_an_unequal_number_of_times():
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2)), R(2, 1, "N2 S2 E2 W2", (1, 3)), R(3, 1, "N3 S3 E3 W3", (1,))],
          1, 3, default_takers(3))
    report = check(m)
    assert report.errors == []
    assert report.warnings == ["étuis joués une seule fois (topage impossible) : 2–3",
                               "les étuis sont joués de 1 à 3 fois"]
    assert report.summary[4] == "Nombre de fois que chaque étui est joué : 3 fois : étuis 1; 1 fois : étuis 2–3"
    # one more or less is not a warning
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2)), R(2, 1, "N2 S2 E2 W2", (1, 2)), R(3, 1, "N3 S3 E3 W3", (1,))],
          1, 3, default_takers(2))
    assert check(m).warnings == []


def test_every_etui_taken_north_unbalances_everybody():
    m = generate("individual", 5)
    report = check(replace(m, boards=tuple(Board(b.number, "N") for b in m.boards)))
    assert report.ok
    # per player 20 étuis, ideal 20 / 4 = 5; North attacks them all; South sits opposite (« milieu »),
    # East on North's left (« devant »), West behind (« fond »); rounds by position then table, seats N S E W
    expected = []
    for t in (1, 2):
        expected += [f"N{t} attaque 20 étuis sur 20 (attendu 5)",
                     f"S{t} attaque 0 étui sur 20 (attendu 5)",
                     f"S{t} : places en défense déséquilibrées (devant 0, milieu 20, fond 0)",
                     f"E{t} attaque 0 étui sur 20 (attendu 5)",
                     f"E{t} : places en défense déséquilibrées (devant 20, milieu 0, fond 0)"]
    expected += ["W1 attaque 0 étui sur 20 (attendu 5)",
                 "W1 : places en défense déséquilibrées (devant 0, milieu 0, fond 20)"]
    # the first twelve in order: N1, S1 ×2, E1 ×2, W1 ×2, N2, S2 ×2, E2 ×2 (W1 comes before N2)
    first = expected[:5] + expected[10:12] + expected[5:10]
    assert report.warnings == first + ["… et 23 autres cas du même genre (équilibre)."]
    assert report.summary[3] == "Équilibre : 35 déséquilibres (voir les avertissements)"


def test_triplettes_attack_half_their_etuis():
    m = generate("triplettes", 5)
    assert check(m).summary[3] == "Équilibre : chaque participant attaque ½ des étuis"
    report = check(replace(m, boards=tuple(Board(b.number, "N") for b in m.boards)))
    # every taker North: NS attacks its 20 étuis, EW none; ideal 20 / 2 = 10
    assert sorted(report.warnings[:10]) == sorted(
        [f"NS{t} attaque 20 étuis sur 20 (attendu 10)" for t in range(1, 6)]
        + [f"EW{t} attaque 0 étui sur 20 (attendu 10)" for t in range(1, 6)])
    assert len(report.warnings) == 10
    assert report.summary[3] == "Équilibre : 10 déséquilibres (voir les avertissements)"


def test_an_attack_share_one_off_the_ideal_is_a_warning_below_one_is_not():
    # one table, 6 étuis; takers N, N, N, S, E, W: North attacks 3 of 6, the ideal is 1.5 (off by 1.5);
    # South, East, West attack 1 (off by 0.5)
    takers = [Board(1, "N"), Board(2, "N"), Board(3, "N"), Board(4, "S"), Board(5, "E"), Board(6, "W")]
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2, 3, 4, 5, 6))], 1, 1, takers)
    report = check(m)
    assert [w for w in report.warnings if "attaque" in w] == ["N1 attaque 3 étuis sur 6 (attendu 1.5)"]
    # S1: milieu for 1–3 (N), devant for 6 (W's left is S), fond for 5 (E): 1, 3, 1 → off by 2
    # E1: devant for 1–3, milieu for 6, fond for 4 (S): 3, 1, 1;  W1: fond for 1–3, devant for 4, milieu 5: 1, 1, 3
    assert [w for w in report.warnings if "places" in w] == [
        "S1 : places en défense déséquilibrées (devant 1, milieu 3, fond 1)",
        "E1 : places en défense déséquilibrées (devant 3, milieu 1, fond 1)",
        "W1 : places en défense déséquilibrées (devant 1, milieu 1, fond 3)",
    ]
    # takers N, N, S, E, W, W: N1 attacks 2 (ideal 1.5, off by 0.5)
    takers = [Board(1, "N"), Board(2, "N"), Board(3, "S"), Board(4, "E"), Board(5, "W"), Board(6, "W")]
    report = check(M([R(1, 1, "N1 S1 E1 W1", (1, 2, 3, 4, 5, 6))], 1, 1, takers))
    assert [w for w in report.warnings if "attaque" in w] == []


def test_a_board_without_a_listed_taker_uses_n_s_e_w_in_turn():
    # étui list empty: the taker of étui n is N, S, E, W for n = 1, 2, 3, 4
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 2, 3, 4))], 1, 1, ())
    assert check(m).summary[3] == "Équilibre : chaque participant attaque ¼ des étuis ; places en défense équilibrées"
    m = M([R(1, 1, "N1 S1 E1 W1", (1, 5, 9, 13))], 1, 1, ())   # all taken by North
    assert "N1 attaque 4 étuis sur 4 (attendu 1)" in check(m).warnings


# -- rests (relais) ----------------------------------------------------------------------------

def _five(rests, players=5, positions=2):
    rounds = [R(1, 1, "J1 J2 J3 J4", (1, 2, 3, 4)), R(2, 1, "J5 J2 J3 J4", (5, 6, 7, 8))]
    if positions == 3:
        rounds.append(R(3, 1, "J1 J2 J3 J4", (9, 10, 11, 12)))
    return M(rounds, 1, positions, default_takers(4 * positions), players=players, rests=rests)


def test_a_clean_relais_report():
    report = check(_five(((1, ("J5",)), (2, ("J1",)))))
    assert report.errors == []
    assert report.summary[5:] == ["Relais par position : 1 : J5 ; 2 : J1",
                                  "Relais par participant : 1 fois : J1, J5 ; jamais : J2, J3, J4"]


def test_the_relais_summary_without_rests():
    report = check(_five((), positions=2), entrants=["J1", "J2", "J3", "J4", "J5"])
    assert report.summary[5:] == ["Relais par position : 1 : personne ; 2 : personne",
                                  "Relais par participant : jamais : J1, J2, J3, J4, J5"]
    assert "position 1 : J5 n’est ni placé ni au relais" in report.errors


def test_a_headcount_that_does_not_match():
    report = check(_five(((1, ("J5",)), (2, ("J1",))), players=6))
    assert report.errors == [
        "le mouvement est prévu pour 6 joueurs, 5 sont inscrits",
        "position 1 : 1 joueur au relais, 2 attendus (6 joueurs)",
        "position 2 : 1 joueur au relais, 2 attendus (6 joueurs)",
    ]


def test_a_registered_player_never_seen_and_one_not_registered():
    m = _five(((1, ("J5",)), (2, ("J1",))))
    report = check(m, entrants=["J1", "J2", "J3", "J4", "J5", "J6"])
    assert report.errors == [
        "le mouvement est prévu pour 5 joueurs, 6 sont inscrits",
        "position 1 : J6 n’est ni placé ni au relais",
        "position 2 : J6 n’est ni placé ni au relais",
    ]
    report = check(m, entrants=["J1", "J2", "J3", "J4"])
    assert report.errors == [
        "le mouvement est prévu pour 5 joueurs, 4 sont inscrits",
        "position 1 : J5 est au relais mais n’est pas inscrit",
        "position 2, table 1 : J5 n’est pas inscrit (place sans joueur)",
    ]


def test_seated_and_resting_or_resting_twice():
    report = check(_five(((1, ("J5", "J1")), (2, ("J1",)))))
    assert report.errors == [
        "position 1 : J1 est à la fois placé et au relais",
        "position 1 : 2 joueurs au relais, 1 attendu (5 joueurs)",
        "J1 passe une deuxième fois au relais (positions 1 et 2) alors que J2 n’y est jamais passé",
    ]
    report = check(_five(((1, ("J5", "J5")), (2, ("J1",)))))
    assert report.errors == [
        "position 1 : un même joueur figure deux fois au relais",
        "position 1 : 2 joueurs au relais, 1 attendu (5 joueurs)",
        "J5 passe une deuxième fois au relais (positions 1 et 1) alors que J1 n’y est jamais passé",
        "J5 passe une deuxième fois au relais (positions 1 et 1) alors que J1 n’y est jamais passé",
    ]


def test_a_second_rest_before_everybody_rested_once():
    report = check(_five(((1, ("J5",)), (2, ("J1",)), (3, ("J5",))), positions=3))
    assert report.errors == [
        "J5 passe une deuxième fois au relais (positions 1 et 3) alors que J2 n’y est jamais passé",
    ]
    assert report.summary[5:] == ["Relais par position : 1 : J5 ; 2 : J1 ; 3 : J5",
                                  "Relais par participant : 2 fois : J5 ; 1 fois : J1 ; jamais : J2, J3, J4"]


def test_teams_rest_in_both_roles():
    q = "quadrettes"
    m = M([R(1, 1, "Q1 Q2", (1, 2), q), R(1, 2, "Q2 Q3", (3, 4), q)], 2, 1, default_takers(4), q,
          rests=((1, ("Q2", "Q1")),))
    # Q2 plays both roles and rests: an error; Q1 plays one role and rests: no error; Q3 plays one role only
    assert check(m).errors == [
        "comparaison incomplète Q1–Q2 : l’attaquant de Q2 ne joue pas contre la défense de Q1 les étuis 1–2",
        "comparaison incomplète Q2–Q3 : l’attaquant de Q3 ne joue pas contre la défense de Q2 les étuis 3–4",
        "position 1 : Q2 est à la fois placé et au relais",
        "position 1 : Q3 n’est ni placé ni au relais",
    ]


# -- helpers -----------------------------------------------------------------------------------

@pytest.mark.parametrize("numbers,text", [
    ([], ""), ([4], "4"), ([1, 2], "1–2"), ([1, 3], "1, 3"), ([1, 2, 3, 5], "1–3, 5"),
    ([1, 2, 3, 5, 7, 8], "1–3, 5, 7–8"), ([0, 1], "0–1"),
])
def test_ranges(numbers, text):
    assert _ranges(numbers) == text


def test_natural_order_of_ids():
    assert _natural("J10") == ("J", 10, "J10")
    assert _natural("A") == ("A", -1, "A")
    assert sorted(["J10", "J2", "A", "J1"], key=_natural) == ["A", "J1", "J2", "J10"]


def test_comparisons_skip_a_team_facing_itself_and_a_round_without_defence():
    q = "quadrettes"
    m = M([R(1, 1, "Q1 Q1", (1,), q), R(1, 2, "Q2 Q3", (2,), q), R(2, 1, "Q4", (3,), q)], 2, 2, default_takers(3), q)
    assert check(m).errors == [
        "position 1, table 1 : l’équipe Q1 joue contre elle-même",
        "position 2, table 1 : place defence sans participant",
        "comparaison incomplète Q2–Q3 : l’attaquant de Q3 ne joue pas contre la défense de Q2 les étuis 2",
    ]


def test_thirteen_half_done_comparisons():
    q = "quadrettes"
    rounds = [R(p, 1, f"Q1 Q{p + 1}", (p,), q) for p in range(1, 14)]
    errors = check(M(rounds, 1, 13, default_takers(13), q)).errors
    assert len(errors) == 13
    assert errors[-1] == "… et 1 autre cas du même genre (comparaison)."
