"""Free-play scores at 3, 4 and 5 players (`duplicate.core.freeplay.scoring`).

Vectors from the booklet (seeds/fft-fascicule-free-play-ocr.txt, chapter 1, p. 8–11; the same text,
clean, in seeds/rules-of-play.txt), each derived by hand in its comment."""

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from duplicate.core.freeplay.scoring import DealFacts, counted_points, deal_score, parse_points, share
from duplicate.core.scoring import ScoreError, score_deal

# The booklet's five « Exemples de marque de points » (p. 8–9): facts → per-defender score.
BOOKLET_EXAMPLES = [
    # garde, poignée, petit au bout by the taker, 49 points with 2 bouts: (25 + 8) × 2 + 20 + 20 = +106
    (dict(contract="garde", points=49, bouts=2, poignees=["simple"], petit_au_bout="taker"), 106),
    # garde sans made by 4 (2 bouts, 45), petit au bout lost: (25 + 4) × 4 − 40 = +76
    (dict(contract="garde_sans", points=45, bouts=2, petit_au_bout="defence"), 76),
    # prise failed by 7 (1 bout, 44), poignée, petit au bout by the taker: −(25 + 7 + 20) + 10 = −42
    (dict(contract="prise", points=44, bouts=1, poignees=["simple"], petit_au_bout="taker"), -42),
    # garde made by 11 (2 bouts, 52), poignée shown by the defence: (25 + 11) × 2 + 20 = +92
    (dict(contract="garde", points=52, bouts=2, poignees=["simple"]), 92),
    # garde, announced chelem made, 87 points with 2 bouts, poignée, petit au bout:
    # (46 + 25) × 2 + 20 + 20 + 400 = +582
    (dict(contract="garde", points=87, bouts=2, poignees=["simple"], petit_au_bout="taker",
          chelem="announced_made"), 582),
]


@pytest.mark.parametrize("facts, score", BOOKLET_EXAMPLES)
def test_booklet_examples_at_four(facts, score):
    assert deal_score(DealFacts.of(**facts), 4) == score


def test_booklet_feuille_de_marque():
    """« Exemple de report des scores sur la feuille de marque » (p. 9): table 3, position 1, takers
    E, W, S, N, S on the five examples. Read from the sheet: N +318 −764 = −446, S +1746 −400 = 1346,
    E +360 −750 = −390, W +270 −780 = −510 (sum 0)."""
    takers = ["E", "W", "S", "N", "S"]
    totals = dict.fromkeys("NSEW", 0)
    lines = []
    for (facts, _), taker in zip(BOOKLET_EXAMPLES, takers):
        marks = share(deal_score(DealFacts.of(**facts), 4), taker, [s for s in "NSEW" if s != taker])
        lines.append(marks)
        for seat, mark in marks.items():
            totals[seat] += mark
    # the sheet's deal lines: donne 1 E +318, others −106; donne 3 S −126, others +42; donne 4 N +276
    assert lines[0] == {"E": 318, "N": -106, "S": -106, "W": -106}
    assert lines[1] == {"W": 228, "N": -76, "S": -76, "E": -76}
    assert lines[2] == {"S": -126, "N": 42, "E": 42, "W": 42}
    assert lines[3] == {"N": 276, "S": -92, "E": -92, "W": -92}
    assert lines[4] == {"S": 1746, "N": -582, "E": -582, "W": -582}
    assert totals == {"N": -446, "S": 1346, "E": -390, "W": -510}


def test_half_point_goes_to_the_winning_side():
    """Booklet p. 10 (3 players) and p. 11 (5 players): 40½ with 2 bouts → 40, failed by 1;
    41½ → 42, made by 1."""
    for players in (3, 5):
        assert counted_points(Fraction(81, 2), 2, players) == 40
        assert counted_points(Fraction(83, 2), 2, players) == 42
        assert counted_points("40,5", 2, players) == 40
        assert counted_points("41½", 2, players) == 42
    # 0 bouts, needed 56: 55½ fails (55, by 1), 56½ makes (57, by 1)
    assert counted_points(55.5, 0, 3) == 55
    assert counted_points(56.5, 0, 3) == 57
    with pytest.raises(ScoreError):
        counted_points(40.5, 2, 4)  # whole points at 4 players


def test_three_players():
    """« les points du preneur sont multipliés par 2 » (p. 10). Garde, 40½ with 2 bouts: 40, failed
    by 1 → s = −(25 + 1) × 2 = −52: taker −104, each defender +52."""
    s = deal_score(DealFacts.of("garde", 40.5, 2), 3)
    assert s == -52
    assert share(s, "S", ["E", "W"]) == {"S": -104, "E": 52, "W": 52}
    # 41½ → 42, made by 1: +52, taker +104
    assert share(deal_score(DealFacts.of("garde", 41.5, 2), 3), "S", ["E", "W"]) == {"S": 104, "E": -52, "W": -52}


def test_five_players():
    """p. 11: 2/3 for the taker, 1/3 for the partner of the attack's 3 × s; alone, 4 × s.
    Garde, 49 with 2 bouts, simple poignée (8 trumps at 5), petit au bout: (25 + 8) × 2 + 20 + 20 = 106;
    attack 318: taker 212, partner 106; alone 424."""
    s = deal_score(DealFacts.of("garde", 49, 2, ["simple"], "taker"), 5)
    assert s == 106
    assert share(s, "A", ["C", "D", "E"], partner="B") == {"A": 212, "B": 106, "C": -106, "D": -106, "E": -106}
    assert share(s, "A", ["B", "C", "D", "E"]) == {"A": 424, "B": -106, "C": -106, "D": -106, "E": -106}
    # « s'il s'est appelé »: partner = taker is alone
    assert share(s, "A", ["B", "C", "D", "E"], partner="A")["A"] == 424
    # the preamble's mort: a deal at 4, the mort marks 0
    assert share(s, "A", ["B", "C", "D"], dead="E") == {"A": 318, "B": -106, "C": -106, "D": -106, "E": 0}


def test_poignees_by_table_size():
    """Two poignées: at 5 (8/10/13 trumps) simple + triple = 21 ≤ 22 fits; at 3 (13/15/18) two simples
    = 26 do not; at 4 the duplicate card model refuses a double + triple (28)."""
    assert deal_score(DealFacts.of("prise", 56, 1, ["simple", "triple"]), 5) == 25 + 5 + 60
    with pytest.raises(ScoreError, match="22 atouts"):
        deal_score(DealFacts.of("prise", 56, 1, ["simple", "simple"]), 3)
    with pytest.raises(ScoreError):
        deal_score(DealFacts.of("prise", 56, 1, ["double", "triple"]), 4)


@pytest.mark.parametrize("bad", [-1, 91.5, 40.25, "abc", True, None])
def test_points_refused(bad):
    with pytest.raises(ScoreError):
        parse_points(bad)


def test_share_refuses_wrong_tables():
    with pytest.raises(ScoreError):
        share(10, "A", ["B"])  # 2 players
    with pytest.raises(ScoreError):
        share(10, "A", ["B", "C"], partner="D")  # a partner at 4
    with pytest.raises(ScoreError):
        share(10, "A", ["B", "A", "C"])  # twice the same player


facts_at = st.builds(
    DealFacts.of,
    contract=st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]),
    points=st.integers(0, 182).map(lambda halves: Fraction(halves, 2)),
    bouts=st.integers(1, 2),
    poignees=st.sampled_from([(), ("simple",), ("double",)]),
    petit_au_bout=st.sampled_from([None, "taker", "defence"]),
)


@settings(max_examples=300, deadline=None)
@given(facts=facts_at, size=st.sampled_from(["3", "5-partner", "5-alone", "5-dead"]))
def test_sum_is_zero_and_defenders_alike(facts, size):
    players = {"3": 3, "5-partner": 5, "5-alone": 5, "5-dead": 4}[size]
    if players == 4:
        facts = DealFacts(facts.contract, Fraction(int(facts.points)), facts.bouts, facts.poignees,
                          facts.petit_au_bout)
    try:
        s = deal_score(facts, players)
    except ScoreError:
        return  # refused facts (the 4-player card model) have no marks
    # at 3 and 5 the score is the 4-player one of the counted points
    points = counted_points(facts.points, facts.bouts, players)
    assert s == score_deal(facts.contract, points, facts.bouts, [p.value for p in facts.poignees],
                           facts.petit_au_bout, facts.chelem)
    defenders = {"3": ["D1", "D2"], "5-partner": ["D1", "D2", "D3"], "5-alone": ["D1", "D2", "D3", "D4"],
                 "5-dead": ["D1", "D2", "D3"]}[size]
    marks = share(s, "T", defenders, partner="P" if size == "5-partner" else None,
                  dead="M" if size == "5-dead" else None)
    assert sum(marks.values()) == 0
    assert {marks[d] for d in defenders} == {-s}
    if size == "5-partner":
        assert marks["T"] == 2 * marks["P"]


@settings(max_examples=200, deadline=None)
@given(contract=st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]), bouts=st.integers(0, 3),
       d=st.integers(1, 30), players=st.sampled_from([3, 5]))
def test_made_and_failed_by_as_much_are_opposite(contract, bouts, d, players):
    """Symmetry: made by d and failed by d mark opposite scores; so do needed + ½ and needed − ½ (the
    half point to the winning side: made by 1, failed by 1)."""
    needed = {0: 56, 1: 51, 2: 41, 3: 36}[bouts]
    if not (0 <= needed - d and needed + d <= 91):
        return
    made = deal_score(DealFacts.of(contract, needed + d, bouts), players)
    assert made > 0 and deal_score(DealFacts.of(contract, needed - d, bouts), players) == -made
    half_up = deal_score(DealFacts.of(contract, Fraction(2 * needed + 1, 2), bouts), players)
    assert half_up == -deal_score(DealFacts.of(contract, Fraction(2 * needed - 1, 2), bouts), players)
    assert half_up == deal_score(DealFacts.of(contract, needed + 1, bouts), players)


def test_checks_at_three_and_five_word_for_word():
    """At 3 players a double (15 trumps) and a simple (13) need 28 of the 22 trumps; at 5 two triples (13
    each) need 26. The petit au bout needs a bout in the side's tricks: the taker's with 1 bout is fine
    (prise 56 with 1 bout: 25 + 5 + 10 = +40), with 0 bouts refused; the defence's with 2 bouts is fine
    (garde 49 with 2 bouts: (25 + 8) × 2 − 10 × 2 = +46), with the taker's 3 bouts refused."""
    with pytest.raises(ScoreError) as caught:
        deal_score(DealFacts.of("prise", 56, 1, ["double", "simple"]), 3)
    assert str(caught.value) == ("poignées simple + double impossibles à 3 joueurs : il y a 22 atouts (Excuse "
                                 "comprise) et il en faut simple 13, double 15, triple 18")
    with pytest.raises(ScoreError) as caught:
        deal_score(DealFacts.of("prise", 56, 1, ["triple", "triple"]), 5)
    assert str(caught.value) == ("poignées triple + triple impossibles à 5 joueurs : il y a 22 atouts (Excuse "
                                 "comprise) et il en faut simple 8, double 10, triple 13")
    assert deal_score(DealFacts.of("prise", 56, 1, petit_au_bout="taker"), 3) == 40
    with pytest.raises(ScoreError) as caught:
        deal_score(DealFacts.of("prise", 60, 0, petit_au_bout="taker"), 3)
    assert str(caught.value) == "petit au bout au preneur avec 0 bout : le petit serait dans ses plis (1 bout au moins)"
    assert deal_score(DealFacts.of("garde", 49, 2, petit_au_bout="defence"), 5) == 46
    with pytest.raises(ScoreError) as caught:
        deal_score(DealFacts.of("garde", 49, 3, petit_au_bout="defence"), 5)
    assert str(caught.value) == "petit au bout à la défense quand le preneur a les 3 bouts : le petit serait dans ses plis"


def test_share_refusals_word_for_word():
    tail = " : 3 ou 4 joueurs, ou 5 dont un mort, avec ou sans partenaire appelé"
    for args, kw, message in (
            (("A", ["B", "A", "C"]), {}, "un même joueur figure deux fois dans la donne"),
            (("A", ["B"]), {}, "donne à 2 joueurs" + tail),
            (("A", ["B", "C"]), {"partner": "D"}, "donne à 4 joueurs et un partenaire" + tail),
            (("A", ["B", "C", "D", "E"]), {"dead": "F"}, "donne à 5 joueurs avec un mort" + tail),
            (("A", ["B", "C", "D", "E", "F"]), {}, "donne à 6 joueurs" + tail)):
        with pytest.raises(ScoreError) as caught:
            share(10, *args, **kw)
        assert str(caught.value) == message


def test_marks_are_whole_numbers():
    """At 5 with a partner the attack's 3s is split 2s and s: whole numbers (ints, as written in the JSON
    output: 132 and 66, not 132.0). A table of 6 is refused by name."""
    marks = share(66, "A", ["C", "D", "E"], partner="B")
    assert marks == {"A": 132, "B": 66, "C": -66, "D": -66, "E": -66}
    assert all(type(mark) is int for mark in marks.values())
    with pytest.raises(ScoreError) as caught:
        deal_score(DealFacts.of("garde", 49, 2), 6)
    assert str(caught.value) == "table de 6 joueurs : le jeu se joue à 3, 4 ou 5"


def test_facts_read_from_words_or_values():
    """A Contract is taken as it is, a word is parsed; the poignées are kept by bonus (simple 20, double
    30, triple 40), whatever the order typed; bouts must be a whole number."""
    from duplicate.core.scoring import Contract, Poignee

    assert DealFacts.of(Contract.GARDE_SANS, 45, 2).contract is Contract.GARDE_SANS
    assert DealFacts.of("garde", 49, 2).contract is Contract.GARDE
    assert DealFacts.of("prise", 56, 1, ["triple", "double", "simple"]).poignees == (
        Poignee.SIMPLE, Poignee.DOUBLE, Poignee.TRIPLE)
    with pytest.raises(ScoreError) as caught:
        DealFacts.of("garde", 49, "2")
    assert str(caught.value) == "nombre de bouts illisible : '2'"


@pytest.mark.parametrize("typed, points", [
    ("40 ½", Fraction(81, 2)),    # the space between the whole points and the ½ is dropped: 40.5
    (" 40 , 5 ", Fraction(81, 2)),  # spaces round the decimal comma too
    ("½", Fraction(1, 2)),        # a lone ½ is half a point (read as 0.5)
    ("0,5", Fraction(1, 2)),
])
def test_points_typed_with_spaces_and_a_lone_half(typed, points):
    assert parse_points(typed) == points


@pytest.mark.parametrize("typed, message", [
    (True, "nombre de points illisible : True"),
    ("quarante", "nombre de points illisible : « quarante »"),
    (None, "nombre de points illisible : None"),
    ([40], "nombre de points illisible : [40]"),
    (92, "nombre de points impossible : 92 (0 à 91, par demi-points)"),
    (40.25, "nombre de points impossible : 40.25 (0 à 91, par demi-points)"),  # a quarter is no half point
])
def test_points_refused_word_for_word(typed, message):
    with pytest.raises(ScoreError) as caught:
        parse_points(typed)
    assert str(caught.value) == message


def test_half_points_at_four_refused_word_for_word():
    """At 4 players the points are whole (SPEC §3): 40½ is refused, written with a decimal comma."""
    with pytest.raises(ScoreError) as caught:
        counted_points(Fraction(81, 2), 2, 4)
    assert str(caught.value) == "à 4 joueurs les points sont entiers : 40,5"


def test_unknown_poignee_refused_word_for_word():
    with pytest.raises(ScoreError) as caught:
        DealFacts.of("garde", 45, 2, ["quadruple"])
    assert str(caught.value) == "valeur inconnue : 'quadruple' is not a valid Poignee"


@pytest.mark.parametrize("players", [3, 5])
def test_chelem_counts_at_three_and_five(players):
    """« le calcul des points alloués aux défenseurs est le même qu'à quatre joueurs » (booklet p. 10–11),
    chelem included. The booklet's 5th example (garde, 87 points with 2 bouts, poignée, petit au bout,
    announced chelem made): (25 + 46) × 2 + 20 + 20 + 400 = +582. A garde made by 29 (2 bouts, 70) whose
    announced chelem fails: (25 + 29) × 2 − 200 = −92."""
    made = DealFacts.of("garde", 87, 2, ["simple"], "taker", "announced_made")
    assert deal_score(made, players) == 582
    failed = DealFacts.of("garde", 70, 2, chelem="announced_failed")
    assert deal_score(failed, players) == -92
