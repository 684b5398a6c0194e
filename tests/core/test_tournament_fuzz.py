"""Hostile tournament files: any JSON is either read or refused with a French TournamentError."""

import json

from hypothesis import given, settings, strategies as st

from duplicate.core.tournament import TournamentError, load_tournament, ranking_output

scalars = st.one_of(st.none(), st.booleans(), st.integers(-300, 300), st.floats(allow_nan=False),
                    st.sampled_from(["N1", "S1", "E1", "W1", "NS1", "EW1", "Q1", "garde", "", "<script>"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)
fields = ["board", "table", "taker", "defenders", "taker_team", "defence_team", "score", "annulled",
          "notes", "contract", "quarter", "room", "position", "chelem", "adjusted"]
result_like = st.dictionaries(st.sampled_from(fields), values, max_size=8)
entrant_like = st.dictionaries(st.sampled_from(["id", "name", "line", "members", "bonus"]), values, max_size=5)
files = st.fixed_dictionaries(
    {"kind": st.sampled_from(["individual", "triplettes", "quadrettes", "team_match", "x"])},
    optional={"players": st.one_of(values, st.lists(entrant_like, max_size=5)),
              "teams": st.one_of(values, st.lists(entrant_like, max_size=3)),
              "boards": st.one_of(values, st.lists(st.dictionaries(st.sampled_from(["number", "taker"]), values),
                                                   max_size=3)),
              "results": st.one_of(values, st.lists(result_like, max_size=5)),
              "penalties": st.one_of(values, st.lists(st.dictionaries(
                  st.sampled_from(["player", "team", "points", "board"]), values), max_size=2)),
              "movement": values},
)


@settings(max_examples=400, deadline=None)
@given(files)
def test_any_json_is_read_or_refused_cleanly(data):
    try:
        tournament = load_tournament(json.dumps(data))
    except TournamentError as error:
        assert str(error)
        return
    json.dumps(ranking_output(tournament))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_is_read_or_refused_cleanly(text):
    try:
        load_tournament(text)
    except TournamentError:
        pass
