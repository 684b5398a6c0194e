"""Topage per étui (SPEC §4), with the seed's worked examples."""

from fractions import Fraction

from hypothesis import given, strategies as st

from duplicate.core.topage import ArbitralNote, Result, board_notes, topage


def _results(scores, board=1):
    return [Result(board, table, f"N{table}", (f"S{table}", f"E{table}", f"W{table}"), score)
            for table, score in enumerate(scores, start=1)]


def _taker_notes(scores):
    return [note.taker_note for note in board_notes(_results(scores))]


def test_seed_five_table_example():
    notes = board_notes(_results([56, 62, -56, -52, 50]))
    assert [n.taker_note for n in notes] == [75, 100, 0, 25, 50]
    assert [n.defence_note for n in notes] == [25, 0, 100, 75, 50]


def test_eleven_times_scale():
    notes = _taker_notes([30 + 2 * i for i in range(11)])
    assert sorted(notes, reverse=True) == [100, 90, 80, 70, 60, 50, 40, 30, 20, 10, 0]


def test_complements_80_20_and_33_3_66_7():
    six = board_notes(_results([100, 90, 80, 70, 60, 50]))
    assert (six[1].taker_note, six[1].defence_note) == (80, 20)
    four = board_notes(_results([40, 60, 80, 100]))
    assert four[1].taker_note == Fraction(100, 3) and four[1].defence_note == Fraction(200, 3)
    assert f"{float(four[1].taker_note):.1f}" == "33.3" and f"{float(four[1].defence_note):.1f}" == "66.7"


def test_equal_scores_share_the_notes():
    assert _taker_notes([56, 56, -52]) == [75, 75, 0]
    assert _taker_notes([50, 50, 50, 50]) == [50, 50, 50, 50]


def test_played_once_gives_fifty():
    notes = board_notes(_results([-100]))
    assert (notes[0].taker_note, notes[0].defence_note) == (50, 50)


def test_annulled_deal_is_left_out():
    results = _results([56, 62, -56, -52, 50])
    results[1] = Result(1, 2, "N2", ("S2", "E2", "W2"), 62, annulled=True)
    notes = board_notes(results)
    assert notes[1].taker_note is None and notes[1].defence_note is None
    assert [n.taker_note for i, n in enumerate(notes) if i != 1] == [Fraction(100), 0, Fraction(100, 3), Fraction(200, 3)]


def test_arbitral_note_is_fixed_and_out_of_the_comparison():
    results = _results([56, 62, -56])
    results[1] = Result(1, 2, "N2", ("S2", "E2", "W2"), None, notes=ArbitralNote(Fraction(60), Fraction(40)))
    notes = board_notes(results)
    assert [(n.taker_note, n.defence_note) for n in notes] == [(100, 0), (60, 40), (0, 100)]


def test_adjusted_score_is_topped_normally():
    results = _results([56, 62, -56])
    results[2] = Result(1, 3, "N3", ("S3", "E3", "W3"), 80, adjusted=True)
    assert [n.taker_note for n in board_notes(results)] == [0, 50, 100]


def test_topage_groups_by_board_in_position_order():
    results = [Result(2, 1, "a", ("b",), 50, position=2), Result(1, 1, "a", ("b",), 50, position=1),
               Result(2, 2, "c", ("d",), 60, position=1)]
    by_board = topage(results)
    assert list(by_board) == [1, 2]
    assert [n.result.table for n in by_board[2]] == [2, 1]


@given(st.lists(st.integers(-300, 300).map(lambda v: 2 * v), min_size=1, max_size=40))
def test_taker_notes_sum_to_fifty_times_n(scores):
    notes = board_notes(_results(scores))
    n = len(scores)
    assert sum(note.taker_note for note in notes) == 50 * n
    assert all(0 <= note.taker_note <= 100 and note.taker_note + note.defence_note == 100 for note in notes)
    # the best score has the best note
    best = max(range(n), key=lambda i: scores[i])
    assert notes[best].taker_note == max(note.taker_note for note in notes)


def _pairwise_taker_note(result, compared):
    """The seed's rule read literally: compare this table with every other one of the étui."""
    if len(compared) == 1:
        return Fraction(50)
    beaten = sum(other.score < result.score for other in compared)
    tied = sum(other.score == result.score for other in compared if other is not result)
    return 100 * (beaten + Fraction(tied, 2)) / (len(compared) - 1)


_LINE = st.tuples(st.integers(-60, 60).map(lambda v: 2 * v), st.sampled_from(["played", "annulled", "arbitral"]))


@given(st.lists(_LINE, min_size=1, max_size=30))
def test_notes_equal_the_pairwise_comparison(lines):
    results = [
        Result(1, table, f"N{table}", (f"S{table}", f"E{table}", f"W{table}"), score, annulled=how == "annulled",
               notes=ArbitralNote(Fraction(30), Fraction(70)) if how == "arbitral" else None)
        for table, (score, how) in enumerate(lines, start=1)
    ]
    compared = [r for r in results if not r.annulled and r.notes is None]
    expected = []
    for result in results:
        if result.annulled:
            expected.append((None, None))
        elif result.notes is not None:
            expected.append((Fraction(30), Fraction(70)))
        else:
            note = _pairwise_taker_note(result, compared)
            expected.append((note, 100 - note))
    assert [(n.taker_note, n.defence_note) for n in board_notes(results)] == expected


def test_table_notes_equal_the_dataclass_built_ones():
    """`topage` builds its notes without the dataclass's __init__ (`topage._table_note`): every field set,
    equal and hashed as ``TableNote(...)`` would be."""
    from dataclasses import fields, replace
    from fractions import Fraction

    from duplicate.core.topage import Result, TableNote, topage

    results = [Result(board=1, table=t, taker="N", defence=("S", "E", "W"), score=s) for t, s in ((1, 56), (2, -56))]
    notes = topage(results)[1]
    assert [(note.taker_note, note.defence_note) for note in notes] == [(100, 0), (0, 100)]
    for note in notes:
        built = TableNote(note.result, note.taker_note, note.defence_note)
        assert note == built and hash(note) == hash(built) and note == replace(note)
        assert set(note.__dict__) == {field.name for field in fields(TableNote)}
        assert type(note.taker_note) is Fraction
