"""Rules that nothing protected before issue 17 (a mutation run let their mutants live), each pinned by
values worked out by hand in the comments — never by calling the code under test to get them."""

from decimal import Decimal
from fractions import Fraction as F

import pytest

from duplicate.core.pm import team_match_totals
from duplicate.core.ranking import Penalty, rank_standings, standings
from duplicate.core.scoring import Contract, ScoreError, check_score, reachable_scores, score_deal
from duplicate.core.topage import Result, board_notes, topage

LINES = {p: p[0] for p in ("N1", "S1", "E1", "W1", "N2", "S2", "E2", "W2", "N3", "S3", "E3", "W3")}


def _table(board, table, score, taker="N", **flags):
    """The result of ``board`` at ``table``, where every player keeps his seat (N1 … W3)."""
    others = tuple(f"{line}{table}" for line in "NSEW" if line != taker)
    return Result(board, table, f"{taker}{table}", others, score, **flags)


# --- penalties -------------------------------------------------------------------------------------

def test_a_takers_penalty_on_one_etui():
    # étui 1 at 3 tables: 56, 62, −56 → taker notes 50, 100, 0.  N2 (taker, 100) loses 10 on that étui:
    # attack 90; his defence is untouched (he defends nothing here) → no defence, global = attack = 90.
    notes = board_notes([_table(1, 1, 56), _table(1, 2, 62), _table(1, 3, -56)])
    rows = {r.entrant: r for r in standings("individual", LINES, notes, [Penalty("N2", F(10), board=1)])}
    assert rows["N2"].attack == 90 and rows["N2"].global_ == 90 and rows["N2"].penalty == 0
    # the defenders of that table keep 100 − 100 = 0; the penalty was the taker's alone
    assert rows["S2"].defence == 0 and rows["E2"].defence == 0
    # a penalty on another étui (2) touches nothing here
    rows = {r.entrant: r for r in standings("individual", LINES, notes, [Penalty("N2", F(10), board=2)])}
    assert rows["N2"].attack == 100


def test_repeated_penalties_add_up():
    # one étui at 2 tables, 56 and −52 → N1 100, N2 0; defenders of table 1 get 0, of table 2 get 100.
    notes = board_notes([_table(1, 1, 56), _table(1, 2, -52)])
    penalties = [Penalty("N1", F(1)), Penalty("N1", F(3, 2)),                 # global: 1 + 1.5 = 2.5
                 Penalty("S2", F(2), board=1), Penalty("S2", F(5), board=1),  # étui 1: 2 + 5 = 7
                 Penalty("E2", F(4), board=1), Penalty("E2", F(1))]           # one of each kind
    rows = {r.entrant: r for r in standings("individual", LINES, notes, penalties)}
    assert (rows["N1"].global_, rows["N1"].penalty) == (F(195, 2), F(5, 2))   # 100 − 2.5
    assert (rows["S2"].defence, rows["S2"].global_, rows["S2"].penalty) == (93, 93, 0)
    assert (rows["E2"].defence, rows["E2"].global_, rows["E2"].penalty) == (96, 95, 1)
    assert rows["W2"].defence == 100                                          # his partner at the table


# --- entrants, annulled deals, counts --------------------------------------------------------------

def test_an_entrant_with_no_deal():
    notes = board_notes([_table(1, 1, 56), _table(1, 2, -52)])
    rows = {r.entrant: r for r in rank_standings(standings("individual", {**LINES, "N9": "N"}, notes))}
    n9 = rows["N9"]
    assert (n9.attack, n9.defence, n9.global_, n9.attack_count, n9.defence_count) == (None, None, 0, 0, 0)
    assert n9.flagged
    # the 8 players of tables 1–2 each have a deal, the 4 of table 3 and N9 none: all five share 0 %,
    # after N1 100, S2 E2 W2 100, and N2 0, S1 E1 W1 0 — 12 players at 0 % share place 5.
    assert n9.rank == 5 and rows["N3"].rank == 5


def test_an_annulled_deal_in_the_middle_of_an_etui_leaves_the_others_in_place():
    # 5 tables, scores 56, 62, (−56 annulled at table 3), −52, 50 → n = 4 compared:
    # 62 beats 3 → 100; 56 beats 2 → 66.67; 50 beats 1 → 33.33; −52 beats 0 → 0.
    results = [_table(1, 1, 56), _table(1, 2, 62), _table(1, 3, -56, annulled=True), _table(1, 4, -52),
               _table(1, 5, 50)]
    notes = board_notes(results)
    assert [n.result.table for n in notes] == [1, 2, 3, 4, 5]
    assert [n.taker_note for n in notes] == [F(200, 3), 100, None, 0, F(100, 3)]
    assert [n.defence_note for n in notes] == [F(100, 3), 0, None, 100, F(200, 3)]
    # and in the averages: table 3's players have no deal at all, the others one each
    lines = {f"{line}{t}": line for line in "NSEW" for t in range(1, 6)}
    rows = {r.entrant: r for r in standings("individual", lines, notes)}
    assert (rows["N3"].attack_count, rows["S3"].defence_count) == (0, 0)
    assert (rows["N4"].attack, rows["N4"].attack_count, rows["S4"].defence_count) == (0, 1, 1)


def test_topage_orders_by_position_then_table_and_counts_each_board_apart():
    # étui 2 played at table 3 (position 1) then table 1 (position 2); étui 1 once (n = 1 → 50)
    results = [Result(2, 1, "a", ("b",), 60, position=2), Result(2, 3, "c", ("d",), 56, position=1),
               Result(1, 2, "e", ("f",), -52, position=1)]
    by_board = topage(results)
    assert [(n.result.table, n.taker_note) for n in by_board[2]] == [(3, 0), (1, 100)]
    assert [(n.result.table, n.taker_note) for n in by_board[1]] == [(2, 50)]


def test_attack_and_defence_deal_counts():
    # N1 takes étui 1 at table 1 and defends étui 2 there (S1 takes); étui 3 annulled at table 1
    notes = (board_notes([_table(1, 1, 56), _table(1, 2, -52)])
             + board_notes([_table(2, 1, 60, taker="S"), _table(2, 2, 70, taker="S")])
             + board_notes([_table(3, 1, 80, taker="E", annulled=True), _table(3, 2, 80, taker="E")]))
    rows = {r.entrant: r for r in standings("individual", LINES, notes)}
    assert (rows["N1"].attack_count, rows["N1"].defence_count) == (1, 1)
    assert (rows["S1"].attack_count, rows["S1"].defence_count) == (1, 1)
    assert (rows["E1"].attack_count, rows["E1"].defence_count) == (0, 2)
    assert (rows["E2"].attack_count, rows["E2"].defence_count) == (1, 2)
    # E2 alone on étui 3 (table 1 annulled) → 50; N1: attack 100 (56 > −52), defence 100 − 0 (60 < 70)
    assert rows["E2"].attack == 50 and rows["N1"].global_ == F(1, 4) * 100 + F(3, 4) * 100


# --- team match --------------------------------------------------------------------------------------

def _play(board, team, other, score, quarter, room):
    return Result(board, 1 if room == "open" else 2, team, (other,), score, quarter=quarter, room=room)


def test_team_match_totals_with_entrants_and_a_team_without_bonus():
    # étui 1 (quarter 1): A +82, B +66 → A wins PM(16) = 4.   étui 5 (quarter 3): A −68, B −58 → B wins
    # PM(10) = 3.162.  A has a bonus of 1.5, B none, C is registered but plays nothing.
    results = [_play(1, "A", "B", 82, 1, "open"), _play(1, "B", "A", 66, 1, "closed"),
               _play(5, "A", "B", -68, 3, "closed"), _play(5, "B", "A", -58, 3, "open")]
    board = team_match_totals(results, {"A": Decimal("1.5")}, entrants=["A", "B", "C"])
    assert board["A"] == {"quarters": {1: Decimal("4.000"), 3: Decimal(0)}, "bonus": Decimal("1.5"),
                          "total": Decimal("5.500")}
    assert board["B"] == {"quarters": {1: Decimal(0), 3: Decimal("3.162")}, "bonus": Decimal(0),
                          "total": Decimal("3.162")}
    assert board["C"] == {"quarters": {}, "bonus": Decimal(0), "total": Decimal(0)}
    assert list(board) == ["A", "B", "C"]


def test_team_match_bonus_of_a_team_that_is_not_an_entrant_and_equal_scores():
    # étui 2 in quarter 4: +60 both ways → nobody scores; D has a bonus only.
    results = [_play(2, "A", "B", 60, 4, "open"), _play(2, "B", "A", 60, 4, "closed")]
    board = team_match_totals(results, {"D": 2}, entrants=["A"])
    assert board["A"]["quarters"] == {4: 0} and board["B"]["quarters"] == {4: 0}
    assert board["D"] == {"quarters": {}, "bonus": Decimal(2), "total": Decimal(2)}
    assert board["B"]["bonus"] == 0 and board["B"]["total"] == 0


def test_each_play_counts_in_its_own_quarter():
    # étuis 1 and 2 in quarter 2, étui 3 in quarter 4: A wins étui 1 by PM(100 − 36 = 64) = 8, B étui 2 by
    # PM(−52 − (−56)) = PM(4) = 2, A étui 3 by PM(106 − 56 = 50) = 7.071.
    results = [_play(1, "A", "B", 100, 2, "open"), _play(1, "B", "A", 36, 2, "closed"),
               _play(2, "A", "B", -56, 2, "closed"), _play(2, "B", "A", -52, 2, "open"),
               _play(3, "A", "B", 106, 4, "open"), _play(3, "B", "A", 56, 4, "closed")]
    board = team_match_totals(results)
    assert board["A"]["quarters"] == {2: Decimal("8.000"), 4: Decimal("7.071")}
    assert board["B"]["quarters"] == {2: Decimal("2.000"), 4: Decimal(0)}
    assert board["A"]["total"] == Decimal("15.071") and board["B"]["total"] == Decimal("2.000")


# --- the score and its validator ---------------------------------------------------------------------

@pytest.mark.parametrize("points", [-1, 92, 100])
def test_card_points_run_from_0_to_91(points):
    with pytest.raises(ScoreError, match="nombre de points impossible"):
        score_deal("garde", points, 2)


def test_the_ends_of_the_points_scale():
    # 91 points with 3 bouts: made by 55 → (25 + 55) × 2 = 160;  0 points, 0 bouts: failed by 56 → −162
    assert score_deal("garde", 91, 3) == 160 and score_deal("garde", 0, 0) == -162


def test_garde_contre_leaves_the_dog_to_the_defence():
    # Garde Contre (×6), without a chelem, the taker winning 17 tricks: 68 cards, the defence's 10 cards
    # (the dog is theirs) at least 10 × ½ = 5 points → taker 86 with 3 bouts, made by 50:
    # (25 + 50) × 6 + 40 (triple poignée) + 60 (petit au bout) = 550.  Were the dog his (74 cards, the
    # defence 4 cards = 2 points): 89, made by 53 → 78 × 6 + 100 = 568.
    garde_contre = reachable_scores(Contract.GARDE_CONTRE)
    assert max(garde_contre) == 550
    assert check_score(550, "garde_contre").ok and check_score(550, "garde_contre").warning
    assert not check_score(568, "garde_contre").ok
    # the taker winning one trick: 4 cards, no bout, 2 points, failed by 54 → −79 × 6 − 40 − 60 = −574
    # (with the dog: 10 cards, 5 points, failed by 51 → −76 × 6 − 100 = −556)
    assert min(garde_contre) == -574
    # with a chelem made: 72 cards, the dog's 6 cards at least 3 points → 88, made by 52:
    # 77 × 6 + 40 + 60 + 400 = 962 (with the dog: 91, made by 55 → 80 × 6 + 500 = 980)
    assert max(reachable_scores(Contract.GARDE_CONTRE, True)) == 962
    # the Garde keeps the dog: 17 tricks → 74 cards, 89 points, made by 53 → 78 × 2 + 40 + 20 = 216
    assert max(reachable_scores(Contract.GARDE)) == 216


def test_chelem_with_the_excuse_kept_by_the_defence():
    # seed (rules-of-play, « Exemples »): Garde, chelem announced and made, the defence plays and keeps
    # its Excuse: the taker has 77 cards, 2 bouts and 91 − 4.5 = 86.5 → 87 points (the half point is
    # his), made by 46: (25 + 46) × 2 + 20 + 20 + 400 = 582.  With every card (3 bouts, 91) a made
    # announced chelem gives (25 + 55) × 2 + 400 = 560, + 20/30/40 + 20: never 582.
    assert check_score(582, "garde", chelem=True).ok
    assert 582 not in reachable_scores(Contract.GARDE)
    # the same with no poignée, no petit au bout, unannounced (+200): 142 + 200 = 342
    assert 342 in reachable_scores(Contract.GARDE, True)
    # a Garde Sans: 77 cards → (25 + 46) × 4 + 400 = 684, with the petit au bout 724
    assert {684, 724} <= set(reachable_scores(Contract.GARDE_SANS, True))


def test_a_refused_chelem_score_says_a_chelem_is_needed():
    message = check_score(582, "garde").message
    assert "n’est possible qu’avec un chelem" in message
    # +218 (above +216) with a chelem marked: refused all the same, and the message neither asks for a
    # chelem nor says « sans chelem »
    refused = check_score(218, "garde", chelem=True)
    assert not refused.ok
    assert "chelem" not in refused.message


def test_petit_au_bout_needs_the_petit_on_the_right_side():
    # A made chelem: the taker took every trick, the last one too, so no petit au bout for the defence.
    # Garde, all 78 cards: 3 bouts, 91 points, made by 55 → 160; unannounced +200 → 360, with his own
    # petit au bout 380.  The defence's petit au bout would make 160 − 20 + 200 = 340, which nothing else
    # reaches (the Excuse kept by the defence gives 142 + 200 + 0/20/30/40 (+ 20) = 342, 362, …; without
    # a chelem at most 216; a failed chelem at most 216 − 200).
    garde = reachable_scores(Contract.GARDE, True)
    assert {360, 380} <= set(garde)
    assert 340 not in garde and 540 not in garde
    # Prise (×1), the taker winning one trick: 10 cards (the dog is his), no bout, at least 5 points,
    # failed by 51 → −76 − 40 (poignée) − 10 (the defence's petit au bout) = −126.
    # 17 tricks: 74 cards, the defence's 4 cards 2 points → 89 with 3 bouts, made by 53:
    # 78 + 40 + 10 (his petit au bout) = 128.
    prise = reachable_scores(Contract.PRISE)
    assert (min(prise), max(prise)) == (-126, 128)


def test_scores_reachable_only_in_theory_are_flagged():
    # +216 for a Garde needs the taker to win 17 tricks: a warning.  +106 (the seed's example) none.
    assert check_score(216).warning and check_score(-212).warning
    assert check_score(106).warning is None and check_score(-52).warning is None


@pytest.mark.parametrize("text, contract", [
    ("Garde Sans", Contract.GARDE_SANS), ("garde-contre", Contract.GARDE_CONTRE), (" PRISE ", Contract.PRISE),
    ("garde_sans", Contract.GARDE_SANS),
])
def test_contract_names_as_typed(text, contract):
    assert Contract.parse(text) is contract


def test_out_of_range_inputs_are_named_in_the_message():
    from duplicate.core.scoring import needed_points
    with pytest.raises(ScoreError, match="nombre de bouts impossible : 4 "):
        needed_points(4)
    with pytest.raises(ScoreError, match="nombre de points impossible : 92 "):
        score_deal("garde", 92, 3)


def test_a_chelem_leaves_the_defence_at_most_the_excuse():
    # Taking every trick, the taker holds all 78 cards (3 bouts, 91 points) or, when the defence kept its
    # Excuse, 77 cards: 2 bouts and 91 − 4.5 = 86.5 → 87 points, never 86.  Prise, 2 bouts, 86 points and an
    # unannounced chelem would be (25 + 45) + 200 = 270; with 87 it is 271, 291, 301, 311 (poignées) and
    # +10 with the petit au bout.
    prise = reachable_scores(Contract.PRISE, True)
    assert 270 not in prise and 271 in prise and 281 in prise
    # Garde: 87 points → (25 + 46) × 2 + 200 = 342; 86 points would give 340
    garde = reachable_scores(Contract.GARDE, True)
    assert 342 in garde and 340 not in garde


# --- what the mutation run found unguarded (issue 17) -----------------------------------------------

def test_the_pm_of_equal_scores_has_no_sign():
    # PM(0) = 0: shown « 0,000 », never « −0,000 »
    from duplicate.core.pm import pm
    assert str(pm(0)) == "0.000" and not pm(0).is_signed()
    assert str(pm(-1)) == "-1.000" and str(pm(1)) == "1.000"


def test_team_match_plays_without_a_quarter_count_under_quarter_0():
    # étui 1, +60 against +50: PM(10) = 3.162 to A, in no quarter (key 0)
    results = [Result(1, 1, "A", ("B",), 60), Result(1, 2, "B", ("A",), 50)]
    board = team_match_totals(results)
    assert board["A"]["quarters"] == {0: Decimal("3.162")} and board["B"]["quarters"] == {0: Decimal(0)}


def test_out_of_ranking_rows_come_last_best_first():
    from duplicate.core.ranking import Standing
    rows = [Standing("A", "N", None, None, F(50), 0, 0), Standing("B", "N", None, None, F(60), 0, 0),
            Standing("C", "S", None, None, F(70), 0, 0), Standing("D", "S", None, None, F(40), 0, 0)]
    ranked = rank_standings(rows, out_of_ranking={"C", "D"})
    # B 60 → 1, A 50 → 2; C (70) and D (40) have no place, listed after, better first
    assert [(r.entrant, r.rank, r.alternated_rank) for r in ranked] == [
        ("B", 1, 1), ("A", 2, 2), ("C", None, None), ("D", None, None)]


def test_lines_without_a_position_come_first_then_by_position():
    # a file may give no position: such lines are listed first (position 0), then position 1, 2…
    results = [Result(1, 1, "a", ("b",), 60, position=1), Result(1, 2, "c", ("d",), 56),
               Result(1, 3, "e", ("f",), 50, position=2)]
    assert [n.result.table for n in topage(results)[1]] == [2, 1, 3]


def test_an_accepted_check_carries_its_score_contract_and_warning():
    check = check_score(216, "garde")
    assert (check.score, check.contract, check.ok) == (216, Contract.GARDE, True)
    assert check.message == "score +216 possible pour une Garde"
    assert check.warning == ("score +216 possible en théorie seulement pour une Garde (répartition extrême "
                             "des cartes) : à vérifier par l’arbitre")
    refused = check_score(31, "garde_sans")
    assert (refused.score, refused.contract, refused.ok, refused.warning) == (31, Contract.GARDE_SANS, False, None)


def test_the_refusal_names_the_right_reasons():
    # an even Garde score in the gap: no parity reason; a Prise has odd scores (25 + d): none either
    assert "pair" not in check_score(10, "garde").message
    assert "pair" not in check_score(3, "prise").message
    assert "aucun score n’est possible entre −16 et +15" in check_score(3, "prise").message
    # With a chelem marked, 0 is reachable: Garde, 3 bouts, 81 points, made by 45 → 140 + 40 (triple
    # poignée) + 20 (petit au bout) = 200, chelem announced and failed −200 → 0; 82 points → 2; 80 → −2.
    # So +1 and −1 sit between two reachable scores, one of them 0: « closest », not « a gap around 0 ».
    assert check_score(1, "garde", chelem=True).message.endswith("scores possibles les plus proches : 0 et +2")
    assert check_score(-1, "garde", chelem=True).message.endswith("scores possibles les plus proches : −2 et 0")
    assert check_score(0, "garde", chelem=True).ok and not check_score(0, "garde").ok


def test_what_a_chelem_leaves_possible():
    prise = reachable_scores(Contract.PRISE, True)
    # Made chelem: with the three bouts the taker holds all 78 cards, 91 points: Prise 80 + 200 (+ poignée,
    # + 10 for his petit au bout): 280, 290, …; the defence keeping its Excuse, 2 bouts and 87 points:
    # 71 + 200 = 271, 281, ….  Three bouts AND a card left to the defence (276–278) cannot happen: the
    # card it keeps in a chelem is the Excuse, a bout.
    assert {271, 280} <= set(prise) and not {276, 277, 278} & set(prise)
    # The taker took the last trick: no petit au bout for the defence: 71 − 10 + 200 = 261 (and 461 when
    # announced) are out, for a Garde 142 − 20 + 200 = 322 and 522.
    assert not {261, 461} & set(prise)
    assert not {322, 522} & set(reachable_scores(Contract.GARDE, True))
    # Defence chelem: the taker took no trick, so no petit au bout for him: −(25 + 18) + 10 − 400 = −433 is out.
    assert -433 not in prise


def test_garde_contre_one_trick_is_theoretical():
    # Garde Contre, the taker winning one trick: 4 cards, no bout, 2 points, failed by 54:
    # −79 × 6 − 40 − 60 = −574, and −774 once a failed announced chelem (−200) is added: both need that one
    # trick, an extreme distribution: accepted with a warning.  (Had the taker a card of the dog, 5 cards,
    # the same points: the flag is what tells.)
    garde_contre = reachable_scores(Contract.GARDE_CONTRE, True)
    assert garde_contre[-774] is True and reachable_scores(Contract.GARDE_CONTRE)[-574] is True
    # and the lowest: a defence chelem, the taker with no card at all: −81 × 6 − 100 − 400 = −986
    assert min(garde_contre) == -986


def test_refusal_messages_word_for_word():
    # the highest Garde without a chelem is +216 (see test_garde_contre_leaves_the_dog_to_the_defence);
    # with a chelem, the closest reachable scores around +218 are +216 and +342 (the Excuse kept, 142 + 200)
    assert check_score(582, "garde").message == (
        "score +582 impossible pour une Garde sans chelem : le plus fort score possible est +216 ; "
        "ce score n’est possible qu’avec un chelem : indiquez-le et appelez l’arbitre")
    refused = check_score(218, "garde", chelem=True)
    assert refused.ok is False and refused.message == (
        "score +218 impossible pour une Garde : scores possibles les plus proches : +216 et +342")


# --- the evening's changes and the triplettes' duties ------------------------------------------------

def test_lateness_default_step_is_one_point_and_zero_minutes_none():
    from duplicate.core.evening import lateness_points
    # art. 26 read for a duplicate: 1 point per started fraction of 5 minutes: 7 minutes → 2 fractions
    assert lateness_points(7) == 2 and lateness_points(5) == 1 and lateness_points(0) == 0
    assert lateness_points(11, F(1, 2)) == F(3, 2)


def test_a_substitute_is_credited_as_taker_and_as_defender_from_his_position():
    from duplicate.core.evening import Substitution, credit_results
    # X1 replaces N1 from position 2 and keeps the results: N1 takes étui 5 (position 2) and defends étui 6
    # (position 2); étui 1 (position 1) stays N1's
    results = [Result(1, 1, "N1", ("S1", "E1", "W1"), 56, position=1),
               Result(5, 1, "N1", ("S1", "E1", "W1"), 60, position=2),
               Result(6, 1, "S1", ("N1", "E1", "W1"), 70, position=2)]
    credited = credit_results(results, [Substitution("N1", "X1", 2, "substitute")])
    assert [(r.taker, r.defence) for r in credited] == [
        ("N1", ("S1", "E1", "W1")), ("X1", ("S1", "E1", "W1")), ("S1", ("X1", "E1", "W1"))]


def test_the_drawn_colour_of_a_published_seed_never_changes():
    from duplicate.core.triplettes import draw_first_colour
    # SHA-256 of « tarot-triplettes/1|<seed> », first 4 bytes big-endian, modulo 3 → Bleu, Blanc, Rouge:
    # the arbiter publishes the seed, so a seed's colour must stay what it was
    assert [draw_first_colour(s) for s in ("séance 1", "Open de Lyon 2026", "x")] == ["Rouge", "Blanc", "Blanc"]


def test_the_rotation_goes_on_across_sessions_and_names_a_bad_colour():
    from duplicate.core.triplettes import attack_rotation, attackers
    members = [("p1", "MARTIN", "Paul"), ("p2", "Évrard", "Anne"), ("p3", "DUPONT", "Jean")]
    # badges: DUPONT Bleu, Évrard Blanc, MARTIN Rouge; one attack already made from Bleu → Blanc, Rouge
    assert attackers(members, "Bleu", 2, already_attacked=1) == ["p2", "p1"]
    with pytest.raises(ValueError, match="couleur inconnue « Vert »"):
        attack_rotation("Vert", 1)
