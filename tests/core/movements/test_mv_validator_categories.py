"""The validator's kinds of fault (`movements.validator.check`): the report lists each kind's messages
together, kinds in the order their first case was found, and writes at most 12 cases of a kind, then
« … et n autre(s) cas du même genre (kind). » (SPEC §7; module docstring).  Hand-made movements whose
every message is worked out from the rounds written here; each test pins the order of the kinds or the
kind's name in that last line, which is how a message filed under the wrong kind would show.

``R(position, table, "N1 S1 E1 W1", boards)`` seats the players N, S, E, W in that order (``attack``,
``defence`` in quadrettes)."""

from duplicate.core.movements import Board, Movement, check
from duplicate.core.movements.model import Round, default_takers

SEATS = {"individual": ("N", "S", "E", "W"), "quadrettes": ("attack", "defence"),
         "team_match": ("attack", "defence")}


def R(position, table, who, boards, kind="individual"):
    names = who.split()
    return Round(position, table, tuple(zip(SEATS[kind][:len(names)], names)), tuple(boards))


def M(rounds, tables, positions, boards, kind="individual"):
    return Movement(kind, tables, positions, tuple(boards), tuple(rounds))


def test_each_kind_of_error_is_listed_together_in_the_order_first_found():
    """Two tables, two positions, étuis 1–8 with 8 listed twice (« étuis », found first).  Position 1,
    table 2: N2 in the N and S seats (« structure ») plays étui 3 twice (« répétition joueur–étui »), then
    étui 99, unknown (« étuis »), twice too.  Position 1, table 1: no W (« structure »).  Position 2: N1 at
    table 1 in the N seat and at table 2 in the S seat — one player, two tables, whatever the seat
    (« structure »).  Listed: the étuis' two, the structure's three, the two replays."""
    rounds = [R(1, 2, "N2 N2 E2 W2", (3, 99)),
              R(1, 1, "N1 S1 E1", (1, 2)),
              R(2, 1, "N1 S3 E3 W3", (5,)),
              R(2, 2, "S4 N1 E4 W4", (6,))]
    report = check(M(rounds, 2, 2, default_takers(8) + (Board(8, "W"),)))
    assert report.errors == [
        "la liste « boards » contient deux fois le même numéro d’étui",
        "position 1, table 2 : l’étui 99 n’est pas dans la liste des étuis",
        "position 1, table 2 : un même participant occupe deux places",
        "position 1, table 1 : place W sans participant",
        "position 2 : N1 est attendu à deux tables (1 et 2)",
        "N2 joue deux fois l’étui 3 (position 1 table 2, position 1 table 2)",
        "N2 joue deux fois l’étui 99 (position 1 table 2, position 1 table 2)",
    ]
    assert report.summary[0] == "Répétitions joueur–étui : 2"


def test_thirteen_teams_facing_themselves_end_with_the_count_of_their_kind():
    """Quadrettes on 13 tables, one position: at table t, Qt attacks and defends (étui t).  Nothing else is
    wrong (each étui at one table, a team's attacker and defence are two units, a team facing itself is
    no comparison): 12 « face » cases written, the 13th counted under its kind."""
    q = "quadrettes"
    rounds = [R(1, t, f"Q{t} Q{t}", (t,), q) for t in range(1, 14)]
    report = check(M(rounds, 13, 1, default_takers(13), q))
    assert report.errors == [f"position 1, table {t} : l’équipe Q{t} joue contre elle-même" for t in range(1, 13)] + [
        "… et 1 autre cas du même genre (face)."]


def test_thirteen_repeated_team_meetings_end_with_the_count_of_their_kind():
    """Quadrettes on 13 tables, two positions: at table t, At attacks against Dt's defence at both
    positions (étuis t, then 13 + t): 13 meetings repeated twice, listed in natural order (A1, A2, … A12),
    the 13th counted; then every étui played once (26 étuis, one table each)."""
    q = "quadrettes"
    rounds = [R(p, t, f"A{t} D{t}", (13 * (p - 1) + t,), q) for p in (1, 2) for t in range(1, 14)]
    report = check(M(rounds, 13, 2, default_takers(26), q))
    assert report.warnings == [f"l’attaquant de A{t} rencontre 2 fois la défense de D{t}" for t in range(1, 13)] + [
        "… et 1 autre cas du même genre (rencontres répétées).",
        "étuis joués une seule fois (topage impossible) : 1–26",
    ]
    assert report.summary[1] == "Rencontres répétées : 13"


def test_thirteen_repeated_meetings_of_players_end_with_the_count_of_their_kind():
    """Individual, 3 tables, 2 positions: the same four players at each table at both positions (étui t,
    then 3 + t): the 6 pairs of each table meet twice, 18 pairs, in natural order of the first then the
    second player (E1–N1, E1–S1, E1–W1, E2…, E3…, N1–S1, N1–W1, N2–S2: 12 written, 6 counted).  Nothing
    unbalanced (each player attacks at most one of his 2 étuis, ideal ½); each étui played once."""
    rounds = [R(p, t, f"N{t} S{t} E{t} W{t}", (3 * (p - 1) + t,)) for p in (1, 2) for t in (1, 2, 3)]
    report = check(M(rounds, 3, 2, default_takers(6)))
    pairs = [("E1", "N1"), ("E1", "S1"), ("E1", "W1"), ("E2", "N2"), ("E2", "S2"), ("E2", "W2"),
             ("E3", "N3"), ("E3", "S3"), ("E3", "W3"), ("N1", "S1"), ("N1", "W1"), ("N2", "S2")]
    assert report.warnings == [f"{a} et {b} se rencontrent 2 fois" for a, b in pairs] + [
        "… et 6 autres cas du même genre (rencontres répétées).",
        "étuis joués une seule fois (topage impossible) : 1–6",
    ]
    assert report.errors == [] and report.summary[1] == "Rencontres répétées : 18"


def test_the_three_etui_warnings_in_their_order():
    """One table, 3 positions, étuis 1–4: 1 at every position, 2 and 3 once each, 4 never — once, never,
    then the spread (1 to 3 times), in the order they are checked."""
    rounds = [R(1, 1, "N1 S1 E1 W1", (1, 2)), R(2, 1, "N2 S2 E2 W2", (1, 3)), R(3, 1, "N3 S3 E3 W3", (1,))]
    report = check(M(rounds, 1, 3, default_takers(4)))
    assert report.warnings == ["étuis joués une seule fois (topage impossible) : 2–3",
                               "étui jamais joué : 4",
                               "les étuis sont joués de 1 à 3 fois"]


def test_a_movement_without_rounds_plays_no_etui():
    report = check(M([], 1, 1, default_takers(4)))
    assert report.warnings == ["étuis jamais joués : 1–4"]
    assert report.summary[4] == "Nombre de fois que chaque étui est joué : aucun étui joué"


def test_every_etui_at_two_tables_is_found():
    """Position 1: étui 1 at table 1 only (checked first), étuis 2 and 3 at tables 1 and 2, étui 4 at
    table 2: neither the étui at one table nor the first étui at two ends the search."""
    rounds = [R(1, 1, "N1 S1 E1 W1", (1, 2, 3)), R(1, 2, "N2 S2 E2 W2", (2, 3, 4))]
    report = check(M(rounds, 2, 1, default_takers(4)))
    assert report.errors == ["position 1 : l’étui 2 est à plusieurs tables (1, 2)",
                             "position 1 : l’étui 3 est à plusieurs tables (1, 2)"]
    assert report.summary[2] == "Étui à deux tables dans la même position : 2"


def test_team_match_rooms_that_do_not_mirror_are_counted_in_the_summary():
    """Team match, 2 tables, one quarter: A attacks against B's defence in both rooms, étuis 1 and 2 —
    each étui at two tables without the rooms answering each other: 2 cases, counted in the summary."""
    t = "team_match"
    report = check(M([R(1, 1, "A B", (1, 2), t), R(1, 2, "A B", (1, 2), t)], 2, 1, default_takers(2), t))
    assert [e for e in report.errors if e.startswith("quart temps")] == [
        "quart temps 1 : l’étui 1 est joué aux tables 1, 2 sans que les deux salles se répondent",
        "quart temps 1 : l’étui 2 est joué aux tables 1, 2 sans que les deux salles se répondent",
    ]
    # issue 29 point 3: a match needs every étui at both tables of its quarter, mirrored; the summary counts
    # the mirrored ones (none of 2 here), not « étui à deux tables dans la même position »
    assert report.summary[2] == "Étuis joués en miroir dans les deux salles, comme le veut un match : 0 sur 2"
    assert report.counts["simultaneous"] == 2 and report.counts["mirrored"] == 0
