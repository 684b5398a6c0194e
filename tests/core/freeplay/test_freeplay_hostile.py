"""Hostile free-play files: any JSON value in any field of a result, a player, a penalty or the movement
gives a ranking or a French `FreePlayError` — never another exception (SPEC: « never a 500 »)."""

import copy

from hypothesis import given, settings, strategies as st

from duplicate.core.freeplay.tournament import FreePlayError, rank_free

from test_freeplay_ranking import SHEET

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8) | st.sampled_from(["garde", "simple", "taker", "defence", "N3", "announced_made", 40.5]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6)

RESULT_KEYS = ["table", "position", "deal", "taker", "partner", "dead", "players", "contract", "points",
               "bouts", "poignees", "petit_au_bout", "chelem", "passed"]


@settings(max_examples=400, deadline=None)
@given(index=st.integers(0, 5), key=st.sampled_from(RESULT_KEYS), value=json_values,
       where=st.sampled_from(["result", "player", "penalty", "movement", "top", "pcn", "team"]),
       duo=st.booleans())
def test_any_value_anywhere(index, key, value, where, duo):
    data = copy.deepcopy(SHEET)
    data["penalties"] = [{"player": "N3", "points": 10}]
    if duo:
        data["kind"] = "free_duo"
        data["teams"] = [{"id": "T1", "members": ["N3", "S3"]}, {"id": "T2", "members": ["E3", "W3"]}]
    if where == "result":
        data["results"][index][key] = value
    elif where == "player":
        data["players"][index % 4][key if key in ("id", "withdrawn") else "withdrawn"] = value
    elif where == "penalty":
        data["penalties"][0][["player", "points", "late_minutes", "fault"][index % 4]] = value
    elif where == "movement":
        data["movement"]["rounds"][0][["position", "table", "seats"][index % 3]] = value
    elif where == "top":
        data[["players", "results", "penalties", "movement", "teams"][index % 5]] = value
    elif where == "team":
        data.setdefault("teams", [{"id": "T1", "members": ["N3", "S3"]}])[0][["id", "members"][index % 2]] = value
    else:
        data["pcn"] = value
    try:
        out = rank_free(data)
    except FreePlayError as error:
        assert str(error)
        return
    assert all(sum(r["scores"].values()) == 0 for r in out["results"])
