"""One `Format` per kind (core.formats): the kinds are declared once, and what differs between them is
read from the format. Values by hand from SPEC §5–§7."""

from decimal import Decimal
from fractions import Fraction as F

import pytest

from duplicate.core import movements, tournament
from duplicate.core.formats import FORMATS, KINDS, TOURNAMENT_KINDS, format_for
from duplicate.core.ranking import WEIGHTS
from duplicate.models import TournamentKind


def test_the_kinds_are_declared_once():
    assert KINDS == ("individual", "triplettes", "quadrettes", "team_match")
    assert tournament.KINDS is KINDS and movements.KINDS is KINDS
    # the database's kinds: the duplicate ones, then free play (SPEC §13), from the same module
    assert TOURNAMENT_KINDS == KINDS + ("free", "free_duo", "free_team4")
    assert tuple(kind.value for kind in TournamentKind) == TOURNAMENT_KINDS
    assert format_for(TournamentKind.quadrettes) is format_for("quadrettes")
    with pytest.raises(ValueError, match="inconnu"):
        format_for("pétanque")


def test_weights_of_the_global_percentage():
    # SPEC §5: individual ¼ attack + ¾ defence, triplettes ½ + ½; the PM kinds have none (SPEC §6)
    assert format_for("individual").weights == (F(1, 4), F(3, 4))
    assert format_for("triplettes").weights == (F(1, 2), F(1, 2))
    assert [f.id for f in FORMATS if f.uses_pm] == ["quadrettes", "team_match"]
    assert WEIGHTS == {"individual": (F(1, 4), F(3, 4)), "triplettes": (F(1, 2), F(1, 2))}
    assert format_for("individual").weights_text == "Global = ¼ attaque + ¾ défense"
    assert format_for("triplettes").weights_text == "Global = ½ attaque + ½ défense"


def test_places_drawn_table_by_table():
    # the 6th entrant drawn (index 5): individual N1 S1 E1 W1 N2 → S2; triplettes NS1 EW1 NS2 EW2 NS3 → EW3
    assert format_for("individual").drawn_place(5) == "S2"
    assert format_for("triplettes").drawn_place(5) == "EW3"
    assert format_for("quadrettes").drawn_place(5) == "Q6"
    assert [format_for("team_match").drawn_place(i) for i in (0, 1)] == ["A", "B"]
    for fmt in FORMATS:
        assert all(fmt.entrant_pattern.match(fmt.drawn_place(i)) for i in range(2))


def test_tables_for_the_entrants():
    # SPEC §7: 26 players → 6 full tables and 2 at the relais; 7 triplettes → ⌈7/2⌉ = 4 tables (Mitchell
    # with a relay); 5 quadrettes → 5 home tables; a team match → open and closed rooms
    assert format_for("individual").table_count(26) == 6
    assert format_for("triplettes").table_count(7) == 4
    assert format_for("quadrettes").table_count(5) == 5
    assert format_for("team_match").table_count(2) == 2


def test_team_sizes_and_taker_seat():
    assert [f.team_size for f in FORMATS] == [None, (3, 3), (4, 4), (4, 6)]
    # the attacker sits South in quadrettes and team matches (SPEC §6); else the étui's taker seat
    assert [f.taker_seat for f in FORMATS] == [None, None, "S", "S"]


def test_the_pm_an_attack_scores():
    # SPEC §6, team match: the side whose attacker did better scores |PM|, the other 0;
    # quadrettes: A scores PM(A − B), B its opposite
    match, quadrettes = format_for("team_match"), format_for("quadrettes")
    assert match.scored_pm(-3.162) == 0 and match.scored_pm(4.0) == 4.0
    assert match.scored_pm(Decimal("-12.000")) == Decimal(0)
    assert quadrettes.scored_pm(-3.162) == -3.162
    assert match.scored_pm(None) is None


def test_the_pm_an_attack_scores_below_one_and_at_zero():
    """Any better score scores, even under 1 PM (√1 = 1 is the smallest gap of the grid, but PM are summed
    and rounded: 0,5 stands); a PM of « −0,000 » (a rounded tiny loss) scores a plain 0, never « −0 »."""
    match = format_for("team_match")
    assert match.scored_pm(Decimal("0.5")) == Decimal("0.5")
    assert str(match.scored_pm(Decimal("-0.000"))) == "0"


def test_the_line_of_a_starting_place():
    line_of = format_for("individual").line_of
    assert [line_of(p) for p in ("N1", "NS2", "EW10", "W12", "A", "Q3")] == ["N", "NS", "EW", "W", "A", "Q"]


def test_a_kind_is_found_by_its_id_or_its_value():
    from types import SimpleNamespace

    assert format_for("triplettes").id == "triplettes"
    assert format_for(TournamentKind.quadrettes).id == "quadrettes"
    assert format_for(SimpleNamespace(value="team_match")).id == "team_match"  # any object with a value
    with pytest.raises(ValueError) as refused:
        format_for("belote")
    assert str(refused.value) == ("type de tournoi inconnu « belote » (attendu : individual, triplettes, "
                                  "quadrettes, team_match, free, free_duo, free_team4)")
    with pytest.raises(ValueError):
        format_for(["individual"])  # unhashable: the same French refusal, no TypeError


def test_the_line_that_duplicates_the_etuis():
    """Triplettes only (seed « Règles spécifiques aux tournois triplettes »): the NS line duplicates the odd
    étuis, EW the even ones — printed on the labels, guide cards and movement cards."""
    assert [f.line_duplicates for f in FORMATS] == [False, True, False, False]


def test_each_duplicate_format_names_its_movement_generator():
    # the format carries its generator (core.movements.<movement>): generate() and reach() ask it, once
    from duplicate.core.formats import FREE_FORMATS
    assert [f.movement for f in FORMATS] == ["individual", "triplettes", "quadrettes", "team_match"]
    assert [f.movement for f in FREE_FORMATS] == [None, None, None]
    quadrettes = format_for("quadrettes")
    assert movements.generate(quadrettes, 5).to_dict() == movements.generate("quadrettes", 5).to_dict()
    assert movements.generate(quadrettes, 5).kind == "quadrettes"
    assert movements.reach(quadrettes, 7) == (6, 6)
    with pytest.raises(movements.MovementError, match="« free » inconnu"):
        movements.generate(format_for("free"), 3)
    with pytest.raises(movements.MovementError, match="ne s’applique qu’à l’individuel"):
        movements.generate(format_for("triplettes"), None, players=12)


def test_the_free_individual_has_the_final_square_and_prizes():
    from duplicate.core.formats import FREE_FORMATS
    assert [f.id for f in (*FORMATS, *FREE_FORMATS) if f.free_individual] == ["free"]


def test_the_taker_seat_and_the_defenders_each_kind_decides():
    # SPEC §2: the étui's taker seat, N S E W in turn from étui 1 when it names none; South in the PM kinds
    takers = {6: "W"}
    assert [format_for("individual").taker_seat_for(n, takers) for n in (1, 2, 3, 4, 5, 6)] == [
        "N", "S", "E", "W", "N", "W"]
    assert format_for("triplettes").taker_seat_for(6, takers) == "W"
    assert {format_for(kind).taker_seat_for(6, takers) for kind in ("quadrettes", "team_match")} == {"S"}
    # the defenders: the three others; in triplettes the other line (not the taker's partner)
    assert format_for("individual").defender_seats("E") == ("N", "S", "W")
    assert format_for("triplettes").defender_seats("E") == ("N", "S")
    assert format_for("triplettes").defender_seats("S") == ("E", "W")
    # who confirms: a defender, not the North who entered the score (rules of play, art. 28)
    assert format_for("individual").confirming_seats("E") == ("S", "W")
    assert format_for("triplettes").confirming_seats("E") == ("S",)
    assert format_for("quadrettes").confirming_seats("S") == ("E", "W")


def test_a_round_s_lines_each_kind_deals():
    # individual, étui 5 taken N by default, étui 6 taken W: the taker at his seat, the three others defend
    seats = {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}
    assert [(l.board, l.taker, l.defence, l.taker_seat) for l in
            format_for("individual").round_lines(seats, [5, 6], {6: "W"})] == [
        (5, "N1", ["S1", "E1", "W1"], "N"), (6, "W1", ["N1", "S1", "E1"], "W")]
    assert format_for("individual").round_lines({"N": "N1", "S": "S1", "E": "E1"}, [5], {}) == []  # a bye seat
    # triplettes: étui 3 taken E by default → the EW triplette attacks, the NS one defends
    assert [(l.taker, l.defence, l.taker_seat) for l in
            format_for("triplettes").round_lines({"NS": "NS2", "EW": "EW1"}, [3], {})] == [("EW1", ["NS2"], "E")]
    # team match: the attack against the defence, in its room, the position its quarter; quadrettes no room
    match = format_for("team_match").round_lines({"attack": "A", "defence": "B"}, [1], {}, room="open", position=2)
    assert [(l.taker, l.defence, l.taker_seat, l.room, l.quarter) for l in match] == [("A", ["B"], None, "open", 2)]
    quad = format_for("quadrettes").round_lines({"attack": "Q1", "defence": "Q2"}, [1], {}, room="x", position=2)
    assert [(l.room, l.quarter) for l in quad] == [(None, None)]
    # free play has no étuis
    assert format_for("free").round_lines(seats, [1], {}) == []


def test_a_result_s_sides_contract_and_attacker():
    assert format_for("individual").result_sides("N1", ["S1", "E1", "W1"]) == {
        "taker": "N1", "defenders": ["S1", "E1", "W1"]}
    assert format_for("quadrettes").result_sides("Q1", ["Q2"]) == {"taker_team": "Q1", "defence_team": "Q2"}
    assert format_for("triplettes").result_attack(None, None, "NS1", "EW2") == ("NS1", ["EW2"])
    assert format_for("individual").result_attack("N1", ["S1"], None, None) == ("N1", ["S1"])
    # the contract: Garde imposed (SPEC §2), bid freely in a team match (SPEC §6)
    assert format_for("individual").contract_of("garde_sans") == "garde"
    assert format_for("team_match").contract_of("garde_sans") == "garde_sans"
    assert format_for("team_match").contract_of(None) == "garde"
    # the attacker named at entry: quadrettes only
    assert format_for("quadrettes").attacker_of(" J7 ") == "J7"
    assert format_for("quadrettes").attacker_of("  ") is None
    assert format_for("team_match").attacker_of("J7") is None


def test_the_defender_at_a_seat():
    # the player sitting there in the individual; the defending team in the team kinds
    seats = {"N": "N1", "S": "S1", "E": "E1", "W": "W1"}
    assert format_for("individual").defender_at(seats, ["S1", "E1", "W1"], "E") == "E1"
    assert format_for("triplettes").defender_at({"NS": "NS1", "EW": "EW2"}, ["EW2"], "E") == "EW2"
    assert format_for("quadrettes").defender_at({"attack": "Q1", "defence": "Q2"}, ["Q2"], "W") == "Q2"


def test_the_pcn_parameters_of_each_free_kind():
    # booklet p. 44: 11 players, 6 duos, 5 teams of 4 at least; the abattement c, c², c⁴; 1, 2, 4 players
    assert [format_for(kind).pcn_parameters() for kind in ("free", "free_duo", "free_team4")] == [
        (11, 1, 1), (6, 2, 2), (5, 4, 4)]


def test_what_the_operations_and_pages_ask_each_kind_decides():
    """Issue 32: the decisions the operations and pages ask by name, kind by kind (SPEC §5–§7, §13)."""
    kinds = TOURNAMENT_KINDS
    decided = {kind: format_for(kind) for kind in kinds}
    assert {k: f.who_attacks for k, f in decided.items()} == {
        "individual": None, "triplettes": "colours", "quadrettes": "named", "team_match": "quarters",
        "free": None, "free_duo": None, "free_team4": None}
    assert {k: f.attack_step for k, f in decided.items() if f.attack_step} == {
        "triplettes": "first_colour", "team_match": "attackers"}
    assert [k for k, f in decided.items() if f.seats_by_player] == ["individual", "free"]
    assert [k for k, f in decided.items() if f.has_final_square] == ["free"]
    assert [k for k, f in decided.items() if f.has_position_coefficients] == ["free"]
    assert [k for k, f in decided.items() if f.registers_team_line] == ["individual", "triplettes"]
    assert [k for k, f in decided.items() if f.has_team_match_pages] == ["team_match"]
    assert [k for k, f in decided.items() if f.chooses_quarter_boards] == ["team_match"]
    assert [k for k, f in decided.items() if not f.position_feminine] == ["team_match"]
    assert {k: f.entrant_word for k, f in decided.items()} == {
        "individual": "Joueur", "triplettes": "Équipe", "quadrettes": "Équipe", "team_match": "Équipe",
        "free": "Joueur", "free_duo": "Équipe", "free_team4": "Équipe"}
    # the contract an entry states: the team match's bid, the imposed Garde elsewhere (SPEC §2, §6)
    assert [k for k, f in decided.items() if f.bid_contract("garde_sans") == "garde_sans"] == ["team_match"]
    assert all(f.bid_contract(None) is None for f in decided.values())
    # the triplettes' badges, first colour and duplication duty; none elsewhere
    members = [("1", "DURAND Anne"), ("2", "ABEL Marc"), ("3", "MARTIN Luc")]
    assert format_for("triplettes").team_badges(members) == {"2": "Bleu", "1": "Blanc", "3": "Rouge"}
    assert format_for("triplettes").first_colour("graine") in ("Bleu", "Blanc", "Rouge")
    assert [format_for("triplettes").duplicating_line(n) for n in (1, 2, 3)] == ["NS", "EW", "NS"]
    for kind in kinds:
        if kind != "triplettes":
            assert (decided[kind].team_badges(members), decided[kind].first_colour("graine"),
                    decided[kind].duplicating_line(1)) == ({}, None, None)


def test_free_play_has_no_etuis():
    """SPEC §13: donnes libres play feuilles de marque, no étuis dealt in advance (SPEC §1–§7)."""
    assert {kind: format_for(kind).has_etuis for kind in TOURNAMENT_KINDS} == {
        "individual": True, "triplettes": True, "quadrettes": True, "team_match": True,
        "free": False, "free_duo": False, "free_team4": False}


def test_the_team_kinds_rank_teams():
    """SPEC §5–§6, §13: triplettes, quadrettes, team match, libre duo and libre par 4 form teams of the
    registered players; the individual and free play's individual rank players."""
    assert {kind: format_for(kind).has_teams for kind in TOURNAMENT_KINDS} == {
        "individual": False, "triplettes": True, "quadrettes": True, "team_match": True,
        "free": False, "free_duo": True, "free_team4": True}


def test_who_may_change_during_the_evening():
    """SPEC §11: joueurs de complément, late arrivals and replacements where each player is an entrant;
    a withdrawal during play (art. 27) in free play's team kinds too."""
    assert {kind: format_for(kind).changes_players_alone for kind in TOURNAMENT_KINDS} == {
        "individual": True, "triplettes": False, "quadrettes": False, "team_match": False,
        "free": True, "free_duo": False, "free_team4": False}
    assert {kind: format_for(kind).withdraws_players for kind in TOURNAMENT_KINDS} == {
        "individual": True, "triplettes": False, "quadrettes": False, "team_match": False,
        "free": True, "free_duo": True, "free_team4": True}


def test_the_lines_an_entrant_s_line_must_be_one_of():
    """The triplettes' NS or EW (SPEC §5); none checked where attack and defence sit apart (SPEC §6)."""
    assert {kind: format_for(kind).entrant_lines for kind in TOURNAMENT_KINDS} == {
        "individual": ("N", "S", "E", "W"), "triplettes": ("NS", "EW"), "quadrettes": None, "team_match": None,
        "free": ("N", "S", "E", "W"), "free_duo": ("NS", "EW"), "free_team4": ("T",)}


def test_which_pm_are_written_signed():
    """SPEC §6: a quadrette's PM are signed; a team match's side scores 0 or |PM|, written unsigned."""
    assert {kind: format_for(kind).signs_pm for kind in KINDS} == {
        "individual": True, "triplettes": True, "quadrettes": True, "team_match": False}


def test_the_team_match_s_rooms_and_bids():
    """SPEC §6–§7: a team match's tables are its open and closed rooms, and its attack bids Garde, Garde
    Sans or Garde Contre; elsewhere tables are numbered and the Garde imposed (SPEC §2)."""
    assert {kind: format_for(kind).tables_are_rooms for kind in TOURNAMENT_KINDS} == {
        "individual": False, "triplettes": False, "quadrettes": False, "team_match": True,
        "free": False, "free_duo": False, "free_team4": False}
    assert {kind: format_for(kind).attack_bids for kind in TOURNAMENT_KINDS} == {
        "individual": False, "triplettes": False, "quadrettes": False, "team_match": True,
        "free": False, "free_duo": False, "free_team4": False}
    assert [format_for(kind).table_noun for kind in KINDS] == ["Table", "Table", "Table", "Salle"]
